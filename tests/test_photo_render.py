"""The renderer's photo mode: its truth (corners, homography) is exact and seeded."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from synth.photo import KINDS, _photograph_monitor, apply, is_tuning, outline, photo_scene
from synth.scene import Rendered

from vision_solver.errors import BoardInputError


def _diagonal(corners: np.ndarray) -> float:
    return float(np.linalg.norm(corners[2] - corners[0]))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_white_board_on_a_photographed_monitor_lands_on_its_truth_corners(seed: int) -> None:
    # A black screen with a white board: the photo's bright quad is the board, measured
    # independently of the homography the truth was computed with.
    screen = np.zeros((300, 400, 3), np.uint8)
    screen[60:240, 100:340] = 255
    corners = np.array([[99.5, 59.5], [339.5, 59.5], [339.5, 239.5], [99.5, 239.5]])
    board = Rendered(screen, np.zeros((6, 8), np.int64), corners, "lights", "test")
    rng = np.random.default_rng(seed)
    shot = _photograph_monitor(board, (1600, 1200), rng, clean=True)
    grey = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
    _, bright = cv2.threshold(grey, 230, 255, cv2.THRESH_BINARY)
    contours, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    quad = max(contours, key=cv2.contourArea)
    found = cv2.approxPolyDP(quad, 0.02 * cv2.arcLength(quad, True), True).reshape(-1, 2)
    assert len(found) == 4
    diagonal = _diagonal(shot.corners)
    for corner in shot.corners:
        nearest = np.linalg.norm(found - corner, axis=1).min()
        assert nearest < 0.01 * diagonal, (corner, found)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [4, 5])
def test_the_homography_maps_the_board_outline_onto_the_corners_and_back(
    kind: str, seed: int
) -> None:
    scene = photo_scene(seed, kind)
    rows, cols = scene.cells.shape
    assert np.allclose(apply(scene.homography, outline(rows, cols)), scene.corners)
    back = apply(np.linalg.inv(scene.homography), scene.corners)
    assert np.abs(back - outline(rows, cols)).max() < 0.01 * np.hypot(rows, cols)
    h, w = scene.image.shape[:2]
    assert (scene.corners >= -0.5).all() and (scene.corners[:, 0] <= w).all()
    assert (scene.corners[:, 1] <= h).all()


@pytest.mark.parametrize("seed", [1, 2, 3, 5, 6, 7, 9])
def test_a_toys_lit_keys_are_brighter_than_its_unlit_ones_where_the_truth_puts_them(
    seed: int,
) -> None:
    scene = photo_scene(seed, "toy")
    rows, cols = scene.cells.shape
    px = 24
    to_rectified = np.diag([px, px, 1.0]) @ np.linalg.inv(scene.homography)
    flat = cv2.warpPerspective(scene.image, to_rectified, (cols * px, rows * px))
    value = cv2.cvtColor(flat, cv2.COLOR_BGR2HSV)[..., 2].astype(float)
    centres = value.reshape(rows, px, cols, px)[:, 8:16, :, 8:16].mean(axis=(1, 3))
    lit, unlit = centres[scene.cells == 1], centres[scene.cells == 0]
    if lit.size and unlit.size:
        assert lit.min() > unlit.max()


def test_photos_are_seeded_and_split_between_tuning_and_scored_seeds() -> None:
    first, again = photo_scene(6, "competing"), photo_scene(6, "competing")
    assert np.array_equal(first.image, again.image)
    assert first.competitor in ("display", "keyboard", "floor")
    assert [s for s in range(8) if is_tuning(s)] == [0, 4]


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(BoardInputError, match="kind must be one of monitor, toy, competing"):
        photo_scene(1, "poster")
