"""The overlay stage: draw the answer onto the original image, in its perspective.

Every cell to click gets a white disc ringed in black (readable on any
colour) with its click count; games that turn chairs get a curved arrow
around the disc showing the turn direction.  Cells read with low confidence
get a dashed amber outline and a "?", and suspected misreads of an
unsolvable board a red one.  The board outline and a legend (total clicks,
whether that is optimal) complete the picture.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .grid import Grid

FONT = cv2.FONT_HERSHEY_SIMPLEX
OUTLINE = (255, 0, 255)  # magenta, BGR
DOUBT = (0, 191, 255)  # amber
MISREAD = (0, 0, 255)  # red
CW, CCW = (255, 128, 0), (0, 128, 255)  # blue-ish, orange-ish


@dataclass
class Marks:
    """What to draw: ``presses`` (signed for two-way games) or None when unsolvable."""

    presses: np.ndarray | None
    legend: str
    confidence: np.ndarray | None = None
    low_confidence: float = 0.6
    turns: bool = False  # draw the turn direction (chair games)
    suspects: list[tuple[int, int]] = field(default_factory=list)


def _poly(grid: Grid, uv: np.ndarray) -> np.ndarray:
    return np.round(grid.to_image(uv) * 16).astype(np.int32)  # 4 fractional bits


def _disc(grid: Grid, row: int, col: int, radius: float, steps: int = 32) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, steps, endpoint=False)
    uv = np.column_stack([col + 0.5 + radius * np.cos(t), row + 0.5 + radius * np.sin(t)])
    return _poly(grid, uv)


def _text_centred(
    img: np.ndarray, text: str, centre: np.ndarray, height: float, colour: tuple[int, int, int]
) -> None:
    scale = max(0.3, height / 22.0)
    thick = max(1, int(round(scale * 2)))
    (w, h), _ = cv2.getTextSize(text, FONT, scale, thick)
    org = (int(round(centre[0] - w / 2)), int(round(centre[1] + h / 2)))
    cv2.putText(img, text, org, FONT, scale, colour, thick, cv2.LINE_AA)


def _local_size(grid: Grid, row: int, col: int) -> float:
    quad = grid.cell_quad(row, col)
    return float(min(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0])))


def _turn_arrow(
    img: np.ndarray, grid: Grid, row: int, col: int, clockwise: bool, size: float
) -> None:
    """A three-quarter arc around the disc with an arrowhead at its end."""
    start, end = (-0.6 * np.pi, 0.9 * np.pi) if clockwise else (0.9 * np.pi, -0.6 * np.pi)
    t = np.linspace(start, end, 40)
    radius = 0.4
    uv = np.column_stack([col + 0.5 + radius * np.cos(t), row + 0.5 + radius * np.sin(t)])
    pts = grid.to_image(uv)
    colour = CW if clockwise else CCW
    thick = max(2, int(size / 14))
    cv2.polylines(
        img,
        [np.round(pts * 16).astype(np.int32)],
        False,
        (0, 0, 0),
        thick + 2,
        cv2.LINE_AA,
        shift=4,
    )
    cv2.polylines(
        img, [np.round(pts * 16).astype(np.int32)], False, colour, thick, cv2.LINE_AA, shift=4
    )
    tip, before = pts[-1], pts[-4]
    direction = (tip - before) / max(np.linalg.norm(tip - before), 1e-6)
    normal = np.array([-direction[1], direction[0]])
    head = max(4.0, size / 7)
    back = tip - direction * head * 0.6
    tri = np.array(
        [tip + direction * head * 0.6, back + normal * head * 0.6, back - normal * head * 0.6]
    )
    cv2.fillConvexPoly(img, np.round(tri * 16).astype(np.int32), colour, cv2.LINE_AA, shift=4)


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
        for r, c in np.argwhere(marks.confidence < marks.low_confidence):
            quad = grid.cell_quad(int(r), int(c), inset=0.06)
            _dashed_quad(out, quad, DOUBT, max(1, thick // 2 + 1))
            corner = grid.to_image(np.array([[c + 0.82, r + 0.2]]))[0]
            _text_centred(out, "?", corner, 0.3 * _local_size(grid, int(r), int(c)), DOUBT)
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
        for r, c in np.argwhere(marks.presses != 0):
            r, c = int(r), int(c)
            count = int(marks.presses[r, c])
            size = _local_size(grid, r, c)
            cv2.fillPoly(out, [_disc(grid, r, c, 0.3)], (0, 0, 0), cv2.LINE_AA, shift=4)
            cv2.fillPoly(out, [_disc(grid, r, c, 0.25)], (255, 255, 255), cv2.LINE_AA, shift=4)
            centre = grid.to_image(np.array([[c + 0.5, r + 0.5]]))[0]
            _text_centred(out, str(abs(count)), centre, 0.28 * size, (0, 0, 0))
            if marks.turns:
                _turn_arrow(out, grid, r, c, count > 0, size)
    _legend(out, marks.legend, grid)
    return out
