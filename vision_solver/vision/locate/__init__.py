"""The locate stage: find the board's cells among everything else in the image.

A board is a lattice of look-alike cells.  We cut the image into candidate
blobs (``segment``), group those of cell-like shape (``blobs``), and look for
the largest set of similar blobs that sit on a regular 2-D lattice
(``lattice``).  The lattice is fitted as a homography from lattice
coordinates (col, row) to image pixels, so a tilted photo is the same problem
as a screenshot, only with a less trivial homography.  On a board without
gaps, cells of one state merge into larger regions; the lattice found from
the isolated cells then grows over the regions made of whole cells
(``gapless``).  Lattices are judged (``judge``) and the search stops at the
first convincing, complete one.  Boards of 3-D objects drawn inside a frame
are found by the frame (``frames``).  In an image with little flat in it (a
game's 3-D view), a lattice grows over look-alikes of any size, as a
tilted camera shows the far rows smaller, and objects on a ground with no
tiles or lines (benches on grass) are found as a lattice of objects in
perspective when no convincing board lies in the image's middle
(``objects``); a lattice lying apart from it (a HUD's command card) gives
way to it.  A game's floor of look-alike tiles with a block of lamps set into
it is no board: the block is (``within``).

The search runs on a coarse work image first, then at full detail around
what it found and over the whole image.  The result is the board's four
outer corners (the outer edge of the cell grid, clockwise from the top-left)
and its homography; the grid stage then settles the rows and columns.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from ..colour import SAME_COLOUR, on_scale
from ..geometry import (
    BoardLocation,
    apply_homography,
    board_at,
    cell_size,
    cells_off_image,
    cells_past,
    outline,
    quad_areas,
)
from .blobs import distinct, size_groups
from .bridge import bridged, framed_lines
from .dual import tiles_around
from .edgelines import lined_board
from .frames import Framed, framed_board
from .gapless import colour_runs_on, grow_gapless, pieces_run_on, runs_on
from .judge import (
    MIN_PITCH,
    around,
    complete_and_solid,
    convincing,
    dust,
    encloses_as_holes,
    finer_hidden,
    middle,
    page_pattern,
    pitch,
    specks,
    stretched,
    touches_edge,
)
from .lattice import Lattice, Pool, lattice_from, without
from .objects import extend_lattice, object_board
from .scenery import frame_strip, mosaic, palette, tiled_floor
from .screen import PLANE_TILT, Rectified, looks_rendered, plane_quads, rectify
from .segment import (
    COARSE_SIDE,
    MAX_SIDE,
    MIN_SIDE,
    Blob,
    Regions,
    candidate_stages,
    commonest_colour,
    flat_mask,
    lab_gradient,
    work_image,
)
from .target import ASIDE_CELLS, REST_FOUND, REST_SIDE, moved, rest_of_picture, tilted
from .within import board_within

__all__ = ["BoardLocation", "Candidate", "NotFound", "board_at", "locate_as_seen", "locate_board"]

#: A board in a frame is looked for once the first FRAME_AFTER stages found
#: no complete board of tiles (most tile boards end the search by then).
FRAME_AFTER = 2


#: ... or at once, in an image less than this share of which is flat (grass:
#: 0.01 to 0.13; photos 0.2; screenshots of tile boards 0.65 and up).
TEXTURED = 0.4


#: A board of objects on a ground (benches on grass) is looked for in an
#: image less than this share of which is flat (a game's view of a ground
#: framed by flat HUD panels: 0.1 to 0.55 on the tuning looks; screenshots of
#: tile boards 0.65 and up), when the lattice found is no convincing board
#: in the image's middle.
OBJECTS_TEXTURED = 0.6


#: The first stages of ``candidate_stages`` (objects on the backdrop, flat
#: regions) may end the search early.
EARLY_STAGES = 3

#: A blob is a square of the page's grid when it sits this near (in steps)
#: to one of its points and is this large beside its pitch (least, most).
PAGE_SQUARE_REACH = 0.15
PAGE_SQUARE_SIZE = (0.6, 1.05)

#: The lattice of the gaps between round tiles is centred on the tiles'
#: centre to within this share of a cell (``_gaps_between``).
HALF_STEP_OFF = 0.2

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
#: A board found on a plane reaching more than this many of its cells past the plane's
#: outline is none of the plane's (a lattice of the screen's panels running past it).
PAST_PLANE = 0.5


@dataclass
class NotFound:
    """Detection failed; ``reason`` says why (falsy, like a failed estimation)."""

    reason: str

    def __bool__(self) -> bool:
        return False


@dataclass(frozen=True)
class Candidate:
    """A lattice (or framed board) the search weighed, as it lies in the image.

    For ``--debug-dir``: ``corners`` (TL, TR, BR, BL, image pixels) of its
    ``rows`` x ``cols`` cells, its ``score`` (the lattice's; a framed board's
    share of cells found) and where it came from (``source``: the pass,
    ``coarse`` or ``fine``, and the stage, or ``frame``).
    """

    corners: np.ndarray
    rows: int
    cols: int
    score: float
    source: str


#: Where the search reports the candidates it weighed: a list to append to, or None (no report).
Trace = list[Candidate] | None


@dataclass
class _Search:
    """What the search of one work image found."""

    lattice: Lattice | None  # the most convincing lattice of cells
    searched_all: bool  # no stage ended the search early: no complete board of tiles
    framed: BoardLocation | None = None  # a board in a frame, found instead
    textured: bool = False  # little is flat: objects on a ground may be the board


def _best_lattice(
    work: np.ndarray,
    framed: Callable[[Lattice | None], BoardLocation | None] | None = None,
    record: Callable[[Lattice, str], None] | None = None,
) -> _Search:
    """The most convincing lattice of cells in a work image.

    Objects on the backdrop or flat regions find most tile boards (arrow
    tiles the former, plain tiles the latter).  As soon as a stage gives a
    complete, solid board the later ones are skipped (the colour
    segmentations cost the most).  When the first FRAME_AFTER stages found
    none, or at once in an image with hardly anything flat, ``framed``
    (given the lattice so far) is asked for a board in a frame: the one it
    gives ends the search.  ``record`` is told every lattice a stage weighs
    (and the stage); it changes nothing.
    """
    blobs: list[Blob] = []
    best = None
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2LAB)
    regions: list[Regions] = []
    gradient = lab_gradient(lab)
    flat = flat_mask(gradient)
    flat_share = cv2.countNonZero(flat) / flat.size
    textured = flat_share < OBJECTS_TEXTURED
    if framed is not None and flat_share < TEXTURED:
        # Hardly anything flat (grass, a photo): tiles are unlikely, and the
        # texture's countless blobs make every stage slow.  A frame first.
        found = framed(None)
        if found is not None:
            return _Search(None, True, found, textured)
        framed = None
    page8 = commonest_colour(lab)  # the page, as 8-bit Lab and on the one scale
    page = on_scale(page8)
    for stage, found in enumerate(candidate_stages(lab, regions, gradient, flat, page8)):
        blobs = distinct(blobs + found)
        pool = Pool(blobs)
        lattices = [lat for lat in (lattice_from(g, pool) for g in size_groups(blobs)) if lat]
        patterned = [lat for lat in lattices if page_pattern(lat, lab, page)]
        lattices = [lat for lat in lattices if not any(lat is p for p in patterned)]
        if patterned and not textured:
            # The page's own grid is no board, and its squares are no cells of
            # one: a board's lattice whose points happen to meet some of them
            # took them in as cells, perhaps as a line of cells more.  (On a
            # textured ground the "pattern" is the texture's specks, which a
            # board's objects are often made of too.)
            squares = _page_squares(patterned, blobs)
            lattices = [lat for lat in (without(lat, squares) for lat in lattices) if lat]
        floors = [lat for lat in lattices if tiled_floor(lat, lab)]
        lattices = [lat for lat in lattices if all(lat is not floor for floor in floors)]
        # A minimap's pixels of every hue are no board's cells of a few states.
        mosaics = [lat for lat in lattices if mosaic(lat, lab)]
        lattices = [lat for lat in lattices if all(lat is not other for other in mosaics)]
        # Nor are points three times farther apart one way than the other (a floor's
        # tiles taken a row in five): a board's cells are about square.
        lattices = [lat for lat in lattices if not stretched(lat)]
        # A line of cells merged with the panel around them splits a board.
        lattices = [framed_lines(bridged(lat, pool, lab, page), lab, page) for lat in lattices]
        # The gaps where four rounded tiles meet are no cells: the tiles around them are.
        lattices = _tiles_for_gaps(lattices, blobs, lab)
        if regions:
            lattices = [grow_gapless(lat, lab, regions[0]) for lat in lattices]
        if record is not None:
            for lat in lattices:
                record(lat, f"stage {stage}")
            for lat in floors:
                record(lat, f"stage {stage}, a floor's tiles")
            for lat in mosaics:
                record(lat, f"stage {stage}, a mosaic")
        if best is not None:
            # More blobs may regroup the cells of an earlier stage's board.
            lattices.append(best)
        # A border's bricks beside the board they frame (found in this stage or an
        # earlier one) are no board either.
        strips = [lat for lat in lattices if frame_strip(lat, lattices, lab)]
        if record is not None:
            for lat in strips:
                record(lat, f"stage {stage}, a border's bricks")
        lattices = [lat for lat in lattices if all(lat is not strip for strip in strips)]
        # A lattice of cells beats one of dust, however many specks line up on the
        # dust's wide lattice (a noisy photo makes countless of them).
        for lat in lattices:
            lat.dust = lat.dust or dust(lat, pool)
        cells = [lat for lat in lattices if not lat.dust]
        best = max(cells or lattices, key=lambda lat: lat.score, default=None)
        if best is not None:
            # Prefer the tiles to the gaps between them.
            tiles = [
                lat
                for lat in lattices
                if lat.score > 0.3 * best.score and encloses_as_holes(lat, best)
            ]
            if tiles:
                best = max(tiles, key=lambda lat: lat.score)
        if best is not None:
            best.finer = finer_hidden(best, blobs)
            best.palette = palette(best, lab)
            if best.palette and record is not None:
                record(best, f"stage {stage}, a palette")
        if (
            stage < EARLY_STAGES
            and complete_and_solid(best, lab)
            and not runs_on(best, blobs)
            and not colour_runs_on(best, lab, page)
            and not (regions and pieces_run_on(best, lab, regions[0]))
        ):
            return _Search(best, False, textured=textured)
        if best is not None and textured:
            # Under a tilted camera the far rows' objects look smaller: grow
            # the lattice over look-alikes of any size in perspective (what it
            # grows into does not end the search: later stages may find more).
            best = extend_lattice(best, blobs) or best
        if stage + 1 == FRAME_AFTER and framed is not None:
            found = framed(best)
            if found is not None:
                return _Search(best, True, found, textured)
    return _Search(best, True, textured=textured)


#: Two lattices place the same board when they have the same shape and their
#: middles lie within this share of a cell of each other.
SAME_PLACE = 0.25


def _tiles_for_gaps(lattices: list[Lattice], blobs: list[Blob], lab: np.ndarray) -> list[Lattice]:
    """``lattices``, each lattice of the gaps between rounded tiles (``tiles_around``) given
    as the board of its tiles, or left out when another lattice found those tiles already
    (their own blobs place them more closely than the gaps do); lattices placed where a
    lattice of gaps is go too."""
    out, gaps = [], []
    for lattice in lattices:
        tiles = tiles_around(lattice, blobs, lab)
        if tiles is None:
            out.append(lattice)
            continue
        gaps.append(lattice)
        if not any(_same_place(tiles, other) for other in lattices):
            out.append(tiles)
    # other lattices of the same gaps (found whole in another segmentation) go too
    return [lat for lat in out if not any(_same_place(lat, gap) for gap in gaps)]


def _same_place(one: Lattice, other: Lattice) -> bool:
    """Whether two lattices place the same board: the same shape, their middles close."""
    if one.shape != other.shape:
        return False
    return bool(np.linalg.norm(middle(one) - middle(other)) < SAME_PLACE * pitch(one))


def locate_board(image: np.ndarray, trace: Trace = None) -> BoardLocation | NotFound:
    """Find the board in a BGR image: its outer corners and grid homography.

    The search (``_search_board``) finds the likeliest lattice of cells; when that is a
    game's floor of look-alike tiles with a block of lamps set into it, the board is the
    block (``within.board_within``).
    """
    found = _search_board(image, trace)
    return (board_within(image, found) or found) if found else found


def _search_board(image: np.ndarray, trace: Trace) -> BoardLocation | NotFound:
    """The likeliest lattice of cells in a BGR image: its outer corners and homography.

    ``trace``, a list, gets a ``Candidate`` for every lattice and framed board
    the search weighed (the answer is the same with or without it).  Two
    searches may run: the picture as it stands (``locate_as_seen``), and a
    large plane seen at an angle in a photo of a screen or a toy (``screen``)
    warped square-on.  A board found square to the picture with every cell in
    place is a screenshot's, and the answer; a board found whole on the plane
    is the answer.  A rendered picture (``screen.looks_rendered``) is searched
    as it stands first, a photo on its plane first: each pays for the other
    search only when the first found no whole board.  Where the plane shows no whole
    board, a board on a platform on it (``_on_inner_plane``) or one counted by the lines of
    its cells' edges (``edgelines``: cells merged by the camera's blur) stands for the
    plane's where it holds more cells.  A small plane that shows no whole
    board is searched again enlarged (ENLARGED_PLANE), its board standing for the plane's
    where more of its cells were found.  When no search found a whole board, a
    partial board on the plane is kept when the search as seen found a board
    off the plane (a picture on the wall, a keyboard) or fewer cells of it
    (``_plane_rather``).
    """
    if image.ndim != 3 or image.shape[2] != 3:
        return NotFound(f"expected an H x W x 3 colour image, not shape {image.shape}")
    found = locate_as_seen(image, trace) if looks_rendered(image) else None
    if found is not None and _square_and_whole(found):
        return found  # a board square to the picture, every cell found: a screenshot's
    quad = _target_plane(plane_quads(image), image.shape)
    on_plane = None
    if quad is not None and tilted(quad, PLANE_TILT):
        plane = rectify(image, quad)
        on_plane = _on_plane(plane, trace)
        if on_plane is not None and _every_cell_found(on_plane):
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
            enlarged = _on_plane(rectify(image, quad, ENLARGED_PLANE), trace, "enlarged plane")
            if (
                enlarged is not None
                and not enlarged.framed
                and (
                    on_plane is None
                    or enlarged.confidence > on_plane.confidence
                    or _cells_found(enlarged) > _cells_found(on_plane)
                )
            ):
                # Found more surely, or more of its cells found (a board of 15x4 small
                # cells found in part, not a 3x2 lattice of the page found surely).  (An
                # outline placed by a frame counts none: noise enlarged makes specks that
                # a frame's count may take for objects.)
                on_plane = enlarged
    if found is None:
        begun = _locate_stages(image, trace)
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
        if _square_and_whole(found):
            return found
    if (
        on_plane is not None
        and quad is not None
        and _plane_rather(on_plane, found, quad, image.shape)
    ):
        return on_plane
    return found


def _more_lines_on_plane(
    first_look: BoardLocation, on_plane: BoardLocation, quad: np.ndarray
) -> bool:
    """True when the coarse pass over the photo as it stands (``first_look``) found a board on
    the plane (``quad``) with more rows or more columns than the board found on the plane: a
    line the plane's search lost (to the perspective, to moire), which the full search of the
    photo may find.  Else that search is skipped: what lies off the plane is no target while
    a board is found on it, and a lattice of no more lines is no better board."""
    if not _inside(first_look.corners.mean(axis=0), quad) and not _inside(
        on_plane.corners.mean(axis=0), first_look.corners
    ):
        return False  # a board off the plane, not around the plane's board
    return first_look.rows > on_plane.rows or first_look.cols > on_plane.cols


def _inside(point: np.ndarray, outline: np.ndarray) -> bool:
    """True when ``point`` (x, y) lies inside the quadrilateral ``outline`` (4 x 2, pixels)."""
    polygon = outline.astype(np.float32)
    return cv2.pointPolygonTest(polygon, (float(point[0]), float(point[1])), False) >= 0


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


def _square_and_whole(found: BoardLocation | NotFound) -> bool:
    """True for a board found square to the picture with every cell in place (a screenshot's)."""
    return bool(found) and found.confidence >= 1.0 and not tilted(found.corners)


def _target_plane(quads: list[np.ndarray], shape: tuple[int, ...]) -> np.ndarray | None:
    """The plane the photo is aimed at: the largest of ``quads`` (largest first) that does not
    lie wholly in an outer band of the picture (``target``: a keyboard in front of the
    monitor), else the largest (a toy photographed off-centre)."""
    central = [quad for quad in quads if rest_of_picture(quad, shape) is None]
    return (central or quads or [None])[0]


def locate_as_seen(
    image: np.ndarray,
    trace: Trace = None,
    begun: Iterator[BoardLocation | NotFound] | None = None,
) -> BoardLocation | NotFound:
    """``locate_board`` in the picture as it stands (no plane warped square-on).

    In a photo (the board found is seen at an angle), a board of many cells
    found wholly in an outer band of the picture gives way to a board mostly
    found in the rest of it (``target``: a keyboard in front of the monitor is
    not the player's target).  ``begun``: the search of the picture, begun with
    ``_locate_stages`` (its first look taken), to finish.
    """
    found = _finish(begun if begun is not None else _locate_stages(image, trace))
    rest = None
    if found and found.rows * found.cols >= ASIDE_CELLS:
        rest = rest_of_picture(found.corners, image.shape)
    if rest is None or not tilted(found.corners):
        return found
    x0, y0, x1, y1 = rest
    if min(x1 - x0, y1 - y0) < MIN_SIDE:
        return found
    inside = _locate(image[y0:y1, x0:x1], None)
    if inside and inside.confidence >= REST_FOUND and min(inside.rows, inside.cols) >= REST_SIDE:
        if trace is not None:
            rows, cols = found.rows, found.cols
            trace.append(Candidate(found.corners, rows, cols, float(found.confidence), "aside"))
        return moved(inside, x0, y0)
    return found


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
    whole = (
        _every_cell_found(found)
        and cells_off_image(found.corners, found.rows, found.cols, shape) <= WHOLE_PAST_EDGE
    )
    if (
        whole
        and found.rows * found.cols > on_plane.rows * on_plane.cols
        and _inside(on_plane.corners.mean(axis=0), found.corners)
    ):
        # Every cell of a larger board found around the plane's board: that one
        # is a part of it (the plane found was a mat, a shadow across the toy).
        return False
    if not _inside(found.corners.mean(axis=0), quad):
        return True
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


#: A board lies on another's lattice when each of its corners lies within this share of a
#: cell of one of the other's grid points.
ON_LATTICE = 0.25


def _a_block_of(part: BoardLocation, whole: BoardLocation) -> bool:
    """True when ``part`` is a block of ``whole``'s cells: each of its corners on one of
    ``whole``'s grid points (ON_LATTICE), its lines fewer or as many."""
    if part.rows > whole.rows or part.cols > whole.cols:
        return False
    at = apply_homography(np.linalg.inv(whole.homography), part.corners)  # (col, row) in whole
    return bool(np.all(np.abs(at - np.round(at)) <= ON_LATTICE))


def _cells_found(found: BoardLocation) -> float:
    """How many of a board's cells were found: its cells times the share found."""
    return found.rows * found.cols * found.confidence


def _on_plane(plane: Rectified, trace: Trace, name: str = "plane") -> BoardLocation | None:
    """The board found on a plane seen at an angle (a monitor's screen, a toy's case:
    ``screen``) warped square-on, in the photo's pixels; None when there is none.  What the
    search weighed goes to ``trace`` where it lies in the photo."""
    seen: list[Candidate] | None = [] if trace is not None else None
    found = _locate(plane.image, seen)
    _trace_in_photo(plane, seen, trace, name)
    if not found or cells_past(found.corners, found.rows, found.cols, plane.outline) > PAST_PLANE:
        return None  # a board on the plane lies on it
    return _in_photo(plane, found)


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
        or not _inside(on_plane.corners.mean(axis=0), found.corners)
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
        and all(_inside(corner, plane.outline) for corner in candidate)
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


def _locate(image: np.ndarray, trace: Trace) -> BoardLocation | NotFound:
    """``locate_as_seen`` without the second look at a photo's target."""
    return _finish(_locate_stages(image, trace))


def _finish(stages: Iterator[BoardLocation | NotFound]) -> BoardLocation | NotFound:
    """The answer of a search begun with ``_locate_stages`` (its first look taken or not)."""
    looks = list(stages)  # what is left of it: the answer comes last
    return looks[-1] if looks else NotFound("no search ran")


def _locate_stages(image: np.ndarray, trace: Trace) -> Iterator[BoardLocation | NotFound]:
    """The search of ``_locate`` in two steps: it yields the coarse pass's board first (a
    first look, at a fraction of the cost), then the answer (always two)."""
    # Coarse first (fast).  When that finds nothing convincing (tiny cells, a
    # tiny or gappy board), look again at full detail: first around what the
    # coarse pass found, then over the whole image; keep what holds more cells.
    work, scale = work_image(image, COARSE_SIDE)
    offset = np.zeros(2)

    def recorder(
        at_scale: float, at: np.ndarray, name: str
    ) -> Callable[[Lattice, str], None] | None:
        if trace is None:
            return None

        def record(lattice: Lattice, stage: str) -> None:
            homography = _image_homography(lattice, at_scale, at)
            rows, cols = lattice.shape
            corners = apply_homography(homography, outline(rows, cols))
            trace.append(Candidate(corners, rows, cols, float(lattice.score), f"{name} {stage}"))

        return record

    def in_frame(
        crop: np.ndarray, crop_scale: float, crop_at: np.ndarray, lattice: Lattice | None
    ) -> BoardLocation | None:
        """The board in a frame in a work image, when it is a better answer than ``lattice``."""
        framed = framed_board(cv2.cvtColor(crop, cv2.COLOR_BGR2LAB))
        if framed is None:
            return None
        found = _framed_location(framed, crop_scale, crop_at)
        if trace is not None:
            trace.append(
                Candidate(found.corners, found.rows, found.cols, float(framed.cover), "frame")
            )
        placed = _lattice_location(lattice, scale, offset, image.shape)
        return found if _frame_rather(found, lattice, placed) else None

    # When the cheap stages find no complete board of tiles, it may be objects
    # in a frame (benches on grass, whose texture makes the later stages slow).
    coarse = _best_lattice(
        work,
        lambda lattice: in_frame(work, scale, offset, lattice),
        recorder(scale, offset, "coarse"),
    )
    if coarse.framed is not None:
        yield coarse.framed  # the first look ...
        yield coarse.framed  # ... is the answer
        return
    best, searched_all = coarse.lattice, coarse.searched_all
    first_look = _lattice_location(best, scale, offset, image.shape)
    if _objects_to_look_for(coarse.textured, best, first_look, image.shape):
        # The coarse lattice says nothing yet of how much of the board is here.
        yield NotFound("objects on a ground still to be looked for")
    else:
        yield first_look
    if max(image.shape[:2]) > COARSE_SIDE and not convincing(best):
        regions = [around(best, scale, image.shape)] if best is not None else []
        whole_image = (0, 0, image.shape[1], image.shape[0])
        if whole_image not in regions:  # the box around may be the whole image already
            regions.append(whole_image)
        searched, grown_once = 0, False
        while searched < len(regions):
            x0, y0, x1, y1 = regions[searched]
            searched += 1
            fine_work, fine_scale = work_image(image[y0:y1, x0:x1], MAX_SIDE)
            fine_offset = np.array([x0, y0], dtype=np.float64)
            if searched_all:
                # A frame too thin to see in the coarse image: first, as the
                # lattice search at full detail costs the most.
                found = in_frame(fine_work, fine_scale, fine_offset, best)
                if found is not None:
                    yield found
                    return
            fine = _best_lattice(
                fine_work, record=recorder(fine_scale, fine_offset, "fine")
            ).lattice
            if fine is not None and (
                best is None
                or (
                    len(fine.members) > len(best.members)
                    or (pitch(best) < MIN_PITCH and len(fine.members) >= 0.8 * len(best.members))
                    # specks of a textured ground (a lattice they make up) give way to a
                    # convincing board of cells seen closer, however many specks they were
                    or (specks(best) and convincing(fine))
                )
                and not _gaps_between(best, (scale, offset), fine, (fine_scale, fine_offset))
            ):
                if coarse.textured and specks(fine) and not specks(best):
                    # the ground's texture seen closer (stones, grass), not more of the board
                    continue
                best, scale, offset = fine, fine_scale, fine_offset
            whole = (x0, y0, x1, y1) == (0, 0, image.shape[1], image.shape[0])
            runs_on_past = not whole and touches_edge(best, x1 - x0, y1 - y0, scale)
            if convincing(best) and not runs_on_past:
                break
            if runs_on_past and best is fine and not grown_once:
                # The board found in the box runs on past its edge (the coarse lattice was a
                # part of it): the box around what was found is searched next, once.
                grown_once = True
                grown = around(best, scale, image.shape, offset)
                if grown not in regions:
                    regions.insert(searched, grown)
    location = _lattice_location(best, scale, offset, image.shape)
    if _objects_to_look_for(coarse.textured, best, location, image.shape):
        objects = _object_location(image, trace)
        if objects is not None and _objects_rather(
            objects,
            location,
            convincing(best),
            image.shape,
            cache(lambda: board_within(image, location)),
        ):
            yield objects
            return
    yield location


def _objects_to_look_for(
    textured: bool,
    lattice: Lattice | None,
    location: BoardLocation | NotFound,
    shape: tuple[int, ...],
) -> bool:
    """Whether the search looks for a board of objects on a ground too: the picture is
    ``textured`` (benches on grass make no lattice of look-alikes) and its ``lattice``
    (placed at ``location``) is not a convincing board over the view's centre (it may be a
    panel beside the view: a game's HUD)."""
    return textured and not (convincing(lattice) and _central(location, shape))


def _object_location(image: np.ndarray, trace: Trace) -> BoardLocation | None:
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
    if not location:
        return False
    centre = (shape[1] / 2.0, shape[0] / 2.0)
    outline_px = location.corners.astype(np.float32)
    return cv2.pointPolygonTest(outline_px, centre, False) >= 0


#: How far (cells) a board of objects may run off the image and still beat a convincing
#: lattice (``_objects_rather``).
OBJECTS_OFF_IMAGE = 0.5
#: A board of objects in every cell beats a lattice that fills the view (a game's floor) when
#: its area is at most this share of the lattice's, and no board set into that floor lies on
#: it (``_objects_rather``).  Measured: lamps in a frame on a floor of tiles that meet every
#: edge of the view (tuning lights-in-scene 16092), the frame's 7x4 lamps found whole, 0.015
#: of the floor's area; the board set into the floor was a 3x4 block of the minimap.  Of
#: 720 tuning boards and photos, that one changed.
OBJECTS_IN_VIEW = 0.25


def _objects_rather(
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
    then): that board is placed surer than objects are.  A lattice that fills
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
        and floor_round_board() is None
    ):
        return True  # an unconvincing lattice running off the image: a floor's, not a board
    if (
        (not lattice_convincing or _a_block_of(location, objects))
        and objects.confidence >= 1.0
        and objects.rows >= location.rows
        and objects.cols >= location.cols
        and objects.rows * objects.cols > location.rows * location.cols
        and _inside(location.corners.mean(axis=0), objects.corners)
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


def _lattice_location(
    best: Lattice | None, scale: float, offset: np.ndarray, shape: tuple[int, ...]
) -> BoardLocation | NotFound:
    """The board a lattice found in a work image (``scale``, ``offset``) makes in the image."""
    if best is None:
        return NotFound("no grid of similar cells found in the image")
    homography = _image_homography(best, scale, offset)
    rows, cols = best.shape
    corners = apply_homography(homography, outline(rows, cols))
    off = cells_off_image(corners, rows, cols, shape)
    if off > 0.5 and specks(best):
        # Specks on a lattice that runs off the image are what texture (noise,
        # foliage) makes up; a board's cells past the image could not be read.
        return NotFound(f"the only grid found runs {off:.1f} cells off the image")
    if best.dust:
        # Specks far apart that a wide lattice lines up (a noisy photo makes countless of
        # them): no cells of a board, wherever they lie.
        return NotFound(f"the only grid found ({rows}x{cols}) is of specks far apart")
    if best.palette:
        # A game's command card, a colour picker: a lattice of icons, each of its own colour,
        # where a board's cells repeat a few states.
        return NotFound(f"the only grid found ({rows}x{cols}) has a colour of its own in each cell")
    cover = len(best.members) / (rows * cols)
    return BoardLocation(corners, homography, rows, cols, float(min(1.0, cover)))


def _page_squares(patterned: list[Lattice], blobs: list[Blob]) -> set[int]:
    """The ``id`` of every blob that is a square of the page's own grid.

    Those are the members of the lattices judged the page's pattern, and any
    other blob that sits on one of their points (within PAGE_SQUARE_REACH of
    a step), is about as large as their squares (PAGE_SQUARE_SIZE of the
    pitch) and of their colour (within SAME_COLOUR of their median): found by
    another stage, it was never taken in.
    """
    squares = {id(blob) for lattice in patterned for blob in lattice.members.values()}
    if not blobs:
        return squares
    xy = np.array([(blob.x, blob.y) for blob in blobs])
    size = np.array([blob.size for blob in blobs])
    colours = np.array([blob.colour for blob in blobs], dtype=np.float64)
    smallest, largest = PAGE_SQUARE_SIZE
    for lattice in patterned:
        paper = np.median([blob.colour for blob in lattice.members.values()], axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            uv = apply_homography(np.linalg.inv(lattice.homography), xy)
        off = np.linalg.norm(uv - np.round(uv), axis=1)
        step = pitch(lattice)
        alike = (
            (off <= PAGE_SQUARE_REACH)
            & (size >= smallest * step)
            & (size <= largest * step)
            & (np.linalg.norm(colours - paper, axis=1) < SAME_COLOUR)
        )
        squares.update(id(blobs[i]) for i in np.flatnonzero(alike))
    return squares


def _gaps_between(
    tiles: Lattice,
    tiles_at: tuple[float, np.ndarray],
    gaps: Lattice,
    gaps_at: tuple[float, np.ndarray],
) -> bool:
    """Whether ``gaps`` is the lattice of the gaps between ``tiles``' (round) tiles.

    The two were found in work images of their own (``(scale, offset)`` each).
    Where four round tiles meet, the gap widens into a blob of its own; those
    blobs make a lattice of the same pitch, half a step off, with one row and
    one column fewer (so with the same centre), whose blobs are smaller
    beside its pitch than the tiles are beside theirs.  At full detail they
    may be found whole when the tiles, split by their glyphs, are not.
    """
    if (gaps.shape[0] + 1, gaps.shape[1] + 1) != tiles.shape:
        return False
    tiles_h = _image_homography(tiles, *tiles_at)
    gaps_h = _image_homography(gaps, *gaps_at)
    rows, cols = gaps.shape
    middle = apply_homography(gaps_h, [[cols / 2, rows / 2]])  # (x, y) in the image
    on_tiles = apply_homography(np.linalg.inv(tiles_h), middle)[0]
    if np.any(np.abs(on_tiles - [(cols + 1) / 2, (rows + 1) / 2]) > HALF_STEP_OFF):
        return False

    def fill(lattice: Lattice) -> float:
        return float(np.median([b.size for b in lattice.members.values()])) / pitch(lattice)

    return fill(gaps) < fill(tiles)


def _image_homography(lattice: Lattice, scale: float, offset: np.ndarray) -> np.ndarray:
    """Board (u, v) -> image pixels for a lattice found in a work image at ``scale``, ``offset``."""
    r0, c0 = lattice.rows[0], lattice.cols[0]
    # Cell (r, c) of the board is lattice point (c0 + c, r0 + r); its edges are +-0.5.
    to_board = np.array([[1.0, 0, c0 - 0.5], [0, 1.0, r0 - 0.5], [0, 0, 1.0]])
    unscale = np.array([[1.0 / scale, 0, offset[0]], [0, 1.0 / scale, offset[1]], [0, 0, 1.0]])
    homography = unscale @ lattice.homography @ to_board
    return homography / homography[2, 2]


def _framed_location(framed: Framed, scale: float, offset: np.ndarray) -> BoardLocation:
    """The board inside a frame found in a work image at ``scale`` of the crop at ``offset``."""
    location = board_at(framed.corners / scale + offset, framed.rows, framed.cols)
    return dataclasses.replace(location, confidence=framed.cover, framed=True)


def _frame_rather(
    framed: BoardLocation, lattice: Lattice | None, location: BoardLocation | NotFound
) -> bool:
    """True when the board in a frame is a better answer than the lattice's.

    It is when the lattice is not convincing, or when the lattice is part of
    the framed board: cells of the same size, inside the frame, fewer (the
    objects of one turn, say).
    """
    if lattice is None or not location or not convincing(lattice):
        return True
    corners = framed.corners
    centre = location.corners.mean(axis=0)
    inside = cv2.pointPolygonTest(
        corners.astype(np.float32), (float(centre[0]), float(centre[1])), False
    )
    ratio = cell_size(corners, framed.rows, framed.cols) / cell_size(
        location.corners, location.rows, location.cols
    )
    more = framed.rows * framed.cols > location.rows * location.cols
    return bool(inside >= 0 and more and 0.75 < ratio < 1.33)
