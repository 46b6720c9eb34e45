"""A grid that ran on past its board over what lies round it (a floor's tiles, a page's
squares, a title) is the board less those lines; a board's own lines stay
(``vision.background_lines``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scenes import assert_read_exactly, square_grid
from synth.wild import wild_scene

from vision_solver.vision.background_lines import without_background_lines
from vision_solver.vision.grid import Grid

PITCH = 40
AT = np.array([200.0, 120.0])  # the board's top-left corner, pixels
FLOOR, GROUT = (150, 140, 60), (110, 100, 40)  # BGR: teal tiles, darker grout
LIT, UNLIT = (40, 230, 90), (40, 60, 40)
CELLS = np.array(
    [
        [1, 0, 1, 1, 0],
        [0, 0, 1, 0, 1],
        [1, 1, 0, 0, 1],
        [0, 1, 1, 0, 0],
    ]
)


def _floor() -> np.ndarray:
    """A floor of tiles on the board's pitch, grout between them, all over the picture."""
    image = np.zeros((560, 760, 3), np.uint8)
    image[:] = FLOOR
    for x in range(int(AT[0]) % PITCH, image.shape[1], PITCH):
        image[:, max(0, x - 2) : x + 2] = GROUT
    for y in range(int(AT[1]) % PITCH, image.shape[0], PITCH):
        image[max(0, y - 2) : y + 2] = GROUT
    return image


def _lamps(image: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """Lamps (squares 0.6 of a cell) of two states set into the floor at AT."""
    for (row, col), lit in np.ndenumerate(cells):
        x0, y0 = (AT + np.array([col, row]) * PITCH + 0.2 * PITCH).astype(int)
        side = int(0.6 * PITCH)
        image[y0 : y0 + side, x0 : x0 + side] = LIT if lit else UNLIT
    return image


def _arrow(image: np.ndarray, row: int, col: int, turn: int) -> None:
    """A white arrowhead in cell (row, col), turned ``turn`` quarters clockwise from up."""
    centre = AT + (np.array([col, row]) + 0.5) * PITCH
    head = np.array([[0.0, -0.3], [0.25, 0.2], [-0.25, 0.2]]) * PITCH
    for _ in range(turn):
        head = np.stack([-head[:, 1], head[:, 0]], axis=1)
    cv2.fillPoly(image, [np.round(centre + head).astype(np.int32)], (245, 245, 245))


def _grid(rows: tuple[int, int], cols: tuple[int, int]) -> Grid:
    """The grid of the board's rows ``rows[0]`` to ``rows[1] - 1`` and likewise columns."""
    return square_grid(AT, PITCH, rows, cols)


@pytest.mark.parametrize(
    ("rows", "cols"),
    [((0, 4), (0, 7)), ((0, 4), (-3, 5)), ((-1, 5), (0, 5)), ((0, 6), (-1, 5))],
)
def test_floor_tiles_a_grid_took_in_round_a_board_of_lamps_go(rows, cols):
    image = _lamps(_floor(), CELLS)
    trimmed = without_background_lines(image, _grid(rows, cols))
    whole = _grid((0, 4), (0, 5))
    assert (trimmed.rows, trimmed.cols) == (4, 5)
    np.testing.assert_allclose(trimmed.corners, whole.corners, atol=1e-6)


def test_floor_tiles_round_a_large_board_go_too():
    """A board large enough to have a middle no block leaves out (asked first, as a
    shortcut: the floor's cells have no look-alike there)."""
    cells = np.tile(CELLS, (3, 2))[:10, :9]
    trimmed = without_background_lines(_lamps(_floor(), cells), _grid((0, 10), (-1, 11)))
    assert (trimmed.rows, trimmed.cols) == (10, 9)
    np.testing.assert_allclose(trimmed.corners, _grid((0, 10), (0, 9)).corners, atol=1e-6)


def test_the_board_alone_keeps_every_line():
    grid = _grid((0, 4), (0, 5))
    assert without_background_lines(_lamps(_floor(), CELLS), grid) is grid


def test_an_edge_row_holding_the_only_lit_lamps_is_the_board_s():
    """No other cell looks like the top row's, but they look alike, and like nothing round
    the board: a board's line (a level with its top row lit), not the floor."""
    cells = np.zeros_like(CELLS)
    cells[0] = 1
    grid = _grid((0, 4), (0, 5))
    assert without_background_lines(_lamps(_floor(), cells), grid) is grid


@settings(max_examples=40, deadline=None)
@given(
    st.integers(3, 6).flatmap(
        lambda rows: st.integers(3, 7).flatmap(
            lambda cols: st.lists(
                st.lists(st.integers(0, 1), min_size=cols, max_size=cols),
                min_size=rows,
                max_size=rows,
            )
        )
    )
)
def test_a_board_of_lamps_in_any_states_keeps_every_line(cells):
    """Whatever its lamps show (one state only, lit ones in a single line), a board found
    whole on its floor loses no line: its lines' cells are alike, or like the rest's."""
    cells = np.array(cells)
    grid = _grid((0, cells.shape[0]), (0, cells.shape[1]))
    assert without_background_lines(_lamps(_floor(), cells), grid) is grid


@pytest.mark.parametrize("inverse", [False, True])
@pytest.mark.parametrize(
    ("rows", "cols"), [((1, 3), (2, 7)), ((0, 2), (0, 5)), ((1, 4), (1, 6)), ((0, 4), (3, 7))]
)
def test_a_block_of_lit_lamps_ringed_by_unlit_ones_keeps_every_line(rows, cols, inverse):
    """The unlit lamps round a lit block look like nothing else of the board and nothing
    round it is like them (their floor is, not they): the board's own lines."""
    cells = np.zeros((4, 7), int)
    cells[rows[0] : rows[1], cols[0] : cols[1]] = 1
    cells = 1 - cells if inverse else cells
    grid = _grid((0, 4), (0, 7))
    assert without_background_lines(_lamps(_floor(), cells), grid) is grid


def test_a_row_of_buttons_under_the_board_goes():
    """A line partly of the floor, the rest of it buttons unlike any lamp: the page's."""
    image = _lamps(_floor(), CELLS)
    for col in (1, 3):
        x0, y0 = (AT + np.array([col + 0.1, 4.25]) * PITCH).astype(int)
        cv2.rectangle(
            image,
            (int(x0), int(y0)),
            (int(x0 + 0.8 * PITCH), int(y0 + 0.5 * PITCH)),
            (150, 60, 200),
            -1,
        )
    trimmed = without_background_lines(image, _grid((0, 5), (0, 5)))
    assert (trimmed.rows, trimmed.cols) == (4, 5)


def test_a_title_s_letters_over_the_board_go():
    image = _lamps(_floor(), CELLS)
    x, y = (AT + np.array([0.1, -0.25]) * PITCH).astype(int)
    cv2.putText(image, "LAMPS", (int(x), int(y)), cv2.FONT_HERSHEY_SIMPLEX, 1.6, (0, 0, 0), 4)
    trimmed = without_background_lines(image, _grid((-1, 4), (0, 5)))
    assert (trimmed.rows, trimmed.cols) == (4, 5)


def test_an_edge_column_of_arrows_all_one_way_is_the_board_s():
    """Arrows in other turns than the rest are look-alikes under a quarter turn."""
    image = _lamps(_floor(), np.zeros_like(CELLS))
    for (row, col), _ in np.ndenumerate(CELLS):
        _arrow(image, row, col, 1 if col == 4 else 0)
    grid = _grid((0, 4), (0, 5))
    assert without_background_lines(image, grid) is grid


@pytest.mark.parametrize(
    ("family", "seed"),
    [
        # fresh tuning boards found with lines of what lies round them
        ("lights-in-scene", 6016),  # three columns of the floor's tiles
        ("lights-in-scene", 6116),  # a column of the floor (placed by the floor's tiles,
        # the lamps' cells were read as all alike)
        ("glow-on-grid", 6112),  # a column of the page's squares
        ("lights-grey", 6048),  # the title's row and the buttons' row
        ("arrow-tiles", 6072),  # a row of the page and two buttons under the board
    ],
)
def test_a_board_found_with_what_lies_round_it_is_read_whole(family, seed):
    assert_read_exactly(wild_scene(seed, family))
