"""A learned namer for 3-D objects: each cell's window read as the odds of four directions.

The object reader (``objects3d``) groups a board's cells by look; naming those
groups from geometry alone (heights, mirrors, quarter turns seen from above) is
where it fails most.  A small convolutional network, trained on made-up boards
of random chair and bench models under random cameras (``tools/train_object_namer.py``;
the seeds it is scored on are never trained on), gives every cell the odds of
each direction, and of holding no object at all (a flat look's cell: the
network is not sure of boards it was not made for).  Each window is read as it
stands and mirrored.  A cell it hesitates over takes the direction of the
surely named cells most like it (``name_cells``): the board's look-alikes back
the decision the cell alone cannot make.

The network ships as ONNX (``models/object_namer.onnx``) and runs in OpenCV's
dnn module; without the file every caller falls back to the geometry.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from functools import cache
from importlib import resources
from itertools import islice
from pathlib import Path

import cv2
import numpy as np

from ..geometry import apply_homography
from ..grid import Grid, align_cells
from .cells import CellStack

#: A cell's window for the network: this many cell widths either side of the
#: centre, this many above it (a bench seen end-on runs up the screen), the
#: rest of NAMER_PX below.
NAMER_SIDE = 0.7
NAMER_ABOVE = 0.95
#: The window's size in pixels (across, down): 1.4 cell widths either way.
NAMER_PX = (32, 32)
#: The windows are scaled by this quantile of their pixels' distance from the
#: floor's colour over the whole board (the board's own contrast), no less than
#: LEAST_SCALE (Delta E).
SCALE_QUANTILE = 0.9
LEAST_SCALE = 5.0
#: The network's classes: the four directions, then no object (a flat look).
CLASSES = 5
NO_OBJECT = 4
#: Each class seen in a mirror: right and left swap.
MIRRORED = (0, 3, 2, 1, NO_OBJECT)
#: A cell whose likeliest direction has odds under SURE_CELL is named again with the votes
#: of the LOOK_ALIKES cells most like it (``objects3d.cell_similarities``) among those
#: named surely, weighed VOTES_WEIGHT against its own odds' logarithm.  Measured on tuning
#: boards it was not trained on (30 a family, as located): chairs 20 of 26 boards of the
#: right size exact by the odds alone, 23 to 25 with the votes of 2 to 4 look-alikes at a
#: weight of 3 to 6; benches 24 of 26 either way.
SURE_CELL = 0.85
LOOK_ALIKES = 3
VOTES_WEIGHT = 4.0
#: Where the board's cells, grouped by look as a whole (``objects3d.read_objects``), back the
#: namer (every surely named cell faces its group's way, each group named by its cells' odds:
#: ``group_directions``), a cell the namer hesitates over is named by its own odds with its
#: group's direction as a prior (GROUP_PURITY of a group's cells face its way) instead of by
#: its look-alikes' votes.  Two views that agree on every sure cell vouch for the grouping: its
#: groups are directions, though a cell unlike the rest of its group may be the one the namer
#: hesitates over, and its own odds may outweigh the prior.  Measured on 500 tuning boards
#: and photos of chairs, benches, monitors and competing scenes, as located: three photos of
#: a monitor showing 3-D chairs mended, a fourth one cell nearer (a photo's moire makes the
#: nearest look-alikes a poor guide), none lost.  The group's direction put in outright lost a
#: 3x3 board and a 4x3 board of chairs, each a group taking in one chair that faces another way.
GROUP_ODDS_FLOOR = 1e-3
GROUP_PURITY = 0.9
#: The shipped network: in the installed package (``vision_solver.models``), else in the
#: checkout's models/ folder beside the package.
MODEL_NAME = "object_namer.onnx"
#: A lattice's outer line (row or column) whose cells hold objects with odds under
#: EMPTY_LINE on average, on a floor OTHER_FLOOR or more (Delta E) from the board's, is no
#: part of a board of objects whose block holds them with OBJECTS_BLOCK or more
#: (``peeled_block``).  Measured on located lattices that took in a border's tiles round a
#: board of chairs: those lines' odds 0.03 to 0.66, their floor 11.6 to 25.4 from the
#: board's; the renderer's moon-legend benches, whose edge columns the network sees less
#: surely (0.54 to 0.74), on the board's own grass (5.1 to 8.0 from it).
#: A line none of whose cells holds an object with BARE_LINE odds goes on any floor: benches
#: on grass with a lattice of the grass beside them (fresh tuning benches, odds 0.03 to
#: 0.34 in such lines; the moon-legend benches' edge columns 0.54 and up).
EMPTY_LINE = 0.75
OTHER_FLOOR = 10.0
BARE_LINE = 0.4
OBJECTS_BLOCK = 0.9
#: What is left once the lines are peeled is a board of objects when its cells hold one with
#: odds OBJECTS_BLOCK on average, or PEELED_BLOCK where the lines peeled hold none (their
#: odds EMPTY_PEELED at most): a photographed screen leaves the namer unsure of a board's
#: edge cells (a 6x5 board of chairs in its border, 0.75 against the border's 0.04).
PEELED_BLOCK = 0.7
EMPTY_PEELED = 0.1
#: A board of objects in a border (another floor all round it) that a lattice found short of
#: (its far row, seen smaller; its near one, the objects leaning out of it; or only a block
#: of it, where the tiles are mottled) takes in, a line at a time, the line just outside an
#: edge where the namer sees objects in it with GROWN_OBJECTS on average, on the board's
#: floor: under SAME_FLOOR Delta E from it at the median, or nearer it than FLOOR_SHARE of
#: the border's distance (the farthest of the four lines two out, at the median: mottled
#: tiles spread their floor's colour).  Each edge that takes in none must have its next
#: line, or the one beyond it, on the border's floor (OTHER_FLOOR or more from the board's):
#: on grass, the next line may hold a bench's shadow and nothing bounds the board
#: (``grown_sides``).  The grid is fitted to its tiles again after each line (``align_cells``),
#: at most GROWN_LINES times.  Measured on fresh tuning boards as located (84 chairs, 97
#: benches): two lines lost, objects 0.97 and 0.98, floor 2.5 and 5.6 from the board's;
#: border lines 9.4 or more from it; a line of grass beside benches that the namer sees
#: objects in 0.93 (no border round it).  On three boards of chairs a lattice found blocks
#: of (15000 on): the lines lost, objects 0.91 to 0.99, floor up to 11.9 from the board's
#: (mottled tiles) with the border 17 to 30 from it.
GROWN_OBJECTS = 0.9
SAME_FLOOR = 8.0
FLOOR_SHARE = 0.5
GROWN_LINES = 12


def _shipped_model() -> Path:
    try:
        return Path(str(resources.files("vision_solver.models") / MODEL_NAME))
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[3] / "models" / MODEL_NAME


MODEL = _shipped_model()


def board_windows(stack: CellStack) -> np.ndarray:
    """``(cells, 3, down, across)`` float32: every cell's window (``objects3d.object_windows``)
    as the network takes it, L*, a and b less the floor's, over the board's own contrast."""
    from .objects3d import floor_colour, object_windows

    floor = floor_colour(stack)
    windows = object_windows(stack.image, stack.grid, floor, NAMER_SIDE, NAMER_ABOVE, NAMER_PX)
    scale = max(float(np.quantile(np.linalg.norm(windows, axis=3), SCALE_QUANTILE)), LEAST_SCALE)
    return np.ascontiguousarray((windows / scale).transpose(0, 3, 1, 2))


@cache
def _network(path: Path) -> cv2.dnn.Net | None:
    """The shipped network, or None without its file."""
    if not path.is_file():
        return None
    return cv2.dnn.readNetFromONNX(str(path))


#: The odds of the last few boards asked (``direction_odds``): the pipeline asks a board's
#: once to place it (``block_of_objects``) and the classify stage again to read it.  Each is
#: kept with a weak reference to its image (the very array: a new frame of a video, even in
#: the same memory, is another) and the grid's placing.
_RECENT: list[tuple[weakref.ref, tuple, np.ndarray]] = []
RECENT = 2


def _grid_key(grid: Grid, model: Path) -> tuple:
    return (grid.rows, grid.cols, np.asarray(grid.homography, np.float64).tobytes(), str(model))


def direction_odds(stack: CellStack, model: Path | None = None) -> np.ndarray | None:
    """``(cells, 5)``: each cell of the board's probabilities of holding an object facing up,
    right, down or left, and of holding none (NO_OBJECT), row-major; None without the
    network's file."""
    path = MODEL if model is None else model
    network = _network(path)
    if network is None:
        return None
    key = _grid_key(stack.grid, path)
    for seen, asked, odds in _RECENT:
        if seen() is stack.image and asked == key:
            return odds.copy()
    odds = _odds(network, board_windows(stack))
    _RECENT.insert(0, (weakref.ref(stack.image), key, odds.copy()))
    del _RECENT[RECENT:]
    return odds


def _odds(network: cv2.dnn.Net, windows: np.ndarray) -> np.ndarray:
    """``(cells, CLASSES)``: the network's odds for each window, read as it stands and
    mirrored."""
    # Every window is read as it stands and mirrored (right and left swapped back): the
    # two readings' odds averaged.
    count = len(windows)
    network.setInput(np.concatenate([windows, np.ascontiguousarray(windows[..., ::-1])]))
    logits = network.forward().reshape(2 * count, CLASSES).astype(np.float64)
    logits -= logits.max(axis=1, keepdims=True)
    odds = np.exp(logits)
    odds /= odds.sum(axis=1, keepdims=True)
    return 0.5 * (odds[:count] + odds[count:][:, list(MIRRORED)])


def name_cells(
    odds: np.ndarray, similar: np.ndarray | None = None, groups: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's direction and confidence, row-major, from its ``odds`` of the four
    directions (``(cells, 4)``) and, for the cells not surely named (SURE_CELL), their group's
    direction where the groups back the namer (``groups``: each cell's group of look-alikes,
    see GROUP_ODDS_FLOOR), else the votes of their look-alikes (``similar``: ``(cells,
    cells)``, how alike every two cells are).

    A cell the namer hesitates over is usually one whose telling part (a thin
    backrest, an armrest) is hidden or blurred; the cells that look most like
    it, and were named surely, most likely face its way."""
    if odds.ndim != 2 or odds.shape[1] != 4:
        raise ValueError(f"odds must be (cells, 4), not {odds.shape}")
    if groups is not None and groups.shape != (len(odds),):
        raise ValueError(f"groups must be one per cell ({len(odds)},), not {groups.shape}")
    directions = odds.argmax(axis=1)
    confidence = odds.max(axis=1)
    sure = np.nonzero(confidence >= SURE_CELL)[0]
    unsure = np.nonzero(confidence < SURE_CELL)[0]
    if not len(sure) or not len(unsure):
        return directions, confidence
    if groups is not None:
        by_group = group_directions(odds, groups)
        if np.array_equal(by_group[sure], directions[sure]):
            # The group's direction as a prior: GROUP_PURITY of its cells face its way.
            prior = np.log(GROUP_PURITY * (odds.shape[1] - 1) / (1 - GROUP_PURITY))
            named = directions.copy()
            for cell in unsure:
                backed = np.log(odds[cell] + GROUP_ODDS_FLOOR)
                backed[by_group[cell]] += prior
                named[cell] = int(np.argmax(backed))
            return named, confidence
    if similar is None:
        return directions, confidence
    named = directions.copy()
    for cell in unsure:
        alike = sure[np.argsort(-similar[cell, sure], kind="stable")[:LOOK_ALIKES]]
        votes = np.bincount(directions[alike], minlength=4) / len(alike)
        named[cell] = int(np.argmax(np.log(odds[cell] + 1e-6) + VOTES_WEIGHT * votes))
    return named, confidence


def group_directions(odds: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """``(cells,)``: the direction of each cell's group, the one its cells' ``odds``
    (``(cells, 4)``) back most: the logarithms of their odds, each raised by
    GROUP_ODDS_FLOOR, summed."""
    labels, owner = np.unique(groups, return_inverse=True)
    summed = np.zeros((len(labels), odds.shape[1]))
    np.add.at(summed, owner, np.log(odds + GROUP_ODDS_FLOOR))
    return summed.argmax(axis=1)[owner]


#: The namer sees objects on a board whose cells' odds of holding one (of any direction)
#: average at least this, however unsure of their directions.  Measured on the boards, as
#: located, that nothing else took for objects (fresh tuning seeds, 10800 on): the flat
#: families' 0.03 to 0.22 but one lights board's 0.50 (291 boards); chairs 0.77 to 0.95 (grey
#: chairs on grey tiles among them: read as lights, all off, before), benches 0.59 and 0.92.
#: A board seen obliquely whose located grid's cells hold objects under this on average (a
#: border's bricks, a lattice stretched over the floor) gives way to a lattice the search
#: weighed (``objects_rather``) whose cells hold them at least so: of the RIVALS likeliest
#: lattices (by their score; four cells or more, a convex outline in the image), the one of
#: the most cells that reaches past the grid (a block inside it is a part of the same board,
#: which the namer may see less surely as a whole).  Measured on fresh tuning boards of
#: chairs located wrong (a brick border's strip, a lattice stretched over the ground): their
#: grids 0.10 to 0.64, a lattice of the board among the rivals 0.99 every time.
SURE_OBJECTS = 0.9
RIVALS = 12
#: ... asked only where the grid's cells hold objects with odds SOME_OBJECTS or more on
#: average: the namer sees nothing at all in a flat board's cells (measured on the tuning
#: photos seen obliquely, 118 of them: 0.036 to 0.066, one 0.12), and the rivals cost it a
#: reading each.  The chairs' grids above: 0.10 and more.
SOME_OBJECTS = 0.08
#: A rival whose cell centres all lie within OWN_CELL (cells) of the grid's own is a block of it.
OWN_CELL = 0.25


def objects_odds(image: np.ndarray, grid: Grid) -> np.ndarray | None:
    """``(rows, cols)``: the odds that each cell of ``grid`` holds an object (of any
    direction); None without the network's file."""
    odds = direction_odds(CellStack(image, grid))
    return None if odds is None else (1.0 - odds[:, NO_OBJECT]).reshape(grid.rows, grid.cols)


def objects_rather(image: np.ndarray, grid: Grid, rivals: Iterable[Grid]) -> Grid:
    """``grid``, or a lattice of the ``rivals`` (the search's, likeliest first) whose cells
    hold objects where the grid's hold none (SURE_OBJECTS, RIVALS): the one of the most
    cells that reaches past the grid, or that is a block of the grid's own cells round which
    the grid holds none (EMPTY_PEELED: the grid took in the border's lines).  Asked of boards
    seen obliquely."""
    held = objects_odds(image, grid)
    if held is None:
        return grid
    if not SOME_OBJECTS <= held.mean() < SURE_OBJECTS:
        return grid  # a board of objects, or a flat one: no raised objects anywhere near
    to_cells = np.linalg.inv(grid.homography)
    best: Grid | None = None
    for rival in islice(rivals, RIVALS):
        if best is not None and rival.rows * rival.cols <= best.rows * best.cols:
            continue
        # (u, v) of the rival's cell centres on the grid, in cells: a block of the grid's own
        # cells lands on its cells' centres, all inside it
        uv = apply_homography(to_cells, rival.centres()).reshape(-1, 2)
        on_centres = np.abs(uv - np.floor(uv) - 0.5).max() < OWN_CELL
        if on_centres and np.all((uv >= 0) & (uv <= [grid.cols, grid.rows])):
            cols, rows = np.floor(uv).astype(int).T
            around = np.ones_like(held, dtype=bool)
            around[rows, cols] = False
            if not around.any() or held[around].mean() > EMPTY_PEELED:
                continue  # a part of the grid's board, whose edge lines hold objects too
        if objects_odds(image, rival).mean() >= SURE_OBJECTS:  # (the network is there)
            best = rival
    return grid if best is None else best


def block_of_objects(image: np.ndarray, grid: Grid) -> Grid:
    """``grid`` less its outer rows and columns that hold no objects on the board's floor, where
    the rest is a board of objects (a lattice found with the border's tiles round a board of
    chairs); else ``grid`` as it is.  Asked of boards seen obliquely (raised objects are
    seen so), and only with the network shipped.

    The floor of a cell is the median colour of its ring near the edge (as
    ``objects3d.floor_colour`` takes it); the board's is the median of its cells that surely
    hold an object (OBJECTS_BLOCK)."""
    from .objects3d import cell_floors

    stack = CellStack(image, grid)
    odds = direction_odds(stack)
    if odds is None:
        return grid
    objects = 1.0 - odds[:, NO_OBJECT]
    if not (objects >= OBJECTS_BLOCK).any():
        return grid
    floors = cell_floors(stack)
    floor = np.median(floors[objects >= OBJECTS_BLOCK], axis=0)
    apart = np.linalg.norm(floors - floor, axis=1).reshape(grid.rows, grid.cols)
    span = peeled_block(objects.reshape(grid.rows, grid.cols), apart)
    if span is not None:
        return grid.block(*span)
    return _grown_block(image, grid, floor)


def _grown_block(image: np.ndarray, grid: Grid, floor: np.ndarray) -> Grid:
    """``grid`` with the lines outside its edges that are the board's (``grown_sides``:
    objects on the board's ``floor``, in a border), taken in a line at a time and the grid
    fitted to its tiles again after each; as it is when none are.  A line is taken only
    while the line round the grid lies in the image (the one beyond may run off it: what
    lies past the image's edge is no floor of the board's)."""
    from .objects3d import cell_floors

    height, width = image.shape[:2]
    for _ in range(GROWN_LINES):
        once, twice = grid.widened(1), grid.widened(2)
        if not np.all((once.corners >= 0) & (once.corners < [width, height])):
            break
        objects = objects_odds(image, once)  # the network is there: asked of grid
        floors = cell_floors(CellStack(image, twice))
        apart = np.linalg.norm(floors - floor, axis=1).reshape(twice.rows, twice.cols)
        top, bottom, left, right = grown_sides(objects, apart)
        if not (top or bottom or left or right):
            break
        grown = once.block((1 - top, once.rows - 1 + bottom), (1 - left, once.cols - 1 + right))
        grid = align_cells(image, grown)
    return grid


def grown_sides(objects: np.ndarray, apart: np.ndarray) -> tuple[int, int, int, int]:
    """(top, bottom, left, right): 1 for each edge of a board of objects whose next line out
    is the board's, else 0.  ``objects``: ``(rows + 2, cols + 2)``, the odds of an object in
    the board's cells and one line round them; ``apart``: ``(rows + 4, cols + 4)``, the
    cells' floors' distance from the board's (Delta E), two lines round.

    A line is the board's when it holds objects (GROWN_OBJECTS on average) on the board's
    floor: under SAME_FLOOR at the median, or under FLOOR_SHARE of the border's distance
    (the farthest of the four lines two out).  None is taken unless the board lies in a
    border: every other edge's next line, or the one beyond it, on the border's floor
    (OTHER_FLOOR; on grass, the next line of grass may hold a bench's shadow; nothing
    bounds the board there)."""
    if objects.ndim != 2 or apart.shape != (objects.shape[0] + 2, objects.shape[1] + 2):
        raise ValueError(
            f"apart must be two lines wider than objects, not {apart.shape} for {objects.shape}"
        )
    lines = (
        (objects[0, 1:-1], apart[1, 2:-2], apart[0, 2:-2]),  # top
        (objects[-1, 1:-1], apart[-2, 2:-2], apart[-1, 2:-2]),  # bottom
        (objects[1:-1, 0], apart[2:-2, 1], apart[2:-2, 0]),  # left
        (objects[1:-1, -1], apart[2:-2, -2], apart[2:-2, -1]),  # right
    )
    border = max(float(np.median(beyond)) for _, _, beyond in lines)
    near_enough = max(SAME_FLOOR, FLOOR_SHARE * border)
    grown = []
    bounded = True
    for held, next_floor, beyond_floor in lines:
        next_apart, beyond_apart = float(np.median(next_floor)), float(np.median(beyond_floor))
        grown.append(int(held.mean() >= GROWN_OBJECTS and next_apart < near_enough))
        if not grown[-1] and next_apart < OTHER_FLOOR and beyond_apart < OTHER_FLOOR:
            bounded = False
    if not bounded:
        return (0, 0, 0, 0)
    return tuple(grown)  # type: ignore[return-value]


def peeled_block(
    objects: np.ndarray, apart: np.ndarray
) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The rows and columns (first, past the last) of the block of objects in a lattice whose
    cells hold one with the odds ``objects`` (``(rows, cols)``), once the outer lines that
    hold none are peeled off: the line (a row or a column on the block's edge) with the least
    odds on average goes while those are under EMPTY_LINE, its cells' floor lies OTHER_FLOOR
    or more from the board's (``apart``, Delta E, at the median: a border's tiles, not the
    board's edge cells that the network sees less surely) or none of its cells holds an object
    with BARE_LINE odds (the grass beside a board of benches), and the block keeps two rows and
    two columns.  None when nothing is peeled, or when what is left is no board of objects (its
    odds under OBJECTS_BLOCK on average, or PEELED_BLOCK beside lines peeled that hold none:
    EMPTY_PEELED)."""
    rows, cols = objects.shape
    r0, r1, c0, c1 = 0, rows, 0, cols
    while r1 - r0 > 2 or c1 - c0 > 2:
        edges = []
        if r1 - r0 > 2:
            edges += [((r0, r0 + 1), (c0, c1), "top"), ((r1 - 1, r1), (c0, c1), "bottom")]
        if c1 - c0 > 2:
            edges += [((r0, r1), (c0, c0 + 1), "left"), ((r0, r1), (c1 - 1, c1), "right")]
        empty = [
            (float(objects[a:b, c:d].mean()), side)
            for (a, b), (c, d), side in edges
            if np.median(apart[a:b, c:d]) >= OTHER_FLOOR or objects[a:b, c:d].max() < BARE_LINE
        ]
        if not empty or min(empty)[0] >= EMPTY_LINE:
            break
        side = min(empty)[1]
        if side == "top":
            r0 += 1
        elif side == "bottom":
            r1 -= 1
        elif side == "left":
            c0 += 1
        else:
            c1 -= 1
    if (r0, r1, c0, c1) == (0, rows, 0, cols):
        return None
    block = objects[r0:r1, c0:c1].mean()
    peeled = (objects.sum() - objects[r0:r1, c0:c1].sum()) / (objects.size - (r1 - r0) * (c1 - c0))
    if block < OBJECTS_BLOCK and (block < PEELED_BLOCK or peeled > EMPTY_PEELED):
        return None
    return (r0, r1), (c0, c1)
