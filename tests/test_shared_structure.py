"""A board's cells share a structure; a lattice laid over blotches or a grain does not."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from synth.photo import photo_scene

from vision_solver.vision.geometry import board_at
from vision_solver.vision.locate.structure import MADE_UP, made_up, shared_structure
from vision_solver.vision.pipeline import read_board

CELL = 40


def _board_photo(seed: int, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """A board of bevelled tiles, each lit or not at random, warped by a random tilt onto a
    noisy page: the photo and the board's corners in it."""
    rng = np.random.default_rng(seed)
    flat = np.full((rows * CELL + 2 * CELL, cols * CELL + 2 * CELL, 3), 60, np.uint8)
    lit, unlit = rng.integers(120, 255, 3), rng.integers(0, 110, 3)
    for row in range(rows):
        for col in range(cols):
            y, x = CELL + row * CELL, CELL + col * CELL
            colour = lit if rng.random() < 0.5 else unlit
            cv2.rectangle(flat, (x + 3, y + 3), (x + CELL - 4, y + CELL - 4), colour.tolist(), -1)
            cv2.rectangle(flat, (x + 3, y + 3), (x + CELL - 4, y + CELL - 4), (200, 200, 200), 1)
    board = np.float32(
        [
            [CELL, CELL],
            [CELL * (cols + 1), CELL],
            [CELL * (cols + 1), CELL * (rows + 1)],
            [CELL, CELL * (rows + 1)],
        ]
    )
    width, height = flat.shape[1] + 200, flat.shape[0] + 200
    corners = board + 100 + rng.uniform(-25, 25, (4, 2)).astype(np.float32)
    homography = cv2.getPerspectiveTransform(board, corners)
    photo = cv2.warpPerspective(flat, homography, (width, height), borderValue=(60, 60, 60))
    noisy = photo.astype(np.float64) + rng.normal(0, 6, photo.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8), corners.astype(np.float64)


def _texture(seed: int, shape: tuple[int, int], grain: float) -> np.ndarray:
    """A picture with no board: smoothed noise (blotches, a grain) over a slow gradient."""
    rng = np.random.default_rng(seed)
    noise = cv2.GaussianBlur(rng.normal(0, 1, shape), (0, 0), grain)
    noise = 128 + 40 * noise / noise.std() + np.linspace(-30, 30, shape[1])[None, :]
    grey = np.clip(noise + rng.normal(0, 4, shape), 0, 255).astype(np.uint8)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)


@pytest.mark.parametrize("seed", range(6))
def test_a_board_s_cells_share_their_structure(seed: int) -> None:
    rows, cols = 3 + seed % 4, 4 + seed % 3
    photo, corners = _board_photo(seed, rows, cols)
    location = board_at(corners, rows, cols)
    assert shared_structure(photo, location.homography, rows, cols) > 5 * MADE_UP
    assert not made_up(photo, location)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("grain", [2.0, 6.0])
def test_a_lattice_over_blotches_or_a_grain_is_made_up(seed: int, grain: float) -> None:
    # Blotches a tenth of a cell across or less.  (As large as the cells, they leave a cell
    # few pixels that vary apart, and the ratio spreads wider: up to 2.8 in 30 draws.)
    picture = _texture(seed, (600, 800), grain)
    rng = np.random.default_rng(100 + seed)
    corners = np.array([[150, 100], [650, 120], [630, 500], [170, 480]], np.float64)
    corners += rng.uniform(-40, 40, (4, 2))
    rows, cols = int(rng.integers(2, 7)), int(rng.integers(2, 7))
    assert made_up(picture, board_at(corners, rows, cols))


def test_cells_past_the_picture_are_left_out() -> None:
    photo, corners = _board_photo(0, 3, 4)
    # A lattice three times the board's cells, reaching far past the picture's edges: too
    # few of its cells lie inside to weigh.
    middle = corners.mean(axis=0)
    far = middle + 6 * (corners - middle)
    assert shared_structure(photo, board_at(far, 3, 4).homography, 3, 4) is None


def test_a_blank_screen_s_blotches_give_way_to_the_board_on_it() -> None:
    """Tuning monitor photo 6088: a 3x5 lattice of blotches on the screen, every cell
    "found", stood for the photo's 8x4 board (read as lights)."""
    scene = photo_scene(6088, "monitor")
    reading = read_board(scene.image, looks=[])
    assert reading.cells.shape == scene.cells.shape
    assert np.array_equal(reading.cells, scene.cells)


def test_an_image_of_the_wrong_shape_is_refused_with_its_shape() -> None:
    location = board_at(np.array([[0, 0], [40, 0], [40, 40], [0, 40]], np.float64), 2, 2)
    with pytest.raises(ValueError, match="not 4-D"):
        shared_structure(np.zeros((2, 50, 50, 3), np.uint8), location.homography, 2, 2)
