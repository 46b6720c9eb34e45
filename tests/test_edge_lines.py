"""A board whose cells merged (no lines between them) is counted by the lines its edges lie on."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from synth.wild import wild_scene

from vision_solver.vision.locate import locate_board
from vision_solver.vision.locate.edgelines import lined_board
from vision_solver.vision.pipeline import read_board

PAGE = (226, 218, 228)
LIT, UNLIT = (228, 220, 230), (128, 128, 128)


def _page_with_board(
    cells: np.ndarray,
    pitch: tuple[int, int] = (30, 28),
    at: tuple[int, int] = (120, 300),
    frame: bool = True,
    buttons: bool = True,
    blur: float = 1.5,
    seed: int = 0,
    lit: tuple[int, int, int] = LIT,
) -> tuple[np.ndarray, np.ndarray]:
    """A page (1000 x 700) with a board of ``cells`` drawn without lines between its cells (lit
    cells the page's colour), a menu's words above it and a row of buttons below, blurred and
    noisy as a camera sees a screen; and the board's outer corners (TL, TR, BR, BL)."""
    rng = np.random.default_rng(seed)
    page = np.zeros((700, 1000, 3), np.uint8)
    page[:] = PAGE
    rows, cols = cells.shape
    (dy, dx), (y0, x0) = pitch, at
    for r in range(rows):
        for c in range(cols):
            colour = lit if cells[r, c] else UNLIT
            page[y0 + r * dy : y0 + (r + 1) * dy, x0 + c * dx : x0 + (c + 1) * dx] = colour
    if frame:
        cv2.rectangle(
            page, (x0 - 4, y0 - 4), (x0 + cols * dx + 3, y0 + rows * dy + 3), (170, 170, 170), 3
        )
    for k, word in enumerate(("File", "Game", "Edit", "View")):
        cv2.putText(page, word, (20 + 70 * k, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (40, 40, 40), 1)
    if buttons:
        below = y0 + rows * dy + dy // 2 + 4
        for k in range(2):
            left = x0 + k * 2 * dx
            cv2.rectangle(page, (left, below), (left + int(1.6 * dx), below + dy), (60, 60, 60), -1)
    page = cv2.GaussianBlur(page, (0, 0), blur)
    page = np.clip(page + rng.normal(0, 2.0, page.shape), 0, 255).astype(np.uint8)
    corners = (
        np.array(
            [
                [x0, y0],
                [x0 + cols * dx, y0],
                [x0 + cols * dx, y0 + rows * dy],
                [x0, y0 + rows * dy],
            ],
            np.float64,
        )
        - 0.5
    )  # pixel centres
    return page, corners


def _random_cells(rows: int, cols: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 2, (rows, cols))


def test_a_board_without_lines_between_its_cells_is_counted_by_its_edges() -> None:
    cells = _random_cells(13, 7, 3)
    page, corners = _page_with_board(cells)
    found = lined_board(page)
    assert found is not None
    assert (found.rows, found.cols) == (13, 7)
    assert np.abs(found.corners - corners).max() < 0.01 * np.linalg.norm(corners[2] - corners[0])


def test_the_buttons_below_at_the_board_s_pitch_are_no_row_of_it() -> None:
    # The buttons' edges lie one pitch and a half under the board: a lattice run on to them
    # would add a row of the page's colour.  (Without a frame, lit cells of another colour
    # than the page's: else a line of lit cells along the edge would be the page's.)
    cells = _random_cells(6, 6, 11)
    page, _ = _page_with_board(cells, pitch=(34, 34), frame=False, lit=(90, 200, 240))
    found = lined_board(page)
    assert found is not None
    assert (found.rows, found.cols) == (6, 6)


@settings(max_examples=12, deadline=None)
@given(
    rows=st.integers(4, 12),
    cols=st.integers(4, 12),
    seed=st.integers(0, 10_000),
    pitch=st.integers(20, 40),
)
def test_any_board_of_merged_cells_is_counted_exactly(
    rows: int, cols: int, seed: int, pitch: int
) -> None:
    # Any board whose every line between cells shows an edge somewhere (cells that differ
    # across it): a line along which no two cells differ shows nothing to count it by.
    cells = _random_cells(rows, cols, seed)
    assume((cells[1:] != cells[:-1]).any(axis=1).all())
    assume((cells[:, 1:] != cells[:, :-1]).any(axis=0).all())
    page, corners = _page_with_board(cells, pitch=(pitch, pitch), seed=seed)
    found = lined_board(page)
    assert found is not None
    assert (found.rows, found.cols) == (rows, cols)
    assert np.abs(found.corners - corners).max() < 0.015 * np.linalg.norm(corners[2] - corners[0])


@pytest.mark.parametrize(
    "cells",
    [np.zeros((8, 8), np.int64), np.ones((1, 1), np.int64)],
    ids=["a grey block of one state", "a page of words and buttons"],
)
def test_a_page_without_a_board_of_two_states_has_none(cells: np.ndarray) -> None:
    page, _ = _page_with_board(cells, frame=False)
    assert lined_board(page) is None


def test_a_photographed_board_of_merged_cells_is_read_in_the_photo() -> None:
    # The page shown on a monitor seen at an angle: the plane found, warped square-on, and the
    # board on it counted by its edges; the board read exactly and placed in the photo.
    cells = _random_cells(9, 7, 5)
    page, corners = _page_with_board(cells, pitch=(30, 30))
    photo = np.full((1100, 1500, 3), (70, 90, 60), np.uint8)
    screen = np.float32([[0, 0], [999, 0], [999, 699], [0, 699]])
    seen = np.float32([[260, 170], [1280, 240], [1230, 930], [300, 1000]])
    to_photo = cv2.getPerspectiveTransform(screen, seen)
    shown = cv2.warpPerspective(page, to_photo, (1500, 1100), flags=cv2.INTER_LINEAR)
    inside = cv2.warpPerspective(np.full((700, 1000), 255, np.uint8), to_photo, (1500, 1100))
    bezel = cv2.dilate(inside, np.ones((41, 41), np.uint8))
    photo[bezel > 0] = (25, 25, 25)
    photo[inside > 0] = shown[inside > 0]
    true_corners = cv2.perspectiveTransform(corners.reshape(1, 4, 2), to_photo).reshape(4, 2)
    location = locate_board(photo)
    assert location and (location.rows, location.cols) == (9, 7)
    diagonal = np.linalg.norm(true_corners[2] - true_corners[0])
    assert np.abs(location.corners - true_corners).max() < 0.01 * diagonal
    reading = read_board(photo, looks=[])
    assert reading.puzzle == "lights"
    assert np.array_equal(reading.cells, cells)


def _screenshot_with_board(cells: np.ndarray, pitch: int = 48) -> np.ndarray:
    """A sharp screenshot (1280 x 720): a board of light and dark grey cells drawn without
    gaps or lines between them on a panel, a menu's words in the corner."""
    image = np.zeros((720, 1280, 3), np.uint8)
    image[:] = (85, 85, 85)
    rows, cols = cells.shape
    y0, x0 = 140, 300
    cv2.rectangle(
        image,
        (x0 - 20, y0 - 20),
        (x0 + cols * pitch + 19, y0 + rows * pitch + 19),
        (115, 115, 115),
        -1,
    )
    for r in range(rows):
        for c in range(cols):
            colour = (215, 215, 215) if cells[r, c] else (55, 55, 55)
            image[y0 + r * pitch : y0 + (r + 1) * pitch, x0 + c * pitch : x0 + (c + 1) * pitch] = (
                colour
            )
    for k, word in enumerate(("File", "Game", "Edit", "View")):
        cv2.putText(
            image, word, (20 + 70 * k, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (230, 230, 230), 1
        )
    return image


@pytest.mark.parametrize("seed", [0, 1, 8, 11])
def test_a_screenshot_of_a_board_without_gaps_is_read_whole(seed: int) -> None:
    # Cells of one state merge into larger regions, and the few cells left alone line up
    # into a small lattice inside the board (or a folded one): the board counted by its
    # edges' lines holds far more of it.  (Seeds whose lone cells made a 2x2 to 2x4 lattice
    # before the lines were asked.)
    rng = np.random.default_rng(seed)
    rows, cols = (int(n) for n in rng.integers(5, 11, 2))
    cells = rng.integers(0, 2, (rows, cols))
    reading = read_board(_screenshot_with_board(cells), looks=[])
    assert (reading.rows, reading.cols) == (rows, cols)
    assert np.array_equal(reading.cells, cells)


@pytest.mark.parametrize("seed", [2100, 2152])
def test_markers_in_cells_and_the_page_round_a_board_do_not_recount_it(seed: int) -> None:
    # A black-and-white board found as it stands, a few of its cells unfound (their dot
    # markers): the lines of its edges also count the markers' edges (a lattice of half cells,
    # 2152) or a line of the page each side (2100), and the board found is kept.
    scene = wild_scene(seed, "bw-grid-dots")
    reading = read_board(scene.image, looks=[])
    assert (reading.rows, reading.cols) == scene.cells.shape
    assert np.array_equal(reading.cells, scene.cells)
