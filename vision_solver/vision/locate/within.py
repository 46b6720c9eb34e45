"""A board set into a larger lattice: lamps let into a game's tiled floor.

A game's floor is a lattice of look-alike tiles, often larger than the view;
a board of lamps or buttons let into it sits on the same tiles (one lamp a
tile, or one on every other crossing of the grout).  The locate stage then
finds the floor's lattice, not the board.  A lattice of identical cells is no
board: the board is the block of its cells that hold something the floor
does not, and its cells are spaced as those objects are.  Where the floor's
tiles differ in shade, an object is told from its own tile's colour too.

``board_within`` looks at a located lattice that may be such a floor: most
of its cells plain and of one floor colour (or a checker of two, one for each
parity of row + column), with a dense block of cells that hold objects inside
it, smaller than the lattice.  The objects' centres, in
the floor's cell units, give the board's own lattice: their spacing (whole
tiles) and where the first one lies.  The floor's homography carries over,
so perspective needs no new fit; the board's place on the floor is fitted to the
objects' own centres (a floor's lattice fitted a little askew would carry its skew).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import cv2
import numpy as np

from ..colour import SAME_COLOUR, lab_on_scale
from ..geometry import BoardLocation, apply_homography, outline
from .cellsample import one_of_each
from .lattice import fit_affine
from .scenery import PALETTE_CELLS, PALETTE_SHARE
from .structure import square_on

#: The floor's cells are looked at with this many pixels a side, and the objects on it
#: with this many (a floor's lattice may be found at twice its tiles' pitch, and its
#: lamps are small).
CELL_PX = 16
OBJECT_PX = 32
#: A lattice may be a floor when it has this many cells or more ...
FLOOR_CELLS = 60
#: ... and the ring of this share of its cells (RING of the cell each side) is the floor's
#: colour (its commonest, within FLOOR_ALIKE: a floor's tiles differ a little in shade; a
#: lights board's cells are of two colours).  An object differs from the floor by INK.
ON_FLOOR = 0.8
RING = 0.15
FLOOR_ALIKE = 2 * SAME_COLOUR
INK = 20.0
#: Objects are told apart by their parts deeper than one of these (pixels from the edge
#: of what is unlike the floor, at OBJECT_PX a floor cell): the depth whose board holds
#: the most objects is kept.
CORE_DEPTHS = (0.0, 2.0, 4.0, 6.0)
#: The board's objects are those of the commonest size: within this factor of the
#: median object's area (not a crate, a wall, the minimap) ...
ALIKE_SIZE = 2.0
#: ... spaced a whole (or half) number of the floor's cells apart, up to this many ...
MOST_TILES = 3
#: The spacing along an axis is the largest step (a whole or half number of floor cells) that
#: MULTIPLES of the gaps from each object to the next are whole multiples of, NEXT_ONE of them
#: once: where only a lights board's lit lamps show, the next lit one may stand one to three
#: steps on (tuning 248: gaps of 2, 4 and 6 cells, their median 4).
MULTIPLES = 0.9
NEXT_ONE = 0.2
#: Gaps all alike (their tenth to ninetieth percentile within EVEN_GAPS of their median)
#: that lie more than OFF_HALF (floor cells) off any half number of cells are spaced by
#: their median itself (at least LEAST_STEP): the floor's lattice was found at a pitch its
#: tiles' is no whole or half part of (tuning 256: lamps 0.37 of its cells apart down, which
#: a half cell took for two rows of three).
EVEN_GAPS = 0.1
OFF_HALF = 0.05
LEAST_STEP = 0.25
#: ... each within this share of the spacing of its place on their lattice, and filling
#: no more than this share of its cell (a lamp on a floor, a disc at most; lit square
#: tiles with narrow gaps fill more);
OFF_LATTICE = 0.25
MOST_FILLED = 0.8
#: the board is the box round the largest group of them (places touching at a side or a
#: corner), of this share of its places or more occupied: a lights board's unlit lamps may
#: hardly show on the floor, its lit ones fill about half its places (on the tuning looks,
#: 0.56 and 0.66 where the unlit ones showed not at all; 0.47, 38 of 81 lamps lit, on
#: tuning 248, which 0.5 lost to the floor's lattice) ...
DENSE = 0.35
#: ... and the groups of at least JOINED objects one empty place or less from that box,
#: each taken in while the box stays DENSE: where the unlit lamps hardly show, a line of
#: them parts the lit ones into groups (tuning 2148: three rows of seven with seven lit,
#: cut off the board).  A lone object near a board is a creature or a crate.
JOINED = 2
#: ... of at least this many objects, and no more than this share of the floor's cells;
#: the floor runs on round it on this many sides (a cell at least), and no more than
#: FLOOR_HOLDS of its cells there hold something of their own (HOLDS of a cell or more
#: unlike the cell's ring by INK, thin lines and specks left out); and no more than
#: BOARD_FILLED of the board's own area is unlike the floor (measured: lamps in a floor
#: 0.12-0.65 on the tuning looks, a block of lit tiles among unlit ones 0.72 and more).
LEAST_BLOCK = 6
MOST_OF_FLOOR = 0.6
FLOOR_SIDES = 3
#: (the box is placed from the objects' centres, so "a cell" is a cell less this share)
SIDE_SLACK = 0.1
FLOOR_HOLDS = 0.25
HOLDS = 0.06
BOARD_FILLED = 0.7
#: ... or TWO_TONED_FILLED of it when the objects in it are of two tones (TWO_TONES Delta E
#: apart, the rarer TONE_SHARE of them or more): lit and unlit lamps both unlike the floor,
#: large on a panel of their own (fresh tuning lights-in-scene 30216: 0.76), where a block
#: of lit tiles is of one tone.
TWO_TONED_FILLED = 0.85
TWO_TONES = 2 * SAME_COLOUR
TONE_SHARE = 0.1
#: A cell is as marked as the MARKED_QUANTILE of its pixels' distances from its ring's colour;
#: a block whose surrounding cells are marked ALIKE_AROUND as much as its own, or more (at
#: the median), is no board set into a floor (``_alike_around``).  Measured: lamps let into
#: a floor on the tuning looks 0.07 to 0.75; a board of low-contrast chairs on tiles, a
#: block of its better-lit chairs taken for the board, 0.97.
MARKED_QUANTILE = 0.9
ALIKE_AROUND = 0.85
#: The box grows by a row or column of places just past it (GROW_MOST on a side at most)
#: that each look like one of its own places, within ALIKE_PLACE (mean Delta E, the places
#: compared at PLACE_PX a side), and no more than half as near to the floor: its commonest
#: colour, and FLOOR_PLACES of its places FLOOR_OFF places or more from the box.  Unlit
#: lamps on a panel of their own, a whole edge of them, hold no object told from the
#: floor, and the box placed from the objects stops short of them (tuning lights-in-scene
#: 2160: its last column of three unlit lamps, 0.9 to 1.9 from the box's unlit lamps and 9
#: from the floor; past the other sides, the floor's tiles lay 10 to 14 from the box's
#: places and 6 to 12 from the floor).  Where the unlit lamps do not show, the box's empty
#: places are the floor's look (tuning 248, lamps on every other grout crossing).
ALIKE_PLACE = SAME_COLOUR / 2
PLACE_PX = 12
GROW_MOST = 2
FLOOR_OFF = 2
FLOOR_PLACES = 64


def board_within(image: np.ndarray, location: BoardLocation) -> BoardLocation | None:
    """The board of objects set into the located lattice, when that lattice is a floor
    around it (see the module's story); None when it is not (the location stands)."""
    if location.rows * location.cols < FLOOR_CELLS:
        return None
    floor = _floor(image, location)
    if floor is None:
        return None
    stones, shades, held, marked, tinted = floor
    objects_lab = _floor_cells(image, location, OBJECT_PX)
    # The first way of telling the objects from the floor that finds a board decides
    # whether there is one; the other way may then find more of its objects, filling as
    # much of its box or more (dark lamps on a panel of their own shade, told from the
    # floor only by each tile's colour: tuning lights-in-scene 2036 found four of six
    # columns by the commonest colour).  A box grown round stray marks on the floor holds
    # a few more objects and many more empty places (tuning 64 and 212).
    chosen = None
    # (the same for either way: found once, when first asked)
    beyond = cache(lambda: _floor_beyond(image, location, stones))
    for colour in _floor_colours(stones, shades):
        found = _objects_lattice(objects_lab, location, colour)
        if found is None:
            continue
        objects, board, box, colours = found
        if colour.ndim == 3 and _places_held(board, box, held) < DENSE:
            # told by each tile's own colour, the objects must lie on tiles that hold
            # something: the two shades of a lights board's plain tiles tell none
            break
        most = TWO_TONED_FILLED if _two_toned(colours) else BOARD_FILLED
        if not _set_into(objects_lab, colour, held | tinted, box, beyond(), most) or _alike_around(
            marked, box, len(stones)
        ):
            break
        filled = objects / (board.rows * board.cols)
        if chosen is None or (objects > chosen[0] and filled >= chosen[1]):
            chosen = objects, filled, board, box
    if chosen is None:
        return None
    return _grown(objects_lab, location, chosen[2], chosen[3], stones)


def _floor_colours(stones: np.ndarray, shades: np.ndarray) -> Iterator[np.ndarray]:
    """The ways the objects are told from the floor, in turn: its stones' colours
    (``stones``, ``(1, 3)``: one colour; ``(2, 3)``: a checker, laid out at OBJECT_PX a
    cell), then each tile's own (``shades``, ``(rows, cols, 3)``, laid out so: made only
    when asked for)."""
    rows, cols = shades.shape[:2]
    yield stones[0] if len(stones) == 1 else _at_object_px(_checkered(stones, rows, cols))
    yield _at_object_px(shades)


def _at_object_px(colours: np.ndarray) -> np.ndarray:
    """Each cell's colour (``(rows, cols, 3)``) over its OBJECT_PX x OBJECT_PX pixels."""
    return np.repeat(np.repeat(colours, OBJECT_PX, axis=0), OBJECT_PX, axis=1)


def _checkered(stones: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """``(rows, cols, 3)``: the floor's colour under each cell, ``stones[(row + col) % k]``
    for its ``k`` stones (one colour, or a checker of two)."""
    return stones[_stone_of(rows, cols, len(stones))]


def _stone_of(rows: int, cols: int, stones: int) -> np.ndarray:
    """``(rows, cols)``: which of a floor's ``stones`` (one, or a checker of two) lies under
    each cell: ``(row + col) % stones``."""
    return np.add.outer(np.arange(rows), np.arange(cols)) % stones


def _places_held(board: BoardLocation, box: np.ndarray, held: np.ndarray) -> float:
    """The share of ``board``'s cells (its ``box`` on the floor, floor cell units) whose
    middle lies in a floor cell that ``held`` something of its own (``_floor``)."""
    step = (box[1] - box[0]) / np.array([board.cols, board.rows])
    cols, rows = np.meshgrid(np.arange(board.cols), np.arange(board.rows))
    middles = box[0] + (np.stack([cols, rows], axis=-1).reshape(-1, 2) + 0.5) * step
    cells = np.floor(middles).astype(int)
    inside = (
        (cells >= 0).all(axis=1) & (cells[:, 0] < held.shape[1]) & (cells[:, 1] < held.shape[0])
    )
    return float(np.mean(held[cells[inside, 1], cells[inside, 0]])) if inside.any() else 0.0


def _floor(
    image: np.ndarray, location: BoardLocation
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """The floor's stones' colours (``(1, 3)``, or ``(2, 3)`` for a checker: the colour of the
    cells of even row + column, then of odd: ``_stones``), each cell's own ring's colour
    (``(rows, cols, 3)``: tiles of several shades, a dark lamp on a dark tile told from it
    where the commonest colour is the light tiles'), which of its cells hold something of
    their own (``(rows, cols)``: HOLDS of the cell unlike its ring by INK, grout lines,
    cracks and specks left out), how marked each cell is (``(rows, cols)``: the
    MARKED_QUANTILE of its pixels' distances from its ring's colour), and which cells are
    tinted: wholly of another colour inside their ring (the median of it unlike its stone's
    colour by INK: a lit tile of a lights board, whose ring may be the tile's own colour or
    the gap's as the lattice falls on it, so that it holds nothing unlike its ring: 49% of
    the cells round a block of lit tiles taken for lamps, fresh tuning lights-grey 6060; 0
    to 2% of those round lamps let into a floor of one or several shades on the tuning
    looks); None when the lattice is no floor."""
    rows, cols, px = location.rows, location.cols, CELL_PX
    lab = _floor_cells(image, location, px)
    cells = lab.reshape(rows, px, cols, px, 3).transpose(0, 2, 1, 3, 4).reshape(-1, px, px, 3)
    ring = _ring(px)
    rings = np.median(cells[:, ring], axis=1)
    stones = _stones(lab, rings.reshape(rows, cols, 3))
    if stones is None:
        return None
    under = _checkered(stones, rows, cols).reshape(-1, 3)
    apart = np.linalg.norm(cells - rings[:, None, None, :], axis=3)
    marked = np.quantile(apart.reshape(len(cells), -1), MARKED_QUANTILE, axis=1)
    marks = (apart > INK).astype(np.uint8)
    marks[:, ring] = 0
    opening = np.ones((3, 3), np.uint8)
    marks = np.stack([cv2.morphologyEx(m, cv2.MORPH_OPEN, opening) for m in marks])
    held = (marks.mean(axis=(1, 2)) >= HOLDS).reshape(rows, cols)
    middles = np.median(cells[:, ~ring], axis=1)
    tinted = (np.linalg.norm(middles - under, axis=1) > INK).reshape(rows, cols)
    return stones, rings.reshape(rows, cols, 3), held, marked.reshape(rows, cols), tinted


def _stones(lab: np.ndarray, rings: np.ndarray) -> np.ndarray | None:
    """The colours of the floor's stones (``(k, 3)``), as ``_floor`` gives them, from the
    floor's cells (``lab``) and their rings' colours (``(rows, cols, 3)``); None when the
    lattice is no floor.

    A floor laid as a checker of two stones (their colours, each the median of the rings
    of one parity of row + column, SAME_COLOUR or more apart) has the rings of ON_FLOOR of
    its cells or more within FLOOR_ALIKE of the colour of their own parity; a floor of one
    stone has them within FLOOR_ALIKE of its commonest colour.  A lights board's two states
    fall on its cells at random, not by parity, so its lattice is no floor either way.
    """
    rows, cols = rings.shape[:2]
    odd = _stone_of(rows, cols, 2) == 1
    if odd.any() and not odd.all():
        stones = np.stack([np.median(rings[~odd], axis=0), np.median(rings[odd], axis=0)])
        near = np.linalg.norm(rings - _checkered(stones, rows, cols), axis=2) < FLOOR_ALIKE
        if np.linalg.norm(stones[0] - stones[1]) >= SAME_COLOUR and np.mean(near) >= ON_FLOOR:
            return stones
    colour = np.median(lab[::2, ::2].reshape(-1, 3), axis=0)  # (every fourth pixel: as good)
    if np.mean(np.linalg.norm(rings - colour, axis=2) < FLOOR_ALIKE) >= ON_FLOOR:
        return colour[None]
    return None


def _ring(px: int) -> np.ndarray:
    """``(px, px)`` bool: a cell's outer RING of its side, each side."""
    rim = max(1, int(round(RING * px)))
    ring = np.zeros((px, px), bool)
    ring[:rim] = ring[-rim:] = True
    ring[:, :rim] = ring[:, -rim:] = True
    return ring


def _alike_around(marked: np.ndarray, box: np.ndarray, stones: int = 1) -> bool:
    """Whether the lattice's cells round the block in ``box`` (floor cells) are marked about
    as much as the block's own (``marked``: ``_floor``'s), ALIKE_AROUND or more of them at
    the median: every cell of the lattice holds an object (a board of chairs, some of
    which stand out the more), and the lattice is the board, no floor round one.  On a
    checker of two ``stones`` each cell is weighed against the cells round the block on
    its own stone (its grout against a light stone shows more than against a dark one)."""
    inside = _in_box(marked.shape, box)
    if inside.all() or not inside.any():
        return False
    rows, cols = marked.shape
    stone = _stone_of(rows, cols, stones)
    relative = marked.astype(np.float64)
    for k in range(stones):
        around = marked[~inside & (stone == k)]
        if not around.size:
            return False
        relative[stone == k] /= max(float(np.median(around)), 1e-6)
    return bool(np.median(relative[~inside]) >= ALIKE_AROUND * np.median(relative[inside]))


def _in_box(shape: tuple[int, ...], box: np.ndarray) -> np.ndarray:
    """``shape`` (rows, cols) bool: the lattice's cells whose middles lie inside ``box``
    (first and last corner, floor cell units)."""
    rows, cols = shape
    middles = np.stack(np.mgrid[0:rows, 0:cols], axis=-1)[..., ::-1] + 0.5  # (u, v) of cells
    return np.all((middles > box[0]) & (middles < box[1]), axis=-1)


def _set_into(
    lab: np.ndarray,
    floor: np.ndarray,
    held: np.ndarray,
    box: np.ndarray,
    beyond: tuple[bool, bool, bool, bool] = (False, False, False, False),
    most: float = BOARD_FILLED,
) -> bool:
    """Whether the board in ``box`` (floor cells) is set into the floor: the floor shows
    between its objects (no more than ``most`` of it unlike the floor: BOARD_FILLED, or
    TWO_TONED_FILLED for lamps of two tones), and runs on
    round it (on FLOOR_SIDES sides, a cell or more) holding nothing of its own there
    (FLOOR_HOLDS of its cells at most: ``held``, something of their own or wholly of
    another colour).  A block of lit tiles among unlit ones is no board on a floor: the
    tiles round it hold tiles of their own, or are lit themselves.  ``floor``: one of
    ``_floor``'s colours (one colour, or each pixel's).  ``beyond`` (left, top, right,
    bottom): the floor runs on past the lattice's own edge there (``_floor_beyond``), so
    a side of the box at that edge has the floor round it too (a lattice grown along a
    column of lamps and on into the floor below, no wider than the board)."""
    x0, y0, x1, y1 = (max(0, int(round(t * OBJECT_PX))) for t in box.reshape(-1))
    under = floor[y0:y1, x0:x1] if floor.ndim == 3 else floor
    unlike = np.linalg.norm(lab[y0:y1, x0:x1] - under, axis=2) > INK
    if not unlike.size or unlike.mean() > most:
        return False
    rows, cols = held.shape
    (u0, v0), (u1, v1) = box
    least = 1 - SIDE_SLACK
    around = [u0 >= least, v0 >= least, u1 <= cols - least, v1 <= rows - least]
    around = [inside or further for inside, further in zip(around, beyond, strict=True)]
    outside = ~_in_box(held.shape, box)
    return bool(
        sum(around) >= FLOOR_SIDES and outside.any() and held[outside].mean() <= FLOOR_HOLDS
    )


def _grown(
    lab: np.ndarray,
    location: BoardLocation,
    board: BoardLocation,
    box: np.ndarray,
    stones: np.ndarray,
) -> BoardLocation:
    """``board`` (its ``box`` on the floor, floor cell units) grown by the rows and columns
    of places just past it that look like its own places and not like the floor (ALIKE_PLACE;
    up to GROW_MOST a side): not like its ``stones``' colours nor like its places FLOOR_OFF
    or more from the box (lamps on every other grout crossing whose unlit ones do not
    show: the box's empty places and the floor's look alike).  ``lab``: the floor's cells
    at OBJECT_PX (``_floor_cells``)."""
    step = (box[1] - box[0]) / np.array([board.cols, board.rows])
    size = np.array([board.cols, board.rows])
    own = [
        _place(lab, box[0], step, (col, row)) for row in range(size[1]) for col in range(size[0])
    ]
    own = [place for place in own if place is not None]
    if not own:
        return board
    floor = [np.broadcast_to(np.float32(stone), (PLACE_PX, PLACE_PX, 3)) for stone in stones]
    floor += _floor_places(lab, box[0], step, size)
    first, last = np.zeros(2, int), size - 1  # (col, row)
    grew = False
    for _ in range(GROW_MOST):
        for side in range(4):  # left, top, right, bottom
            axis, outward = side % 2, -1 if side < 2 else 1
            at = (first if side < 2 else last)[axis] + outward
            span = range(first[1 - axis], last[1 - axis] + 1)
            places = [(at, k) if axis == 0 else (k, at) for k in span]
            strip = [_place(lab, box[0], step, place) for place in places]
            if any(place is None for place in strip):
                continue
            near = [min(_apart(place, mine) for mine in own) for place in strip]
            far = [min(_apart(place, tile) for tile in floor) for place in strip]
            if all(n <= ALIKE_PLACE and 2 * n <= f for n, f in zip(near, far, strict=True)):
                (first if side < 2 else last)[axis] = at
                grew = True
    if not grew:
        return board
    rows, cols = (last - first + 1)[::-1].tolist()
    # the board's own placement on the floor, moved by the lines taken in before it
    to_floor = np.linalg.inv(location.homography) @ board.homography
    moved = np.array([[1.0, 0.0, first[0]], [0.0, 1.0, first[1]], [0.0, 0.0, 1.0]])
    return _board_on_floor(location, to_floor @ moved, rows, cols)


def _board_on_floor(
    location: BoardLocation, to_floor: np.ndarray, rows: int, cols: int
) -> BoardLocation:
    """The board of rows x cols places on the floor's lattice at ``location``, ``to_floor``
    taking its board coordinates to the floor's (cell units)."""
    homography = location.homography @ to_floor
    homography = homography / homography[2, 2]
    corners = apply_homography(homography, outline(rows, cols))
    return BoardLocation(corners, homography, rows, cols, location.confidence)


def _floor_places(
    lab: np.ndarray, corner: np.ndarray, step: np.ndarray, size: np.ndarray
) -> list[np.ndarray]:
    """Up to FLOOR_PLACES places of the board's lattice (first place at ``corner``, floor
    cell units, ``step`` apart; ``size`` (cols, rows) places) on the floor ``lab``, each
    FLOOR_OFF places or more from the board, spread over the floor (``_place``)."""
    extent = np.array(lab.shape[1::-1]) / OBJECT_PX
    low = np.ceil(-corner / step).astype(int)
    high = np.floor((extent - corner) / step).astype(int) - 1
    cols, rows = np.meshgrid(np.arange(low[0], high[0] + 1), np.arange(low[1], high[1] + 1))
    places = np.stack([cols.ravel(), rows.ravel()], axis=1)
    outside = np.maximum(-places, places - (size - 1)).max(axis=1) >= FLOOR_OFF
    places = places[outside]
    if len(places) > FLOOR_PLACES:
        places = places[np.linspace(0, len(places) - 1, FLOOR_PLACES).round().astype(int)]
    found = [_place(lab, corner, step, (int(col), int(row))) for col, row in places]
    return [place for place in found if place is not None]


def _place(
    lab: np.ndarray, corner: np.ndarray, step: np.ndarray, place: tuple[int, int]
) -> np.ndarray | None:
    """The place ``(col, row)`` of a board whose first place starts at ``corner`` (floor
    cell units, places ``step`` apart) in ``lab`` (OBJECT_PX a floor cell), at PLACE_PX a
    side; None where it leaves ``lab``."""
    x0, y0 = (corner + np.asarray(place) * step) * OBJECT_PX
    x1, y1 = (x0, y0) + step * OBJECT_PX
    x0, y0, x1, y1 = (int(round(t)) for t in (x0, y0, x1, y1))
    if x0 < 0 or y0 < 0 or x1 > lab.shape[1] or y1 > lab.shape[0] or x1 <= x0 or y1 <= y0:
        return None
    return cv2.resize(lab[y0:y1, x0:x1], (PLACE_PX, PLACE_PX), interpolation=cv2.INTER_AREA)


def _apart(first: np.ndarray, second: np.ndarray) -> float:
    """Mean Delta E between two places' pixels."""
    return float(np.linalg.norm(first - second, axis=2).mean())


def _floor_beyond(
    image: np.ndarray, location: BoardLocation, stones: np.ndarray
) -> tuple[bool, bool, bool, bool]:
    """For each side of the lattice (left, top, right, bottom): whether the row or column
    of cells just past it lies in the image and is the floor's (the rings of ON_FLOOR of
    them within FLOOR_ALIKE of its stone's colour: ``stones``, as ``_floor`` gives them)."""
    rows, cols, px = location.rows + 2, location.cols + 2, CELL_PX
    shift = np.array([[1.0, 0.0, -1.0], [0.0, 1.0, -1.0], [0.0, 0.0, 1.0]])
    homography = location.homography @ shift
    corners = apply_homography(homography, outline(rows, cols))
    wider = BoardLocation(corners, homography, rows, cols, location.confidence)
    height, width = image.shape[:2]
    lab = _floor_cells(image, wider, px)
    cells = lab.reshape(rows, px, cols, px, 3).transpose(0, 2, 1, 3, 4)
    ring = _ring(px)
    # (a cell's parity on the wider lattice, one row and one column more, is its own)
    under = _checkered(stones, rows, cols)
    floor = np.linalg.norm(np.median(cells[:, :, ring], axis=2) - under, axis=2) < FLOOR_ALIKE
    strips = [floor[1:-1, 0], floor[0, 1:-1], floor[1:-1, -1], floor[-1, 1:-1]]
    # the outline's corners, in turn: top-left, top-right, bottom-right, bottom-left
    ends = [(0, 3), (0, 1), (1, 2), (3, 2)]
    seen = [
        bool(
            all(0 <= x < width and 0 <= y < height for x, y in corners[list(pair)])
            and np.mean(strip) >= ON_FLOOR
        )
        for strip, pair in zip(strips, ends, strict=True)
    ]
    return seen[0], seen[1], seen[2], seen[3]


def _floor_cells(image: np.ndarray, location: BoardLocation, cell_px: int) -> np.ndarray:
    """The lattice's cells square-on, ``cell_px`` a cell, in L*a*b* on the reader's scale."""
    return lab_on_scale(
        square_on(image, location.homography, location.rows, location.cols, cell_px)
    )


def _objects_lattice(
    lab: np.ndarray, location: BoardLocation, floor: np.ndarray
) -> tuple[int, BoardLocation, np.ndarray, np.ndarray] | None:
    """How many objects the board's own lattice holds, the lattice, its box on the floor
    (``_lattice_of``), and the colours of the objects in it (``(n, 3)``): the objects of
    the commonest size on the floor, spaced a whole or half number of the floor's cells
    apart (up to MOST_TILES), their largest dense block.  The objects are told apart at
    each of CORE_DEPTHS (lamps in sockets may touch one another and a rim round them) and
    the depth whose block holds the most objects kept."""
    unlike = (np.linalg.norm(lab - floor, axis=2) > INK).astype(np.uint8)
    unlike = cv2.morphologyEx(unlike, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    depth = cv2.distanceTransform(unlike, cv2.DIST_L2, 3)
    best = None
    for least in CORE_DEPTHS:
        uv, area = _object_centres(depth > least)
        if len(uv) < LEAST_BLOCK:
            break
        found = _lattice_of(uv / OBJECT_PX, area / OBJECT_PX**2, location)
        if found is None or _many_colours(lab, uv, found[2]):
            continue
        if best is None or found[0] > best[0]:
            best = (*found, _colours_in(lab, uv, found[2]))
    return best


def _many_colours(lab: np.ndarray, uv: np.ndarray, box: np.ndarray) -> bool:
    """Whether the objects at ``uv`` (pixels of ``lab``, OBJECT_PX a floor cell) inside
    ``box`` (floor cells) nearly all differ in colour (PALETTE_SHARE of them SAME_COLOUR
    apart, PALETTE_CELLS of them or more): a minimap's pixels of every hue, not lamps or
    chairs of a few looks."""
    colours = _colours_in(lab, uv, box)
    if len(colours) < PALETTE_CELLS:
        return False
    return len(one_of_each(colours)) >= PALETTE_SHARE * len(colours)


def _colours_in(lab: np.ndarray, uv: np.ndarray, box: np.ndarray) -> np.ndarray:
    """``(n, 3)`` colours at the middles of the objects at ``uv`` (pixels of ``lab``,
    OBJECT_PX a floor cell) inside ``box`` (floor cells)."""
    inside = np.all((uv >= box[0] * OBJECT_PX) & (uv <= box[1] * OBJECT_PX), axis=1)
    x, y = np.clip(uv[inside].round().astype(int), 0, [lab.shape[1] - 1, lab.shape[0] - 1]).T
    return lab[y, x].astype(np.float64)


def _two_toned(colours: np.ndarray) -> bool:
    """Whether objects of these ``colours`` (``(n, 3)``) are of two tones TWO_TONES apart,
    the rarer one TONE_SHARE of them or more: lit and unlit lamps, both unlike the floor."""
    if len(colours) < LEAST_BLOCK:
        return False
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, labels, centres = cv2.kmeans(
        colours.astype(np.float32), 2, None, criteria, 3, cv2.KMEANS_PP_CENTERS
    )
    rarer = min(np.mean(labels == 0), np.mean(labels == 1))
    return bool(np.linalg.norm(centres[0] - centres[1]) >= TWO_TONES and rarer >= TONE_SHARE)


def _object_centres(mask: np.ndarray) -> tuple[np.ndarray, float]:
    """``(n, 2)`` centres (x, y) of the mask's parts of the commonest size (within
    ALIKE_SIZE of the median's area), and that median area (pixels)."""
    _, _, stats, centres = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    if not len(areas):
        return np.empty((0, 2)), 0.0
    usual = float(np.median(areas))
    return centres[1:][(areas >= usual / ALIKE_SIZE) & (areas <= usual * ALIKE_SIZE)], usual


def _lattice_of(
    uv: np.ndarray, area: float, location: BoardLocation
) -> tuple[int, BoardLocation, np.ndarray] | None:
    """The board of the objects at ``uv`` (floor cell units), each of about ``area`` (floor
    cells): the objects in its block, where it lies, and its box on the floor (first and
    last corner, floor cell units); None when they keep no spacing, fill their cells
    (tiles, not objects on a floor: MOST_FILLED), or form no dense block."""
    step = _spacing(uv)
    if step is None or area > MOST_FILLED * step[0] * step[1]:
        return None
    # where the lattice of objects lies (its phase), and each object's place on it
    angles = 2 * np.pi * uv / step
    phase = np.angle(np.exp(1j * angles).mean(axis=0)) / (2 * np.pi) * step
    places = np.round((uv - phase) / step)
    on_lattice = np.linalg.norm((uv - phase) / step - places, axis=1) <= OFF_LATTICE
    places = places[on_lattice].astype(int)
    if len(places) < LEAST_BLOCK:
        return None
    block = _dense_block(places)
    if block is None:
        return None
    (first, last), held = block  # (col, row) places of the block's first and last objects
    cols, rows = (last - first + 1).tolist()
    if rows * cols * step[0] * step[1] > MOST_OF_FLOOR * location.rows * location.cols:
        return None
    corner = phase + first * step - step / 2
    box = np.array([corner, corner + step * np.array([cols, rows])])
    inside = np.all((places >= first) & (places <= last), axis=1)
    to_floor = _fitted_to_objects(places[inside] - first, uv[on_lattice][inside])
    if to_floor is None:
        to_floor = np.array([[step[0], 0, corner[0]], [0, step[1], corner[1]], [0, 0, 1.0]])
    return held, _board_on_floor(location, to_floor, rows, cols), box


def _fitted_to_objects(places: np.ndarray, uv: np.ndarray) -> np.ndarray | None:
    """The affine map from board coordinates to the floor's (cell units) that takes each
    object's place (``(n, 2)`` (col, row) from the block's first) to the middle of its cell,
    fitted to the objects at ``uv`` (least squares); None when they span fewer than two
    rows or columns.

    A floor's lattice fitted a little askew (its tiles in several shades, some covered by
    the lamps) carries its skew to a board placed by the floor's cells alone: the objects
    drift across its cells, a quarter of a cell by the far rows (tuning lights-in-scene
    4128, two lamps read in their neighbours' cells).  The objects' own centres place it."""
    if len(places) < LEAST_BLOCK or min(np.ptp(places, axis=0)) < 1:
        return None
    return fit_affine(places + 0.5, uv)


def _spacing(uv: np.ndarray) -> np.ndarray | None:
    """``(2,)``: the objects' spacing (across, down) in floor cells, up to MOST_TILES: a
    whole or half number of them (a half: the floor's lattice was found at twice its tiles'
    pitch, maybe along one axis only), or the objects' own even gaps; None when it is no
    such spacing.

    Along each axis, the gaps from each object to the next one on its level are
    all alike off any half number of cells (``_even_step``), or whole multiples of
    the spacing (``_step_of``); where they are neither, the spacing is their
    median, which must then lie near a half number of cells."""
    gaps = [_gaps_along(uv, axis) for axis in (0, 1)]
    if not all(len(along) for along in gaps):
        return None
    stepped = [_even_step(along) or _step_of(along) for along in gaps]
    if None not in stepped:
        return np.array(stepped, dtype=np.float64)
    steps = np.array([float(np.median(along)) for along in gaps])
    step = np.round(2 * steps) / 2
    if step.min() < 0.5 or step.max() > MOST_TILES:
        return None
    if np.any(np.abs(steps - step) > 0.1 * step + 0.1):
        return None
    return step


def _gaps_along(uv: np.ndarray, axis: int) -> np.ndarray:
    """The distance (floor cells) from each object at ``uv`` to the next one along ``axis``
    (0 across, 1 down) on its level, for the objects that have one."""
    across = uv[:, 1 - axis]
    gaps = []
    for point in uv:
        level = np.abs(across - point[1 - axis]) < 0.2
        ahead = uv[level, axis] - point[axis]
        ahead = ahead[ahead > 0.3]
        if len(ahead):
            gaps.append(ahead.min())
    return np.array(gaps, dtype=np.float64)


def _even_step(gaps: np.ndarray) -> float | None:
    """The median of ``gaps`` where they are all alike (EVEN_GAPS) and lie off any half
    number of floor cells by more than OFF_HALF, at least LEAST_STEP and at most MOST_TILES;
    else None."""
    low, middle, high = np.quantile(gaps, [0.1, 0.5, 0.9])
    off_half = abs(middle - np.round(2 * middle) / 2) > OFF_HALF
    if high - low <= EVEN_GAPS * middle and off_half and LEAST_STEP <= middle <= MOST_TILES:
        return float(middle)
    return None


def _step_of(gaps: np.ndarray) -> float | None:
    """The largest step, a whole or half number of floor cells up to MOST_TILES, that
    MULTIPLES of ``gaps`` are whole multiples of (within a tenth of a step and a tenth of a
    cell) and NEXT_ONE are once; None when none is."""
    best = None
    for step in np.arange(0.5, MOST_TILES + 0.25, 0.5):
        times = np.round(gaps / step)
        multiples = np.abs(gaps - times * step) <= 0.1 * step + 0.1
        if multiples.mean() >= MULTIPLES and np.mean(times == 1) >= NEXT_ONE:
            best = float(step)
    return best


def _dense_block(places: np.ndarray) -> tuple[tuple[np.ndarray, np.ndarray], int] | None:
    """The first and last ``(col, row)`` places of the board's box, and how many objects it
    holds, when DENSE of the box is occupied and it holds LEAST_BLOCK.

    The box starts round the largest 8-connected group of occupied places and takes in
    each group of JOINED objects or more that lies one empty place from it or nearer,
    while the box stays DENSE (until no more groups join).
    """
    low = places.min(axis=0)
    size = places.max(axis=0) - low + 1
    occupied = np.zeros((size[1], size[0]), np.uint8)
    occupied[places[:, 1] - low[1], places[:, 0] - low[0]] = 1
    count, _, stats, _ = cv2.connectedComponentsWithStats(occupied, connectivity=8)
    if count < 2:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = stats[largest, :4].tolist()
    x0, y0, x1, y1 = x, y, x + w, y + h  # the box, ends exclusive
    joined = {largest}
    grew = True
    while grew:
        grew = False
        for group in range(1, count):
            gx, gy, gw, gh, objects = stats[group].tolist()
            if group in joined or objects < JOINED:
                continue
            if gx > x1 + 1 or gy > y1 + 1 or gx + gw < x0 - 1 or gy + gh < y0 - 1:
                continue  # two empty places or more away
            wider = min(x0, gx), min(y0, gy), max(x1, gx + gw), max(y1, gy + gh)
            if occupied[wider[1] : wider[3], wider[0] : wider[2]].mean() >= DENSE:
                (x0, y0, x1, y1), grew = wider, True
                joined.add(group)
    box = occupied[y0:y1, x0:x1]
    if box.sum() < LEAST_BLOCK or box.mean() < DENSE or min(box.shape) < 2:
        return None
    first = low + [x0, y0]
    return (first, low + [x1 - 1, y1 - 1]), int(box.sum())
