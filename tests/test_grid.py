"""Placing the grid on a located board (the grid stage): its cells, its size, its geometry."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from scenes import assert_read_exactly, generic_scene, pitch
from synth import random_scene, render_board

from vision_solver.vision.geometry import board_at, share_within
from vision_solver.vision.grid import (
    Grid,
    align_cells,
    find_grid,
    fit_tiles,
    gaps_shift,
    joined_halves,
    parse_size,
)
from vision_solver.vision.locate import locate_board
from vision_solver.vision.pipeline import place_grid, read_board


@pytest.mark.parametrize(
    ("look", "seed"), [("arrow-squares", 1), ("arrow-squares", 3), ("terminal", 4)]
)
def test_tilted_board_cells_are_placed_by_their_own_tiles(look, seed):
    """A lattice fitted to blob centroids drifts on a tilted board.

    Corners were off by 0.2 to 0.3 of a cell, enough to cut the arrows in
    the far cells (read as a lights board) or to miss the 0.2-cell mark.
    """
    assert_read_exactly(generic_scene(look, seed, tilt=0.2), within=0.1, puzzle=True)


def test_align_cells_leaves_a_square_on_grid_where_it_is():
    """On a board seen square-on the grid already sits on the tiles: refitting keeps it."""
    scene = random_scene(1, look="flat-dark")
    reading = read_board(scene.image, looks=[])
    aligned = align_cells(scene.image, reading.grid)
    assert np.abs(aligned.corners - reading.grid.corners).max() < 0.05 * pitch(scene)


def test_size_option_divides_the_located_board():
    scene = render_board(np.eye(4, dtype=np.int64), "flat-dark", seed=1, cell_px=50)
    location = locate_board(scene.image)
    grid = find_grid(scene.image, location, (4, 4))
    assert (grid.rows, grid.cols) == (4, 4)
    assert np.abs(grid.corners - scene.corners).max() < 0.2 * pitch(scene)


@pytest.mark.parametrize("text", ["5", "5x", "axb", "0x3", "300x3"])
def test_parse_size_rejects(text):
    from vision_solver import BoardInputError

    with pytest.raises(BoardInputError, match="size"):
        parse_size(text)


def test_grid_geometry_is_consistent():
    h = np.array([[10.0, 0, 100], [0, 10.0, 50], [0, 0, 1]])
    grid = Grid(3, 4, h, np.array([[100, 50], [140, 50], [140, 80], [100, 80]], float))
    assert grid.centres()[0, 0].tolist() == [105.0, 55.0]
    assert grid.cell_quad(2, 3).tolist() == [[130, 70], [140, 70], [140, 80], [130, 80]]
    assert grid.pitch() == 10.0


@pytest.mark.parametrize("margin", [0.0, 0.5])
def test_rectify_reads_the_board_box_as_a_warp_of_the_whole_image_would(margin):
    """Rectify crops the image to the board before warping: same pixels, edges included."""
    rng = np.random.default_rng(3)
    image = rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)
    # a tilted 3x4 board whose top-left corner runs off the image
    corners = np.array([[-6, -4], [150, 10], [140, 110], [5, 100]], dtype=np.float32)
    src = np.array([[0, 0], [4, 0], [4, 3], [0, 3]], dtype=np.float32)
    grid = Grid(3, 4, cv2.getPerspectiveTransform(src, corners), corners.astype(np.float64))
    cell_px = 16
    shift = np.array([[1.0, 0, margin * cell_px], [0, 1.0, margin * cell_px], [0, 0, 1.0]])
    to_rect = shift @ np.diag([cell_px, cell_px, 1.0]) @ np.linalg.inv(grid.homography)
    size = (int(round((4 + 2 * margin) * cell_px)), int(round((3 + 2 * margin) * cell_px)))
    whole = cv2.warpPerspective(
        image, to_rect, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    board = grid.rectify(image, cell_px, margin)
    assert board.shape == whole.shape
    assert np.abs(board.astype(int) - whole).max() <= 1
    gray = grid.rectify(image, cell_px, margin, gray=True)
    expected = cv2.cvtColor(whole, cv2.COLOR_BGR2GRAY)
    assert gray.shape == expected.shape
    assert np.abs(gray.astype(int) - expected).max() <= 1


def test_a_block_of_a_grid_is_placed_where_its_cells_lie():
    corners = np.array([[100.0, 50.0], [500.0, 70.0], [520.0, 400.0], [90.0, 380.0]])
    grid = place_grid(np.zeros((500, 600, 3), np.uint8), (6, 8), corners)
    block = grid.block((1, 5), (2, 7))
    assert (block.rows, block.cols) == (4, 5)
    np.testing.assert_allclose(block.centres(), grid.centres()[1:5, 2:7], atol=1e-9)
    np.testing.assert_allclose(
        block.corners[0], grid.to_image(np.array([[2.0, 1.0]]))[0], atol=1e-9
    )
    with pytest.raises(ValueError, match="outside a 6x8 grid"):
        grid.block((0, 7), (0, 8))


@pytest.mark.parametrize("seed", [10952, 10920])
def test_a_lattice_found_on_its_tiles_highlights_is_moved_onto_their_gaps(seed):
    """Bevelled arrow tiles of several colours (fresh tuning seeds) whose lattice the locate
    stage found a quarter cell down or up, on their highlights: the grid stage moves it onto
    the gaps, where every cell shows the same colour."""
    from synth.wild import wild_scene

    scene = wild_scene(seed, "arrow-tiles")
    grid = place_grid(scene.image)
    pitch = np.linalg.norm(scene.corners[1] - scene.corners[0]) / scene.cells.shape[1]
    assert (grid.rows, grid.cols) == scene.cells.shape
    assert np.abs(grid.corners - scene.corners).max() < 0.1 * pitch
    assert read_board(scene.image, looks=[]).cells.tolist() == scene.cells.tolist()


def test_a_floor_of_tiles_smaller_than_the_cells_does_not_place_the_lamps_grid():
    """Lamps let into a floor of tiles half a cell wide (a fresh tuning seed): every cell
    shows the floor's tile outlines, one of them a quarter cell off the lamp.  That outline
    holds no lamp, so the grid stays on the lamps and they read."""
    from synth.wild import wild_scene

    scene = wild_scene(10952, "lights-in-scene")
    rows, cols = scene.cells.shape
    placed = board_at(np.asarray(scene.corners, float), rows, cols)
    grid = Grid(rows, cols, placed.homography, placed.corners)
    assert np.abs(fit_tiles(scene.image, grid).corners - grid.corners).max() < 0.02 * pitch(scene)
    assert read_board(scene.image, looks=[]).cells.tolist() == scene.cells.tolist()


@pytest.mark.parametrize("seed", [11020, 11016])
def test_the_bare_floor_between_lamps_moves_no_grid_off_them(seed):
    """Lamps on a floor (fresh tuning seeds): every cell shows the same floor round its
    lamp.  Round lamps' floor agrees least just inside a lamp's rim; small square lamps
    leave half of every cell bare floor.  The gap between the lamps runs through the middle
    of that bare floor, at the cells' edges: the grid stays on the lamps (it was moved a
    fifth and a quarter of a cell, and the boards read as arrows)."""
    from synth.wild import wild_scene

    scene = wild_scene(seed, "lights-in-scene")
    rows, cols = scene.cells.shape
    placed = board_at(np.asarray(scene.corners, float), rows, cols)
    grid = Grid(rows, cols, placed.homography, placed.corners)
    assert np.abs(gaps_shift(scene.image, grid)).max() < 0.05
    assert read_board(scene.image, looks=[]).cells.tolist() == scene.cells.tolist()


def test_the_gaps_between_tiles_blurred_wider_than_them_still_place_the_grid():
    """6x6 tiles of random colours 40 pixels wide, 4 apart, blurred wider than their gaps (a
    photo of a screen): the grid placed a quarter of a cell up still finds the gaps, a
    quarter of a cell down its cells (the dip where every cell agrees is half as deep as
    where they differ most, not a third)."""
    rng = np.random.default_rng(0)
    image = np.full((360, 360, 3), 30, np.uint8)
    for row in range(6):
        for col in range(6):
            y, x = 40 + row * 44, 40 + col * 44
            image[y : y + 40, x : x + 40] = rng.integers(60, 220, 3)
    image = cv2.GaussianBlur(image, (0, 0), 4.0)
    corners = np.array([[38.0, 27.0], [302.0, 27.0], [302.0, 291.0], [38.0, 291.0]])
    placed = board_at(corners, 6, 6)
    shift = gaps_shift(image, Grid(6, 6, placed.homography, placed.corners))
    assert abs(shift[0]) < 0.03
    assert abs(shift[1] - 0.25) < 0.03


def test_tiles_all_of_one_colour_are_not_moved_by_their_gaps():
    """Round tiles of one colour agree everywhere no glyph reaches, not only at their gaps."""
    scene = random_scene(4, puzzle="arrows", look="arrow-tiles", tilt=0.0)
    location = locate_board(scene.image)
    grid = Grid(location.rows, location.cols, location.homography, location.corners)
    assert gaps_shift(scene.image, grid).tolist() == [0.0, 0.0]


def _tiles(lit_top: bool, seed: int = 0, lift: int = 50) -> np.ndarray:
    """A 5x4 board of 40-pixel tiles of random colours on a dark page, each lit over its top
    half when ``lit_top`` (``lift`` levels lighter in every channel)."""
    rng = np.random.default_rng(seed)
    image = np.full((300, 260, 3), 30, np.uint8)
    for row in range(5):
        for col in range(4):
            colour = rng.integers(60, 200, 3)
            y, x = 40 + row * 44, 40 + col * 44
            image[y : y + 40, x : x + 40] = colour
            if lit_top:
                image[y : y + 18, x : x + 40] = np.minimum(colour + lift, 255)
    return image


def _split_grid() -> Grid:
    """The 5x4 board of ``_tiles`` taken for 10 rows of half tiles."""
    corners = np.array([[38.0, 38.0], [214.0, 38.0], [214.0, 258.0], [38.0, 258.0]])
    located = board_at(corners, 10, 4)
    return Grid(10, 4, located.homography, located.corners)


def test_tiles_lit_over_their_top_half_taken_for_two_cells_each_are_joined():
    assert joined_halves(_tiles(lit_top=True), _split_grid()) == (5, 4)


def test_tiles_with_a_faint_highlight_over_their_top_half_are_joined_too():
    """A pale band on a bright tile is lighter than the rest by about 2 L*: every pair of
    half cells is still shaded alike, as no board's rows are."""
    for seed in range(3):
        assert joined_halves(_tiles(lit_top=True, seed=seed, lift=5), _split_grid()) == (5, 4)


def test_cells_half_as_tall_as_wide_that_are_not_shaded_alike_in_pairs_stay():
    """Flat tiles of random colours cut in halves show no shading shared by every pair: a
    board of cells half as tall as wide is no board of half tiles."""
    for seed in range(5):
        image = _tiles(lit_top=False, seed=seed)
        rows = np.arange(10) // 2
        # each half its own colour: rows of a real board of cells twice as wide as tall
        rng = np.random.default_rng(seed)
        for row in range(10):
            for col in range(4):
                y, x = 40 + rows[row] * 44 + (row % 2) * 20, 40 + col * 44
                image[y : y + 20, x : x + 40] = rng.integers(60, 200, 3)
        assert joined_halves(image, _split_grid()) is None


def test_a_board_of_tiles_lit_over_their_top_half_is_counted_by_its_tiles():
    """Fresh tuning-side boards (10836 lights, 10896 arrows) of tiles whose top halves are
    lit paler: the lattice was found on the edge across each tile's middle, and the boards
    read with twice their rows (14x5 for 7x5, 12x7 for 6x7)."""
    from synth.wild import wild_scene

    for seed, family in ((10836, "lights-tiles"), (10896, "arrow-tiles")):
        scene = wild_scene(seed, family)
        reading = read_board(scene.image, looks=[])
        assert (reading.rows, reading.cols) == scene.cells.shape, seed
        assert reading.cells.tolist() == scene.cells.tolist(), seed


def test_a_point_on_the_horizon_maps_to_infinity_without_a_warning():
    """A lattice grown far past a board seen at a slant reaches the plane's horizon; the
    point maps to inf (its callers drop it) and nothing is printed to the user."""
    import warnings

    from vision_solver.vision.geometry import apply_homography

    homography = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.01, 1.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mapped = apply_homography(homography, np.array([[5.0, -100.0], [5.0, 10.0]]))
    assert not np.isfinite(mapped[0]).all()
    assert np.allclose(mapped[1], [5.0 / 1.1, 10.0 / 1.1])


def test_how_far_an_outline_reaches_past_a_polygon_is_counted_in_its_own_cells() -> None:
    from vision_solver.vision.geometry import cells_past

    # 4 rows x 8 cols of 10 px cells
    corners = np.array([[0.0, 0.0], [80.0, 0.0], [80.0, 40.0], [0.0, 40.0]])
    around = np.array([[-5.0, -5.0], [100.0, -5.0], [100.0, 50.0], [-5.0, 50.0]])
    assert cells_past(corners, 4, 8, around) == 0.0
    short = np.array([[-5.0, -5.0], [65.0, -5.0], [65.0, 50.0], [-5.0, 50.0]])
    assert cells_past(corners, 4, 8, short) == pytest.approx(1.5)
    assert cells_past(corners * 2, 4, 8, short * 2) == pytest.approx(1.5)  # whatever the scale


def test_share_within_measures_the_overlap_of_two_quads() -> None:
    square = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float)
    assert share_within(square, square * 2) == pytest.approx(1.0)
    assert share_within(square, square + 5) == pytest.approx(0.25)
    assert share_within(square, square + 20) == 0.0
