"""The boards of the made-up looks (``wild.py``): colours, tiles, glows, glyphs, grids.

Everything here draws in the package's pixel-centre convention with float coordinates: a cell
of the grid whose outer edge starts at ``(gx, gy)`` spans ``gx + c * pitch .. gx + (c + 1) *
pitch``.  Shapes land on those edges exactly: boxes, rounded or round, are drawn by their
coverage of each pixel (worked out from their distance field), other shapes sampled 4 x 4 per
pixel.  (OpenCV's anti-aliased polygons, which the fixed looks use, ignore a vertex's
fractional y and grow by most of a pixel.)

A look is drawn from its own generator before any cell is looked at, and nothing drawn per
cell depends on the cell's state, so the same look with other cells differs only where the
cells differ.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .draw import _AA, Color, _mix, _scale, _text_size

_WHITE: Color = (255, 255, 255)
_BLACK: Color = (0, 0, 0)


# --- colours ---------------------------------------------------------------------------------


def _hsv(hue: float, saturation: float, value: float) -> Color:
    """A BGR colour from hue (degrees), saturation and value (0..1)."""
    pixel = np.array(
        [[[(hue % 360) / 2, np.clip(saturation, 0, 1) * 255, np.clip(value, 0, 1) * 255]]],
        np.float32,
    ).round()
    pixel[..., 0] %= 180
    b, g, r = cv2.cvtColor(pixel.astype(np.uint8), cv2.COLOR_HSV2BGR)[0, 0].tolist()
    return int(b), int(g), int(r)


def _sat_val(colour: Color) -> tuple[float, float]:
    """Saturation and value (0..1) of a BGR colour."""
    _, s, v = cv2.cvtColor(np.uint8([[colour]]), cv2.COLOR_BGR2HSV)[0, 0].tolist()
    return s / 255, v / 255


def _grey(colour: Color) -> int:
    """The grey level (0..255) a BGR colour turns into."""
    return int(cv2.cvtColor(np.uint8([[colour]]), cv2.COLOR_BGR2GRAY)[0, 0])


def _delta_e(a: Color, b: Color) -> float:
    """CIE76 colour difference of two BGR colours."""
    lab = cv2.cvtColor(np.uint8([[a, b]]), cv2.COLOR_BGR2LAB).astype(np.float64)[0]
    lab[:, 0] *= 100 / 255
    return float(np.linalg.norm(lab[0] - lab[1]))


def _shift_value(colour: Color, amount: float) -> Color:
    """The colour made lighter (amount > 0) or darker (< 0), amount in 0..1 of the way."""
    return _mix(colour, _WHITE, amount) if amount > 0 else _scale(colour, 1 + amount)


# --- geometry ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Geo:
    """Where the cell grid lies: outer edge at (gx, gy), square cells of ``pitch`` pixels."""

    gx: float
    gy: float
    pitch: float
    rows: int
    cols: int

    def cell(self, r: int, c: int, inset: float = 0.0) -> tuple[float, float, float, float]:
        """Edges (x1, y1, x2, y2) of cell (r, c) moved in by ``inset`` pixels."""
        x, y = self.gx + c * self.pitch, self.gy + r * self.pitch
        return x + inset, y + inset, x + self.pitch - inset, y + self.pitch - inset

    def centre(self, r: int, c: int) -> tuple[float, float]:
        return self.gx + (c + 0.5) * self.pitch, self.gy + (r + 0.5) * self.pitch

    def corners(self) -> np.ndarray:
        x2, y2 = self.gx + self.cols * self.pitch, self.gy + self.rows * self.pitch
        return np.array([[self.gx, self.gy], [x2, self.gy], [x2, y2], [self.gx, y2]], np.float64)


def _blend(img: np.ndarray, xa: int, ya: int, cover: np.ndarray, colour: Color) -> None:
    """Mix ``colour`` into the image at (xa, ya) by the coverage ``cover`` (0..1)."""
    h, w = cover.shape
    roi = img[ya : ya + h, xa : xa + w].astype(np.float32)
    roi += (np.float32(colour) - roi) * cover[..., None]
    img[ya : ya + h, xa : xa + w] = np.rint(roi).astype(np.uint8)


def _span(lo: float, hi: float, size: int) -> tuple[int, int]:
    """The pixels (first, past-last) that the interval lo..hi may touch, on the image."""
    return max(0, int(np.floor(lo + 0.5))), min(size, int(np.ceil(hi - 0.5)) + 1)


def _round_box(img: np.ndarray, box, radius: float, colour: Color) -> None:
    """A filled box (x1, y1, x2, y2 edges), its corners rounded by ``radius`` px, exact."""
    x1, y1, x2, y2 = box
    if x2 - x1 <= 0 or y2 - y1 <= 0:
        return
    (xa, xb), (ya, yb) = _span(x1, x2, img.shape[1]), _span(y1, y2, img.shape[0])
    if xa >= xb or ya >= yb:
        return
    xs = np.arange(xa, xb, dtype=np.float32)
    ys = np.arange(ya, yb, dtype=np.float32)[:, None]
    r = float(np.clip(radius, 0, min(x2 - x1, y2 - y1) / 2))
    if r < 0.25:  # a plain box: each pixel's overlap with it, per axis
        cover_x = np.clip(np.minimum(xs + 0.5, x2) - np.maximum(xs - 0.5, x1), 0, 1)
        cover_y = np.clip(np.minimum(ys + 0.5, y2) - np.maximum(ys - 0.5, y1), 0, 1)
        _blend(img, xa, ya, cover_y * cover_x, colour)
        return
    qx = np.abs(xs - (x1 + x2) / 2) - ((x2 - x1) / 2 - r)
    qy = np.abs(ys - (y1 + y2) / 2) - ((y2 - y1) / 2 - r)
    outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0))
    distance = outside + np.minimum(np.maximum(qx, qy), 0) - r
    _blend(img, xa, ya, np.clip(0.5 - distance, 0, 1), colour)


def _shape(img: np.ndarray, shapes: list[np.ndarray], colour: Color, width: float = 0) -> None:
    """Filled polygons (``width`` 0) or polylines ``width`` px wide, by their distance field."""
    every = np.concatenate(shapes)
    grow = width / 2 + 1
    xa, xb = _span(every[:, 0].min() - grow, every[:, 0].max() + grow, img.shape[1])
    ya, yb = _span(every[:, 1].min() - grow, every[:, 1].max() + grow, img.shape[0])
    if xa >= xb or ya >= yb:
        return
    px = np.arange(xa, xb, dtype=np.float64)[None, :]
    py = np.arange(ya, yb, dtype=np.float64)[:, None]
    signed = np.full((yb - ya, xb - xa), np.inf)
    for points in shapes:
        ends = points if width else np.vstack([points, points[:1]])
        distance = np.full(signed.shape, np.inf)
        inside = np.zeros(signed.shape, bool)
        for (ax, ay), (bx, by) in zip(ends[:-1], ends[1:], strict=True):
            dx, dy = bx - ax, by - ay
            t = np.clip(((px - ax) * dx + (py - ay) * dy) / max(dx * dx + dy * dy, 1e-12), 0, 1)
            distance = np.minimum(distance, np.hypot(px - ax - t * dx, py - ay - t * dy))
            if not width:  # even-odd crossings of a ray to the right
                crosses = (ay > py) != (by > py)
                with np.errstate(divide="ignore", invalid="ignore"):
                    x_at = ax + (py - ay) * dx / (by - ay)
                inside ^= crosses & (px < x_at)
        signed = np.minimum(
            signed, distance - width / 2 if width else np.where(inside, -distance, distance)
        )
    _blend(img, xa, ya, np.clip(0.5 - signed, 0, 1).astype(np.float32), colour)


def _inset(box, d: float, bottom: float | None = None, right: float | None = None):
    """A box moved in by ``d`` px (out when negative); its right and bottom by their own."""
    x1, y1, x2, y2 = box
    right = d if right is None else right
    return x1 + d, y1 + d, x2 - right, y2 - (d if bottom is None else bottom)


# --- tiles ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TileStyle:
    """How a tile is shaped and shaded; radius and depth are fractions of the tile's side."""

    radius: float  # 0 square .. 0.5 circle
    bevel: str  # "flat", "bevel", "shadow", "ring" or "gloss"
    depth: float


def _tile_style(rng: np.random.Generator, bevels: tuple[str, ...]) -> TileStyle:
    shape = rng.choice(["square", "rounded", "rounded", "circle"])
    radius = {"square": 0.0, "circle": 0.5}.get(str(shape), float(rng.uniform(0.06, 0.32)))
    return TileStyle(radius, str(rng.choice(bevels)), float(rng.uniform(0.06, 0.14)))


def _draw_tile(img: np.ndarray, box, style: TileStyle, face: Color) -> tuple[float, float]:
    """Draw one tile filling ``box``; returns the centre of its face."""
    side = min(box[2] - box[0], box[3] - box[1])
    r = style.radius * side
    d = max(1.0, style.depth * side)
    if style.bevel == "bevel":
        _round_box(img, box, r, _scale(face, 0.55))
        _round_box(img, _inset(box, 0, bottom=d, right=d), r, _mix(face, _WHITE, 0.45))
        _round_box(img, _inset(box, d), max(0.0, r - d), face)
    elif style.bevel == "shadow":
        _round_box(img, (box[0], box[1] + d, box[2], box[3]), r, _scale(face, 0.6))
        _round_box(img, (box[0], box[1], box[2], box[3] - d), r, face)
        return (box[0] + box[2]) / 2, (box[1] + box[3] - d) / 2
    elif style.bevel == "ring":
        _round_box(img, box, r, _shift_value(face, 0.35 if _grey(face) < 128 else -0.3))
        _round_box(img, _inset(box, d * 0.7), max(0.0, r - d * 0.7), face)
    elif style.bevel == "gloss":
        _round_box(img, box, r, face)
        x1, y1, x2, y2 = _inset(box, d * 0.6)
        _round_box(img, (x1, y1, x2, (y1 + y2) / 2), max(0.0, r - d), _mix(face, _WHITE, 0.22))
    else:
        _round_box(img, box, r, face)
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _add_glow(img: np.ndarray, boxes: list, radius: float, colour: Color, sigma: float, k: float):
    """Add a soft glow of ``colour`` around the given tiles (screen blend, strength ``k``)."""
    if not boxes:
        return
    pad = int(4 * sigma) + 2
    xs = [b[0] for b in boxes] + [b[2] for b in boxes]
    ys = [b[1] for b in boxes] + [b[3] for b in boxes]
    h, w = img.shape[:2]
    xa, ya = max(0, int(min(xs)) - pad), max(0, int(min(ys)) - pad)
    xb, yb = min(w, int(max(xs)) + pad + 2), min(h, int(max(ys)) + pad + 2)
    if xb <= xa or yb <= ya:
        return
    layer = np.zeros((yb - ya, xb - xa, 3), np.uint8)
    for box in boxes:
        _round_box(layer, (box[0] - xa, box[1] - ya, box[2] - xa, box[3] - ya), radius, colour)
    glow = cv2.GaussianBlur(layer.astype(np.float32), (0, 0), sigma) * (k / 255)
    roi = img[ya:yb, xa:xb].astype(np.float32)
    img[ya:yb, xa:xb] = np.clip(255 - (255 - roi) * (1 - glow), 0, 255).astype(np.uint8)


# --- lights: tiles of any hue -------------------------------------------------------------------


@dataclass(frozen=True)
class LightsLook:
    lit: Color
    unlit: Color
    style: TileStyle
    gap: float  # fraction of the pitch
    grow: float  # lit tiles this much larger (fraction of the tile)
    core: bool  # a lighter core in lit tiles
    glow: float  # glow strength, 0 for none
    glow_sigma: float  # fraction of the pitch
    seams: Color | None  # thin lines between gapless tiles


def _lights_colours(rng: np.random.Generator, grey: bool) -> tuple[Color, Color]:
    """Lit and unlit colours: lit emits (lighter, and/or far more saturated)."""
    while True:
        hue = rng.uniform(0, 360)
        lit = _hsv(hue, rng.uniform(0.35, 1.0), rng.uniform(0.78, 1.0))
        lit_s, lit_v = _sat_val(lit)
        mode = rng.choice(["dim", "dim", "pale", "other"])
        if mode == "dim":  # the same or another hue, much darker
            other = hue if rng.random() < 0.5 else rng.uniform(0, 360)
            unlit = _hsv(other, rng.uniform(0, 0.8), lit_v * rng.uniform(0.15, 0.55))
        elif mode == "pale":  # a pale grey-ish tile, lit the saturated one
            unlit = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.12), rng.uniform(0.55, 0.95))
        else:  # another hue, less saturated and darker
            unlit = _hsv(
                rng.uniform(0, 360),
                lit_s * rng.uniform(0.0, 0.6),
                lit_v * rng.uniform(0.35, 0.8),
            )
        un_s, un_v = _sat_val(unlit)
        emits = lit_v - un_v >= 0.2 or (lit_s - un_s >= 0.4 and lit_v >= un_v - 0.1)
        if grey:
            emits = _grey(lit) >= _grey(unlit) + 40
        if emits and _delta_e(lit, unlit) >= 30:
            return lit, unlit


def _lights_look(rng: np.random.Generator, grey: bool) -> LightsLook:
    lit, unlit = _lights_colours(rng, grey)
    gap = 0.0 if rng.random() < 0.15 else float(rng.uniform(0.02, 0.25))
    style = _tile_style(rng, ("flat", "flat", "bevel", "shadow", "ring", "gloss"))
    if gap == 0:
        style = TileStyle(0.0, str(rng.choice(["flat", "flat", "bevel"])), style.depth)
    seams = _scale(unlit, 0.6) if gap == 0 and rng.random() < 0.5 else None
    grow = float(rng.uniform(0.0, 0.06)) if gap > 0.1 and rng.random() < 0.3 else 0.0
    glow = float(rng.uniform(0.35, 0.8)) if gap > 0 and rng.random() < 0.4 else 0.0
    core = bool(rng.random() < 0.3)
    return LightsLook(
        lit, unlit, style, gap, grow, core, glow, float(rng.uniform(0.05, 0.14)), seams
    )


def _paint_lights(img: np.ndarray, cells: np.ndarray, geo: Geo, look: LightsLook) -> None:
    p = geo.pitch
    half_gap = look.gap * p / 2
    boxes = {}
    for (r, c), state in np.ndenumerate(cells):
        box = geo.cell(r, c, half_gap)
        if state and look.grow:
            box = _inset(box, -look.grow * (box[2] - box[0]) / 2)
        boxes[r, c] = box
    side = p - 2 * half_gap
    if look.glow:
        lit_boxes = [boxes[rc] for rc, state in np.ndenumerate(cells) if state]
        _add_glow(
            img, lit_boxes, look.style.radius * side, look.lit, look.glow_sigma * p, look.glow
        )
    for (r, c), state in np.ndenumerate(cells):
        box = boxes[r, c]
        face = look.lit if state else look.unlit
        _draw_tile(img, box, look.style, face)
        if state and look.core:
            core = _inset(box, 0.28 * (box[2] - box[0]))
            _round_box(img, core, look.style.radius * side * 0.45, _mix(face, _WHITE, 0.35))
    if look.seams is not None:
        t = max(1.0, 0.04 * p)
        for k in range(1, geo.cols):
            x = geo.gx + k * p
            _round_box(img, (x - t / 2, geo.gy, x + t / 2, geo.gy + geo.rows * p), 0, look.seams)
        for k in range(1, geo.rows):
            y = geo.gy + k * p
            _round_box(img, (geo.gx, y - t / 2, geo.gx + geo.cols * p, y + t / 2), 0, look.seams)


# --- glowing boards on a gridded dark page -----------------------------------------------------


@dataclass(frozen=True)
class GlowLook:
    lit: Color
    unlit: Color
    rim: Color  # outline of an unlit tile
    radius: float
    gap: float
    glow: float
    glow_sigma: float
    neon: bool  # lit drawn as a bright outline around a tinted face


def _glow_look(rng: np.random.Generator, page: Color) -> GlowLook:
    hue = rng.uniform(0, 360)
    lit = _hsv(hue, rng.uniform(0.55, 1.0), 1.0)
    unlit = _shift_value(page, float(rng.uniform(0.03, 0.12)))
    rim_hue = hue if rng.random() < 0.6 else rng.uniform(0, 360)
    rim = _hsv(rim_hue, rng.uniform(0.2, 0.8), rng.uniform(0.28, 0.45))
    radius = float(rng.choice([0.0, rng.uniform(0.08, 0.3), 0.5]))
    return GlowLook(
        lit,
        unlit,
        rim,
        radius,
        float(rng.uniform(0.1, 0.28)),
        float(rng.uniform(0.55, 1.0)),
        float(rng.uniform(0.08, 0.2)),
        bool(rng.random() < 0.25),
    )


def _paint_glow(img: np.ndarray, cells: np.ndarray, geo: Geo, look: GlowLook) -> None:
    p = geo.pitch
    boxes = {rc: geo.cell(*rc, look.gap * p / 2) for rc, _ in np.ndenumerate(cells)}
    side = p * (1 - look.gap)
    r = look.radius * side
    rim = max(1.0, 0.06 * side)
    lit_boxes = [boxes[rc] for rc, state in np.ndenumerate(cells) if state]
    _add_glow(img, lit_boxes, r, look.lit, look.glow_sigma * p, look.glow)
    for rc, state in np.ndenumerate(cells):
        box = boxes[rc]
        if not state:
            _round_box(img, box, r, look.rim)
            _round_box(img, _inset(box, rim), max(0.0, r - rim), look.unlit)
        elif look.neon:
            _round_box(img, box, r, look.lit)
            _round_box(img, _inset(box, 1.6 * rim), max(0.0, r - 1.6 * rim), _scale(look.lit, 0.5))
        else:
            _round_box(img, box, r, look.lit)
            core = _inset(box, 0.22 * side)
            _round_box(img, core, max(0.0, r * 0.5), _mix(look.lit, _WHITE, 0.5))


# --- black-and-white grids with marker dots -----------------------------------------------------


@dataclass(frozen=True)
class GridLook:
    white: Color
    black: Color
    line: Color
    thick: float  # px, centred on the cell boundaries
    frame: float  # px, the outer line (>= thick), growing outwards
    marker: str  # "dot", "ring", "cross", "square"
    marker_colour: Color | None  # None: the opposite of the cell
    marker_size: float  # fraction of the pitch
    marker_at: str  # "centre" or "corner"
    marked: float  # share of the cells with a marker


def _grid_look(rng: np.random.Generator, pitch: float) -> GridLook:
    white = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.08), rng.uniform(0.9, 1.0))
    black = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.3), rng.uniform(0.0, 0.16))
    line = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.15), float(rng.uniform(0.3, 0.7)))
    if rng.random() < 0.25:
        line = black
    thick = float(max(1, round(rng.uniform(0.02, 0.08) * pitch)))
    frame = thick * float(rng.choice([1.0, 1.0, 2.0, 3.0]))
    marker_colour = None
    if rng.random() < 0.5:
        marker_colour = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.9), rng.uniform(0.4, 0.7))
    return GridLook(
        white,
        black,
        line,
        thick,
        frame,
        str(rng.choice(["dot", "ring", "cross", "square"])),
        marker_colour,
        float(rng.uniform(0.06, 0.13)),
        str(rng.choice(["centre", "centre", "corner"])),
        float(rng.uniform(0.1, 0.4)),
    )


def _paint_grid(
    img: np.ndarray, cells: np.ndarray, geo: Geo, look: GridLook, rng: np.random.Generator
) -> None:
    p = geo.pitch
    x1, y1 = geo.gx, geo.gy
    x2, y2 = x1 + geo.cols * p, y1 + geo.rows * p
    out = look.frame - look.thick / 2  # how far the frame reaches past the grid's edge
    _round_box(img, (x1 - out, y1 - out, x2 + out, y2 + out), 0, look.line)
    marks = rng.random(cells.shape) < look.marked  # drawn whatever the cells
    for (r, c), state in np.ndenumerate(cells):
        face = look.white if state else look.black
        _round_box(img, geo.cell(r, c, look.thick / 2), 0, face)
        if marks[r, c]:
            ink = look.marker_colour or (look.black if state else look.white)
            cx, cy = geo.centre(r, c)
            if look.marker_at == "corner":
                cx, cy = cx - 0.28 * p, cy - 0.28 * p
            _marker(img, look.marker, cx, cy, look.marker_size * p, ink, face)


def _marker(
    img: np.ndarray, kind: str, cx: float, cy: float, size: float, ink: Color, under: Color
) -> None:
    """A small dot, ring, square or cross of half-size ``size`` on a cell of colour ``under``."""
    box = (cx - size, cy - size, cx + size, cy + size)
    if kind in ("dot", "ring"):
        _round_box(img, box, size, ink)
        if kind == "ring":
            _round_box(img, _inset(box, size / 2.5), size - size / 2.5, under)
    elif kind == "square":
        _round_box(img, box, 0, ink)
    else:
        lines = [
            np.array([(cx - size, cy - k * size), (cx + size, cy + k * size)]) for k in (1, -1)
        ]
        _shape(img, lines, ink, max(1.0, size / 2.5))


# --- arrows -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Glyph:
    """An up-pointing glyph in a unit tile centred on (0, 0): filled polygons and strokes."""

    fills: tuple[np.ndarray, ...]
    strokes: tuple[np.ndarray, ...]
    stroke: float  # stroke width, fraction of the tile


def _glyph(rng: np.random.Generator) -> Glyph:
    kind = rng.choice(["arrow", "arrow", "chevron", "triangle", "stroked"])
    if kind == "triangle":
        half, top, bottom = (
            rng.uniform(0.18, 0.34),
            rng.uniform(-0.34, -0.2),
            rng.uniform(0.1, 0.28),
        )
        return Glyph((np.array([(0.0, top), (half, bottom), (-half, bottom)]),), (), 0.0)
    if kind == "chevron":
        half, top = rng.uniform(0.2, 0.33), rng.uniform(-0.28, -0.14)
        thick, drop = rng.uniform(0.08, 0.16), rng.uniform(0.2, 0.34)
        points = [(0, top), (half, top + drop), (half, top + drop + thick), (0, top + thick)]
        points += [(-half, top + drop + thick), (-half, top + drop)]
        return Glyph((np.array(points, np.float64),), (), 0.0)
    if kind == "stroked":  # a line arrow: a shaft and a caret
        head, tip, bottom = (
            rng.uniform(0.14, 0.26),
            rng.uniform(-0.34, -0.24),
            rng.uniform(0.2, 0.34),
        )
        caret = np.array([(-head, tip + head), (0.0, tip), (head, tip + head)])
        shaft = np.array([(0.0, tip + 0.02), (0.0, bottom)])
        return Glyph((), (caret, shaft), float(rng.uniform(0.05, 0.1)))
    shaft, head = rng.uniform(0.03, 0.12), rng.uniform(0.16, 0.34)
    head = max(head, shaft + 0.07)
    top, neck, bottom = rng.uniform(-0.38, -0.26), rng.uniform(-0.12, 0.04), rng.uniform(0.2, 0.38)
    points = [(0, top), (head, neck), (shaft, neck), (shaft, bottom), (-shaft, bottom)]
    points += [(-shaft, neck), (-head, neck)]
    return Glyph((np.array(points, np.float64),), (), 0.0)


def _turn(points: np.ndarray, direction: int) -> np.ndarray:
    """Points turned clockwise on screen by ``direction`` quarters: up -> right -> down -> left."""
    for _ in range(direction % 4):
        points = np.column_stack([-points[:, 1], points[:, 0]])
    return points


def _draw_glyph(
    img: np.ndarray, glyph: Glyph, centre, size: float, direction: int, ink: Color
) -> None:
    if glyph.fills:
        _shape(img, [np.asarray(centre) + _turn(p, direction) * size for p in glyph.fills], ink)
    if glyph.strokes:
        lines = [np.asarray(centre) + _turn(p, direction) * size for p in glyph.strokes]
        _shape(img, lines, ink, max(1.0, glyph.stroke * size))


@dataclass(frozen=True)
class ArrowLook:
    palette: tuple[Color, ...]  # tile colours, one drawn for each tile
    ink: Color
    glyph: Glyph
    scale: float  # glyph size, fraction of the tile
    style: TileStyle
    gap: float
    offset: tuple[float, float]  # the glyph's offset from the tile's centre, fraction of the tile
    wobble: float  # each tile's own extra offset (at most), fraction of the tile
    shadow: bool  # a dark drop shadow under the glyph
    corner: str  # "" or "dot" or "number": a mark in a corner of every tile
    corner_at: int  # which corner: 0 TL, 1 TR, 2 BR, 3 BL
    corner_ink: Color


def _arrow_look(
    rng: np.random.Generator, family: str, background: Color, jitter: bool
) -> ArrowLook:
    def far_from_background(colour: Color) -> bool:
        return _delta_e(colour, background) >= 14

    if family == "arrow-tiles":
        palette, wanted = [], int(rng.integers(2, 6))
        while len(palette) < wanted:
            tile = _hsv(rng.uniform(0, 360), rng.uniform(0.35, 0.95), rng.uniform(0.3, 0.78))
            if far_from_background(tile):
                palette.append(tile)
        ink = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.12), rng.uniform(0.93, 1.0))
        style = _tile_style(rng, ("bevel", "shadow", "shadow", "gloss", "ring"))
        shadow, corner = bool(rng.random() < 0.3), ""
    else:
        while True:
            tile = _hsv(rng.uniform(0, 360), rng.uniform(0, 1), rng.uniform(0.1, 1))
            ink = _hsv(rng.uniform(0, 360), rng.uniform(0, 1), rng.uniform(0, 1))
            legible = _delta_e(tile, ink) >= 45 and abs(_grey(tile) - _grey(ink)) >= 40
            if far_from_background(tile) and legible:
                break
        palette = [tile]
        if rng.random() < 0.2:  # a second tile colour, as near the ink as the first
            second = _hsv(rng.uniform(0, 360), *_sat_val(tile))
            legible = _delta_e(second, ink) >= 45 and abs(_grey(second) - _grey(ink)) >= 40
            if legible and far_from_background(second):
                palette.append(second)
        style = TileStyle(float(rng.choice([0.0, rng.uniform(0.05, 0.3), 0.5])), "flat", 0.1)
        shadow, corner = False, str(rng.choice(["", "", "dot", "number"]))
    corner_ink = _mix(ink, palette[0], float(rng.uniform(0.0, 0.4)))
    offset = rng.uniform(-0.06, 0.06, 2) * jitter  # drawn either way: the same look
    return ArrowLook(
        tuple(palette),
        ink,
        _glyph(rng),
        float(rng.uniform(0.75, 1.0) * (0.8 if corner else 1.0)),
        style,
        float(rng.uniform(0.04, 0.2)),
        (float(offset[0]), float(offset[1])),
        0.02 if jitter else 0.0,
        shadow,
        corner,
        int(rng.integers(4)),
        corner_ink,
    )


def _paint_arrows(
    img: np.ndarray, cells: np.ndarray, geo: Geo, look: ArrowLook, rng: np.random.Generator
) -> None:
    p = geo.pitch
    half_gap = look.gap * p / 2
    side = p - 2 * half_gap
    colours = rng.integers(len(look.palette), size=cells.shape)  # drawn whatever the cells
    wobble = rng.uniform(-look.wobble, look.wobble, (*cells.shape, 2)) if look.wobble else None
    font = cv2.FONT_HERSHEY_SIMPLEX
    _, text_h, _ = _text_size("8", font, 1.0, 1)
    text_scale = 0.16 * side / text_h
    for (r, c), direction in np.ndenumerate(cells):
        box = geo.cell(r, c, half_gap)
        tile = look.palette[colours[r, c]]
        cx, cy = _draw_tile(img, box, look.style, tile)
        dx, dy = look.offset
        if wobble is not None:
            dx, dy = dx + wobble[r, c, 0], dy + wobble[r, c, 1]
        centre = (cx + dx * side, cy + dy * side)
        if look.shadow:
            drop = (centre[0] + 0.03 * side, centre[1] + 0.04 * side)
            _draw_glyph(
                img, look.glyph, drop, look.scale * side, int(direction), _scale(tile, 0.55)
            )
        _draw_glyph(img, look.glyph, centre, look.scale * side, int(direction), look.ink)
        if look.corner:
            sx = -1 if look.corner_at in (0, 3) else 1
            sy = -1 if look.corner_at in (0, 1) else 1
            edge = (0.5 - 0.08 - look.style.radius * 0.25) * side  # from the centre
            if look.corner == "dot":
                inner = edge - 0.06 * side
                mx, my = cx + sx * inner, cy + sy * inner
                _marker(img, "dot", mx, my, 0.05 * side, look.corner_ink, tile)
            else:
                label = str(r * geo.cols + c + 1)
                w, h, _ = _text_size(label, font, text_scale, 1)
                left = cx - edge if sx < 0 else cx + edge - w
                base = cy - edge + h if sy < 0 else cy + edge
                org = (int(round(left)), int(round(base)))
                cv2.putText(img, label, org, font, text_scale, look.corner_ink, 1, _AA)
