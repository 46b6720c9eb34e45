"""Reading the cells of a placed grid (the classify stage): lights, glyphs, benches, looks."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from scenes import BLACK_AND_WHITE, black_and_white_grid, haiku_board
from synth import random_scene, render_board

from vision_solver.vision.grid import Grid, find_grid
from vision_solver.vision.locate import locate_board
from vision_solver.vision.looks import learn_look
from vision_solver.vision.pipeline import read_board

# --- glyphs and lights, and the looks that read them ---------------------------------------------


@pytest.mark.parametrize(("seed", "tilt"), [(6, 0.0), (13, 0.0), (10, 0.2)])
def test_arrows_that_reach_the_tile_edge_are_read(seed, tilt):
    """Arrows drawn across the whole tile touch the glyph window's edge: still glyphs."""
    scene = random_scene(seed, puzzle="arrows", look="arrow-squares", tilt=tilt)
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == "arrows"
    assert reading.cells.tolist() == scene.cells.tolist()


def test_learned_look_reads_the_game_it_was_taught_on():
    """'bevel' draws lit as the paler state; one labelled board teaches the look, which then
    names the states of the game's other boards itself."""
    from vision_solver.vision.classify import CellStack

    teach = random_scene(10, look="bevel", rows=5, cols=5)
    location = locate_board(teach.image)
    grid = find_grid(teach.image, location, teach.cells.shape)
    features = CellStack(teach.image, grid).features
    look = learn_look(features, teach.cells, "my-bevel", "lights", "colours")
    for seed in (12, 13):
        scene = random_scene(seed, look="bevel")
        learned = read_board(scene.image, looks=[look])
        assert learned.look == "my-bevel"
        assert learned.cells.tolist() == scene.cells.tolist()


def test_shipped_looks_are_found_from_the_installed_package(tmp_path):
    """Run outside the checkout, so the installed package (not the tree) is imported."""
    import subprocess
    import sys

    code = (
        "import vision_solver, json\n"
        "from vision_solver.vision.looks import shipped_looks\n"
        "print(json.dumps(sorted(look.name for look in shipped_looks())))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert "moon-legend" in out.stdout and "haiku-lights-off" in out.stdout


# --- benches (moon legend) on the renderer's 3-D scenes, read on their true grid -----------------


def _true_grid(scene):
    """The grid on a rendered board's true corners (the locate stage is not under test here)."""
    rows, cols = scene.cells.shape
    square = np.float32([[0, 0], [cols, 0], [cols, rows], [0, rows]])
    homography = cv2.getPerspectiveTransform(square, np.float32(scene.corners))
    return Grid(rows, cols, homography, scene.corners)


def _chairs_scene(seed):
    """A rendered chairs board (3..5 x 3..6 cells), its true grid and its cells."""
    rng = np.random.default_rng(seed)
    cells = rng.integers(0, 4, (int(rng.integers(3, 6)), int(rng.integers(3, 7))))
    scene = render_board(cells, "chairs", seed=seed, cell_px=int(rng.integers(80, 120)))
    return scene.image, _true_grid(scene), cells


def _read_chairs_scenes(looks):
    """The share of cells read right on the chairs scenes of seeds 1 to 5, read with
    ``looks``, and the names of the looks they were read with."""
    from vision_solver.vision.classify import read_cells

    right = total = 0
    used = set()
    for seed in range(1, 6):
        image, grid, cells = _chairs_scene(seed)
        reading = read_cells(image, grid, "arrows", looks=looks)
        used.add(reading.look)
        right += int((reading.cells == cells).sum())
        total += cells.size
    return right / total, used


def test_benches_are_read_with_their_colour_found_on_the_board():
    """Without a look, the benches' colour is found on the board (the most sure reading).

    Reading any colour far from the grass as a bench got 83% of these cells;
    with the colour found, 93%; and with benches seen in front (their seat
    showing, so taller) no longer taken for end-on ones, 97%.
    """
    share, _ = _read_chairs_scenes(looks=[])
    assert share >= 0.95


def test_bench_whose_shaded_faces_open_away_is_still_read():
    """A tiny end-on bench whose grown silhouette the opening removes whole:
    it is read from its lit part (this raised on an empty array).  That part's
    backrest, the column that rises higher, is on the west side, so the sitter
    faces east."""
    from vision_solver.vision.classify.benches import bench_direction

    crop = np.full((12, 12, 3), 90, np.uint8)
    part = np.zeros((12, 12), np.uint8)
    part[2:9, 5] = 1  # the backrest
    part[5:9, 6:8] = 1  # the seat
    direction, confidence = bench_direction(part, crop, np.zeros_like(part))
    assert direction == 1
    assert 0.5 < confidence <= 1


def test_grass_in_light_is_no_bench_colour():
    """Sunlit grass stands out from the grass's median colour too; read as the
    benches' colour it read half of this 18x14 board.  Candidates of the
    grass's own hue are left out."""
    from vision_solver.vision.classify import read_cells
    from vision_solver.vision.classify.benches import board_backdrop, object_colours

    scene = random_scene(0, puzzle="arrows", look="chairs")
    grid = _true_grid(scene)
    _, _, grass = board_backdrop(scene.image, grid)
    colours = object_colours(scene.image, grid)
    # (the grass's hue and the wood's are 120 and about 60 degrees round from red)
    hues = [np.degrees(np.arctan2(c[2] - 128, c[1] - 128)) for c in [*colours, [0, *grass]]]
    assert colours and all(abs(hue - hues[-1]) > 30 for hue in hues[:-1])
    reading = read_cells(scene.image, grid, "arrows", looks=[])
    assert (reading.cells == scene.cells).mean() >= 0.7


def test_learn_a_chair_look_from_one_labelled_board():
    """learn_from_board picks the bench reader and the colour that reads the labels best."""
    from vision_solver.vision.classify import learn_from_board

    image, grid, cells = _chairs_scene(0)
    look, read_back = learn_from_board(image, grid, cells, "my-chairs", "arrows")
    assert look.reader == "benches" and look.object_colour is not None
    assert int((read_back == cells).sum()) >= cells.size - 1
    share, used = _read_chairs_scenes(looks=[look])
    assert used == {"my-chairs"}
    assert share >= 0.95


# --- lit by what lit means -----------------------------------------------------------------------


def _grey(image: np.ndarray) -> np.ndarray:
    """A single-channel copy of a capture, as three equal channels."""
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def test_grey_copy_of_a_lights_screenshot_reads_as_the_colour_one():
    """Without colour, lightness alone tells the states apart: the brighter cells are lit.
    (A grey copy of the shipped screenshot once read all dark: '0 clicks', a silent
    wrong answer.)"""
    from pathlib import Path

    from vision_solver.vision.imageio import read_image

    image = read_image(Path(__file__).parents[1] / "fixtures" / "screenshot_lights.png")
    colour = read_board(image, looks=[])
    grey = read_board(_grey(image), looks=[])
    assert grey.cells.tolist() == colour.cells.tolist()
    assert 0 < grey.cells.sum() < grey.cells.size


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_grey_board_whose_lit_cells_are_brighter_reads_exactly(seed):
    """flat-dark draws lit cells as a bright colour on mid grey: brighter in grey too."""
    scene = random_scene(seed, look="flat-dark", rows=6, cols=7)
    reading = read_board(_grey(scene.image), looks=[])
    assert reading.cells.tolist() == scene.cells.tolist()


# --- one object in four turns --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("look", "seed"), [("arrow-tiles", 2), ("arrow-squares", 3), ("arrow-squares", 5)]
)
def test_board_turned_a_quarter_clockwise_reads_as_the_board_turned(look, seed):
    """The image turned a quarter clockwise: the board turns with it (rows become
    columns) and every arrow points one quarter further round."""
    scene = random_scene(seed, puzzle="arrows", look=look, canvas=(900, 900))
    turned = read_board(cv2.rotate(scene.image, cv2.ROTATE_90_CLOCKWISE), looks=[])
    assert turned.puzzle == "arrows"
    assert turned.cells.tolist() == ((np.rot90(scene.cells, -1) + 1) % 4).tolist()


def test_the_same_mark_in_every_cell_is_no_direction_board():
    """A glint drawn alike on every button is one object in one turn: lights, not arrows."""
    from vision_solver.vision.classify.turns import read_turns

    board = np.full((5 * 32, 6 * 32, 3), 30, np.uint8)
    for r in range(5):
        for c in range(6):
            cv2.rectangle(board, (c * 32 + 4, r * 32 + 4), (c * 32 + 27, r * 32 + 27), 200, 2)
            cv2.fillPoly(
                board,
                [
                    np.int32(
                        [
                            [c * 32 + 18, r * 32 + 8],
                            [c * 32 + 24, r * 32 + 8],
                            [c * 32 + 24, r * 32 + 14],
                        ]
                    )
                ],
                (255, 255, 255),
            )
    reading = read_turns(board, 5, 6)
    assert reading is not None and not reading.varied
    assert set(reading.cells.ravel().tolist()) == {int(reading.cells[0, 0])}


def _arrow_board(cells: np.ndarray, shift: tuple[int, int], px: int = 32) -> np.ndarray:
    """A rectified board of round dark tiles with a pale rim, ``px`` pixels a cell, each
    holding a cream arrow pointing as ``cells`` say (0 up .. 3 left), every arrow drawn
    ``shift`` (x, y) pixels off its tile's centre, as on a grid placed a little off the tiles."""
    rows, cols = cells.shape
    board = np.full((rows * px, cols * px, 3), 25, np.uint8)
    up = np.array([[0, -9], [6, -2], [2, -2], [2, 9], [-2, 9], [-2, -2], [-6, -2]], float)
    for (row, col), direction in np.ndenumerate(cells):
        centre = np.array([col * px + px / 2, row * px + px / 2])
        cv2.circle(board, tuple(int(v) for v in centre), int(px * 0.45), (120, 60, 90), -1)
        cv2.circle(board, tuple(int(v) for v in centre), int(px * 0.45), (170, 120, 150), 2)
        angle = np.pi / 2 * direction  # clockwise in the image
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        points = up @ turn.T + centre + np.array(shift)
        cv2.fillPoly(board, [np.round(points).astype(np.int32)], (200, 235, 235))
    return board


@pytest.mark.parametrize("seed", range(3))
def test_arrows_drawn_off_their_tiles_centre_read_every_turn(seed):
    """Every arrow the same few pixels off its tile's centre: turned into one frame, the
    arrows stand in four places, and averaged so they blurred head into tail (the cells
    read a half turn apart at random, or not at all).  Cut where each matched, they do not."""
    from vision_solver.vision.classify.turns import read_turns

    rng = np.random.default_rng(seed)
    cells = rng.integers(0, 4, (6, 7))
    reading = read_turns(_arrow_board(cells, (3, 2)), 6, 7, by_glyph_colour=True, cut=True)
    assert reading is not None and reading.varied
    assert reading.cells.tolist() == cells.tolist()


def test_arrows_drawn_off_round_tiles_centres_are_no_lights_board():
    """Tuning arrow tiles 30092 (fresh seed): cream arrows on round tiles, drawn off their
    centres, read as lights (every way of reading turns blurred head into tail)."""
    from synth.wild import wild_scene

    scene = wild_scene(30092, "arrow-tiles")
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == "arrows"
    assert reading.cells.tolist() == scene.cells.tolist()


# --- which shade is lit, and what said so ---------------------------------------------------------


def _features(*groups: tuple[list[float], int]) -> np.ndarray:
    """A 2 x n board of cell features: each ([L, a, b, ink], count) in turn."""
    rows = [feature for feature, count in groups for _ in range(count)]
    return np.array(rows, dtype=np.float64).reshape(2, -1, 4)


@pytest.mark.parametrize(
    ("features", "lit_by", "cells"),
    [
        (_features(([80, 128, 128, 0], 3), ([40, 128, 128, 0], 3)), "lightness", [1, 0]),
        (_features(([60, 128, 128, 0], 3), ([60, 200, 128, 0], 3)), "colour", [0, 1]),
        (_features(([60, 128, 128, 20], 3), ([60, 128, 128, 0], 3)), "mark", [1, 0]),
        (_features(([60, 128, 128, 0], 6)), "one-state", [0, 0]),
        (_features(([90, 120, 203, 0], 3), ([30, 178, 38, 0], 3)), "colour", [1, 0]),
        (_features(([85, 135, 140, 0], 3), ([30, 178, 38, 0], 3)), "colour", [0, 1]),
        (_features(([83, 128, 128, 0], 3), ([68, 128, 128, 0], 3)), "lightness", [1, 0]),
        (_features(([72, 128, 128, 0], 1), ([60, 128, 128, 0], 5)), "one-state", [0, 0]),
    ],
    ids=[
        "two greys",
        "grey and red",
        "marked and blank",
        "all alike",
        "bright yellow among deep blue",
        "deep blue among pastel",
        "two greys close in lightness, each drawn alike",
        "a lone cell a little lighter (a cursor)",
    ],
)
def test_lights_reader_says_what_decided_which_group_is_lit(features, lit_by, cells):
    from vision_solver.vision.classify.lights import read_lights

    reading = read_lights(features)
    assert reading.lit_by == lit_by
    assert reading.cells[:, 0].tolist() == cells  # one cell of each row: row 0, row 1


#: White lamps among mauve ones (the mauve the more colourful, the white far lighter).
_WHITE_AMONG_MAUVE = _features(([95, 130, 126, 0], 3), ([45, 150, 120, 0], 3))


@pytest.mark.parametrize(
    ("rims", "lit_by", "cells"),
    [
        (None, "colour", [0, 1]),
        ([[70, 70, 70], [62, 62, 62]], "glow", [1, 0]),
        ([[62, 62, 62], [62, 62, 62]], "colour", [0, 1]),
        ([[62, 62, 62], [70, 70, 70]], "colour", [0, 1]),
    ],
    ids=[
        "the cells fill themselves",
        "the white lamps light the panel round them",
        "the panel alike round both",
        "the panel lighter round the mauve ones",
    ],
)
def test_far_lighter_lamps_that_light_up_their_surround_are_lit(rims, lit_by, cells):
    """The colour rule lights the more colourful group; a far lighter group that lights up
    what is round its lamps more (``rims``, L* round each cell's object) is lit instead."""
    from vision_solver.vision.classify.lights import read_lights

    def surround():
        return None if rims is None else np.array(rims, np.float64)

    reading = read_lights(_WHITE_AMONG_MAUVE, rims=surround)
    assert reading.lit_by == lit_by
    assert reading.cells[:, 0].tolist() == cells


#: Pale buttons (lighter by far, hardly coloured) among blue ones.
_PALE_AMONG_BLUE = _features(([84, 127, 128, 0], 3), ([45, 138, 82, 0], 3))
#: Pale buttons among blue ones whose bevel's shading a camera caught as ink on the blue
#: ones: lighter by 28 L* (less than LIGHTNESS_APART), hardly less colourful, and the blue
#: ones marked by 12 points, so the mark rule lights the blue ones.
_PALE_AMONG_SHADED_BLUE = _features(([87, 110, 136, 0], 3), ([59, 115, 103, 12], 3))


@pytest.mark.parametrize(
    ("features", "page", "lit_by", "cells"),
    [
        (_PALE_AMONG_BLUE, None, "colour", [0, 1]),
        (_PALE_AMONG_BLUE, [20, 135, 100], "surround", [1, 0]),
        (_PALE_AMONG_BLUE, [97, 128, 128], "colour", [0, 1]),
        (_PALE_AMONG_BLUE, [60, 128, 128], "colour", [0, 1]),
        (_PALE_AMONG_SHADED_BLUE, None, "mark", [0, 1]),
        (_PALE_AMONG_SHADED_BLUE, [40, 120, 100], "surround", [1, 0]),
        (_PALE_AMONG_SHADED_BLUE, [92, 112, 138], "mark", [0, 1]),
    ],
    ids=[
        "by colour: nothing known round the board",
        "by colour: on a navy page the blue ones are the page's hue",
        "by colour: on a white page the pale ones are the page's shade",
        "by colour: on a mid grey page neither stands out twice as far",
        "by a slight mark: nothing known round the board",
        "by a slight mark: on a navy page the blue ones are the page's hue",
        "by a slight mark: on a page of the pale ones' own shade",
    ],
)
def test_far_lighter_cells_that_stand_out_from_the_page_are_lit(features, page, lit_by, cells):
    """The colour rule lights the more colourful group, the mark rule the group carrying
    more ink; a far lighter group that stands out from what lies round the board
    (``surround``) half as far again as the other is lit instead: a game draws its unlit
    cells near the page's own colour.  (Over a mark only a slight one: see the checked
    boxes below.)"""
    from vision_solver.vision.classify.lights import read_lights

    surround = None if page is None else (lambda: np.array(page, np.float64))
    reading = read_lights(features, surround=surround)
    assert reading.lit_by == lit_by
    assert reading.cells[:, 0].tolist() == cells


def test_checked_boxes_keep_their_mark_where_the_unchecked_stand_out_from_the_page():
    """Boxes marked more than they are darker (a tick, 45 points of ink, 20 L*) are lit by
    their mark even where the unchecked ones stand out further from a grey page."""
    from vision_solver.vision.classify.lights import read_lights

    boxes = _features(([100, 128, 128, 8], 3), ([80, 128, 128, 53], 3))
    reading = read_lights(boxes, surround=lambda: np.array([87, 128, 128], np.float64))
    assert reading.lit_by == "mark"
    assert reading.cells[:, 0].tolist() == [0, 1]


def test_white_cells_on_a_white_page_do_not_glow_the_light_from_coloured_ones():
    """White cells whose rims are lighter than the mauve cells' (``rims``: the page shows
    round them) would be lit by their glow; but on a page of their own shade (``surround``)
    the mauve ones stand out by far, and stay lit."""
    from vision_solver.vision.classify.lights import read_lights

    rims = np.array([[70, 70, 70], [62, 62, 62]], np.float64)
    assert read_lights(_WHITE_AMONG_MAUVE, rims=lambda: rims).lit_by == "glow"
    page = np.array([90, 128, 128], np.float64)
    reading = read_lights(_WHITE_AMONG_MAUVE, rims=lambda: rims, surround=lambda: page)
    assert reading.lit_by == "colour"
    assert reading.cells[:, 0].tolist() == [0, 1]


@pytest.mark.parametrize("seed", [0, 1, 2, 4, 6, 9])
def test_pale_buttons_among_blue_ones_on_a_navy_page_are_lit(seed):
    """The renderer's 'bevel' look draws lit buttons pale grey and unlit ones blue on a navy
    page: read with no look, the pale ones are lit (by colour alone these seeds were read
    inverted)."""
    scene = random_scene(seed, look="bevel")
    reading = read_board(scene.image, looks=[])
    assert reading.lit_by == "surround"
    assert reading.cells.tolist() == scene.cells.tolist()


@pytest.mark.parametrize(
    ("tints", "lit_by", "cells"),
    [
        ([[2, 2, 2], [2, 2, 2]], "glow", [1, 0]),
        ([[2, 2, 2], [6, 6, 6]], "colour", [0, 1]),
        ([[6, 6, 6], [2, 2, 2]], "glow", [1, 0]),
    ],
    ids=[
        "the panel plain round both",
        "the mauve ones tint the panel round them",
        "the white ones tint it",
    ],
)
def test_colourful_cells_that_tint_the_panel_round_them_stay_lit(tints, lit_by, cells):
    """The far lighter group lights up its cells' rims (which turns the colour rule round),
    but where the more colourful group tints the panel between the cells more (``halos``:
    its own glow, coloured), it is the one lit."""
    from vision_solver.vision.classify.lights import read_lights

    reading = read_lights(
        _WHITE_AMONG_MAUVE,
        rims=lambda: np.array([[70, 70, 70], [62, 62, 62]], np.float64),
        halos=lambda: np.array(tints, np.float64),
    )
    assert reading.lit_by == lit_by
    assert reading.cells[:, 0].tolist() == cells


def test_red_tiles_glowing_onto_the_panel_beside_lighter_cream_ones_are_lit():
    """Red tiles with a lighter inset, glowing red onto a green panel, beside far lighter
    cream tiles that do not glow: the red ones are lit (every cell was read inverted)."""
    from synth.wild import wild_scene

    scene = wild_scene(10872, "lights-tiles")  # a tuning seed
    reading = read_board(scene.image, looks=[])
    assert reading.lit_by == "colour"
    assert reading.cells.tolist() == scene.cells.tolist()


def test_a_photographed_toy_whose_lit_lamps_glow_white_reads_them_lit():
    """A toy on a table, its lit lamps white and glowing onto its red case, its unlit ones a
    duller colour: read by the glow, not by the colour (every cell was read inverted)."""
    from synth.photo import photo_scene

    scene = photo_scene(8, "toy")
    reading = read_board(scene.image, looks=[])
    assert reading.lit_by == "glow"
    assert reading.cells.tolist() == scene.cells.tolist()


def test_a_board_lit_unevenly_is_read_with_its_slope_taken_off():
    """A photographed screen lit unevenly: the lit cells' L* falls by 2 a column and the
    colour cast grows by 1.5 b a row, so that the far corner's lit cells are as dark as the
    near corner's unlit ones; read with that slope across the board taken off, every cell
    is read."""
    from vision_solver.vision.classify.lights import _read_generic, read_lights

    rng = np.random.default_rng(3)
    lit = rng.integers(0, 2, (12, 15))
    rows, cols = np.mgrid[0:12, 0:15]
    features = np.zeros((12, 15, 4))
    features[..., 0] = np.where(lit == 1, 58.0, 30.0) - 1.2 * cols - 0.8 * rows
    features[..., 1] = 138.0
    features[..., 2] = np.where(lit == 1, 94.0, 105.0) + 1.5 * rows
    assert _read_generic(features).cells.tolist() != lit.tolist()  # as it stands: misread
    assert read_lights(features).cells.tolist() == lit.tolist()


def test_a_board_of_one_state_lit_unevenly_is_not_split_by_its_noise():
    """Every cell alike but for its L* rounded to 38 or 39 (a median of whole levels): the
    two levels split the cells far apart for their spreads (none), not into two states."""
    from vision_solver.vision.classify.lights import read_lights

    rng = np.random.default_rng(5)
    features = np.zeros((6, 6, 4))
    features[..., 0] = rng.integers(38, 40, (6, 6))
    features[..., 1] = 128.0
    features[..., 2] = 120.0
    reading = read_lights(features)
    assert reading.lit_by == "one-state"
    assert len(np.unique(reading.cells)) == 1


def _glare(rows: int, cols: int, at: tuple[float, float], lift: float) -> np.ndarray:
    """``(rows, cols)``: the L* a glare spot of three cells' reach adds over a board."""
    row, col = np.mgrid[0:rows, 0:cols]
    return lift * np.exp(-((row - at[0]) ** 2 + (col - at[1]) ** 2) / (2 * 3.0**2))


@pytest.mark.parametrize("seed", range(6))
def test_a_glare_spot_over_two_greys_is_read_against_each_cells_neighbours(seed):
    """Two greys 19 L* apart under a glare spot that lifts the cells under it by up to 30:
    unlit cells in the spot are lighter than lit ones outside it, and no slope across the
    board takes that off.  Read against their neighbours' states, every cell is read."""
    from vision_solver.vision.classify.lights import _levelled, _read_generic, read_lights

    rng = np.random.default_rng(seed)
    rows, cols = 8, 11
    lit = rng.integers(0, 2, (rows, cols))
    features = np.zeros((rows, cols, 4))
    features[..., 0] = np.where(lit == 1, 63.0, 44.0) + rng.normal(0, 0.7, (rows, cols))
    features[..., 0] += _glare(rows, cols, (rng.uniform(1, 6), rng.uniform(1, 9)), 30.0)
    features[..., 1] = 120.0
    features[..., 2] = 134.0
    plain = [_read_generic(features).cells, _read_generic(_levelled(features)).cells]
    assert all(cells.tolist() != lit.tolist() for cells in plain)  # misread without it
    reading = read_lights(features)
    assert reading.cells.tolist() == lit.tolist()
    assert reading.lit_by == "lightness"


def test_a_glare_spot_that_whitens_a_few_cells_is_no_state_of_their_own():
    """A tuning photo of a monitor whose glare spot at the board's edge whitens three cells:
    the board-wide reading parted those from the rest (47 of 90 cells misread), and the
    neighbours' reading, started from it, did not stand.  Started from the levelled board
    split in two too, every cell is read (placed by the board's true corners)."""
    from synth.photo import photo_scene

    scene = photo_scene(520, "monitor")
    reading = read_board(scene.image, looks=[], corners=scene.corners, size=scene.cells.shape)
    assert reading.cells.tolist() == scene.cells.tolist()


@pytest.mark.parametrize("seed", range(4))
def test_two_greys_a_light_falls_across_are_two_states(seed):
    """Two greys 11 L* apart on a photographed monitor, each cell a little off its grey and
    the light 3 L* stronger at the bottom than at the top: the gap between the two groups
    narrows to 6 or 7 L*, under SAME_COLOUR, and the board was read all one state.  Their
    means stand 11 apart: two states.  One grey so lit stays one state."""
    from vision_solver.vision.classify.lights import read_lights

    rng = np.random.default_rng(seed)
    rows, cols = 9, 7
    lit = rng.integers(0, 2, (rows, cols))
    features = np.zeros((rows, cols, 4))
    slope = np.linspace(0.0, 3.0, rows)[:, None]
    features[..., 0] = np.where(lit == 1, 70.8, 59.5) + slope + rng.normal(0, 0.9, (rows, cols))
    features[..., 1] = 130.0
    features[..., 2] = 126.0
    reading = read_lights(features)
    assert reading.cells.tolist() == lit.tolist()
    assert reading.lit_by == "lightness"
    one_grey = features.copy()
    one_grey[..., 0] = 59.5 + slope + rng.normal(0, 0.9, (rows, cols))
    assert len(np.unique(read_lights(one_grey).cells)) == 1


@pytest.mark.parametrize("seed", range(4))
def test_a_glare_spot_over_a_board_of_one_state_does_not_split_it(seed):
    """Every cell alike under a glare spot: the cells in it are lighter, but they differ
    from their neighbours by little, where two states differ by a step; one state."""
    from vision_solver.vision.classify.lights import read_lights

    rng = np.random.default_rng(seed)
    rows, cols = 8, 11
    features = np.zeros((rows, cols, 4))
    features[..., 0] = 44.0 + rng.normal(0, 0.7, (rows, cols))
    features[..., 0] += _glare(rows, cols, (rng.uniform(1, 6), rng.uniform(1, 9)), 30.0)
    features[..., 1] = 120.0
    features[..., 2] = 134.0
    reading = read_lights(features)
    assert len(np.unique(reading.cells)) == 1


def test_a_photographed_monitor_under_a_glare_spot_reads_exactly():
    """A tuning photo of a monitor whose glare spot lifts the cells under it past the lit
    ones beside it: 49 of its cells were misread."""
    from synth.photo import photo_scene

    scene = photo_scene(288, "monitor")
    reading = read_board(scene.image, looks=[])
    assert reading.cells.tolist() == scene.cells.tolist()


def test_a_photographed_monitor_lit_unevenly_reads_exactly():
    """A tuning photo of a monitor (vignette and a colour cast across the screen): 57 of its
    180 lit cells were read unlit."""
    from synth.photo import photo_scene

    scene = photo_scene(4, "monitor")
    reading = read_board(scene.image, looks=[])
    assert reading.cells.tolist() == scene.cells.tolist()


def test_black_and_white_grid_reads_the_lighter_cells_as_lit_by_lightness():
    image, lit = black_and_white_grid()
    reading = read_board(image, looks=[])
    assert reading.puzzle == "lights" and reading.look == "generic"
    assert reading.lit_by == "lightness"
    assert reading.cells.tolist() == (1 - lit).tolist()  # white read as on


@pytest.mark.parametrize("seed", [0, 1])
def test_lit_dark_reads_a_black_and_white_grid_exactly_inverted(seed):
    image, lit = black_and_white_grid(seed)
    light = read_board(image, looks=[])
    dark = read_board(image, looks=[], lit="dark")
    assert dark.cells.tolist() == (1 - light.cells).tolist() == lit.tolist()
    assert np.array_equal(dark.confidence, light.confidence)
    assert dark.lit_by == "user"
    assert dark.to_dict()["lit_by"] == "user"


def test_lit_dark_turns_a_reading_by_colour_round_too():
    """The user knows the game: --lit dark turns every generic reading round."""
    from pathlib import Path

    from vision_solver.vision.imageio import read_image

    image = read_image(Path(__file__).parents[1] / "fixtures" / "screenshot_lights.png")
    light = read_board(image, looks=[])
    dark = read_board(image, looks=[], lit="dark")
    assert light.lit_by == "colour" and dark.lit_by == "user"
    assert dark.cells.tolist() == (1 - light.cells).tolist()


def test_a_reading_by_a_shipped_look_is_not_turned_round_by_lit_dark(tmp_path):
    """The look names its states: --lit dark leaves its reading as it is."""
    from vision_solver.vision.looks import load_looks

    image = haiku_board(BLACK_AND_WHITE)
    shipped = [look for look in load_looks(tmp_path) if look.name == "haiku-lights-off"]
    for lit in ("light", "dark"):
        reading = read_board(image, looks=shipped, lit=lit)
        assert reading.look == "haiku-lights-off"
        assert reading.lit_by == "look"
        assert reading.cells.tolist() == BLACK_AND_WHITE.tolist()


def test_an_arrow_board_says_nothing_of_lit():
    scene = random_scene(6, puzzle="arrows", look="arrow-squares")
    reading = read_board(scene.image, looks=[], lit="dark")
    assert reading.puzzle == "arrows" and reading.lit_by is None
    assert "lit_by" not in reading.to_dict()
    assert reading.cells.tolist() == scene.cells.tolist()


def test_lit_other_than_light_or_dark_is_bad_input():
    from vision_solver.errors import BoardInputError

    image, _ = black_and_white_grid()
    with pytest.raises(BoardInputError, match="lit must be light or dark"):
        read_board(image, looks=[], lit="bright")


def test_what_every_cell_shows_alike_is_taken_from_its_turning_ink():
    """``turning_maps``: a bevel drawn alike in every cell (lit from the top left, stronger on
    some tiles than others) outweighs a small arrow that turns; taken away, the maps of two
    cells whose arrows differ by a quarter turn match under that turn and not as they stand."""
    from vision_solver.vision.classify.turns import turning_maps

    size = 32
    bevel = np.zeros((size, size), np.float32)
    bevel[:5, :] = 60.0  # lit top edge
    bevel[:, :5] = 60.0  # lit left edge
    bevel[-5:, :] = 40.0  # shaded bottom edge
    arrow = np.zeros((size, size), np.float32)
    cv2.fillPoly(arrow, [np.int32([[16, 9], [22, 17], [10, 17]])], 30.0)  # a head pointing up
    cv2.rectangle(arrow, (14, 17), (17, 23), 30.0, -1)  # its shaft
    rng = np.random.default_rng(0)
    turns = np.arange(12) % 4
    strength = rng.uniform(0.6, 1.4, 12).astype(np.float32)
    maps = np.stack([s * bevel + np.rot90(arrow, k) for s, k in zip(strength, turns, strict=True)])

    def agreement(a: np.ndarray, b: np.ndarray) -> float:
        return float(np.corrcoef(a.ravel(), b.ravel())[0, 1])

    # as they stand, a cell pointing up and one pointing left look alike (their bevels)
    assert agreement(maps[0], maps[1]) > 0.9
    moving = turning_maps(maps)
    # once the shared bevel goes, the left-pointing cell matches the other only turned back
    assert agreement(moving[0], np.rot90(moving[1], -1)) > agreement(moving[0], moving[1]) + 0.3


def _up_glyph(kind: str, size: int, shaft: float, head: float) -> np.ndarray:
    """A 0/1 mask of a glyph pointing up, drawn here by hand (no renderer): ``shaft`` and
    ``head`` are half-widths as shares of ``size``, the glyph's length."""
    mask = np.zeros((size + 8, size + 8), np.uint8)
    x, top, bottom = (size + 8) / 2, 4, 4 + size
    neck = top + 0.35 * size
    scale = 16  # sub-pixel corners (cv2's shift)

    def poly(points):
        cv2.fillPoly(mask, [np.int32(np.round(np.array(points) * scale))], 1, cv2.LINE_8, 4)

    if kind == "arrow":
        poly([(x, top), (x + head * size, neck), (x + shaft * size, neck),
              (x + shaft * size, bottom), (x - shaft * size, bottom),
              (x - shaft * size, neck), (x - head * size, neck)])  # fmt: skip
    elif kind == "triangle":
        poly([(x, top), (x + head * size, bottom), (x - head * size, bottom)])
    else:  # a chevron: its arms shaft thick
        arm = shaft * size
        wide = head * size
        poly([(x, top), (x + wide, bottom - arm), (x + wide, bottom),
              (x, top + arm), (x - wide, bottom), (x - wide, bottom - arm)])  # fmt: skip
    return mask


@pytest.mark.parametrize("kind", ["arrow", "triangle", "chevron"])
@pytest.mark.parametrize("size", [24, 40, 64])
def test_a_glyph_points_to_its_tip_in_every_turn(kind, size):
    """An arrow whose shaft is nearly as wide as its head (small notches, its centroid in the
    shaft), one with a thin shaft, a triangle and a chevron point to their tip: in each of the
    four turns ``pointing`` names the way the glyph was drawn."""
    from vision_solver.vision.classify.turns import pointing

    shapes = [(0.2, 0.26), (0.06, 0.3), (0.14, 0.22)] if kind == "arrow" else [(0.12, 0.3)]
    for shaft, head in shapes:
        up = _up_glyph(kind, size, shaft, head)
        for turn in range(4):  # np.rot90 turns anticlockwise: up, left, down, right
            direction = (0, 3, 2, 1)[turn]
            assert pointing(np.rot90(up, turn).copy())[0] == direction, (shaft, head, turn)


def test_thin_shafted_arrows_point_to_their_heads_not_their_tails():
    """Fresh tuning arrow tiles (8172): thin arrows whose short head narrows over a fifth of
    their length and whose shaft ends in a round cap.  Taken by the width a quarter in from
    each end (past the head, in the shaft) neither end was the tip, the notches beside the
    shaft named the tail, and the board read every cell a half turn off; the head widens
    within that quarter, the tail does not."""
    from synth.wild import wild_scene

    scene = wild_scene(8172, "arrow-tiles")
    reading = read_board(scene.image, looks=[])
    assert reading.cells.tolist() == scene.cells.tolist()


def test_the_glyphs_colour_is_the_colour_every_cell_holds():
    """Twelve cells of four tile colours, each with a highlight of its own colour that inks
    nearly as much as the glyph and covers three times as much, and a small white glyph in
    every one: the glyphs' colour is the white (the median of each cell's most inked pixels
    was the highlights')."""
    from vision_solver.vision.classify.turns import _glyph_colour

    rng = np.random.default_rng(3)
    tiles = np.array([[40, 60, 10], [45, -40, 30], [35, 20, -50], [50, 50, 40]], float)
    white = np.array([95.0, 0.0, 0.0])
    lab, ink = [], []
    for cell in range(12):
        tile = tiles[cell % 4]
        away = np.array([0.0, *np.sign(tile[1:])])
        highlight = tile + 0.97 * np.linalg.norm(white - tile) * away / np.linalg.norm(away)
        pixels = np.repeat(tile[None], 400, axis=0)
        pixels[:60] = highlight
        pixels[60:80] = white
        pixels += rng.normal(0, 1, pixels.shape)
        lab.append(pixels)
        ink.append(np.linalg.norm(pixels - tile, axis=1))
    lab, ink = np.array(lab), np.array(ink)
    strongest = ink >= 0.9 * ink.max(axis=1, keepdims=True)
    assert np.linalg.norm(np.median(lab[strongest], axis=0) - white) > 20  # the old rule
    assert np.linalg.norm(_glyph_colour(lab, ink) - white) < 3


def test_arrows_that_point_clearly_on_a_photographed_monitor_are_not_objects():
    """A tuning photo of a monitor showing arrows on round tiles of two colours, each with a
    dot in a corner, seen at a slant: read right as one object in four turns (the cells'
    votes name "up" clearly), it was then read as 3-D objects on a floor, since the cells'
    looks group by the tiles' colours, and 57 of its 72 cells were wrong."""
    from synth.photo import photo_scene

    scene = photo_scene(12, "monitor")
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == "arrows"
    assert reading.cells.tolist() == scene.cells.tolist()


def test_glyphs_the_namer_sees_no_object_in_are_not_read_as_objects():
    """A tuning photo of a monitor showing small arrows on tiles, the screen shaded across
    every tile alike: the ink read no turns, the ink less what every cell shares read them
    all, and then the board, seen at a slant and holding marks on a floor, was read as 3-D
    objects (60 of its 70 cells wrong), though the namer sees no object in its cells."""
    from synth.photo import photo_scene

    from vision_solver.vision.classify import CellStack
    from vision_solver.vision.classify.namer import direction_odds

    scene = photo_scene(4080, "monitor")
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == "arrows"
    assert reading.cells.tolist() == scene.cells.tolist()
    odds = direction_odds(CellStack(scene.image, reading.grid))
    assert odds is not None and odds[:, :4].sum(axis=1).mean() < 0.5


def test_thin_chevrons_are_ink_though_they_cover_little_of_their_cells():
    """A tuning photo of a monitor showing thin chevrons, each with a dot in a corner: the
    cells' mean ink (under 3 Delta E) called them blank, and the board was read as lamps.
    A stroke inked 15 Delta E or more is ink however little of the cell it covers."""
    from synth.photo import photo_scene

    scene = photo_scene(176, "monitor")
    reading = read_board(scene.image, looks=[], corners=scene.corners, size=scene.cells.shape)
    assert reading.puzzle == "arrows"
    assert reading.cells.tolist() == scene.cells.tolist()


def test_cells_alike_whose_marks_turn_are_a_direction_board_not_lights_in_one_state():
    """A tuning photo of a monitor showing arrows on round buttons of one colour, noisy enough
    that its page passes for grass: every cell looks alike to the lights reader, which read
    the board as lights all in one state (97 of its 130 cells wrong), though the arrows read
    leniently as one object turning from cell to cell."""
    from synth.photo import photo_scene

    scene = photo_scene(2212, "monitor")
    reading = read_board(scene.image, looks=[], corners=scene.corners, size=scene.cells.shape)
    assert reading.puzzle == "arrows"
    assert reading.cells.tolist() == scene.cells.tolist()


def test_marks_too_faint_to_be_ink_that_turn_are_a_direction_board():
    """A tuning photo of a monitor showing arrows on tiles of one colour, moire and blur over
    them: no cell's marks stood out enough for the features to call them ink, so no turn
    reader was asked, and every cell looking alike, the board was read as lights all in one
    state (98 of its 121 cells wrong).  The marks read strictly as one object turning."""
    from synth.photo import photo_scene

    from vision_solver.vision.classify import CellStack
    from vision_solver.vision.classify.benches import NOT_FLAT_INK

    scene = photo_scene(4304, "monitor")
    reading = read_board(scene.image, looks=[], corners=scene.corners, size=scene.cells.shape)
    assert np.mean(CellStack(scene.image, reading.grid).features[..., 3] >= NOT_FLAT_INK) < 0.1
    assert reading.puzzle == "arrows"
    assert reading.cells.tolist() == scene.cells.tolist()


def test_lamps_whose_glints_turn_with_no_way_named_up_are_lights():
    """A tuning scene of lamps set in a floor of tiles: read leniently, the lamps' glints
    seemed one object turning from cell to cell, and the board was read as arrows (all 21
    cells wrong), though the cells' votes named no turn "up" (two turns tied).  Such a
    reading, asked before anything else reads the board, stands only where its votes name
    "up" clearly."""
    from synth.wild import wild_scene

    from vision_solver.vision.classify import LENIENT_VOTE, _named_clearly
    from vision_solver.vision.classify.turns import TurnReading

    scene = wild_scene(160, "lights-in-scene")
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == "lights"
    assert reading.cells.tolist() == scene.cells.tolist()
    cells = np.zeros((2, 2), np.int64)
    tied = TurnReading(cells, np.ones((2, 2)), 1.0, offset_margin=0.0)
    clear = TurnReading(cells, np.ones((2, 2)), 1.0, offset_margin=LENIENT_VOTE)
    assert _named_clearly(tied) is None and _named_clearly(clear) is clear


def test_glyphs_whose_colour_turns_clearly_are_arrows_though_their_tiles_pass_for_lamps():
    """A tuning photo of a monitor showing arrows of one colour on round tiles, under moire:
    the ink reads no turns, and the round tiles pass for lamps.  Read by the glyphs' colour,
    the cells are one object turning from cell to cell and their votes name "up" clearly: a
    direction board, read exactly on its true grid (it was read as lights, 32 of 48 cells
    wrong)."""
    from synth.photo import photo_scene

    from vision_solver.vision.classify import read_cells

    scene = photo_scene(2052, "monitor")
    reading = read_cells(scene.image, _true_grid(scene))
    assert reading.puzzle == "arrows"
    assert reading.cells.tolist() == scene.cells.tolist()


def test_light_arrows_on_tiles_of_many_colours_under_moire_are_read_by_their_lightness():
    """A tuning photo of a monitor showing white arrows on tiles of four colours, its moire
    and blur over them, off any grass: the ink, the glyphs' colour, the grid moved and the
    template cut read no turns, and the board was read as lights (32 of 36 cells wrong).
    The glyphs' lightness less what every cell shares reads it in four turns, sure of its
    cells: a direction board, read exactly on its true grid."""
    from synth.photo import photo_scene

    from vision_solver.vision.classify import read_cells

    scene = photo_scene(2120, "monitor")
    reading = read_cells(scene.image, _true_grid(scene))
    assert reading.puzzle == "arrows"
    assert reading.cells.tolist() == scene.cells.tolist()


def test_white_arrows_on_pale_tiles_under_moire_are_read_by_their_lightness_leniently():
    """A fresh tuning photo of a monitor showing white arrows on tiles of three colours, some
    pale, under moire: no reader read turns, and the glyphs' lightness read them in a sample
    whose cells matched the template poorly, though in their right turns.  The board was
    read as lights (87 of 120 cells wrong).  Read leniently by the cut template, its
    lightness reads it as arrows, exactly, on its true grid."""
    from synth.photo import photo_scene

    from vision_solver.vision.classify import read_cells

    scene = photo_scene(6288, "monitor")
    reading = read_cells(scene.image, _true_grid(scene))
    assert reading.puzzle == "arrows"
    assert reading.cells.tolist() == scene.cells.tolist()


def test_lightness_maps_keep_the_side_of_its_tile_a_glyph_lies_on():
    """``lightness_maps``: each pixel's L* above its cell's own (the median of its middle),
    0 below it; with ``lighter`` False, below it instead.  Two grey cells, one holding a glyph
    20 L* lighter than its tile and one a glyph 20 darker."""
    from vision_solver.vision.classify.turns import lightness_maps

    size = 32
    lab = np.full((size, 2 * size, 3), (50.0, 0.0, 0.0))
    lab[12:20, 12:20, 0] = 70.0  # a light glyph in the first cell
    lab[12:20, size + 12 : size + 20, 0] = 30.0  # a dark one in the second
    lab8 = np.dstack([lab[..., 0] * 255 / 100, lab[..., 1] + 128, lab[..., 2] + 128])
    board = cv2.cvtColor(lab8.round().astype(np.uint8), cv2.COLOR_LAB2BGR)
    lifted = lightness_maps(board, 1, 2, lighter=True)
    dropped = lightness_maps(board, 1, 2, lighter=False)
    assert lifted.shape == (2, size, size)
    assert lifted[0, 16, 16] == pytest.approx(20, abs=1) and lifted[1].max() < 1
    assert dropped[1, 16, 16] == pytest.approx(20, abs=1) and dropped[0].max() < 1
    assert lifted[0, 2, 2] < 1  # the tile itself, at its own lightness


def test_a_reading_by_lightness_stands_only_where_sure_and_in_more_than_two_opposite_turns():
    """``_lightness_kept``: lit and unlit bevelled tiles, less what every cell shares, read
    in two opposite turns (or all but a cell so, on a photo): no direction board.  A reading in
    three turns stands where it is sure of its cells (LIGHTNESS_SURE), not where it is not."""
    from vision_solver.vision.classify import LIGHTNESS_SURE, _lightness_kept
    from vision_solver.vision.classify.turns import TurnReading

    sure = np.ones((5, 6))
    opposite = np.array([0, 2] * 15).reshape(5, 6)
    all_but_one = opposite.copy()
    all_but_one[2, 3] = 1
    three = np.arange(30).reshape(5, 6) % 3
    assert _lightness_kept(TurnReading(opposite, sure, 1.0)) is None
    assert _lightness_kept(TurnReading(all_but_one, sure, 1.0)) is None
    kept = TurnReading(three, sure, 1.0)
    assert _lightness_kept(kept) is kept
    unsure = TurnReading(three, np.full((5, 6), LIGHTNESS_SURE - 0.05), 1.0)
    assert _lightness_kept(unsure) is None
    assert _lightness_kept(None) is None


def test_thin_light_arrows_blurred_into_their_tiles_hue_are_read_by_their_lightness():
    """A tuning photo of a monitor among other grids, showing thin light arrows on round tiles
    of one colour: blur gives each glyph its tile's hue, so neither the ink nor the glyphs'
    colour read turns, and the photo's moire passes for grass, where 3-D objects stand.  It
    was read as objects, 151 of its 156 cells wrong.  Read by how much lighter than its tile
    each pixel is, less what every cell shares, the board reads exactly."""
    from synth.photo import photo_scene

    scene = photo_scene(128, "competing")
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == "arrows"
    assert reading.cells.tolist() == scene.cells.tolist()


def test_arrows_whose_tiles_carry_a_highlight_band_read_by_the_clearest_votes():
    """White arrows on bevelled tiles lit over their top half (tuning arrow tiles 2048): the
    ink's votes named "up" at 0.58 with four downward arrows read upward, the band outweighing
    their heads; the glyphs' colour votes clearer and reads every cell."""
    from synth.wild import wild_scene

    scene = wild_scene(2048, "arrow-tiles")
    reading = read_board(scene.image, looks=[])
    assert reading.puzzle == "arrows"
    assert reading.cells.tolist() == scene.cells.tolist()
