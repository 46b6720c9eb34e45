"""Locating boards of 3-D objects (tests/synth/wild_chairs.py), on tuning-side seeds.

Benches on grass have no tiles or lines: the board is the lattice of the objects, not the
HUD's command card of coloured squares beside the view.  Chairs on tiles under a tilted
camera: the far rows' chairs look smaller, and the board is all the rows, not the near ones.
"""

from __future__ import annotations

import numpy as np
import pytest
from synth.wild import wild_scene

from vision_solver.vision.locate import locate_board

#: Corners found within this share of the board's diagonal of the truth.
CORNER_TOLERANCE = 0.04


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """The largest corner distance, as a share of the true board's diagonal."""
    diagonal = float(np.linalg.norm(truth[0] - truth[2]))
    return float(np.linalg.norm(found - truth, axis=1).max()) / diagonal


@pytest.mark.parametrize("seed", [16, 48, 60])
def test_benches_on_grass_are_located_not_the_hud_command_card(seed: int) -> None:
    scene = wild_scene(seed, "benches-grass")
    location = locate_board(scene.image)
    assert location
    assert (location.rows, location.cols) == scene.cells.shape  # the card is 3x4
    assert _corner_error(location.corners, scene.corners) < CORNER_TOLERANCE


@pytest.mark.parametrize("seed", [20, 64])
def test_chairs_under_a_tilted_camera_are_located_far_rows_included(seed: int) -> None:
    scene = wild_scene(seed, "chairs-3d")
    location = locate_board(scene.image)
    assert location
    assert (location.rows, location.cols) == scene.cells.shape
    assert _corner_error(location.corners, scene.corners) < CORNER_TOLERANCE
