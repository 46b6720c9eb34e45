"""Benches on grass seen by a perspective camera (the made-up ``benches-grass`` looks): the
board read as a whole, its side-on groups named by their backrests, and benches read one by
one only when they tell apart as many looks as the board shows."""

from __future__ import annotations

import numpy as np
import pytest
from synth.wild import wild_scene

from vision_solver.vision.classify import SURE_BENCHES, TURNS_DECIDE, read_cells
from vision_solver.vision.classify.benches import face_profile_groups, read_benches
from vision_solver.vision.classify.cells import CellStack
from vision_solver.vision.classify.objects3d import read_objects
from vision_solver.vision.pipeline import place_grid, read_board


@pytest.mark.parametrize("seed", [84, 144])
def test_the_side_on_group_whose_backrests_rise_on_the_left_faces_right(seed):
    """Tuning-side boards as located: the cells fall into their four looks, seen from the
    side (the quarter turns hardly tell the two side-on, mirror, groups apart); named the
    wrong way round, the benches' own backrests, read over every cell of both groups, turn
    them back, and named right they keep them.  (The board's geometry named these two the
    wrong way round until the edges' lean, ``edge_sides``, took part.)"""
    scene = wild_scene(seed, "benches-grass")
    stack = CellStack(scene.image, read_board(scene.image, looks=[]).grid)
    assert (stack.grid.rows, stack.grid.cols) == scene.cells.shape
    objects = read_objects(stack)
    assert objects is not None and objects.turns_margin < TURNS_DECIDE
    assert objects.cells.tolist() == scene.cells.tolist()
    swapped = np.where(objects.cells % 2 == 1, 4 - objects.cells, objects.cells)
    one_by_one = read_benches(stack)[0]
    assert face_profile_groups(swapped, one_by_one).tolist() == scene.cells.tolist()
    assert face_profile_groups(objects.cells, one_by_one).tolist() == scene.cells.tolist()


@pytest.mark.parametrize("seed", [136, 148])
def test_chairs_seen_from_above_keep_the_naming_their_quarter_turns_give(seed):
    """Tuning-side chairs seen from above (their ground passes for grass) as located: the
    quarter turns name their side-on groups, clearly (``turns_margin``); the backrests read
    one by one would swap them, and are not asked."""
    scene = wild_scene(seed, "chairs-3d")
    reading = read_board(scene.image, looks=[])
    stack = CellStack(scene.image, reading.grid)
    objects = read_objects(stack)
    assert objects is not None and objects.turns_margin >= TURNS_DECIDE
    swapped = face_profile_groups(objects.cells, read_benches(stack)[0])
    assert swapped.tolist() != scene.cells.tolist()
    assert reading.cells.tolist() == scene.cells.tolist()


def test_benches_read_sure_one_by_one_that_merge_two_looks_give_way():
    """Tuning-side board 16 on its true grid: benches read one by one are sure of
    themselves but name three directions (every bench seen in front read as one seen from
    behind) where the board shows four looks; the board read as a whole reads every cell."""
    scene = wild_scene(16, "benches-grass")
    stack = CellStack(scene.image, place_grid(scene.image, scene.cells.shape, scene.corners))
    one_by_one, sureness = read_benches(stack)
    assert sureness.mean() >= SURE_BENCHES
    assert len(np.unique(one_by_one)) == 3 < len(np.unique(scene.cells))
    reading = read_cells(scene.image, stack.grid)
    assert reading.cells.tolist() == scene.cells.tolist()
