"""Boards of objects in perspective: on a textured ground with no tiles or lines, or the far
rows of a tilted board of tiles.

Benches on grass seen by a strategy game's perspective camera: each cell
holds one object, in one of a few turns, so no size group holds them all and
nothing draws the cells' edges.  The board is then the arrangement of the
objects: they stand out from the ground around them (the ground is what a
wide median leaves, shadows kept out), and they sit on a lattice in
perspective: rows nearly level, their spacing shrinking with the distance,
columns converging.  The lattice is grown over the objects' centres from
the central objects outwards, refitting a homography as it grows, so
perspective does not have to be guessed at the start (``object_board``).

Objects in line with the camera overlap on screen and merge into one
component (a column of benches seen end-on), and one object may fall apart
into two (a dark seat between a backrest and the front legs).  So each
lattice grown is grown again over the components cut by its cells
(``pieces``), and of all the lattices grown (from each seed, over centres
or pieces, each mask) the one kept is the one whose points hold the
objects and whose gaps do not (``contrast``): a lattice of half the pitch
has objects in its gaps, one of twice the pitch misses every other line.
Outer lines that hold nothing are dropped (``_trim_empty``).

The objects are raised, so their centres lie on a plane above the floor;
their feet (the lowest pixel of each, where it stands on the floor) lie on
the floor, so the floor's homography is fitted through the feet of the
objects the centres placed (their turns average out).  An object's feet lie
in front of (below, on screen) its cell's centre, by about FOOT_OFFSET of a
cell, and the board's outer corners lie half a cell beyond the outer cells'
centres on that floor plane.

The same growth extends a lattice of look-alikes found by size over the
far rows of a tilted board, whose objects look smaller (``extend_lattice``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..colour import SAME_COLOUR
from ..geometry import apply_homography, clockwise_convex
from .lattice import ALONG, Lattice, fit_homography, on_points
from .segment import Blob

#: The ground under an object is the median over a window this share of the
#: work image's longer side (wider than a few objects, so the median is
#: ground even among the objects of most boards).
GROUND_WINDOW = 0.1
#: A second ground is the same median taken again once what stands out from
#: the first by this many median absolute deviations (and GROUND_GROW pixels
#: round it, at a quarter of the work image's size) is filled in from round
#: it.  Benches packed closer than their own length cover more than half of
#: a window: the first median there is the benches' colour, the grass
#: between them stands out and joins them into one blob, and the board was
#: found as a few rows of it.  Lamps on a panel of their own want the first:
#: filled in from the floor round it, the whole panel stands out.  So the
#: second ground is asked only for a crowded board (``object_board``).
#: Measured on the 1,150 tuning boards and photos: 2 more read exactly, none
#: fewer; on 100 fresh tuning boards of benches and chairs, 85 to 86.  The
#: second ground alone lost five boards of lamps on panels, and its boards
#: of any cover two photographed flat boards (their tiles taken for objects);
#: with no grown margin, the soft edges of long shadows left in the fill drew
#: rings round the benches.
GROUND_MADS = 4.0
GROUND_GROW = 2
#: A pixel belongs to an object when it differs from the ground by more than
#: the median difference plus this many median absolute deviations of it
#: (grass texture is a few MADs; objects' faces and outlines far more); each
#: is tried, and the board scoring the highest kept.  The loosest is for a
#: photographed screen: its noise and moire widen the spread, and its raised
#: black level and cast narrow the objects' difference, so that at 4 MADs only
#: the benches' dark outlines stood out, in pieces (measured on 60 tuning photos
#: of chairs and benches on a monitor, 170 scenes of objects and lamps, and 390
#: other tuning boards and photos: 5 more read exactly, none fewer).
OBJECT_MADS = (6.0, 4.0, 2.5)
#: A pixel darker than the ground whose hue (the angle of its (a, b)) has a
#: cosine of at least this with the ground's, and no more chroma, is the
#: ground in shadow (objects cast shadows that join them).
SHADOW_HUE = 0.95
#: A component this share of the image's width or more is a panel or the
#: ground's edge, no object ...
PANEL = 0.3
#: ... and so is one this share of its height or more (objects in line with
#: the camera merge into a tall, narrow chain, a third of the height or more).
TALL_PANEL = 0.6
#: Objects are components of at least this share of the largest object-sized
#: component's area (specks of texture are far smaller; far objects in a
#: perspective view are a third of the near ones at most).
MIN_OBJECT_SHARE = 0.12
#: A point belongs to a lattice point within this distance (in cells): the
#: centres of objects in different turns lie up to a quarter of a cell apart.
REACH = 0.3
#: A lattice grows by points up to this many cells beyond what it holds.
GROW_REACH = 1.5
#: The lattice's feet are about this share of a cell in front of (below, on
#: screen) the cell's centre: an object standing on its cell touches the
#: floor on its near side, a bench a tenth of a cell in front of the centre
#: seen from the side, a third seen end-on.
FOOT_OFFSET = 0.2
#: A board of objects holds an object in at least this share of its cells
#: (objects in line with the camera may overlap and count as one) ...
MIN_COVER = 0.6
#: ... and an outer row or column holding fewer than this share of the
#: fullest line's objects is no part of it (tufts, shadows beside the board).
SPARSE_LINE = 0.5
#: A lattice is extended over blobs within this (Delta E) of its members'
#: median colour ...
EXTEND_COLOUR = 2 * SAME_COLOUR
#: ... and within these shares of their median size (far cells look smaller) ...
EXTEND_SIZE = (0.4, 2.5)
#: ... when the grown lattice holds one in at least this share of its cells.
MIN_EXTENDED_COVER = 0.75
#: A board of objects has at least this many rows and columns (fewer
#: objects in line are what chance makes of clutter).
MIN_LINES = 3
#: An extended lattice keeps at least this share of the cells it held.
KEEPS_HELD = 0.9
#: The difference from the ground is summed up (median, spread) over every
#: this-many-th pixel across and down.
SAMPLE_STEP = 4
#: The most objects weighed (the largest components).
MAX_OBJECTS = 400
#: Objects in line with the camera overlap on screen and merge into one
#: component, so the components are cut by the cells of the lattice their
#: centres grew (``pieces``): a piece is an object when it holds at least this
#: share of the median area of the components the lattice placed (the one
#: behind shows its upper part only) ...
PIECE_SHARE = 0.4
#: ... and the piece is the whole object, its lowest row its feet, when it
#: holds at least this share of its component.
WHOLE_SHARE = 0.85
#: The pieces are cut again by the lattice they grew, at most this many times.
PIECE_ROUNDS = 2
#: Pieces are cut from every this-many-th pixel across and down.
PIXEL_STEP = 2
#: The floor is fitted through the feet of the whole objects when there are
#: this many or more (else through every object's).
MIN_FEET = 6
#: A lattice point holds an object as far as the mask is set within this
#: many cells of it (across and down): the middle of an object, whatever its
#: turn (``contrast``).
OCCUPANCY = 0.15
#: A lattice's score is its contrast plus this much for each object it
#: places: where the objects are large beside their cells and their shadows
#: fill the gaps, the contrast of the whole board may be no higher than a
#: part's, which places fewer.
MEMBER_WEIGHT = 0.1
#: An outer line of a lattice is empty when its points hold less than this
#: share of what the median line's do.
EMPTY_LINE = 0.4


@dataclass
class ObjectBoard:
    """A board found as a lattice of objects: its outer corners (work pixels) and count."""

    corners: np.ndarray  # (4, 2) TL, TR, BR, BL on the floor plane, work pixels
    rows: int
    cols: int
    cover: float  # share of the cells that hold an object


def object_masks(lab: np.ndarray) -> list[list[np.ndarray]]:
    """0/1 masks of what stands out from the ground around it, in a Lab work image.

    For the first ground and then the second (GROUND_MADS: a crowded board's
    ground), one mask per threshold of OBJECT_MADS, strictest first (a
    textured ground or dirt patches need the stricter, objects of nearly the
    ground's colour the looser).
    """
    height, width = lab.shape[:2]
    # the grounds at a quarter of the size: as good for a smooth ground, and fast
    small = cv2.resize(lab, (max(1, width // 4), max(1, height // 4)), interpolation=cv2.INTER_AREA)
    window = max(3, int(GROUND_WINDOW * max(small.shape[:2])) | 1)
    first = cv2.medianBlur(small, window)
    grounds = [first]
    difference = _difference(_channels(small), _channels(first))
    median, spread = _median_spread(difference)
    standing = (difference > median + GROUND_MADS * max(spread, 1.0)).astype(np.uint8)
    if standing.any():
        standing = cv2.dilate(standing, np.ones((3, 3), np.uint8), iterations=GROUND_GROW)
        grounds.append(cv2.medianBlur(cv2.inpaint(small, standing, 3, cv2.INPAINT_TELEA), window))
    pixels = _channels(lab)  # (split once, for every ground)
    return [
        _masks_against(
            pixels,
            _channels(cv2.resize(ground, (width, height), interpolation=cv2.INTER_LINEAR)),
        )
        for ground in grounds
    ]


Channels = tuple[np.ndarray, np.ndarray, np.ndarray]


def _masks_against(pixels: Channels, ground: Channels) -> list[np.ndarray]:
    """The masks (one per OBJECT_MADS) of the ``pixels`` that stand out from the ``ground``
    (``_channels`` of a Lab image and of its ground) and are not its shadow."""
    difference = _difference(pixels, ground)
    median, spread = _median_spread(difference[::SAMPLE_STEP, ::SAMPLE_STEP])
    light, a, b = pixels
    ground_light, ground_a, ground_b = ground
    # a shadow on the ground is the ground darker, its hue kept and its chroma no greater
    chroma2, ground_chroma2 = a * a + b * b, ground_a * ground_a + ground_b * ground_b
    along = a * ground_a + b * ground_b
    same_hue = (along >= 0) & (along * along >= SHADOW_HUE**2 * chroma2 * ground_chroma2)
    weaker = chroma2 <= 1.2 * ground_chroma2 + 4.0
    shadow = (light < ground_light) & same_hue & weaker
    masks = []
    for mads in OBJECT_MADS:
        mask = ((difference > median + mads * max(spread, 1.0)) & ~shadow).astype(np.uint8)
        masks.append(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)))
    return masks


def _channels(lab: np.ndarray) -> Channels:
    """A Lab image's L*, a and b as float32, a and b less 128 (grey at 0), channel by channel
    (numpy sums over a last axis of three slowly)."""
    light, a, b = (channel.astype(np.float32) for channel in cv2.split(lab))
    return light, a - 128.0, b - 128.0


def _difference(pixels: Channels, ground: Channels) -> np.ndarray:
    """float32: how far (Delta E) each pixel lies from the ground's (``_channels`` of both)."""
    (light, a, b), (ground_light, ground_a, ground_b) = pixels, ground
    return cv2.magnitude(light - ground_light, cv2.magnitude(a - ground_a, b - ground_b))


def _median_spread(values: np.ndarray) -> tuple[float, float]:
    """The median of ``values`` and their median absolute deviation from it."""
    median = float(np.median(values))
    return median, float(np.median(np.abs(values - median)))


@dataclass
class Components:
    """The object-sized components of an object mask."""

    labels: np.ndarray  # int32 label image of the mask's components (0: none)
    ids: np.ndarray  # the labels of the object-sized ones, largest first
    centres: np.ndarray  # (n, 2) their centres (x, y)
    feet: np.ndarray  # (n, 2) x of the centre, y of the lowest row
    areas: np.ndarray  # (n,) their pixel counts
    _pixels: tuple[np.ndarray, np.ndarray] | None = None

    def pixels(self) -> tuple[np.ndarray, np.ndarray]:
        """Every PIXEL_STEP-th pixel (across and down) of the object-sized components:
        (x, y) as float32 and the index into ``ids`` of each one's component."""
        if self._pixels is None:
            index = np.full(int(self.labels.max()) + 1, -1, dtype=np.int64)
            index[self.ids] = np.arange(len(self.ids))
            of = index[self.labels[::PIXEL_STEP, ::PIXEL_STEP]]
            ys, xs = np.nonzero(of >= 0)
            xy = np.column_stack([xs, ys]).astype(np.float32) * PIXEL_STEP
            self._pixels = (xy, of[ys, xs])
        return self._pixels


def objects_in(mask: np.ndarray) -> Components:
    """The object-sized components of a mask: their centres and feet."""
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    nothing = np.zeros((0, 2))
    none = Components(labels, np.zeros(0, np.int64), nothing, nothing, np.zeros(0))
    if count < 5:
        return none
    area = stats[1:, 4].astype(np.float64)
    x, y, w, h = (stats[1:, k].astype(np.float64) for k in range(4))
    height, width = mask.shape
    # not the image's edges, nor panels spanning much of it
    keep = (w < PANEL * width) & (h < TALL_PANEL * height) & (w >= 3) & (h >= 3)
    if keep.sum() < 4:
        return none
    order = np.flatnonzero(keep)[np.argsort(-area[keep])][:MAX_OBJECTS]
    # the largest object-sized area: the fourth largest (a few panels may be larger)
    big = area[order[min(3, len(order) - 1)]]
    order = order[area[order] >= MIN_OBJECT_SHARE * big]
    centres = centroids[1:][order]
    feet = np.column_stack([centres[:, 0], y[order] + h[order] - 1])
    return Components(labels, order + 1, centres, feet, area[order])


@dataclass
class Pieces:
    """The components cut by a lattice's cells: the pieces the size of an object."""

    points: np.ndarray  # (n, 2) their centres (x, y)
    feet: np.ndarray  # (n, 2) x of the centre, y of the piece's lowest row
    whole: np.ndarray  # (n,) bool: the piece is its whole component (its feet are an object's)


def pieces(found: Components, homography: np.ndarray, min_area: float, near: np.ndarray) -> Pieces:
    """``found``'s components cut by the cells of a lattice (``homography``: (col, row) -> pixels).

    Each pixel goes to the lattice point nearest it; the pixels of one
    component at one point are a piece, kept when it holds ``min_area``
    pixels or more.  Only the components whose centres lie within the box
    ``near`` ((col, row) least and most) are cut.
    """
    empty = Pieces(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0, dtype=bool))
    try:
        inverse = np.linalg.inv(homography)
    except np.linalg.LinAlgError:
        return empty
    centres = apply_homography(inverse, found.centres)
    wanted = np.all((centres >= near[0]) & (centres <= near[1]), axis=1)
    xy, of = found.pixels()
    on = wanted[of]
    if not on.any():
        return empty
    xy, of = xy[on], of[on]
    uv = cv2.perspectiveTransform(xy[:, None, :], inverse.astype(np.float64))[:, 0]
    # past the lattice's horizon no piece is wanted: clip, to keep the codes small
    cell = np.round(np.clip(np.nan_to_num(uv, nan=-1e3), -1e3, 1e3)).astype(np.int64)
    cell -= cell.min(axis=0)
    span = cell.max(axis=0) + 1
    code = (of * span[1] + cell[:, 1]) * span[0] + cell[:, 0]
    codes, group, counts = np.unique(code, return_inverse=True, return_counts=True)
    x = np.bincount(group, xy[:, 0]) / counts
    y = np.bincount(group, xy[:, 1]) / counts
    # the lowest row of each piece: the last of each group, sorted by group then row
    order = np.lexsort((xy[:, 1], group))
    lowest = xy[order[np.cumsum(counts) - 1], 1].astype(np.float64)
    area = counts * float(PIXEL_STEP**2)
    whole = area >= WHOLE_SHARE * found.areas[codes // (span[0] * span[1])]
    big = area >= min_area
    return Pieces(np.column_stack([x, y])[big], np.column_stack([x, lowest])[big], whole[big])


def _on_pieces(
    found: Components, members: dict[tuple[int, int], int], homography: np.ndarray
) -> tuple[dict[tuple[int, int], int], Pieces]:
    """The lattice grown again over the pieces of the components cut by its cells.

    Returns (row, col) -> piece and the pieces; the lattice as it was (over
    the components' centres, ``found.feet`` their feet, all whole) when the
    pieces grow none.
    """
    min_area = PIECE_SHARE * float(np.median(found.areas[list(members.values())]))
    best = (members, Pieces(found.centres, found.feet, np.ones(len(found.feet), dtype=bool)))
    for _ in range(PIECE_ROUNDS):
        keys = np.array(list(best[0]), dtype=np.float64)
        near = np.array([keys.min(axis=0)[::-1], keys.max(axis=0)[::-1]])
        near += [[-GROW_REACH - 1], [GROW_REACH + 1]]
        cut = pieces(found, homography, min_area, near)
        if len(cut.points) < 4:
            break
        grown = grow_lattice(cut.points, homography, np.array(list(best[0]), dtype=np.int64))
        if grown is None or len(grown[0]) < len(best[0]):
            break
        best = (grown[0], cut)
        homography = grown[1]
    return best


def _steps(points: np.ndarray, i: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The steps to point ``i``'s nearest neighbours along its row and down its column."""
    offsets = points - points[i]
    dist = np.hypot(offsets[:, 0], offsets[:, 1])
    dist[i] = np.inf
    steps = []
    for along, across in ((0, 1), (1, 0)):
        near = np.abs(offsets[:, along]) > ALONG * np.abs(offsets[:, across])
        if not near.any():
            return None
        j = int(np.argmin(np.where(near, dist, np.inf)))
        step = offsets[j] * (1.0 if offsets[j, along] > 0 else -1.0)
        steps.append(step)
    return steps[0], steps[1]


def _assign(uv: np.ndarray, allowed: np.ndarray) -> dict[tuple[int, int], int]:
    """(row, col) -> index of the point closest to it, among the ``allowed`` points within
    REACH of one (``lattice.on_points``)."""
    candidates = np.flatnonzero(allowed)
    placed = on_points(uv[candidates], REACH)
    won = candidates[placed.won]
    return {(r, c): i for (r, c), i in zip(placed.keys.tolist(), won.tolist(), strict=True)}


def _grow(points: np.ndarray, seed: int) -> tuple[dict[tuple[int, int], int], np.ndarray] | None:
    """The lattice grown from point ``seed``: (row, col) -> point, and (col, row) -> pixels."""
    found = _steps(points, seed)
    if found is None:
        return None
    u, v = found
    if abs(u[0] * v[1] - u[1] * v[0]) < 1e-6:
        return None
    homography = np.array(
        [[u[0], v[0], points[seed, 0]], [u[1], v[1], points[seed, 1]], [0.0, 0.0, 1.0]]
    )
    return grow_lattice(points, homography, np.zeros((1, 2), dtype=np.int64))


def grow_lattice(
    points: np.ndarray, homography: np.ndarray, held: np.ndarray
) -> tuple[dict[tuple[int, int], int], np.ndarray] | None:
    """Grow a lattice over ``points`` from the (row, col) ``held`` so far.

    ``homography`` maps (col, row) to pixels.  Each round takes in the points
    within REACH of a lattice point up to GROW_REACH cells beyond what is
    held, and refits the homography through them all, so the lattice follows
    the perspective as it grows.  Returns (row, col) -> point and the last
    homography, or None when fewer than four points or one line are held.
    """
    members: dict[tuple[int, int], int] = {}
    keys = np.asarray(held, dtype=np.float64)
    for _ in range(30):
        try:
            uv = apply_homography(np.linalg.inv(homography), points)
        except np.linalg.LinAlgError:
            return None
        lo = keys.min(axis=0)[::-1] - GROW_REACH
        hi = keys.max(axis=0)[::-1] + GROW_REACH
        allowed = np.all((uv >= lo) & (uv <= hi), axis=1)
        grown = _assign(uv, allowed)
        if len(grown) < 3 or grown == members:
            break
        members = grown
        keys = np.array(list(members), dtype=np.float64)
        if np.ptp(keys[:, 0]) == 0 or np.ptp(keys[:, 1]) == 0:
            return None
        homography = fit_homography(keys[:, ::-1], points[list(members.values())])
    if len(members) < 4:
        return None
    return members, homography


def _trim_sparse(members: dict[tuple[int, int], int]) -> dict[tuple[int, int], int]:
    """Drop outer rows and columns holding few objects, one at a time."""
    while len(members) >= 4:
        keys = np.array(list(members))
        dropped = False
        for axis in (0, 1):
            lines, counts = np.unique(keys[:, axis], return_counts=True)
            if len(lines) <= 2:
                continue
            for end in (0, -1):
                if counts[end] < SPARSE_LINE * counts.max():
                    members = {k: i for k, i in members.items() if k[axis] != lines[end]}
                    dropped = True
                    break
            if dropped:
                break
        if not dropped:
            break
    return members


def object_board(lab: np.ndarray) -> ObjectBoard | None:
    """The board of objects on a textured ground in a Lab work image, or None.

    Of the lattices grown in each mask of the first ground (``object_masks``),
    the one whose objects stand out the most from the gaps between them
    (``contrast``).  The second ground is for a crowded board: its board, one
    object in every cell, replaces the first's where it stands out more and is
    of another size (of one size, the first ground, right under the objects'
    feet, places the outline surer).
    """
    grounds = object_masks(lab)
    first = _best_board(grounds[0], least_cover=0.0)
    second = _best_board(grounds[1], least_cover=1.0) if len(grounds) > 1 else None
    if second is None:
        return None if first is None else first[1]
    if first is None:
        return second[1]
    resized = (second[1].rows, second[1].cols) != (first[1].rows, first[1].cols)
    return second[1] if resized and second[0] > first[0] else first[1]


def _best_board(masks: list[np.ndarray], least_cover: float) -> tuple[float, ObjectBoard] | None:
    """Of the boards grown in the ``masks`` with an object in ``least_cover`` of their cells
    or more, the one whose objects stand out the most, with its ``contrast``."""
    best: tuple[float, ObjectBoard] | None = None
    for mask in masks:
        found = _board_of(objects_in(mask), mask)
        if found is None or found[1].cover < least_cover:
            continue
        if best is None or found[0] > best[0]:
            best = found
    return best


def contrast(mask: np.ndarray, homography: np.ndarray, keys: np.ndarray) -> float:
    """How much a lattice's points hold objects that its gaps do not.

    The share of a 0/1 ``mask`` set around each of the lattice's points (of
    the box of its (row, col) ``keys``; ``homography``: (col, row) -> pixels),
    summed, less the same around each point midway between two neighbours.
    A lattice of half the board's pitch has as many objects between its
    points as on them, one of twice the pitch as many as it misses; an
    outer line of nothing adds nothing.
    """
    (r0, c0), (r1, c1) = keys.min(axis=0), keys.max(axis=0)
    rows, cols = np.mgrid[r0 : r1 + 1, c0 : c1 + 1]
    points = np.column_stack([cols.ravel(), rows.ravel()]).astype(np.float64)
    between_rows = points[rows.ravel() < r1] + (0.0, 0.5)
    between_cols = points[cols.ravel() < c1] + (0.5, 0.0)
    held = _occupancy(mask, homography, np.vstack([points, between_rows, between_cols]))
    return float(held[: len(points)].sum() - held[len(points) :].sum())


def _occupancy(mask: np.ndarray, homography: np.ndarray, uv: np.ndarray) -> np.ndarray:
    """The share of ``mask`` set within OCCUPANCY cells of each lattice point ``uv`` (col, row)."""
    steps = np.linspace(-OCCUPANCY, OCCUPANCY, 5)
    offsets = np.stack(np.meshgrid(steps, steps), axis=-1).reshape(-1, 2)
    xy = apply_homography(homography, (uv[:, None, :] + offsets[None]).reshape(-1, 2))
    height, width = mask.shape
    xy = np.nan_to_num(xy, nan=-1.0, posinf=-1.0, neginf=-1.0)
    inside = (xy[:, 0] >= 0) & (xy[:, 1] >= 0) & (xy[:, 0] <= width - 1) & (xy[:, 1] <= height - 1)
    x = np.clip(np.round(xy[:, 0]), 0, width - 1).astype(np.int64)
    y = np.clip(np.round(xy[:, 1]), 0, height - 1).astype(np.int64)
    return (mask[y, x] * inside).reshape(len(uv), -1).mean(axis=1)


def _board_of(found: Components, mask: np.ndarray) -> tuple[float, ObjectBoard] | None:
    """The best board grown over the objects ``found`` in ``mask``, with its ``contrast``.

    Every object near the middle seeds a lattice (``_grow``); each is
    weighed as grown over the components' centres and as grown again over
    their pieces (``_on_pieces``), each with its sparse outer lines and
    without.
    """
    centres = found.centres
    if len(centres) < 4:
        return None
    best: tuple[float, ObjectBoard] | None = None
    whole = Pieces(found.centres, found.feet, np.ones(len(centres), dtype=bool))
    tried: set[tuple[frozenset[tuple[tuple[int, int], int]], int]] = set()
    seen: set[frozenset[tuple[tuple[int, int], int]]] = set()
    middle = centres.mean(axis=0)
    # seeds: the objects nearest the middle of them all first (a board is central)
    for seed in np.argsort(np.hypot(*(centres - middle).T))[:12].tolist():
        grown = _grow(centres, seed)
        if grown is None or frozenset(grown[0].items()) in seen:
            continue  # seeds of one lattice grow it alike
        seen.add(frozenset(grown[0].items()))
        on_pieces = _on_pieces(found, *grown)
        for members, cut in ((grown[0], whole), on_pieces):
            for held in (members, _trim_sparse(members)):
                key = (frozenset(held.items()), id(cut))
                if key in tried:
                    continue
                tried.add(key)
                board = _weighed(held, cut, mask)
                if board is not None and (best is None or board[0] > best[0]):
                    best = board
    return best


def _weighed(
    members: dict[tuple[int, int], int], cut: Pieces, mask: np.ndarray
) -> tuple[float, ObjectBoard] | None:
    """The board a lattice of objects (``members`` of ``cut``) makes, and its ``contrast``."""
    members = _trim_empty(members, cut, mask)
    if not members:
        return None  # the lines left hold none of the objects: no board
    keys = np.array(list(members))
    (r0, c0), (r1, c1) = keys.min(axis=0), keys.max(axis=0)
    rows, cols = int(r1 - r0 + 1), int(c1 - c0 + 1)
    if min(rows, cols) < MIN_LINES or len(members) < MIN_COVER * rows * cols:
        return None
    placed = np.array(list(members.values()))
    lattice = keys[:, ::-1].astype(np.float64)
    centres = fit_homography(lattice, cut.points[placed])
    floor = _floor(lattice, centres, cut.feet[placed], cut.whole[placed])
    top, bottom = r0 - 0.5 - FOOT_OFFSET, r1 + 0.5 - FOOT_OFFSET
    outline = [[c0 - 0.5, top], [c1 + 0.5, top], [c1 + 0.5, bottom], [c0 - 0.5, bottom]]
    corners = apply_homography(floor, np.array(outline, dtype=np.float64))
    if not clockwise_convex(corners):
        return None  # a lattice folded over by a poor fit
    cover = len(members) / (rows * cols)
    score = contrast(mask, centres, keys) + MEMBER_WEIGHT * len(members)
    return score, ObjectBoard(corners, rows, cols, cover)


def _floor(
    lattice: np.ndarray, centres: np.ndarray, feet: np.ndarray, whole: np.ndarray
) -> np.ndarray:
    """The floor's homography ((col, row) -> pixels) of a board of objects.

    Fitted through the feet of the objects at ``lattice`` points (their
    turns average out).  A piece of a chain (not ``whole``) does not show its
    feet: where MIN_FEET whole objects or more show theirs, its feet are
    taken where the whole objects' lie beside their centres on the objects'
    plane (``centres``, (col, row) -> pixels), on the median, so that the
    floor spans every line of the board; else every object's lowest row is
    taken for its feet.
    """
    if whole.sum() < MIN_FEET:
        return fit_homography(lattice, feet)
    beside = apply_homography(np.linalg.inv(centres), feet[whole]) - lattice[whole]
    feet = feet.copy()
    feet[~whole] = apply_homography(centres, lattice[~whole] + np.median(beside, axis=0))
    return fit_homography(lattice, feet)


def _trim_empty(
    members: dict[tuple[int, int], int], cut: Pieces, mask: np.ndarray
) -> dict[tuple[int, int], int]:
    """Drop outer rows and columns whose points hold little of the mask, one at a time.

    A line is empty when the mean occupancy (``_occupancy``) of its points is
    below EMPTY_LINE of the median line's (a stray piece of clutter beside
    the board was taken in, not an object).
    """
    if len(members) < 4:
        return members
    keys = np.array(list(members))
    placed = cut.points[list(members.values())]
    homography = fit_homography(keys[:, ::-1].astype(np.float64), placed)
    (r0, c0), (r1, c1) = keys.min(axis=0), keys.max(axis=0)
    rows, cols = np.mgrid[r0 : r1 + 1, c0 : c1 + 1]
    points = np.column_stack([cols.ravel(), rows.ravel()]).astype(np.float64)
    held = _occupancy(mask, homography, points).reshape(rows.shape)
    top, bottom, left, right = 0, held.shape[0], 0, held.shape[1]
    while bottom - top > MIN_LINES or right - left > MIN_LINES:
        box = held[top:bottom, left:right]
        by_row, by_col = box.mean(axis=1), box.mean(axis=0)
        level = EMPTY_LINE * float(np.median(np.concatenate([by_row, by_col])))
        ends = [(by_row[0], 0), (by_row[-1], 1), (by_col[0], 2), (by_col[-1], 3)]
        if bottom - top <= MIN_LINES:
            ends = ends[2:]
        if right - left <= MIN_LINES:
            ends = ends[:2]
        value, end = min(ends)
        if value >= level:
            break
        top, bottom = top + (end == 0), bottom - (end == 1)
        left, right = left + (end == 2), right - (end == 3)
    r_lo, r_hi, c_lo, c_hi = r0 + top, r0 + bottom - 1, c0 + left, c0 + right - 1
    return {k: i for k, i in members.items() if r_lo <= k[0] <= r_hi and c_lo <= k[1] <= c_hi}


def extend_lattice(lattice: Lattice, blobs: list[Blob]) -> Lattice | None:
    """The lattice grown over look-alikes of its members in perspective; None when no line more.

    Under a tilted camera the far cells' objects look smaller than the near
    ones, so the size group that found the lattice may hold only the near
    rows.  Blobs cut by the members' segmentations, of their colour (within
    EXTEND_COLOUR: a box's mean colour changes with the object's turn) and
    of any size within EXTEND_SIZE of theirs are taken in row by row, the
    homography refitted as the lattice grows (``grow_lattice``).  The grown
    lattice must hold an object in MIN_EXTENDED_COVER of its cells.
    """
    colours = np.array([b.colour for b in lattice.members.values()], dtype=np.float64)
    sizes = np.array([b.size for b in lattice.members.values()], dtype=np.float64)
    colour, size = np.median(colours, axis=0), float(np.median(sizes))
    low, high = EXTEND_SIZE
    sources = {b.source for b in lattice.members.values()}
    alike = [
        b
        for b in blobs
        if b.source in sources
        and low * size <= b.size <= high * size
        and np.linalg.norm(np.asarray(b.colour) - colour) < EXTEND_COLOUR
    ]
    if len(alike) <= len(lattice.members):
        return None
    points = np.array([(b.x, b.y) for b in alike], dtype=np.float64)
    held = np.array(list(lattice.members), dtype=np.int64)
    grown = grow_lattice(points, lattice.homography, held)
    if grown is None:
        return None
    members = _trim_sparse(grown[0])
    members = _like_lines(members, [alike[i].colour for i in range(len(alike))], lattice, colour)
    if len(members) <= len(lattice.members):
        return None
    if len(members.keys() & lattice.members.keys()) < KEEPS_HELD * len(lattice.members):
        return None  # not the lattice extended: another one grown over it
    keys = np.array(list(members))
    (r0, c0), (r1, c1) = keys.min(axis=0), keys.max(axis=0)
    rows, cols = r1 - r0 + 1, c1 - c0 + 1
    if rows * cols <= lattice.shape[0] * lattice.shape[1]:
        return None  # no line more: the lattice as it was is the surer fit
    if len(members) / (rows * cols) < MIN_EXTENDED_COVER:
        return None
    homography = fit_homography(keys[:, ::-1].astype(np.float64), points[list(members.values())])
    return Lattice(
        homography,
        {key: alike[i] for key, i in members.items()},
        (int(r0), int(r1)),
        (int(c0), int(c1)),
        lattice.score * len(members) / len(lattice.members),
        lattice.group,
        lattice.finer,
    )


def _like_lines(
    members: dict[tuple[int, int], int],
    colours: list[tuple[float, float, float]],
    lattice: Lattice,
    colour: np.ndarray,
) -> dict[tuple[int, int], int]:
    """Cut the grown lattice at the first new line (outwards) whose objects are unlike the old.

    A line is like the lattice's members when its blobs' median colour is
    within SAME_COLOUR of theirs (one object may be turned; a line's median
    is not): a border's bricks beside the board are not.
    """
    held = {0: lattice.rows, 1: lattice.cols}
    for axis in (0, 1):
        if not members:
            break  # every line cut: nothing of the lattice is left to extend
        first, last = held[axis]
        lines = sorted({key[axis] for key in members})
        keep_from, keep_to = min(lines), max(lines)
        walks = ((-1, first - 1, min(lines) - 1), (1, last + 1, max(lines) + 1))
        for outward, start, stop in walks:
            for line in range(start, stop, outward):
                on = [colours[i] for key, i in members.items() if key[axis] == line]
                if on and np.linalg.norm(np.median(on, axis=0) - colour) < SAME_COLOUR:
                    continue
                if outward < 0:
                    keep_from = line + 1
                else:
                    keep_to = line - 1
                break
        members = {k: i for k, i in members.items() if keep_from <= k[axis] <= keep_to}
    return members
