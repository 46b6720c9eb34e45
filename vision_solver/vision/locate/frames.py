"""Boards drawn inside a frame.

Some boards are no lattice of look-alike cells: 3-D objects seen under a
steep camera (benches) change their outline with their turn, so no size
group holds them all.  Such boards are often drawn inside a frame (a paved
border, a rim).  The frame's inner edge is then the board's outline, and the
objects inside count its rows and columns.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from ..colour import commonest_chroma, far_from_chroma
from ..geometry import (
    apply_homography,
    clockwise_convex,
    clockwise_from_top_left,
    depth_inside,
)

#: The largest count of rows or columns looked for inside a frame.
MAX_FRAMED_CELLS = 24
#: A frame is a ring: a component filling less than RING_FILL of its convex
#: hull, a quadrilateral, around a hole of at least HOLE_SHARE of the hull.
RING_FILL, HOLE_SHARE = 0.5, 0.3
#: Objects counted in a frame agree with a count when their phases line up
#: (mean resultant length at least PHASES_AGREE) within OBJECT_OFFSET of a
#: cell of a common offset (what stands up is drawn off its cell's centre) ...
PHASES_AGREE, OBJECT_OFFSET = 0.6, 0.35
#: ... and at least this share of the cells then holds an object.
FRAMED_COVER = 0.8


@dataclass
class Framed:
    """A board inside a frame: the frame's inner edge and the cells counted in it."""

    corners: np.ndarray  # (4, 2) TL, TR, BR, BL, work pixels
    rows: int
    cols: int
    cover: float  # share of the cells that hold an object


def _fit_line(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The least-squares line through ``points``: (unit direction, a point on it)."""
    vx, vy, x0, y0 = cv2.fitLine(points.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
    return np.array([vx, vy], dtype=np.float64), np.array([x0, y0], dtype=np.float64)


def _crossing(
    first: tuple[np.ndarray, np.ndarray], second: tuple[np.ndarray, np.ndarray]
) -> np.ndarray | None:
    """Where two lines (direction, point) cross; None when they are parallel."""
    (d1, p1), (d2, p2) = first, second
    system = np.column_stack([d1, -d2])
    if abs(np.linalg.det(system)) < 1e-9:
        return None
    t = np.linalg.solve(system, p2 - p1)
    return p1 + t[0] * d1


def _inner_edge(outer: np.ndarray, hole: np.ndarray) -> np.ndarray | None:
    """The frame's inner edge: a line through the hole's border along each outer side.

    Each point of the hole's border belongs to the outer side it is nearest
    to.  Objects that touch the frame dent the hole; a dent lies further in
    than the frame's edge, so the line is fitted again without the points
    well inside it until none is left.
    """
    centre = outer.mean(axis=0)
    inward, starts, directions, lengths = [], [], [], []
    for k in range(4):
        a, b = outer[k], outer[(k + 1) % 4]
        length = float(np.linalg.norm(b - a))
        direction = (b - a) / length
        normal = np.array([-direction[1], direction[0]])
        if np.dot(centre - a, normal) < 0:
            normal = -normal
        inward.append(normal)
        starts.append(a)
        directions.append(direction)
        lengths.append(length)
    depth = np.column_stack([(hole - starts[k]) @ inward[k] for k in range(4)])
    side = depth.argmin(axis=1)
    lines = []
    for k in range(4):
        along = (hole - starts[k]) @ directions[k] / lengths[k]
        points = hole[(side == k) & (along > 0.1) & (along < 0.9)]
        for _ in range(5):
            if len(points) < 10:
                return None
            direction, through = _fit_line(points)
            normal = np.array([-direction[1], direction[0]])
            normal *= np.sign(np.dot(normal, inward[k])) or 1.0
            inside = (points - through) @ normal > 1.5
            if not inside.any():
                break
            points = points[~inside]
        lines.append(_fit_line(points))
    corners = [_crossing(lines[(k - 1) % 4], lines[k]) for k in range(4)]
    if any(c is None for c in corners):
        return None
    return np.array(corners)


def frames(mask: np.ndarray) -> Iterator[np.ndarray]:
    """Inner edges of the frames in a 0/1 mask, largest first.

    A frame is a ring: a component whose convex hull is a quadrilateral it
    fills less than half of, around one large hole.
    """
    h, w = mask.shape
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    boxes = stats[1:, 2].astype(np.int64) * stats[1:, 3]
    for i in (np.argsort(-boxes)[:5] + 1).tolist():
        x, y, bw, bh, area = stats[i].tolist()
        if bw * bh < 0.005 * h * w:
            break
        ring = (labels[y : y + bh, x : x + bw] == i).astype(np.uint8)
        contours, _ = cv2.findContours(ring, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        outline = max(contours, key=cv2.contourArea)
        hull = cv2.convexHull(outline)
        hull_area = cv2.contourArea(hull)
        if area > RING_FILL * hull_area:
            continue  # solid: no ring
        quad = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True).reshape(-1, 2)
        if len(quad) != 4:
            continue
        # The hole: what the hull holds besides the ring (a far side too thin
        # to survive the smoothing may leave the ring open there).
        filled = np.zeros_like(ring)
        cv2.fillConvexPoly(filled, hull, 1)
        holes, hole_labels, hole_stats, _ = cv2.connectedComponentsWithStats(
            filled & (1 - ring), connectivity=4
        )
        if holes < 2:
            continue
        j = 1 + int(np.argmax(hole_stats[1:, 4]))
        if hole_stats[j, 4] < HOLE_SHARE * hull_area:
            continue
        border, _ = cv2.findContours(
            (hole_labels == j).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE
        )
        hole = max(border, key=cv2.contourArea).reshape(-1, 2).astype(np.float64)
        # (where the ring is open the hole's border runs along the hull: no edge there)
        hole = hole[depth_inside(hole, hull.reshape(-1, 2).astype(np.float64)) > 1.5]
        outer = clockwise_from_top_left(quad.astype(np.float64))
        inner = _inner_edge(outer, hole)
        if inner is not None and clockwise_convex(inner):
            yield inner + (x, y)


def count_along(positions: np.ndarray) -> tuple[int, float] | None:
    """How many equal cells ``positions`` (0..1 across the board) fall into, and their offset.

    One object per cell puts the positions at the cells' centres, give or
    take a common offset (3-D objects stand up from their cell's centre):
    the count is the largest whose centres all the positions agree with
    (their phases, 2 pi count x position, line up) and that leaves no cell
    empty.  A count twice too large lines the phases up too, but half a cell
    off and with every other cell empty.
    """
    best = None
    for count in range(2, MAX_FRAMED_CELLS + 1):
        phase = positions * count - 0.5
        mean = np.exp(2j * np.pi * phase).mean()
        offset = float(np.angle(mean) / (2 * np.pi))  # -0.5 .. 0.5 of a cell
        if abs(mean) < PHASES_AGREE or abs(offset) > OBJECT_OFFSET:
            continue
        cells = np.floor(phase + 0.5 - offset).astype(np.int64)
        if len(np.unique(cells[(cells >= 0) & (cells < count)])) == count:
            best = count, offset
    return best


def framed_board(lab: np.ndarray) -> Framed | None:
    """A board of objects inside a frame, in a Lab work image (None when there is none).

    The objects are what stands out from the backdrop's colour inside the
    frame.  Columns are counted from their centres across the board, rows
    from their feet (their lowest pixels: what stands up from a cell rises up
    the image, but stands on the cell).
    """
    backdrop = commonest_chroma(lab)
    mask = None  # the objects: made once a frame is found (most images have none)
    for inner in frames(far_from_chroma(lab, backdrop, thin=True)):
        if mask is None:
            mask = far_from_chroma(lab, backdrop)
        inside = np.zeros_like(mask)
        cv2.fillConvexPoly(inside, np.round(inner).astype(np.int32), 1)
        inside = cv2.erode(inside, np.ones((5, 5), np.uint8))
        count, _, stats, centroids = cv2.connectedComponentsWithStats(mask & inside)
        area = stats[1:, 4].astype(np.float64)
        if count < 5:
            continue  # a 2x2 board holds four objects at least
        big = np.flatnonzero(area >= 0.2 * np.percentile(area, 90))
        x, y, w, h = (stats[1:, k][big].astype(np.float64) for k in range(4))
        to_unit = cv2.getPerspectiveTransform(
            inner.astype(np.float32), np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
        )
        across = apply_homography(to_unit, centroids[1:][big])[:, 0]
        down = apply_homography(to_unit, np.column_stack([x + w / 2, y + h - 1]))[:, 1]
        cols, rows = count_along(across), count_along(down)
        if cols is None or rows is None:
            continue
        (n_cols, col_offset), (n_rows, row_offset) = cols, rows
        c = np.floor(across * n_cols - col_offset).astype(np.int64)
        r = np.floor(down * n_rows - row_offset).astype(np.int64)
        on = (r >= 0) & (r < n_rows) & (c >= 0) & (c < n_cols)
        cover = len(set(zip(r[on].tolist(), c[on].tolist(), strict=True))) / (n_rows * n_cols)
        if cover >= FRAMED_COVER:
            return Framed(inner, n_rows, n_cols, cover)
    return None
