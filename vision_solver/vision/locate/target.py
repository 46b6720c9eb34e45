"""The player's target: in a photo, a lattice off to one side may be scenery.

A phone photo is aimed at the board: a lattice that lies wholly in an outer
band of the picture (a keyboard in front of the monitor, a tiled edge of a
table) is weighed against what the rest of the picture holds.  Only photos
are asked: a screenshot shows what the game shows, its board wherever the
page puts it.  Nor is a board in a frame looked past (``search.locate_as_seen``).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..geometry import BoardLocation

#: A lattice is aside when its outline lies wholly beyond this share of the
#: picture's width or height from one side (the keyboards in the tuning photos
#: began at 0.71 to 0.86 of the height; the boards they hid sat above 0.5).
ASIDE = 0.6
#: A picture is a photo (not a screenshot) when the outline found in it is no
#: upright rectangle: an edge of it turns by more than this many degrees from
#: the picture's axes (a screenshot's board is drawn upright; a keyboard in
#: front of a monitor is seen at an angle).
TILTED_DEGREES = 2.0
#: Only a lattice of this many cells or more is looked past (a keyboard's
#: 48 to 90 keys in the tuning photos): a toy of 9 to 49 keys photographed
#: off-centre on a table is seldom, and looking again costs a second search.
ASIDE_CELLS = 50
#: The board found in the rest of the picture is taken instead when this share
#: of its cells was found or more and it has REST_SIDE rows and columns or more.
REST_FOUND, REST_SIDE = 0.9, 3


def tilted(corners: np.ndarray, degrees: float = TILTED_DEGREES) -> bool:
    """True when an edge of the outline (TL, TR, BR, BL) turns from the picture's axes by
    more than ``degrees``."""
    edges = np.roll(corners, -1, axis=0) - corners
    angles = np.degrees(np.arctan2(edges[:, 1], edges[:, 0])) % 90.0
    return bool(np.any(np.minimum(angles, 90.0 - angles) > degrees))


def rest_of_picture(
    corners: np.ndarray, shape: tuple[int, ...]
) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1) of the picture beside an outline that lies aside; None when central.

    The outline lies aside when it is wholly beyond ASIDE of the width or
    height from one side; the rest is the picture up to its near edge.
    """
    height, width = shape[:2]
    (left, top), (right, bottom) = corners.min(axis=0), corners.max(axis=0)
    if top > ASIDE * height:
        return 0, 0, width, int(np.floor(top))
    if bottom < (1 - ASIDE) * height:
        return 0, int(np.ceil(bottom)), width, height
    if left > ASIDE * width:
        return 0, 0, int(np.floor(left)), height
    if right < (1 - ASIDE) * width:
        return int(np.ceil(right)), 0, width, height
    return None


def moved(location: BoardLocation, x0: int, y0: int) -> BoardLocation:
    """A location found in a crop at (x0, y0), in the whole picture's pixels."""
    shift = np.array([[1.0, 0.0, x0], [0.0, 1.0, y0], [0.0, 0.0, 1.0]])
    return dataclasses.replace(
        location,
        corners=location.corners + np.array([x0, y0], dtype=np.float64),
        homography=shift @ location.homography,
    )
