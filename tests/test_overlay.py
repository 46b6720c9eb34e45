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


def test_marks_on_a_tilted_photo_lie_in_their_cells_and_shrink_with_distance():
    from synth.photo import photo_scene

    from vision_solver.vision.geometry import apply_homography, quad_areas

    scene = photo_scene(5, "toy")  # a 6x6 toy seen at a slant: far cells half the near ones
    rows, cols = scene.cells.shape
    grid = Grid(rows, cols, scene.homography / scene.homography[2, 2], scene.corners)
    presses = (np.add.outer(np.arange(rows), np.arange(cols)) % 2).astype(np.int64)
    canvas = np.zeros_like(scene.image)
    out = draw_overlay(canvas, grid, Marks(presses, "8 clicks"))
    white = (out.min(axis=2) >= 250).astype(np.uint8)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(white)
    board = grid.corners.astype(np.float32)
    to_board = np.linalg.inv(grid.homography)
    discs: dict[tuple[int, int], float] = {}
    for k in range(1, count):
        area = stats[k, cv2.CC_STAT_AREA]
        if cv2.pointPolygonTest(board, tuple(map(float, centroids[k])), False) < 0:
            continue  # the legend's box (and its letters' holes), in a corner of the image
        ys, xs = np.nonzero(labels == k)
        uv = apply_homography(to_board, np.column_stack([xs, ys]).astype(np.float64))
        col, row = np.floor(apply_homography(to_board, centroids[k][None])[0]).astype(int)
        assert presses[row, col] == 1, (row, col)
        assert (uv[:, 0] > col).all() and (uv[:, 0] < col + 1).all()
        assert (uv[:, 1] > row).all() and (uv[:, 1] < row + 1).all()
        quad = grid.cell_quad(int(row), int(col))
        discs[int(row), int(col)] = float(area) / float(quad_areas(quad[None])[0])
    assert sorted(discs) == [tuple(rc) for rc in np.argwhere(presses == 1).tolist()]
    quads = quad_areas(np.array([grid.cell_quad(r, c) for r, c in discs]))
    assert quads.max() > 2 * quads.min()  # the perspective is strong...
    assert min(discs.values()) > 0.12 and max(discs.values()) < 0.25  # ...the discs follow it
