"""Photographed boards among other lattices: a tiled floor is scenery, not the board."""

from __future__ import annotations

import numpy as np
import pytest
from synth.photo import is_tuning, photo_scene

from vision_solver.vision.locate import locate_board

#: Tuning-side photos of a toy lying on a tiled floor (the floor's tiles outscored the toy's
#: keys before the floor was told apart).
FLOOR_SEEDS = [0, 12, 16, 20]


@pytest.mark.parametrize("seed", FLOOR_SEEDS)
def test_a_toy_on_a_tiled_floor_is_found_not_the_floor(seed: int) -> None:
    assert is_tuning(seed)
    scene = photo_scene(seed, "competing")
    assert scene.competitor == "floor"
    trace: list = []
    found = locate_board(scene.image, trace)
    assert found, found
    assert (found.rows, found.cols) == scene.cells.shape
    diagonal = float(np.linalg.norm(scene.corners[2] - scene.corners[0]))
    error = np.linalg.norm(found.corners - scene.corners, axis=1).mean()
    assert error < 0.01 * diagonal
    # the floor was weighed and named as such for --debug-dir
    floors = [c for c in trace if "floor" in c.source]
    assert floors and max(c.rows * c.cols for c in floors) > 2 * found.rows * found.cols
