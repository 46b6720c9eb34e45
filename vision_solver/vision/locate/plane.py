"""The two searches of a picture: as it stands, and on the plane a photo is aimed at (a
monitor's screen, a toy's case: ``screen``) warped square-on; which answer stands.

``search_board`` runs them.  A screenshot's board, square to the picture with every cell
found, ends it at once.  On the plane, a board found whole is the answer; else a board on a
platform inside the plane (a game's tilted view on the monitor photographed), a board
counted by the lines of its cells' edges (``edgelines``), or the plane searched again
enlarged may stand for the plane's.  When neither search found a whole board,
``_plane_rather`` weighs the plane's board against the one found as the picture stands; a
lattice whose cells share no structure (``structure``) gives way to a board whose cells do."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from ..geometry import (
    BoardLocation,
    apply_homography,
    cell_size,
    cells_off_image,
    cells_past,
    inside,
    quad_areas,
    share_within,
)
from .edgelines import lined_board
from .results import Candidate, NotFound, Trace
from .screen import PLANE_TILT, Rectified, looks_rendered, plane_quads, rectify
from .search import locate_as_seen, search_picture, search_stages
from .segment import COARSE_SIDE, commonest_colour, work_image
from .structure import made_up
from .target import rest_of_picture, tilted

#: A board found whole in the photo as it stands reaches no further past the picture's
#: edge than this (cells): a lattice that does was made up by a texture (grass under a
#: board of chairs, 0.48 cells past it), however many of its cells were "found".
WHOLE_PAST_EDGE = 0.25


#: A plane inside the plane (a board's platform in a game's tilted view, on a monitor
#: photographed) covers at least INNER_PLANE_SHARE of the plane warped square-on, its edges
#: INNER_PLANE_EDGE of its shorter side, and at most INNER_PLANE_MOST of it (else it is the
#: plane itself).
INNER_PLANE_SHARE, INNER_PLANE_EDGE, INNER_PLANE_MOST = 0.02, 0.08, 0.6


#: A plane warped square-on whose longer side is under this many pixels, and that shows no
#: whole board, is searched again enlarged to it.
ENLARGED_PLANE = 1600


#: A board counted by its edges' lines grows the lattice found as seen when their cells' sizes
#: differ by no more than this share.
SAME_PITCH = 0.15


#: A plane with at least this share of its area inside the board found in the picture as it
#: stands is a region of that board's cells (merged by their colour), not a screen it lies off.
PLANE_WITHIN = 0.5


#: A board found on a plane reaching more than this many of its cells past the plane's
#: outline is none of the plane's (a lattice of the screen's panels running past it).
PAST_PLANE = 0.5


#: A plane whose search finds no board on it, or a made-up one (``structure.made_up``), is
#: searched again smoothed by a Gaussian of this many pixels (standard deviation).  A small
#: board of glowing lamps, blurred by the camera and speckled by its noise, JPEG and the
#: screen's moire, breaks up into specks at the plane's full size (and is too few pixels
#: across at the coarse pass's); smoothed, its cells are blobs again.  Tuning monitor photos
#: 6028, 6116 and 6120 (boards of 3x9, 3x10 and 13x14 on a screen of 1600 to 2000 pixels)
#: were found so with 1.5 to 4 pixels, not with 1.  Smoothing makes blobs of what is no
#: board too, so the board found so is the answer only where the photo as it stands shows
#: none whose cells share a structure (standing wherever it was found, it lost two scored
#: photos' boards found as they stood), and what its search weighed is reported only then
#: (in the trace, a smoothed lattice of a border's bricks and the grass round a board of
#: chairs under a tilted camera stood in the grid stage for the board: ``_rivals``).
SMOOTHED_PLANE = 2.0


def search_board(image: np.ndarray, trace: Trace) -> BoardLocation | NotFound:
    """The likeliest lattice of cells in a BGR image: its outer corners and homography.

    ``trace``, a list, gets a ``Candidate`` for every lattice and framed board
    the search weighed (the answer is the same with or without it).  Two
    searches may run: the picture as it stands (``locate_as_seen``), and a
    large plane seen at an angle in a photo of a screen or a toy (``screen``)
    warped square-on.  A board found square to the picture with every cell in
    place is a screenshot's, and the answer; a board found whole on the plane
    is the answer (on a plane not drawn on every side, one square on it:
    ``_square_on``).  A rendered picture (``screen.looks_rendered``) is searched
    as it stands first, a photo on its plane first: each pays for the other
    search only when the first found no whole board.  Where the plane shows no whole
    board, a board on a platform on it (``_on_inner_plane``) or one counted by the lines of
    its cells' edges (``edgelines``: cells merged by the camera's blur) stands for the
    plane's where it holds more cells.  A small plane that shows no whole
    board is searched again enlarged (ENLARGED_PLANE), its board standing for the plane's
    where more of its cells were found.  When no search found a whole board, a
    partial board on the plane is kept when the search as seen found a board
    off the plane (a picture on the wall, a keyboard) or fewer cells of it
    (``_plane_rather``).  Where the plane shows no board, or a made-up one, and no other
    search found one whose cells share a structure, the plane smoothed is searched last
    (SMOOTHED_PLANE): the board it shows is the answer, and what that search weighed goes
    to ``trace`` only then.
    """
    if image.ndim != 3 or image.shape[2] != 3:
        return NotFound(f"expected an H x W x 3 colour image, not shape {image.shape}")
    found = locate_as_seen(image, trace) if looks_rendered(image) else None
    if found is not None and not _square_and_whole(found, image.shape):
        found = _lined_rather(image, found, trace)
    if found is not None and _square_and_whole(found, image.shape):
        return found  # a board square to the picture, every cell found: a screenshot's
    drawn: list[bool] = []
    quads = plane_quads(image, drawn=drawn)
    quad = _target_plane(quads, image.shape)
    # A plane whose sides are not all drawn in the photo may be no screen nor case, but a
    # piece of one cut off by the edges inside it (a panel's corner, a board's cells).
    outlined = quad is not None and drawn[next(i for i, q in enumerate(quads) if q is quad)]
    on_plane = None
    plane = None  # the plane warped square-on
    smooth_later = False  # the plane showed no board, or a made-up one: search it smoothed
    screen_page = None  # the page colour of the screen the photo is aimed at
    if quad is not None and tilted(quad, PLANE_TILT):
        plane = rectify(image, quad)
        screen_page = _page_of(plane)
        set_aside: list[Candidate] = []  # lattices the plane's search judged no board
        on_plane = _on_plane(plane, trace, aside=set_aside)
        smooth_later = on_plane is None or made_up(image, on_plane)
        if (
            on_plane is not None
            and _every_cell_found(on_plane)
            and (outlined or _square_on(plane, on_plane))
        ):
            # Every cell of a board on the plane found.  (An outline placed by a
            # frame or by objects counts no cells: the photo is searched too.)
            return on_plane
        inner = _on_inner_plane(plane, trace)
        if inner is not None and _every_cell_found(inner):
            # A plane on the plane, every cell of its board found: a game's tilted view
            # of a board on its platform, on the monitor photographed.
            return inner
        if inner is not None and (
            on_plane is None or inner.rows * inner.cols > on_plane.rows * on_plane.cols
        ):
            # Not every cell of the platform's board found, but more of them than of any
            # board found on the screen itself: it stands for the screen's.
            on_plane = inner
        # A board whose cells merged (the camera blurred away the thin lines between them),
        # counted by its edges' lines: no cell found as a blob, so it ends no search.
        on_plane = _lined_on_plane(plane, on_plane, trace) or on_plane
        if max(plane.image.shape[:2]) < ENLARGED_PLANE:
            # A small plane's cells may be too few pixels across for the segmentations
            # (their edges blurred over most of a cell): the plane enlarged is searched too.
            enlarged_aside: list[Candidate] = []
            enlarged = _on_plane(
                rectify(image, quad, ENLARGED_PLANE), trace, "enlarged plane", enlarged_aside
            )
            if (
                enlarged is not None
                and not _made_up_beside(image, enlarged, on_plane)
                and _enlarged_rather(enlarged, on_plane, set_aside, enlarged_aside)
            ):
                on_plane = enlarged
    if found is None:
        begun = search_stages(image, trace, screen_page)
        if on_plane is not None and quad is not None:
            first_look = next(begun)
            if (
                first_look
                and not _more_lines_on_plane(first_look, on_plane, quad)
                and not (on_plane.framed and _every_cell_found(first_look))
            ):
                # The picture as it stands shows no more of the board (nor every cell of
                # one, where the plane's was placed by its frame alone).
                return on_plane
        found = locate_as_seen(image, trace, begun)
        if _square_and_whole(found, image.shape):
            return found
    if (
        on_plane is not None
        and quad is not None
        and (
            (found and _made_up_beside(image, found, on_plane))
            or _plane_rather(on_plane, found, quad, image.shape)
        )
    ):
        return on_plane
    if plane is not None and smooth_later and (not found or made_up(image, found)):
        # No board whose cells share a structure, on the plane or in the photo as it
        # stands: the one the plane smoothed shows, where it shows one.  (What its search
        # weighed is reported only then: smoothing makes blobs of a border's bricks and the
        # grass round them, and a lattice of those, weighed as a rival, may stand for a
        # board of raised objects the grid stage does not find on the grid placed.)
        weighed_smoothed: list[Candidate] = []
        smoothed = _on_plane_smoothed(plane, weighed_smoothed)
        if smoothed is not None:
            if trace is not None:
                trace.extend(weighed_smoothed)
            return smoothed
    return found


def _made_up_beside(image: np.ndarray, board: BoardLocation, other: BoardLocation | None) -> bool:
    """True when ``board`` is a lattice whose cells share no structure (``structure``:
    blotches of a dark screen, a wood grain) and ``other`` (perhaps None) one whose cells
    do: whatever else speaks for ``board`` (every cell "found", more cells), ``other`` is
    the board."""
    return other is not None and made_up(image, board) and not made_up(image, other)


def _lined_rather(
    image: np.ndarray, found: BoardLocation | NotFound, trace: Trace
) -> BoardLocation | NotFound:
    """The board a screenshot shows, where the search as it stands (``found``) found none
    whole: the board counted by the lines of its cells' edges (``edgelines``) when it holds
    more cells found than ``found`` and lies apart from it or grows its lattice by more than
    a line each side (``_grown_from``), else ``found``.

    A board of two flat colours without gaps between its cells merges each state's cells into
    larger regions; the few cells left alone make a lattice of a part of it, or of nothing
    (a menu's words).  Every edge of such a board still lies on one of its grid lines, which
    a screenshot shows upright and level.  A lattice found that the lined board holds but
    for a line each side is kept: a line more round it may be the page's (a title's row of
    the page's colour over a board whose lit cells are that colour), which the grid stage's
    ``outer_lines`` decides by the line's cells.
    """
    lined = lined_board(image)
    if lined is None:
        return found
    if trace is not None:
        trace.append(
            Candidate(lined.corners, lined.rows, lined.cols, float(lined.confidence), "lines")
        )
    if not found or (
        _cells_found(lined) > _cells_found(found)
        and (not inside(found.corners.mean(axis=0), lined.corners) or _grown_from(found, lined))
    ):
        return lined
    return found


def _grown_from(found: BoardLocation, lined: BoardLocation) -> bool:
    """True when ``lined`` is more of the board than ``found``, a lattice inside it: ``found``
    of at most two rows or columns (a few lone cells lined up, often at a multiple of the
    cells' pitch), or ``found``'s lattice (cells of its size, within SAME_PITCH) grown by more
    than a line each side along an axis.  Not a finer lattice over ``found`` (markers' edges
    inside its cells), nor ``found`` with a line of the page each side."""
    if min(found.rows, found.cols) <= 2:
        return True
    found_pitch = cell_size(found.corners, found.rows, found.cols)
    lined_pitch = cell_size(lined.corners, lined.rows, lined.cols)
    return abs(lined_pitch - found_pitch) <= SAME_PITCH * found_pitch and (
        lined.rows > found.rows + 2 or lined.cols > found.cols + 2
    )


def _page_of(plane: Rectified) -> np.ndarray:
    """The commonest colour of a plane warped square-on (8-bit Lab): a screen's page."""
    work, _ = work_image(plane.image, COARSE_SIDE)
    return commonest_colour(cv2.cvtColor(work, cv2.COLOR_BGR2LAB))


def _enlarged_rather(
    enlarged: BoardLocation,
    on_plane: BoardLocation | None,
    aside: list[Candidate],
    enlarged_aside: list[Candidate],
) -> bool:
    """True when the board found on the plane enlarged stands for the one found on the plane
    as warped (``on_plane``, perhaps None): found more surely, or more of its cells found (a
    board of 15x4 small cells found in part, not a 3x2 lattice of the page found surely),
    or ``on_plane`` is a lattice that the search enlarged set aside as no board
    (``enlarged_aside``: a border's bricks, beside the board it frames, which only the
    search enlarged found).  An outline placed by a frame counts none: noise enlarged makes
    specks that a frame's count may take for objects.  Nor does a lattice that the search of
    the plane as warped set ``aside`` as no board (the same bricks the other way round)."""
    if any(_same_place(enlarged, other) for other in aside):
        return False
    return not enlarged.framed and (
        on_plane is None
        or any(_same_place(on_plane, other) for other in enlarged_aside)
        or enlarged.confidence > on_plane.confidence
        or _cells_found(enlarged) > _cells_found(on_plane)
    )


#: Two lattices are one where they have the same shape and every corner lies within this
#: share of a cell of the other's.
SAME_CORNERS = 0.25


def _same_place(found: BoardLocation, candidate: Candidate) -> bool:
    """Whether a board found and a candidate weighed are one lattice (SAME_CORNERS)."""
    if (found.rows, found.cols) != (candidate.rows, candidate.cols):
        return False
    reach = SAME_CORNERS * cell_size(found.corners, found.rows, found.cols)
    return bool(np.linalg.norm(found.corners - candidate.corners, axis=1).max() <= reach)


def _more_lines_on_plane(
    first_look: BoardLocation, on_plane: BoardLocation, quad: np.ndarray
) -> bool:
    """True when the coarse pass over the photo as it stands (``first_look``) found a board on
    the plane (``quad``) with more rows or more columns than the board found on the plane: a
    line the plane's search lost (to the perspective, to moire), which the full search of the
    photo may find.  Else that search is skipped: what lies off the plane is no target while
    a board is found on it, and a lattice of no more lines is no better board."""
    if not inside(first_look.corners.mean(axis=0), quad) and not inside(
        on_plane.corners.mean(axis=0), first_look.corners
    ):
        return False  # a board off the plane, not around the plane's board
    return first_look.rows > on_plane.rows or first_look.cols > on_plane.cols


def _every_cell_found(found: BoardLocation | NotFound) -> bool:
    """True for a board whose every cell was found (an outline placed by a frame or by
    objects counts no cells), in more than two rows and columns: a photo's blotches line
    up in two rows of a few all too easily, so such a lattice found whole is no surer a
    board than one found in part (nor is it a convincing one)."""
    return (
        bool(found)
        and found.confidence >= 1.0
        and not found.framed
        and min(found.rows, found.cols) > 2
    )


def _square_and_whole(found: BoardLocation | NotFound, shape: tuple[int, ...]) -> bool:
    """True for a board found square to the picture with every cell in place (a screenshot's),
    within the picture of ``shape``: a lattice of a few cells each larger than the picture (a
    page's faint squares fitted over a photo) is none."""
    return (
        bool(found)
        and found.confidence >= 1.0
        and not tilted(found.corners)
        and _within_picture(found, shape)
    )


def _within_picture(found: BoardLocation, shape: tuple[int, ...]) -> bool:
    """True when the board reaches no further past the picture (of ``shape``) than
    WHOLE_PAST_EDGE of a cell."""
    return cells_off_image(found.corners, found.rows, found.cols, shape) <= WHOLE_PAST_EDGE


def _target_plane(quads: list[np.ndarray], shape: tuple[int, ...]) -> np.ndarray | None:
    """The plane the photo is aimed at: the largest of ``quads`` (largest first) that does not
    lie wholly in an outer band of the picture (``target``: a keyboard in front of the
    monitor), else the largest (a toy photographed off-centre)."""
    central = [quad for quad in quads if rest_of_picture(quad, shape) is None]
    return (central or quads or [None])[0]


def _plane_rather(
    on_plane: BoardLocation,
    found: BoardLocation | NotFound,
    quad: np.ndarray,
    shape: tuple[int, ...],
) -> bool:
    """True when the board found on the plane (``quad``) is a better answer than ``found``
    in the photo as it stands (of ``shape``).  A larger board found whole around the plane's,
    within the picture, is kept (the plane's is a part of it), and one found whole on the
    plane against an outline the plane's search placed by a frame.  Else the plane's wins when
    ``found`` lies off the plane (its centre outside: a keyboard, a picture on the wall) or
    holds fewer cells, either each of its lines among the plane board's (a row lost to the
    perspective, to moire) or found less surely (another lattice: a whole lattice of objects
    on grass is kept).  A board found on the plane, not placed by a frame, also wins over
    one found less surely that holds no more cells found (``_cells_found``): the same
    board with a few far cells unfound, or blotches lined up round it."""
    if not found:
        return True
    whole = _every_cell_found(found) and _within_picture(found, shape)
    if (
        whole
        and found.rows * found.cols > on_plane.rows * on_plane.cols
        and inside(on_plane.corners.mean(axis=0), found.corners)
    ):
        # Every cell of a larger board found around the plane's board: that one
        # is a part of it (the plane found was a mat, a shadow across the toy).
        return False
    if not inside(found.corners.mean(axis=0), quad):
        # The board found lies off the plane (a keyboard, a picture on the wall), unless the
        # plane lies mostly within it and it within the picture: then the plane is a region
        # of its cells merged (light tiles on a light page), not a screen.  (A lattice that a
        # texture makes up over the whole picture runs past its edges.)
        return not _within_picture(found, shape) or share_within(quad, found.corners) < PLANE_WITHIN
    if whole and on_plane.framed:
        # Every cell of a board found on the plane, against an outline the plane's search
        # placed by a frame or by objects, whose cells it did not find.
        return False
    more = on_plane.rows * on_plane.cols > found.rows * found.cols
    lines_kept = on_plane.rows >= found.rows and on_plane.cols >= found.cols
    if more and (lines_kept or on_plane.confidence >= found.confidence):
        return True
    # A lattice found less surely that holds no more cells found than the plane's: the same
    # board with far cells unfound, or a photo's blotches lined up round it.
    return (
        not on_plane.framed
        and on_plane.confidence > found.confidence
        and _cells_found(on_plane) >= _cells_found(found)
    )


#: A board square on a plane warped square-on has corners within this many degrees of right
#: angles there.  (A plane that is a piece of a panel warps the board by its cut: a lattice
#: found whole on one, tuning lights-tiles 2020, had corners of 50 to 128 degrees.)
SQUARE_ON = 15.0


def _square_on(plane: Rectified, found: BoardLocation) -> bool:
    """Whether a board found on ``plane`` (in the photo's pixels) is square on it: where the
    plane's sides are not all drawn, only such a board, found whole, ends the search."""
    corners = apply_homography(np.linalg.inv(plane.to_photo), found.corners)
    sides = np.roll(corners, -1, axis=0) - corners
    before = -np.roll(sides, 1, axis=0)
    cosines = np.sum(sides * before, axis=1) / (
        np.linalg.norm(sides, axis=1) * np.linalg.norm(before, axis=1)
    )
    return bool(np.all(np.abs(cosines) <= np.sin(np.radians(SQUARE_ON))))


def _cells_found(found: BoardLocation) -> float:
    """How many of a board's cells were found: its cells times the share found."""
    return found.rows * found.cols * found.confidence


def _on_plane(
    plane: Rectified,
    trace: Trace,
    name: str = "plane",
    aside: list[Candidate] | None = None,
) -> BoardLocation | None:
    """The board found on a plane seen at an angle (a monitor's screen, a toy's case:
    ``screen``) warped square-on, in the photo's pixels; None when there is none.  What the
    search weighed goes to ``trace`` where it lies in the photo; what it set aside as no
    board (``Candidate.aside``) to ``aside`` too."""
    found = _searched_on(plane, plane.image, trace, name, aside)
    return None if found is None else _in_photo(plane, found)


def _on_plane_smoothed(plane: Rectified, weighed: list[Candidate]) -> BoardLocation | None:
    """The board found on the plane smoothed (SMOOTHED_PLANE), in the photo's pixels, where
    its cells share a structure; else None.  What the search weighed goes to ``weighed`` as
    "plane smoothed" (kept apart from the other searches' trace: see ``search_board``)."""
    smooth = cv2.GaussianBlur(plane.image, (0, 0), SMOOTHED_PLANE)
    found = _searched_on(plane, smooth, weighed, "plane smoothed", None)
    if found is None or made_up(plane.image, found):
        return None
    return _in_photo(plane, found)


def _searched_on(
    plane: Rectified,
    image: np.ndarray,
    trace: Trace,
    name: str,
    aside: list[Candidate] | None,
) -> BoardLocation | None:
    """The board ``search_picture`` finds in ``image`` (the plane warped square-on, as it
    stands or smoothed), in the plane's pixels; None when there is none, or when it lies
    more than PAST_PLANE off the plane.  What it weighed goes to ``trace`` and ``aside``
    as ``_on_plane`` says, its source named ``name`` first."""
    seen: list[Candidate] | None = [] if trace is not None or aside is not None else None
    found = search_picture(image, seen)
    placed: list[Candidate] = []
    _trace_in_photo(plane, seen, placed, name)
    if trace is not None:
        trace.extend(placed)
    if aside is not None:
        aside.extend(candidate for candidate in placed if candidate.aside)
    if not found or cells_past(found.corners, found.rows, found.cols, plane.outline) > PAST_PLANE:
        return None  # a board on the plane lies on it
    return found


#: A board found on the plane with at least this share of its cells found (not placed by a
#: frame) is not a part of a board counted by its edges' lines round it: a line of those
#: more is something else (a row of buttons under a blurred board of rounded keys).
NEARLY_WHOLE = 0.95


def _lined_on_plane(
    plane: Rectified, on_plane: BoardLocation | None, trace: Trace
) -> BoardLocation | None:
    """The board on a plane warped square-on counted by the lines of its cells' edges
    (``edgelines``), in the photo's pixels, where it holds more cells than the board found
    on the plane (``on_plane``, a part of it) and lies round it, unless NEARLY_WHOLE of that
    board's cells were found; else None."""
    if on_plane is not None and not on_plane.framed and on_plane.confidence >= NEARLY_WHOLE:
        return None  # nearly every cell of it found: a line more is something else (buttons)
    found = lined_board(plane.image)
    if found is None:
        return None
    found = _in_photo(plane, found)
    if trace is not None:
        trace.append(
            Candidate(found.corners, found.rows, found.cols, float(found.confidence), "lines")
        )
    if on_plane is not None and (
        found.rows * found.cols <= on_plane.rows * on_plane.cols
        or not inside(on_plane.corners.mean(axis=0), found.corners)
    ):
        return None
    return found


def _on_inner_plane(plane: Rectified, trace: Trace) -> BoardLocation | None:
    """The board found on a smaller plane seen at an angle inside a plane warped square-on
    (``plane``), itself warped square-on: a board's platform in a game's tilted
    view, shown on the monitor photographed.  In the photo's pixels; None when there is none.
    What that search weighed goes to ``trace`` where it lies in the photo."""
    largest = INNER_PLANE_MOST * quad_areas(plane.outline[None])[0]
    quads = [
        candidate
        for candidate in plane_quads(plane.image, INNER_PLANE_SHARE, INNER_PLANE_EDGE)
        if quad_areas(candidate[None])[0] < largest
        and all(inside(corner, plane.outline) for corner in candidate)
    ]
    inner = _target_plane(quads, plane.image.shape)
    if inner is None or not tilted(inner, PLANE_TILT):
        return None
    seen: list[Candidate] | None = [] if trace is not None else None
    in_plane = _on_plane(rectify(plane.image, inner), seen)
    _trace_in_photo(plane, seen, trace, "inner")
    return _in_photo(plane, in_plane) if in_plane is not None else None


def _trace_in_photo(
    plane: Rectified, seen: list[Candidate] | None, trace: Trace, name: str
) -> None:
    """Each candidate ``seen`` on the plane warped square-on, placed in the photo, to
    ``trace`` (its source named ``name`` first)."""
    if trace is None or not seen:
        return
    for candidate in seen:
        corners = apply_homography(plane.to_photo, candidate.corners)
        trace.append(
            dataclasses.replace(candidate, corners=corners, source=f"{name} {candidate.source}")
        )


def _in_photo(plane: Rectified, found: BoardLocation) -> BoardLocation:
    """``found`` on the plane warped square-on, placed in the photo."""
    homography = plane.to_photo @ found.homography
    return dataclasses.replace(
        found,
        corners=apply_homography(plane.to_photo, found.corners),
        homography=homography / homography[2, 2],
    )
