"""User-interface clutter around the board: a menu bar, a title, buttons and a score line."""

from __future__ import annotations

import cv2
import numpy as np

from .draw import _AA, Rect, _fill_round_rect, _mix, _put_text_centered, _text_size
from .themes import _Theme

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
