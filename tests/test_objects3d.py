"""The 3-D object reader (classify/objects3d.py) on the look generator's 3-D chairs, true grid."""

from __future__ import annotations

import numpy as np
import pytest
from synth.wild import wild_scene

from vision_solver.vision.classify.cells import CellStack
from vision_solver.vision.classify.objects3d import holds_objects, read_objects
from vision_solver.vision.pipeline import place_grid


def _stack(seed: int, family: str):
    scene = wild_scene(seed, family)
    grid = place_grid(scene.image, scene.cells.shape, scene.corners)
    return CellStack(scene.image, grid), scene.cells


@pytest.mark.parametrize("seed", [20, 32])
def test_chairs_under_a_tilted_camera_are_read_exactly_as_a_whole(seed):
    """Tuning-side chairs-3d boards: the cells grouped by look and the groups named read every
    cell (the cell-by-cell bench reader got 14 of 36 and 36 of 64)."""
    stack, cells = _stack(seed, "chairs-3d")
    reading = read_objects(stack)
    assert reading is not None
    assert reading.cells.tolist() == cells.tolist()
    assert np.all((reading.confidence >= 0) & (reading.confidence <= 1))


def test_boards_of_objects_are_told_from_lights_boards():
    stack, _ = _stack(20, "chairs-3d")
    assert holds_objects(stack)
    for seed in (0, 4):
        stack, _ = _stack(seed, "lights-tiles")
        assert not holds_objects(stack)
