"""Small drawing helpers shared by the looks: colours, anti-aliased shapes, text, cell boxes.

Coordinates follow the OpenCV convention (see the package's docstring); shapes are drawn with
``_SHIFT`` fractional bits so that float coordinates land exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

Color = tuple[int, int, int]
Rect = tuple[int, int, int, int]  # x1, y1, x2, y2 (inclusive pixel bounds)

_SHIFT = 4  # fractional bits for sub-pixel drawing
_ONE = 1 << _SHIFT
_AA = cv2.LINE_AA


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
