"""A photographed screen (or a toy's case): the large plane the board lies on, seen at an angle.

A phone photo of a monitor shows the screen as a convex quadrilateral with
straight edges (the bezel's outer and inner edge) lying wholly in the
picture; a toy on a table shows its case so.  Warped square-on, the plane
is a screenshot again: the board's cells are upright and of one size, and
the room around it (wall pictures, a desk, a keyboard) is gone.  The locate
stage looks for the board on that rectified plane first
(``plane_quad``, ``rectify``) and maps what it finds back into the photo.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..geometry import clockwise_convex, clockwise_from_top_left

#: Quadrilaterals are looked for in the photo scaled so its longer side is this.
QUAD_SIDE = 640
#: Smoothing (work pixels) before the edges are found: a screen's moire and a
#: table's grain make no long straight edges.
QUAD_BLUR = 1.5
#: Canny's hysteresis thresholds on each 8-bit Lab channel.
EDGE_LOW, EDGE_HIGH = 20, 50
#: A plane is a quadrilateral covering at least this share of the picture,
#: every edge of it at least QUAD_EDGE of the picture's shorter side (a
#: window's title bar is no plane) ...
QUAD_SHARE, QUAD_EDGE = 0.08, 0.2
#: ... whose outline, its contour's convex hull simplified to within this
#: share of its perimeter, has four corners ...
QUAD_TOLERANCE = 0.02
#: ... every one at least this many work pixels inside the picture (a plane
#: cut by the picture's edge, a floor or a desk, is no screen).
QUAD_INSIDE = 3
#: A plane's side is drawn in the photo when an edge runs within QUAD_REACH work pixels of
#: at least this share of it.  (A contour's hull that took in a table's edge, or a corner
#: cut across a window's tab, has a side or two along no edge: a plane with every side
#: drawn comes first, at whatever size.)
QUAD_SUPPORT, QUAD_REACH = 0.7, 3
#: A plane is seen at an angle (a photo's) when an edge of it turns from the
#: picture's axes by more than this many degrees: more than a board's outline
#: (``target.TILTED_DEGREES``), as the corners of a window's rounded outline,
#: found on the small picture, wander by a pixel or two.
PLANE_TILT = 3.0
#: The rectified plane keeps this share of its side around it (the board
#: may reach the plane's edge: a toy's keys near its case's rim).
RECTIFIED_MARGIN = 0.05
#: The rectified plane's longer side is at most this many pixels.
RECTIFIED_SIDE = 2000
#: A picture is rendered (a screenshot) when at least this share of its
#: neighbouring pixels (along the rows sampled) are exactly alike: the flat
#: panels of a screenshot repeat their pixels (0.83 to 0.99 on the real
#: screenshots; a few under a gradient or JPEG'd are lower), while a photo's
#: sensor noise, blur and JPEG leave fewer (0.1 and 0.13 on the real photos,
#: 0.2 to 0.3 on the synthetic photos, 0.76 at most).
RENDERED_ALIKE = 0.8
#: Rows sampled for that (evenly spaced).
RENDERED_ROWS = 64


@dataclass(frozen=True)
class Rectified:
    """A plane warped square-on: its ``image``, the homography back into the photo and the
    plane's own ``outline`` in the image (TL, TR, BR, BL; a margin of the photo lies round it)."""

    image: np.ndarray
    to_photo: np.ndarray  # rectified pixels -> photo pixels
    outline: np.ndarray


def looks_rendered(image: np.ndarray) -> bool:
    """True when a BGR picture looks rendered (a screenshot) rather than photographed.

    Most of a screenshot's neighbouring pixels are exactly alike (its flat
    panels); a photo's noise leaves few so.  It only orders the searches
    (``locate_board``): a rendered picture is searched as it stands first,
    a photo on its plane first.  It looks at a few rows only (a fraction of a
    millisecond).
    """
    rows = image[:: max(1, image.shape[0] // RENDERED_ROWS)]
    if rows.shape[1] < 2:
        return True
    step = cv2.absdiff(rows[:, 1:], rows[:, :-1])
    moved = cv2.transform(step, np.ones((1, 3), np.float32))  # 0 where no channel changed
    return 1.0 - cv2.countNonZero(moved) / moved.size >= RENDERED_ALIKE


def plane_quads(
    image: np.ndarray,
    share: float = QUAD_SHARE,
    edge: float = QUAD_EDGE,
    drawn: list[bool] | None = None,
) -> list[np.ndarray]:
    """The quadrilateral planes wholly inside a BGR photo (TL, TR, BR, BL): each covering
    ``share`` of it at least, with edges ``edge`` of its shorter side.  Those with every
    side drawn (QUAD_SUPPORT) come first, largest first, then the others, largest first;
    ``drawn``, when given, gets whether each one's sides are, in that order."""
    height, width = image.shape[:2]
    scale = QUAD_SIDE / max(height, width)
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), QUAD_BLUR)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    edges = np.zeros(small.shape[:2], np.uint8)
    for channel in cv2.split(lab):
        edges |= cv2.Canny(channel, EDGE_LOW, EDGE_HIGH)
    reach = 2 * QUAD_REACH + 1
    near_edge = cv2.dilate(edges, np.ones((reach, reach), np.uint8))
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    small_h, small_w = small.shape[:2]
    found: list[tuple[float, np.ndarray]] = []
    for contour in contours:
        hull = cv2.convexHull(contour)
        area = cv2.contourArea(hull)
        if area < share * small_h * small_w:
            continue
        corners = cv2.approxPolyDP(hull, QUAD_TOLERANCE * cv2.arcLength(hull, True), True)
        if len(corners) != 4:
            continue
        quad = corners.reshape(4, 2).astype(np.float64)
        low, high = quad.min(axis=0), quad.max(axis=0)
        if np.any(low < QUAD_INSIDE) or np.any(
            high > [small_w - 1 - QUAD_INSIDE, small_h - 1 - QUAD_INSIDE]
        ):
            continue
        quad = clockwise_from_top_left(quad)
        edges = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
        if clockwise_convex(quad) and edges.min() >= edge * min(small_h, small_w):
            every_side = _sides_drawn(near_edge, quad) >= QUAD_SUPPORT
            found.append((every_side, area, (quad + 0.5) / scale - 0.5))
    found.sort(key=lambda item: (not item[0], -item[1]))
    if drawn is not None:
        drawn.extend(bool(sides) for sides, _, _ in found)
    return [quad for _, _, quad in found]


def _sides_drawn(near_edge: np.ndarray, quad: np.ndarray) -> float:
    """The least share of a side of ``quad`` (TL, TR, BR, BL, work pixels) that lies on
    ``near_edge`` (a mask of the pixels near an edge), its ends left out (a rounded corner)."""
    shares = []
    height, width = near_edge.shape
    for start, end in zip(quad, np.roll(quad, -1, axis=0), strict=True):
        along = np.linspace(0.05, 0.95, max(2, int(np.linalg.norm(end - start))))
        points = np.rint(start + (end - start) * along[:, None]).astype(int)
        x = np.clip(points[:, 0], 0, width - 1)
        y = np.clip(points[:, 1], 0, height - 1)
        shares.append(float(np.mean(near_edge[y, x] > 0)))
    return min(shares)


def plane_quad(image: np.ndarray) -> np.ndarray | None:
    """The largest quadrilateral plane wholly inside a BGR photo (TL, TR, BR, BL), or None."""
    quads = plane_quads(image)
    return quads[0] if quads else None


def rectify(image: np.ndarray, quad: np.ndarray, least: float = 0.0) -> Rectified:
    """The plane inside ``quad`` (TL, TR, BR, BL) warped square-on, with a margin around it:
    at the photo's own detail, enlarged where its longer side is under ``least`` pixels."""
    width = max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[3]))
    height = max(np.linalg.norm(quad[3] - quad[0]), np.linalg.norm(quad[2] - quad[1]))
    margin = RECTIFIED_MARGIN * max(width, height)
    side = max(width, height) + 2 * margin
    scale = min(RECTIFIED_SIDE / side, max(1.0, least / side))
    inner = (
        np.array(
            [
                [margin, margin],
                [margin + width, margin],
                [margin + width, margin + height],
                [margin, margin + height],
            ]
        )
        * scale
    )
    to_photo = cv2.getPerspectiveTransform(inner.astype(np.float32), quad.astype(np.float32))
    size = (int(np.ceil((width + 2 * margin) * scale)), int(np.ceil((height + 2 * margin) * scale)))
    plane = cv2.warpPerspective(
        image,
        to_photo,
        size,
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return Rectified(plane, to_photo.astype(np.float64), inner)
