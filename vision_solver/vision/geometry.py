"""Geometry shared by the stages: homographies, board outlines, cell sizes.

A board's outline is four points, clockwise on screen from the top-left
(TL, TR, BR, BL), and its homography maps board coordinates (u, v) in
[0, cols] x [0, rows] (cell (r, c) spans u in [c, c+1], v in [r, r+1]) to
image pixels (x, y).  The locate stage finds one (``BoardLocation``), the
user may give one by hand (``board_at``), the grid stage refines it and the
overlay draws through it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..errors import BoardInputError


@dataclass
class BoardLocation:
    """Where the board is: corners and the homography of its cell grid.

    ``homography`` maps board coordinates (u, v) in [0, cols] x [0, rows]
    (cell (r, c) spans u in [c, c+1], v in [r, r+1]) to image pixels (x, y).
    ``rows``/``cols`` are the lattice's own count, which the grid stage checks.
    """

    corners: np.ndarray  # (4, 2) float64: TL, TR, BR, BL in image pixels
    homography: np.ndarray  # 3 x 3
    rows: int
    cols: int
    confidence: float
    framed: bool = False  # the outline is a frame's inner edge: the grid stage keeps it

    def __bool__(self) -> bool:
        return True


def apply_homography(homography: np.ndarray, uv: np.ndarray) -> np.ndarray:
    """Points ``(..., 2)`` mapped by a 3 x 3 homography, in the same shape.

    A point on the plane's horizon (or past it) maps to inf or NaN, silently:
    a lattice grown far past a board seen at a slant reaches there, and its
    callers drop such points.
    """
    uv = np.asarray(uv, dtype=np.float64)
    flat = uv.reshape(-1, 2)
    pts = flat @ homography[:, :2].T + homography[:, 2]  # (u, v, 1) times the homography
    with np.errstate(divide="ignore", invalid="ignore"):
        mapped = pts[:, :2] / pts[:, 2:3]
    return mapped.reshape(uv.shape if uv.ndim > 1 else (-1, 2))


def outline(rows: int, cols: int) -> np.ndarray:
    """The corners (TL, TR, BR, BL) of a rows x cols board in board coordinates (u, v)."""
    return np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], dtype=np.float64)


def quad_areas(quads: np.ndarray) -> np.ndarray:
    """The area of each quadrilateral ``(n, 4, 2)``, by the shoelace rule."""
    x, y = quads[..., 0], quads[..., 1]
    return 0.5 * np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1))


def clockwise_from_top_left(quad: np.ndarray) -> np.ndarray:
    """The four points of a convex quadrilateral, clockwise (on screen) from the top-left."""
    quad = np.roll(quad, -int(np.argmin(quad.sum(axis=1))), axis=0)
    a, b, c = quad[0], quad[1], quad[2]
    if (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]) < 0:
        quad = quad[[0, 3, 2, 1]]  # it went anticlockwise
    return quad


def clockwise_convex(corners: np.ndarray) -> bool:
    """True when the points go clockwise (on screen) round a convex outline."""
    edges = np.roll(corners, -1, axis=0) - corners
    following = np.roll(edges, -1, axis=0)
    turns = edges[:, 0] * following[:, 1] - edges[:, 1] * following[:, 0]
    return bool(np.all(turns > 0))


def cell_size(corners: np.ndarray, rows: int, cols: int) -> float:
    """A cell's typical side (pixels) on the board with outline ``corners`` (TL, TR, BR, BL).

    The mean of a cell's width along the top edge and its height along the
    left edge (the corner the board is read from).
    """
    top = np.linalg.norm(corners[1] - corners[0]) / cols
    side = np.linalg.norm(corners[3] - corners[0]) / rows
    return float((top + side) / 2)


def cells_off_image(corners: np.ndarray, rows: int, cols: int, shape: tuple[int, ...]) -> float:
    """How far (in cells) the outline ``corners`` (TL, TR, BR, BL) reaches past the image."""
    h, w = shape[:2]
    x, y = corners[:, 0], corners[:, 1]
    past = np.max([-x, x - w, -y, y - h], axis=0)  # pixels past the edge, per corner
    # each corner's own cell size: its two edges, over their cells
    to_next = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)  # top, right, ...
    to_previous = np.roll(to_next, 1)  # left, top, right, bottom
    cell = (to_next / [cols, rows, cols, rows] + to_previous / [rows, cols, rows, cols]) / 2
    return float(max(0.0, np.max(past / cell)))


def cells_past(corners: np.ndarray, rows: int, cols: int, polygon: np.ndarray) -> float:
    """How far (in cells) the outline ``corners`` (TL, TR, BR, BL) of ``rows`` x ``cols``
    cells reaches past the convex ``polygon``."""
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)  # top, right, ...
    cell = float(np.mean(sides / [cols, rows, cols, rows]))
    past = -float(depth_inside(corners, polygon).min())
    return max(0.0, past / cell) if cell > 0 else 0.0


def depth_inside(points: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """How far inside the convex ``polygon`` each point lies: its distance to the nearest side."""
    ends = np.roll(polygon, -1, axis=0)
    sides = ends - polygon
    normals = np.column_stack([-sides[:, 1], sides[:, 0]])
    normals /= np.maximum(np.linalg.norm(normals, axis=1), 1e-12)[:, None]
    centre = polygon.mean(axis=0)
    normals *= np.where(((centre - polygon) * normals).sum(axis=1) < 0, -1.0, 1.0)[:, None]
    depths = (points[:, None, :] - polygon[None, :, :]) * normals[None, :, :]
    return depths.sum(axis=2).min(axis=1)


def board_at(corners: np.ndarray, rows: int, cols: int) -> BoardLocation:
    """The board whose outer corners (TL, TR, BR, BL, image pixels) are given, of rows x cols.

    For boards the locate stage cannot find: the corners come from the user.
    BoardInputError when they are not four points going clockwise round a
    convex quadrilateral.
    """
    corners = np.asarray(corners, dtype=np.float64)
    if corners.shape != (4, 2) or not np.all(np.isfinite(corners)):
        raise BoardInputError(f"corners must be four (x, y) points, not shape {corners.shape}")
    if not clockwise_convex(corners):
        raise BoardInputError(
            "corners must go clockwise round the board from its top-left "
            "(top-left, top-right, bottom-right, bottom-left), as a convex outline"
        )
    square = outline(rows, cols).astype(np.float32)
    homography = cv2.getPerspectiveTransform(square, corners.astype(np.float32))
    return BoardLocation(corners, homography / homography[2, 2], rows, cols, 1.0)


def parse_corners(text: str) -> np.ndarray:
    """``"x,y x,y x,y x,y"`` (``--corners``) -> a 4 x 2 array of [x, y] points.

    BoardInputError naming the text when it is not four x,y points.
    """
    try:
        points = [[float(v) for v in point.split(",")] for point in text.replace(";", " ").split()]
        if len(points) != 4 or any(len(point) != 2 for point in points):
            raise ValueError
    except ValueError:
        raise BoardInputError(
            f"--corners {text!r}: expected four x,y points (top-left, top-right, "
            "bottom-right, bottom-left), e.g. --corners '120,80 520,80 520,480 120,480'"
        ) from None
    return np.array(points)


def inside(point: np.ndarray, outline: np.ndarray) -> bool:
    """True when ``point`` (x, y) lies inside the quadrilateral ``outline`` (4 x 2, pixels)."""
    polygon = outline.astype(np.float32)
    return cv2.pointPolygonTest(polygon, (float(point[0]), float(point[1])), False) >= 0


def share_within(quad: np.ndarray, outline: np.ndarray) -> float:
    """The share of the convex quadrilateral ``quad``'s area that lies inside the convex
    ``outline`` (both 4 x 2, pixels): 1.0 for a quad wholly inside, 0.0 for one apart."""
    area = float(quad_areas(np.asarray(quad, np.float64)[None])[0])
    if area <= 0:
        return 0.0
    common, _ = cv2.intersectConvexConvex(
        np.asarray(quad, np.float32).reshape(-1, 1, 2),
        np.asarray(outline, np.float32).reshape(-1, 1, 2),
    )
    return float(common) / area
