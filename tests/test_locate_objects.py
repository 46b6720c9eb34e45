"""Locating boards of 3-D objects (tests/synth/wild_chairs.py), on tuning-side seeds.

Benches on grass have no tiles or lines: the board is the lattice of the objects, not the
HUD's command card of coloured squares beside the view.  Chairs on tiles under a tilted
camera: the far rows' chairs look smaller, and the board is all the rows, not the near ones.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest
from synth.wild import wild_scene

from vision_solver.vision.locate import locate_board, objects
from vision_solver.vision.pipeline import read_board

#: Corners found within this share of the board's diagonal of the truth.
CORNER_TOLERANCE = 0.04


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """The largest corner distance, as a share of the true board's diagonal."""
    diagonal = float(np.linalg.norm(truth[0] - truth[2]))
    return float(np.linalg.norm(found - truth, axis=1).max()) / diagonal


def _assert_located_as_drawn(family: str, seed: int) -> None:
    """The board of the seeded scene is found with its true size and corners."""
    scene = wild_scene(seed, family)
    location = locate_board(scene.image)
    assert location
    assert (location.rows, location.cols) == scene.cells.shape
    assert _corner_error(location.corners, scene.corners) < CORNER_TOLERANCE


@pytest.mark.parametrize("seed", [16, 48, 60])
def test_benches_on_grass_are_located_not_the_hud_command_card(seed: int) -> None:
    _assert_located_as_drawn("benches-grass", seed)  # the card is 3x4


def test_benches_on_grass_blurred_smooth_are_looked_for_when_the_only_lattice_is_the_card():
    """The grass blurred smooth is no textured ground, so nothing asked for objects on it; the
    only lattice found was the command card, no board (each square its own colour)."""
    _assert_located_as_drawn("benches-grass", 116)


@pytest.mark.parametrize("seed", [20, 64])
def test_chairs_under_a_tilted_camera_are_located_far_rows_included(seed: int) -> None:
    _assert_located_as_drawn("chairs-3d", seed)


def test_a_borders_bricks_set_aside_by_the_plane_enlarged_are_no_board() -> None:
    """Chairs on tiles in a brick border under a tilted camera (a tuning seed).  The plane
    warped square-on found the border's left strip, 13x2 bricks, and not the board, so
    nothing there told the bricks from a board; the plane enlarged found the board and set
    the bricks aside as its border's.  The bricks stood (read 13x2 lights): the board found
    enlarged now stands for them."""
    _assert_located_as_drawn("chairs-3d", 192)


def test_specks_of_a_textured_ground_give_way_to_a_board_seen_closer() -> None:
    """Chairs in a corner of the view on a dark, noisy ground (a fresh tuning seed): the
    coarse look finds a lattice of the ground's specks with more points than the board has
    cells, and the closer look the board whole.  The board is kept, not the specks (it was
    lost, and a 3x3 outline of the objects read as lights)."""
    _assert_located_as_drawn("chairs-3d", 10856)


def test_objects_strewn_past_the_image_do_not_beat_a_board_of_lamps_in_a_corner() -> None:
    """A 3x4 board of lamps in a frame in a corner of a game's view, crates and barrels
    strewn over the floor (a fresh tuning seed): the lattice of lamps is a convincing board
    off the view's centre, so objects are looked for too.  Their outline runs a cell past
    the image, whose cells could not be read: the lamps stay the board."""
    _assert_located_as_drawn("lights-in-scene", 10968)


@pytest.mark.parametrize("seed", [936, 1064])
def test_benches_on_a_photographed_monitor_stand_out_from_its_noisy_grass(seed: int) -> None:
    """Tuning photos of a monitor showing small benches on grass: the photo's noise widens the
    ground's spread, and only the benches' outlines stood out, in pieces; the HUD's command
    card was taken for the board (read as a lights board of the wrong size)."""
    from synth.photo import photo_scene

    scene = photo_scene(seed, "monitor")
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == "arrows"
    assert reading.cells.tolist() == scene.cells.tolist()


@pytest.mark.parametrize("seed", [100, 136, 140])
def test_benches_in_line_with_the_camera_count_one_a_cell_though_they_merge(seed: int) -> None:
    """A column of benches seen end-on overlaps on screen into one blob: still one bench a cell."""
    _assert_located_as_drawn("benches-grass", seed)


@pytest.mark.parametrize("seed", [96, 148])
def test_benches_that_fall_apart_in_the_mask_count_once(seed: int) -> None:
    """A bench whose dark seat parts its backrest from its legs is one bench, not two rows."""
    _assert_located_as_drawn("benches-grass", seed)


@pytest.mark.parametrize("seed", [72, 2104])
def test_benches_packed_closer_than_their_length_are_located_whole(seed: int) -> None:
    """Benches a few pixels apart cover most of the ground's median window: the first median
    there is the benches' colour, the grass between them stood out and joined them into one
    blob, and a few rows of the board were found (5x3 for 7x3, 2x4 for 7x4)."""
    _assert_located_as_drawn("benches-grass", seed)


def test_the_light_and_dark_patches_of_a_flat_board_are_no_crowded_objects() -> None:
    """A flat grey board on a plain page (a tuning seed): against the ground taken again
    without it, its light and dark patches stand out as objects, on a lattice of tall,
    thin cells a third of them empty (3x3 read for 7x8). A crowded board holds an object
    in every cell."""
    _assert_located_as_drawn("lights-grey", 2004)


def _crowded_board(rows: int, cols: int, size: tuple[int, int], gap: int) -> np.ndarray:
    """A BGR view of green grass (smooth noise) with rows x cols magenta boxes (``size``:
    height, width) ``gap`` pixels apart in its middle."""
    rng = np.random.default_rng(3)
    height, width = 480, 720
    grass = np.empty((height, width, 3), np.float32)
    grass[:] = (60, 140, 70)
    grass += cv2.GaussianBlur(rng.normal(0, 12, (height, width)).astype(np.float32), (0, 0), 3)[
        ..., None
    ]
    image = np.clip(grass, 0, 255).astype(np.uint8)
    down, across = size
    for r in range(rows):
        for c in range(cols):
            y, x = 150 + r * (down + gap), 250 + c * (across + gap)
            cv2.rectangle(image, (x, y), (x + across - 1, y + down - 1), (180, 60, 170), -1)
    return image


def test_objects_packed_closer_than_the_ground_window_stand_apart_from_the_second_ground():
    """36 boxes 6 pixels apart fill the middle of the ground's window: against the first
    median, the grass between them stands out and joins them into one blob; against the
    ground taken again without them, each box is one object of its own area."""
    lab = cv2.cvtColor(_crowded_board(6, 6, (18, 30), 6), cv2.COLOR_BGR2LAB)
    counts = [
        int(np.sum(np.abs(found.areas - 18 * 30) <= 0.1 * 18 * 30))
        for masks in objects.object_masks(lab)
        for found in map(objects.objects_in, masks)
    ]
    assert max(counts) == 36
    board = objects.object_board(lab)
    assert board is not None
    assert (board.rows, board.cols, board.cover) == (6, 6, 1.0)


def _blobs_on_a_grid(rows: int, cols: int, pitch: int, size: int) -> np.ndarray:
    """A 0/1 mask of rows x cols square blobs ``size`` wide, ``pitch`` apart, the first at
    (pitch, pitch), on a ground twice as large (a board is no panel of the view)."""
    mask = np.zeros((2 * (rows + 1) * pitch, 2 * (cols + 1) * pitch), np.uint8)
    half = size // 2
    for r in range(rows):
        for c in range(cols):
            y, x = (r + 1) * pitch, (c + 1) * pitch
            mask[y - half : y + half, x - half : x + half] = 1
    return mask


def _lattice(pitch: float, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """(col, row) -> pixels of points ``pitch`` apart from (pitch, pitch); their (row, col)."""
    homography = np.array([[pitch, 0.0, pitch], [0.0, pitch, pitch], [0.0, 0.0, 1.0]])
    keys = np.array([(r, c) for r in range(rows) for c in range(cols)])
    return homography, keys


def test_the_lattice_of_the_objects_has_more_contrast_than_half_or_twice_its_pitch() -> None:
    mask = _blobs_on_a_grid(5, 5, 40, 24)
    right = objects.contrast(mask, *_lattice(40, 5, 5))
    half = objects.contrast(mask, *_lattice(20, 9, 9))
    twice = objects.contrast(mask, *_lattice(80, 3, 3))
    assert right > 20  # 25 points full, their gaps empty
    assert half < 0.5 * right
    assert twice < 0.5 * right


def test_a_chain_of_objects_merged_on_screen_is_cut_into_one_piece_a_cell() -> None:
    mask = _blobs_on_a_grid(4, 3, 40, 24)
    mask[40:160, 68:92] = 1  # the middle column's four objects overlap into one tall blob
    found = objects.objects_in(mask)
    assert len(found.ids) == 9  # eight objects and the chain
    homography, keys = _lattice(40, 4, 3)
    near = np.array([[-1.0, -1.0], [3.0, 4.0]])
    cut = objects.pieces(found, homography, 0.5 * 24 * 24, near)
    assert len(cut.points) == 12
    placed = sorted(map(tuple, np.round(cut.points / 40 - 1).astype(int)))
    assert placed == sorted((c, r) for r in range(4) for c in range(3))
    assert cut.whole.sum() == 8  # the chain's pieces are no whole object: their feet are not


def test_a_grown_lattice_whose_every_line_is_cut_leaves_the_lattice_as_it_was() -> None:
    """Growing over look-alikes may end with no line like the lattice's own: the lattice
    found stands (it was a crash, ``min()`` of no lines), and the board reads exactly."""
    scene = wild_scene(1008, "benches-grass")
    reading = read_board(scene.image, looks=[])
    np.testing.assert_array_equal(reading.cells, scene.cells)


def test_objects_whose_every_line_is_trimmed_as_empty_are_no_board() -> None:
    """Lamps in a floor among clutter: a lattice of objects whose outer lines are all
    trimmed as empty holds none of them and is passed over (it was a crash, ``min()`` of no
    lattice points); the object search answers whatever else it found, and the reader reads
    on to a board."""
    scene = wild_scene(11644, "lights-in-scene")
    lab = cv2.cvtColor(scene.image, cv2.COLOR_BGR2LAB)
    found = objects.object_board(lab)
    if found is not None:
        assert min(found.rows, found.cols) >= objects.MIN_LINES
    reading = read_board(scene.image, looks=[])
    assert min(reading.rows, reading.cols) >= 2


def _placed(corners: list[list[float]], rows: int, cols: int, confidence: float, framed: bool):
    from vision_solver.vision.geometry import board_at

    placed = board_at(np.array(corners, dtype=np.float64), rows, cols)
    return dataclasses.replace(placed, confidence=confidence, framed=framed)


def test_objects_in_every_cell_of_a_board_beat_a_lattice_of_some_of_them() -> None:
    """Benches on a photographed monitor: a lattice of 6x4 of them lies within the 7x6
    board the objects fill (every cell holding one), and is no convincing board: the
    objects' board is the whole, the lattice a part of it.  Objects that fill only some
    cells of their outline (strewn over the floor round the board) do not so beat it."""
    from vision_solver.vision.locate.on_ground import objects_rather

    shape = (1080, 1440)
    objects_board = _placed([[718, 352], [883, 339], [938, 500], [700, 527]], 7, 6, 1.0, True)
    part = _placed([[715, 366], [833, 356], [860, 501], [698, 521]], 6, 4, 1.0, False)
    assert objects_rather(objects_board, part, False, shape, lambda: None)
    over_reaching = dataclasses.replace(objects_board, confidence=0.78)
    assert not objects_rather(over_reaching, part, False, shape, lambda: None)
    # a convincing lattice gives way too, its corners on the objects' grid points: a block of
    # their board (one off them places the board surer: the test below)
    assert objects_rather(objects_board, part, True, shape, lambda: None)


def test_a_lattice_that_is_a_block_of_the_objects_board_gives_way_to_it() -> None:
    """Lamps in a frame on a tiled floor: a lattice of 3x6 of the 3x9 lamps, every cell of
    it found, is a convincing board, but each of its corners lies on a grid point of the
    board the objects fill: it is a block of that board, which stands.  A lattice half a
    cell off the objects' is no block of theirs, and still places the board surer."""
    from vision_solver.vision.locate.on_ground import _a_block_of, objects_rather

    shape = (900, 1440)
    objects_board = _placed([[952, 179], [1195, 179], [1195, 260], [952, 260]], 3, 9, 1.0, True)
    block = _placed([[952, 179], [1114, 179], [1114, 261], [952, 261]], 3, 6, 1.0, False)
    assert _a_block_of(block, objects_board)
    assert objects_rather(objects_board, block, True, shape, lambda: None)
    off = _placed([[965, 179], [1127, 179], [1127, 261], [965, 261]], 3, 6, 1.0, False)
    assert not _a_block_of(off, objects_board)
    assert not objects_rather(objects_board, off, True, shape, lambda: None)
    # (a larger board is no block of a smaller one)
    assert not _a_block_of(objects_board, block)


def test_a_lattice_of_raised_chairs_off_the_floor_s_grid_is_a_block_of_their_board() -> None:
    """3-D chairs under a tilted camera (the renderer's chairs scene 6, 10x12): a convincing
    lattice of 4x3 of them, 10 of 12 found, lies inside the board their objects fill, its
    rows 0.2 to 0.3 of a cell off the floor's grid points (the raised seats and backrests
    lean toward the far side), its columns on them: a block of that board, which stands.
    The lattice half a cell off in the test above is none."""
    from vision_solver.vision.locate.on_ground import _a_block_of, objects_rather

    shape = (768, 1366)
    chairs = _placed([[945, 101], [1178, 105], [1209, 296], [904, 291]], 10, 12, 1.0, True)
    some = _placed(
        [[970.0, 199.3], [1038.8, 201.0], [1028.1, 285.6], [959.4, 284.3]], 4, 3, 0.83, False
    )
    assert _a_block_of(some, chairs)
    assert objects_rather(chairs, some, True, shape, lambda: None)


def test_a_floor_that_fills_the_view_gives_way_to_the_lamps_in_a_frame_on_it() -> None:
    """Lamps in a frame on a game's floor whose tiles meet every edge of the view: the
    floor's lattice is no board, and the board set into it (``board_within``) was a block
    of the minimap's pixels, apart from the frame's lamps found whole (an object in every
    cell): the lamps stand.  Where the board set into the floor is the lamps' own, it
    stands (placed by the floor's tiles, surer than objects are)."""
    from vision_solver.vision.locate.on_ground import objects_rather

    shape = (900, 1600)
    floor = _placed([[-14, -12], [1610, -12], [1609, 884], [-14, 884]], 16, 58, 0.96, False)
    lamps = _placed([[155, 203], [267, 204], [267, 398], [154, 398]], 7, 4, 1.0, True)
    minimap = _placed([[1469, 691], [1581, 691], [1581, 859], [1469, 859]], 3, 4, 0.96, False)
    assert objects_rather(lamps, floor, False, shape, lambda: minimap)
    assert objects_rather(lamps, floor, True, shape, lambda: minimap)
    assert objects_rather(lamps, floor, True, shape, lambda: None)
    on_lamps = _placed([[154, 198], [266, 198], [266, 394], [154, 394]], 7, 4, 0.96, False)
    assert not objects_rather(lamps, floor, True, shape, lambda: on_lamps)
    # lamps found in only some cells of their outline are no such board
    some = dataclasses.replace(lamps, confidence=0.8)
    assert not objects_rather(some, floor, True, shape, lambda: minimap)


def test_lamps_in_a_frame_on_a_floor_that_fills_the_view_are_read() -> None:
    scene = wild_scene(16092, "lights-in-scene")  # a tuning scene
    reading = read_board(scene.image, looks=[])
    assert reading.cells.tolist() == scene.cells.tolist()


def test_lamps_in_a_frame_are_read_whole_though_a_lattice_found_some_of_them() -> None:
    scene = wild_scene(84, "lights-in-scene")  # a tuning scene
    reading = read_board(scene.image, looks=[])
    assert reading.cells.tolist() == scene.cells.tolist()
