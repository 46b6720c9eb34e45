"""A board of objects on a ground (benches on grass, lamps in a frame on a game's floor)
weighed against the lattice the search found.

A textured picture whose lattice is no convincing board over the view's centre is searched
for objects too (``objects_to_look_for``, ``object_location``); ``objects_rather`` says
which of the two boards is the answer: the lattice places a board surer where both lie on
it, the objects stand where the lattice is a floor, a panel beside the view or a part of
their board."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import cv2
import numpy as np

from ..geometry import BoardLocation, apply_homography, board_at, cell_size, cells_off_image, inside
from .judge import convincing
from .lattice import Lattice
from .objects import object_board
from .results import Candidate, NotFound, Trace
from .segment import MAX_SIDE, work_image

#: How far (cells) a board of objects may run off the image and still beat a convincing
#: lattice (``objects_rather``).
OBJECTS_OFF_IMAGE = 0.5


#: A board of objects in every cell beats a lattice that fills the view (a game's floor) when
#: its area is at most this share of the lattice's, and no board set into that floor lies on
#: it (``objects_rather``).  Measured: lamps in a frame on a floor of tiles that meet every
#: edge of the view (tuning lights-in-scene 16092), the frame's 7x4 lamps found whole, 0.015
#: of the floor's area; the board set into the floor was a 3x4 block of the minimap.  Of
#: 720 tuning boards and photos, that one changed.
OBJECTS_IN_VIEW = 0.25


def objects_to_look_for(
    textured: bool,
    lattice: Lattice | None,
    location: BoardLocation | NotFound,
    shape: tuple[int, ...],
) -> bool:
    """Whether the search looks for a board of objects on a ground too: the picture is
    ``textured`` (benches on grass make no lattice of look-alikes) and its ``lattice``
    (placed at ``location``) is not a convincing board over the view's centre (it may be a
    panel beside the view: a game's HUD); or the lattice is no board at all (``location``
    NotFound: a command card's squares, each of its own colour, beside benches on a ground
    blurred smooth)."""
    if not location:
        return True
    return textured and not (convincing(lattice) and _central(location, shape))


def object_location(image: np.ndarray, trace: Trace) -> BoardLocation | None:
    """The board of objects on a ground (``objects``), at full detail; None when there is none."""
    work, scale = work_image(image, MAX_SIDE)
    found = object_board(cv2.cvtColor(work, cv2.COLOR_BGR2LAB))
    if found is None:
        return None
    location = board_at(found.corners / scale, found.rows, found.cols)
    if trace is not None:
        trace.append(
            Candidate(location.corners, found.rows, found.cols, float(found.cover), "objects")
        )
    # no tiles or lines to place the grid by: the grid stage keeps the outline
    return dataclasses.replace(location, confidence=found.cover, framed=True)


def _central(location: BoardLocation | NotFound, shape: tuple[int, ...]) -> bool:
    """True when the board found covers the image's centre (a board sits in the view's middle)."""
    return bool(location) and inside(np.array([shape[1] / 2.0, shape[0] / 2.0]), location.corners)


def objects_rather(
    objects: BoardLocation,
    location: BoardLocation | NotFound,
    lattice_convincing: bool,
    shape: tuple[int, ...],
    floor_round_board: Callable[[], BoardLocation | None],
) -> bool:
    """True when the board of objects is a better answer than the lattice's ``location``.

    It is when no lattice was found, or when the two lie apart and the
    lattice is no convincing board, or the objects' board is the larger or
    the nearer the image's centre: the lattice is then beside the view (a
    game's command card of coloured squares in its HUD), not on it.  Where
    they overlap, the lattice (of tiles, of objects alike) places the board
    surer, unless it is a block of the objects' board (``_a_block_of``) and
    every cell of that holds an object: the lattice found only some of them.
    A board of objects that runs more than half a cell off the image
    (OBJECTS_OFF_IMAGE) never beats a convincing lattice: its cells past the
    edge could not be read (the objects strewn over a game's floor, beside a
    board of lamps in the view's corner).  Nor does a lattice no convincing
    board that runs off the image so beat a board of objects within it (a
    band of a game's floor round a block of lamps), unless it is a floor round
    a board that ``board_within`` finds (``floor_round_board()``, asked only
    then) and more than a part of the objects' board (``_no_more_than_a_part``): that
    board is placed surer than objects are.  A lattice that fills
    the view (``_fills_view``: a game's floor whose tiles meet the image's
    edges) gives way likewise to a board of objects in every cell, a quarter of
    its area or less (OBJECTS_IN_VIEW), unless the board ``board_within`` sets
    into that floor lies on the objects' board.
    """
    if not location:
        return True
    objects_off = cells_off_image(objects.corners, objects.rows, objects.cols, shape)
    if lattice_convincing and objects_off > OBJECTS_OFF_IMAGE:
        return False
    if (
        objects.confidence >= 1.0
        and objects_off <= OBJECTS_OFF_IMAGE
        and _fills_view(location, shape)
        and _area(objects) <= OBJECTS_IN_VIEW * _area(location)
        and not _overlapping(floor_round_board(), objects)
    ):
        # A lattice that fills the view is a game's floor round a board of objects in
        # every cell: the board that ``board_within`` sets into that floor stands where it is
        # that board, placed surer; elsewhere (a block of the minimap's pixels) it does not.
        return True
    if (
        not lattice_convincing
        and objects_off <= OBJECTS_OFF_IMAGE
        and cells_off_image(location.corners, location.rows, location.cols, shape)
        > OBJECTS_OFF_IMAGE
        and _no_more_than_a_part(floor_round_board(), objects)
    ):
        return True  # an unconvincing lattice running off the image: a floor's, not a board
    if (
        (not lattice_convincing or _a_block_of(location, objects))
        and objects.confidence >= 1.0
        and objects.rows >= location.rows
        and objects.cols >= location.cols
        and objects.rows * objects.cols > location.rows * location.cols
        and inside(location.corners.mean(axis=0), objects.corners)
    ):
        # An unconvincing lattice of some of the objects, or a block of the objects' own
        # lattice (3x6 of 3x9 lamps in a frame), a part of a board that holds an object in
        # every cell (the objects alone over-reach a board whose cells they do not all fill:
        # strewn over the floor round it).
        return True
    apart = not _overlapping(location, objects)
    larger = _area(objects) > _area(location)
    ours, theirs = objects.corners.astype(np.float32), location.corners.astype(np.float32)
    middle = np.array([shape[1] / 2.0, shape[0] / 2.0])
    nearer = np.linalg.norm(ours.mean(axis=0) - middle) < np.linalg.norm(
        theirs.mean(axis=0) - middle
    )
    return bool(apart and (larger or nearer or not lattice_convincing))


def _no_more_than_a_part(within: BoardLocation | None, objects: BoardLocation) -> bool:
    """True when no board was found set into the floor (``within`` None), or one that is a
    part of the objects' board: fewer cells, its middle inside the objects' outline, and its
    places held by objects less surely (a lattice of two of five rows of lamps, skewed over
    the floor's tiles, where the objects' board holds them all)."""
    return within is None or (
        within.rows * within.cols < objects.rows * objects.cols
        and inside(within.corners.mean(axis=0), objects.corners)
        and within.confidence < objects.confidence
    )


def _fills_view(location: BoardLocation, shape: tuple[int, ...]) -> bool:
    """True when the lattice's outline reaches within a cell of every edge of the image."""
    cell = cell_size(location.corners, location.rows, location.cols)
    (x0, y0), (x1, y1) = location.corners.min(axis=0), location.corners.max(axis=0)
    return x0 <= cell and y0 <= cell and x1 >= shape[1] - cell and y1 >= shape[0] - cell


def _area(location: BoardLocation) -> float:
    """The area of a board's outline, in pixels."""
    return float(cv2.contourArea(location.corners.astype(np.float32)))


def _overlapping(one: BoardLocation | None, other: BoardLocation) -> bool:
    """True when the outlines of two boards overlap (False when ``one`` is None)."""
    if one is None:
        return False
    ours, theirs = one.corners.astype(np.float32), other.corners.astype(np.float32)
    return cv2.intersectConvexConvex(ours, theirs)[0] > 0


#: A board lies on another's lattice when each of its corners lies within this share of a
#: cell of one of the other's grid points.  Measured: a lattice of 3-D chairs under a tilted
#: camera lies 0.2 to 0.3 of a cell off the grid of the board their objects fill (the raised
#: seats and backrests lean toward the far side: the renderer's chairs scene 6); a lattice of
#: lamps that places their board surer than the objects do lay 0.48 off it.
ON_LATTICE = 0.4


def _a_block_of(part: BoardLocation, whole: BoardLocation) -> bool:
    """True when ``part`` is a block of ``whole``'s cells: each of its corners on one of
    ``whole``'s grid points (ON_LATTICE), its lines fewer or as many."""
    if part.rows > whole.rows or part.cols > whole.cols:
        return False
    at = apply_homography(np.linalg.inv(whole.homography), part.corners)  # (col, row) in whole
    return bool(np.all(np.abs(at - np.round(at)) <= ON_LATTICE))
