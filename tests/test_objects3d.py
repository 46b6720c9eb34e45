"""The 3-D object reader (classify/objects3d.py) on the look generator's 3-D chairs, true grid."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from synth.wild import wild_scene

from vision_solver.rules import PuzzleKind
from vision_solver.vision.classify import read_cells
from vision_solver.vision.classify.benches import GROUT_LINES, grout_lines, objects_on_grass
from vision_solver.vision.classify.cells import CellStack
from vision_solver.vision.classify.objects3d import (
    _left_lean,
    edge_sides,
    holds_objects,
    read_objects,
    turns_split_as_looks,
)
from vision_solver.vision.classify.turns import read_turns
from vision_solver.vision.geometry import board_at
from vision_solver.vision.grid import Grid, seen_obliquely
from vision_solver.vision.pipeline import place_grid, read_board


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


def test_the_board_read_as_a_whole_and_the_namers_look_alikes_compare_the_cells_once(
    monkeypatch: pytest.MonkeyPatch,
):
    """Comparing every cell with every other is the most of a board of objects' reading:
    ``read_objects`` (both ways, with and without the depth trend) and the namer's
    look-alikes (``cell_similarities``) share one comparison of a stack, the same matrix."""
    from vision_solver.vision.classify import objects3d

    stack, cells = _stack(20, "chairs-3d")
    compared = []
    whole = objects3d.similarities

    def similarities(maps):
        compared.append(maps.shape)
        return whole(maps)

    monkeypatch.setattr(objects3d, "similarities", similarities)
    first = read_objects(stack)
    second = read_objects(stack, by_depth=False)
    alike = objects3d.cell_similarities(stack)
    assert compared == [(cells.size, *compared[0][1:])]
    assert first is not None and second is not None
    assert first.cells.tolist() == cells.tolist()
    assert alike.shape == (cells.size, cells.size) and np.allclose(alike, alike.T)
    other = CellStack(stack.image, stack.grid)  # another stack compares its own cells
    assert np.array_equal(objects3d.cell_similarities(other), alike)
    assert len(compared) == 2


def test_boards_of_objects_are_told_from_lights_boards():
    stack, _ = _stack(20, "chairs-3d")
    assert holds_objects(stack)
    for seed in (0, 4):
        stack, _ = _stack(seed, "lights-tiles")
        assert not holds_objects(stack)


@pytest.mark.parametrize("seed", [20, 44])
def test_auto_calls_a_board_of_chairs_an_arrow_board_from_its_content(seed):
    """Chairs on stone tiles (no look for them): ``auto`` reads directions, not lights
    (before the 3-D reader it called some of them lights and read these two 16 of 36 and
    0 of 40 cells right)."""
    scene = wild_scene(seed, "chairs-3d")
    grid = place_grid(scene.image, scene.cells.shape, scene.corners)
    reading = read_cells(scene.image, grid, "auto", looks=[])
    assert reading.puzzle == PuzzleKind.arrows
    assert reading.cells.tolist() == scene.cells.tolist()


def test_a_grid_of_two_states_is_no_board_of_objects():
    """Boxes checked and unchecked hold a mark in every cell on one floor, but show only two
    looks: the object reader declines them, and ``auto`` reads a lights board."""
    rng = np.random.default_rng(3)
    states = rng.integers(0, 2, (5, 5))
    pitch = 40
    image = np.full((5 * pitch + 40, 5 * pitch + 40, 3), 235, np.uint8)
    for (row, col), state in np.ndenumerate(states):
        x, y = 20 + col * pitch + 10, 20 + row * pitch + 10
        cv2.rectangle(image, (x, y), (x + 20, y + 20), (60, 60, 60), 2)
        if state:
            cv2.line(image, (x + 4, y + 10), (x + 9, y + 16), (30, 30, 30), 2)
            cv2.line(image, (x + 9, y + 16), (x + 17, y + 4), (30, 30, 30), 2)
    corners = np.array([[20, 20], [20 + 5 * pitch, 20], [20 + 5 * pitch] * 2, [20, 20 + 5 * pitch]])
    grid = place_grid(image, (5, 5), corners.astype(np.float64))
    assert read_objects(CellStack(image, grid)) is None
    assert read_cells(image, grid, "auto", looks=[]).puzzle == PuzzleKind.lights


def test_lamps_lit_and_unlit_are_states_not_turns_of_one_object():
    """Dark lamps on a dark floor whose grout runs through every cell (a fresh tuning seed):
    the board holds objects, and its look-alikes fall into groups, but the lit lamps' group
    is another colour than the rest.  Those are states, so the object reader declines the
    board and it reads as lights (it was read as chairs, 28 cells wrong)."""
    scene = wild_scene(11036, "lights-in-scene")
    grid = place_grid(scene.image)
    assert read_objects(CellStack(scene.image, grid)) is None
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == PuzzleKind.lights
    assert reading.cells.tolist() == scene.cells.tolist()


@pytest.mark.parametrize("seed", [28, 144])
def test_chairs_the_turn_reader_misreads_are_read_as_objects(seed):
    """Tuning-side chairs whose quarter turns the turn reader matches anyway (9 of 15 and 8 of
    12 cells wrong): its turns cut across the cells' groups of look-alikes, so ``auto``
    reads the board as 3-D objects, every cell right."""
    stack, cells = _stack(seed, "chairs-3d")
    turns = read_turns(stack.board(), stack.grid.rows, stack.grid.cols)
    assert turns is not None and (turns.cells != cells).sum() >= cells.size // 3
    assert not turns_split_as_looks(stack, turns.cells)
    reading = read_cells(stack.image, stack.grid, "auto", looks=[])
    assert reading.cells.tolist() == cells.tolist()


@pytest.mark.parametrize("seed", [0, 4])
def test_flat_arrows_on_a_shared_floor_keep_their_turns(seed):
    """Arrow glyphs on one floor hold an 'object' in every cell, but their turns split the
    cells as their looks do: the turns stand (and the truth does too)."""
    stack, cells = _stack(seed, "arrow-glyph-any")
    assert holds_objects(stack)
    assert turns_split_as_looks(stack, cells)
    assert not turns_split_as_looks(stack, (cells + np.arange(cells.size).reshape(cells.shape)) % 4)


def test_chairs_whose_turns_hardly_say_which_is_up_are_read_as_objects():
    """Tuning-side chairs as located: the turn reader groups the cells right but its cells'
    arrowhead votes for "up" are a close call (a chair has no arrowhead) and it read every
    cell a half turn off; read as 3-D objects, every cell is right."""
    scene = wild_scene(128, "chairs-3d")
    reading = read_board(scene.image, looks=[])
    assert reading.cells.tolist() == scene.cells.tolist()


def test_only_a_board_seen_by_a_tilted_camera_is_oblique():
    stack, _ = _stack(20, "chairs-3d")
    assert seen_obliquely(stack.grid)
    stack, _ = _stack(0, "arrow-glyph-any")
    assert not seen_obliquely(stack.grid)


@pytest.mark.parametrize("seed", [4, 24, 100, 116])
def test_a_tiled_floor_shows_its_grout_and_grass_none(seed):
    """Tuning-side boards on their true grids: the chairs' stone tiles show grout along every
    line between cells (these four the faintest of forty), the benches' grass nothing."""
    tiles, _ = _stack(seed, "chairs-3d")
    grass, _ = _stack(seed, "benches-grass")
    assert grout_lines(tiles) >= GROUT_LINES
    assert grout_lines(grass) < GROUT_LINES / 2


def test_chairs_on_a_tiled_floor_are_not_read_one_by_one_as_benches():
    """Tuning-side board 36 as located: its stone tiles pass for grass (textured, an object
    in every cell), and the bench reader, sure of itself, read 24 of 54 cells wrong; on a
    tiled floor the board is read as a whole."""
    scene = wild_scene(36, "chairs-3d")
    reading = read_board(scene.image, looks=[])
    stack = CellStack(scene.image, reading.grid)
    assert objects_on_grass(stack) and grout_lines(stack) >= GROUT_LINES
    assert reading.cells.tolist() == scene.cells.tolist()


def _grid_on(corners: np.ndarray, rows: int, cols: int) -> Grid:
    """The grid on these outer corners as they are (the grid stage fits no tiles to it)."""
    location = board_at(corners, rows, cols)
    return Grid(rows, cols, location.homography, location.corners)


@pytest.mark.parametrize("seed", [20, 32])
def test_a_board_mirrored_leans_its_right_and_left_facing_chairs_the_other_way(seed):
    """``edge_sides`` reads each cell's left and right parts: in the image mirrored, the
    chairs facing right face left, and the lean of their edges against the other side
    group's changes sign (the board's own lean, the same in both, cancels)."""
    scene = wild_scene(seed, "chairs-3d")
    rows, cols = scene.cells.shape
    corners = np.asarray(scene.corners, np.float64)
    image = np.ascontiguousarray(scene.image[:, ::-1])
    width = image.shape[1]
    mirrored = np.column_stack([width - 1 - corners[:, 0], corners[:, 1]])[[1, 0, 3, 2]]
    truth = scene.cells.ravel()
    sides = edge_sides(CellStack(scene.image, _grid_on(corners, rows, cols)))
    flipped = edge_sides(CellStack(image, _grid_on(mirrored, rows, cols)))
    flipped = flipped.reshape(rows, cols, 3)[:, ::-1].reshape(-1, 3)  # back in the cells' order
    lean = _left_lean(sides[truth == 1]) - _left_lean(sides[truth == 3])
    lean_mirrored = _left_lean(flipped[truth == 1]) - _left_lean(flipped[truth == 3])
    assert lean > 0 > lean_mirrored


@pytest.mark.parametrize("seed", [1096, 1136])
def test_chairs_facing_right_show_more_edges_on_their_left_than_chairs_facing_left(seed):
    """A chair's back (a backrest bar, armrests from it) is on its left when it faces right:
    over a board's true groups, the right-facing chairs lean left by their edges more than
    the left-facing ones (these two boards' heights and quarter turns named the two the
    wrong way round)."""
    scene = wild_scene(seed, "chairs-3d")
    grid = place_grid(scene.image, scene.cells.shape, scene.corners)
    sides = edge_sides(CellStack(scene.image, grid))
    truth = scene.cells.ravel()
    assert _left_lean(sides[truth == 1]) > _left_lean(sides[truth == 3])


def test_chairs_told_right_from_left_by_their_edges_read_exactly():
    """A board whose right- and left-facing chairs the heights and quarter turns named the
    wrong way round (13 of 24 cells right) reads exactly with the edges' lean."""
    stack, cells = _stack(1096, "chairs-3d")
    reading = read_objects(stack)
    assert reading is not None
    assert reading.cells.tolist() == cells.tolist()
