"""Lamps let into a game's tiled floor: the board is the block of lamps, read as lights.

The scenes come from ``tests/synth/wild_floor.py`` (the ``lights-in-scene`` family): a floor
of look-alike stone tiles that fills the view, and a block of round or square lamps set into
it, one a tile or one on every other grout crossing.  Seeds divisible by four only (the
tuning side of ``benchmarks/unseen_looks.py``).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from synth.wild import wild_scene

from vision_solver.vision.classify import read_cells
from vision_solver.vision.classify.cells import CellStack
from vision_solver.vision.classify.lamps import lamp_features
from vision_solver.vision.geometry import BoardLocation, apply_homography, board_at
from vision_solver.vision.grid import Grid
from vision_solver.vision.locate import locate_board
from vision_solver.vision.locate.plane import search_board
from vision_solver.vision.locate.within import (
    OBJECT_PX,
    _alike_around,
    _dense_block,
    _grown,
    _lattice_of,
    _many_colours,
    _set_into,
    _spacing,
    _stones,
    _two_toned,
    board_within,
)
from vision_solver.vision.pipeline import read_board

FAMILY = "lights-in-scene"


@cache
def _scene(seed: int, family: str = FAMILY):
    return wild_scene(seed, family)


def _diagonal(corners: np.ndarray) -> float:
    return float(np.linalg.norm(corners[2] - corners[0]))


def _located_as_drawn(scene, board=None):
    """The located board (``board``, else ``locate_board``'s), asserted of the scene's size
    with every corner within 1% of the board's diagonal."""
    board = locate_board(scene.image) if board is None else board
    assert (board.rows, board.cols) == scene.cells.shape
    error = np.linalg.norm(board.corners - scene.corners, axis=1).max()
    assert error < 0.01 * _diagonal(scene.corners)
    return board


def _true_grid(scene) -> Grid:
    rows, cols = scene.cells.shape
    location = board_at(scene.corners, rows, cols)
    return Grid(rows, cols, location.homography, location.corners)


@pytest.mark.parametrize("seed", [0, 56, 76])
def test_a_floor_of_look_alike_tiles_is_not_the_board(seed):
    # the search may find the floor's lattice (or set it aside as the page's own grid); the
    # board is the block of lamps set into it
    scene = _scene(seed)
    found = search_board(scene.image, None)
    if found.rows * found.cols > 2 * scene.cells.size:
        found = board_within(scene.image, found)  # as locate_board takes the search's answer
        assert found is not None
    board = _located_as_drawn(scene, found)
    assert board_within(scene.image, board) is None  # the board is no floor of its own


@pytest.mark.parametrize("seed", [0, 28, 52, 56, 60, 76])
def test_lamps_in_a_floor_read_exactly(seed):
    scene = _scene(seed)
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == "lights"
    assert reading.cells.tolist() == scene.cells.tolist()


@pytest.mark.parametrize("seed", [13492, 13692, 13856])
def test_lamps_on_a_rough_tiled_floor_are_not_benches_on_grass(seed):
    """Lamps on the grout crossings of a floor of rough, grass-coloured tiles: the floor's
    texture passes for grass, but its grout along every cell's edge says tiles, and lamps
    on tiles are no benches (every cell was read as an arrow)."""
    scene = _scene(seed)
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == "lights"
    assert reading.cells.tolist() == scene.cells.tolist()


@pytest.mark.parametrize(("family", "seed"), [("lights-tiles", 4), ("glow-on-grid", 8)])
def test_a_board_of_tiles_is_kept_whole(family, seed):
    # tiles are no objects on a floor: the board found is the board
    scene = _scene(seed, family)
    location = locate_board(scene.image)
    assert board_within(scene.image, location) is None


def test_lit_tiles_round_a_block_of_them_are_the_boards_not_a_floors():
    """Fresh tuning lights-grey 6060: a 13x10 board of pale lit tiles and grey unlit ones on
    a grey panel.  Told by each tile's own colour, a block of 10x6 of its cells held lit
    tiles that looked like lamps (their rings fell on the gaps), and the tiles round it held
    nothing unlike their own rings: a floor round a board.  But half the cells round it are
    wholly of another colour than the floor's, lit themselves: the lattice is the board."""
    scene = _scene(6060, "lights-grey")
    location = locate_board(scene.image)
    assert (location.rows, location.cols) == scene.cells.shape == (13, 10)
    assert board_within(scene.image, location) is None


@pytest.mark.parametrize(("family", "seed"), [("glow-on-grid", 4), ("lights-grey", 12)])
def test_a_block_of_lit_tiles_among_unlit_ones_is_kept_whole(family, seed):
    # lit tiles in a block look like lamps; the unlit tiles round them are no floor
    cells = np.zeros((10, 10), np.int64)
    cells[2:5, 3:6] = 1
    scene = wild_scene(seed, family, cells=cells, rows=10, cols=10)
    reading = read_board(scene.image, looks=[])
    assert reading.cells.tolist() == cells.tolist()


@pytest.mark.parametrize(
    ("family", "seed"),
    [("arrow-tiles", 0), ("arrow-tiles", 24), ("arrow-glyph-any", 24), ("arrow-glyph-any", 12)],
)
def test_glyphs_on_round_tiles_are_no_lamps(family, seed):
    # a round tile is its own quarter turn, the arrow on it is not
    scene = _scene(seed, family)
    assert lamp_features(CellStack(scene.image, _true_grid(scene))) is None


@pytest.mark.parametrize("seed", [4, 8, 16, 40])
def test_chairs_seen_from_above_are_no_lamps(seed):
    scene = _scene(seed, "chairs-3d")
    assert lamp_features(CellStack(scene.image, _true_grid(scene))) is None


def test_lamps_are_read_by_their_colour_whichever_board_placed_them():
    # the lamps' colours decide, so the reading holds when told it is a lights board too
    scene = _scene(28)
    grid = _true_grid(scene)
    told = read_cells(scene.image, grid, "lights", looks=[])
    found = read_cells(scene.image, grid, "auto", looks=[])
    assert told.cells.tolist() == found.cells.tolist() == scene.cells.tolist()
    assert lamp_features(CellStack(scene.image, grid)) is not None


def test_a_floor_scene_is_drawn_the_same_from_its_seed():
    first, again = wild_scene(12, FAMILY), wild_scene(12, FAMILY)
    assert np.array_equal(first.image, again.image)
    assert first.cells.tolist() == again.cells.tolist()
    height, width = first.image.shape[:2]
    assert np.all((first.corners >= 0) & (first.corners <= [width, height]))


def test_blocky_arrows_read_in_several_turns_are_no_lamps():
    # short thick arrows on square tiles: their marks overlap their own quarter turn nearly
    # as much as a lamp's core does, but the turn reader reads the board in four turns
    scene = _scene(276, "arrow-glyph-any")
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == "arrows"
    assert reading.cells.tolist() == scene.cells.tolist()


def test_a_lattice_whose_every_cell_holds_an_object_is_no_floor_round_a_block():
    """The cells round a block marked as much as the block's own: every cell holds an object
    (a board of low-contrast chairs, a few better lit), and the lattice is the board."""
    marked = np.full((8, 8), 22.0)
    marked[3:5, 1:5] = 24.0
    box = np.array([[1.0, 3.0], [5.0, 5.0]])
    assert _alike_around(marked, box)
    floor = np.full((8, 8), 4.0)  # plain tiles round lamps let into them
    floor[3:5, 1:5] = 24.0
    assert not _alike_around(floor, box)


@pytest.mark.parametrize("seed", [11400, 11468, 11652, 10992])
def test_lamps_in_a_floor_of_several_shades_are_the_board(seed):
    """Fresh tuning-side scenes (the scored side stays unseen): lamps on a floor whose tiles
    are of several shades, or whose lattice was found at twice its tiles' pitch along one
    axis only.  The lamps are told from each tile by the tile's own colour, spaced a tile
    one way and half a floor cell the other, and they are the board."""
    _located_as_drawn(_scene(seed))


def test_unlit_lamps_on_a_panel_of_their_shade_are_found_by_each_tiles_colour():
    """Tuning scene 2036: lamps on a dark panel let into a floor of two shades.  Told from
    the floor's commonest colour, only four of the six columns of lamps stand apart (the
    unlit lamps run into the panel); told from each tile's own colour, all six do.  The
    way that finds more of the board's lamps is kept."""
    scene = _scene(2036)
    _located_as_drawn(scene)
    reading = read_board(scene.image, looks=[])
    assert reading.cells.tolist() == scene.cells.tolist()


def test_a_flat_board_of_plain_cells_in_two_shades_is_no_floor_of_shades():
    """A tuning-side lights board of plain square tiles in two greys (the scored side stays
    unseen): told from each tile's own colour, a few of its cells show marks, but they
    lie on no tiles that hold something; the board found is the board."""
    scene = _scene(10816, "lights-grey")
    location = locate_board(scene.image)
    assert (location.rows, location.cols) == scene.cells.shape
    assert board_within(scene.image, location) is None


def _lamps_on_a_grid_placed_off(scene, off: list[list[float]]) -> None:
    """The scene's lamps are lamps on its true grid with its corners moved by ``off``
    (pixels, as located), and the board is read as lights, exactly."""
    rows, cols = scene.cells.shape
    location = board_at(scene.corners + np.array(off), rows, cols)
    grid = Grid(rows, cols, location.homography, location.corners)
    assert lamp_features(CellStack(scene.image, grid)) is not None
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == "lights"
    assert reading.cells.tolist() == scene.cells.tolist()


def test_grout_crossing_under_lamps_on_a_grid_a_little_off_leaves_them_lamps():
    """Lamps set on the crossings of a floor's grout lines, the grid placed a few pixels off
    (as located: skewed by 2 to 6 pixels on cells of 82): the cross cut unevenly had made the
    lamps no quarter turns of themselves, and the board was read as 3-D objects."""
    _lamps_on_a_grid_placed_off(_scene(16028), [[-2.0, -2.0], [4.5, 4.4], [-1.8, 3.3], [4.1, -6.5]])


def test_a_lamps_dark_outline_is_no_mark_inside_it():
    """Round lamps with a dark outline, lit ones with a lighter core, on a grid half a pixel
    off: what a lamp shows inside is read within its outline (two pixels of its edge left
    out), since the outline cut into dashes by the cells' pixels is no quarter turn of
    itself; read with it, the board's lamps were no lamps and it was read as arrows."""
    _lamps_on_a_grid_placed_off(_scene(64), [[0.3, 0.3], [0.0, 0.3], [-0.5, -0.1], [-0.5, 0.0]])


@pytest.mark.parametrize("seed", [48])
def test_a_minimap_of_pixels_of_every_hue_is_not_the_board(seed):
    """The HUD's minimap is a lattice of hundreds of cells, far more than the lamps, but its
    cells show vivid colours of every hue (a mosaic), where a board's show a few states: the
    board is the block of lamps, read exactly (the minimap had been taken for the board's
    lattice, and a 3x4 part of the lamps read as objects beside it)."""
    scene = _scene(seed)
    _located_as_drawn(scene)
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == "lights"
    assert reading.cells.tolist() == scene.cells.tolist()


@pytest.mark.parametrize("seed", [224, 268])
def test_lamps_whose_unlit_ones_hardly_show_are_found_by_the_lit_ones(seed):
    """Fresh tuning-side scenes: the unlit lamps hardly differ from the floor (a faint dark
    square, a dark disc on dark green tiles), so only the lit ones (about half the board's
    places, some meeting only at a corner) tell where the board lies; they do."""
    _located_as_drawn(_scene(seed))


def test_a_board_set_into_the_floor_that_is_a_part_of_the_objects_board_gives_way_to_it():
    """Fresh tuning lamps (8572): the search found only a band of the floor running off the
    picture; set into it, a skewed lattice of two of the five rows of lamps (half its places
    held), and the objects' board all 5x9 of them.  The part gave way to the whole."""
    scene = _scene(8572)
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == "lights"
    assert reading.cells.tolist() == scene.cells.tolist()
    # placed by the lamps' centres: within 2% of the diagonal
    error = np.linalg.norm(np.asarray(reading.grid.corners) - scene.corners, axis=1).max()
    assert error < 0.02 * _diagonal(scene.corners)


def test_a_convincing_board_seen_closer_beats_a_lattice_of_the_floor_with_more_blobs():
    """Fresh tuning lamps (8284): the coarse look found no convincing board, only a lattice
    grown over the floor round a part of the lamps (81 blobs, running off the picture); at
    full detail the search found the block of lamps, 8x3, whole and convincingly, but with
    fewer blobs (19) it did not stand for the coarse lattice, and a board of objects of a
    part of the lamps won over both."""
    _located_as_drawn(_scene(8284))


def test_lit_lamps_alone_are_spaced_by_the_step_their_gaps_are_multiples_of():
    """Only a lights board's lit lamps show on the floor: the next lit one stands one to
    three steps on, so the step is the largest that every gap is a whole multiple of (2
    cells here), not the gaps' median (4).  Where every lamp shows, it is the one gap."""
    lines = [0, 1, 3, 5, 8]  # the lit lamps' places on each line: 1, 2, 2 and 3 steps apart
    places = np.array([(row, col) for row in lines for col in lines], dtype=np.float64)
    lit = 3.0 + 2.0 * places[:, ::-1]  # (u, v) floor cells: a lamp every 2 cells
    assert _spacing(lit).tolist() == [2.0, 2.0]  # (the gaps' median: 4 cells)
    every = 3.0 + 1.5 * np.argwhere(np.ones((5, 6)))[:, ::-1].astype(np.float64)
    assert _spacing(every).tolist() == [1.5, 1.5]
    assert _spacing(every * 3) is None  # 4.5 cells apart: past MOST_TILES


def test_lamps_evenly_spaced_off_the_floor_lattices_half_cells_keep_their_own_spacing():
    """A floor's lattice found at a pitch its tiles' is no whole or half part of: the lamps
    stand 0.37 of its cells apart down, evenly.  That is their spacing, not the half cell
    nearest it (which would place two rows where three are); across, at a half cell, the
    half cell stands."""
    places = np.argwhere(np.ones((3, 3)))[:, ::-1].astype(np.float64)  # (col, row)
    lamps = np.array([13.5, 7.36]) + places * [0.5, 0.367]
    spacing = _spacing(lamps)
    assert spacing[0] == 0.5
    assert abs(spacing[1] - 0.367) < 0.005


def test_lamps_on_a_floor_fitted_askew_are_placed_by_their_own_centres():
    """A floor's lattice fitted a little askew carries its skew to the lamps: on it they
    drift 0.09 of a cell across per row, a quarter of a cell by the far rows (a fresh
    tuning-side scene read two lamps in their neighbours' cells).  The board is placed by
    the lamps' own centres: each lies in the middle of its cell."""
    floor = BoardLocation(np.zeros((4, 2)), np.eye(3), 20, 20, 1.0)
    places = np.argwhere(np.ones((6, 3)))[:, ::-1].astype(np.float64)  # (col, row)
    lamps = np.array([4.5, 3.5]) + places + np.outer(places[:, 1] - 2.5, [0.09, 0.0])
    found = _lattice_of(lamps, 0.2, floor)
    assert found is not None
    held, board, _ = found
    assert held == 18 and (board.rows, board.cols) == (6, 3)
    middles = apply_homography(board.homography, places + 0.5)
    assert np.abs(middles - lamps).max() < 0.01


def test_a_small_board_of_lamps_on_a_floor_found_at_an_odd_pitch_is_found():
    """A fresh tuning-side scene: a 3x3 board of lamps, the floor's lattice found at a
    pitch that puts them 0.37 of a cell apart down (read as 2x3 before)."""
    _located_as_drawn(_scene(256))


def test_lamps_on_every_other_grout_crossing_fewer_than_half_lit_are_found():
    """A fresh tuning-side scene: lamps on every other crossing of a two-shaded floor's
    grout, whose unlit ones do not show; 38 of the 81 lamps lit (0.47 of the places), their
    gaps 2, 4 or 6 cells."""
    _located_as_drawn(_scene(248))


def test_a_board_a_cell_from_the_floor_lattices_edge_is_set_into_the_floor():
    """The board's box, placed from its objects' centres, lies a hair under one floor cell
    from the lattice's edge on one side and at the edge on another: the floor still runs on
    round it on three sides."""
    held = np.zeros((10, 20), bool)
    floor = np.array([50.0, 0.0, 0.0], np.float32)
    lab = np.tile(floor, (10 * OBJECT_PX, 20 * OBJECT_PX, 1))
    box = np.array([[0.9996, 2.003], [8.9996, 10.003]])
    lab[2 * OBJECT_PX :, OBJECT_PX : 9 * OBJECT_PX : 2] = 90.0  # the lamps: stripes, 1 in 2
    held[2:, 1:9] = True
    assert _set_into(lab, floor, held, box)
    held[0, 12] = held[1, 14] = True  # ... and a crate or two on the floor: still set into it
    assert _set_into(lab, floor, held, box)
    held[:, 10:] = True  # but a floor holding things everywhere round it is no floor
    assert not _set_into(lab, floor, held, box)


def test_a_board_at_the_lattices_edges_is_set_into_the_floor_that_runs_on_past_them():
    """A lattice grown down a board's columns and on into the floor below it, no wider than
    the board: the floor runs round the board's box on one side within the lattice, and on
    the others past the lattice's own edges."""
    held = np.zeros((17, 6), bool)
    floor = np.array([50.0, 0.0, 0.0], np.float32)
    lab = np.tile(floor, (17 * OBJECT_PX, 6 * OBJECT_PX, 1))
    box = np.array([[0.0, 0.0], [6.0, 9.0]])
    lab[: 9 * OBJECT_PX, OBJECT_PX // 2 :: OBJECT_PX] = 90.0  # the lamps
    held[:9] = True
    assert not _set_into(lab, floor, held, box)
    assert _set_into(lab, floor, held, box, (True, True, True, False))
    assert not _set_into(lab, floor, held, box, (True, False, False, False))


def test_lamps_on_a_lattice_no_wider_than_their_board_are_the_board():
    """Tuning scene 2172: the floor's lattice was found down the lamps' six columns and
    eight rows on into the floor; the lamps are the board."""
    scene = _scene(2172)
    _located_as_drawn(scene)
    assert read_board(scene.image, looks=[]).cells.tolist() == scene.cells.tolist()


def _panel_of_lamps(unlit_columns: int) -> tuple[np.ndarray, np.ndarray]:
    """A floor of 10 x 12 cells (OBJECT_PX each, in L*a*b*) with a panel of lamps on it, one
    a cell, from cell (2, 2): three rows of five lamps, some lit, then ``unlit_columns``
    more columns of unlit lamps; and the floor's commonest colour."""
    floor = np.array([50.0, -10.0, 0.0], np.float32)
    lab = np.tile(floor, (10 * OBJECT_PX, 12 * OBJECT_PX, 1))
    panel, lit, unlit = [25.0, 5.0, -20.0], [90.0, -20.0, 70.0], [15.0, 0.0, 0.0]
    lab[2 * OBJECT_PX : 5 * OBJECT_PX, 2 * OBJECT_PX : (7 + unlit_columns) * OBJECT_PX] = panel
    quarter = OBJECT_PX // 4
    for row in range(3):
        for col in range(5 + unlit_columns):
            y, x = (2 + row) * OBJECT_PX + quarter, (2 + col) * OBJECT_PX + quarter
            shade = lit if col < 5 and (row + col) % 2 == 0 else unlit
            lab[y : y + 2 * quarter, x : x + 2 * quarter] = shade
    return lab, floor


@pytest.mark.parametrize("unlit_columns", [0, 1, 2])
def test_an_edge_of_unlit_lamps_on_the_boards_panel_is_the_boards(unlit_columns):
    """The box placed from the lamps told from the floor stops short of a whole edge of
    unlit lamps on the board's own panel; those look like the box's unlit lamps, not like
    the floor, and the board takes them in.  The floor past the board's other sides is
    left out."""
    lab, floor = _panel_of_lamps(unlit_columns)
    location = board_at(np.array([[0, 0], [120, 0], [120, 100], [0, 100]]), 10, 12)
    box = np.array([[2.0, 2.0], [7.0, 5.0]])
    board = board_at(np.array([[20, 20], [70, 20], [70, 50], [20, 50]]), 3, 5)
    grown = _grown(lab, location, board, box, floor)
    assert (grown.rows, grown.cols) == (3, 5 + unlit_columns)
    expected = [[20, 20], [70 + 10 * unlit_columns, 20], [70 + 10 * unlit_columns, 50], [20, 50]]
    assert np.allclose(grown.corners, expected)


def test_unlit_lamps_on_a_panel_at_the_boards_edge_are_the_boards():
    """Tuning scene 2160: the last of six columns, three unlit lamps on the board's panel,
    was left out of the board placed from the lamps told from the floor."""
    scene = _scene(2160)
    reading = read_board(scene.image, looks=[])
    assert reading.cells.tolist() == scene.cells.tolist()
    error = np.linalg.norm(reading.grid.corners - scene.corners, axis=1).max()
    assert error < 0.01 * _diagonal(scene.corners)


def test_lit_and_unlit_lamps_are_two_toned_a_block_of_lit_tiles_is_not():
    rng = np.random.default_rng(7)
    lit = np.array([85.0, -60.0, 50.0]) + rng.normal(0, 1.5, (30, 3))
    unlit = np.array([20.0, 0.0, 0.0]) + rng.normal(0, 1.5, (26, 3))
    assert _two_toned(np.concatenate([lit, unlit]))
    assert not _two_toned(lit)  # one tone, however it is split
    assert not _two_toned(np.concatenate([lit, unlit[:2]]))  # a stray or two: one tone


def test_large_lamps_of_two_tones_on_their_own_panel_are_the_board():
    """Fresh tuning scene 30216: large square lamps, lit and unlit, on a dark panel of their
    own fill 0.76 of the board's box with what is unlike the floor, as much as a block of
    lit tiles among unlit ones; but the lamps are of two tones, and the board."""
    scene = _scene(30216)
    reading = read_board(scene.image, looks=[])
    assert reading.cells.tolist() == scene.cells.tolist()


def test_objects_of_every_colour_in_a_block_are_a_minimap_not_lamps():
    """Objects in a block of the floor, each of its own colour (a minimap's pixels), are no
    board; lamps of one lit colour, or two, are."""
    rng = np.random.default_rng(5)
    lab = np.zeros((6 * OBJECT_PX, 6 * OBJECT_PX, 3), np.float32)
    uv = (np.stack(np.mgrid[0:3, 0:3], axis=-1).reshape(-1, 2) + 1.5) * OBJECT_PX
    box = np.array([[1.0, 1.0], [4.0, 4.0]])
    x, y = uv.astype(int).T
    lab[y, x] = rng.uniform([30, -60, -60], [90, 60, 60], (9, 3))
    assert _many_colours(lab, uv, box)
    lab[y, x] = [70.0, 40.0, 50.0]
    lab[y[::2], x[::2]] = [30.0, 0.0, 0.0]
    assert not _many_colours(lab, uv, box)


@pytest.mark.parametrize("seed", [108])
def test_a_minimap_beside_lamps_on_the_floor_is_not_the_block_of_lamps(seed):
    """A fresh tuning-side scene: told from the floor, the minimap's pixels form a dense block
    of objects spaced as tiles are; they are of every colour and no board."""
    scene = _scene(seed)
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == "lights"
    assert reading.cells.tolist() == scene.cells.tolist()


@pytest.mark.parametrize("seed", [16100])
def test_a_floor_lattice_taken_a_row_in_five_is_not_the_board(seed):
    """A fresh tuning-side scene: the floor's tiles line up as a lattice five tiles apart down
    and one across, found whole and convincing; its cells are no board's (five times as
    tall as wide), and the board is the block of lamps."""
    _located_as_drawn(_scene(seed))


@pytest.mark.parametrize("seed", [272])
def test_a_line_of_lamps_the_search_left_out_is_taken_in(seed):
    """A fresh tuning-side scene: the bottom line of lamps made no blobs at the coarse scale,
    and the lattice found was the 5x3 above it; the line shows the board's two states and
    the floor lies past it, so the board read is the whole 6x3."""
    scene = _scene(seed)
    reading = read_board(scene.image, looks=[])
    assert reading.cells.tolist() == scene.cells.tolist()


def test_square_lamps_in_cells_that_cut_the_floor_tiles_are_no_direction_board():
    # Each cell holds a square lamp and the corners of four floor tiles of random shades: the
    # shades match some turn of every other cell's, but the lamp, its own quarter turn, shows
    # no turn (its silhouette matches itself in all four).
    scene = _scene(2164)
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == "lights"
    assert np.array_equal(reading.cells, scene.cells)


def _places(rows: list[str]) -> np.ndarray:
    """``(n, 2)`` (col, row) places of the ``#`` in ``rows``."""
    width = max(len(line) for line in rows)
    marks = np.array([list(line.ljust(width, ".")) for line in rows]) == "#"
    return np.argwhere(marks)[:, ::-1]


def test_groups_of_lit_lamps_parted_by_a_line_of_unlit_ones_are_one_board():
    """Only the lit lamps show: a lights board's upper rows, parted from the rest by unlit
    lamps, form a group of their own.  One empty place from the block, it joins it while the
    box stays dense; a lone object (a crate, a creature) as near does not."""
    board = [
        "#..#.#.",
        "#...#..",
        "...#..#",
        "#.#.#.#",
        "#......",
        "#...##.",
        ".#####.",
        "#######",
    ]
    (first, last), held = _dense_block(_places(board))
    assert first.tolist() == [0, 0] and last.tolist() == [6, 7]
    assert held == 27
    # the lower block alone (the largest group) before: the upper rows join it
    (first, last), _ = _dense_block(_places(board[3:]))
    assert first.tolist() == [0, 0] and last.tolist() == [6, 4]
    crate = ["...#...", "......."]
    (first, last), held = _dense_block(_places(crate + board[3:]))
    assert first.tolist() == [0, 2] and last.tolist() == [6, 6]  # the crate stays out
    assert held == 20


def test_a_group_that_would_leave_the_box_sparse_is_not_the_boards():
    """A trail of objects (stepping stones) starting one empty place from a board would
    stretch its box over empty places: it is no part of the board."""
    block = ["#####", "#####", "#####", "....."]
    trail = [line + "....." for line in block] + [
        ".....#....",
        "......#...",
        ".......#..",
        "........#.",
    ]
    (first, last), held = _dense_block(_places(trail))
    assert first.tolist() == [0, 0] and last.tolist() == [4, 2]
    assert held == 15
    # the same group nearer, leaving the box dense, joins it
    (first, last), held = _dense_block(_places(block[:3] + trail[4:6]))
    assert first.tolist() == [0, 0] and last.tolist() == [6, 4]
    assert held == 17


def test_lamps_parted_into_groups_by_unlit_rows_are_found_whole():
    """A fresh tuning-side scene: three rows of mostly unlit lamps, which hardly show on
    the floor's dark tiles, part the lit lamps of the top rows from the rest (read as 5x7
    for 8x7 before)."""
    _located_as_drawn(_scene(2148))


def test_a_checker_of_two_stones_is_a_floor_and_a_lights_board_is_not():
    """The floor's stones are one colour, or two laid by the parity of row + column; a
    lights board's two states lie at random and make no floor of either kind."""
    rng = np.random.default_rng(5)
    dark, light = np.array([38.0, 132.0, 128.0]), np.array([52.0, 132.0, 128.0])
    parity = np.add.outer(np.arange(12), np.arange(20)) % 2
    lab = np.zeros((12 * 16, 20 * 16, 3))  # (only a plain floor's colour is read from it)
    checker = np.where(parity[..., None] == 1, light, dark) + rng.normal(0, 1, (12, 20, 3))
    stones = _stones(lab, checker)
    assert stones is not None and stones.shape == (2, 3)
    assert np.abs(stones - [dark, light]).max() < 1.5
    states = rng.integers(0, 2, (12, 20))
    lights = np.where(states[..., None] == 1, [80.0, 150.0, 160.0], dark)
    assert _stones(lab + dark, lights) is None
    plain = _stones(lab + dark, np.broadcast_to(dark, (12, 20, 3)))
    assert plain is not None and plain.shape == (1, 3)


def test_a_checkers_cells_are_weighed_against_their_own_stone():
    """On a checker the grout against the light stones marks their cells more than the dark
    ones' (16 against 4; a few dark ones hold a crack or a prop).  Lamps on a block of its
    tiles mark theirs more again (21 and 9.5), which the cells round the block, taken all
    together, hide: their median falls among the light stones'.  (Tuning scene 8024.)"""
    parity = np.add.outer(np.arange(10), np.arange(12)) % 2
    marked = np.where(parity == 1, 16.0, 4.0)
    marked.flat[::9] = np.where(parity.flat[::9] == 1, 16.0, 15.0)  # cracks on dark stones
    box = np.array([[4.0, 3.0], [8.0, 7.0]])
    marked[3:7, 4:8] = np.where(parity[3:7, 4:8] == 1, 21.0, 9.5)  # lamps on the block
    assert _alike_around(marked, box)  # taken as one stone, the block looks like the rest
    assert not _alike_around(marked, box, stones=2)


def test_lamps_in_a_checkered_floor_are_the_board():
    """Fresh tuning scene 8024: a 6x6 board of lamps in a floor laid as a checker of two
    stones that fills the room.  Each cell round the block is weighed against its own
    stone; taken together, the light stones' grout made the floor as marked as the board,
    and the floor's 21x36 lattice stood for it."""
    scene = _scene(8024)
    _located_as_drawn(scene)
    reading = read_board(scene.image, looks=[])
    assert reading.cells.tolist() == scene.cells.tolist()
