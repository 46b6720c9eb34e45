"""Judging a lattice: is it a board worth trusting, or a part, or the gaps?

A board worth trusting is not tiny, mostly found, and of cells big enough to
place well; a lattice of specks, of the gaps between round tiles, or with
look-alikes half-way between its points is not (yet) one.
"""

from __future__ import annotations

import numpy as np

from ..colour import SAME_COLOUR, SAME_PAINT, on_scale
from ..geometry import apply_homography
from .cellsample import RING, alike_to_neighbours, cell_points, on_image, outside_lines
from .lattice import Lattice, Pool
from .segment import Blob

#: A board's cells are about square: seen under a tilted camera (a strategy game's view),
#: one step of a lattice of cells is at most this many times the other.
STRETCHED = 3.0
#: A board with gaps is trusted when its cells are at least this many work
#: pixels (smaller ones are placed poorly: the search looks again closer) ...
MIN_PITCH = 18.0
#: ... and this share of them was found;
MOSTLY_FOUND = 0.7
#: a board found whole, down to this pitch: every cell then helps place it.
MIN_WHOLE_PITCH = 10.0
#: Blobs whose median size is under this share of the pitch are specks
#: (dots, glints, texture), not cells.
SPECK = 0.25
#: Blobs whose median size is under this share of the pitch are specks far apart ...
#: (the boards of 430 tuning scenes and photos sit on lattices of blobs 0.24 of the pitch
#: at least; the wide lattices a photographed page's grain makes, 0.12 at most) ...
DUST = 0.15
#: ... and they are dust (a photo's grain that a wide lattice happens to line up) when the
#: lattice's outline holds more than this many look-alikes (half to twice their size) off
#: its points for each one on them: the specks are everywhere, the lattice picked some.
#: (Measured: such lattices of 35 to 93 specks hold 550 to 3,400 more; a terminal's board
#: of dots and hashes, 0.12 of its pitch, holds its 110 marks on its points and no more.)
STRAYS = 1.0
#: A lattice this share of whose cells have the page's colour is the page's
#: own pattern (a faint grid behind the board), not a board ...
PAGE_ALIKE = 0.9
#: ... when the lines between its cells are this near its cells' colour
#: (Delta E): a page's grid is faint, a board's lines are meant to be seen.
FAINT_LINE = 2 * SAME_COLOUR
#: The page's colour round a lattice is seen past a side in the middles of AROUND_SEEN
#: cells or more of the line just outside it.
AROUND_SEEN = 3
#: A lattice of many cells (RUNS_OFF_CELLS) is the page's when this share of
#: them have the page's colour (the rest are what lies on the page: the
#: board, a title, buttons; on the tuning looks such grids had 0.84-0.99 of
#: their cells alike) and its lines are faint or it runs off the image: its
#: cells reach within OFF_THE_EDGE pitches of the image's edge on at least
#: three sides.
RUNS_OFF_ALIKE = 0.75
OFF_THE_EDGE = 1.5
#: A board that fills a small window with its cells all alike (all lit)
#: reaches the edges too, with 9 to 49 cells, and a board's own part of a
#: page's grid (a terminal's) held 28; the grids behind boards on the tuning
#: looks held 150 to 1,250.
RUNS_OFF_CELLS = 100
#: A tile board is solid when its blobs' median fill (area over box) is at
#: least this: square or rounded tiles, not hollow shapes.
SOLID = 0.85


def _steps(lattice: Lattice) -> tuple[float, float]:
    """The lattice's first steps across and down from its origin, in work pixels."""
    a, b, c = apply_homography(lattice.homography, [[0, 0], [1, 0], [0, 1]])
    return float(np.linalg.norm(b - a)), float(np.linalg.norm(c - a))


def stretched(lattice: Lattice) -> bool:
    """True when the lattice's steps across and down differ by more than STRETCHED: its
    points are no board's cells (a floor's tiles taken one row in five)."""
    across, down = _steps(lattice)
    return bool(max(across, down) > STRETCHED * min(across, down))


def pitch(lattice: Lattice) -> float:
    """Cell pitch of a lattice in work pixels."""
    return min(_steps(lattice))


def middle(lattice: Lattice) -> np.ndarray:
    """The middle of a lattice's cells, in work pixels."""
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    return apply_homography(lattice.homography, [[(c0 + c1) / 2, (r0 + r1) / 2]])[0]


def encloses_as_holes(outer: Lattice, inner: Lattice) -> bool:
    """True when ``inner`` is the lattice of gaps between ``outer``'s (round) tiles.

    Gaps between four round tiles look like cells too; they sit half a step off
    the tiles' lattice and there is one row and one column fewer of them.
    """
    if (inner.shape[0] + 1, inner.shape[1] + 1) != outer.shape:
        return False
    centre = np.mean([(b.x, b.y) for b in inner.members.values()], axis=0)
    uv = apply_homography(np.linalg.inv(outer.homography), [centre])[0]
    frac = uv - np.floor(uv)
    return bool(np.all(np.abs(frac - 0.5) < 0.2))


def around(
    lattice: Lattice, scale: float, shape: tuple[int, ...], offset: np.ndarray | None = None
) -> tuple[int, int, int, int]:
    """The image box around a lattice's cells, with two cells of margin: a lattice found in
    a work image of the image (``scale``) or of a crop of it at ``offset`` (x, y)."""
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    pts = (
        apply_homography(
            lattice.homography,
            [
                [c0 - 2.5, r0 - 2.5],
                [c1 + 2.5, r0 - 2.5],
                [c1 + 2.5, r1 + 2.5],
                [c0 - 2.5, r1 + 2.5],
            ],
        )
        / scale
    )
    if offset is not None:
        pts = pts + offset
    x0, y0 = np.floor(pts.min(axis=0)).astype(int)
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
    h, w = shape[:2]
    return max(0, x0), max(0, y0), min(w, x1), min(h, y1)


def touches_edge(lattice: Lattice, width: int, height: int, scale: float) -> bool:
    """True when a lattice found in a crop may run on past the crop's edge."""
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    pts = apply_homography(lattice.homography, [[c0 - 1.5, r0 - 1.5], [c1 + 1.5, r1 + 1.5]]) / scale
    return bool(pts[0, 0] < 0 or pts[0, 1] < 0 or pts[1, 0] > width or pts[1, 1] > height)


def convincing(lattice: Lattice | None) -> bool:
    """A board worth trusting: not tiny, mostly found, cells big enough to place well.

    A board found whole may have smaller cells (down to 10 px) than one with
    gaps (MIN_PITCH): every cell then helps to place the grid.
    """
    if lattice is None or min(lattice.shape) <= 2 or lattice.finer:
        return False
    found = len(lattice.members) / (lattice.shape[0] * lattice.shape[1])
    step = pitch(lattice)
    if specks(lattice):
        return False  # specks (dots, glints) on a lattice: look closer before trusting it
    return (step >= MIN_PITCH and found >= MOSTLY_FOUND) or (
        step >= MIN_WHOLE_PITCH and found == 1.0
    )


def dust(lattice: Lattice, pool: Pool) -> bool:
    """True when the lattice's blobs are dust: specks far apart (``DUST``) among as many
    look-alikes of the ``pool`` off its points as on them (``STRAYS``), lined up by chance."""
    size = float(np.median([b.size for b in lattice.members.values()]))
    if size >= DUST * pitch(lattice) or not len(pool.xy):
        return False
    try:
        with np.errstate(divide="ignore", invalid="ignore"):
            _, inside = over_cells(lattice, pool.xy)
    except np.linalg.LinAlgError:
        return False
    alike = (pool.size >= size / 2) & (pool.size <= 2 * size)
    strays = int(np.count_nonzero(inside & alike)) - len(lattice.members)
    return strays > STRAYS * len(lattice.members)


def specks(lattice: Lattice) -> bool:
    """True when the lattice's blobs are specks: far smaller than its cells."""
    return bool(np.median([b.size for b in lattice.members.values()]) < SPECK * pitch(lattice))


def page_pattern(lattice: Lattice, lab: np.ndarray, page: np.ndarray) -> bool:
    """True when the lattice is a pattern of the page itself: a grid behind the board.

    Its cells are one colour (PAGE_ALIKE of them within SAME_COLOUR of their
    median, or RUNS_OFF_ALIKE when they are many; the rest are what lies on
    the page: a title, the board's edge; or as many pairs of neighbours within
    SAME_COLOUR of each other, on a page shaded across),
    that colour is the page's (``page``: the image's commonest colour), the
    cells are plain inside (no mark: a glyph's tile may average to the page's
    colour), and either the lines between its cells are faint (within
    FAINT_LINE of the cells) or, when they are many, it runs off the image
    (``runs_off``).  A
    board's cells stand out from the page, or differ from one another (two
    states, four turns), or carry marks, or are set apart by lines meant to
    be seen, within a boundary of its own.
    """
    colours = np.array([b.colour for b in lattice.members.values()], dtype=np.float64)
    median = np.median(colours, axis=0)
    alike = float(np.mean(np.linalg.norm(colours - median, axis=1) < SAME_COLOUR))
    # A page shaded across (a vignette, a tint that fades) varies its squares' colour
    # smoothly, so each is still its neighbours' colour; a board's cells of two states
    # differ from many of theirs.
    alike = max(alike, alike_to_neighbours(list(lattice.members), colours))
    if alike < RUNS_OFF_ALIKE:
        return False
    lines = _between(lattice, lab)
    if lines is None:
        return False
    # The cells of a lattice of specks (a page ruled with dots) are the page round them.
    tone = np.median(lines, axis=0) if specks(lattice) else median
    if np.linalg.norm(tone - page) >= SAME_COLOUR:
        # The page's colour where the lattice lies: a vignette or a tint shades a page by
        # more than SAME_COLOUR from its commonest colour (fresh tuning glow-on-grid 30020:
        # 8.9), and its own squares past the lattice on one side or more shade alike (the
        # others may be a menu bar, a footer, the image's edge).
        around = _colours_around(lattice, lab)
        if all(np.linalg.norm(tone - colour) >= SAME_COLOUR for colour in around):
            return False
    ring = cell_points(lattice, list(lattice.members), RING)
    whole = on_image(ring, lab.shape)
    if whole.any():
        samples = on_scale(lab[ring[whole][..., 1], ring[whole][..., 0]])  # (cells, points, 3)
        spread = np.linalg.norm(samples - np.median(samples, axis=1, keepdims=True), axis=2)
        if np.median(spread.max(axis=1)) >= SAME_COLOUR:
            return False  # the cells carry marks: a board's
    faint = bool(np.median(np.linalg.norm(lines - median, axis=1)) < FAINT_LINE)
    if len(lattice.members) >= RUNS_OFF_CELLS and (faint or runs_off(lattice, lab.shape)):
        return True  # many cells, most of them the page
    if len(lattice.members) >= RUNS_OFF_CELLS and alike >= PAGE_ALIKE:
        # nearly all the page, from edge to edge across or down (between a browser's bar
        # and a footer, say: fresh tuning glow-on-grid 30276, 419 squares, 0.99 alike)
        left, top, right, bottom = _near_edges(lattice, lab.shape)
        return (left and right) or (top and bottom)
    return alike >= PAGE_ALIKE and faint


def _between(lattice: Lattice, lab: np.ndarray) -> np.ndarray | None:
    """``(n, 3)`` colours (on the one scale) half-way between each member and its right and
    lower neighbours, those on the image (the lines between cells); None when none is."""
    keys = np.array(list(lattice.members), dtype=np.float64)
    between = np.concatenate([keys[:, ::-1] + (0.5, 0.0), keys[:, ::-1] + (0.0, 0.5)])
    points = np.round(apply_homography(lattice.homography, between)).astype(int)
    inside = on_image(points[:, None, :], lab.shape)
    if not inside.any():
        return None
    return on_scale(lab[points[inside, 1], points[inside, 0]])


def _colours_around(lattice: Lattice, lab: np.ndarray) -> list[np.ndarray]:
    """The median colour (on the one scale) of the middles of the cells in each line just
    outside the lattice (above, right, below, left) whose middles lie on the image,
    AROUND_SEEN of them or more (a page's grid may run off the image on several sides)."""
    colours = []
    for line in outside_lines(lattice):
        points = cell_points(lattice, line, np.zeros((1, 2)))
        whole = on_image(points, lab.shape)
        if np.count_nonzero(whole) >= AROUND_SEEN:
            middles = points[whole][:, 0]
            colours.append(np.median(on_scale(lab[middles[:, 1], middles[:, 0]]), axis=0))
    return colours


def runs_off(lattice: Lattice, shape: tuple[int, ...]) -> bool:
    """True when the lattice's cells reach the image's edge on three sides or four.

    A board has a boundary of its own; a pattern of the page goes on until
    the image ends.
    """
    return sum(_near_edges(lattice, shape)) >= 3


def _near_edges(lattice: Lattice, shape: tuple[int, ...]) -> tuple[bool, bool, bool, bool]:
    """Whether the lattice's outer cells reach within OFF_THE_EDGE steps of the image's
    left, top, right and bottom edges."""
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    # (the lattice's step, not its blobs' size: a page ruled with dots is a lattice of dots)
    step = max(pitch(lattice), float(np.median([max(b.w, b.h) for b in lattice.members.values()])))
    box = np.array([(c0, r0), (c1, r0), (c1, r1), (c0, r1)], dtype=np.float64)
    corners = apply_homography(lattice.homography, box)
    height, width = shape[:2]
    reach = OFF_THE_EDGE * step
    return (
        bool(corners[:, 0].min() < reach),
        bool(corners[:, 1].min() < reach),
        bool(corners[:, 0].max() > width - 1 - reach),
        bool(corners[:, 1].max() > height - 1 - reach),
    )


def over_cells(lattice: Lattice, xy: np.ndarray | list) -> tuple[np.ndarray, np.ndarray]:
    """The lattice coordinates (col, row) of each point ``xy`` (work pixels), and whether it
    lies over the lattice's cells (less than half a step past its outer points)."""
    uv = apply_homography(np.linalg.inv(lattice.homography), xy)
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    inside = (
        (uv[:, 0] > c0 - 0.5)
        & (uv[:, 0] < c1 + 0.5)
        & (uv[:, 1] > r0 - 0.5)
        & (uv[:, 1] < r1 + 0.5)
    )
    return uv, inside


def finer_hidden(lattice: Lattice, blobs: list[Blob]) -> bool:
    """True when many look-alikes sit half a step between the lattice's points."""
    size = float(np.median([b.size for b in lattice.members.values()]))
    alike = [b for b in blobs if 0.6 * size <= b.size <= 1.6 * size]
    if not alike:
        return False
    uv, inside = over_cells(lattice, [(b.x, b.y) for b in alike])
    frac = np.abs(uv - np.round(uv))
    halfway = ((np.abs(frac - 0.5) < 0.15) & (frac[:, ::-1] < 0.15)).any(axis=1)
    return bool((halfway & inside).sum() >= 0.3 * len(lattice.members))


def complete_and_solid(lattice: Lattice | None, lab: np.ndarray) -> bool:
    """Every cell found, and surely tiles: nothing for further segmentations to add.

    Solid blobs are tiles, and so are objects that stand out from the
    commonest colour; other hollow ones (a tile with a digit or an arrow cut
    out) are too unless they have the colour around the board, as the gaps
    between round tiles do.
    """
    if lattice is None or not convincing(lattice):
        return False
    rows, cols = lattice.shape
    if len(lattice.members) != rows * cols or len(lattice.members) < 0.8 * lattice.group:
        return False  # incomplete, or look-alikes off the lattice (a finer board?)
    fills = [b.fill for b in lattice.members.values()]
    if _standing_out(lattice):
        return True  # objects standing out from the backdrop cannot be gaps in it
    return float(np.median(fills)) >= SOLID or not _background_coloured(lattice, lab)


def _standing_out(lattice: Lattice) -> bool:
    """Most members are objects cut out of the image where it is not its commonest colour."""
    return bool(np.mean([b.source == "backdrop" for b in lattice.members.values()]) > 0.5)


def _background_coloured(lattice: Lattice, lab: np.ndarray) -> bool:
    """True when the cells have the colour of a ring just outside the board."""
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    ring = []
    for t in np.linspace(0, 1, 40):
        u = c0 - 0.5 + t * (c1 - c0 + 1)
        v = r0 - 0.5 + t * (r1 - r0 + 1)
        ring += [(u, r0 - 0.85), (u, r1 + 0.85), (c0 - 0.85, v), (c1 + 0.85, v)]
    pts = np.round(apply_homography(lattice.homography, ring)).astype(int)
    inside = on_image(pts[:, None, :], lab.shape)
    if inside.sum() < 20:
        return True  # cannot tell: do not stop early
    around = on_scale(np.median(lab[pts[inside, 1], pts[inside, 0]], axis=0))
    cells = np.median([b.colour for b in lattice.members.values()], axis=0)
    return bool(np.linalg.norm(around - cells) < SAME_PAINT)
