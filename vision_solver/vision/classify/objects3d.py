"""The 3-D object reader: chairs or benches standing on a floor, seen by a tilted camera.

Objects that stand up out of the floor are not one flat glyph in four
turns: under a tilted camera their raised parts lean toward the far side
(parallax) and a bench seen from the side shows up to four looks (front,
back, either end).  So the board is read as a whole, in two steps:

1. **Group** the cells that look alike.  Each cell is cut from the image in
   a window around its centre, taller above it than below (raised parts
   rise up the screen), scaled by the cell's width there; it is seen as how
   far each pixel is from the floor's colour (what the board's cells share
   at their edges) and its L*, a and b less the floor's.  Every cell is
   compared with every other (weighted round the object, tolerant to a
   small shift: template matching), cells that match better mirrored than
   as they stand pushed apart, and the cells split into up to four groups
   of look-alikes (kernel k-means on those similarities).  A board whose
   cells fall into fewer than three groups, or groups not alike within or
   not distinct from one another, is no board of objects.
2. **Name** the groups: one assignment of the four directions to the four
   groups, the one the board's geometry backs best.  An object facing left
   and one facing right look like mirror images of each other, one facing
   up or down like itself mirrored; one facing down (its backrest behind it,
   on the far side) rises higher up the screen than one facing up (its
   backrest in front); one facing right has its backrest on the left, so its
   left side rises higher, and the other way round for one facing left.

Direction d is the way the sitter faces (0 up, 1 right, 2 down, 3 left).
``holds_objects`` tells a board of objects on a shared floor from tiles (the
classify stage asks it before reading a board by ``read_objects``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..colour import lab_on_scale
from ..grid import Grid, seen_obliquely
from .benches import NOT_FLAT_INK
from .cells import CELL_PX, CellStack
from .turns import cell_lab

#: A cell's window, in widths of the cell at its centre: this far either side
#: of the centre, this far above it (the object and its raised parts) and
#: this far below.
WINDOW_SIDE = 0.6
WINDOW_ABOVE = 0.6
WINDOW_BELOW = 0.45
#: Channels of a cell's map: its distance from the floor's colour, then its
#: L*, a and b less the floor's (a backrest may be of another material than
#: the seat).  Measured on the tuning looks (boards whose groups are exactly
#: the directions): the first two channels 9 of 20 chairs and 11 of 20
#: benches, all four 13 and 13.
CHANNELS = 4
#: The groups are named on windows that reach this far above the cell's
#: centre (cell widths): a bench seen end-on, its length running up the
#: screen, whole.  (Grouping on such tall windows took in more of the
#: neighbours: 11 and 12 of 20 boards grouped right where 13 and 13 were.)
NAMING_ABOVE = 0.8
#: The window's size in pixels (across, down).
WINDOW_PX = (30, 26)
#: A window is matched against another with this many pixels cut off each
#: side of it, so that it may be placed that far off (objects stand a little
#: off their cells' centres).
SHIFT_PX = 3
#: The maps are compared weighted by a Gaussian of this standard deviation
#: (share of the window's width) centred this far (cell widths) above the
#: cell's centre: the object, not its neighbours' parts that reach in.
ENVELOPE = 0.3
ENVELOPE_RISE = 0.15
#: How hard two cells that match better mirrored than as they stand are
#: pushed apart (``similarities``).  Measured on the tuning looks (boards
#: whose groups are exactly the directions): 0 gives 6 of 20 chairs, 9 of 20
#: benches; 1 gives 7 and 11; 2 gives 4 and 10; with the envelope, 9 and 11.
MIRROR_CONTRAST = 1.0
#: Share of the similarity that cells at one difference in depth share on average taken
#: off every pair's before the cells are grouped (``_less_depth_trend``).  Measured on the
#: tuning looks (true corners, 40 boards): by rows apart, 0 groups 26 boards right (25
#: read exactly), 0.5 27 (26), 1 and 1.5 28 (27), 2 25; by distance on the board, 1 only
#: 19 (objects side by side are seen alike, one above another not).
DEPTH_TREND = 1.0
#: The groups less the depth trend are read only where they keep at least this share of the
#: cells together as the plain groups do: the trend mends a few cells, it does not regroup a
#: board (benches on grass as located: 15 of 40 tuning boards exact without the trend, 11
#: with it ungated).
DEPTH_AGREE = 0.8
#: The cells fall into at most this many groups: one per direction.
DIRECTIONS = 4
#: Kernel k-means is started from this many random partitions (and one made
#: of medoids); the partition it ends at that groups the most alike cells
#: (the sum over groups of size x mean similarity within) is kept.
RESTARTS = 20
#: Rounds of moving each cell to the group it is most like, at most.
ROUNDS = 30
#: The floor's colour is the median of a ring in every rectified cell, this
#: share of the cell in from its edge (past the grout) and this wide.
RING_IN = 0.1
RING_WIDTH = 0.12
#: A board holds objects when ON_FLOOR of its cells show the floor in their
#: ring (within SAME_FLOOR, Delta E, of the board's floor colour: grass with
#: patches of dirt varies) and HELD of them have OBJECT_SHARE of their middle
#: (MIDDLE of the cell, across) farther than OBJECT_INK from the floor and
#: from the cell's own edge.
ON_FLOOR = 0.7
#: Boards with fewer cells than this share not flat (ink, see ``cell_features``)
#: are told at once to hold no objects: flat tiles of lights boards (the made-up
#: 3-D looks measure 0.21 and up, flat lights boards mostly 0).
SOME_INK = 0.15
HELD = 0.9
OBJECT_SHARE = 0.2
SAME_FLOOR = 15.0
MIDDLE = 0.4
OBJECT_INK = 12.0
#: A board of objects shows at least this many looks (directions): cells of
#: two looks are two states (boxes checked or not), a lights board's.  A
#: random board of nine cells shows three directions or more nineteen times
#: in twenty.
LEAST_GROUPS = 3
#: The cells of a board of one object in four looks are alike within their
#: groups: a cell matches the rest of its group at least this well on
#: average (normalised correlation).  Measured: the made-up 3-D looks 0.63 to
#: 0.97; the moon-legend capture, whose benches on rough grass differ from
#: cell to cell, under 0.6.
GROUPS_ALIKE = 0.6
#: ... and each two groups differ: their cells are at least this much less
#: alike across the two groups than within either (``_separation``).  A board
#: of two states (checked and unchecked boxes) split into four groups has two
#: groups of one state: measured 0.014 on such a capture; the made-up 3-D looks
#: of the tuning side 0.034 and more (one board of forty -0.06).
DISTINCT_GROUPS = 0.025
#: ... and, on a board seen square-on, the groups are one object in its turns, alike in
#: colour: no group's mean colour round its cells' objects (Delta E, the window weighed by
#: ``_envelope``, less the floor's) lies this far or farther from another group's.  Seen
#: from straight above, turning an object changes none of its colours, so groups apart in
#: colour are states, not turns: lamps lit and unlit in a floor (measured on the tuning
#: looks as located, 11.7 to 35.4 on three boards, one of them read as chairs before).  A
#: tilted camera shows a chair's back from behind and its seat from the front: chairs and
#: benches seen so measure up to 23.7 and 31.2 (60 boards each), and are not asked.
GROUP_COLOURS = 10.0
#: Turns read for a board that may hold objects (``turns.read_turns``) stand only when
#: they split the cells as their looks do (``turns_split_as_looks``): on a sample of
#: LOOKS_SAMPLE cells spread over the board, at least this share of them must fall into
#: the turn their look-alikes are read in.  Measured on the tuning looks (true grid):
#: arrow boards whose turns are read right 0.94 to 1.00; chairs under a tilted camera that
#: the turns misread 0.60 and 0.67 (a raised object's turns are no quarter turns).
LOOKS_AGREE = 0.85
LOOKS_SAMPLE = 24
#: Cells seen from above for naming: this many pixels a cell, and this share
#: of a cell more all round (raised parts lean out of the cell).
TOP_VIEW_PX = 24
TOP_VIEW_MARGIN = 0.2
#: Which of the two side groups faces right is decided by the heights (the
#: backrest's side rises higher) plus this many times how much better the
#: quarter turns seen from above back it than the other way round (normalised
#: correlation summed over the four turns).  Measured on the tuning looks (40
#: boards a family, true corners): heights alone 22 chairs and 12 benches
#: boards exact; with the turns at 5, 22 and 13 (85.6% and 82.4% of the cells
#: against 84.3% and 81.1%); at 10 or 20, 21 and 13.
QUARTER_WEIGHT = 5.0
#: ... plus this many times how much more edge the group named right-facing shows on its
#: left than the left-facing one (``edge_sides``, shares of the groups' edges), the
#: sides' edges left out of a cell SIDES_RIM of it from its edge (the grout).  Measured on
#: the tuning looks (true groups, 78 boards a family with four directions): the right-
#: facing group told right by the heights and turns 70 chairs and 69 benches boards; by
#: the edges alone 70 and 72; together at 50, 74 and 77 (at 100, 74 and 75; at 200, 70
#: and 73).
SIDES_WEIGHT = 50.0
SIDES_RIM = 0.12
#: Weight of the mirror relations against the heights when the groups are
#: named (the heights are measured in window pixels, the mirrors in
#: normalised correlation).
MIRROR_WEIGHT = 40.0
#: Seen from above, each group turned a quarter clockwise is matched with the next group
#: allowing this many pixels (of TOP_VIEW_PX a cell) of shift either way.
TOP_SHIFT_PX = 5
#: Weight of the quarter turns (each direction's group turned a quarter clockwise is the
#: next direction's) when the groups are named, against the mirrors and heights.  Measured
#: on the tuning looks (true groups, 40 boards): 0 names 34 boards right, 5 to 40 35; read
#: as located, with the depth trend, 19 boards exact (16 before both).
CYCLE_WEIGHT = 10.0


@dataclass
class ObjectReading:
    """Directions (0 up .. 3 left) of every cell, with confidences, and the groups of look-alike
    cells they came from (``groups``: the group of each cell, row-major)."""

    cells: np.ndarray
    confidence: np.ndarray
    groups: np.ndarray
    #: How much better the side-on groups follow the others by quarter turns seen from
    #: above named as they are than swapped (``name_groups``; 0 without all four): objects
    #: seen from above show it clearly, objects seen from the side hardly.
    turns_margin: float = 0.0


def read_objects(stack: CellStack, by_depth: bool = True) -> ObjectReading | None:
    """Read a board of 3-D objects (one in every cell) as directions, from the board as a whole.

    None when the cells do not fall into groups that can be named (fewer than
    LEAST_GROUPS groups of look-alikes, groups whose cells are not alike: GROUPS_ALIKE,
    or groups not distinct from one another: DISTINCT_GROUPS), or, seen square-on, groups
    apart in colour (GROUP_COLOURS: states, not turns).  ``by_depth``: the cells are
    grouped less the depth trend (``_less_depth_trend``) where those groups pass too; the
    classify stage asks it for objects on a floor, not on grass (measured on benches on
    grass as located, tuning side: 15 of 40 boards exact without it, 11 with it).
    """
    grid = stack.grid
    floor, maps, similar = _compared(stack)
    envelope = _envelope(maps.shape[1:3])
    groups = group_cells(similar)
    if not _named_groups(similar, groups):
        return None
    if not seen_obliquely(grid) and _colours_apart(maps, envelope, groups) >= GROUP_COLOURS:
        return None  # states (lamps lit and unlit), not turns
    # Grouped again less the depth trend; the board is judged as grouped above (a lights
    # board seen obliquely may split into look-alikes by depth alone).
    if by_depth:
        depth_groups = group_cells(_less_depth_trend(similar, _depths(grid)))
        if _named_groups(similar, depth_groups) and _agreement(groups, depth_groups) >= DEPTH_AGREE:
            groups = depth_groups
    naming, margin = name_groups(maps, groups, top_views(stack, floor), edge_sides(stack))
    cells = naming[groups].reshape(grid.rows, grid.cols)
    return ObjectReading(cells, _confidence(similar, groups).reshape(cells.shape), groups, margin)


def cell_similarities(stack: CellStack) -> np.ndarray:
    """``(cells, cells)``: how alike every two cells' objects are (``similarities`` of their
    maps round the object), row-major."""
    return _compared(stack)[2]


def _compared(stack: CellStack) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The floor's colour, every cell's ``object_maps`` and how alike every two cells' objects
    are (``similarities`` of the maps round the object), made once a stack: the board read
    as a whole and the namer's look-alikes compare the same cells (every cell with every
    other, the most of a board of objects' reading)."""

    def compare() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        floor = floor_colour(stack)
        maps = object_maps(stack.image, stack.grid, floor)
        return floor, maps, similarities(maps * _envelope(maps.shape[1:3])[None, :, :, None])

    return stack.kept("objects compared", compare)


def _named_groups(similar: np.ndarray, groups: np.ndarray) -> bool:
    """Whether ``groups`` can be named as directions: at least LEAST_GROUPS of them, whose
    cells are alike (GROUPS_ALIKE) and distinct from the other groups' (DISTINCT_GROUPS)."""
    return bool(
        len(np.unique(groups)) >= LEAST_GROUPS
        and _within(similar, groups) >= GROUPS_ALIKE
        and _separation(similar, groups) >= DISTINCT_GROUPS
    )


def _colours_apart(maps: np.ndarray, envelope: np.ndarray, groups: np.ndarray) -> float:
    """How far apart (Delta E) the two groups of cells farthest apart in colour lie: each
    group's mean colour round its cells' objects (``maps``' L*, a and b less the floor's,
    weighed by their ``envelope``)."""
    weight = envelope / envelope.sum()
    colours = np.einsum("nhwc,hw->nc", maps[..., 1:], weight)
    means = np.array([colours[groups == g].mean(axis=0) for g in np.unique(groups)])
    return float(np.linalg.norm(means[:, None] - means[None], axis=2).max())


def _agreement(first: np.ndarray, second: np.ndarray) -> float:
    """The share of cells two groupings put together: each group of ``first`` matched with
    a group of ``second`` (the matching that keeps the most cells)."""
    labels = sorted(set(first.tolist()) | set(second.tolist()))
    best = max(
        sum(int(np.sum((first == a) & (second == b))) for a, b in zip(labels, named, strict=True))
        for named in itertools.permutations(labels)
    )
    return best / len(first)


def _depths(grid: Grid) -> np.ndarray:
    """``(cells,)``: how far up the screen each cell's centre lies, in cell heights (the
    board's height on screen over its rows), row-major."""
    v, u = np.mgrid[0 : grid.rows, 0 : grid.cols] + 0.5
    centres = grid.to_image(np.stack([u, v], axis=-1)).reshape(-1, 2)
    corners = grid.corners
    height = 0.5 * (
        np.linalg.norm(corners[3] - corners[0]) + np.linalg.norm(corners[2] - corners[1])
    )
    return -centres[:, 1] / max(height / grid.rows, 1e-9)


def _less_depth_trend(similar: np.ndarray, depths: np.ndarray) -> np.ndarray:
    """``similar`` less how alike cells are on average at the same difference in depth.

    A tilted camera sees near and far objects from different angles: two cells
    rows apart are less alike than two side by side, whatever their directions,
    and one direction may split into a near and a far group.  The mean
    similarity of the pairs of cells whose depths (``_depths``) differ by
    about as many cell heights (rounded; directions are mixed over the board)
    is taken off each pair's (DEPTH_TREND of it), grouping by what is left.
    """
    apart = np.rint(np.abs(depths[:, None] - depths[None, :])).astype(int)
    others = ~np.eye(len(similar), dtype=bool)
    trend = np.zeros_like(similar)
    for step in np.unique(apart):
        pairs = apart == step
        if (pairs & others).any():
            trend[pairs] = similar[pairs & others].mean()
    return similar - DEPTH_TREND * trend


def turns_split_as_looks(stack: CellStack, turns: np.ndarray) -> bool:
    """Whether the ``turns`` read for a board (``(rows, cols)``, by ``turns.read_turns``) split
    its cells as their looks do.

    Flat glyphs turned a quarter at a time show one look per turn; chairs
    standing up under a tilted camera show one per direction too, but the
    quarter turns the turn reader matches them by do not hold, and its turns
    cut across the groups of look-alikes.  A sample of LOOKS_SAMPLE cells,
    spread over the board, is grouped by look (as ``read_objects`` groups the
    board); the turns hold when at least LOOKS_AGREE of the sample lies in the
    turn most of its group is read in, each group named a turn of its own.
    """
    grid = stack.grid
    count = grid.rows * grid.cols
    sample = np.unique(np.linspace(0, count - 1, min(count, LOOKS_SAMPLE)).round().astype(int))
    maps = object_maps(stack.image, grid, floor_colour(stack), sample)
    groups = group_cells(similarities(maps * _envelope(maps.shape[1:3])[None, :, :, None]))
    read = turns.ravel()[sample]
    present = np.unique(groups).tolist()
    agreeing = max(
        sum(int(np.sum(read[groups == g] == turn)) for g, turn in zip(present, named, strict=True))
        for named in itertools.permutations(range(DIRECTIONS), len(present))
    )
    return agreeing >= LOOKS_AGREE * len(sample)


def _cells_lab(stack: CellStack) -> np.ndarray:
    """``(cells, size, size, 3)`` float32: the rectified cells in L*a*b* (L* on 0..100), at
    the size the cells' features were taken (that board is made already)."""
    grid = stack.grid
    return cell_lab(stack.board(stack.features_px), grid.rows, grid.cols)


def _ring(size: int) -> np.ndarray:
    """``(size, size)`` bool: the ring near a cell's edge where its floor shows."""
    a = int(round(RING_IN * size))
    b = a + max(1, int(round(RING_WIDTH * size)))
    ring = np.zeros((size, size), bool)
    ring[a : size - a, a : size - a] = True
    ring[b : size - b, b : size - b] = False
    return ring


def _within(similar: np.ndarray, groups: np.ndarray) -> float:
    """How alike the cells of a group are: the mean similarity of every cell to the other
    members of its group (cells alone in their group left out)."""
    same = groups[:, None] == groups[None, :]
    np.fill_diagonal(same, False)
    shared = same.any(axis=1)
    if not shared.any():
        return 0.0
    return float(np.mean([similar[i, same[i]].mean() for i in np.nonzero(shared)[0]]))


def _separation(similar: np.ndarray, groups: np.ndarray) -> float:
    """How much more alike the cells of a group are than those of two groups: over every two
    groups (of two cells or more), the least of (the smaller mean similarity within either)
    less (the mean similarity across them)."""
    groups_of = [g for g in np.unique(groups).tolist() if (groups == g).sum() > 1]
    within = {}
    for g in groups_of:
        members = np.nonzero(groups == g)[0]
        block = similar[np.ix_(members, members)]
        within[g] = float(block[~np.eye(len(members), dtype=bool)].mean())
    least = np.inf
    for first, second in itertools.combinations(groups_of, 2):
        across = float(similar[np.ix_(groups == first, groups == second)].mean())
        least = min(least, min(within[first], within[second]) - across)
    return float(least)


def cell_floors(stack: CellStack) -> np.ndarray:
    """``(cells, 3)``: each cell's floor colour (L*a*b*): the median of its ring near its edge."""
    cells = _cells_lab(stack)
    return np.median(cells[:, _ring(cells.shape[1])], axis=1)


def floor_colour(stack: CellStack) -> np.ndarray:
    """The floor's colour (L*a*b*, L* on 0..100): the median of every cell's ring near its edge."""
    cells = _cells_lab(stack)
    return np.median(cells[:, _ring(cells.shape[1])].reshape(-1, 3), axis=0)


def holds_objects(stack: CellStack) -> bool:
    """Every cell holds an object on one floor: most cells (ON_FLOOR) show the floor's colour
    in their ring, and nearly all (HELD) something else in their middle, farther than
    OBJECT_INK from the floor and from the cell's own edge (the grout or gap around it).

    A lights board's cells are wholly one colour (their middle is their ring's), and
    of two colours over the board; an outlined square's middle is the gap's colour
    around it.  A board of 3-D objects shares its floor, the objects on it.
    """
    if np.mean(stack.features[..., 3] >= NOT_FLAT_INK) < SOME_INK:
        return False  # flat cells (tiles): told by the features every board has
    cells = _cells_lab(stack)
    size = cells.shape[1]
    rings = np.median(cells[:, _ring(size)], axis=1)
    floor = np.median(rings, axis=0)
    edge = np.zeros((size, size), bool)
    rim = max(1, int(round(RING_IN * size)))
    edge[:rim] = edge[-rim:] = True
    edge[:, :rim] = edge[:, -rim:] = True
    edges = np.median(cells[:, edge], axis=1)
    a = int(round((0.5 - MIDDLE / 2) * size))
    middles = cells[:, a : size - a, a : size - a].reshape(len(cells), -1, 3)
    unlike = (np.linalg.norm(middles - floor, axis=2) > OBJECT_INK) & (
        np.linalg.norm(middles - edges[:, None, :], axis=2) > OBJECT_INK
    )
    on_floor = np.linalg.norm(rings - floor, axis=1) < SAME_FLOOR
    held = unlike.mean(axis=1) >= OBJECT_SHARE
    return bool(np.mean(on_floor) >= ON_FLOOR and np.mean(held) >= HELD)


def object_maps(
    image: np.ndarray, grid: Grid, floor: np.ndarray, cells: np.ndarray | None = None
) -> np.ndarray:
    """``(cells, down, across, CHANNELS)`` float32: each cell's window as (distance from the
    floor's colour, L*, a and b less the floor's), row-major; ``cells`` (row-major indices)
    picks some cells, all by default."""
    windows = object_windows(image, grid, floor, WINDOW_SIDE, WINDOW_ABOVE, WINDOW_PX, cells)
    return np.concatenate([np.linalg.norm(windows, axis=3, keepdims=True), windows], axis=3)


def object_windows(
    image: np.ndarray,
    grid: Grid,
    floor: np.ndarray,
    side: float,
    above: float,
    size: tuple[int, int],
    cells: np.ndarray | None = None,
) -> np.ndarray:
    """``(cells, down, across, 3)`` float32: each cell's window in L*, a and b less the
    ``floor``'s colour, row-major; ``cells`` (row-major indices) picks some cells.

    A window is cut square to the screen round the cell's centre: ``side`` cell widths
    (the cell's width there) either side, ``above`` of them above the centre (raised parts
    rise up the screen) and as far below as ``size`` (across, down pixels) leaves."""
    across, down = size
    corners = grid.corners
    h, w = image.shape[:2]
    # Only the box that holds every window is converted.
    spread = np.linalg.norm(corners[1] - corners[0]) / grid.cols
    x0 = int(max(0, np.floor(corners[:, 0].min() - spread)))
    x1 = int(min(w, np.ceil(corners[:, 0].max() + spread)))
    y0 = int(max(0, np.floor(corners[:, 1].min() - 2 * spread)))
    y1 = int(min(h, np.ceil(corners[:, 1].max() + spread)))
    lab = lab_on_scale(image[y0:y1, x0:x1])
    rows, cols = grid.rows, grid.cols
    v, u = np.mgrid[0:rows, 0:cols] + 0.5
    centres = grid.to_image(np.stack([u, v], axis=-1)).reshape(-1, 2) - [x0, y0]
    lefts = grid.to_image(np.stack([u - 0.5, v], axis=-1)).reshape(-1, 2)
    rights = grid.to_image(np.stack([u + 0.5, v], axis=-1)).reshape(-1, 2)
    widths = np.linalg.norm(rights - lefts, axis=1)
    if cells is not None:
        centres, widths = centres[cells], widths[cells]
    windows = np.empty((len(centres), down, across, 3), np.float32)
    for i, ((cx, cy), width) in enumerate(zip(centres, widths, strict=True)):
        scale = across / (2 * side * width)  # window pixels per image pixel
        to_window = np.array(
            [
                [scale, 0, -scale * (cx - side * width)],
                [0, scale, -scale * (cy - above * width)],
            ],
            np.float32,
        )
        flags = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        windows[i] = cv2.warpAffine(
            lab, to_window, (across, down), flags=flags, borderMode=cv2.BORDER_REPLICATE
        )
    windows -= floor.astype(np.float32)
    return windows


def _matches(maps: np.ndarray, templates: np.ndarray) -> np.ndarray:
    """``(templates, maps)``: how well each template matches each map, at its best shift.

    The normalised correlation of OpenCV's ``TM_CCOEFF_NORMED`` (each channel
    less its mean, over all channels at once), for every placement of a
    template wholly inside a map, all in one matrix product: every
    template-sized window of every map is laid out once, and its norm is
    taken from its sums (a template less its means is orthogonal to a
    window's means, so the window needs no centring for the product).
    """
    count = len(maps)
    down, across, channels = templates.shape[1:]
    centred = templates - templates.mean(axis=(1, 2), keepdims=True)
    centred = centred.reshape(len(templates), -1)
    centred /= np.maximum(np.linalg.norm(centred, axis=1, keepdims=True), 1e-12)
    windows = sliding_window_view(maps, (down, across), axis=(1, 2))  # (n, dy, dx, ch, h, w)
    windows = np.ascontiguousarray(windows.transpose(0, 1, 2, 4, 5, 3))
    places = windows.shape[1] * windows.shape[2]
    pixels = windows.reshape(count * places, down * across, channels)
    sums = np.einsum("ijk->ik", pixels)  # (the same sums as .sum(axis=1), four times faster)
    flat = pixels.reshape(count * places, -1)
    spread = np.einsum("ij,ij->i", flat, flat) - np.square(sums).sum(axis=1) / (down * across)
    norms = np.sqrt(np.maximum(spread, 0.0))
    scores = centred @ flat.T / np.maximum(norms, 1e-12)
    return scores.reshape(len(templates), count, places).max(axis=2).astype(np.float64)


def _middle(maps: np.ndarray) -> np.ndarray:
    """Maps with SHIFT_PX cut off each side: the templates."""
    return maps[:, SHIFT_PX:-SHIFT_PX, SHIFT_PX:-SHIFT_PX]


def _envelope(shape: tuple[int, int]) -> np.ndarray:
    """``shape`` float32: a Gaussian weight round where a cell's object stands in its window
    (ENVELOPE_RISE above the cell's centre, ENVELOPE wide), fading its neighbours out."""
    down, across = shape
    rise = (WINDOW_ABOVE - ENVELOPE_RISE) / (WINDOW_ABOVE + WINDOW_BELOW) * down
    ys, xs = np.mgrid[0:down, 0:across]
    spread = 2 * (ENVELOPE * across) ** 2
    return np.exp(-((ys - rise) ** 2 + (xs - across / 2) ** 2) / spread).astype(np.float32)


def similarities(maps: np.ndarray) -> np.ndarray:
    """``(cells, cells)``: how alike every two cells' maps are (the better way round), told
    from how alike each is to the other mirrored (MIRROR_CONTRAST).

    Objects facing left and right are mirror images of each other, and alike
    enough as they stand to be taken for one look: two cells that match
    better mirrored than as they stand are pushed apart; objects facing up
    or down are their own mirror images and are not moved.
    """
    similar = _matches(maps, _middle(maps))
    similar = np.maximum(similar, similar.T)
    mirrored = _matches(np.ascontiguousarray(maps[:, :, ::-1]), _middle(maps))
    mirrored = np.maximum(mirrored, mirrored.T)
    return similar + MIRROR_CONTRAST * (similar - mirrored)


def group_cells(similar: np.ndarray, groups: int = DIRECTIONS) -> np.ndarray:
    """The group of each cell: kernel k-means on the ``similar`` matrix.

    Each cell moves to the group it is most like (mean similarity to its
    members) until none moves; of the partitions reached from RESTARTS
    random starts and one of medoids, the one with the largest sum over
    groups of size x mean similarity within is kept.
    """
    count = len(similar)
    rng = np.random.default_rng(0)
    starts = [_medoid_groups(1 - similar, groups, rng)]
    starts += [rng.integers(0, groups, count) for _ in range(RESTARTS)]
    best: tuple[float, np.ndarray] | None = None
    for labels in starts:
        for _ in range(ROUNDS):
            likeness = np.stack(
                [
                    similar[:, labels == g].mean(axis=1)
                    if (labels == g).any()
                    else np.full(count, -9.0)
                    for g in range(groups)
                ],
                axis=1,
            )
            moved = likeness.argmax(axis=1)
            if np.array_equal(moved, labels):
                break
            labels = moved
        score = sum(
            float(similar[np.ix_(labels == g, labels == g)].mean()) * int((labels == g).sum())
            for g in range(groups)
            if (labels == g).any()
        )
        if best is None or score > best[0]:
            best = (score, labels)
    assert best is not None
    return best[1]


def _medoid_groups(distance: np.ndarray, groups: int, rng: np.random.Generator) -> np.ndarray:
    """A partition around ``groups`` medoids (k-medoids from random medoids, ten starts)."""
    count = len(distance)
    best: tuple[float, np.ndarray] | None = None
    for _ in range(10):
        medoids = list(rng.choice(count, min(groups, count), replace=False))
        for _ in range(ROUNDS):
            labels = distance[:, medoids].argmin(axis=1)
            moved = []
            for g, medoid in enumerate(medoids):
                members = np.nonzero(labels == g)[0]
                if not len(members):
                    moved.append(medoid)
                    continue
                moved.append(int(members[distance[np.ix_(members, members)].sum(axis=1).argmin()]))
            if moved == medoids:
                break
            medoids = moved
        cost = float(distance[:, medoids].min(axis=1).sum())
        if best is None or cost < best[0]:
            best = (cost, distance[:, medoids].argmin(axis=1))
    assert best is not None
    return best[1]


@dataclass
class _Outline:
    """Where a group's typical object rises (window rows): its top, and the tops of its left
    and right halves."""

    top: float
    left_top: float
    right_top: float


def _outline(ink: np.ndarray) -> _Outline:
    """The outline of the object in a mean ink map: the part above Otsu's threshold nearest the
    cell's centre."""
    down, across = ink.shape
    scaled = cv2.normalize(ink, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
    _, mask = cv2.threshold(scaled, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    centre = np.array([WINDOW_ABOVE / (WINDOW_ABOVE + WINDOW_BELOW) * down, across / 2])
    if count < 2:
        return _Outline(down / 2, down / 2, down / 2)
    nearest = min(
        range(1, count),
        key=lambda label: float(np.hypot(*(np.argwhere(labels == label) - centre).T).min()),
    )
    ys, xs = np.nonzero(labels == nearest)
    middle = (xs.min() + xs.max()) / 2
    left, right = ys[xs < middle], ys[xs > middle]
    return _Outline(
        float(ys.min()),
        float(left.min()) if len(left) else float(ys.max()),
        float(right.min()) if len(right) else float(ys.max()),
    )


def top_views(stack: CellStack, floor: np.ndarray) -> np.ndarray:
    """``(cells, size, size)`` float32: each cell seen square-on on the floor (the board
    rectified, TOP_VIEW_MARGIN of a cell more all round), as its distance from the floor's
    colour; row-major."""
    grid = stack.grid
    board = grid.rectify(stack.image, TOP_VIEW_PX, margin=TOP_VIEW_MARGIN)
    lab = lab_on_scale(board)
    ink = np.sqrt(np.square(lab - floor).sum(axis=2))
    size = TOP_VIEW_PX + 2 * int(round(TOP_VIEW_MARGIN * TOP_VIEW_PX))
    return np.stack(
        [
            ink[r * TOP_VIEW_PX : r * TOP_VIEW_PX + size, c * TOP_VIEW_PX : c * TOP_VIEW_PX + size]
            for r in range(grid.rows)
            for c in range(grid.cols)
        ]
    )


def edge_sides(stack: CellStack) -> np.ndarray:
    """``(cells, 3)``: how much edge each cell shows seen square-on in its left part and its
    right part (its middle rows), and in all of it (its grout left out); row-major.

    A backrest is a bar raised along one side of the seat, armrests run from it to
    the front: a chair shows more edges on its back's side than on its front's."""
    grid = stack.grid
    size = CELL_PX
    lab = lab_on_scale(stack.board(size))
    across = cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3)
    down = cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=3)
    strength = np.sqrt(np.square(across).sum(axis=2) + np.square(down).sum(axis=2))
    cells = strength.reshape(grid.rows, size, grid.cols, size).transpose(0, 2, 1, 3)
    rim = int(round(SIDES_RIM * size))
    inner = cells.reshape(-1, size, size)[:, rim : size - rim, rim : size - rim]
    span = inner.shape[1]
    half, quarter = span // 2, span // 4
    middle_rows = inner[:, quarter : span - quarter]
    return np.stack(
        [
            middle_rows[:, :, :half].sum(axis=(1, 2)),
            middle_rows[:, :, span - half :].sum(axis=(1, 2)),
            inner.sum(axis=(1, 2)),
        ],
        axis=1,
    )


def name_groups(
    maps: np.ndarray, groups: np.ndarray, tops: np.ndarray, sides: np.ndarray
) -> tuple[np.ndarray, float]:
    """``(DIRECTIONS,)``: the direction of each group, by the assignment the geometry backs
    best; and how much better the side-on groups follow the others by quarter turns named
    so than swapped (0 when the board lacks a direction).

    A group missing from the board (a small board without one direction) is
    left out of the relations it would take part in.  Seen from above
    (``tops``: each cell's ``top_views``), each direction's object turned a
    quarter clockwise looks like the next direction's, at a small shift (the
    parallax of the raised parts turns with them): every assignment is backed
    by how well its groups follow one another by quarter turns (CYCLE_WEIGHT),
    and that helps once more to tell the right-facing group from the
    left-facing one (QUARTER_WEIGHT), as do the edges on either side of them
    (``sides``: each cell's ``edge_sides``; SIDES_WEIGHT): one facing right has its
    back, and the more edges, on its left.
    """
    means = {g: maps[groups == g].mean(axis=0) for g in np.unique(groups).tolist()}
    outlines = {g: _outline(mean[..., 0]) for g, mean in means.items()}
    # how alike each group's mean is to each group's mean mirrored, all in one match
    order = sorted(means)
    stacked = np.stack([means[g] for g in order])
    mirror_table = _matches(stacked, _middle(np.ascontiguousarray(stacked[:, :, ::-1])))

    def like_mirrored(a: int, b: int) -> float:
        """How alike group ``a``'s mean is to group ``b``'s mirrored (at the best shift)."""
        return float(mirror_table[order.index(b), order.index(a)])

    from_above = np.stack([tops[groups == g].mean(axis=0) for g in order])[..., None]
    quarter_turned = np.stack([np.rot90(view, -1) for view in from_above]).astype(np.float32)
    # how alike group a turned a quarter clockwise and group b are, seen from above, at the
    # best shift (the raised parts' parallax turns with the object: no quarter turn)
    quarter_table = _matches(
        from_above.astype(np.float32),
        np.ascontiguousarray(
            quarter_turned[:, TOP_SHIFT_PX:-TOP_SHIFT_PX, TOP_SHIFT_PX:-TOP_SHIFT_PX]
        ),
    )
    turned = {
        (a, b): float(quarter_table[order.index(a), order.index(b)])
        for a in means
        for b in means
        if a != b
    }

    def quarters(of: dict[int, int]) -> float:
        """How well the groups named by ``of`` (direction -> group) follow one another by
        quarter turns seen from above (the directions present, each with the next)."""
        return sum(
            turned[of[d], of[(d + 1) % DIRECTIONS]]
            for d in range(DIRECTIONS)
            if d in of and (d + 1) % DIRECTIONS in of
        )

    lean = {g: _left_lean(sides[groups == g]) for g in order}
    best: tuple[float, tuple[int, ...]] | None = None
    present = sorted(means)
    for directions in itertools.permutations(range(DIRECTIONS), len(present)):
        of = dict(zip(directions, present, strict=True))  # direction -> group
        mirror = 0.0
        if 1 in of and 3 in of:  # (both ways round: swapping the two changes nothing here)
            mirror += 0.5 * (like_mirrored(of[1], of[3]) + like_mirrored(of[3], of[1]))
        for d in (0, 2):
            if d in of:
                mirror += 0.5 * like_mirrored(of[d], of[d])
        height = 0.0
        if 0 in of and 2 in of:  # facing down rises higher (lower top row)
            height += outlines[of[0]].top - outlines[of[2]].top
        if 1 in of:  # facing right: backrest on the left rises higher
            height += outlines[of[1]].right_top - outlines[of[1]].left_top
        if 3 in of:
            height += outlines[of[3]].left_top - outlines[of[3]].right_top
        backs = 0.0  # facing right: its back, with more edges, on the left
        if 1 in of:
            backs += lean[of[1]]
        if 3 in of:
            backs -= lean[of[3]]
        score = MIRROR_WEIGHT * mirror + height + CYCLE_WEIGHT * quarters(of) + SIDES_WEIGHT * backs
        if best is None or score > best[0]:
            best = (score, directions)
    assert best is not None
    chosen = dict(zip(best[1], present, strict=True))  # direction -> group
    if all(d in chosen for d in range(DIRECTIONS)):
        # Which side group faces right: the backrest's side rising higher, and the
        # quarter turns seen from above (each direction turned on is the next).
        swapped = {**chosen, 1: chosen[3], 3: chosen[1]}
        rise = outlines[chosen[1]].right_top - outlines[chosen[1]].left_top
        rise += outlines[chosen[3]].left_top - outlines[chosen[3]].right_top
        backs = lean[chosen[1]] - lean[chosen[3]]
        decided = rise + QUARTER_WEIGHT * (quarters(chosen) - quarters(swapped))
        if decided + SIDES_WEIGHT * backs < 0:
            chosen, swapped = swapped, chosen
        margin = quarters(chosen) - quarters(swapped)
    else:
        margin = 0.0
    naming = np.zeros(max(present) + 1, np.int64)
    for direction, group in chosen.items():
        naming[group] = direction
    return naming, float(margin)


def _left_lean(sides: np.ndarray) -> float:
    """How much more edge a group's cells show on their left than on their right, as a share
    of all their edges (``sides``: the group's rows of ``edge_sides``)."""
    left, right, total = sides.sum(axis=0)
    return float((left - right) / max(float(total), 1e-9))


def _confidence(similar: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each cell's sureness (0..1): how much more it is like its own group than the next one."""
    count = len(similar)
    likeness = np.stack(
        [
            similar[:, groups == g].mean(axis=1) if (groups == g).any() else np.full(count, -1.0)
            for g in range(DIRECTIONS)
        ],
        axis=1,
    )
    own = likeness[np.arange(count), groups]
    likeness[np.arange(count), groups] = -np.inf
    return np.clip((own - likeness.max(axis=1)) * 10, 0, 1)
