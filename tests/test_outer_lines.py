"""A grid one line short of its board takes the line in; a frame, a floor and a pattern that
runs on do not join it (``vision.outer_lines``)."""

from __future__ import annotations

import numpy as np
import pytest
from scenes import square_grid

from vision_solver.vision.grid import Grid
from vision_solver.vision.outer_lines import with_outer_lines

PITCH = 40
AT = np.array([120.0, 80.0])  # the board's top-left corner, pixels
FLOOR = (150, 140, 60)  # BGR: a teal floor
LIT, UNLIT = (40, 230, 90), (40, 60, 40)


def _board_image(cells: np.ndarray, around: tuple[int, int, int] = FLOOR) -> np.ndarray:
    """Lamps (squares 0.7 of a cell) of two states on a floor, ``around`` the board."""
    image = np.zeros((480, 640, 3), np.uint8)
    image[:] = around
    for (row, col), lit in np.ndenumerate(cells):
        x0, y0 = (AT + np.array([col, row]) * PITCH + 0.15 * PITCH).astype(int)
        side = int(0.7 * PITCH)
        image[y0 : y0 + side, x0 : x0 + side] = LIT if lit else UNLIT
    return image


def _grid(rows: tuple[int, int], cols: tuple[int, int]) -> Grid:
    """The grid of the board's rows ``rows[0]`` to ``rows[1] - 1`` and likewise columns."""
    return square_grid(AT, PITCH, rows, cols)


CELLS = np.array(
    [
        [1, 0, 1, 1, 0],
        [0, 0, 1, 0, 1],
        [1, 1, 0, 0, 1],
        [0, 1, 1, 0, 0],
    ]
)


def _marked_board_image(cells: np.ndarray) -> np.ndarray:
    """The lamps on a page of the unlit colour (an unlit lamp is only its marker), with a
    marker (a grey dot) in the middle of every cell, as a terminal draws its board: the
    page beyond a line shows the unlit colour as the line's unlit cells do, and only the
    markers the board's cells share tell where it ends."""
    image = _board_image(cells, around=UNLIT)
    for row, col in np.ndindex(cells.shape):
        x, y = (AT + (np.array([col, row]) + 0.5) * PITCH).astype(int)
        image[y - 3 : y + 3, x - 3 : x + 3] = (150, 150, 150)
    return image


#: The board on its floor, and the board whose cells carry markers on a page of their colour.
DRAWN = pytest.mark.parametrize(
    "draw", [_board_image, _marked_board_image], ids=["on-a-floor", "marked-on-its-page"]
)


@DRAWN
@pytest.mark.parametrize(
    ("rows", "cols"), [((0, 3), (0, 5)), ((1, 4), (0, 5)), ((0, 4), (1, 5)), ((0, 4), (0, 4))]
)
def test_a_grid_one_line_short_of_its_board_takes_the_line_in(draw, rows, cols):
    grown = with_outer_lines(draw(CELLS), _grid(rows, cols))
    whole = _grid((0, 4), (0, 5))
    assert (grown.rows, grown.cols) == (4, 5)
    np.testing.assert_allclose(grown.corners, whole.corners, atol=0.5)


@DRAWN
def test_the_whole_board_grows_no_more(draw):
    grid = _grid((0, 4), (0, 5))
    assert with_outer_lines(draw(CELLS), grid) is grid


def test_a_line_of_one_state_is_a_frame_not_the_boards():
    cells = CELLS.copy()
    cells[-1] = 0  # the bottom line all unlit: no line of a board of two states to tell
    grid = _grid((0, 3), (0, 5))
    assert with_outer_lines(_board_image(cells), grid) is grid


def test_a_pattern_that_runs_on_past_the_line_takes_in_nothing():
    """Lamps of both states under the next line too (the board may run on, or be a pattern):
    the line beyond shows the states, so no end of the board is seen there."""
    cells = np.vstack([CELLS, [[1, 0, 0, 1, 1]]])
    grid = _grid((0, 3), (0, 5))
    assert with_outer_lines(_board_image(cells), grid) is grid


def test_a_floor_of_the_unlit_colour_round_the_board_takes_in_nothing():
    """The floor shows what an unlit cell shows (lamps that hardly differ from it): every
    line round the board is one of its states, and none is taken in."""
    grid = _grid((0, 4), (0, 5))
    assert with_outer_lines(_board_image(CELLS, around=UNLIT), grid) is grid
