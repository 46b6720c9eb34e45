"""Whole readings (``read_board``) of seeded synthetic screenshots with known cells and corners."""

from __future__ import annotations

import numpy as np
import pytest
from scenes import GENERIC_LOOKS, assert_read_exactly, generic_scene
from synth import random_scene, render_board

from vision_solver.vision.pipeline import read_board


@pytest.mark.parametrize("look", GENERIC_LOOKS)
@pytest.mark.parametrize("seed", [1, 4])
def test_scene_read_exactly(look, seed):
    """A board anywhere among other UI: size, corners (within 0.2 cell) and every cell."""
    assert_read_exactly(generic_scene(look, seed), within=0.2, puzzle=True)


@pytest.mark.parametrize("look", ["flat-dark", "numbered", "gridlines"])
def test_tilted_board_round_trips(look):
    """A board warped by a known homography: corners come back through it."""
    assert_read_exactly(random_scene(2, look=look, tilt=0.2), within=0.2)


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (3, 7), (20, 20)])
def test_sizes_from_tiny_to_twenty(rows, cols):
    cells = np.random.default_rng(rows * cols).integers(0, 2, (rows, cols))
    cells[0, 0], cells[-1, -1] = 1, 0  # both states present
    scene = render_board(cells, "flat-dark", seed=rows, cell_px=30 if rows > 10 else 50)
    reading = read_board(scene.image, looks=[])
    assert reading.cells.tolist() == cells.tolist()
