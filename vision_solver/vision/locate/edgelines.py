"""Boards square to a plane, counted by the lines their cells' edges lie on.

A board photographed on a monitor loses its thin lines between cells to the
camera's blur: where two neighbouring cells share a state, nothing parts them,
and the cells of one state merge into polyomino-shaped regions.  Few cells
then stand alone, too few for a lattice of blobs.  Yet every edge the board
still shows (between a lit and an unlit cell, round its outline) lies on one
of its grid lines, and a plane warped square-on (``screen``) has those lines
upright and level.

So the edges are gathered into upright and level lines (runs of edge pixels
at one x, or one y).  Each of the longest runs of evenly spaced lines along
either axis seeds a lattice: the other axis is the longest run among the lines
lying across it, and each axis again among those across the other's (the
page's own lines elsewhere drop out).  An end line along which edges hardly
run (a row of buttons below, at the board's pitch) is no outline, and the
lattice is checked by what its cells hold, as a board's cells differ: each cell
one flat colour, those colours a few states, more than one of them (a frame
taken in as a line of cells is a colour of its own).  The lattice that holds a
board of the most cells is the board.
"""

from __future__ import annotations

from bisect import bisect_left

import cv2
import numpy as np

from ..colour import SAME_COLOUR, lab_on_scale
from ..geometry import BoardLocation, apply_homography

#: The plane is searched at this many pixels along its longer side.
WORK_SIDE = 1000
#: An edge pixel steps by at least this (8-bit Lab, the channels' Sobel sums over 8) ...
EDGE_STEP = 6.0
#: ... and more than this many times more across its line than along it.
ACROSS = 2.0
#: A line's pixels run at least this long (work pixels) ...
LEAST_RUN = 7
#: ... runs within this of one another across are one line ...
SAME_LINE = 1.5
#: ... of which the MOST_LINES longest are kept, along each axis ...
MOST_LINES = 80
#: ... and a line counts toward a lattice once it runs this share of the lattice's pitch.
LINE_SHARE = 0.5
#: The longest runs of lines along each axis that seed a lattice each.
SEEDS = 4
#: At most this share of the lines of a run of them may be missing.
MISSING = 0.2
#: Cells at least this many work pixels a side, at most this share of the plane's side.
LEAST_PITCH, MOST_PITCH = 8.0, 0.25
#: A line lies on the lattice within this share of the pitch (or SAME_LINE pixels).
ON_PITCH = 0.12
#: A cell's inner part (this share of it cut off each side) is flat when this share of its
#: pixels lies within SAME_COLOUR of its median ...
INSET, FLAT_SHARE = 0.2, 0.75
#: ... a board holds at least this share of flat cells, and its cells' colours fall
#: into at most STATES groups (two: lit and unlit; a cursor's or a mark's).
FLAT_CELLS, STATES = 0.9, 4
#: A line of the lattice is drawn whole when edges run along this share of it.
DRAWN = 0.8
#: A lattice's end line along which edges run under this share of it is no board's outline.
END_COVER = 0.25
#: An outer line of the lattice is the board's when at least this share of its cells are
#: flat and of the board's states (glare may wash out a few).
LINE_KNOWN = 0.5
#: A state is a group of at least this share of the cells; every cell is one of them.
STATE_SHARE = 0.05
#: The share of a board's cells whose distance from their state sets how far one may lie.
REACH_QUANTILE = 0.9
#: The states are those of the lattice's inner cells along an axis of more than this many.
INNER_FROM = 4
#: The fewest cells a side of a board found so.
LEAST_SIDE = 2


def lined_board(image: np.ndarray) -> BoardLocation | None:
    """The board on a plane warped square-on (BGR), in its pixels, counted by its edge
    lines (its share of flat cells its confidence); None when no lattice of evenly spaced
    lines holds a board's cells."""
    height, width = image.shape[:2]
    scale = WORK_SIDE / max(height, width)
    work = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(cv2.GaussianBlur(work, (0, 0), 0.8), cv2.COLOR_BGR2LAB)
    upright, level = _edge_runs(lab)
    most = MOST_PITCH * max(work.shape[:2])
    colours = lab_on_scale(work)
    # Each seed (a run of lines along one axis) grows its lattice, trimmed and checked.
    seeds = [(span, None) for span in _progressions(_lines(upright), most)]
    seeds += [(None, span) for span in _progressions(_lines(level), most)]
    lattice = None
    for cols, rows in seeds:
        for _ in range(2):
            if cols is not None:  # (a seed of rows grows its columns first)
                rows = _progression(_lines(_within(level, cols)), most) or rows
            if rows is None:
                break
            cols = _progression(_lines(_within(upright, rows)), most) or cols
            if cols is None:
                break
        if cols is None or rows is None:
            continue
        rows = _ends_trimmed(level, rows, cols)
        cols = _ends_trimmed(upright, cols, rows)
        outline = (_drawn_lines(level, rows, cols), _drawn_lines(upright, cols, rows))
        checked = _checked(colours, cols, rows, outline)
        if checked is not None and (lattice is None or _size(checked) > _size(lattice)):
            lattice = checked
    if lattice is None:
        return None
    (x0, dx, n_cols), (y0, dy, n_rows), flat = lattice
    to_work = np.array([[dx, 0.0, x0], [0.0, dy, y0], [0.0, 0.0, 1.0]])
    homography = np.diag([1 / scale, 1 / scale, 1.0]) @ to_work
    corners = apply_homography(
        homography, np.array([[0, 0], [n_cols, 0], [n_cols, n_rows], [0, n_rows]], float)
    )
    # Its outline is the lines' (as a frame's inner edge is, ``framed``): the grid stage
    # keeps it, and it counts no cell found as a blob.
    return BoardLocation(corners, homography, n_rows, n_cols, flat, framed=True)


def _edge_runs(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(n, 4)`` each: the upright runs of edge pixels (x, top, bottom, length) and the level
    ones (y, left, right, length), in work pixels."""
    channels = lab.astype(np.float32)
    across_x = sum(np.abs(cv2.Sobel(channels[..., c], cv2.CV_32F, 1, 0)) for c in range(3)) / 8
    across_y = sum(np.abs(cv2.Sobel(channels[..., c], cv2.CV_32F, 0, 1)) for c in range(3)) / 8
    runs = []
    for step, other, kernel, axis in (
        (across_x, across_y, (LEAST_RUN, 1), 0),
        (across_y, across_x, (1, LEAST_RUN), 1),
    ):
        mask = ((step > EDGE_STEP) & (step > ACROSS * other)).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones(kernel, np.uint8))
        count, _, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
        x, y, w, h = (stats[1:, k].astype(np.float64) for k in range(4))
        if axis == 0:
            runs.append(np.column_stack([centroids[1:, 0], y, y + h, h]))
        else:
            runs.append(np.column_stack([centroids[1:, 1], x, x + w, w]))
    return runs[0], runs[1]


def _size(lattice: tuple[tuple[float, float, int], tuple[float, float, int], float]) -> tuple:
    """How a checked lattice ranks: by its cells, then its share of flat cells."""
    (_, _, cols), (_, _, rows), flat = lattice
    return rows * cols, flat


def _covers(
    runs: np.ndarray, span: tuple[float, float, int], across: tuple[float, float, int]
) -> np.ndarray:
    """``(cells + 1,)``: the share of each of the lattice's lines along ``span`` (start, pitch,
    cells) that edge runs lie along, over the ``across`` span."""
    start, step, count = span
    first, pitch, cells = across
    low, high = first, first + pitch * cells
    tolerance = max(2 * SAME_LINE, ON_PITCH * step)  # (an edge blurred into two: _line_at)
    covers = np.zeros(count + 1)
    for k in range(count + 1):
        on = runs[np.abs(runs[:, 0] - (start + k * step)) <= tolerance]
        length = np.clip(np.minimum(on[:, 2], high) - np.maximum(on[:, 1], low), 0, None).sum()
        covers[k] = length / max(high - low, 1e-9)
    return covers


def _ends_trimmed(
    runs: np.ndarray, span: tuple[float, float, int], across: tuple[float, float, int]
) -> tuple[float, float, int]:
    """``span`` less the cells past its end lines along which edges hardly run (under
    END_COVER: a button's edge at the board's pitch below it); a board's outline shows an edge
    wherever its cells differ from what lies round it, about half its length at least."""
    start, step, count = span
    covers = _covers(runs, span, across)
    first, last = 0, count
    while last - first > LEAST_SIDE and covers[first] < END_COVER:
        first += 1
    while last - first > LEAST_SIDE and covers[last] < END_COVER:
        last -= 1
    return start + first * step, step, last - first


def _drawn_lines(
    runs: np.ndarray, span: tuple[float, float, int], across: tuple[float, float, int]
) -> tuple[int, int]:
    """The first and last of the lattice's lines along ``span`` (start, pitch, cells) that an
    edge runs the whole way along (DRAWN of the ``across`` span): the board's outline where
    it is drawn.  (Inside a board whose cells merge, a line runs whole only where every cell
    on one side differs from its neighbour on the other.)  The span's own ends when none."""
    drawn = np.flatnonzero(_covers(runs, span, across) >= DRAWN)
    if len(drawn) < 2:
        return 0, span[2]
    return int(drawn[0]), int(drawn[-1])


def _within(runs: np.ndarray, span: tuple[float, float, int]) -> np.ndarray:
    """The runs that lie mostly across ``span`` (start, pitch, cells) of the other axis."""
    start, step, count = span
    end = start + step * count
    overlap = np.minimum(runs[:, 2], end + step / 2) - np.maximum(runs[:, 1], start - step / 2)
    return runs[overlap >= 0.5 * runs[:, 3]]


def _lines(runs: np.ndarray) -> tuple[list[float], list[float]]:
    """The runs joined into lines (those within SAME_LINE across): each line's position
    (its runs' mean, weighted by length) and its length, by position."""
    if not len(runs):
        return [], []
    runs = runs[np.argsort(runs[:, 0])]
    positions: list[float] = []
    lengths: list[float] = []
    group = [0]
    for k in range(1, len(runs) + 1):
        if k < len(runs) and runs[k, 0] - runs[group[-1], 0] <= SAME_LINE:
            group.append(k)
            continue
        weights = runs[group, 3]
        positions.append(float(np.average(runs[group, 0], weights=weights)))
        lengths.append(float(weights.sum()))
        group = [k]
    if len(positions) > MOST_LINES:
        # the longest only (moire and a page's words make many short ones)
        keep = sorted(np.argsort(lengths)[-MOST_LINES:].tolist())
        positions = [positions[k] for k in keep]
        lengths = [lengths[k] for k in keep]
    return positions, lengths


def _progression(
    lines: tuple[list[float], list[float]], most: float
) -> tuple[float, float, int] | None:
    """The longest run of evenly spaced lines (``_progressions``), or None."""
    found = _progressions(lines, most, 1)
    return found[0] if found else None


def _progressions(
    lines: tuple[list[float], list[float]], most: float, kept: int = SEEDS
) -> list[tuple[float, float, int]]:
    """The ``kept`` longest runs of evenly spaced lines, each (first line, pitch, cells
    between), longest first; of runs of as many, the one whose lines are longest in all
    first (a board's lines are long, the edges of a row of buttons at about its pitch
    short).  A line counts at a pitch when it runs LINE_SHARE of it."""
    positions, lengths = lines
    found: dict[tuple[int, int], tuple[int, float, float, float]] = {}
    for i, start in enumerate(positions):
        for j in range(i + 1, len(positions)):
            step = positions[j] - start
            if step < LEAST_PITCH:
                continue
            if step > most:
                break
            if min(lengths[i], lengths[j]) < LINE_SHARE * step:
                continue
            count, fitted_step, fitted_start, length = _run(positions, lengths, start, step)
            if count < LEAST_SIDE:
                continue
            # one entry a run, however many pairs of its lines found it
            key = (round(fitted_start / SAME_LINE), round(fitted_step / SAME_LINE))
            if key not in found or (count, length) > found[key][:2]:
                found[key] = (count, length, fitted_step, fitted_start)
    ranked = sorted(found.values(), key=lambda run: run[:2], reverse=True)
    return [(start, step, count) for count, _, step, start in ranked[:kept]]


def _run(
    positions: list[float], lengths: list[float], start: float, step: float
) -> tuple[int, float, float, float]:
    """How many cells the lines from ``start`` run on for, evenly spaced about ``step`` apart
    (each line long enough and within ON_PITCH of its place), with the pitch and first line
    fitted to the lines found (a pitch guessed from two lines drifts over many), and the
    lines' length in all.  A line may be missing (no cell on one side of it differs from
    its neighbour on the other), but not two running nor more than MISSING of them: half a
    board's pitch would miss every other line."""
    # sums over the lines found (k-th line at p): n, sum k, sum k^2, sum p, sum k p
    sums = np.array([2.0, 1.0, 1.0, 2 * start + step, start + step])
    fitted_start, fitted_step = start, step
    first = _line_at(positions, lengths, start, step)
    second = _line_at(positions, lengths, start + step, step)
    length = (first or (0.0, 0.0))[1] + (second or (0.0, 0.0))[1]
    count, k, missing = 1, 2, 0
    while k <= count + 2:
        hit = _line_at(positions, lengths, fitted_start + k * fitted_step, fitted_step)
        if hit is not None:
            missing += k - count - 1
            if missing > MISSING * k:
                break
            count = k
            length += hit[1]
            sums += [1.0, k, k * k, hit[0], k * hit[0]]
            n, sk, skk, sp, skp = sums
            fitted_step = (n * skp - sk * sp) / (n * skk - sk * sk)
            fitted_start = (sp - fitted_step * sk) / n
        k += 1
    return count, fitted_step, fitted_start, length


def _line_at(
    positions: list[float], lengths: list[float], target: float, step: float
) -> tuple[float, float] | None:
    """The longest line within ON_PITCH of ``target``, when it and the lines beside it (a
    board's edge by its frame may blur into two lines a pixel or two apart: within twice
    SAME_LINE) run LINE_SHARE of ``step`` or more in all: its position and their length in
    all; else None."""
    tolerance = max(SAME_LINE, ON_PITCH * step)
    low = bisect_left(positions, target - tolerance)
    high = bisect_left(positions, target + tolerance, lo=low)
    while high < len(positions) and positions[high] <= target + tolerance:
        high += 1
    if low == high:
        return None
    longest = max(range(low, high), key=lambda k: lengths[k])
    near = range(
        bisect_left(positions, positions[longest] - 2 * SAME_LINE),
        bisect_left(positions, positions[longest] + 2 * SAME_LINE + 1e-9),
    )
    total = sum(lengths[k] for k in near)
    if total < LINE_SHARE * step:
        return None
    return positions[longest], total


def _checked(
    lab: np.ndarray,
    cols: tuple[float, float, int],
    rows: tuple[float, float, int],
    outline: tuple[tuple[int, int], tuple[int, int]],
) -> tuple[tuple[float, float, int], tuple[float, float, int], float] | None:
    """The lattice trimmed to the cells a board holds, with its share of flat cells; None
    when what is left holds no board (too small, cells not flat, one state or too many).
    ``outline``: the first and last row lines, and column lines, drawn whole
    (``_drawn_lines``)."""
    x0, dx, n_cols = cols
    y0, dy, n_rows = rows
    height, width = lab.shape[:2]
    colours = np.zeros((n_rows, n_cols, 3))
    flat = np.zeros((n_rows, n_cols), bool)
    for r in range(n_rows):
        for c in range(n_cols):
            top, left = y0 + (r + INSET) * dy, x0 + (c + INSET) * dx
            bottom, right = y0 + (r + 1 - INSET) * dy, x0 + (c + 1 - INSET) * dx
            if top < 0 or left < 0 or bottom > height or right > width:
                continue
            pixels = lab[int(top) : int(np.ceil(bottom)), int(left) : int(np.ceil(right))]
            pixels = pixels.reshape(-1, 3)
            median = np.median(pixels, axis=0)
            colours[r, c] = median
            near = np.linalg.norm(pixels - median, axis=1) < SAME_COLOUR
            flat[r, c] = np.mean(near) >= FLAT_SHARE
    # Trim the outer lines that hold no board: mostly cells not flat, or of colours none of
    # the board's states.  The states are those of the lattice's inner cells (a frame round
    # the board, taken in as a line of cells, is a colour of its own), and a cell is of one
    # when it lies as near it as nearly all inner cells lie to theirs (glare and vignetting
    # shift a photo's cells).
    # Lines of cells outside a drawn outline, each of one colour, are the page round it.
    (top, bottom), (left, right) = outline
    for r in [*range(0, top), *range(bottom, n_rows)]:
        if not _one_colour(colours[r, left:right]):
            top, bottom = 0, n_rows
    for c in [*range(0, left), *range(right, n_cols)]:
        if not _one_colour(colours[top:bottom, c]):
            left, right = 0, n_cols
    while bottom - top >= LEAST_SIDE and right - left >= LEAST_SIDE:
        inner = _inner(top, bottom, left, right)
        states = _states(colours[inner], flat[inner])
        reach = _reach(colours[inner][flat[inner]], states)
        cut = None
        for side, (r0, r1, c0, c1) in (
            ("top", (top, top + 1, left, right)),
            ("bottom", (bottom - 1, bottom, left, right)),
            ("left", (top, bottom, left, left + 1)),
            ("right", (top, bottom, right - 1, right)),
        ):
            known = _of_states(colours[r0:r1, c0:c1].reshape(-1, 3), states, reach)
            if np.mean(flat[r0:r1, c0:c1].ravel() & known) < LINE_KNOWN:
                cut = side
                break
        if cut is None:
            break
        top += cut == "top"
        bottom -= cut == "bottom"
        left += cut == "left"
        right -= cut == "right"
    if bottom - top < LEAST_SIDE or right - left < LEAST_SIDE:
        return None
    kept_flat = flat[top:bottom, left:right]
    kept = colours[top:bottom, left:right]
    states = _states(kept, kept_flat)
    share = float(np.mean(kept_flat))
    if share < FLAT_CELLS or not 2 <= len(states) <= STATES:
        return None
    known = _of_states(kept.reshape(-1, 3), states, _reach(kept[kept_flat], states))
    if np.mean(known) < FLAT_CELLS:
        return None
    return (x0 + left * dx, dx, right - left), (y0 + top * dy, dy, bottom - top), share


def _one_colour(colours: np.ndarray) -> bool:
    """True when every one of ``colours`` lies within SAME_COLOUR of their median."""
    median = np.median(colours.reshape(-1, 3), axis=0)
    return bool((np.linalg.norm(colours.reshape(-1, 3) - median, axis=1) < SAME_COLOUR).all())


def _inner(top: int, bottom: int, left: int, right: int) -> tuple[slice, slice]:
    """The cells of rows top..bottom and columns left..right less its outer ring, along each
    axis that has more than INNER_FROM of them (a small board's inner cells may not show
    every state)."""
    rows = slice(top + 1, bottom - 1) if bottom - top > INNER_FROM else slice(top, bottom)
    cols = slice(left + 1, right - 1) if right - left > INNER_FROM else slice(left, right)
    return rows, cols


def _reach(colours: np.ndarray, states: np.ndarray) -> float:
    """How far from its state a board's cell may lie: SAME_COLOUR, or half again as far as
    nearly all (REACH_QUANTILE) of ``colours`` lie from theirs."""
    if not len(colours) or not len(states):
        return SAME_COLOUR
    distance = np.linalg.norm(colours[:, None] - states[None], axis=2).min(axis=1)
    return max(SAME_COLOUR, 1.5 * float(np.quantile(distance, REACH_QUANTILE)))


def _states(colours: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """``(k, 3)``: the colours the flat cells fall into (each group the cells within
    SAME_COLOUR of its densest member, its median colour; commonest first), each of
    STATE_SHARE of the cells or more."""
    pool = colours[flat].reshape(-1, 3)
    if not len(pool):
        return np.zeros((0, 3))
    least = max(1, int(np.ceil(STATE_SHARE * colours[..., 0].size)))
    found = []
    left = pool
    while len(left):
        distance = np.linalg.norm(left[:, None] - left[None], axis=2)
        near = distance < SAME_COLOUR
        seed = int(np.argmax(near.sum(axis=1)))
        members = near[seed]
        if members.sum() >= least:
            found.append(np.median(left[members], axis=0))
        left = left[~members]
    return np.array(found) if found else np.zeros((0, 3))


def _of_states(colours: np.ndarray, states: np.ndarray, reach: float) -> np.ndarray:
    """True for each colour within ``reach`` of one of ``states``."""
    if not len(states):
        return np.zeros(len(colours), bool)
    distance = np.linalg.norm(colours[:, None] - states[None], axis=2)
    return distance.min(axis=1) <= reach
