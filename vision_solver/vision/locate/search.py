"""The search of one picture as it stands: the likeliest lattice of cells in it.

Candidate blobs of each segmentation stage (``segment``) are grouped by size and fitted as
lattices (``lattice``); what is no board is set aside (a page's own grid, a game's floor of
look-alike tiles, a minimap's mosaic, a border's bricks, specks of dust), the gaps between
round tiles give way to the tiles, and the first complete, solid board ends the search
(``_best_lattice``).  A coarse work image is searched first, then, when that found nothing
convincing, the picture at full detail around what it found and as a whole
(``search_stages``).  A board in a frame (``frames``) or of objects on a ground
(``on_ground``) may stand instead.  In a photo, a board found wholly in an outer band of the
picture gives way to one found in the rest of it (``locate_as_seen``)."""

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
    clockwise_convex,
    inside,
    outline,
)
from .blobs import distinct, size_groups
from .bridge import bridged, framed_lines
from .dual import tiles_around
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
from .objects import extend_lattice
from .on_ground import object_location, objects_rather, objects_to_look_for
from .results import Candidate, NotFound, Trace
from .scenery import bare_page_trimmed, frame_strip, mosaic, palette, tiled_floor
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
from .structure import made_up
from .target import ASIDE_CELLS, REST_FOUND, REST_SIDE, moved, rest_of_picture, tilted
from .within import board_within

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

#: The last stage of ``candidate_stages`` (the lightness split) is asked only in a picture
#: of a plane seen at an angle (a photographed screen) where the stages before it found no
#: convincing board.
LAST_RESORT = 4


#: A blob is a square of the page's grid when it sits this near (in steps)
#: to one of its points and is this large beside its pitch (least, most).
PAGE_SQUARE_REACH = 0.15


PAGE_SQUARE_SIZE = (0.6, 1.05)


#: The lattice of the gaps between round tiles is centred on the tiles'
#: centre to within this share of a cell (``_gaps_between``).
HALF_STEP_OFF = 0.2


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
    record: Callable[..., None] | None = None,
    screen_page: np.ndarray | None = None,
) -> _Search:
    """The most convincing lattice of cells in a work image.

    Objects on the backdrop or flat regions find most tile boards (arrow
    tiles the former, plain tiles the latter).  As soon as a stage gives a
    complete, solid board the later ones are skipped (the colour
    segmentations cost the most).  The last stage (LAST_RESORT: the lightness
    split, for the moiré of a photographed screen) runs only where the picture
    shows a plane at an angle (``screen_page`` given: a screen, a toy's case)
    and the stages before it found no convincing board.  Elsewhere (that plane
    warped square-on, a screenshot) its lattices of a border's bricks or of a
    part of the board stood for the board.  When the first FRAME_AFTER stages
    found none, or at once in an image with hardly anything flat, ``framed``
    (given the lattice so far) is asked for a board in a frame: the one it
    gives ends the search.  ``record`` is told every lattice a stage weighs
    (and the stage); it changes nothing.  ``screen_page``: the commonest colour
    (8-bit Lab) of a screen found in a photo, whose own grid is the page's as
    well: in a photo the commonest colour is often the wall's or the desk's.
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
    pages = [page] if screen_page is None else [page, on_scale(screen_page)]
    for stage, found in enumerate(candidate_stages(lab, regions, gradient, flat, page8)):
        blobs = distinct(blobs + found)
        pool = Pool(blobs)
        lattices = [lat for lat in (lattice_from(g, pool) for g in size_groups(blobs)) if lat]
        patterned = [lat for lat in lattices if any(page_pattern(lat, lab, p) for p in pages)]
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
        # Nor are the bare squares of a page ruled on about the board's pitch beyond it.
        lattices = [bare_page_trimmed(lat, lab, page) for lat in lattices]
        if record is not None:
            for lat in lattices:
                record(lat, f"stage {stage}")
            for lat in floors:
                record(lat, f"stage {stage}, a floor's tiles", aside=True)
            for lat in mosaics:
                record(lat, f"stage {stage}, a mosaic", aside=True)
        if best is not None:
            # More blobs may regroup the cells of an earlier stage's board.
            lattices.append(best)
        # A border's bricks beside the board they frame (found in this stage or an
        # earlier one) are no board either.
        strips = [lat for lat in lattices if frame_strip(lat, lattices, lab)]
        if record is not None:
            for lat in strips:
                record(lat, f"stage {stage}, a border's bricks", aside=True)
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
                record(best, f"stage {stage}, a palette", aside=True)
        if (
            stage < EARLY_STAGES
            and complete_and_solid(best, lab)
            and not runs_on(best, blobs)
            and not colour_runs_on(best, lab, page)
            and not (regions and pieces_run_on(best, lab, regions[0]))
        ):
            return _Search(best, False, textured=textured)
        if best is not None and textured and stage < LAST_RESORT:
            # Under a tilted camera the far rows' objects look smaller: grow
            # the lattice over look-alikes of any size in perspective (what it
            # grows into does not end the search: later stages may find more).
            # Not over the lightness split's blobs: grown over them, boards of
            # chairs were placed a little off and read a cell or two wrong.
            best = extend_lattice(best, blobs) or best
        if stage + 1 == FRAME_AFTER and framed is not None:
            found = framed(best)
            if found is not None:
                return _Search(best, True, found, textured)
        if stage + 1 == LAST_RESORT and (screen_page is None or convincing(best)):
            break  # the lightness split: for a photographed screen where no board was found
    return _Search(best, True, textured=textured)


#: Two lattices place the same board when they have the same shape and their
#: middles lie within this share of a cell of each other.
SAME_PLACE = 0.25


#: A board found in a box round a part of it, running on past the box's edge, is looked for
#: again in the box round what was found, at most this many times, and only while each box's
#: look stands for the one before it (tuning monitor 6108: a 5x3 part of a 5x7 board grew to
#: 5x5 in the box round it, and whole in the next; the look over the whole plane found no
#: more than 25 of its cells).
GROWN_BOXES = 3


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


def locate_as_seen(
    image: np.ndarray,
    trace: Trace = None,
    begun: Iterator[BoardLocation | NotFound] | None = None,
) -> BoardLocation | NotFound:
    """``locate_board`` in the picture as it stands (no plane warped square-on).

    In a photo (the board found is seen at an angle), a board of many cells
    found wholly in an outer band of the picture gives way to a board mostly
    found in the rest of it (``target``: a keyboard in front of the monitor is
    not the player's target).  A board placed by the frame drawn round it (``frames``) is
    the target wherever it lies: a game draws a frame round its board, and a keyboard's
    keys or a table's tiles are found as a lattice alone.  (Looking past it cost a second
    search, 2.5 to 5 s, in a third of the renderer's scenes of chairs on grass, their game's
    camera tilted, and found nothing taken there; no photo of the tuning side had its rest
    looked at past a framed board.)  ``begun``: the search of the picture, begun with
    ``search_stages`` (its first look taken), to finish.
    """
    found = _finish(begun if begun is not None else search_stages(image, trace))
    rest = None
    if found and not found.framed and found.rows * found.cols >= ASIDE_CELLS:
        rest = rest_of_picture(found.corners, image.shape)
    if rest is None or not tilted(found.corners):
        return found
    x0, y0, x1, y1 = rest
    if min(x1 - x0, y1 - y0) < MIN_SIDE:
        return found
    rest_board = search_picture(image[y0:y1, x0:x1], None)
    if (
        rest_board
        and rest_board.confidence >= REST_FOUND
        and min(rest_board.rows, rest_board.cols) >= REST_SIDE
    ):
        if trace is not None:
            rows, cols = found.rows, found.cols
            trace.append(Candidate(found.corners, rows, cols, float(found.confidence), "aside"))
        return moved(rest_board, x0, y0)
    return found


def search_picture(image: np.ndarray, trace: Trace) -> BoardLocation | NotFound:
    """``locate_as_seen`` without the second look at a photo's target."""
    return _finish(search_stages(image, trace))


def _finish(stages: Iterator[BoardLocation | NotFound]) -> BoardLocation | NotFound:
    """The answer of a search begun with ``search_stages`` (its first look taken or not)."""
    looks = list(stages)  # what is left of it: the answer comes last
    return looks[-1] if looks else NotFound("no search ran")


def search_stages(
    image: np.ndarray, trace: Trace, screen_page: np.ndarray | None = None
) -> Iterator[BoardLocation | NotFound]:
    """The search of ``search_picture`` in two steps: it yields the coarse pass's board first (a
    first look, at a fraction of the cost), then the answer (always two).  ``screen_page``:
    the page colour of a screen found in the photo (``_best_lattice``)."""
    # Coarse first (fast).  When that finds nothing convincing (tiny cells, a
    # tiny or gappy board), look again at full detail: first around what the
    # coarse pass found, then over the whole image; keep what holds more cells, or a
    # convincing board seen closer where the coarse lattice was a floor's patch round a
    # part of it (``_part_seen_closer``).
    work, scale = work_image(image, COARSE_SIDE)
    offset = np.zeros(2)

    def recorder(at_scale: float, at: np.ndarray, name: str) -> Callable[..., None] | None:
        if trace is None:
            return None

        def record(lattice: Lattice, stage: str, aside: bool = False) -> None:
            _, corners = _in_image(lattice, at_scale, at)
            rows, cols = lattice.shape
            trace.append(
                Candidate(corners, rows, cols, float(lattice.score), f"{name} {stage}", aside)
            )

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
        screen_page,
    )
    if coarse.framed is not None:
        yield coarse.framed  # the first look ...
        yield coarse.framed  # ... is the answer
        return
    best, searched_all = coarse.lattice, coarse.searched_all
    first_look = _lattice_location(best, scale, offset, image.shape)
    if objects_to_look_for(coarse.textured, best, first_look, image.shape):
        # The coarse lattice says nothing yet of how much of the board is here.
        yield NotFound("objects on a ground still to be looked for")
    else:
        yield first_look
    floor: BoardLocation | NotFound | None = None  # a coarse lattice a board seen closer beat
    if max(image.shape[:2]) > COARSE_SIDE and not convincing(best):
        regions = [around(best, scale, image.shape)] if best is not None else []
        whole_image = (0, 0, image.shape[1], image.shape[0])
        if whole_image not in regions:  # the box around may be the whole image already
            regions.append(whole_image)
        searched, grown = 0, 0
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
                fine_work, record=recorder(fine_scale, fine_offset, "fine"), screen_page=screen_page
            ).lattice
            part_closer = fine is not None and best is not None and _part_seen_closer(best, fine)
            if fine is not None and (
                best is None
                or (
                    len(fine.members) > len(best.members)
                    or (pitch(best) < MIN_PITCH and len(fine.members) >= 0.8 * len(best.members))
                    # specks of a textured ground (a lattice they make up) give way to a
                    # convincing board of cells seen closer, however many specks they were
                    or (specks(best) and convincing(fine))
                    or part_closer
                )
                and not _gaps_between(best, (scale, offset), fine, (fine_scale, fine_offset))
            ):
                if coarse.textured and specks(fine) and not specks(best):
                    # the ground's texture seen closer (stones, grass), not more of the board
                    continue
                if part_closer:
                    floor = _lattice_location(best, scale, offset, image.shape)
                best, scale, offset = fine, fine_scale, fine_offset
            whole = (x0, y0, x1, y1) == (0, 0, image.shape[1], image.shape[0])
            runs_on_past = not whole and touches_edge(best, x1 - x0, y1 - y0, scale)
            if convincing(best) and not runs_on_past:
                break
            if runs_on_past and best is fine and grown < GROWN_BOXES:
                # The board found in the box runs on past its edge (the coarse lattice was a
                # part of it): the box around what was found is searched next.
                grown += 1
                box = around(best, scale, image.shape, offset)
                if box not in regions:
                    regions.insert(searched, box)
    location = _lattice_location(best, scale, offset, image.shape)
    if location and floor:
        # The coarse look's lattice, a floor's, may hold this board set into it: placed by the
        # floor's tiles it lies surer than by its own cells' middles.
        location = _set_into_floor(image, floor, location)
    if objects_to_look_for(coarse.textured, best, location, image.shape):
        objects = object_location(image, trace)
        if objects is not None and location and made_up(image, objects):
            # Blotches of a blank screen or specks of a grain, counted as objects: their
            # cells share nothing (the benches of a board share a seat, a back, legs), and
            # the lattice found stands.  (With none found, they stay: the grid stage may
            # yet find the board's objects among the lattices the search weighed.)
            objects = None
        if objects is not None and _on_palette(objects, best, scale, offset):
            objects = None  # the palette's own squares, taken for objects: no board either
        if objects is not None and objects_rather(
            objects,
            location,
            convincing(best),
            image.shape,
            cache(lambda: board_within(image, location)),
        ):
            yield objects
            return
    yield location


def _set_into_floor(image: np.ndarray, floor: BoardLocation, board: BoardLocation) -> BoardLocation:
    """``board`` as ``board_within`` sets it into ``floor`` where that finds it there (the
    same rows and cols, each corner within half a cell of the board's), else ``board``."""
    within = board_within(image, floor)
    if within is None or (within.rows, within.cols) != (board.rows, board.cols):
        return board
    apart = np.linalg.norm(within.corners - board.corners, axis=1).max()
    return within if apart < 0.5 * cell_size(board.corners, board.rows, board.cols) else board


def _part_seen_closer(coarse: Lattice, fine: Lattice) -> bool:
    """Whether ``fine`` is a convincing board seen closer where the coarse look grew a
    lattice of another shape that is none and lacks some of its cells: a patch of a floor
    grown round a part of the board.  (The same shape seen closer is the same board: the look
    that found more of its blobs stands.)"""
    rows, cols = coarse.shape
    return (
        convincing(fine)
        and fine.shape != coarse.shape
        and not convincing(coarse)
        and len(coarse.members) < rows * cols
    )


def _on_palette(
    objects: BoardLocation, best: Lattice | None, scale: float, offset: np.ndarray
) -> bool:
    """Whether a board of objects lies on a palette the search found (``best``, in a work
    image at ``scale``, ``offset``): its centre inside the palette's outline."""
    if best is None or not best.palette:
        return False
    return inside(objects.corners.mean(axis=0), _in_image(best, scale, offset)[1])


def _lattice_location(
    best: Lattice | None, scale: float, offset: np.ndarray, shape: tuple[int, ...]
) -> BoardLocation | NotFound:
    """The board a lattice found in a work image (``scale``, ``offset``) makes in the image."""
    if best is None:
        return NotFound("no grid of similar cells found in the image")
    homography, corners = _in_image(best, scale, offset)
    rows, cols = best.shape
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
    if not (clockwise_convex(corners) or clockwise_convex(corners[::-1])):
        # A lattice fitted to a few blobs lined up along one line (the lone cells of a board
        # without gaps) may fold over itself: a projective image of a board never does.
        return NotFound(f"the only grid found ({rows}x{cols}) folds over itself")
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


def _in_image(lattice: Lattice, scale: float, offset: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A lattice found in a work image (``scale``, ``offset``) in the image: its homography
    (``_image_homography``) and outer corners (TL, TR, BR, BL)."""
    homography = _image_homography(lattice, scale, offset)
    return homography, apply_homography(homography, outline(*lattice.shape))


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
    ratio = cell_size(corners, framed.rows, framed.cols) / cell_size(
        location.corners, location.rows, location.cols
    )
    more = framed.rows * framed.cols > location.rows * location.cols
    return bool(inside(location.corners.mean(axis=0), corners) and more and 0.75 < ratio < 1.33)
