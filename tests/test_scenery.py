"""Boards among other lattices: a tiled floor, a keyboard aside, a border's bricks are no board."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from synth import random_scene
from synth.photo import is_tuning, photo_scene
from synth.wild import wild_scene

import vision_solver.vision.locate.search as search
from vision_solver.vision.colour import L_STORED
from vision_solver.vision.locate import locate_as_seen, locate_board
from vision_solver.vision.locate.judge import page_pattern, runs_off
from vision_solver.vision.locate.lattice import Lattice
from vision_solver.vision.locate.scenery import abrupt_share, bare_page_trimmed, frame_strip
from vision_solver.vision.locate.segment import Blob
from vision_solver.vision.locate.target import rest_of_picture, tilted


def _located(seed: int, competitor: str) -> tuple:
    """A tuning-side photo with ``competitor`` in view, located as it stands (no plane warped
    square-on: the scenery is weighed there): its board must be found with the right size and
    corners within 1% of the diagonal.  (location, trace)"""
    assert is_tuning(seed)
    scene = photo_scene(seed, "competing")
    assert scene.competitor == competitor
    trace: list = []
    found = locate_as_seen(scene.image, trace)
    assert found, found
    assert (found.rows, found.cols) == scene.cells.shape
    diagonal = float(np.linalg.norm(scene.corners[2] - scene.corners[0]))
    error = np.linalg.norm(found.corners - scene.corners, axis=1).mean()
    assert error < 0.01 * diagonal
    return found, trace


#: Tuning-side photos of a toy lying on a tiled floor (the floor's tiles outscored the toy's
#: keys before the floor was told apart).
FLOOR_SEEDS = [0, 12, 16, 20]


@pytest.mark.parametrize("seed", FLOOR_SEEDS)
def test_a_toy_on_a_tiled_floor_is_found_not_the_floor(seed: int) -> None:
    found, trace = _located(seed, "floor")
    # the floor was weighed and named as such for --debug-dir
    floors = [c for c in trace if "floor" in c.source]
    assert floors and max(c.rows * c.cols for c in floors) > 2 * found.rows * found.cols


def test_tiles_change_colour_from_cell_to_cell_a_page_under_a_glare_spot_smoothly() -> None:
    rng = np.random.default_rng(3)
    glare = np.column_stack([np.linspace(60, 100, 40), np.zeros(40), np.zeros(40)])
    glare = np.concatenate([glare, glare[::-1]])  # up to the spot and back, round the line
    assert abrupt_share(glare) == 0.0
    tiles = rng.choice([20.0, 45.0, 70.0, 95.0], size=(80, 1)) * [1, 0, 0]
    assert abrupt_share(tiles) > 0.5
    off_image = glare.copy()
    off_image[10:30] = np.nan  # cells off the image take no part
    off_image[50] = [20.0, 0, 0]  # one dark cell: the two steps into and out of it
    assert abrupt_share(off_image) == pytest.approx(2 / 59)


#: Tuning-side photo of a monitor whose board of black and white cells lies on a grey page
#: that a glare spot lights up to white: the four colours round it, each one a cell's, made it
#: a floor's patch of tiles.
def test_a_board_on_a_page_under_a_glare_spot_is_no_floor() -> None:
    scene = photo_scene(212, "monitor")
    assert is_tuning(212) and scene.shows.startswith("bw-grid-dots")
    found = locate_board(scene.image)
    assert (found.rows, found.cols) == scene.cells.shape
    diagonal = float(np.linalg.norm(scene.corners[2] - scene.corners[0]))
    assert np.linalg.norm(found.corners - scene.corners, axis=1).mean() < 0.01 * diagonal


def test_a_lattice_found_whole_stands_for_a_convincing_part_of_it_seen_closer() -> None:
    """A tuning-side photo of arrow tiles with a competitor in view: the coarse look found
    the board whole (3x12), though as no convincing board (look-alikes half-way between its
    points: the glyphs' parts), and the closer look round it a convincing 3x10 part of it,
    with fewer blobs.  The lattice found whole stands: it is the board seen small."""
    scene = photo_scene(68, "competing")
    assert is_tuning(68)
    found = locate_board(scene.image)
    assert (found.rows, found.cols) == scene.cells.shape
    diagonal = float(np.linalg.norm(scene.corners[2] - scene.corners[0]))
    assert np.linalg.norm(found.corners - scene.corners, axis=1).mean() < 0.01 * diagonal


#: Tuning-side photos of a monitor with a keyboard in front of it (the keys, larger than the
#: board's cells, were found first and ended the search).
KEYBOARD_SEEDS = [36, 84]


@pytest.mark.parametrize("seed", KEYBOARD_SEEDS)
def test_the_board_on_the_monitor_is_found_not_the_keyboard_in_front(seed: int) -> None:
    found, trace = _located(seed, "keyboard")
    # the keyboard was weighed and named as lying aside for --debug-dir
    aside = [c for c in trace if c.source == "aside"]
    assert len(aside) == 1 and aside[0].corners[:, 1].min() > found.corners[:, 1].max()


def test_a_board_in_its_frame_off_to_one_side_of_a_tilted_view_is_not_looked_past(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A renderer scene of 17x3 chairs on grass under a game's tilted camera: the board in
    its frame lies wholly in the picture's left part, and is the answer without a second
    search of the rest of the picture (which cost 4 s and found nothing taken)."""
    scene = random_scene(3, puzzle="arrows", look="chairs", tilt=0.0)
    searched_past: list[tuple[int, ...]] = []
    whole_search = search.search_picture

    def search_picture(image, trace):
        searched_past.append(image.shape)
        return whole_search(image, trace)

    monkeypatch.setattr(search, "search_picture", search_picture)
    found = locate_as_seen(scene.image)
    assert found.framed and (found.rows, found.cols) == scene.cells.shape == (17, 3)
    assert tilted(found.corners) and rest_of_picture(found.corners, scene.image.shape)
    assert searched_past == []


def test_only_an_outline_wholly_in_an_outer_band_lies_aside() -> None:
    shape = (1000, 2000)
    low = np.array([[500.0, 700.0], [1500.0, 700.0], [1500.0, 900.0], [500.0, 900.0]])
    assert rest_of_picture(low, shape) == (0, 0, 2000, 700)
    central = low - [0.0, 300.0]
    assert rest_of_picture(central, shape) is None
    left = np.array([[100.0, 100.0], [700.0, 100.0], [700.0, 900.0], [100.0, 900.0]])
    assert rest_of_picture(left, shape) == (700, 0, 2000, 1000)


def test_an_upright_outline_is_no_photo_a_turned_one_is() -> None:
    upright = np.array([[10.0, 10.0], [110.0, 10.0], [110.0, 60.0], [10.0, 60.0]])
    assert not tilted(upright)
    turn = np.radians(5.0)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    assert tilted(upright @ rotation.T)


#: Tuning-side 3-D chair boards inside a brick border, whose bricks (a strip 3 across, 22
#: and 31 along) outscored the chairs' lattice and were taken for the board; and fresh
#: tuning 8228, whose bricks of two shades and their mortar show three colours.
BORDER_SEEDS = [40, 152, 8228]


@pytest.mark.parametrize("seed", BORDER_SEEDS)
def test_a_border_of_bricks_is_not_the_board_it_frames(seed: int) -> None:
    scene = wild_scene(seed, "chairs-3d")
    trace: list = []
    found = locate_board(scene.image, trace)
    assert found, found
    assert (found.rows, found.cols) == scene.cells.shape
    diagonal = float(np.linalg.norm(scene.corners[2] - scene.corners[0]))
    assert np.linalg.norm(found.corners - scene.corners, axis=1).mean() < 0.02 * diagonal
    # the bricks were weighed and named as a border's for --debug-dir
    bricks = [c for c in trace if "border" in c.source]
    assert bricks and max(max(c.rows, c.cols) for c in bricks) >= 2 * max(scene.cells.shape)
    assert all(c.aside for c in bricks)  # set aside as no board, whatever their score


def _lattice(rows: int, cols: int, at: tuple[float, float], step: float) -> Lattice:
    homography = np.array([[step, 0, at[0]], [0, step, at[1]], [0, 0, 1]], np.float64)
    members = {(r, c): None for r in range(rows) for c in range(cols)}
    return Lattice(homography, members, (0, rows - 1), (0, cols - 1), 1.0)  # type: ignore[arg-type]


def test_a_strip_is_a_frame_only_beside_a_board_along_it() -> None:
    lab = np.full((400, 400, 3), 128, np.uint8)  # one colour: every strip's bricks alike
    strip = _lattice(20, 2, (10, 10), 10)  # 20 bricks down x = 10..20, y = 10..200
    beside = _lattice(6, 3, (45, 25), 30)  # a board's 6 rows alongside, x = 45..105
    assert frame_strip(strip, [strip, beside], lab)
    far = _lattice(6, 3, (250, 25), 30)  # the same board far off to the side
    short = _lattice(2, 3, (45, 25), 30)  # a board alongside a tenth as long as the strip
    across = _lattice(3, 6, (45, 25), 30)  # a board whose short side (90) lies alongside
    assert not frame_strip(strip, [strip, far], lab)
    assert not frame_strip(strip, [strip, short], lab)
    assert not frame_strip(beside, [strip, beside], lab)  # a board is no strip
    assert not frame_strip(strip, [strip, across], lab)


def test_a_strip_of_many_colours_is_a_frame_when_smaller_than_the_boards_cells() -> None:
    # bricks of many shades (a colour of its own for every pixel) beside a board of cells
    # three times their pitch are a border's; a part of a board of tiles of many colours,
    # at the board's own pitch, is not
    lab = np.random.default_rng(3).integers(0, 256, (700, 700, 3), dtype=np.uint8)
    strip = _lattice(20, 2, (10, 10), 10)
    beside = _lattice(6, 3, (45, 25), 30)
    assert frame_strip(strip, [strip, beside], lab)
    tiles = _lattice(20, 2, (10, 10), 30)  # x = 10..70, y = 10..610: the board's pitch
    board = _lattice(16, 5, (85, 10), 30)  # beside it, along most of it
    assert not frame_strip(tiles, [tiles, board], lab)
    plain = np.full_like(lab, 128)  # in one colour, the same strip passes for a border's
    assert frame_strip(tiles, [tiles, board], plain)


def test_a_board_in_a_strip_is_no_frame_of_a_part_of_itself() -> None:
    lab = np.full((400, 400, 3), 128, np.uint8)
    board = _lattice(17, 3, (20, 10), 10)  # a 17x3 board of look-alike tiles
    part = _lattice(11, 3, (20, 40), 10)  # 11 of its rows, found on their own
    assert not frame_strip(board, [board, part], lab)


def _card(colours: np.ndarray) -> np.ndarray:
    """A dark HUD panel holding a 3x4 card of 60-pixel squares, 8 apart, in ``colours``
    (12 BGR colours, row by row)."""
    image = np.full((400, 500, 3), 40, np.uint8)
    for index, colour in enumerate(colours):
        row, col = divmod(index, 4)
        y, x = 90 + row * 68, 110 + col * 68
        image[y : y + 60, x : x + 60] = colour
    return image


def test_a_card_of_icons_each_of_its_own_colour_is_no_board() -> None:
    """A game's command card: twelve squares, every one of a colour of its own, is a palette
    (a board's cells repeat a few states), weighed and named so for --debug-dir."""
    rng = np.random.default_rng(3)
    hues = rng.permutation(12) * 15  # twelve hues, 30 degrees apart
    hsv = np.stack([hues, np.full(12, 200), rng.integers(150, 250, 12)], axis=1)
    colours = cv2.cvtColor(hsv.astype(np.uint8)[None], cv2.COLOR_HSV2BGR)[0]
    trace: list = []
    found = locate_board(_card(colours), trace)
    assert not found
    assert "a colour of its own in each cell" in found.reason
    assert any("palette" in candidate.source for candidate in trace)


def test_the_same_card_in_two_colours_is_a_board() -> None:
    """The same twelve squares lit or not (two colours) are a lights board."""
    lit = np.random.default_rng(3).random(12) < 0.5
    colours = np.where(lit[:, None], [[60, 200, 240]], [[90, 70, 60]]).astype(np.uint8)
    found = locate_board(_card(colours))
    assert found and (found.rows, found.cols) == (3, 4)


def _squares_on_a_page(lightness: np.ndarray) -> tuple[Lattice, np.ndarray]:
    """A page (8-bit Lab, grey) ruled into 20-pixel squares by lines 3 L* units lighter than
    the squares beside them, each square of ``lightness`` (rows, cols; L*), and the lattice
    of its squares as the search finds it (one blob a square, its colour its box's mean)."""
    rows, cols = lightness.shape
    pitch = 20
    square_l = np.kron(lightness, np.ones((pitch, pitch)))
    lab = np.full((rows * pitch, cols * pitch, 3), 128, np.uint8)
    lines = np.zeros(square_l.shape, bool)
    lines[::pitch, :] = lines[:, ::pitch] = True
    lab[..., 0] = np.rint((square_l + 3 * lines) * L_STORED).astype(np.uint8)
    return _lattice_of_squares(lightness, pitch, pitch - 1), lab


def _lattice_of_squares(lightness: np.ndarray, pitch: int, side: int) -> Lattice:
    """The lattice the search finds over squares ``pitch`` pixels apart from the top left:
    a blob a square, ``side`` pixels a side, of L* ``lightness`` (rows, cols)."""
    rows, cols = lightness.shape
    members = {
        (row, col): Blob(
            col * pitch + pitch / 2,
            row * pitch + pitch / 2,
            side,
            side,
            side**2,
            1.0,
            "flat12",
            (float(lightness[row, col]), 128.0, 128.0),
        )
        for row in range(rows)
        for col in range(cols)
    }
    to_pixels = np.array([[pitch, 0, pitch / 2], [0, pitch, pitch / 2], [0, 0, 1]], float)
    return Lattice(to_pixels, members, (0, rows - 1), (0, cols - 1), 1.0)


def test_a_pages_grid_shaded_across_is_the_pages_a_board_of_two_states_is_not() -> None:
    # A vignette or a fading tint shades the page's squares by 30 L* units across: far more
    # than one colour away from their median, yet each square is its neighbours' colour.
    shaded = np.tile(np.linspace(20.0, 50.0, 30), (20, 1))
    lattice, lab = _squares_on_a_page(shaded)
    median = np.array([35.0, 128.0, 128.0])
    assert page_pattern(lattice, lab, median)
    # The same squares in two states, the darker one the page's (as a board of unlit cells
    # on it), with the same faint lines: a board's cells differ from many of their
    # neighbours'.
    states = np.random.default_rng(5).choice([20.0, 50.0], size=(20, 30))
    lattice, lab = _squares_on_a_page(states)
    assert not page_pattern(lattice, lab, np.array([20.0, 128.0, 128.0]))


def _part_of(lattice: Lattice, rows: tuple[int, int], cols: tuple[int, int]) -> Lattice:
    """The lattice's members in rows and cols (first, last), as a lattice of their own."""
    members = {
        key: blob
        for key, blob in lattice.members.items()
        if rows[0] <= key[0] <= rows[1] and cols[0] <= key[1] <= cols[1]
    }
    return Lattice(lattice.homography, members, rows, cols, 1.0)


def test_a_patch_of_a_shaded_pages_grid_is_the_page_by_its_colour_round_it() -> None:
    """A few of a ruled page's squares, where a vignette shades the page 12 L* units from its
    commonest colour: they are the colour of the page round them, and the page's.  The same
    squares on a panel of their own, unlike what lies round them, are not."""
    lightness = np.full((20, 30), 40.0)
    commonest = np.array([28.0, 128.0, 128.0])
    lattice, lab = _squares_on_a_page(lightness)
    patch = _part_of(lattice, (5, 9), (5, 10))
    assert page_pattern(patch, lab, commonest)
    lightness[:, :5] = lightness[:, 11:] = lightness[:5] = lightness[10:] = 70.0
    lattice, lab = _squares_on_a_page(lightness)
    assert not page_pattern(_part_of(lattice, (5, 9), (5, 10)), lab, commonest)


def test_a_page_ruled_with_dots_runs_off_by_its_step_not_its_dots() -> None:
    """A page ruled with dots 40 pixels apart: the lattice of its dots (4 pixels a side)
    reaches the image's edges on three sides, counted in its step."""
    dots = _lattice_of_squares(np.full((8, 12), 40.0), 40, 4)
    assert runs_off(dots, (8 * 40 + 30, 12 * 40))


def test_a_page_ruled_with_dots_is_the_pages_by_the_colour_round_its_dots() -> None:
    """Dots 10 L* units lighter than the page, 40 pixels apart: the lattice of its dots is
    the page's own pattern, its cells the page round each dot.  Dots of another colour on
    a panel of that colour are not."""
    rows, cols, pitch = 8, 12, 40
    lightness = np.full((rows * pitch, cols * pitch), 40.0)
    for row in range(rows):
        for col in range(cols):
            y, x = row * pitch + pitch // 2, col * pitch + pitch // 2
            lightness[y - 2 : y + 2, x - 2 : x + 2] = 50.0
    lab = np.full((rows * pitch, cols * pitch, 3), 128, np.uint8)
    lab[..., 0] = np.rint(lightness * L_STORED).astype(np.uint8)
    dots = _lattice_of_squares(np.full((rows, cols), 50.0), pitch, 4)
    assert page_pattern(dots, lab, np.array([40.0, 128.0, 128.0]))
    assert not page_pattern(dots, lab, np.array([75.0, 128.0, 128.0]))


def test_a_board_on_a_page_whose_shaded_grid_has_more_squares_is_found() -> None:
    """A tuning-side board of glowing cells (the scored side stays unseen) on a page ruled
    into squares by a faint grid and tinted unevenly: the page's squares, more than the
    board's cells and not one colour from corner to corner, made the larger lattice."""
    scene = wild_scene(2192, "glow-on-grid")
    found = locate_board(scene.image)
    assert (found.rows, found.cols) == scene.cells.shape
    diagonal = float(np.linalg.norm(scene.corners[2] - scene.corners[0]))
    assert np.linalg.norm(found.corners - scene.corners, axis=1).mean() < 0.01 * diagonal


def _board_on_a_ruled_page(
    lit: np.ndarray, page_cols: int, inset: int = 1
) -> tuple[Lattice, np.ndarray]:
    """A board of ``lit`` cells (rows, cols; bool) on a dark page ruled into squares of the
    board's 20-pixel pitch by faint lines, and ``page_cols`` of the page's squares to its
    right: lit cells bright (``inset`` pixels in from their edges), unlit ones the page's
    colour inside an outline, as drawn boards are; the lattice takes in every cell and square
    (8-bit Lab, L* 10 the page's)."""
    rows, board_cols = lit.shape
    cols, pitch = board_cols + page_cols, 20
    lightness = np.full((rows * pitch, cols * pitch), 10.0)
    lightness[::pitch, :] = lightness[:, ::pitch] = 12.0  # the page's faint grid
    for row in range(rows):
        for col in range(board_cols):
            y, x = row * pitch, col * pitch
            if lit[row, col]:
                lightness[y + inset : y + pitch + 1 - inset, x + inset : x + pitch + 1 - inset] = 80
            else:
                lightness[y : y + pitch, x : x + pitch] = 35.0  # the outline
                lightness[y + 4 : y + pitch - 4, x + 4 : x + pitch - 4] = 10.0
    lab = np.full((rows * pitch, cols * pitch, 3), 128, np.uint8)
    lab[..., 0] = np.rint(lightness * L_STORED).astype(np.uint8)
    middles = lightness[pitch // 2 :: pitch, pitch // 2 :: pitch]
    return _lattice_of_squares(middles, pitch, pitch - 4), lab


def test_the_bare_squares_of_a_ruled_page_beyond_a_board_are_trimmed_its_unlit_line_kept():
    lit = np.random.default_rng(2).random((5, 6)) < 0.5
    lit[:, 0] = lit[:, -1] = lit[0] = False  # its first and last columns and top row unlit
    lit[1, 1] = lit[4, 4] = True  # (cells lit in the lines inside them)
    lattice, lab = _board_on_a_ruled_page(lit, page_cols=2)
    page = np.array([10.0, 128.0, 128.0])
    trimmed = bare_page_trimmed(lattice, lab, page)
    # The page's two columns go; the board's unlit lines, outlined, stay.
    assert (trimmed.rows, trimmed.cols) == ((0, 4), (0, 5))
    assert all(col <= 5 for _, col in trimmed.members)
    # Cut to the board, the lattice scores no higher than it did: a page's own grid cut
    # down so would outscore the boards beside it.
    assert trimmed.score <= lattice.score
    # A board with no page beyond it is left as it is.
    lattice, lab = _board_on_a_ruled_page(lit, page_cols=0)
    assert bare_page_trimmed(lattice, lab, page) is lattice
    # So are lamps standing on the page (its squares round them are a floor they are set in).
    lattice, lab = _board_on_a_ruled_page(lit, page_cols=2, inset=3)
    assert bare_page_trimmed(lattice, lab, page) is lattice


@pytest.mark.parametrize("seed", [2164, 2180])
def test_a_lattice_over_a_board_and_its_pages_grid_keeps_the_board(seed: int) -> None:
    """Tuning-side boards of glowing cells (the scored side stays unseen) on a dark page ruled
    by a faint grid on nearly the boards' pitch: their lattices ran on over rows and columns
    of the page's squares (7x10 read 9x13; 3x9 read 7x14), as dark as their unlit cells."""
    scene = wild_scene(seed, "glow-on-grid")
    found = locate_board(scene.image)
    assert (found.rows, found.cols) == scene.cells.shape
    diagonal = float(np.linalg.norm(scene.corners[2] - scene.corners[0]))
    assert np.linalg.norm(found.corners - scene.corners, axis=1).mean() < 0.01 * diagonal
