"""A line of the board's cells left outside its grid.

The locate stage places a board by the cells it found.  Where an outer row or
column of them made no blobs (lamps merged with the floor's grout at the
coarse scale), the lattice is a block of the board, one line short, and its
cells still repeat the board's few states.  A line just outside such a grid
whose every cell shows one of the states the grid's cells show, not all the
same one, with what lies one line beyond showing none of them (the board ends
there), is the board's: the grid takes it in.

What a cell shows is the median colour of its middle; a board of many looks
(a palette of icons, objects on grass) has no few states to go by, and a line
of one state (a frame round the board, a lit border) is no line of a board of
two.

The page beyond may show a state's colour too: a terminal's dark page round
its dark unlit cells.  Then the board's cells tell it by their structure: a
board's cells share their edges (a tile's border, a marker in its middle, at
the same place in each: ``locate.structure``), and a line whose cells share
them as the board's own do, with the line beyond sharing less, is the board's.
Measured on the renderer's tuning boards (twelve looks, 40 boards each), their
true grid less one outer line (1,920 such): the colours alone took the line back
in 989, with the structure 1,200.  The true grids themselves: the structure grew
none that the colours did not (3 of 480 grew, the same either way).

The structure also tells a line the grid took in that is none of the board's
(``without_foreign_lines``): where a state's cells share a strong look of their own
(an unlit tile's rim, a lit one's bevel), a cell of the grid's outer line that takes
that state's colour but not its look is no cell of that state: the page beyond a
glowing board's dark unlit tiles, lined up with its cells by a row of buttons on it.
A line nearly all of such cells, over which what lies beyond it runs on (most of its
cells the colour of the cell past them), goes.  (A state whose cells look alike only by
their colour, the flat black cells of a black-and-white grid whose edges are their
neighbours', says nothing of this; and a line of lamps beside the frame round their
board, whose edge crosses their cells as it crosses no other, is no page running on.)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial

import numpy as np

from .colour import SAME_COLOUR, lab_on_scale
from .grid import Grid
from .locate.cellsample import one_of_each
from .locate.structure import cell_edge_maps

#: Cells are looked at this many pixels a side, and by their middle: INSET of the cell
#: left out each side.
CELL_PX = 12
INSET = 0.2
#: A board of this many states at most (two lit colours, the tiles of four turns) takes in
#: lines.
MOST_STATES = 4
#: A line shares the board's structure when its cells' edge maps (EDGE_PX pixels a side)
#: match the board's mean map, median and least, as well as SHARES_MEDIAN and SHARES_LEAST of
#: the board's own cells do (their median, their tenth percentile, each cell matched against
#: the mean of the others).
EDGE_PX = 16
SHARES_MEDIAN, SHARES_LEAST = 0.8, 0.9
#: A state's cells share a strong look when each matches the mean edge map of the others
#: of its state by STRONG_LOOK or more (their median correlation) ...
STRONG_LOOK = 0.7
#: ... and a cell taking that state's colour is none of its cells when it matches their
#: mean map by less than UNLIKE_LOOK of that median.
UNLIKE_LOOK = 0.5
#: An outer line of a grid goes when this share of its cells or more are none of the
#: board's (``without_foreign_lines``) ...
FOREIGN_SHARE = 0.9
#: ... and RUNS_ON of its cells or more have the colour of the cell beyond them: what lies
#: round the board runs on over the line.  Measured on the true grids of tuning boards
#: seen about square-on (seven flat looks, 40 each; photos of monitors, toys and competing
#: grids, 47): their outer lines held cells none of the board's in a share of 0 to 0.6, and
#: cells the colour of the cell beyond in 0 to 1 (a page of the unlit tiles' colour); a
#: line of lamps beside the frame round their board (fresh tuning lamps 8112), the frame's
#: edge crossing their cells as it crosses no other, 1 and 0.  The page's row a glowing
#: board's grid took in below it (fresh tuning glow 8316, lined up with its cells by two
#: buttons): 1 and 7 of 9.
RUNS_ON = 0.5


def with_outer_lines(image: np.ndarray, grid: Grid) -> Grid:
    """``grid`` with each line just outside it that is the board's (see the module's story)
    taken in, one at most a side; ``grid`` itself when none is, or when the grown grid would
    leave the image."""
    wide = grid.widened(2)
    shows = _cell_colours(image, wide)
    states = one_of_each(shows[2:-2, 2:-2].reshape(-1, 3))
    if not 2 <= len(states) <= MOST_STATES:
        return grid
    # The cells' structure is weighed only where their colours cannot tell where the board
    # ends (on most boards they can).
    structure = cache(partial(_sharing, image, wide, shows, states))

    def shares(line: tuple) -> bool:
        return structure()(line)

    lines = (  # (the line just outside, the line beyond it) on each side
        (np.s_[1, 2:-2], np.s_[0, 2:-2]),  # top
        (np.s_[-2, 2:-2], np.s_[-1, 2:-2]),  # bottom
        (np.s_[2:-2, 1], np.s_[2:-2, 0]),  # left
        (np.s_[2:-2, -2], np.s_[2:-2, -1]),  # right
    )
    top, bottom, left, right = (
        _board_line(shows[line], shows[beyond], states)
        or _structured_line(shows[line], states, shares, line, beyond)
        for line, beyond in lines
    )
    if not (top or bottom or left or right):
        return grid
    once = grid.widened(1)
    grown = once.block((1 - top, once.rows - 1 + bottom), (1 - left, once.cols - 1 + right))
    height, width = image.shape[:2]
    if not np.all((grown.corners >= 0) & (grown.corners <= [width, height])):
        return grid  # a line past the image's edge is none of the board's to read
    return grown


def _board_line(line: np.ndarray, beyond: np.ndarray, states: np.ndarray) -> int:
    """1 when every cell of ``line`` (``(n, 3)`` colours) shows one of the ``states``, not
    all the same one, and no cell ``beyond`` it does; else 0."""
    beyond_apart = np.linalg.norm(beyond[:, None, :] - states[None], axis=2)
    return int(
        _shows_states(line, states) and bool((beyond_apart.min(axis=1) >= SAME_COLOUR).all())
    )


def _structured_line(
    colours: np.ndarray,
    states: np.ndarray,
    shares: Callable[[tuple], bool],
    line: tuple,
    beyond: tuple,
) -> int:
    """1 when every cell of ``line`` (an index into the widened grid; ``colours`` its cells'
    colours) shows one of the ``states``, not all the same one, and the line shares the
    board's structure while the line beyond does not (``shares``: ``_sharing``): the page
    beyond shows a state's colour, not the board's cells."""
    return int(_shows_states(colours, states) and shares(line) and not shares(beyond))


def _shows_states(line: np.ndarray, states: np.ndarray) -> bool:
    """Whether every cell of ``line`` (``(n, 3)`` colours) shows one of the ``states``, not
    all the same one."""
    apart = np.linalg.norm(line[:, None, :] - states[None], axis=2)
    return (
        bool((apart.min(axis=1) < SAME_COLOUR).all()) and len(np.unique(apart.argmin(axis=1))) > 1
    )


def _sharing(
    image: np.ndarray, wide: Grid, shows: np.ndarray, states: np.ndarray
) -> Callable[[tuple], bool]:
    """For a grid widened by two lines (its cells' colours ``shows``), whether the cells of a
    line (an index into the widened grid) share the structure of the board's (its middle).

    Each cell is matched (correlation of edge maps, EDGE_PX pixels a side) against the mean
    map of the board's cells of its own state (the one nearest its colour: a lit tile's
    edges are not an unlit one's dots); the board's own cells, each against the mean of the
    others of its state, give the measure: a line shares the structure when its cells'
    median and least match reach SHARES_MEDIAN of the board's median and SHARES_LEAST of its
    tenth percentile."""
    maps = _edge_maps(wide.rectify(image, EDGE_PX), wide.rows, wide.cols)
    inside = np.zeros((wide.rows, wide.cols), bool)
    inside[2:-2, 2:-2] = True
    matches, own, _ = _state_matches(maps, shows, states, inside)
    if not any(len(matched) for matched in own):
        return lambda line: False
    own_matches = np.concatenate(own)
    own_median, own_least = np.median(own_matches), np.quantile(own_matches, 0.1)

    def shares(line: tuple) -> bool:
        scores = matches[line]
        return bool(
            np.median(scores) >= SHARES_MEDIAN * own_median
            and scores.min() >= SHARES_LEAST * own_least
        )

    return shares


def _edge_maps(board: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """``(rows, cols, side ** 2)``: each cell's edge map, less its own mean, in a board of
    ``rows`` x ``cols`` cells warped square-on (BGR)."""
    maps = cell_edge_maps(board, rows, cols)
    return maps - maps.mean(axis=2, keepdims=True)


def _state_matches(
    maps: np.ndarray, shows: np.ndarray, states: np.ndarray, board: np.ndarray
) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
    """How well each cell of a grid (its edge ``maps``, its colour ``shows``) matches the
    look of the ``board``'s cells (a mask of the grid) of its state (the one of ``states``
    nearest its colour): ``(rows, cols)`` correlations with the mean map of the board's
    cells of that state; per state, the board's own cells' correlations, each with the mean
    of the others of its state (empty where it has fewer than two); each cell's state."""
    state_of = np.linalg.norm(shows[:, :, None, :] - states[None, None], axis=3).argmin(axis=2)
    flat_maps, flat_states = maps.reshape(-1, maps.shape[2]), state_of.ravel()
    on_board = board.ravel()
    matches = np.zeros(len(flat_maps))
    own = []
    for state in range(len(states)):
        members = flat_maps[on_board & (flat_states == state)]
        count = len(members)
        if count == 0:
            own.append(np.zeros(0))
            continue
        mean_map = members.mean(axis=0)
        if count > 1:  # each with the mean of the others
            own.append(_correlation(members, (count * mean_map - members) / (count - 1)))
        else:
            own.append(np.zeros(0))
        shown = flat_states == state
        matches[shown] = _correlation(flat_maps[shown], mean_map)
    return matches.reshape(state_of.shape), own, state_of


def without_foreign_lines(image: np.ndarray, grid: Grid) -> Grid:
    """``grid`` less each outer line whose cells are nearly all none of the board's
    (FOREIGN_SHARE; see the module's story), what lies beyond it running on over it
    (RUNS_ON): each line weighed against the look of the grid's cells less it, state by
    state; ``grid`` itself when no line goes."""
    if grid.rows < 3 and grid.cols < 3:
        return grid
    # (each cell's edges seen with what lies round it: an outer cell's outer edge too)
    wide = grid.widened(1)
    board = wide.rectify(image, EDGE_PX)
    maps = _edge_maps(board, wide.rows, wide.cols)[1:-1, 1:-1]
    round_it = _middle_colours(board, wide.rows, wide.cols)
    shows = round_it[1:-1, 1:-1]
    # (each outer line of the grid, and the line beyond it: top, bottom, left, right)
    lines = (np.s_[0, :], np.s_[-1, :], np.s_[:, 0], np.s_[:, -1])
    beyond = (np.s_[0, 1:-1], np.s_[-1, 1:-1], np.s_[1:-1, 0], np.s_[1:-1, -1])
    keeps = (grid.rows > 2, grid.rows > 2, grid.cols > 2, grid.cols > 2)
    foreign = [
        keep and _runs_on(shows[line], round_it[past]) and _foreign(maps, shows, line)
        for line, past, keep in zip(lines, beyond, keeps, strict=True)
    ]
    top, bottom, left, right = (int(gone) for gone in foreign)
    if not any(foreign) or grid.rows - top - bottom < 2 or grid.cols - left - right < 2:
        return grid
    return grid.block((top, grid.rows - bottom), (left, grid.cols - right))


def _runs_on(line: np.ndarray, beyond: np.ndarray) -> bool:
    """Whether what lies beyond a line of cells (``(n, 3)`` colours each) runs on over it:
    RUNS_ON of its cells or more within SAME_COLOUR of the cell just beyond."""
    return bool(np.mean(np.linalg.norm(line - beyond, axis=1) < SAME_COLOUR) >= RUNS_ON)


def _foreign(maps: np.ndarray, shows: np.ndarray, line: tuple) -> bool:
    """Whether FOREIGN_SHARE of the cells of ``line`` (an outer line of the grid whose cells'
    edge ``maps`` and colours ``shows`` are given) are none of the board's: each takes the
    colour of a state of the rest of the grid whose cells share a strong look (STRONG_LOOK),
    but matches that look by less than UNLIKE_LOOK of how well they do."""
    rest = np.ones(shows.shape[:2], bool)
    rest[line] = False
    states = one_of_each(shows[rest])
    if not 2 <= len(states) <= MOST_STATES:
        return False
    matches, own, state_of = _state_matches(maps, shows, states, rest)
    strength = np.array([float(np.median(matched)) if len(matched) > 2 else 0.0 for matched in own])
    line_strength = strength[state_of[line]]
    none_of_it = (line_strength >= STRONG_LOOK) & (matches[line] < UNLIKE_LOOK * line_strength)
    return bool(np.mean(none_of_it) >= FOREIGN_SHARE)


def _correlation(maps: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The correlation of each map (last axis, centred) with ``other`` (the same)."""
    norms = np.sqrt((maps * maps).sum(axis=-1) * (other * other).sum(axis=-1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(norms > 0, (maps * other).sum(axis=-1) / norms, 0.0)


def _cell_colours(image: np.ndarray, grid: Grid) -> np.ndarray:
    """``(rows, cols, 3)``: the median L*a*b* colour of each cell's middle."""
    return _middle_colours(grid.rectify(image, CELL_PX), grid.rows, grid.cols)


def _middle_colours(board: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """``(rows, cols, 3)``: the median L*a*b* colour of the middle of each cell of a board
    warped square-on (BGR)."""
    side = board.shape[0] // rows
    lab = lab_on_scale(board)
    cells = lab.reshape(rows, side, cols, side, 3).transpose(0, 2, 1, 3, 4)
    inset = int(round(INSET * side))
    middles = cells[:, :, inset : side - inset, inset : side - inset]
    return np.median(middles.reshape(rows, cols, -1, 3), axis=2).astype(np.float64)
