"""Lines of background a grid took in: the board runs off into what lies round it.

A lattice of cells may run on past a board over what looks like cells of it: a
page ruled into squares, a floor of tiles round lamps let into it, a title or a
row of buttons whose marks line up.  The board as a whole tells such lines
apart.  Every cell of a board shows one of a few states (a light lit or not, an
object in some turn), so each has look-alikes among the board's other cells.
Lines of background do not: none of their cells looks like any cell of the rest
(whose own cells lie far nearer their look-alikes), and each has a look-alike
round the grid (a floor's tile, a page's square), or none at all (a title's
letters, where the rest's cells all have look-alikes); a line partly of the page
may hold anything unlike the board (buttons).  Of the blocks the grid holds
less up to MOST_LINES lines at each edge, the one whose lines are the clearest
background goes.  A line of a board unlike the rest (the only lit cells of a
level lie in its top row, or the unlit lamps round a lit block) has no
look-alike round the board, and its cells are alike: it stays.

Cells are compared by their middles seen square-on, pixel by pixel (the
root mean square colour difference, Delta E), under the four quarter turns:
an arrow's cells are look-alikes in any turn.
"""

from __future__ import annotations

import cv2
import numpy as np

from .colour import lab_on_scale
from .grid import Grid

#: Cells are compared this many pixels a side, by their middles (INSET of the cell left out
#: each side), smoothed by SMOOTH pixels (a photo's noise and moire).
CELL_PX = 12
INSET = 0.15
SMOOTH = 1.0
#: Lines of background go: every cell of them at least UNLIKE times as far (and UNLIKE_DE or
#: more) from every cell of the rest as the rest's cells lie from their nearest look-alikes
#: (the median), that bar being what makes two cells look-alikes: each cell of the lines has a
#: look-alike round the grid, or none anywhere (a title's letters); where some do have one
#: round the grid, the others need only have none in the board (a row of the page holding
#: buttons).  Measured on six tuning boards found with lines round them (a floor's tiles, a
#: page's squares, a title, a row of buttons): those lines 5.7 to 25 Delta E from every cell
#: of the rest, 7 to 50 times the rest's spread, their floor's or page's cells 0.5 to 4.2
#: from a look-alike round the grid.  Unlit lamps round a block of lit ones lie 29 from
#: the floor round them, no look-alike of theirs: they stay.
UNLIKE = 4.0
UNLIKE_DE = 4.0
#: Cells like no other (a title's letters) are background only where no more than this share
#: of the rest's cells are (Merlin's Magic Square: its lit cells each of a colour of their
#: own, half of its cells; the tuning boards with a title or buttons in a line: none).
LONE_REST = 0.1
#: At most this many lines of one edge are weighed together, and the board keeps two rows
#: and two columns.
MOST_LINES = 4
#: A grid of more cells than this is left as it is (every cell is compared with every other:
#: 40x40 cells take about 50 MB).
MOST_CELLS = 1600


def without_background_lines(image: np.ndarray, grid: Grid) -> Grid:
    """``grid`` less its outer lines of background (see the module's story); ``grid``
    itself when it has none."""
    if (grid.rows < 3 and grid.cols < 3) or grid.rows * grid.cols > MOST_CELLS:
        return grid
    middles, ring = _middles(image, grid)
    looks = middles.reshape(grid.rows * grid.cols, -1)
    if _held_by_middle(looks, grid.rows, grid.cols):
        return grid
    apart = _apart(looks, np.concatenate([looks, ring]))
    to_ring = apart[:, len(looks) :].min(axis=1)  # each cell's nearest look-alike round the grid
    apart = apart[:, : len(looks)]
    among = apart.copy()
    np.fill_diagonal(among, np.inf)
    nearest = among.min(axis=1)  # each cell's nearest look-alike in the grid
    index = np.arange(len(looks)).reshape(grid.rows, grid.cols)
    best, best_block = 0.0, None
    for r0, r1, c0, c1 in _blocks_apart(apart < UNLIKE_DE, grid.rows, grid.cols):
        inside = np.zeros((grid.rows, grid.cols), bool)
        inside[r0:r1, c0:c1] = True
        how = _unlike(apart, to_ring, nearest, index[~inside], index[inside])
        if how is not None and how > best:
            best, best_block = how, (r0, r1, c0, c1)
    if best_block is None:
        return grid
    r0, r1, c0, c1 = best_block
    return grid.block((r0, r1), (c0, c1))


def _held_by_middle(looks: np.ndarray, rows: int, cols: int) -> bool:
    """True when each outer line of the grid has a cell with a look-alike (UNLIKE_DE or
    nearer) among the cells more than MOST_LINES from every edge, which every block kept
    holds: no line can go (most boards, asked at a fraction of the cost of every block)."""
    index = np.arange(rows * cols).reshape(rows, cols)
    middle = index[MOST_LINES : rows - MOST_LINES, MOST_LINES : cols - MOST_LINES].ravel()
    if not len(middle):
        return False
    edges = (index[0], index[-1], index[:, 0], index[:, -1])
    outer = np.concatenate(edges)
    alike = (_apart(looks[outer], looks[middle]) < UNLIKE_DE).any(axis=1)
    ends = np.cumsum([len(edge) for edge in edges])
    return all(part.any() for part in np.split(alike, ends[:-1]))


def _blocks_apart(alike: np.ndarray, rows: int, cols: int) -> list[tuple[int, int, int, int]]:
    """The blocks (first row, past the last, first column, past the last) of the grid less
    up to MOST_LINES lines at each edge, at least one, keeping two rows and two columns, none
    of whose cells is ``alike`` (``(n, n)``, cells in row order) a cell of the lines gone."""
    most_rows, most_cols = min(MOST_LINES, rows - 2), min(MOST_LINES, cols - 2)
    if most_rows < 0 or most_cols < 0:
        return []
    top, bottom, left, right = (
        edge.ravel()
        for edge in np.meshgrid(
            np.arange(most_rows + 1),
            np.arange(most_rows + 1),
            np.arange(most_cols + 1),
            np.arange(most_cols + 1),
            indexing="ij",
        )
    )
    r0, r1, c0, c1 = top, rows - bottom, left, cols - right
    keep = (r1 - r0 >= 2) & (c1 - c0 >= 2) & (top + bottom + left + right > 0)
    r0, r1, c0, c1 = r0[keep], r1[keep], c0[keep], c1[keep]
    # Each cell's look-alikes counted in every block at once, by sums from the top-left
    # corner; a block keeping a look-alike of a cell of its lines gone keeps that line.
    counts = np.zeros((len(alike), rows + 1, cols + 1), np.int32)
    counts[:, 1:, 1:] = alike.reshape(len(alike), rows, cols).cumsum(axis=1).cumsum(axis=2)
    held = counts[:, r1, c1] - counts[:, r0, c1] - counts[:, r1, c0] + counts[:, r0, c0]
    row, col = np.divmod(np.arange(len(alike)), cols)
    gone = (row[:, None] < r0) | (row[:, None] >= r1) | (col[:, None] < c0) | (col[:, None] >= c1)
    clear = ~(gone & (held > 0)).any(axis=0)
    return list(zip(r0[clear], r1[clear], c0[clear], c1[clear], strict=True))


def _unlike(
    apart: np.ndarray,
    to_ring: np.ndarray,
    nearest: np.ndarray,
    lines: np.ndarray,
    kept: np.ndarray,
) -> float | None:
    """How many times farther the cells of the ``lines`` lie from the ``kept`` ones than
    those from their nearest look-alikes, where the lines are background (the module's
    story); else None."""
    from_rest = float(apart[np.ix_(lines, kept)].min())
    spread = float(np.median(nearest[kept]))
    bar = max(UNLIKE * spread, UNLIKE_DE)
    if from_rest < bar:
        return None
    # Each cell of the lines has a look-alike round the grid, or none at all (a title's
    # letters); where some have one round the grid, the line is the page's and its other
    # cells need only be unlike the board's (buttons on the page).  Cells like no other
    # prove nothing where the rest has many of them too (a board whose lit cells are each
    # of a colour of their own has lines of such cells).
    round_like = to_ring[lines] < bar
    if np.mean(nearest[kept] >= bar) > LONE_REST:
        background = round_like.all()
    else:
        background = round_like.any() or bool((nearest[lines] >= bar).all())
    return from_rest / max(spread, 1e-6) if background else None


def _middles(image: np.ndarray, grid: Grid) -> tuple[np.ndarray, np.ndarray]:
    """The middles of ``grid``'s cells ``(rows, cols, n, n, 3)`` and of the ring of cells
    round it ``(k, n * n * 3)``, L*a*b* on the reader's scale, smoothed."""
    wide = grid.widened(1)
    lab = cv2.GaussianBlur(lab_on_scale(wide.rectify(image, CELL_PX)), (0, 0), SMOOTH)
    cells = lab.reshape(wide.rows, CELL_PX, wide.cols, CELL_PX, 3).transpose(0, 2, 1, 3, 4)
    inset = int(round(INSET * CELL_PX))
    middles = cells[:, :, inset : CELL_PX - inset, inset : CELL_PX - inset]
    ring = np.concatenate([middles[0], middles[-1], middles[1:-1, 0], middles[1:-1, -1]])
    return middles[1:-1, 1:-1], ring.reshape(len(ring), -1)


def _apart(looks: np.ndarray, others: np.ndarray) -> np.ndarray:
    """``(n, m)``: the root mean square colour difference of each of ``looks`` (cells'
    middles, flattened) from each of ``others``, the nearest of the others' quarter turns."""
    side = int(round(np.sqrt(looks.shape[1] // 3)))
    squares = others.reshape(len(others), side, side, 3)
    a = np.ascontiguousarray(looks, np.float32)
    own = (a * a).sum(axis=1)[:, None]
    nearest = None
    for turn in range(4):
        b = np.ascontiguousarray(np.rot90(squares, turn, axes=(1, 2))).reshape(len(others), -1)
        squared = own + (b * b).sum(axis=1)[None] - 2.0 * (a @ b.T)
        nearest = squared if nearest is None else np.minimum(nearest, squared)
    return np.sqrt(np.maximum(nearest, 0.0) / (side * side))
