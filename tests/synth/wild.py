"""Looks made up at random: boards drawn the way no fixed look of the renderer draws them.

``wild_scene(seed, family)`` draws a random board in a look invented from ``seed``: its
colours, tile shape, gap, bevel and glow, glyph shape and placement, the page (flat, graded,
with a faint grid of its own), the window or phone around it and the HUD (title, buttons,
score).  It exists so that the reader can be tuned on some looks and scored on others it never
met: ``benchmarks/unseen_looks.py`` keeps the split (seeds divisible by four are the tuning
side).

Families (``FAMILIES``; ``PUZZLE_OF_FAMILY`` names the puzzle each draws):

* ``lights-tiles``: flat web boards of lit and unlit tiles of any hues (square, rounded or
  round; gapless or with gaps up to a quarter of the pitch; flat or bevelled); lit is the one
  that emits: lighter, or far more saturated, sometimes glowing onto the gap.
* ``lights-grey``: the same seen in grey (a single-channel capture); lit is the lighter.
* ``glow-on-grid``: glowing lit tiles on a dark page that has a faint grid of its own at
  another pitch.
* ``bw-grid-dots``: black and white cells between grid lines in a desktop window, some cells
  carrying a small marker (no state); lit is white.
* ``arrow-tiles``: light arrows on bevelled tiles of several colours (each tile's drawn from a
  small palette), arrow, chevron, triangle or line-arrow glyphs of random proportions, drawn a
  little off-centre; web and phone layouts, 3x5 up to 15x15.
* ``arrow-glyph-any``: any glyph colour on any plain tile colour, sometimes with a number or a
  dot in a corner of every tile.

Two more (``CHAIR_FAMILIES``, drawn by ``wild_chairs.py``) are the moon-legend puzzle (arrows:
0 up .. 3 left, the way the sitter faces, the backrest behind) as 3-D scenes of a made-up model,
3..9 cells a side:

* ``chairs-3d``: chairs (a seat box, a raised backrest bar, maybe legs, armrests, a cushion)
  seen from above by a camera tilted 10..40 degrees from vertical, on stone tiles (one a cell)
  inside a brick, slab or plain border; raised parts show parallax and their side faces.
* ``benches-grass``: benches (planks on legs, a backrest, maybe armrests) seen by a strategy
  game's camera (30..50 degrees from vertical) on grass with no tiles or grid lines, a resource
  bar above and a console with a minimap below.

Their ``corners`` are the floor-plane corners of the cell grid, projected; ``tilt`` warps the
finished screenshot as for the others.

One more (``SCENE_FAMILIES``, drawn by ``wild_floor.py``; ``ALL_FAMILIES`` names every family,
``FAMILIES`` the ones above, which the photo renderer draws from):

* ``lights-in-scene``: a block of lamps (round or square, in a socket or not, lit any hue and
  maybe glowing) let into a top-down game's floor of stone tiles that fills the view, one lamp
  a tile or one on every other grout crossing, with walls, props and a HUD around; 3..9 a side.

The truth is exact: ``corners`` are the outer edge of the cell grid (for gapless or framed
grids the outer edge of the cells, not of the frame), in the package's pixel-centre
convention.  The look comes from its own generators, independent of the cells, so the same
seed with other ``cells`` differs only where the cells do.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision_solver.errors import BoardInputError

from .canvas import _degrade, _tilt_homography
from .clutter import _draw_clutter
from .draw import _AA, Color, _fill_round_rect, _mix
from .scene import Rendered, _check_cells
from .themes import _Theme
from .wild_board import (
    Geo,
    _arrow_look,
    _delta_e,
    _glow_look,
    _grey,
    _grid_look,
    _hsv,
    _lights_look,
    _paint_arrows,
    _paint_glow,
    _paint_grid,
    _paint_lights,
    _round_box,
    _shift_value,
)
from .wild_chairs import CHAIR_FAMILIES, render_3d
from .wild_floor import SCENE_FAMILIES, render_floor

#: The families drawn flat on a screen (the grid an upright rectangle unless ``tilt`` warps it).
FLAT_FAMILIES = (
    "lights-tiles",
    "lights-grey",
    "glow-on-grid",
    "bw-grid-dots",
    "arrow-tiles",
    "arrow-glyph-any",
)
FAMILIES = FLAT_FAMILIES + CHAIR_FAMILIES
#: Every family ``wild_scene`` draws: those above and the boards set into a game's scene
#: (drawn by ``wild_floor.py``; kept out of FAMILIES, which the photo renderer draws from).
ALL_FAMILIES = FAMILIES + SCENE_FAMILIES
PUZZLE_OF_FAMILY = {
    f: "arrows" if f.startswith("arrow") or f in CHAIR_FAMILIES else "lights" for f in ALL_FAMILIES
}

_WEB = [(1280, 720), (1366, 768), (1440, 900), (1536, 864), (1600, 900), (1920, 1080)]
_PHONE = [(720, 1280), (750, 1334), (640, 1136), (720, 1520)]
_FONTS = [
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
]
_SITES = ["puzzles.example.com", "playgrid.io", "lamps.game", "arrowturn.app", "my-games.net"]


def wild_scene(
    seed: int,
    family: str,
    *,
    rows: int | None = None,
    cols: int | None = None,
    tilt: float = 0.0,
    cells: np.ndarray | None = None,
    jitter: bool = True,
) -> Rendered:
    """A random board in a look made up from ``seed`` (the same arguments, the same pixels).

    The board is 3..15 cells a side (3-D chairs 3..9, benches 3..7) unless ``rows`` / ``cols``
    are given, its cells random unless ``cells`` are (the look stays the one ``seed`` makes).
    ``tilt`` in 0..0.5 warps the screenshot by the renderer's perspective warp.
    ``jitter=False`` draws every glyph (object) at its cell's centre (no offsets); the look is
    otherwise the same.  Raises BoardInputError.
    """
    if family not in ALL_FAMILIES:
        raise BoardInputError(f"family must be one of {', '.join(ALL_FAMILIES)}, not {family!r}")
    if not isinstance(seed, int | np.integer) or seed < 0:
        raise BoardInputError(f"seed must be a whole number >= 0, not {seed!r}")
    if not 0.0 <= tilt <= 0.5:
        raise BoardInputError(f"tilt must be in 0..0.5, not {tilt}")
    for name, value in (("rows", rows), ("cols", cols)):
        if value is not None and not 1 <= value <= 40:
            raise BoardInputError(f"{name} must be in 1..40, not {value}")
    puzzle = PUZZLE_OF_FAMILY[family]

    def stream(k: int) -> np.random.Generator:
        return np.random.default_rng([int(seed), ALL_FAMILIES.index(family), k])

    size_rng, layout_rng, look_rng, paint_rng = stream(0), stream(1), stream(2), stream(3)
    hud_rng, cell_rng, finish_rng = stream(4), stream(5), stream(6)
    if family == "arrow-tiles":  # 3x5 up to 15x15
        a, b = int(size_rng.integers(3, 16)), int(size_rng.integers(5, 16))
        drawn = (a, b) if size_rng.random() < 0.5 else (b, a)
    elif family in CHAIR_FAMILIES:  # the moon legend's boards are small
        top = 10 if family == "chairs-3d" else 8
        drawn = int(size_rng.integers(3, top)), int(size_rng.integers(3, top))
    elif family in SCENE_FAMILIES:  # a block of lamps in a floor, 3x3 up to 9x9
        drawn = int(size_rng.integers(3, 10)), int(size_rng.integers(3, 10))
    else:
        drawn = int(size_rng.integers(3, 16)), int(size_rng.integers(3, 16))
    shape = (drawn[0] if rows is None else int(rows), drawn[1] if cols is None else int(cols))
    if cells is None:
        cells = cell_rng.integers(0, 4 if puzzle == "arrows" else 2, shape)
    else:
        cells = _check_cells(cells, puzzle)
        if cells.shape != shape and (rows, cols) != (None, None):
            raise BoardInputError(f"cells of shape {cells.shape} are not {rows}x{cols}")
    rows, cols = cells.shape
    if family in CHAIR_FAMILIES:
        image, corners = render_3d(family, cells, stream, jitter)
        return _finish(image, cells, corners, tilt, finish_rng, family, seed, 0.5)
    if family in SCENE_FAMILIES:
        image, corners = render_floor(cells, stream)
        return _finish(image, cells, corners, tilt, finish_rng, family, seed, 0.3)

    layout = _layout(family, layout_rng)
    width, height = _canvas(layout, layout_rng)
    dark = family == "glow-on-grid" or bool(look_rng.random() < 0.5)
    page = _hsv(
        look_rng.uniform(0, 360),
        look_rng.uniform(0, 0.45),
        look_rng.uniform(0.03, 0.14) if family == "glow-on-grid" else _value(look_rng, dark),
    )
    # the board's look first, then a page and a panel it stands out from
    if family in ("lights-tiles", "lights-grey"):
        look = _lights_look(look_rng, family == "lights-grey")
        tiles = [look.lit, look.unlit] if look.gap else []
    elif family == "glow-on-grid":
        look = _glow_look(look_rng, page)
        tiles = []
    elif family == "bw-grid-dots":
        look, tiles = None, []  # drawn once the pitch is known
    else:
        look = _arrow_look(look_rng, family, page, jitter)
        tiles = list(look.palette)
    grey = family == "lights-grey"
    page = _apart(page, [look.unlit] if family.startswith("lights") else tiles, grey)
    panel = None
    if family != "glow-on-grid" and family != "bw-grid-dots" and look_rng.random() < 0.5:
        step = float(look_rng.uniform(0.06, 0.2)) * (1 if _grey(page) < 128 else -1)
        panel = _shift_value(page, step)
        if not _far(panel, tiles, grey) or not _far(panel, [page], grey, 6):
            panel = None
    pad = float(look_rng.uniform(0.15, 0.6)) if panel is not None else 0.0
    pad += 0.35 if family == "glow-on-grid" or getattr(look, "glow", 0) else 0.0

    pad += 0.3 if family == "bw-grid-dots" else 0.0  # its frame

    image = np.empty((height, width, 3), np.uint8)
    _paint_page(image, page, look_rng)
    content = _chrome(image, layout, page, family, layout_rng)
    geo = _place(content, rows, cols, pad, family, layout_rng)
    if family == "glow-on-grid":  # under the page's bars, which are opaque
        x1, y1, x2, y2 = content
        _page_grid(image[y1:y2, x1:x2], page, geo.pitch, look_rng)
    if family == "bw-grid-dots":
        look = _grid_look(look_rng, geo.pitch)
    p = geo.pitch
    extent = (
        geo.gx - pad * p,
        geo.gy - pad * p,
        geo.gx + (cols + pad) * p,
        geo.gy + (rows + pad) * p,
    )
    if panel is not None:
        radius = float(look_rng.uniform(0, 0.8)) * pad * p
        _round_box(image, extent, radius, panel)

    if family in ("lights-tiles", "lights-grey"):
        _paint_lights(image, cells, geo, look)
    elif family == "glow-on-grid":
        _paint_glow(image, cells, geo, look)
    elif family == "bw-grid-dots":
        _paint_grid(image, cells, geo, look, paint_rng)
    else:
        _paint_arrows(image, cells, geo, look, paint_rng)

    _hud(image, content, extent, page, puzzle, hud_rng)
    image = _finish(image, cells, geo.corners(), tilt, finish_rng, family, seed, 0.2)
    if grey:  # a single-channel capture
        grey_image = cv2.cvtColor(cv2.cvtColor(image.image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        image = replace(image, image=grey_image)
    return image


def _finish(
    image: np.ndarray,
    cells: np.ndarray,
    corners: np.ndarray,
    tilt: float,
    finish_rng: np.random.Generator,
    family: str,
    seed: int,
    lossy: float,
) -> Rendered:
    """The screenshot warped by ``tilt`` and, ``lossy`` of the time, blurred, JPEG'd, noisy."""
    height, width = image.shape[:2]
    if tilt > 0:
        hom = _tilt_homography(finish_rng, corners, tilt, (width, height))
        surround = tuple(int(v) for v in finish_rng.integers(20, 60, 3))
        image = cv2.warpPerspective(
            image, hom, (width, height), flags=cv2.INTER_LINEAR, borderValue=surround
        )
        corners = cv2.perspectiveTransform(corners.reshape(1, 4, 2), hom).reshape(4, 2)
    if finish_rng.random() < lossy:  # a lossy capture: slight blur, JPEG, noise
        image = _degrade(image, float(finish_rng.uniform(1.0, 4.0)), finish_rng)
    puzzle = PUZZLE_OF_FAMILY[family]
    return Rendered(image, cells.astype(np.int64), corners, puzzle, f"{family}#{seed}")


# --- the page -----------------------------------------------------------------------------------


def _value(rng: np.random.Generator, dark: bool) -> float:
    return float(rng.uniform(0.05, 0.3) if dark else rng.uniform(0.72, 0.98))


def _far(colour: Color, others: list[Color], grey: bool, least: float = 12) -> bool:
    if grey:
        return all(abs(_grey(colour) - _grey(o)) >= least for o in others)
    return all(_delta_e(colour, o) >= least for o in others)


def _apart(page: Color, tiles: list[Color], grey: bool) -> Color:
    """The page moved in value (the least that does) until the tiles stand out from it."""
    for k in range(13):
        for step in (0.08 * k, -0.08 * k):
            moved = _shift_value(page, step)
            if _far(moved, tiles, grey):
                return moved
    return page


def _paint_page(image: np.ndarray, base: Color, rng: np.random.Generator) -> None:
    """A flat, linearly graded or vignetted page."""
    height, width = image.shape[:2]
    kind = rng.choice(["flat", "linear", "linear", "radial"])
    other = np.array(_hsv(rng.uniform(0, 360), rng.uniform(0, 0.5), rng.uniform(0, 1)), np.float32)
    towards = float(rng.uniform(0.08, 0.3))
    angle = rng.uniform(0, 2 * np.pi)
    base_f = np.array(base, np.float32)
    if kind == "flat":
        image[:] = base
        return
    small = (max(2, width // 8), max(2, height // 8))  # smooth: worked out small, then resized
    ys = np.linspace(-0.5, 0.5, small[1], dtype=np.float32)[:, None]
    xs = np.linspace(-0.5, 0.5, small[0], dtype=np.float32)[None, :]
    if kind == "linear":
        t = (xs * np.cos(angle) + ys * np.sin(angle)) + 0.5
    else:
        t = np.sqrt(xs**2 + ys**2) * 1.4
    t = cv2.resize(np.clip(t, 0, 1) * towards, (width, height), interpolation=cv2.INTER_LINEAR)
    for k in range(3):
        image[..., k] = np.clip(base_f[k] + (other[k] - base_f[k]) * t + 0.5, 0, 255)


def _page_grid(image: np.ndarray, page: Color, pitch: float, rng: np.random.Generator) -> None:
    """A faint grid of the page's own (lines, or dots at the crossings), not at ``pitch``."""
    height, width = image.shape[:2]
    while True:  # another pitch than the board's (nor half or twice it)
        step = int(rng.integers(14, 90))
        if min(abs(step / pitch - k) for k in (0.5, 1.0, 2.0)) >= 0.1:
            break
    shade = _shift_value(page, float(rng.uniform(0.04, 0.12)))
    if rng.random() < 0.4:
        shade = _mix(shade, _hsv(rng.uniform(0, 360), 0.8, 0.5), 0.25)
    ox, oy = int(rng.integers(step)), int(rng.integers(step))
    major = int(rng.choice([0, 4, 5]))
    dots = rng.random() < 0.25
    for i, x in enumerate(range(ox, width, step)):
        colour = _shift_value(shade, 0.08) if major and i % major == 0 else shade
        if not dots:
            cv2.line(image, (x, 0), (x, height - 1), colour, 1)
    for y in range(oy, height, step):
        if dots:
            for x in range(ox, width, step):
                cv2.circle(image, (x, y), 1, shade, -1, _AA)
        else:
            cv2.line(image, (0, y), (width - 1, y), shade, 1)


# --- layout: the window, browser or phone, and where the board goes -----------------------------


def _layout(family: str, rng: np.random.Generator) -> str:
    if family == "bw-grid-dots":
        return "desktop"
    phone = {"arrow-tiles": 0.45, "arrow-glyph-any": 0.35, "glow-on-grid": 0.2}.get(family, 0.25)
    return "phone" if rng.random() < phone else "web"


def _canvas(layout: str, rng: np.random.Generator) -> tuple[int, int]:
    sizes = _PHONE if layout == "phone" else _WEB
    return sizes[int(rng.integers(len(sizes)))]


def _text(image, text, org, scale, colour, font=cv2.FONT_HERSHEY_SIMPLEX, thick=1) -> None:
    cv2.putText(image, text, (int(org[0]), int(org[1])), font, scale, colour, thick, _AA)


def _ink_on(colour: Color) -> Color:
    return (30, 30, 30) if _grey(colour) > 140 else (235, 235, 235)


def _chrome(
    image: np.ndarray, layout: str, page: Color, family: str, rng: np.random.Generator
) -> tuple[int, int, int, int]:
    """Browser bars, a phone's status bar or a desktop window; returns the content box."""
    height, width = image.shape[:2]
    x1, y1, x2, y2 = 0, 0, width, height
    if layout == "phone":
        bar = int(rng.integers(26, 50))
        if rng.random() < 0.5:
            image[:bar] = _shift_value(page, 0.1 if _grey(page) < 128 else -0.1)
        ink = _ink_on(page)
        _text(
            image,
            f"{int(rng.integers(1, 13))}:{int(rng.integers(60)):02d}",
            (18, bar * 0.7),
            0.6,
            ink,
        )
        bx = width - 60
        cv2.rectangle(image, (bx, bar // 3), (bx + 30, bar * 2 // 3), ink, 1)
        cv2.rectangle(
            image,
            (bx + 2, bar // 3 + 2),
            (bx + int(rng.integers(6, 28)), bar * 2 // 3 - 2),
            ink,
            -1,
        )
        for i in range(4):
            cv2.rectangle(
                image,
                (bx - 40 + 6 * i, bar * 2 // 3 - 3 * i - 3),
                (bx - 36 + 6 * i, bar * 2 // 3),
                ink,
                -1,
            )
        y1 = bar
        if rng.random() < 0.6:  # the home indicator
            cv2.rectangle(
                image, (width // 2 - 70, height - 18), (width // 2 + 70, height - 12), ink, -1
            )
            y2 = height - 30
        return x1, y1, x2, y2
    if layout == "desktop":
        if rng.random() < 0.6:  # a taskbar
            task = int(rng.integers(30, 48))
            image[height - task :] = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.4), 0.15)
            for i in range(int(rng.integers(3, 9))):
                x = 12 + i * (task + 8)
                colour = _hsv(rng.uniform(0, 360), 0.6, 0.8)
                cv2.rectangle(
                    image, (x, height - task + 6), (x + task - 12, height - 7), colour, -1
                )
            y2 = height - task
        x1 = int(rng.integers(10, 160))
        y1 = int(rng.integers(10, 80))
        x2 = width - int(rng.integers(10, 160))
        y2 = y2 - int(rng.integers(10, 60))
        title_h = int(rng.integers(24, 34))
        frame = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.6), rng.uniform(0.3, 0.9))
        client = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.1), rng.uniform(0.82, 0.97))
        cv2.rectangle(image, (x1 - 1, y1 - 1), (x2, y2), (40, 40, 40), 1)
        image[y1 : y1 + title_h, x1:x2] = frame
        image[y1 + title_h : y2, x1:x2] = client
        ink = _ink_on(frame)
        name = str(rng.choice(["Flip", "Lights Out", "Inverter", "Lamps", "Toggle"]))
        mac = rng.random() < 0.4
        _text(image, name, (x1 + (80 if mac else 34), y1 + title_h * 0.7), 0.55, ink)
        for i in range(3):
            if mac:
                colour = [(80, 90, 255), (60, 200, 255), (80, 200, 90)][i]
                cv2.circle(image, (x1 + 16 + 20 * i, y1 + title_h // 2), 6, colour, -1, _AA)
            else:
                bx = x2 - 34 * (i + 1)
                cv2.rectangle(image, (bx + 10, y1 + 8), (bx + 22, y1 + title_h - 8), ink, 1)
        if rng.random() < 0.7:  # a status bar
            status = int(rng.integers(20, 28))
            image[y2 - status : y2, x1:x2] = _shift_value(client, -0.08)
            _text(
                image,
                f"Moves: {int(rng.integers(0, 60))}",
                (x1 + 8, y2 - status * 0.3),
                0.45,
                (40, 40, 40),
            )
            y2 -= status
        return x1, y1 + title_h, x2, y2
    if rng.random() < 0.35:  # a browser's tab strip and address bar
        strip = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.15), rng.choice([0.2, 0.85]))
        image[:76] = strip
        tab = _shift_value(strip, 0.15 if _grey(strip) < 128 else 0.5)
        _fill_round_rect(image, (70, 6, 330, 40), 8, tab)
        _text(
            image,
            "Puzzle - " + str(rng.choice(["Lights", "Arrows", "Daily"])),
            (86, 28),
            0.45,
            _ink_on(tab),
        )
        _fill_round_rect(image, (110, 44, width - 120, 70), 12, tab)
        _text(image, "https://" + str(rng.choice(_SITES)) + "/play", (130, 62), 0.45, _ink_on(tab))
        for i in range(3):
            cv2.circle(image, (22 + 28 * i, 57), 8, _ink_on(strip), 1, _AA)
        y1 = 76
    if rng.random() < 0.6:  # the site's own header
        head = int(rng.integers(44, 72))
        colour = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.8), rng.uniform(0.15, 0.9))
        image[y1 : y1 + head] = colour
        ink = _ink_on(colour)
        _text(
            image,
            str(rng.choice(["PuzzleHub", "GRIDS", "brainy", "Playroom"])),
            (24, y1 + head * 0.65),
            0.9,
            ink,
            cv2.FONT_HERSHEY_DUPLEX,
            2,
        )
        for i, word in enumerate(["Games", "Daily", "Scores", "Sign in"]):
            _text(image, word, (width - 420 + 100 * i, y1 + head * 0.62), 0.5, ink)
        y1 += head
    if rng.random() < 0.3:  # a sidebar with an ad and links
        side = int(rng.integers(160, 300))
        left = rng.random() < 0.5
        sx1, sx2 = (0, side) if left else (width - side, width)
        shade = _shift_value(page, -0.06 if _grey(page) > 128 else 0.06)
        image[y1:y2, sx1:sx2] = shade
        ad = _hsv(rng.uniform(0, 360), rng.uniform(0.2, 0.8), rng.uniform(0.4, 0.95))
        cv2.rectangle(image, (sx1 + 16, y1 + 20), (sx2 - 16, y1 + 20 + side), ad, -1)
        _text(image, "Advertisement", (sx1 + 24, y1 + 40), 0.45, _ink_on(ad))
        for i in range(int(rng.integers(3, 8))):
            y = y1 + side + 50 + 26 * i
            if y < y2 - 10:
                w = int(rng.integers(40, side - 40))
                cv2.rectangle(image, (sx1 + 16, y), (sx1 + 16 + w, y + 8), _ink_on(shade), -1)
        x1, x2 = (side, width) if left else (0, width - side)
    if rng.random() < 0.4:  # a footer line
        foot = int(rng.integers(28, 48))
        _text(
            image,
            "(c) 2024 " + str(rng.choice(_SITES)) + "  |  Privacy  |  About",
            (x1 + 20, y2 - foot * 0.35),
            0.45,
            _mix(_ink_on(page), page, 0.3),
        )
        y2 -= foot
    return x1, y1, x2, y2


def _place(
    content: tuple[int, int, int, int],
    rows: int,
    cols: int,
    pad: float,
    family: str,
    rng: np.random.Generator,
) -> Geo:
    """The board's pitch and place in the content box, leaving room for the HUD."""
    x1, y1, x2, y2 = content
    top, bottom = int(rng.integers(40, 120)), int(rng.integers(40, 120))
    left, right = int(rng.integers(16, 60)), int(rng.integers(16, 60))
    room_w, room_h = x2 - x1 - left - right, y2 - y1 - top - bottom
    most = min(room_w / (cols + 2 * pad), room_h / (rows + 2 * pad), 110.0)
    least = 22.0 if family.startswith("arrow") else 14.0
    if most < 10:
        raise BoardInputError(f"a {rows}x{cols} board does not fit on the canvas")
    fill = float(rng.uniform(0.8, 1.0) if x2 - x1 < y2 - y1 else rng.uniform(0.5, 1.0))
    pitch = max(min(least, most), most * fill)  # phones fill their width
    if rng.random() < 0.7:
        pitch = float(np.floor(pitch))
    span_w, span_h = pitch * (cols + 2 * pad), pitch * (rows + 2 * pad)
    free_x, free_y = room_w - span_w, room_h - span_h
    fx = 0.5 if rng.random() < 0.5 else float(rng.uniform(0, 1))
    fy = 0.5 if rng.random() < 0.4 else float(rng.uniform(0, 1))
    gx = x1 + left + fx * free_x + pad * pitch
    gy = y1 + top + fy * free_y + pad * pitch
    if rng.random() < 0.7:  # on a pixel's edge
        gx, gy = np.floor(gx) - 0.5, np.floor(gy) - 0.5
    return Geo(float(gx), float(gy), pitch, rows, cols)


def _hud(
    image: np.ndarray,
    content: tuple[int, int, int, int],
    extent: tuple[float, float, float, float],
    page: Color,
    puzzle: str,
    rng: np.random.Generator,
) -> None:
    """Title, buttons and a score line around the board, in a theme made up here."""
    x1, y1, x2, y2 = content
    ink = _ink_on(page)
    if rng.random() < 0.4:
        ink = _mix(ink, _hsv(rng.uniform(0, 360), 0.9, 0.9), 0.4)
    button = _hsv(rng.uniform(0, 360), rng.uniform(0.2, 0.9), rng.uniform(0.35, 0.9))
    bar = _shift_value(page, 0.08 if _grey(page) < 128 else -0.08)
    theme = _Theme(
        background=page,
        bar=bar,
        bar_text=_ink_on(bar),
        text=ink,
        button=button,
        button_text=_ink_on(button),
        font=_FONTS[int(rng.integers(len(_FONTS)))],
        button_style="round",
    )
    if rng.random() < 0.2:  # outlined buttons, in the text's colour
        theme = replace(theme, button_style="box", button_text=ink)
    if rng.random() < 0.5:  # menu words on the page itself, no bar
        theme = replace(theme, bar=page, bar_text=_ink_on(page))
    keep = (
        int(np.floor(extent[0])) - x1 - 2,
        int(np.floor(extent[1])) - y1 - 2,
        int(np.ceil(extent[2])) - x1 + 2,
        int(np.ceil(extent[3])) - y1 + 2,
    )
    _draw_clutter(image[y1:y2, x1:x2], keep, theme, puzzle, rng)
