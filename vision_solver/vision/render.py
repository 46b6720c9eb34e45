"""Synthetic puzzle screenshots with known ground truth.

The renderer draws a board of "Lights Out" cells (lit / dark) or of arrows (up, right, down,
left) in one of several *looks* that imitate how different games draw such boards, optionally
surrounded by unrelated user-interface clutter, warped by a perspective homography (as if the
screen had been photographed) and degraded by blur, JPEG artefacts and pixel noise.  Everything
is drawn procedurally with numpy and OpenCV from a seeded generator, so the same arguments always
give a byte-identical image.

Coordinates follow the OpenCV convention: the centre of pixel ``(x, y)`` sits at the integer
point ``(x, y)``, so a board whose cells cover pixel columns ``x0 .. x0 + w - 1`` has its outer
edge at ``x0 - 0.5`` and ``x0 + w - 0.5``.  ``Rendered.corners`` is given in this convention,
which is also the one ``cv2.warpPerspective`` uses, so corners stay exact under a warp.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["LOOKS", "Rendered", "random_scene", "render_board"]

Color = tuple[int, int, int]
Rect = tuple[int, int, int, int]  # x1, y1, x2, y2 (inclusive pixel bounds)


@dataclass(frozen=True)
class Rendered:
    """One synthetic screenshot and its ground truth."""

    image: np.ndarray  # H x W x 3 uint8, BGR
    cells: np.ndarray  # (rows, cols) int64 states
    corners: np.ndarray  # (4, 2) float64 outer edge of the cell grid: TL, TR, BR, BL as (x, y)
    puzzle: str  # "lights" or "arrows"
    look: str  # key of LOOKS


LOOKS: dict[str, str] = {
    "flat-dark": "square flat tiles with gaps on a dark background; lit = bright colour, "
    "dark = mid grey",
    "flat-light": "light theme; off = light grey rounded tiles, lit = saturated blue and "
    "slightly larger",
    "bevel": "bevelled 3-D buttons on navy; lit = pale grey button, off = blue button",
    "round": "round buttons on a dark background; lit = glowing green, off = dark green",
    "gridlines": "cells separated by thick black grid lines; lit = a colour (the darker "
    "state), off = white",
    "terminal": "dark terminal screen; lit = gold blocks that merge with lit neighbours, "
    "off = near-black, a dot in every cell, thin grey frame",
    "numbered": "flat tiles showing their index number; lit = purple, off = white",
    "arrow-tiles": "arrows: dark round tiles on dark grey, each with a white chevron",
    "arrow-squares": "arrows: light square tiles, each with a dark filled arrow",
    "chairs": "arrows: wooden benches on perspective grass seen by a tilted camera; a "
    "bench faces the way its sitter looks",
}

_PUZZLE_OF_LOOK: dict[str, str] = {
    "flat-dark": "lights",
    "flat-light": "lights",
    "bevel": "lights",
    "round": "lights",
    "gridlines": "lights",
    "terminal": "lights",
    "numbered": "lights",
    "arrow-tiles": "arrows",
    "arrow-squares": "arrows",
    "chairs": "arrows",
}

_MAX_STATE: dict[str, int] = {"lights": 1, "arrows": 3}

_SHIFT = 4  # fractional bits for sub-pixel drawing
_ONE = 1 << _SHIFT
_AA = cv2.LINE_AA


class _DoesNotFit(ValueError):
    """The board (with its frame) does not fit on the requested canvas."""


# --------------------------------------------------------------------------------------------
# small drawing helpers
# --------------------------------------------------------------------------------------------


def _jitter(rng: np.random.Generator, color: Color, amount: int) -> Color:
    """A colour moved by up to ``amount`` per channel."""
    delta = rng.integers(-amount, amount + 1, size=3)
    return tuple(int(np.clip(c + d, 0, 255)) for c, d in zip(color, delta, strict=True))


def _mix(a: Color, b: Color, t: float) -> Color:
    """Linear blend from ``a`` (t=0) to ``b`` (t=1)."""
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b, strict=True))


def _scale(a: Color, k: float) -> Color:
    return tuple(int(np.clip(round(x * k), 0, 255)) for x in a)


def _fill_poly(img: np.ndarray, pts: np.ndarray | Sequence, color: Color) -> None:
    """Anti-aliased filled polygon from float pixel-centre coordinates."""
    p = np.round(np.asarray(pts, dtype=np.float64) * _ONE).astype(np.int32).reshape(-1, 1, 2)
    cv2.fillPoly(img, [p], color, _AA, _SHIFT)


def _round_rect_pts(x1: float, y1: float, x2: float, y2: float, r: float) -> np.ndarray:
    """Outline of a rounded rectangle whose edges lie on the given coordinates."""
    r = max(0.0, min(r, (x2 - x1) / 2, (y2 - y1) / 2))
    pts: list[tuple[float, float]] = []
    steps = max(2, int(r / 1.5) + 2)
    for cx, cy, start in (
        (x2 - r, y1 + r, -90.0),
        (x2 - r, y2 - r, 0.0),
        (x1 + r, y2 - r, 90.0),
        (x1 + r, y1 + r, 180.0),
    ):
        for t in np.linspace(start, start + 90.0, steps):
            a = math.radians(t)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(pts)


def _fill_round_rect(img: np.ndarray, box: Rect, r: float, color: Color) -> None:
    """Filled rounded rectangle covering the inclusive pixel box."""
    x1, y1, x2, y2 = box
    _fill_poly(img, _round_rect_pts(x1 - 0.5, y1 - 0.5, x2 + 0.5, y2 + 0.5, r), color)


def _rotate_dir(pts: np.ndarray, direction: int) -> np.ndarray:
    """Rotate shapes drawn pointing up so they point in ``direction`` (0 up, 1 right, ...).

    Image y grows downwards, so a quarter turn clockwise on screen maps (x, y) -> (-y, x).
    """
    out = np.asarray(pts, dtype=np.float64)
    for _ in range(direction % 4):
        out = np.stack([-out[:, 1], out[:, 0]], axis=1)
    return out


def _text_size(text: str, font: int, scale: float, thick: int) -> tuple[int, int, int]:
    (w, h), base = cv2.getTextSize(text, font, scale, thick)
    return w, h, base


def _put_text_centered(
    img: np.ndarray,
    text: str,
    cx: float,
    cy: float,
    font: int,
    scale: float,
    color: Color,
    thick: int,
) -> None:
    w, h, _ = _text_size(text, font, scale, thick)
    org = (int(round(cx - w / 2)), int(round(cy + h / 2)))
    cv2.putText(img, text, org, font, scale, color, thick, _AA)


def _cell_box(x0: int, y0: int, cp: int, r: int, c: int, m: int) -> Rect:
    """Inclusive pixel box of cell (r, c) shrunk by a margin of ``m`` pixels on every side."""
    xa = x0 + c * cp + m
    ya = y0 + r * cp + m
    return xa, ya, xa + cp - 1 - 2 * m, ya + cp - 1 - 2 * m


def _cell_centre(x0: int, y0: int, cp: int, r: int, c: int) -> tuple[float, float]:
    return x0 + c * cp + (cp - 1) / 2, y0 + r * cp + (cp - 1) / 2


# --------------------------------------------------------------------------------------------
# themes for clutter (menu bar, title, buttons, score)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Theme:
    background: Color
    bar: Color
    bar_text: Color
    text: Color
    button: Color
    button_text: Color
    font: int
    button_style: str = "round"  # "round", "box" (outlined, terminal) or "gold" (game HUD)
    panel: Color | None = None  # colour of a panel behind the board, None for none


def _theme(look: str, rng: np.random.Generator) -> _Theme:
    simplex = cv2.FONT_HERSHEY_SIMPLEX
    if look == "flat-dark":
        return _Theme(
            _jitter(rng, (24, 22, 20), 6),
            (48, 46, 44),
            (200, 200, 200),
            (225, 225, 225),
            (70, 68, 66),
            (235, 235, 235),
            simplex,
            panel=_jitter(rng, (34, 32, 30), 4),
        )
    if look == "flat-light":
        return _Theme(
            _jitter(rng, (246, 246, 246), 4),
            (228, 228, 228),
            (60, 60, 60),
            (50, 50, 50),
            (225, 160, 90),
            (255, 255, 255),
            simplex,
        )
    if look == "bevel":
        return _Theme(
            _jitter(rng, (72, 36, 18), 6),
            (120, 110, 105),
            (20, 20, 20),
            (235, 225, 215),
            (150, 140, 135),
            (20, 20, 20),
            cv2.FONT_HERSHEY_DUPLEX,
            panel=_jitter(rng, (90, 48, 26), 5),
        )
    if look == "round":
        return _Theme(
            _jitter(rng, (22, 24, 22), 4),
            (40, 44, 40),
            (150, 220, 150),
            (140, 230, 150),
            (45, 70, 45),
            (200, 255, 200),
            simplex,
        )
    if look == "gridlines":
        return _Theme(
            _jitter(rng, (222, 232, 238), 5),
            (200, 200, 200),
            (30, 30, 30),
            (30, 30, 30),
            (190, 190, 190),
            (20, 20, 20),
            cv2.FONT_HERSHEY_COMPLEX,
        )
    if look == "terminal":
        return _Theme(
            (10, 12, 10),
            (10, 12, 10),
            (60, 200, 80),
            (60, 200, 80),
            (10, 12, 10),
            (60, 200, 80),
            cv2.FONT_HERSHEY_PLAIN,
            button_style="box",
        )
    if look == "numbered":
        return _Theme(
            _jitter(rng, (205, 198, 192), 6),
            (150, 60, 130),
            (255, 255, 255),
            (70, 40, 70),
            (150, 60, 130),
            (255, 255, 255),
            simplex,
            panel=_jitter(rng, (175, 168, 160), 5),
        )
    if look == "arrow-tiles":
        return _Theme(
            _jitter(rng, (52, 52, 52), 5),
            (34, 34, 34),
            (210, 210, 210),
            (230, 230, 230),
            (90, 90, 90),
            (240, 240, 240),
            simplex,
        )
    if look == "arrow-squares":
        return _Theme(
            _jitter(rng, (150, 140, 128), 8),
            (235, 235, 235),
            (40, 40, 40),
            (30, 30, 30),
            (80, 70, 60),
            (245, 245, 245),
            cv2.FONT_HERSHEY_DUPLEX,
            panel=_jitter(rng, (120, 110, 100), 6),
        )
    if look == "chairs":
        return _Theme(
            (60, 120, 70),
            (22, 26, 30),
            (60, 200, 235),
            (70, 215, 245),
            (30, 38, 46),
            (70, 215, 245),
            cv2.FONT_HERSHEY_TRIPLEX,
            button_style="gold",
        )
    raise AssertionError(look)


def _frame_pad(look: str, cp: int) -> int:
    """How far the board's own decoration (panel, frame, outer grid line) reaches past its grid."""
    if look == "gridlines":
        return _grid_line_thickness(cp) // 2 + 1
    if look == "terminal":
        return max(3, cp // 6) + 2
    return max(4, cp // 3)


# --------------------------------------------------------------------------------------------
# the looks (flat, screen-aligned)
# --------------------------------------------------------------------------------------------

_DrawFn = Callable[[np.ndarray, np.ndarray, int, int, int, np.random.Generator, _Theme], None]


def _draw_panel(
    img: np.ndarray, x0: int, y0: int, cp: int, cells: np.ndarray, th: _Theme, rounded: bool = True
) -> None:
    if th.panel is None:
        return
    rows, cols = cells.shape
    pad = max(4, cp // 3)
    box = (x0 - pad, y0 - pad, x0 + cols * cp - 1 + pad, y0 + rows * cp - 1 + pad)
    if rounded:
        _fill_round_rect(img, box, pad, th.panel)
    else:
        cv2.rectangle(img, box[:2], box[2:], th.panel, -1)


def _draw_flat_dark(img, cells, x0, y0, cp, rng, th) -> None:
    _draw_panel(img, x0, y0, cp, cells, th, rounded=False)
    lit = _jitter(rng, [(0, 215, 255), (0, 170, 255), (255, 215, 0)][rng.integers(3)], 12)
    off = _jitter(rng, (108, 108, 108), 8)
    m = max(1, round(cp * 0.07))
    for (r, c), v in np.ndenumerate(cells):
        xa, ya, xb, yb = _cell_box(x0, y0, cp, r, c, m)
        cv2.rectangle(img, (xa, ya), (xb, yb), lit if v else off, -1)


def _draw_flat_light(img, cells, x0, y0, cp, rng, th) -> None:
    lit = _jitter(rng, (210, 110, 20), 12)
    off = _jitter(rng, (214, 214, 212), 5)
    m = max(2, round(cp * 0.11))
    grow = max(1, round(cp * 0.05))
    for (r, c), v in np.ndenumerate(cells):
        mm = m - grow if v else m
        _fill_round_rect(img, _cell_box(x0, y0, cp, r, c, mm), cp * 0.18, lit if v else off)


def _draw_bevel(img, cells, x0, y0, cp, rng, th) -> None:
    _draw_panel(img, x0, y0, cp, cells, th, rounded=False)
    lit = _jitter(rng, (208, 206, 202), 6)
    off = _jitter(rng, (190, 110, 50), 10)
    m = max(1, round(cp * 0.06))
    b = max(2, round(cp * 0.12))
    for (r, c), v in np.ndenumerate(cells):
        face = lit if v else off
        hi = _mix(face, (255, 255, 255), 0.55)
        lo = _scale(face, 0.45)
        xa, ya, xb, yb = _cell_box(x0, y0, cp, r, c, m)
        cv2.rectangle(img, (xa, ya), (xb, yb), lo, -1)
        light_edge = [
            (xa - 0.5, ya - 0.5),
            (xb + 0.5, ya - 0.5),
            (xb + 0.5 - b, ya - 0.5 + b),
            (xa - 0.5 + b, ya - 0.5 + b),
            (xa - 0.5 + b, yb + 0.5 - b),
            (xa - 0.5, yb + 0.5),
        ]
        _fill_poly(img, light_edge, hi)
        cv2.rectangle(img, (xa + b, ya + b), (xb - b, yb - b), face, -1)


def _draw_round(img, cells, x0, y0, cp, rng, th) -> None:
    rows, cols = cells.shape
    lit = _jitter(rng, (100, 255, 120), 10)
    core = _mix(lit, (235, 255, 235), 0.6)
    off = _jitter(rng, (32, 78, 34), 6)
    rim = _scale(off, 1.5)
    rad = cp * 0.38
    # a soft glow around lit buttons, computed on the board's region only
    pad = cp
    ya, yb = max(0, y0 - pad), min(img.shape[0], y0 + rows * cp + pad)
    xa, xb = max(0, x0 - pad), min(img.shape[1], x0 + cols * cp + pad)
    glow = np.zeros((yb - ya, xb - xa, 3), np.float32)
    for (r, c), v in np.ndenumerate(cells):
        if v:
            cx, cy = _cell_centre(x0 - xa, y0 - ya, cp, r, c)
            cv2.circle(
                glow,
                (int(round(cx * _ONE)), int(round(cy * _ONE))),
                int(round(rad * 1.25 * _ONE)),
                lit,
                -1,
                _AA,
                _SHIFT,
            )
    glow = cv2.GaussianBlur(glow, (0, 0), cp * 0.14)
    roi = img[ya:yb, xa:xb].astype(np.float32)
    img[ya:yb, xa:xb] = np.clip(roi + 0.55 * glow, 0, 255).astype(np.uint8)
    for (r, c), v in np.ndenumerate(cells):
        cx, cy = _cell_centre(x0, y0, cp, r, c)
        ctr = (int(round(cx * _ONE)), int(round(cy * _ONE)))
        if v:
            cv2.circle(img, ctr, int(round(rad * _ONE)), lit, -1, _AA, _SHIFT)
            cv2.circle(img, ctr, int(round(rad * 0.55 * _ONE)), core, -1, _AA, _SHIFT)
        else:
            cv2.circle(img, ctr, int(round(rad * _ONE)), rim, -1, _AA, _SHIFT)
            cv2.circle(
                img, ctr, int(round((rad - max(1.0, cp * 0.04)) * _ONE)), off, -1, _AA, _SHIFT
            )


def _grid_line_thickness(cp: int) -> int:
    return 2 * max(1, round(cp * 0.05))


def _draw_gridlines(img, cells, x0, y0, cp, rng, th) -> None:
    rows, cols = cells.shape
    palette = [(170, 70, 30), (40, 40, 200), (50, 140, 50), (130, 50, 120)]
    lit = _jitter(rng, palette[rng.integers(len(palette))], 10)
    off = (255, 255, 255)
    for (r, c), v in np.ndenumerate(cells):
        xa, ya, xb, yb = _cell_box(x0, y0, cp, r, c, 0)
        cv2.rectangle(img, (xa, ya), (xb, yb), lit if v else off, -1)
    t = _grid_line_thickness(cp)
    h = t // 2
    ink = _jitter(rng, (18, 18, 18), 6)
    y1, y2 = y0 - h, y0 + rows * cp + h - 1
    x1, x2 = x0 - h, x0 + cols * cp + h - 1
    for c in range(cols + 1):  # lines centred on the cell boundaries, the outer ones included
        x = x0 + c * cp
        cv2.rectangle(img, (x - h, y1), (x + h - 1, y2), ink, -1)
    for r in range(rows + 1):
        y = y0 + r * cp
        cv2.rectangle(img, (x1, y - h), (x2, y + h - 1), ink, -1)


def _draw_terminal(img, cells, x0, y0, cp, rng, th) -> None:
    rows, cols = cells.shape
    lit = _jitter(rng, (30, 185, 235), 8)
    off = _jitter(rng, (34, 34, 32), 3)
    for (r, c), v in np.ndenumerate(cells):
        xa, ya, xb, yb = _cell_box(x0, y0, cp, r, c, 0)
        cv2.rectangle(img, (xa, ya), (xb, yb), lit if v else off, -1)
    dot_r = max(1.0, cp * 0.06)
    for (r, c), v in np.ndenumerate(cells):
        cx, cy = _cell_centre(x0, y0, cp, r, c)
        col = (20, 100, 140) if v else (92, 92, 92)
        cv2.circle(
            img,
            (int(round(cx * _ONE)), int(round(cy * _ONE))),
            int(round(dot_r * _ONE)),
            col,
            -1,
            _AA,
            _SHIFT,
        )
    f = max(3, cp // 6)
    cv2.rectangle(
        img, (x0 - f - 1, y0 - f - 1), (x0 + cols * cp + f, y0 + rows * cp + f), (135, 135, 135), 1
    )


def _draw_numbered(img, cells, x0, y0, cp, rng, th) -> None:
    rows, cols = cells.shape
    _draw_panel(img, x0, y0, cp, cells, th)
    lit = _jitter(rng, (150, 40, 125), 10)
    off = (250, 250, 250)
    m = max(1, round(cp * 0.07))
    font = cv2.FONT_HERSHEY_SIMPLEX
    widest = str(rows * cols - 1)
    w1, h1, _ = _text_size(widest, font, 1.0, 2)
    scale = min(0.36 * cp / h1, 0.7 * (cp - 2 * m) / w1)
    thick = max(1, round(scale * 2))
    for (r, c), v in np.ndenumerate(cells):
        box = _cell_box(x0, y0, cp, r, c, m)
        _fill_round_rect(img, box, cp * 0.08, lit if v else off)
        cx, cy = _cell_centre(x0, y0, cp, r, c)
        ink = (255, 255, 255) if v else (70, 60, 60)
        _put_text_centered(img, str(r * cols + c), cx, cy, font, scale, ink, thick)


def _draw_arrow_tiles(img, cells, x0, y0, cp, rng, th) -> None:
    tile = _jitter(rng, (30, 28, 28), 4)
    rim = _jitter(rng, (82, 80, 78), 6)
    ink = (245, 245, 245)
    rad = cp * 0.42
    chevron = np.array([[-0.19, 0.08], [0.0, -0.13], [0.19, 0.08]]) * cp
    thick = max(2, round(cp * 0.09))
    for (r, c), v in np.ndenumerate(cells):
        cx, cy = _cell_centre(x0, y0, cp, r, c)
        ctr = (int(round(cx * _ONE)), int(round(cy * _ONE)))
        cv2.circle(img, ctr, int(round(rad * _ONE)), rim, -1, _AA, _SHIFT)
        cv2.circle(img, ctr, int(round((rad - max(1.5, cp * 0.04)) * _ONE)), tile, -1, _AA, _SHIFT)
        pts = _rotate_dir(chevron, int(v)) + (cx, cy)
        p = np.round(pts * _ONE).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(img, [p], False, ink, thick, _AA, _SHIFT)


def _draw_arrow_squares(img, cells, x0, y0, cp, rng, th) -> None:
    _draw_panel(img, x0, y0, cp, cells, th, rounded=False)
    tile = _jitter(rng, (232, 236, 238), 5)
    ink = _jitter(rng, (45, 42, 40), 5)
    m = max(1, round(cp * 0.06))
    arrow = (
        np.array(
            [
                [0.0, -0.34],
                [0.24, -0.06],
                [0.075, -0.06],
                [0.075, 0.32],
                [-0.075, 0.32],
                [-0.075, -0.06],
                [-0.24, -0.06],
            ]
        )
        * cp
    )
    for (r, c), v in np.ndenumerate(cells):
        xa, ya, xb, yb = _cell_box(x0, y0, cp, r, c, m)
        cv2.rectangle(img, (xa, ya), (xb, yb), tile, -1)
        cx, cy = _cell_centre(x0, y0, cp, r, c)
        _fill_poly(img, _rotate_dir(arrow, int(v)) + (cx, cy), ink)


_FLAT_LOOKS: dict[str, _DrawFn] = {
    "flat-dark": _draw_flat_dark,
    "flat-light": _draw_flat_light,
    "bevel": _draw_bevel,
    "round": _draw_round,
    "gridlines": _draw_gridlines,
    "terminal": _draw_terminal,
    "numbered": _draw_numbered,
    "arrow-tiles": _draw_arrow_tiles,
    "arrow-squares": _draw_arrow_squares,
}


def _paint_background(img: np.ndarray, look: str, th: _Theme, rng: np.random.Generator) -> None:
    img[:] = th.background
    h = img.shape[0]
    if look == "terminal":  # faint scan lines
        img[1::2] = (img[1::2].astype(np.uint16) * 7 // 10).astype(np.uint8)
    elif look in ("bevel", "arrow-squares", "numbered"):  # gentle vertical gradient
        ramp = np.linspace(1.06, 0.94, h, dtype=np.float32)[:, None, None]
        img[:] = np.clip(img.astype(np.float32) * ramp, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------------------------
# clutter
# --------------------------------------------------------------------------------------------

_TITLES = {
    "lights": [
        "Lights Out",
        "LIGHTS OUT",
        "Flip the lamps",
        "Lamp Grid",
        "Switch Off!",
        "Merlin's Square",
    ],
    "arrows": ["Arrow Turn", "Point Up!", "ROTATOR", "Compass Grid", "All Face North"],
}
_BUTTONS = ["New game", "Reset", "Undo", "Hint", "Solve", "Menu", "Options", "Quit"]
_MENUS = ["File", "Game", "Edit", "View", "Options", "Help"]


def _overlaps(a: Rect, b: Rect, gap: int = 6) -> bool:
    return not (a[2] + gap < b[0] or b[2] + gap < a[0] or a[3] + gap < b[1] or b[3] + gap < a[1])


def _free(box: Rect, taken: list[Rect], size: tuple[int, int]) -> bool:
    w, h = size
    if box[0] < 2 or box[1] < 2 or box[2] > w - 3 or box[3] > h - 3:
        return False
    return not any(_overlaps(box, t) for t in taken)


def _draw_button(img: np.ndarray, box: Rect, label: str, th: _Theme, scale: float) -> None:
    x1, y1, x2, y2 = box
    if th.button_style == "box":
        cv2.rectangle(img, (x1, y1), (x2, y2), th.button_text, 1)
    elif th.button_style == "gold":
        _fill_round_rect(img, box, 4, (40, 140, 175))
        _fill_round_rect(img, (x1 + 2, y1 + 2, x2 - 2, y2 - 2), 3, th.button)
    else:
        _fill_round_rect(img, box, (y2 - y1) * 0.3, th.button)
    _put_text_centered(img, label, (x1 + x2) / 2, (y1 + y2) / 2, th.font, scale, th.button_text, 1)


def _draw_clutter(
    img: np.ndarray, keep_out: Rect, th: _Theme, puzzle: str, rng: np.random.Generator
) -> None:
    """Menu bar, title, a few buttons and a score line, all kept clear of ``keep_out``."""
    hh, ww = img.shape[:2]
    size = (ww, hh)
    taken: list[Rect] = [keep_out]
    bx1, by1, bx2, by2 = keep_out
    font = th.font
    big = 1.6 if font == cv2.FONT_HERSHEY_PLAIN else 1.0

    # menu bar along the top edge
    bar_h = 24
    if by1 > bar_h + 8:
        cv2.rectangle(img, (0, 0), (ww - 1, bar_h - 1), th.bar, -1)
        x = 10
        for word in _MENUS[: int(rng.integers(3, len(_MENUS) + 1))]:
            w, h, _ = _text_size(word, font, 0.5 * big, 1)
            if x + w > ww - 10:
                break
            cv2.putText(img, word, (x, (bar_h + h) // 2), font, 0.5 * big, th.bar_text, 1, _AA)
            x += w + 18
        taken.append((0, 0, ww - 1, bar_h - 1))

    # title text
    title = _TITLES[puzzle][rng.integers(len(_TITLES[puzzle]))]
    scale = float(rng.uniform(0.8, 1.2)) * big
    thick = 2
    tw, tht, tb = _text_size(title, font, scale, thick)
    cx = (bx1 + bx2) // 2 - tw // 2
    top = bar_h + 10
    candidates = [
        (cx, by1 - 14 - tht - tb),
        (12, top),
        (cx, by2 + 14),
        (bx2 + 20, by1),
        (12, by2 + 14),
    ]
    for x, y in candidates:
        box = (x, y, x + tw, y + tht + tb)
        if _free(box, taken, size):
            cv2.putText(img, title, (x, y + tht), font, scale, th.text, thick, _AA)
            taken.append(box)
            break

    # one to three buttons in a row (or a column beside the board)
    labels = list(rng.choice(_BUTTONS, size=int(rng.integers(1, 4)), replace=False))
    bscale = 0.55 * big
    dims = []
    for lab in labels:
        w, h, _ = _text_size(lab, font, bscale, 1)
        dims.append((w + 26, h + 16))
    row_w = sum(d[0] for d in dims) + 12 * (len(dims) - 1)
    row_h = max(d[1] for d in dims)
    col_w = max(d[0] for d in dims)
    col_h = sum(d[1] for d in dims) + 10 * (len(dims) - 1)
    placements = [
        ("row", (bx1 + bx2) // 2 - row_w // 2, by2 + 18),
        ("row", bx1, by2 + 18),
        ("col", bx2 + 24, by2 - col_h),
        ("col", bx1 - 24 - col_w, by1),
        ("row", ww - row_w - 14, by1 - 18 - row_h),
        ("row", 14, hh - row_h - 14),
    ]
    for kind, x, y in placements:
        bw, bh = (row_w, row_h) if kind == "row" else (col_w, col_h)
        box = (x, y, x + bw, y + bh)
        if not _free(box, taken, size):
            continue
        for lab, (w, h) in zip(labels, dims, strict=True):
            if kind == "row":
                _draw_button(img, (x, y, x + w, y + row_h), lab, th, bscale)
                x += w + 12
            else:
                _draw_button(img, (x, y, x + col_w, y + h), lab, th, bscale)
                y += h + 10
        taken.append(box)
        break

    # a score / moves line, sometimes on a small panel
    moves, best = int(rng.integers(0, 99)), int(rng.integers(3, 60))
    score = [
        f"Moves: {moves}   Best: {best}",
        f"Score {moves * 10 + best}",
        f"Level {best % 12 + 1}",
        f"Time 0{moves % 10}:{best:02d}",
    ][rng.integers(4)]
    sscale = 0.6 * big
    sw, sh, sb = _text_size(score, font, sscale, 1)
    framed = bool(rng.integers(2)) and th.button_style != "box"
    pad = 8 if framed else 0
    for x, y in [
        (bx2 + 24, by1),
        (ww - sw - 20, bar_h + 12),
        (bx1, by2 + 24),
        (14, hh - sh - 20),
        (14, bar_h + 12),
    ]:
        box = (x - pad, y - pad, x + sw + pad, y + sh + sb + pad)
        if _free(box, taken, size):
            if framed:
                _fill_round_rect(img, box, 6, _mix(th.background, th.text, 0.15))
            cv2.putText(img, score, (x, y + sh), font, sscale, th.text, 1, _AA)
            taken.append(box)
            break


# --------------------------------------------------------------------------------------------
# placement, perspective tilt and degradation
# --------------------------------------------------------------------------------------------


def _place(
    rng: np.random.Generator,
    ext_w: int,
    ext_h: int,
    canvas: tuple[int, int] | None,
    origin: tuple[int, int] | None,
    lead: tuple[int, int],
) -> tuple[int, int, int, int]:
    """Choose the canvas size and the top-left of the board's extent on it.

    ``ext_w`` x ``ext_h`` is the board including its decoration; ``lead`` is the offset of the
    grid's top-left inside that extent, so ``origin`` (the grid's top-left) maps to
    ``origin - lead``.  Returns (width, height, ext_x, ext_y).
    """
    if canvas is None:
        side = int(rng.integers(30, 90))
        extra = int(rng.integers(0, 180))
        left, right = (side + extra, side) if rng.integers(2) else (side, side + extra)
        top, bottom = int(rng.integers(90, 130)), int(rng.integers(60, 110))
        if origin is None:
            ex, ey = left, top
        else:
            ex, ey = origin[0] - lead[0], origin[1] - lead[1]
            if ex < 1 or ey < 1:
                raise ValueError(f"origin {origin} leaves no room for the board's frame")
        width, height = ex + ext_w + right, ey + ext_h + bottom
        if max(width, height) > 10000:
            raise ValueError(f"board too large: the canvas would be {width}x{height}")
        return width, height, ex, ey
    width, height = int(canvas[0]), int(canvas[1])
    if origin is None:
        room_x, room_y = width - ext_w - 2, height - ext_h - 2
        if room_x < 1 or room_y < 1:
            raise _DoesNotFit(
                f"a board of {ext_w}x{ext_h} px (with frame) does not fit on a "
                f"{width}x{height} canvas"
            )
        return width, height, 1 + int(rng.integers(room_x)), 1 + int(rng.integers(room_y))
    ex, ey = origin[0] - lead[0], origin[1] - lead[1]
    if ex < 1 or ey < 1 or ex + ext_w > width - 1 or ey + ext_h > height - 1:
        raise _DoesNotFit(
            f"a board of {ext_w}x{ext_h} px (with frame) at origin {origin} does not fit on a "
            f"{width}x{height} canvas"
        )
    return width, height, ex, ey


def _quad_area(q: np.ndarray) -> float:
    """Area of a simple polygon (shoelace formula)."""
    x, y = q[:, 0], q[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def _tilt_homography(
    rng: np.random.Generator, corners: np.ndarray, tilt: float, size: tuple[int, int]
) -> np.ndarray:
    """A random perspective homography that tips the board's plane by up to ~120*tilt degrees.

    The board is rotated about its centre in 3-D and re-projected by a pinhole camera; the
    resulting quad is then moved (and if needed shrunk) so that it stays inside the canvas.
    """
    width, height = size
    centre = corners.mean(axis=0)
    rel = corners - centre
    ax, ay = rng.uniform(-1.0, 1.0, 2) * tilt * math.radians(120.0)
    az = rng.uniform(-1.0, 1.0) * tilt * math.radians(40.0)
    cx, sx, cy, sy, cz, sz = (
        math.cos(ax),
        math.sin(ax),
        math.cos(ay),
        math.sin(ay),
        math.cos(az),
        math.sin(az),
    )
    rot_x = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    rot_y = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rot_z = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    focal = 1.6 * float(np.ptp(corners, axis=0).max())
    pts3 = np.c_[rel, np.zeros(4)] @ (rot_z @ rot_y @ rot_x).T
    pts3[:, 2] += focal
    dst = focal * pts3[:, :2] / pts3[:, 2:3]
    # keep the quad's area close to the original one, then keep it on the canvas
    dst *= math.sqrt(_quad_area(rel) / max(_quad_area(dst), 1e-9))
    lo = np.array([1.0, 1.0])
    hi = np.array([width - 2.0, height - 2.0])
    span = np.ptp(dst, axis=0)
    shrink = min(1.0, *((hi - lo) / np.maximum(span, 1e-9)))
    dst *= shrink
    dst += centre
    dst += np.maximum(lo - dst.min(axis=0), 0) - np.maximum(dst.max(axis=0) - hi, 0)
    return cv2.getPerspectiveTransform(corners.astype(np.float32), dst.astype(np.float32))


def _degrade(img: np.ndarray, noise: float, rng: np.random.Generator) -> np.ndarray:
    """Slight blur and a JPEG round trip, then Gaussian pixel noise of std ``noise``."""
    if noise <= 0:
        return img
    img = cv2.GaussianBlur(img, (0, 0), min(1.4, 0.45 + 0.04 * noise))
    quality = int(np.clip(round(95 - 2.5 * noise), 35, 95))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if ok:
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    noisy = rng.standard_normal(img.shape, dtype=np.float32)
    noisy *= np.float32(noise)
    noisy += img
    return np.clip(np.rint(noisy), 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------------------------
# the "chairs" look: benches on grass seen by a tilted pinhole camera
# --------------------------------------------------------------------------------------------
#
# World frame: the ground is z = 0, one cell is one unit, x runs east (to the right of the
# board) and y runs north (towards the top of the board); the grid covers [0, cols] x [0, rows]
# and row r occupies y in [rows - r - 1, rows - r].  The camera stands south of the board,
# above it, and looks north and down.


@dataclass(frozen=True)
class _Camera:
    rot: np.ndarray  # 3x3, world -> camera (rows: image right, image down, viewing direction)
    centre: np.ndarray  # camera position in the world
    focal: float
    u0: float
    v0: float

    def project(self, pts: np.ndarray) -> np.ndarray:
        cam = (np.asarray(pts, dtype=np.float64) - self.centre) @ self.rot.T
        return np.stack(
            [
                self.focal * cam[..., 0] / cam[..., 2] + self.u0,
                self.focal * cam[..., 1] / cam[..., 2] + self.v0,
            ],
            axis=-1,
        )

    def ground_homography(self) -> np.ndarray:
        """3x3 map from ground points (x, y, 1) to image points."""
        k = np.array([[self.focal, 0, self.u0], [0, self.focal, self.v0], [0, 0, 1.0]])
        t = -self.rot @ self.centre
        return k @ np.c_[self.rot[:, 0], self.rot[:, 1], t]


def _make_camera(
    rows: int,
    cols: int,
    dist: float,
    pitch: float,
    yaw: float,
    focal: float,
    u0: float = 0.0,
    v0: float = 0.0,
) -> _Camera:
    fwd = np.array(
        [math.sin(yaw) * math.cos(pitch), math.cos(yaw) * math.cos(pitch), -math.sin(pitch)]
    )
    right = np.array([math.cos(yaw), -math.sin(yaw), 0.0])
    down = np.cross(fwd, right)
    target = np.array([cols / 2, rows / 2, 0.15])
    return _Camera(np.stack([right, down, fwd]), target - dist * fwd, focal, u0, v0)


# The bench model in its own frame: long axis along x, the sitter faces +y, z up; units are
# cells.  Each part is an axis-aligned box (lo, hi, kind).  kind: 0 seat plank, 1 leg,
# 2 backrest plank, 3 batten on the back of the backrest.
def _bench_parts() -> list[tuple[tuple[float, float, float], tuple[float, float, float], int]]:
    half_len, half_depth = 0.30, 0.10
    seat_lo, seat_hi = 0.15, 0.19
    back_t, back_top = 0.035, 0.46
    parts: list[tuple[tuple[float, float, float], tuple[float, float, float], int]] = []
    n_seat, gap = 3, 0.012
    width = (2 * half_depth - (n_seat - 1) * gap) / n_seat
    for i in range(n_seat):
        y = -half_depth + i * (width + gap)
        parts.append(((-half_len, y, seat_lo), (half_len, y + width, seat_hi), 0))
    leg = 0.035
    for sx in (-1, 1):
        for sy in (-1, 1):
            x = sx * (half_len - 0.045)
            y = sy * (half_depth - 0.03)
            parts.append(((x - leg / 2, y - leg / 2, 0.0), (x + leg / 2, y + leg / 2, seat_lo), 1))
    y_back = -half_depth - back_t
    for z1, z2 in ((seat_lo, 0.25), (0.262, 0.355), (0.367, back_top)):
        parts.append(((-half_len, y_back, z1), (half_len, -half_depth, z2), 2))
    for sx in (-1, 1):
        x = sx * 0.2
        parts.append(
            ((x - 0.022, y_back - 0.022, seat_lo - 0.02), (x + 0.022, y_back, back_top - 0.01), 3)
        )
    return parts


_BENCH = _bench_parts()
_BENCH_LO = np.array([p[0] for p in _BENCH])
_BENCH_HI = np.array([p[1] for p in _BENCH])
_BENCH_KIND = np.array([p[2] for p in _BENCH])
_KIND_TONE = np.array([1.0, 0.78, 0.96, 0.85])

# local (x, y) -> world (x, y) for the four facings: 0 up (north), 1 right (east), 2 down,
# 3 left.  The sitter faces local +y, so the backrest (local -y) ends up behind them.
_FACING = [
    np.array([[1.0, 0.0], [0.0, 1.0]]),
    np.array([[0.0, 1.0], [-1.0, 0.0]]),
    np.array([[-1.0, 0.0], [0.0, -1.0]]),
    np.array([[0.0, -1.0], [1.0, 0.0]]),
]

# box faces: vertex indices (bit 0 = x, bit 1 = y, bit 2 = z) in cyclic order, and normals
_FACES = np.array(
    [[0, 2, 6, 4], [1, 5, 7, 3], [0, 4, 5, 1], [2, 3, 7, 6], [0, 1, 3, 2], [4, 5, 7, 6]]
)
_NORMALS = np.array(
    [[-1, 0, 0], [1, 0, 0], [0, -1, 0], [0, 1, 0], [0, 0, -1], [0, 0, 1]], dtype=np.float64
)
_CORNER_BITS = np.array([[i & 1, (i >> 1) & 1, (i >> 2) & 1] for i in range(8)], dtype=bool)
_SUN = np.array([-0.35, -0.4, 0.85]) / np.linalg.norm([-0.35, -0.4, 0.85])


def _world_boxes(direction: int, cx: float, cy: float) -> tuple[np.ndarray, np.ndarray]:
    """World-space (lo, hi) of every bench part for a bench centred on (cx, cy)."""
    m = _FACING[direction]
    a = _BENCH_LO[:, :2] @ m.T
    b = _BENCH_HI[:, :2] @ m.T
    lo = np.c_[np.minimum(a, b) + (cx, cy), _BENCH_LO[:, 2]]
    hi = np.c_[np.maximum(a, b) + (cx, cy), _BENCH_HI[:, 2]]
    return lo, hi


def _paint_order(lo: np.ndarray, hi: np.ndarray, eye: np.ndarray) -> list[int]:
    """Back-to-front order of disjoint boxes, from separating planes.

    If a plane separates boxes A and B and the eye is on B's side, A cannot hide B.  When two
    separating planes disagree, neither box can hide the other and no constraint is needed;
    otherwise the box that cannot hide the other is painted first.  A topological sort of
    these constraints gives the painter's order.
    """
    n = len(lo)
    after: list[list[int]] = [[] for _ in range(n)]
    indeg = [0] * n
    for i in range(n):
        for j in range(i + 1, n):
            votes = set()
            for k in range(3):
                if hi[i, k] <= lo[j, k] + 1e-9:  # i below j along axis k
                    votes.add((i, j) if eye[k] > hi[i, k] else (j, i))
                elif hi[j, k] <= lo[i, k] + 1e-9:
                    votes.add((j, i) if eye[k] > hi[j, k] else (i, j))
            if len(votes) == 1:
                first, second = votes.pop()
                after[first].append(second)
                indeg[second] += 1
    dist = np.linalg.norm((lo + hi) / 2 - eye, axis=1)
    ready = sorted((i for i in range(n) if indeg[i] == 0), key=lambda i: -dist[i])
    order: list[int] = []
    while ready:
        i = ready.pop(0)
        order.append(i)
        for j in after[i]:
            indeg[j] -= 1
            if indeg[j] == 0:
                ready.append(j)
        ready.sort(key=lambda i: -dist[i])
    if len(order) < n:  # a cycle cannot happen for this model, but stay total anyway
        order += sorted(set(range(n)) - set(order), key=lambda i: -dist[i])
    return order


def _smoothstep(e0: float, e1: float, x: np.ndarray) -> np.ndarray:
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def _ground_coords(
    hinv: np.ndarray, us: np.ndarray, vs: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ground (x, y) under image points, and 1 / depth there (float32 grids)."""
    h = hinv.astype(np.float32)
    inv_depth = h[2, 0] * us + h[2, 1] * vs + h[2, 2]
    gx = (h[0, 0] * us + h[0, 1] * vs + h[0, 2]) / inv_depth
    gy = (h[1, 0] * us + h[1, 1] * vs + h[1, 2]) / inv_depth
    return gx, gy, inv_depth


def _grass(
    cam: _Camera, size: tuple[int, int], rows: int, cols: int, rng: np.random.Generator
) -> np.ndarray:
    """Perspective grass: value noise looked up at each pixel's point on the ground.

    Smooth layers (colour, blotches, stones) are evaluated on a grid three times coarser than
    the image and scaled up; fine grass grain, the grid seams and the paving are done at full
    resolution.
    """
    width, height = size
    # the exact inverse (no rescaling) maps (u, v, 1) to (x, y, 1) / depth
    hinv = np.linalg.inv(cam.ground_homography())

    def octave(
        gx: np.ndarray,
        gy: np.ndarray,
        samples_per_unit: np.ndarray,
        scale: float,
        cubic: bool = True,
    ) -> np.ndarray:
        """Value noise with features ``scale`` ground units wide, faded out where they would
        be narrower than a few samples (which would alias into streaks in the distance)."""
        grid = rng.standard_normal((64, 64)).astype(np.float32)
        off = rng.uniform(0, 64, 2).astype(np.float32)
        interp = cv2.INTER_CUBIC if cubic else cv2.INTER_LINEAR
        noise = cv2.remap(
            grid,
            gx / np.float32(scale) + off[0],
            gy / np.float32(scale) + off[1],
            interp,
            borderMode=cv2.BORDER_WRAP,
        )
        fade = np.clip((samples_per_unit * np.float32(scale) - 2.5) / 2.5, 0, 1)
        return noise * fade

    # --- coarse layers
    step = 3
    wl, hl = -(-width // step), -(-height // step)
    us = (np.arange(wl, dtype=np.float32) * step + 1)[None, :]
    vs = (np.arange(hl, dtype=np.float32) * step + 1)[:, None]
    gx, gy, inv_depth = _ground_coords(hinv, us, vs)
    spu = np.float32(cam.focal / step) * inv_depth  # coarse samples per ground unit
    blotch = octave(gx, gy, spu, 2.2)
    low = octave(gx, gy, spu, 0.9)
    mid = octave(gx, gy, spu, 0.3)
    tint = octave(gx, gy, spu, 3.0)
    bright = (1.0 + 0.07 * low + 0.07 * mid) * (1.0 - 0.22 * _smoothstep(0.55, 1.3, blotch))
    green = np.array([38, 118, 62], np.float32)
    yellowish = np.array([48, 132, 98], np.float32)
    t = _smoothstep(-1.2, 1.2, tint)[..., None]
    coarse = (green + (yellowish - green) * t) * bright[..., None]

    # a few grey stone patches around (never on) the board
    stone_grid = rng.standard_normal((32, 32)).astype(np.float32)
    for _ in range(int(rng.integers(2, 6))):
        rad = rng.uniform(0.25, 0.6)
        reach = rad * 1.4
        while True:
            sx = rng.uniform(-5, cols + 5)
            sy = rng.uniform(-4, rows + 5)
            clear = reach + 0.2
            if not (-clear < sx < cols + clear and -clear < sy < rows + clear):
                break
        ph = rng.uniform(0, 2 * math.pi, 2)
        square = np.array([[sx + a * reach, sy + b * reach, 0.0] for a in (-1, 1) for b in (-1, 1)])
        if np.any(((square - cam.centre) @ cam.rot[2]) <= 0.1):
            continue  # behind or too close to the camera
        box = cam.project(square) / step
        x1, y1 = np.maximum(np.floor(box.min(axis=0)).astype(int), 0)
        x2, y2 = np.minimum(np.ceil(box.max(axis=0)).astype(int) + 1, (wl, hl))
        if x1 >= x2 or y1 >= y2:
            continue
        dx, dy = gx[y1:y2, x1:x2] - sx, gy[y1:y2, x1:x2] - sy
        ang = np.arctan2(dy, dx)
        wobble = 1 + 0.22 * np.sin(3 * ang + ph[0]) + 0.12 * np.sin(5 * ang + ph[1])
        d = np.sqrt(dx * dx + dy * dy) / (rad * wobble)
        mask = (1 - _smoothstep(0.85, 1.0, d))[..., None]
        grain = cv2.remap(
            stone_grid,
            gx[y1:y2, x1:x2] / 0.08,
            gy[y1:y2, x1:x2] / 0.08,
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_WRAP,
        )
        stone = np.array([118, 124, 126], np.float32) * (1 + 0.1 * grain)[..., None]
        stone *= (1 - 0.3 * _smoothstep(0.55, 1.0, d))[..., None]  # darker rim
        roi = coarse[y1:y2, x1:x2]
        roi += (stone - roi) * mask
    img = cv2.resize(coarse, (width, height), interpolation=cv2.INTER_LINEAR)

    # --- full resolution: grass grain everywhere, finer noise only where it would not alias
    grain = rng.standard_normal((height, width), dtype=np.float32)
    shade = 1.0 + 0.035 * grain
    us = np.arange(width, dtype=np.float32)[None, :]
    vs = np.arange(height, dtype=np.float32)[:, None]
    sharp_rows = np.flatnonzero(spu.max(axis=1) * (step * 0.16) > 2.5)
    top = max(0, int(sharp_rows[0]) * step - step) if sharp_rows.size else height
    if top < height:
        gx, gy, inv_depth = _ground_coords(hinv, us, vs[top:])
        ppu = np.float32(cam.focal) * inv_depth  # pixels per ground unit
        detail = octave(gx, gy, ppu, 0.16, cubic=False)
        fine = octave(gx, gy, ppu, 0.06, cubic=False)
        shade[top:] += 0.07 * detail + 0.10 * fine
    img *= shade[..., None]

    # --- faint seams between cells and a paved border just outside the grid (board area only)
    band = 0.14
    corners = cam.project(
        np.array(
            [
                [x, y, 0.0]
                for x in (-band - 0.1, cols + band + 0.1)
                for y in (-band - 0.1, rows + band + 0.1)
            ]
        )
    )
    x1, y1 = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
    x2, y2 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 1, (width, height))
    if x1 < x2 and y1 < y2:
        bx, by, inv_depth = _ground_coords(hinv, us[:, x1:x2], vs[y1:y2])
        bp = np.float32(cam.focal) * inv_depth
        inside = (bx > 0) & (bx < cols) & (by > 0) & (by < rows)
        half_w = np.maximum(np.float32(0.012), 0.6 / bp)
        seam = np.maximum(
            1 - np.abs(bx - np.round(bx)) / half_w, 1 - np.abs(by - np.round(by)) / half_w
        )
        seam = np.clip(seam, 0, 1) * (0.012 / half_w) * inside
        depth_tone = np.float32(rng.uniform(0.10, 0.18))
        roi = img[y1:y2, x1:x2]
        roi *= (1 - depth_tone * seam)[..., None]
        edge = np.maximum(np.maximum(-bx, bx - cols), np.maximum(-by, by - rows))
        soft = 0.5 / bp
        pave = (_smoothstep(-soft, soft, edge) * (1 - _smoothstep(band - soft, band + soft, edge)))[
            ..., None
        ]
        paving = np.array([110, 122, 130], np.float32)
        pave_col = paving * (1 + 0.05 * grain[y1:y2, x1:x2])[..., None]
        roi += (pave_col - roi) * pave
    return cv2.convertScaleAbs(img)  # rounds and saturates to uint8


def _draw_benches(
    img: np.ndarray, cells: np.ndarray, cam: _Camera, cp: int, rng: np.random.Generator
) -> None:
    rows, cols = cells.shape
    eye = cam.centre
    wood = np.array(_jitter(rng, (34, 60, 98), 5), np.float64)
    nparts = len(_BENCH)
    tones = rng.uniform(0.86, 1.12, size=(rows, cols, nparts)) * _KIND_TONE[_BENCH_KIND]
    # draw far rows first; within a row, from the sides towards the camera
    order = sorted(
        ((r, c) for r in range(rows) for c in range(cols)),
        key=lambda rc: (rc[0], -abs(rc[1] + 0.5 - eye[0])),
    )
    rr = np.array([o[0] for o in order])
    cc = np.array([o[1] for o in order])
    dirs = cells[rr, cc]
    centres = np.c_[cc + 0.5, rows - rr - 0.5, np.zeros(len(order))]
    lo = np.empty((len(order), nparts, 3))
    hi = np.empty_like(lo)
    for d in range(4):
        sel = dirs == d
        dlo, dhi = _world_boxes(d, 0.0, 0.0)
        lo[sel] = dlo + centres[sel, None, :]
        hi[sel] = dhi + centres[sel, None, :]
    verts = np.where(_CORNER_BITS[None, None], hi[:, :, None, :], lo[:, :, None, :])
    pix = cam.project(verts)  # (benches, parts, 8, 2)

    # soft shadows: each bench's outline cast along the sun onto the ground
    ground = verts - (verts[..., 2:3] / _SUN[2]) * _SUN
    gpix = np.round(cam.project(ground).reshape(len(order), -1, 2) * _ONE).astype(np.int32)
    shadow = np.zeros(img.shape[:2], np.uint8)
    for pts in gpix:
        cv2.fillConvexPoly(shadow, cv2.convexHull(pts), 255, _AA, _SHIFT)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.8, cp * 0.03))
    dark = 1.0 - 0.5 * shadow.astype(np.float32)[..., None] / 255.0
    img[:] = np.clip(img * dark, 0, 255).astype(np.uint8)

    # faces: back-face culling, lambertian shading, painter's order within each bench
    first_vertex = verts[:, :, _FACES[:, 0], :]  # (benches, parts, 6, 3)
    visible = np.einsum("fk,bpfk->bpf", _NORMALS, eye - first_vertex) > 0
    lambert = 0.32 + 0.8 * np.clip(_NORMALS @ _SUN, 0, None)  # (6,)
    shade = tones[rr, cc][:, :, None, None] * lambert[None, None, :, None] * wood
    fill = np.clip(shade, 0, 255).astype(np.int32).tolist()
    edge = np.clip(shade * 0.55, 0, 255).astype(np.int32).tolist()
    polys = np.ascontiguousarray(np.round(pix[:, :, _FACES, :] * _ONE), dtype=np.int32)
    # polys: (benches, parts, 6 faces, 4 corners, 2)
    vis = visible.tolist()
    outline = cp >= 36
    # the painter's order within a bench only depends on its facing and on which side of each
    # of its vertical x-planes the eye is (the eye is always above and south of every bench)
    planes = [
        np.unique(np.r_[dlo[:, 0], dhi[:, 0]])
        for dlo, dhi in (_world_boxes(d, 0.0, 0.0) for d in range(4))
    ]
    order_cache: dict[tuple, list[int]] = {}
    for b in range(len(order)):
        d = int(dirs[b])
        rel_x = eye[0] - centres[b, 0]
        key = (d, tuple((rel_x > planes[d]).tolist()))
        if key not in order_cache:
            order_cache[key] = _paint_order(lo[b], hi[b], eye)
        for p in order_cache[key]:
            vis_p, fill_p, edge_p, poly_p = vis[b][p], fill[b][p], edge[b][p], polys[b, p]
            for f in range(6):
                if not vis_p[f]:
                    continue
                cv2.fillConvexPoly(img, poly_p[f], fill_p[f], _AA, _SHIFT)
                if outline:
                    cv2.polylines(img, [poly_p[f, :, None, :]], True, edge_p[f], 1, _AA, _SHIFT)


def _render_chairs(
    cells: np.ndarray,
    cp: int,
    canvas: tuple[int, int] | None,
    origin: tuple[int, int] | None,
    clutter: bool,
    tilt: float,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    rows, cols = cells.shape
    pitch = math.radians(55.0 + rng.uniform(-3.0, 3.0))
    yaw = math.radians(rng.uniform(-1.0, 1.0) * (2.0 + 40.0 * tilt))
    dist = max(1.6 * max(rows, cols), 4.5)
    fx, fy = rng.random(2)
    th = _theme("chairs", rng)
    clutter_rng = np.random.default_rng(rng.integers(2**63))
    # the extent to place: the paved grid plus the height of the benches
    b = 0.2
    ext3 = np.array([[x, y, z] for x in (-b, cols + b) for y in (-b, rows + b) for z in (0, 0.5)])
    for _ in range(8):
        cam = _make_camera(rows, cols, dist, pitch, yaw, cp * dist)
        pts = cam.project(ext3)
        umin, vmin = np.floor(pts.min(axis=0))
        umax, vmax = np.ceil(pts.max(axis=0))
        ext_w, ext_h = int(umax - umin) + 1, int(vmax - vmin) + 1
        if canvas is not None and origin is None:
            width, height = int(canvas[0]), int(canvas[1])
            room_x, room_y = width - ext_w - 2, height - ext_h - 2
            if room_x < 1 or room_y < 1:
                raise _DoesNotFit(
                    f"a chairs board of {ext_w}x{ext_h} px does not fit on a "
                    f"{width}x{height} canvas"
                )
            ex, ey = 1 + int(fx * room_x), 1 + int(fy * room_y)
        else:
            # here ``origin`` is the top-left of the bounding box of the paved board and benches
            width, height, ex, ey = _place(
                np.random.default_rng(int(fx * 2**31)), ext_w, ext_h, canvas, origin, (0, 0)
            )
        u0, v0 = ex - umin, ey - vmin
        # keep the horizon well above the canvas: the top row of pixels must look at least
        # 15 degrees below the horizontal
        need = v0 / math.tan(pitch - math.radians(15.0))
        if cam.focal >= need:
            break
        dist *= need / cam.focal * 1.05
    cam = _make_camera(rows, cols, dist, pitch, yaw, cp * dist, u0, v0)
    img = _grass(cam, (width, height), rows, cols, rng)
    _draw_benches(img, cells, cam, cp, rng)
    if clutter:
        keep = (ex, ey, ex + ext_w - 1, ey + ext_h - 1)
        _draw_clutter(img, keep, th, "arrows", clutter_rng)
    corners = cam.project(
        np.array([[0.0, rows, 0.0], [cols, rows, 0.0], [cols, 0.0, 0.0], [0.0, 0.0, 0.0]])
    )
    return img, corners


# --------------------------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------------------------


def _check_cells(cells: np.ndarray, puzzle: str) -> np.ndarray:
    arr = np.asarray(cells)
    if arr.ndim != 2:
        raise ValueError(f"cells must be 2-D, not {arr.ndim}-D (shape {arr.shape})")
    if arr.size == 0:
        raise ValueError(f"cells must not be empty, got shape {arr.shape}")
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
            bad = arr[~(np.isfinite(arr) & (arr == np.round(arr)))].flat[0]
            raise ValueError(f"cells must hold whole numbers, found {bad!r}")
    elif arr.dtype.kind not in "biu":
        raise ValueError(f"cells must hold integers, got dtype {arr.dtype}")
    top = _MAX_STATE[puzzle]
    out = arr.astype(np.int64)
    bad_mask = (out < 0) | (out > top)
    if bad_mask.any():
        idx = tuple(int(i) for i in np.argwhere(bad_mask)[0])
        raise ValueError(f"cells for {puzzle!r} must be in 0..{top}, found {out[idx]} at {idx}")
    return out


def render_board(
    cells: np.ndarray,
    look: str,
    *,
    seed: int = 0,
    cell_px: int = 40,
    canvas: tuple[int, int] | None = None,
    origin: tuple[int, int] | None = None,
    clutter: bool = True,
    tilt: float = 0.0,
    noise: float = 0.0,
) -> Rendered:
    """Draw ``cells`` in ``look`` and return the screenshot with its ground truth.

    ``canvas`` is (width, height), by default the board plus a margin for the clutter.
    ``origin`` is the top-left pixel of the cell grid (for "chairs": of the projected board's
    bounding box, benches included), random when None.  ``tilt`` in 0..0.3 warps the whole
    screenshot by a random perspective homography of that strength; ``noise`` is the std of
    Gaussian pixel noise (added after a slight blur and a JPEG round trip).  Raises ValueError
    on bad cells or arguments, and when the board does not fit on the canvas.
    """
    if look not in LOOKS:
        raise ValueError(f"unknown look {look!r}; choose one of {sorted(LOOKS)}")
    puzzle = _PUZZLE_OF_LOOK[look]
    grid = _check_cells(cells, puzzle)
    if not 8 <= cell_px <= 400:
        raise ValueError(f"cell_px must be in 8..400, got {cell_px}")
    if not 0.0 <= tilt <= 0.5:
        raise ValueError(f"tilt must be in 0..0.5 (0..0.3 is the useful range), got {tilt}")
    if noise < 0:
        raise ValueError(f"noise must be >= 0, got {noise}")
    if canvas is not None and (len(canvas) != 2 or min(canvas) < 16):
        raise ValueError(f"canvas must be (width, height) of at least 16 px, got {canvas}")
    rng = np.random.default_rng(seed)
    rows, cols = grid.shape
    cp = int(cell_px)

    if look == "chairs":
        img, corners = _render_chairs(grid, cp, canvas, origin, clutter, tilt, rng)
        img = _degrade(img, noise, rng)
        return Rendered(img, grid, corners.astype(np.float64), puzzle, look)

    th = _theme(look, rng)
    pad = _frame_pad(look, cp)
    bw, bh = cols * cp, rows * cp
    width, height, ex, ey = _place(rng, bw + 2 * pad, bh + 2 * pad, canvas, origin, (pad, pad))
    x0, y0 = ex + pad, ey + pad
    img = np.empty((height, width, 3), np.uint8)
    _paint_background(img, look, th, rng)
    look_rng = np.random.default_rng(rng.integers(2**63))
    clutter_rng = np.random.default_rng(rng.integers(2**63))  # drawn even when unused
    _FLAT_LOOKS[look](img, grid, x0, y0, cp, look_rng, th)
    if clutter:
        keep = (ex, ey, ex + bw + 2 * pad - 1, ey + bh + 2 * pad - 1)
        _draw_clutter(img, keep, th, puzzle, clutter_rng)
    corners = np.array(
        [
            [x0 - 0.5, y0 - 0.5],
            [x0 + bw - 0.5, y0 - 0.5],
            [x0 + bw - 0.5, y0 + bh - 0.5],
            [x0 - 0.5, y0 + bh - 0.5],
        ]
    )
    if tilt > 0:
        hom = _tilt_homography(rng, corners, tilt, (width, height))
        surround = _jitter(rng, (40, 40, 44), 10)
        img = cv2.warpPerspective(
            img,
            hom,
            (width, height),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=surround,
        )
        corners = cv2.perspectiveTransform(corners.reshape(1, 4, 2), hom).reshape(4, 2)
    img = _degrade(img, noise, rng)
    return Rendered(img, grid, corners.astype(np.float64), puzzle, look)


_SCREENS = [(1024, 768), (1280, 720), (1366, 768), (1600, 900), (1920, 1080)]


def random_scene(
    seed: int,
    *,
    puzzle: str = "lights",
    rows: int | None = None,
    cols: int | None = None,
    look: str | None = None,
    canvas: tuple[int, int] | None = None,
    tilt: float = 0.0,
) -> Rendered:
    """A random board (size 2..20 per side unless given), look, cell size and position.

    Everything is drawn from ``seed``.  Without ``canvas`` the board is put on a common screen
    size that holds it.  The cell size shrinks when needed so the board fits.
    """
    if puzzle not in _MAX_STATE:
        raise ValueError(f"unknown puzzle {puzzle!r}; choose one of {sorted(_MAX_STATE)}")
    rng = np.random.default_rng(seed)
    choices = [name for name, p in _PUZZLE_OF_LOOK.items() if p == puzzle]
    if look is None:
        look = choices[int(rng.integers(len(choices)))]
    elif look not in LOOKS:
        raise ValueError(f"unknown look {look!r}; choose one of {sorted(LOOKS)}")
    elif _PUZZLE_OF_LOOK[look] != puzzle:
        raise ValueError(f"look {look!r} draws {_PUZZLE_OF_LOOK[look]!r}, not {puzzle!r}")
    rows = int(rng.integers(2, 21)) if rows is None else int(rows)
    cols = int(rng.integers(2, 21)) if cols is None else int(cols)
    if rows < 1 or cols < 1:
        raise ValueError(f"rows and cols must be positive, got {rows}x{cols}")
    cells = rng.integers(0, _MAX_STATE[puzzle] + 1, size=(rows, cols))
    cp = int(rng.integers(18, 53))
    if canvas is None:
        # screen sizes that hold the board with room to spare; the largest if none does
        room = 1.5 if look == "chairs" else 1.0
        fits = [
            s for s in _SCREENS if cols * cp * room + 160 <= s[0] and rows * cp * room + 220 <= s[1]
        ]
        screen = fits[int(rng.integers(len(fits)))] if fits else _SCREENS[-1]
    else:
        screen = (int(canvas[0]), int(canvas[1]))
    render_seed = int(rng.integers(2**31))
    while True:
        try:
            return render_board(cells, look, seed=render_seed, cell_px=cp, canvas=screen, tilt=tilt)
        except _DoesNotFit:
            if cp <= 8:
                raise
            cp = max(8, int(cp * 0.85))
