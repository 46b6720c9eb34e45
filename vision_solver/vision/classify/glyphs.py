"""The glyph reader: arrows drawn on tiles.

The glyph of each cell (the minority colour of its inner part) points the
way its shape says: away from the hollow of its hull (a chevron's V, the
notches beside an arrow's shaft), or toward its sharpest tip.  A board is an
arrow board when every cell carries the same clearly pointing glyph, turned.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .cells import CELL_PX

#: Glyphs are read at this many pixels a cell.
GLYPH_PX = 64
#: A cell whose grey levels (0..255) span less than this carries no glyph.
GLYPH_CONTRAST = 30
#: A glyph whose hull is hollow by more than this share (a chevron's V, the
#: notches beside an arrow's shaft) points from the hollow to the ink; a
#: solider one (a triangle) toward its farthest hull corner.
HOLLOW = 0.12
#: A glyph points clearly one way when its direction is at least this sure
#: (1 on an axis, 0 on a diagonal): a digit or a dot does not.
POINTING = 0.4
#: An arrow spans at least this share of its tile; a corner mark does not.
GLYPH_EXTENT = 0.35
#: Glyphs that overlap themselves turned a quarter by more than this
#: (intersection over union) are dots, rings, squares: they point nowhere.
TURN_ALIKE = 0.75
#: The cells' glyphs, turned to point up, overlap their median shape by more
#: than this when they are one glyph drawn in four turns.
SAME_GLYPH = 0.6


#: Unit vectors (dx, dy) in image coordinates for up, right, down, left.
_DIRECTIONS = np.array([[0, -1], [1, 0], [0, 1], [-1, 0]], dtype=np.float64)


def glyph_mask(cell: np.ndarray) -> np.ndarray | None:
    """The glyph of a rectified cell (BGR or grey) as a 0/1 mask: the minority side of Otsu."""
    gray = cell if cell.ndim == 2 else cv2.cvtColor(cell, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    m = int(0.14 * h)
    inner = gray[m : h - m, m : w - m]
    if int(inner.max()) - int(inner.min()) < GLYPH_CONTRAST:
        return None
    _, mask = cv2.threshold(inner, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if cv2.countNonZero(mask) > 0.5 * mask.size:
        mask = 1 - mask
    # The glyph is the largest component; a glyph sits in the middle, so one
    # lying along the window's edge is a tile rim, a gap or a bevel: then try
    # the largest component that keeps clear of the edge.  A big glyph (an
    # arrow across the whole tile) may touch the window a little, on one side
    # or on two opposite ones; a rim's corner touches two sides that meet.
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count < 2:
        return None
    order = 1 + np.argsort(-stats[1:, cv2.CC_STAT_AREA])
    height, width = labels.shape
    rim = 2 * (height + width)
    for k in order[:3].tolist():
        if stats[k, cv2.CC_STAT_AREA] < 0.02 * labels.size:
            return None
        top, bottom, left, right = (
            np.count_nonzero(side == k)
            for side in (labels[0], labels[-1], labels[:, 0], labels[:, -1])
        )
        total = top + bottom + left + right
        corner = (top or bottom) and (left or right)
        brief = max(top, bottom) <= 0.4 * width and max(left, right) <= 0.4 * height
        if total <= 0.05 * rim or (total <= 0.1 * rim and brief and not corner):
            return (labels == k).astype(np.uint8)
    return None


def _centroid(mask: np.ndarray) -> np.ndarray:
    """(x, y) mean of a non-empty 0/1 mask's pixels."""
    m = cv2.moments(mask, binaryImage=True)
    return np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])


def glyph_direction(glyph: np.ndarray) -> tuple[int, float]:
    """Direction (0 up, 1 right, 2 down, 3 left) a glyph points, and a confidence."""
    centroid = _centroid(glyph)
    contours, _ = cv2.findContours(glyph, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(np.vstack(contours))
    hull_mask = np.zeros_like(glyph)
    cv2.fillConvexPoly(hull_mask, hull, 1)
    hollow = cv2.bitwise_and(hull_mask, cv2.bitwise_not(glyph))  # 0/1: in the hull, not ink
    if cv2.countNonZero(hollow) > HOLLOW * cv2.countNonZero(hull_mask):
        # The hollow of the hull (inside a chevron's V, beside an arrow's shaft)
        # lies behind the point: the arrow points from the hollow to the ink.
        vector = centroid - _centroid(hollow)
    else:
        # A solid shape (a triangle): it points to the hull corner farthest out.
        pts = hull.reshape(-1, 2).astype(np.float64)
        far = pts[np.argmax(np.linalg.norm(pts - centroid, axis=1))]
        vector = far - centroid
    norm = np.linalg.norm(vector)
    if norm < 1e-6:
        return 0, 0.0
    cosines = _DIRECTIONS @ (vector / norm)
    best = int(np.argmax(cosines))
    # 1 when the vector lies on an axis, 0 when it is diagonal (45 degrees)
    confidence = float(np.clip((cosines[best] - np.sqrt(0.5)) / (1 - np.sqrt(0.5)), 0, 1))
    return best, confidence


@dataclass
class Glyph:
    """A cell's glyph (0/1 mask) and the way it points, with a confidence."""

    mask: np.ndarray
    direction: int
    confidence: float


def cell_glyphs(
    board: np.ndarray, rows: int, cols: int, pointing: bool = False
) -> list[Glyph] | None:
    """The glyph of every cell of a rectified board (row-major), or None if one has none.

    With ``pointing``, also None as soon as a glyph does not clearly point
    one way (a digit, a dot): then the board is not an arrow board.
    """
    glyphs = []
    gray = cv2.cvtColor(board, cv2.COLOR_BGR2GRAY)
    for r in range(rows):
        # Enlarged a row of cells at a time (most boards without glyphs give up
        # at the first cell), then cut into cells.
        strip = gray[r * CELL_PX : (r + 1) * CELL_PX]
        big = cv2.resize(strip, (cols * GLYPH_PX, GLYPH_PX), interpolation=cv2.INTER_CUBIC)
        for c in range(cols):
            mask = glyph_mask(big[:, c * GLYPH_PX : (c + 1) * GLYPH_PX])
            if mask is None:
                return None
            glyph = Glyph(mask, *glyph_direction(mask))
            if pointing and glyph.confidence < POINTING:
                return None
            glyphs.append(glyph)
    return glyphs


def read_glyphs(glyphs: list[Glyph], rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Directions and confidences of the cells' glyphs."""
    cells = np.array([g.direction for g in glyphs], dtype=np.int64).reshape(rows, cols)
    return cells, np.array([g.confidence for g in glyphs]).reshape(rows, cols)


def overlap(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Intersection over union of masks ``a`` and ``b`` (over their last two axes)."""
    both = np.logical_and(a, b).sum(axis=(-2, -1))
    return both / np.maximum(1, np.logical_or(a, b).sum(axis=(-2, -1)))


def looks_like_glyphs(glyphs: list[Glyph]) -> bool:
    """Every cell carries the same clearly pointing glyph (up to rotation)."""
    canonical = []
    extents: list[float] = []
    for glyph in glyphs:
        if glyph.confidence < POINTING:
            return False
        # frame it on its bounding box and turn it to point up
        x, y, w, h = cv2.boundingRect(glyph.mask)
        extents.append(max(w - 1, h - 1) / glyph.mask.shape[0])
        box = np.rot90(glyph.mask[y : y + h, x : x + w], k=glyph.direction)
        canonical.append(cv2.resize(box, (24, 24), interpolation=cv2.INTER_NEAREST))
    # An arrow fills a good part of its tile; a corner mark or a speck does not.
    if np.median(extents) < GLYPH_EXTENT:
        return False
    stack = np.array(canonical) > 0
    # A mark that looks the same turned a quarter (a dot, a ring, a square) points nowhere.
    if np.median(overlap(stack, np.rot90(stack, axes=(1, 2)))) > TURN_ALIKE:
        return False
    typical = np.median(stack.astype(np.float64), axis=0) > 0.5
    return bool(np.median(overlap(stack, typical[None])) > SAME_GLYPH)
