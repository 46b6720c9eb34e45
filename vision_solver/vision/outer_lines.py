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
    maps = cell_edge_maps(wide.rectify(image, EDGE_PX), wide.rows, wide.cols)
    maps = maps - maps.mean(axis=2, keepdims=True)
    state_of = np.linalg.norm(shows[:, :, None, :] - states[None, None], axis=3).argmin(axis=2)
    board = maps[2:-2, 2:-2].reshape(-1, maps.shape[2])
    board_states = state_of[2:-2, 2:-2].ravel()
    matches = np.zeros(wide.rows * wide.cols)
    own = []
    flat_maps, flat_states = maps.reshape(-1, maps.shape[2]), state_of.ravel()
    for state in range(len(states)):
        members = board[board_states == state]
        count = len(members)
        if count == 0:
            continue
        mean_map = members.mean(axis=0)
        if count > 1:
            own.append(_correlation(members, (count * mean_map - members) / (count - 1)))
        shown = flat_states == state
        matches[shown] = _correlation(flat_maps[shown], mean_map)
    matches = matches.reshape(wide.rows, wide.cols)
    if not own:
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


def _correlation(maps: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The correlation of each map (last axis, centred) with ``other`` (the same)."""
    norms = np.sqrt((maps * maps).sum(axis=-1) * (other * other).sum(axis=-1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(norms > 0, (maps * other).sum(axis=-1) / norms, 0.0)


def _cell_colours(image: np.ndarray, grid: Grid) -> np.ndarray:
    """``(rows, cols, 3)``: the median L*a*b* colour of each cell's middle."""
    lab = lab_on_scale(grid.rectify(image, CELL_PX))
    cells = lab.reshape(grid.rows, CELL_PX, grid.cols, CELL_PX, 3).transpose(0, 2, 1, 3, 4)
    inset = int(round(INSET * CELL_PX))
    middles = cells[:, :, inset : CELL_PX - inset, inset : CELL_PX - inset]
    return np.median(middles.reshape(grid.rows, grid.cols, -1, 3), axis=2).astype(np.float64)
