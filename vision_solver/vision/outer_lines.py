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
"""

from __future__ import annotations

import numpy as np

from .colour import SAME_COLOUR, lab_on_scale
from .grid import Grid
from .locate.cellsample import one_of_each

#: Cells are looked at this many pixels a side, and by their middle: INSET of the cell
#: left out each side.
CELL_PX = 12
INSET = 0.2
#: A board of this many states at most (two lit colours, the tiles of four turns) takes in
#: lines.
MOST_STATES = 4


def with_outer_lines(image: np.ndarray, grid: Grid) -> Grid:
    """``grid`` with each line just outside it that is the board's (see the module's story)
    taken in, one at most a side; ``grid`` itself when none is, or when the grown grid would
    leave the image."""
    wide = grid.widened(2)
    shows = _cell_colours(image, wide)
    states = one_of_each(shows[2:-2, 2:-2].reshape(-1, 3))
    if not 2 <= len(states) <= MOST_STATES:
        return grid
    lines = (  # (the line just outside, the line beyond it) on each side
        (shows[1, 2:-2], shows[0, 2:-2]),  # top
        (shows[-2, 2:-2], shows[-1, 2:-2]),  # bottom
        (shows[2:-2, 1], shows[2:-2, 0]),  # left
        (shows[2:-2, -2], shows[2:-2, -1]),  # right
    )
    top, bottom, left, right = (_board_line(line, beyond, states) for line, beyond in lines)
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
    apart = np.linalg.norm(line[:, None, :] - states[None], axis=2)
    beyond_apart = np.linalg.norm(beyond[:, None, :] - states[None], axis=2)
    shown = apart.argmin(axis=1)
    return int(
        bool((apart.min(axis=1) < SAME_COLOUR).all())
        and len(np.unique(shown)) > 1
        and bool((beyond_apart.min(axis=1) >= SAME_COLOUR).all())
    )


def _cell_colours(image: np.ndarray, grid: Grid) -> np.ndarray:
    """``(rows, cols, 3)``: the median L*a*b* colour of each cell's middle."""
    lab = lab_on_scale(grid.rectify(image, CELL_PX))
    cells = lab.reshape(grid.rows, CELL_PX, grid.cols, CELL_PX, 3).transpose(0, 2, 1, 3, 4)
    inset = int(round(INSET * CELL_PX))
    middles = cells[:, :, inset : CELL_PX - inset, inset : CELL_PX - inset]
    return np.median(middles.reshape(grid.rows, grid.cols, -1, 3), axis=2).astype(np.float64)
