"""The overlay renderer against golden images (exact), plus what it must show.

Regenerate after a deliberate change: BOARDSOLVE_REGEN_GOLDEN=1 pytest tests/test_overlay.py
"""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision_solver.vision.grid import Grid
from vision_solver.vision.overlay import Marks, draw_overlay

GOLDEN = Path(__file__).parent / "golden"


def _scene(tilted: bool) -> tuple[np.ndarray, Grid]:
    image = np.zeros((240, 320, 3), dtype=np.uint8)
    image[:, :] = (60, 90, 40)
    src = np.array([[0, 0], [4, 0], [4, 3], [0, 3]], dtype=np.float32)
    if tilted:
        dst = np.array([[70, 40], [250, 55], [270, 200], [50, 190]], dtype=np.float32)
    else:
        dst = np.array([[60, 40], [260, 40], [260, 190], [60, 190]], dtype=np.float32)
    homography = cv2.getPerspectiveTransform(src, dst)
    return image, Grid(3, 4, homography, dst.astype(np.float64))


CASES = {
    "lights": (
        False,
        Marks(
            np.array([[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 0, 1]]),
            "4 clicks (optimal)",
            np.array([[1, 1, 1, 1], [1, 0.3, 1, 1], [1, 1, 1, 1]]),
        ),
    ),
    "chairs": (
        True,
        Marks(
            np.array([[3, 0, 1, 0], [0, -1, 0, 2], [1, 0, 0, 0]]),
            "8 clicks (optimal)",
            None,
            turns=True,
        ),
    ),
    "unsolvable": (
        False,
        Marks(None, "no solution as read: check (2,3)", np.full((3, 4), 0.9), suspects=[(1, 2)]),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_overlay_matches_golden(name):
    tilted, marks = CASES[name]
    image, grid = _scene(tilted)
    out = draw_overlay(image, grid, marks)
    path = GOLDEN / f"overlay_{name}.png"
    if os.environ.get("BOARDSOLVE_REGEN_GOLDEN"):
        cv2.imwrite(str(path), out)
    golden = cv2.imread(str(path))
    assert golden is not None, f"missing {path}"
    assert out.shape == golden.shape
    assert np.array_equal(out, golden)


def test_overlay_leaves_the_input_alone_and_marks_clicked_cells():
    image, grid = _scene(False)
    before = image.copy()
    presses = np.zeros((3, 4), dtype=np.int64)
    presses[1, 2] = 2
    out = draw_overlay(image, grid, Marks(presses, "2 clicks (optimal)"))
    assert np.array_equal(image, before)
    centre = grid.centres()[1, 2]
    x, y = int(centre[0]), int(centre[1])
    patch = out[y - 12 : y + 12, x - 12 : x + 12]
    # a white disc with dark digits on a green board
    assert (patch == 255).all(axis=2).mean() > 0.3
    assert (patch < 60).all(axis=2).mean() > 0.02
    untouched = grid.centres()[0, 0]
    assert np.array_equal(out[int(untouched[1]), int(untouched[0])], image[0, 0])
