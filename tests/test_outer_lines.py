"""A grid one line short of its board takes the line in; a frame, a floor and a pattern that
runs on do not join it; a line of the page the grid took in goes (``vision.outer_lines``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from scenes import square_grid
from synth.wild import wild_scene

from vision_solver.vision.grid import Grid
from vision_solver.vision.outer_lines import with_outer_lines, without_foreign_lines
from vision_solver.vision.pipeline import read_board

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


RIM = (60, 60, 200)  # BGR: the red rim round every tile of a glowing board
BUTTON = (170, 190, 40)  # BGR: a teal button on the page


def _rimmed_board_image(cells: np.ndarray) -> np.ndarray:
    """Tiles of two states, each with a rim, on a page of the unlit tiles' colour, and two
    buttons on the page in the row below the board, lined up with its columns 1 and 3."""
    image = np.zeros((480, 640, 3), np.uint8)
    image[:] = UNLIT
    rows = len(cells)
    for (row, col), lit in np.ndenumerate(cells):
        x0, y0 = (AT + np.array([col, row]) * PITCH + 0.1 * PITCH).astype(int)
        x1, y1 = x0 + int(0.8 * PITCH), y0 + int(0.8 * PITCH)
        cv2.rectangle(image, (x0, y0), (x1, y1), LIT if lit else UNLIT, -1)
        cv2.rectangle(image, (x0, y0), (x1, y1), RIM, 2)
    for col in (1, 3):
        x0, y0 = (AT + np.array([col, rows]) * PITCH + np.array([0.05, 0.35]) * PITCH).astype(int)
        cv2.rectangle(image, (x0, y0), (x0 + int(0.9 * PITCH), y0 + int(0.3 * PITCH)), BUTTON, -1)
    return image


def test_a_row_of_the_page_the_grid_took_in_below_a_board_of_rimmed_tiles_goes():
    # (the buttons line the page's row up with the board's cells, as a lattice finds them)
    whole = _grid((0, 4), (0, 5))
    board = without_foreign_lines(_rimmed_board_image(CELLS), _grid((0, 5), (0, 5)))
    assert (board.rows, board.cols) == (4, 5)
    np.testing.assert_allclose(board.corners, whole.corners, atol=0.5)


def test_a_board_of_rimmed_tiles_loses_no_line_of_its_own():
    grid = _grid((0, 4), (0, 5))
    assert without_foreign_lines(_rimmed_board_image(CELLS), grid) is grid


def test_a_line_of_flat_cells_that_share_only_their_colour_stays():
    """Black and white cells without gaps or rims on a black page, the last two columns all
    black: a black cell's edges are its white neighbours', so black cells share no look of
    their own, and the last column's, flat black as the page is, is not told from it so."""
    cells = CELLS.copy()
    cells[:, -2:] = 0
    image = _board_image(np.zeros_like(cells), around=(20, 20, 20))
    for (row, col), lit in np.ndenumerate(cells):
        x0, y0 = (AT + np.array([col, row]) * PITCH).astype(int)
        if lit:
            image[y0 : y0 + PITCH, x0 : x0 + PITCH] = (235, 235, 235)
        else:
            image[y0 : y0 + PITCH, x0 : x0 + PITCH] = (20, 20, 20)
    grid = _grid((0, 4), (0, 5))
    assert without_foreign_lines(image, grid) is grid


def test_a_glowing_board_on_a_ruled_page_reads_without_the_page_s_row_of_buttons():
    # fresh tuning seed: the page's row below the board, lined up with its cells by the
    # Undo and Menu buttons, was read as an eighth row of unlit cells
    scene = wild_scene(8316, "glow-on-grid")
    reading = read_board(scene.image, looks=[])
    assert np.array_equal(reading.cells, scene.cells)
    diagonal = float(np.linalg.norm(scene.corners[2] - scene.corners[0]))
    assert np.linalg.norm(reading.grid.corners - scene.corners, axis=1).mean() < 0.01 * diagonal


def test_lamps_beside_the_frame_round_their_board_keep_their_line():
    # fresh tuning seed: the frame's edge above the top row of lamps made them unlike the
    # rest's lamps (read 6x5 for 7x5 until the page had to run on over a line that goes)
    scene = wild_scene(8112, "lights-in-scene")
    reading = read_board(scene.image, looks=[])
    assert np.array_equal(reading.cells, scene.cells)
