"""The overlay stage: draw the answer onto the original image, in its perspective.

Every cell to click gets a white disc ringed in black (readable on any
colour) with its click count; games that turn chairs get a curved arrow
around the disc showing the turn direction.  Cells read with low confidence
get a dashed amber outline and a "?", and suspected misreads of an
unsolvable board a red one.  The board outline and a legend (total clicks,
whether that is optimal) complete the picture.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from .grid import Grid

FONT = cv2.FONT_HERSHEY_SIMPLEX
OUTLINE = (255, 0, 255)  # magenta, BGR
DOUBT = (0, 191, 255)  # amber
MISREAD = (0, 0, 255)  # red
CW, CCW = (255, 128, 0), (0, 128, 255)  # blue-ish, orange-ish

#: Cells read with less confidence than this are marked as doubtful (here and by the CLI).
LOW_CONFIDENCE = 0.6


@dataclass
class Marks:
    """What to draw: ``presses`` (signed for two-way games) or None when unsolvable."""

    presses: np.ndarray | None
    legend: str
    confidence: np.ndarray | None = None
    low_confidence: float = LOW_CONFIDENCE
    turns: bool = False  # draw the turn direction (chair games)
    suspects: list[tuple[int, int]] = field(default_factory=list)


def _poly(grid: Grid, uv: np.ndarray) -> np.ndarray:
    return np.round(grid.to_image(uv) * 16).astype(np.int32)  # 4 fractional bits


@functools.lru_cache(maxsize=256)
def _text_size(text: str, scale: float, thick: int) -> tuple[int, int]:
    """Width and height of ``text`` (asked once per size: marks of a board share one)."""
    (w, h), _ = cv2.getTextSize(text, FONT, scale, thick)
    return w, h


def _text_centred(
    img: np.ndarray,
    text: str,
    centre: Sequence[float],
    height: float,
    colour: tuple[int, int, int],
) -> None:
    scale = max(0.3, height / 22.0)
    thick = max(1, int(round(scale * 2)))
    w, h = _text_size(text, round(scale, 2), thick)
    org = (int(round(centre[0] - w / 2)), int(round(centre[1] + h / 2)))
    cv2.putText(img, text, org, FONT, scale, colour, thick, cv2.LINE_AA)


def _cell_sizes(grid: Grid, cells: np.ndarray) -> np.ndarray:
    """Pixel size (the shorter of top edge and left edge) of each (row, col) in ``cells``."""
    origin = cells[:, ::-1].astype(np.float64)  # (u, v) of each cell's top-left corner
    corner = grid.to_image(np.stack([origin, origin + [1.0, 0.0], origin + [0.0, 1.0]], 1))
    return np.minimum(*np.linalg.norm(corner[:, 1:] - corner[:, :1], axis=2).T)


def _turn_arrows(
    img: np.ndarray, grid: Grid, centres: np.ndarray, clockwise: np.ndarray, sizes: np.ndarray
) -> None:
    """A three-quarter arc around each disc with an arrowhead at its end.

    ``centres`` are the cells' (u, v) centres; ``clockwise`` and ``sizes``
    (cell size in pixels) go with them.  Each arc is a filled band over a
    black band a pixel wider all round (far cheaper than thick polylines).
    """
    if not len(centres):
        return
    start, end = -0.6 * np.pi, 0.9 * np.pi
    steps = np.linspace(0.0, 1.0, 40)
    thick = np.maximum(2, (sizes / 14).astype(int))
    colours = [CW if turn else CCW for turn in clockwise.tolist()]
    for grow in (1.0, 0.0):  # the black band, then the coloured one
        half = (((thick + 2) / 2 + grow) / sizes)[:, None, None]  # half its width, in cells
        extend = (grow / sizes / 0.4)[:, None]  # its ends stick out as much (radians)
        t = start - extend + (end - start + 2 * extend) * steps[None, :]
        ray = np.stack([np.cos(t), np.sin(t)], axis=-1)
        band = np.concatenate([(0.4 + half) * ray, (0.4 - half) * ray[:, ::-1]], axis=1)
        polygons = _poly(grid, centres[:, None, :] + band)
        for polygon, colour in zip(polygons, colours, strict=True):
            cv2.fillPoly(img, [polygon], colour if not grow else (0, 0, 0), cv2.LINE_AA, shift=4)
    # The arrowhead, at the end the turn goes to.
    t = np.where(clockwise[:, None], start + (end - start) * steps, end - (end - start) * steps)
    arcs = grid.to_image(centres[:, None, :] + 0.4 * np.stack([np.cos(t), np.sin(t)], axis=-1))
    tip, before = arcs[:, -1], arcs[:, -4]
    direction = (tip - before) / np.maximum(np.linalg.norm(tip - before, axis=1), 1e-6)[:, None]
    normal = direction[:, ::-1] * [-1.0, 1.0]
    head = (0.6 * np.maximum(5.0, sizes / 5))[:, None]
    back = tip - direction * head
    heads = np.stack([tip + direction * head, back + normal * head, back - normal * head], 1)
    for tri, colour in zip(np.round(heads * 16).astype(np.int32), colours, strict=True):
        cv2.fillConvexPoly(img, tri, colour, cv2.LINE_AA, shift=4)


def _dashed_quad(
    img: np.ndarray, quad: np.ndarray, colour: tuple[int, int, int], thick: int
) -> None:
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        for t0 in np.arange(0, 1, 0.2):
            p = a + (b - a) * t0
            q = a + (b - a) * min(1.0, t0 + 0.12)
            cv2.line(
                img,
                tuple(np.round(p).astype(int)),
                tuple(np.round(q).astype(int)),
                colour,
                thick,
                cv2.LINE_AA,
            )


def _legend(img: np.ndarray, text: str, grid: Grid) -> None:
    h, w = img.shape[:2]
    scale = float(np.clip(min(h, w) / 700.0, 0.4, 1.6))
    thick = max(1, int(round(scale * 2)))
    (tw, th), base = cv2.getTextSize(text, FONT, scale, thick)
    pad = int(6 * scale) + 2
    box_w, box_h = tw + 2 * pad, th + base + 2 * pad
    # Put the legend in the image corner farthest from the board.
    centre = grid.corners.mean(axis=0)
    spots = [(0, 0), (w - box_w, 0), (0, h - box_h), (w - box_w, h - box_h)]
    x, y = max(
        spots, key=lambda p: np.hypot(p[0] + box_w / 2 - centre[0], p[1] + box_h / 2 - centre[1])
    )
    x, y = int(max(0, x)), int(max(0, y))
    cv2.rectangle(img, (x, y), (x + box_w, y + box_h), (255, 255, 255), -1)
    cv2.rectangle(img, (x, y), (x + box_w, y + box_h), (0, 0, 0), max(1, thick // 2))
    cv2.putText(img, text, (x + pad, y + pad + th), FONT, scale, (0, 0, 0), thick, cv2.LINE_AA)


def draw_overlay(image: np.ndarray, grid: Grid, marks: Marks) -> np.ndarray:
    """A copy of ``image`` with the board outline, the clicks and a legend drawn on."""
    out = image.copy()
    pitch = grid.pitch()
    thick = max(2, int(round(pitch / 18)))
    outline = np.round(grid.corners * 16).astype(np.int32)
    cv2.polylines(out, [outline], True, (0, 0, 0), thick + 2, cv2.LINE_AA, shift=4)
    cv2.polylines(out, [outline], True, OUTLINE, thick, cv2.LINE_AA, shift=4)

    if marks.confidence is not None:
        doubtful = np.argwhere(marks.confidence < marks.low_confidence)
        for (r, c), size in zip(doubtful.tolist(), _cell_sizes(grid, doubtful), strict=True):
            quad = grid.cell_quad(r, c, inset=0.06)
            _dashed_quad(out, quad, DOUBT, max(1, thick // 2 + 1))
            corner = grid.to_image(np.array([[c + 0.82, r + 0.2]]))[0]
            _text_centred(out, "?", corner, 0.3 * float(size), DOUBT)
    for r, c in marks.suspects:
        quad = grid.cell_quad(r, c, inset=0.03)
        cv2.polylines(
            out,
            [np.round(quad * 16).astype(np.int32)],
            True,
            MISREAD,
            thick + 1,
            cv2.LINE_AA,
            shift=4,
        )

    if marks.presses is not None:
        cells = np.argwhere(marks.presses != 0)
        # All marks' geometry at once (one projection each), then draw.
        centres = cells[:, ::-1] + 0.5  # (u, v) of each cell's centre
        sizes = _cell_sizes(grid, cells)
        # Small discs (a radius under 10 px) are round enough with 16 sides.
        sides = 32 if not len(sizes) or 0.3 * float(np.median(sizes)) >= 10 else 16
        t = np.linspace(0, 2 * np.pi, sides, endpoint=False)
        ring = np.column_stack([np.cos(t), np.sin(t)])
        outer = _poly(grid, centres[:, None, :] + 0.3 * ring)
        inner = _poly(grid, centres[:, None, :] + 0.25 * ring)
        middles = grid.to_image(centres)
        counts = marks.presses[marks.presses != 0]
        if len(counts):  # marks never overlap: each colour in one call
            cv2.fillPoly(out, list(outer), (0, 0, 0), cv2.LINE_AA, shift=4)
            cv2.fillPoly(out, list(inner), (255, 255, 255), cv2.LINE_AA, shift=4)
        for count, middle, size in zip(
            counts.tolist(), middles.tolist(), sizes.tolist(), strict=True
        ):
            _text_centred(out, str(abs(count)), middle, 0.28 * size, (0, 0, 0))
        if marks.turns:
            _turn_arrows(out, grid, centres, counts > 0, sizes)
    _legend(out, marks.legend, grid)
    return out
