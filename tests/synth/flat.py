"""The flat looks: screen-aligned boards of tiles, buttons or arrows, and their backgrounds."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from .draw import (
    _AA,
    _ONE,
    _SHIFT,
    _cell_box,
    _cell_centre,
    _fill_poly,
    _fill_round_rect,
    _jitter,
    _mix,
    _put_text_centered,
    _rotate_dir,
    _scale,
    _text_size,
)
from .themes import _Theme


def _frame_pad(look: str, cp: int) -> int:
    """How far the board's own decoration (panel, frame, outer grid line) reaches past its grid."""
    if look == "gridlines":
        return _grid_line_thickness(cp) // 2 + 1
    if look == "terminal":
        return max(3, cp // 6) + 2
    return max(4, cp // 3)


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
