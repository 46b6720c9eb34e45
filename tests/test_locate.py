"""Finding boards (the locate stage) on seeded synthetic screenshots with known cells and corners.

Lattices of look-alike cells, tilted and gapless boards, frames round boards
of 3-D objects and the count of their cells, and images that hold no board.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scenes import assert_read_exactly, generic_scene, pitch
from synth import random_scene, render_board

from vision_solver.vision.locate import locate_board
from vision_solver.vision.locate.frames import MAX_FRAMED_CELLS, count_along
from vision_solver.vision.locate.lattice import Lattice
from vision_solver.vision.locate.search import _lattice_location
from vision_solver.vision.locate.segment import Blob
from vision_solver.vision.pipeline import read_board

# --- boards of look-alike cells: lattices, tilted and gapless boards -----------------------------


@pytest.mark.parametrize(
    ("look", "seed"), [("arrow-squares", 2), ("arrow-squares", 3), ("numbered", 3)]
)
def test_far_rows_of_a_strongly_tilted_board_are_taken_in(look, seed):
    """Seen at a slant, far cells look smaller than the seeds of the lattice.

    They were left out as too small to be cells: the board was found
    without its far rows.
    """
    assert_read_exactly(generic_scene(look, seed, tilt=0.3), within=0.2)


@pytest.mark.parametrize(("seed", "tilt"), [(12, 0.0), (13, 0.0), (23, 0.0), (24, 0.0), (5, 0.2)])
def test_gapless_board_whose_cells_merge_is_read_whole(seed, tilt):
    """No gaps between cells: neighbours of one state merge into one region.

    Only the isolated cells stand out, and they once gave a lattice over part
    of the board (a 7x7 corner of a 19x18 board, 7 of 15 columns, ...).
    """
    assert_read_exactly(random_scene(seed, look="terminal", tilt=tilt), within=0.2)


@pytest.mark.parametrize(("look", "seed", "tilt"), [("flat-dark", 24, 0.0), ("flat-light", 3, 0.2)])
def test_board_found_in_part_by_the_first_segmentation_is_read_whole(look, seed, tilt):
    """Small gaps blur away at the first look: some cells merge into blocks.

    The cells still apart once made a complete board of their own (a 5x4
    corner of a 9x8 board) and ended the search early.
    """
    assert_read_exactly(random_scene(seed, look=look, tilt=tilt), within=0.2)


def test_an_outer_line_lost_in_a_page_lighter_toward_it_is_still_found():
    """Tiles on a page whose colour grows lighter toward the board's left column (a fresh
    tuning seed): the first segmentation merges that column with the page, and the other
    six columns made a complete board of their own that ended the search early.  The line
    just outside shows the tiles' colour, so the search goes on and finds all seven."""
    from synth.wild import wild_scene

    scene = wild_scene(11016, "arrow-glyph-any")
    found = locate_board(scene.image)
    assert (found.rows, found.cols) == scene.cells.shape == (7, 7)
    diagonal = float(np.linalg.norm(scene.corners[2] - scene.corners[0]))
    assert np.linalg.norm(found.corners - scene.corners, axis=1).max() < 0.01 * diagonal


@pytest.mark.parametrize(("seed", "shape", "cell_px"), [(3, (16, 20), 33), (10, (20, 20), 36)])
def test_board_whose_lower_tiles_carry_three_digit_numbers_is_read_whole(seed, shape, cell_px):
    """Numbers 100 and up cut a small tile's flat region into strips that are not cells.

    The rows above them were a complete board of their own (the first 5 rows).
    """
    cells = np.random.default_rng(seed).integers(0, 2, shape)
    scene = render_board(cells, "numbered", seed=seed, cell_px=cell_px, canvas=(1920, 1080))
    reading = read_board(scene.image, looks=[])
    assert reading.cells.tolist() == cells.tolist()
    assert np.abs(reading.grid.corners - scene.corners).max() < 0.2 * cell_px


def _toy_with_panel_beyond_its_keys(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A 5x5 toy whose panel runs a cell and a third past its last column of keys: lit keys
    yellow, unlit ones a shade darker than the olive panel inside a dark rim, and a few
    unlit ones lost in the light (no rim, the panel's own colour)."""
    rng = np.random.default_rng(seed)
    lit = rng.integers(0, 2, (5, 5))
    image = np.full((700, 800, 3), (40, 90, 150), np.uint8)  # a table
    panel, pitch, key, left, top = (30, 140, 150), 60, 48, 200, 180
    cv2.rectangle(image, (182, 162), (200 + 5 * pitch + 78, 180 + 5 * pitch + 18), panel, -1)
    for (row, col), on in np.ndenumerate(lit):
        x, y = left + col * pitch + 6, top + row * pitch + 6
        seen = on or rng.random() < 0.6
        cv2.rectangle(image, (x + 4, y + 4), (x + key + 4, y + key + 4), (15, 80, 90), -1)
        if seen:
            cv2.rectangle(image, (x - 2, y - 2), (x + key + 2, y + key + 2), (20, 100, 110), -1)
        face = (90, 250, 250) if on else (26, 127, 137) if seen else panel
        cv2.rectangle(image, (x, y), (x + key, y + key), face, -1)
    return lit, cv2.GaussianBlur(image, (0, 0), 1.0)


@pytest.mark.parametrize("seed", range(4))
def test_bare_panel_past_a_toys_last_keys_is_no_line_of_unlit_keys(seed):
    """A line of cells of the panel's colour at a board's edge may be unlit keys merged
    with the panel (the panel's margin is a cell wider there); but where the board's
    unlit keys are found as keys, standing out from the gaps round them, a band of bare
    panel past the last column is no column of them: the board is 5x5, not 5x6."""
    lit, image = _toy_with_panel_beyond_its_keys(seed)
    found = locate_board(image)
    assert found
    assert (found.rows, found.cols) == lit.shape
    corners = np.array([[200, 180], [500, 180], [500, 480], [200, 480]], np.float64)
    diagonal = float(np.hypot(300, 300))
    assert np.abs(found.corners - corners).max() < 0.03 * diagonal


# --- no board ------------------------------------------------------------------------------------


def test_no_board_is_a_failure_with_a_reason():
    blank = np.full((300, 400, 3), 40, dtype=np.uint8)
    found = locate_board(blank)
    assert not found
    assert "no grid" in found.reason


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_noise_is_no_board_its_lattice_runs_off_the_image(seed):
    """Random pixels hold specks on some lattice, one that runs off the image.

    That grid used to be read and solved as a board.
    """
    noise = np.random.default_rng(seed).integers(0, 256, (540, 960, 3)).astype(np.uint8)
    found = locate_board(noise)
    assert not found
    assert "off the image" in found.reason


# --- boards of 3-D objects, found by their frame -------------------------------------------------


def _framed_chairs(seed):
    """A rendered chairs board (3..6 x 3..7 cells) in its paved frame, as a user would meet it."""
    rng = np.random.default_rng(seed)
    cells = rng.integers(0, 4, (int(rng.integers(3, 7)), int(rng.integers(3, 8))))
    return render_board(cells, "chairs", seed=seed, cell_px=int(rng.integers(70, 130)))


@pytest.mark.parametrize("seed", [0, 3, 8, 9])
def test_chair_board_in_its_frame_is_found_and_read_without_a_look(seed):
    """Benches of different turns are blobs of different shapes, so no lattice
    of look-alikes holds the board.  Its frame gives the outline, and the
    benches inside count the rows and columns.

    Before, seeds 0 and 3 were "no board found", seed 8 was a lattice of grass
    specks over the whole image, and seed 9 lost a column.  ``auto`` read
    such a board (found by hand) as lights: it is now read as directions
    because every cell holds one object on grass.
    """
    scene = _framed_chairs(seed)
    location = locate_board(scene.image)
    assert location and (location.rows, location.cols) == scene.cells.shape
    assert np.abs(location.corners - scene.corners).max() < 0.05 * pitch(scene)
    reading = read_board(scene.image, "auto", looks=[])
    assert reading.puzzle == "arrows"
    assert np.abs(reading.grid.corners - scene.corners).max() < 0.05 * pitch(scene)
    assert int((reading.cells == scene.cells).sum()) >= scene.cells.size - 1


def test_small_chair_board_far_off_is_found_by_its_thin_frame():
    """A 10x11 chair board about 320 pixels wide in a 1920x1080 view: its
    frame's far side is two pixels thin, and the smoothing that drops grass
    speckle dropped it too (a 3x5 lattice of grass was found instead).
    Frames are now looked for in a mask that keeps thin lines (and a ring
    left open still has its hull to hold the hole)."""
    scene = random_scene(1, puzzle="arrows", look="chairs")
    location = locate_board(scene.image)
    assert location and (location.rows, location.cols) == scene.cells.shape
    assert np.abs(location.corners - scene.corners).max() < 0.1 * pitch(scene)


def test_a_frame_with_nothing_in_it_is_no_board():
    """The frame alone gives no rows or columns: without objects it is not a board."""
    image = np.full((600, 800, 3), (60, 140, 70), np.uint8)
    noise = np.random.default_rng(0).normal(0, 12, image.shape)
    image = np.clip(image + noise, 0, 255).astype(np.uint8)
    cv2.polylines(
        image,
        [np.int32([[200, 150], [600, 150], [680, 500], [120, 500]])],
        True,
        (128, 128, 128),
        12,
    )
    assert not locate_board(image)


# --- counting the cells of a framed board --------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    count=st.integers(2, MAX_FRAMED_CELLS),
    offset=st.floats(-0.25, 0.25),
    per_cell=st.integers(1, 6),
    seed=st.integers(0, 2**32 - 1),
)
def test_count_along_finds_the_cells_whatever_the_common_offset(count, offset, per_cell, seed):
    """Objects near their cells' centres, all shifted alike (3-D objects stand up
    from their cell, their feet measured 0.14 to 0.22 cell off): the count
    comes back, never a multiple or a divisor of it.  (Offsets past 0.35 of a
    cell, jitter included, are taken for objects between cells.)"""
    rng = np.random.default_rng(seed)
    cells = np.repeat(np.arange(count), per_cell)
    jitter = rng.uniform(-0.08, 0.08, len(cells))
    positions = (cells + 0.5 + offset + jitter) / count
    found = count_along(positions)
    assert found is not None
    assert found[0] == count
    assert abs(found[1] - offset) < 0.1


def test_specks_far_apart_among_as_many_more_are_dust_and_marks_on_their_points_are_not():
    """A 2x3 lattice of specks 8 px across, 100 px apart: where the picture is strewn with
    specks alike (a photo's grain), it is dust lined up by chance; where its specks are
    all there is (a terminal's dots), it is not.  Nor is a lattice of cells of its pitch."""
    from vision_solver.vision.locate.judge import dust
    from vision_solver.vision.locate.lattice import Lattice, Pool
    from vision_solver.vision.locate.segment import Blob

    def speck(x: float, y: float, side: int = 8) -> Blob:
        return Blob(x, y, side, side, side * side, 1.0, "test")

    homography = np.array([[100.0, 0.0, 50.0], [0.0, 100.0, 50.0], [0.0, 0.0, 1.0]])
    members = {(r, c): speck(50 + 100 * c, 50 + 100 * r) for r in range(2) for c in range(3)}
    lattice = Lattice(homography, members, (0, 1), (0, 2), 1.0)
    grain = np.random.default_rng(3).uniform(0, 300, (40, 2))
    strewn = Pool(list(members.values()) + [speck(x, y) for x, y in grain])
    assert dust(lattice, strewn)
    assert not dust(lattice, Pool(list(members.values())))
    cells = {key: speck(blob.x, blob.y, 60) for key, blob in members.items()}
    assert not dust(Lattice(homography, cells, (0, 1), (0, 2), 1.0), strewn)


def test_points_three_times_farther_apart_one_way_are_no_board_cells():
    """A lattice 250 px apart down and 50 px across (a floor's tiles taken a row in five) is
    stretched; one seen under a tilted camera (its steps 60 and 30 px) is not."""
    from vision_solver.vision.locate.judge import stretched
    from vision_solver.vision.locate.lattice import Lattice

    def lattice(across: float, down: float) -> Lattice:
        homography = np.array([[across, 0.0, 10.0], [0.0, down, 10.0], [0.0, 0.0, 1.0]])
        return Lattice(homography, {}, (0, 4), (0, 9), 1.0)

    assert stretched(lattice(50.0, 250.0))
    assert stretched(lattice(250.0, 50.0))
    assert not stretched(lattice(60.0, 30.0))
    assert not stretched(lattice(40.0, 40.0))


def test_a_lattice_that_folds_over_itself_is_no_board() -> None:
    # A homography fitted to a few blobs along one line may send the lattice's far columns
    # through the horizon: its outline crosses itself, which no board seen by a camera does.
    blob = Blob(x=0.0, y=0.0, w=30, h=30, area=900, fill=1.0, source="test")
    members = {(0, 0): blob, (1, 0): blob, (0, 1): blob}
    folded = np.array([[30.0, 0, 100], [0, 30.0, 100], [-0.4, 0, 1]])  # horizon at u = 2.5
    lattice = Lattice(folded, members, (0, 1), (0, 3), 1.0)
    assert not _lattice_location(lattice, 1.0, np.zeros(2), (720, 1280, 3))
    upright = np.array([[30.0, 0, 100], [0, 30.0, 100], [0, 0, 1]])
    found = _lattice_location(
        Lattice(upright, members, (0, 1), (0, 3), 1.0), 1.0, np.zeros(2), (720, 1280, 3)
    )
    assert found and (found.rows, found.cols) == (2, 4)
