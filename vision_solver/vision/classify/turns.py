"""The turn reader: one object drawn in four turns, read from the board as a whole.

The cells of a direction board show one object (an arrow, a chevron, a
chair seen from above) turned a quarter at a time.  Rather than ask each
cell alone which way its object points, every cell is compared with the
others under the four quarter turns, and the turn that matches is the cell's
turn relative to them; the board as a whole leaves one offset to decide
(which turn is "up"), and every cell's own arrowhead votes on it.

Each cell is seen as its *ink map*: how far (Delta E) each pixel's colour is
from the cell's own median colour.  The map does not care what colour a
tile is, so tiles of many colours compare as one.  Matching tolerates a
small shift (a glyph drawn off-centre on a bevelled tile) and is done
against the board's own template: the cells' maps turned into one frame and
averaged, which sharpens with every cell (an average of the maps *as they
stand* would wash head against tail out).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from ..colour import lab_on_scale
from .glyphs import HOLLOW, overlap

#: The template is the middle of a cell, this share of it cut off each side
#: (a tile's rim or the gap between tiles is the same in every turn), and
#: it may be placed anywhere within the cell: a glyph drawn that far
#: off-centre still matches.  A cell's own colour is the median of its middle.
TEMPLATE_INSET = 0.18
#: A cell's best turn must match the template at least this well (normalised
#: correlation) for the board to be one object in four turns ...
MATCHES = 0.8
#: ... and beat its next best turn by this much: a dot, a ring, a square look
#: the same in every turn and say nothing.  Measured (tenth percentile of the
#: cells): arrow tiles of the renderer and the real arrow capture match at
#: 0.96-1.00 with margins of 0.29-0.43; benches seen from the side (their
#: turns are no rotations of one another) 0.51-0.66 with margins of 0.01-0.12,
#: numbered tiles 0.72 with 0.00.
TURN_MARGIN = 0.15
#: A board is read by turns when this share of its cells do both.
TURNED_CELLS = 0.9
#: A small glyph on a large tile (or one drawn over a bevel that does not
#: turn with it) matches well in every turn, and its cells beat their next
#: best turn by less than TURN_MARGIN although their turns are right.  Such a
#: board is asked as a whole instead: two halves of its cells each learn a
#: template of their own, and both read every cell.  When the turns are real,
#: the two readings differ by one fixed turn (the turn between the two
#: templates) in all but this share of the cells.  Measured on the tuning
#: looks: arrow boards agree on 1.00 of their cells; numbered tiles on at most
#: 0.92, benches seen from the side at most 0.98, a photo of a toy 0.60.
AGREE = 0.99
#: ... and the board's cells must beat their next best turn by at least this
#: much, typically (median): below it the turns are too close to tell ...
LEAST_MARGIN = 0.01
#: ... and nearly all match the template at least this well (arrows on
#: bevelled tiles of several colours match at 0.64-0.98, the tenth percentile
#: of a board's cells, on the tuning looks).
FAIR_MATCH = 0.6
#: A cell with less ink than this (mean Delta E over its middle) is blank, unless a
#: stroke in it inks INK_STROKE or more (a thin glyph covers little of its cell).  Measured
#: at 32 pixels a cell (98th percentile of a cell's middle, median cell): thin chevrons on
#: a photographed monitor 18; blank tiles of the tuning looks and photos 0 to 12.6.
BLANK = 3.0
INK_STROKE = 15.0
#: Whether a board is one object in four turns is decided on this many of its
#: cells, spread over it, before the rest are read.
SAMPLE = 24
#: A board whose object stands in one turn in more than this share of its
#: cells is told to be marks drawn alike, not directions (by ``auto``): a random
#: board of nine cells or more has that with a chance under one in a thousand.
ONE_TURN = 0.8
#: A first round in which fewer than this share of the cells match the
#: template at least MATCHES (in any turn, however close the others) is the last.
HOPELESS = 0.5
#: When the ink maps read no turns, the board is read again by the glyphs'
#: colour: the median colour of the pixels of every cell's middle inked at
#: least GLYPH_CORE of the cell's most, and pixels within GLYPH_REACH (Delta
#: E) of it are glyph.
GLYPH_CORE = 0.9
GLYPH_REACH = 25.0
#: The glyphs' colour is told apart from a tile's highlight by grouping the
#: cells' pixels inked GLYPH_INKED of their cell's most or more into
#: GLYPH_COLOURS colours: the glyphs' is the group in the most cells (in at
#: least GLYPH_PIXELS of a cell's middle; groups within GLYPH_COMMON of the
#: most cells tie, and the most inked wins).  A glyph is one colour on every
#: tile; a highlight takes its tile's colour.
GLYPH_INKED = 0.5
GLYPH_COLOURS = 4
GLYPH_PIXELS = 0.01
GLYPH_COMMON = 0.05
#: Glyphs that keep (in all their turns) to a square under GLYPH_WINDOW of
#: the cell are read cut out of their cells (``_glyph_window``), from the
#: board rectified closer (``finer``) when under GLYPH_SMALL of it; they keep
#: to the pixels at GLYPH_SEEN of the cells' mean glyph map's peak, and the
#: square leaves GLYPH_SLACK of its side for a glyph off its tile's centre.
GLYPH_WINDOW = 0.8
GLYPH_SMALL = 0.5
GLYPH_SEEN = 0.1
GLYPH_SLACK = 0.1
#: Rounds of turning the cells into the template's frame and averaging them.
ROUNDS = 3
#: A cell's map is enlarged this many times (cubic) before its ink is cut out
#: to vote on the way the object points: a glyph a few pixels across cut from a
#: cell of CELL_PX pixels is a blocky mask whose hull loses the notches beside
#: an arrow's shaft (measured on the tuning looks: small arrows on round tiles
#: voted tail-first on whole boards at 1x, head-first at 2x).
VOTE_SCALE = 2
#: A glyph's tip (``_tip``): its width within TIP_NEAR of its length from an end and TIP_FAR in
#: grows by TIP_WIDENS of its widest more than at the other end.
TIP_NEAR = 0.05
TIP_FAR = 0.25
TIP_WIDENS = 0.25


@dataclass
class TurnReading:
    """Directions (0 up, 1 right, 2 down, 3 left) with confidences, and how well
    the board reads as one object in four turns (share of cells that do)."""

    cells: np.ndarray
    confidence: np.ndarray
    turned: float
    #: How clearly the cells' votes name the turn that is "up" (``_offset``): the winning
    #: direction's share of the votes less the runner-up's (0..1).
    offset_margin: float = 1.0
    #: What the cells were matched by: "ink", "glyph colour", or either or "lightness" less what
    #: every cell shares ("turning ink", ...: ``read_turns``).
    read_by: str = "ink"

    @property
    def varied(self) -> bool:
        """The object stands in more than one turn over the board.

        A mark drawn alike in every cell (a glint on each button, a logo) is
        in one turn everywhere: a board of it is no direction board.
        """
        counts = np.bincount(self.cells.ravel(), minlength=4)
        return bool(counts.max() <= ONE_TURN * self.cells.size)

    @property
    def opposed(self) -> bool:
        """The object stands in two opposite turns only: maybe two states, not directions.

        Two states of a tile lit from one side, once what every cell shows
        alike is taken away (``turning_maps``), are the same shading with
        opposite signs: one half turn apart.  A random direction board of
        nine cells or more keeps to two opposite turns with a chance under
        one in a hundred.
        """
        used = self.turns_used
        return len(used) == 2 and int(used[1] - used[0]) == 2

    @property
    def turns_used(self) -> np.ndarray:
        """The turns (0 up .. 3 left) the object stands in somewhere on the board, in order."""
        return np.flatnonzero(np.bincount(self.cells.ravel(), minlength=4))


def cell_lab(
    board: np.ndarray, rows: int, cols: int, cells: np.ndarray | None = None
) -> np.ndarray:
    """``(n, size, size, 3)`` float32: the cells of a rectified board in L*a*b*, one scale.

    ``board`` is the rectified board (BGR), ``size`` pixels a cell; ``cells``
    (row-major indices) picks some cells, all by default.
    """
    size = board.shape[0] // rows
    stack = board.reshape(rows, size, cols, size, 3).transpose(0, 2, 1, 3, 4)
    stack = stack.reshape(rows * cols, size, size, 3)
    if cells is not None:
        stack = stack[cells]
    return lab_on_scale(stack.reshape(-1, size, 3)).reshape(stack.shape)


def ink_maps(
    board: np.ndarray, rows: int, cols: int, cells: np.ndarray | None = None
) -> np.ndarray:
    """``(n, size, size)`` float32: each cell's distance (Delta E) from its own colour.

    ``board`` and ``cells`` as for ``cell_lab``; a cell's own colour is the
    median of its middle.
    """
    lab = cell_lab(board, rows, cols, cells)
    own = np.median(_middles(lab).reshape(len(lab), -1, 3), axis=1)
    lab -= own[:, None, None, :]
    return np.sqrt(np.square(lab).sum(axis=3))


def _middles(cells: np.ndarray) -> np.ndarray:
    """The middle of every cell of a stack (the template's window), as a view."""
    size = cells.shape[1]
    inset = int(round(TEMPLATE_INSET * size))
    return cells[:, inset : size - inset, inset : size - inset]


def _turn_scores(turned: np.ndarray, template: np.ndarray) -> np.ndarray:
    """``(cells, 4)``: how well each map, turned anticlockwise k quarters, matches ``template``.

    ``turned`` is ``(cells, 4, size, size)``: every map in its four turns.  They
    are matched in one call, laid side by side in a strip; each keeps the
    best score of the placements that lie wholly inside it.
    """
    return _placed_scores(turned, template)[0]


def _placed_scores(turned: np.ndarray, template: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``_turn_scores``, and where in each turned map the template matched best:
    ``(cells, 4, 2)`` (row, column) of its top left corner."""
    count, _, size, _ = turned.shape
    strip = np.ascontiguousarray(turned.transpose(2, 0, 1, 3).reshape(size, count * 4 * size))
    match = cv2.matchTemplate(strip, template, cv2.TM_CCOEFF_NORMED)
    reach = size - template.shape[1] + 1  # placements inside one map, across
    starts = np.arange(count * 4) * size
    inside = match[:, starts[:, None] + np.arange(reach)[None, :]]  # (rows, maps, reach)
    placements = inside.transpose(1, 0, 2).reshape(count * 4, -1)
    best = placements.argmax(axis=1)
    where = np.stack([best // reach, best % reach], axis=1).reshape(count, 4, 2)
    scores = placements[np.arange(count * 4), best].reshape(count, 4).astype(np.float64)
    return scores, where


def _centre(image: np.ndarray) -> np.ndarray:
    """The middle of a cell-sized image (the template's window), contiguous."""
    return np.ascontiguousarray(_middles(image[None])[0])


def read_turns(
    board: np.ndarray,
    rows: int,
    cols: int,
    by_glyph_colour: bool = False,
    finer: Callable[[], np.ndarray] | None = None,
    turning: bool = False,
    lenient: bool = False,
    by_lightness: bool = False,
    cut: bool = False,
) -> TurnReading | None:
    """Read a rectified board as one object in four turns.

    None when it is not one: its cells blank (tiles), or unlike one another
    under every turn (digits).  A sample of SAMPLE cells spread over the
    board decides that first, and learns the template the rest is read by.

    ``finer()`` gives the same board at more pixels a cell: it is read
    instead when this one's cells may be one object in four turns but the
    two halves of the sample disagree (a small glyph whose head and tail
    differ by a pixel or two at this scale).

    ``by_glyph_colour`` reads the cells by how near each pixel is to the
    glyphs' colour (``glyph_maps``) rather than by their ink: a tile's bevel,
    lit from one side, stays where it is while the glyph turns and may
    outweigh the glyph in the ink, but it does not share the glyph's colour.
    ``turning`` reads the cells by their ink less what every cell shares
    where it stands (``turning_maps``): a bevel of the glyph's colour.  Both
    read the glyphs' colour less what every cell shares: a highlight band
    of the glyphs' colour across every tile.
    ``by_lightness`` reads the cells by how much lighter than its cell's own
    colour each pixel is (or darker, where the glyphs are darker than their
    tiles: ``lightness_maps``), less what every cell shares (as ``turning``):
    a thin light glyph on a photographed screen, blurred into its tile's hue,
    inks little and shares no colour from tile to tile, yet stands out in L*.
    ``lenient`` lets a sample whose cells match the template poorly but
    stand apart in their turns by TURN_MARGIN be asked as a whole (by its
    halves) too.
    ``cut`` learns the template from every map cut where it matched (``_align``): a glyph
    drawn off its tile's centre stands in four places once the cells are turned into one
    frame, and their plain mean blurs head into tail.
    """
    count = rows * cols
    # (a board not much larger than the sample is its own sample: one pass)
    picked = count if count <= 2 * SAMPLE else SAMPLE
    sample = np.unique(np.linspace(0, count - 1, picked).round().astype(int))
    turning = turning or by_lightness
    if by_glyph_colour or turning:
        inked = ink_maps(board, rows, cols, sample)
        if _blank(inked):
            return None
        # the glyphs' colour, found in the sample once (a k-means) for every use below
        sample_glyph = functools.cache(lambda: glyph_colour(board, rows, cols, sample, inked))
        if by_glyph_colour:
            glyph = sample_glyph()
            sample_maps = glyph_maps(board, rows, cols, glyph, sample)
            window = _glyph_window(sample_maps)
            if window is not None and finer is not None and window[2] < GLYPH_SMALL * len(inked[0]):
                # A glyph small in its cell is read closer, then cut out of it.
                return read_turns(
                    finer(), rows, cols, True, turning=turning, lenient=lenient, cut=cut
                )

            def windowed(maps: np.ndarray) -> np.ndarray:
                maps = maps if window is None else _zoomed(maps, window)
                return turning_maps(maps) if turning else maps

            if len(sample) < count and not _may_turn(windowed(sample_maps), lenient, cut):
                return None  # the sample's glyphs turn not: nor the board's
            every = windowed(glyph_maps(board, rows, cols, glyph))
        elif by_lightness:
            lighter = _glyphs_lighter(board, rows, cols, sample, sample_glyph())
            sample_maps = turning_maps(lightness_maps(board, rows, cols, lighter, sample))
            if len(sample) < count and not _may_turn(sample_maps, lenient, cut):
                return None  # the sample's lightness, less what its cells share, turns not
            every = turning_maps(lightness_maps(board, rows, cols, lighter))
        else:
            if len(sample) < count and not _may_turn(turning_maps(inked), lenient, cut):
                return None  # the sample, less what its cells share, turns not: nor the board
            every = turning_maps(ink_maps(board, rows, cols))

        def voters() -> list[np.ndarray]:
            # Turns matched by the ink less what every cell shows alike are voted on by the
            # ink and the glyph colour (``_offset``): the dark notches that taking the
            # shared part away leaves beside a glyph may read as an arrow's.
            return [inked, glyph_maps(board, rows, cols, sample_glyph(), sample)]

        reading = _read_maps(
            lambda cells: every if cells is None else every[cells],
            sample,
            rows,
            cols,
            lenient,
            voters=None if by_glyph_colour and not turning else voters,
            cut=cut,
        )
    else:
        # The sample's ink first: most boards are told no direction board by it alone.
        reading = _read_maps(
            lambda cells: ink_maps(board, rows, cols, cells), sample, rows, cols, lenient, cut=cut
        )
    if reading is CLOSE_CALL and finer is not None:
        return read_turns(
            finer(),
            rows,
            cols,
            by_glyph_colour,
            turning=turning,
            lenient=lenient,
            by_lightness=by_lightness,
            cut=cut,
        )
    if not isinstance(reading, TurnReading):
        return None
    maps = "glyph colour" if by_glyph_colour else "lightness" if by_lightness else "ink"
    reading.read_by = f"turning {maps}" if turning else maps
    return reading


def lightness_maps(
    board: np.ndarray, rows: int, cols: int, lighter: bool, cells: np.ndarray | None = None
) -> np.ndarray:
    """``(n, size, size)`` float32: how much lighter (L*) than its cell's own each pixel of
    ``cells`` is (row-major indices, every cell by default), 0 where it is not; darker
    instead where the glyphs are darker than their tiles (not ``lighter``).  A cell's own
    lightness is the median of its middle, as its own colour is in ``ink_maps``."""
    light = cell_lab(board, rows, cols, cells)[..., 0]
    own = np.median(_middles(light).reshape(len(light), -1), axis=1)[:, None, None]
    return np.clip(light - own if lighter else own - light, 0, None).astype(np.float32)


def _glyphs_lighter(
    board: np.ndarray, rows: int, cols: int, sample: np.ndarray, glyph: np.ndarray
) -> bool:
    """Whether the glyphs (their colour ``glyph``, L*a*b*: ``glyph_colour``) are lighter than
    the ``sample``'s cells' own lightness (the median of their middles)."""
    own = float(np.median(_middles(cell_lab(board, rows, cols, sample))[..., 0]))
    return bool(glyph[0] >= own)


def turning_maps(maps: np.ndarray) -> np.ndarray:
    """``(n, size, size)`` float32: the part of every cell's map that is not the board's shared one.

    ``maps`` are every cell's ink maps.  What stands still in every cell (a
    tile's bevel, lit from one side) is in their mean; a glyph that turns
    from cell to cell averages into a blur.  Each cell loses the mean, scaled
    by how strongly the cell shows it (a bevel is fainter on a pale tile), and
    is shifted to start at 0 (the matching ignores a map's level).
    """
    shared = maps.mean(axis=0)
    centred = shared - shared.mean()
    levelled = maps - maps.mean(axis=(1, 2), keepdims=True)
    strength = (levelled * centred).sum(axis=(1, 2)) / max(float(np.square(centred).sum()), 1e-6)
    turning = maps - strength[:, None, None] * shared
    turning -= turning.min(axis=(1, 2), keepdims=True)
    return turning.astype(np.float32)


def glyph_colour(
    board: np.ndarray, rows: int, cols: int, sample: np.ndarray, inked: np.ndarray
) -> np.ndarray:
    """``(3,)``: the glyphs' colour (L*a*b*), the board's: found (``_glyph_colour``) in the
    ``sample`` of cells (row-major indices) whose ink maps are ``inked``."""
    middle_ink = _middles(inked).reshape(len(inked), -1)
    middle_lab = _middles(cell_lab(board, rows, cols, sample)).reshape(len(sample), -1, 3)
    return _glyph_colour(middle_lab, middle_ink)


def glyph_maps(
    board: np.ndarray, rows: int, cols: int, glyph: np.ndarray, cells: np.ndarray | None = None
) -> np.ndarray:
    """``(n, size, size)`` float32: how near each pixel of ``cells`` (row-major indices, every
    cell by default) is to the glyphs' colour ``glyph`` (``glyph_colour``), 0..100: a pixel
    of that colour scores 100, one GLYPH_REACH Delta E from it or farther 0."""
    distance = np.sqrt(np.square(cell_lab(board, rows, cols, cells) - glyph).sum(axis=3))
    return (100 * np.clip(1 - distance / GLYPH_REACH, 0, 1)).astype(np.float32)


def _glyph_window(maps: np.ndarray) -> tuple[int, int, int] | None:
    """``(top, left, side)``: the square of the cells the glyphs keep to, or None when
    they reach over most of the cell (GLYPH_WINDOW of it or more).

    The glyphs in all their turns cover, in the mean of the cells' glyph maps,
    the pixels at GLYPH_SEEN of its peak or more; the square holds their box
    in its middle (the template's window, TEMPLATE_INSET each side, less
    GLYPH_SLACK for a glyph drawn a little off its tile's centre).
    """
    mean = maps.mean(axis=0)
    size = mean.shape[0]
    ys, xs = np.nonzero(mean >= GLYPH_SEEN * max(float(mean.max()), 1e-6))
    if len(ys) == 0:
        return None
    extent = max(ys.max() - ys.min(), xs.max() - xs.min()) + 1
    side = int(np.ceil(extent / (1 - 2 * TEMPLATE_INSET - GLYPH_SLACK)))
    if side >= GLYPH_WINDOW * size:
        return None
    top = int(round((ys.min() + ys.max() + 1) / 2 - side / 2))
    left = int(round((xs.min() + xs.max() + 1) / 2 - side / 2))
    return top, left, side


def _zoomed(maps: np.ndarray, window: tuple[int, int, int]) -> np.ndarray:
    """The maps cut to ``window`` (``_glyph_window``; zero beyond the cell) and scaled
    back to their own size."""
    top, left, side = window
    count, size, _ = maps.shape
    pad = side
    padded = np.pad(maps, ((0, 0), (pad, pad), (pad, pad)))
    cut = padded[:, top + pad : top + pad + side, left + pad : left + pad + side]
    return np.stack(
        [cv2.resize(m, (size, size), interpolation=cv2.INTER_LINEAR) for m in cut]
    ).astype(np.float32)


def _glyph_colour(middle_lab: np.ndarray, middle_ink: np.ndarray) -> np.ndarray:
    """``(3,)``: the colour the glyphs share, from the cells' middles (``(n, pixels, 3)``
    L*a*b* and ``(n, pixels)`` ink).

    A glyph is drawn in one colour on every tile, where a tile's highlight or
    shading follows the tile's own colour.  So the cells' inked pixels
    (GLYPH_INKED of each cell's most or more) are grouped by colour
    (GLYPH_COLOURS groups), and the glyphs' group is the one found in the most
    cells (GLYPH_PIXELS of a cell's middle or more), of those nearly as common
    (within GLYPH_COMMON) the one farthest from the cells' own colours (the
    most inked); its median is the colour.  Too few inked pixels to group: the
    median of each cell's most inked ones (GLYPH_CORE).
    """
    strongest = middle_ink >= GLYPH_CORE * middle_ink.max(axis=1, keepdims=True)
    inked = middle_ink >= GLYPH_INKED * middle_ink.max(axis=1, keepdims=True)
    pixels = middle_lab[inked].astype(np.float32)
    if len(pixels) < 4 * GLYPH_COLOURS:
        return np.median(middle_lab[strongest], axis=0)
    owner = np.repeat(np.arange(len(middle_lab)), inked.sum(axis=1))
    ink = middle_ink[inked]
    cv2.setRNGSeed(0)  # the grouping, and so the reading, the same every run
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, labels, _ = cv2.kmeans(pixels, GLYPH_COLOURS, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    labels = labels.ravel()
    least = max(2, int(GLYPH_PIXELS * middle_lab.shape[1]))
    groups = range(GLYPH_COLOURS)
    cover = np.array(
        [
            np.mean(np.bincount(owner[labels == g], minlength=len(middle_lab)) >= least)
            for g in groups
        ]
    )
    mean_ink = np.array([ink[labels == g].mean() if np.any(labels == g) else 0.0 for g in groups])
    common = cover >= cover.max() - GLYPH_COMMON
    glyph = int(np.argmax(np.where(common, mean_ink, -1.0)))
    return np.median(pixels[labels == glyph], axis=0)


def _blank(maps: np.ndarray, ink: np.ndarray | None = None) -> bool:
    """Too many maps carry no ink in their middle (tiles without a glyph): neither
    BLANK on average nor a stroke of INK_STROKE (their 98th percentile).

    ``ink``: the maps' mean ink over their middles, when already known.
    """
    middles = _middles(maps)
    ink = middles.mean(axis=(1, 2)) if ink is None else ink
    inked = ink >= BLANK
    if np.mean(inked) >= TURNED_CELLS:
        return False
    strokes = np.percentile(middles.reshape(len(maps), -1), 98, axis=1) >= INK_STROKE
    return bool(np.mean(inked | strokes) < TURNED_CELLS)


#: What ``_read_maps`` says of a board whose sample may be one object in
#: four turns but whose halves disagree: worth a look at more pixels a cell.
CLOSE_CALL = "close call"


def _read_maps(
    maps_of: Callable[[np.ndarray | None], np.ndarray],
    sample: np.ndarray,
    rows: int,
    cols: int,
    lenient: bool = False,
    voters: Callable[[], list[np.ndarray]] | None = None,
    cut: bool = False,
) -> TurnReading | str | None:
    """Read the board as one object in four turns from its cells' maps.

    None when it is not one, CLOSE_CALL when the sample may be but its halves
    disagree.  ``maps_of(cells)`` gives the maps of some cells (row-major
    indices), of every cell for None; the ``sample``'s are asked first, every
    cell's only when the sample says the board may be one object in four turns.
    ``voters()``: the sample's maps the way the object points is voted on by
    (``_offset``), each kind's votes counted alike; by default its matched maps.
    """
    count = rows * cols
    maps = maps_of(sample)
    template, turns, scores = _align(maps, cut=cut)
    if template is None:
        return None
    # The margin a cell's best turn is measured by: TURN_MARGIN, or on a board
    # whose turns the halves agree on, half its cells' typical margin.
    margin_scale = TURN_MARGIN
    every = maps if len(sample) == count else None
    if _turned(scores) < TURNED_CELLS:
        if not _sample_may_agree(scores, lenient) or not _shapes_turn(maps, cut):
            return None
        every = maps_of(None) if every is None else every
        if not _halves_agree(maps, every, cut):
            return CLOSE_CALL
        ordered = np.sort(scores, axis=1)
        margin_scale = min(TURN_MARGIN, float(np.median(ordered[:, -1] - ordered[:, -2])) / 2)
    sample_maps = maps
    if len(sample) < count:  # the whole board, by the sample's template
        maps = maps_of(None) if every is None else every
        template, turns, scores = _align(maps, template, rounds=1, cut=cut)
        if template is None:
            return None
        # The sample votes in the frame the whole board was read in: a template that
        # matches every turn nearly alike (a blurred triangle) may read the board one
        # fixed turn round from the sample's own turns.
        sample_turns = turns[sample]
    else:
        sample_turns = turns
    voting = [sample_maps] if voters is None else voters()
    offset, offset_margin = _offset(voting, sample_turns)
    ordered = np.sort(scores, axis=1)
    best, second = ordered[:, -1], ordered[:, -2]
    cells = ((offset + turns) % 4).astype(np.int64).reshape(rows, cols)
    confidence = np.clip((best - second) / (2 * margin_scale), 0, 1) * np.clip(best / MATCHES, 0, 1)
    return TurnReading(cells, confidence.reshape(rows, cols), _turned(scores), offset_margin)


def _may_turn(maps: np.ndarray, lenient: bool, cut: bool = False) -> bool:
    """A sample's ``maps`` may be one object in four turns (``_read_maps`` reads on)."""
    template, _, scores = _align(maps, cut=cut)
    if template is None:
        return False
    return _turned(scores) >= TURNED_CELLS or _sample_may_agree(scores, lenient)


def _sample_may_agree(scores: np.ndarray, lenient: bool = False) -> bool:
    """The sample's cells typically beat their next best turn by LEAST_MARGIN and nearly
    all match the template in some turn at least FAIR_MATCH; ``lenient``: or typically
    beat it by TURN_MARGIN however poor their best match (a bevel that differs from
    tile to tile, outweighing a glyph that turns)."""
    ordered = np.sort(scores, axis=1)
    margin = float(np.median(ordered[:, -1] - ordered[:, -2]))
    matched = np.mean(ordered[:, -1] >= FAIR_MATCH) >= TURNED_CELLS
    if not matched and not (lenient and margin >= TURN_MARGIN):
        return False
    return margin >= LEAST_MARGIN


def _shapes_turn(maps: np.ndarray, cut: bool = False) -> bool:
    """False where the maps' ink is one clear shape that is its own quarter turn: matched as
    silhouettes (each map above its own Otsu threshold), the cells match one another at
    least MATCHES yet typically beat their next best turn by less than LEAST_MARGIN.

    Asked of a sample whose maps match in every turn nearly alike (``_sample_may_agree``): a
    small glyph on a large tile, or an object that is its own quarter turn (a square lamp)
    in cells that cut a floor's tiles, whose shades then pick each cell's "turn".  The glyph's
    silhouette turns with it; the lamp's matches itself in every turn.  A faint glyph's
    silhouette may be its tile's rim or noise instead, alike in every turn but matching
    poorly: that says nothing, and the maps decide.  Measured on tuning looks read so (median
    margin, median best match): arrow boards 0.032 to 0.50; faint chevrons photographed on
    dark tiles 0.000 at 0.71, chevrons on a photographed screen's tiles 0.000 at 0.00; square
    lamps set in a floor of tiles 0.000 at 0.96.
    """
    silhouettes = np.empty_like(maps)
    for cell, shape in zip(maps, silhouettes, strict=True):
        shape[:] = 100 * _above_otsu(cell)
    template, _, scores = _align(silhouettes, cut=cut)
    if template is None:
        return True
    ordered = np.sort(scores, axis=1)
    clear = float(np.median(ordered[:, -1])) >= MATCHES
    return not clear or float(np.median(ordered[:, -1] - ordered[:, -2])) >= LEAST_MARGIN


def _halves_agree(maps: np.ndarray, every: np.ndarray, cut: bool = False) -> bool:
    """One object in four turns whose cells tell their turns apart by little (AGREE).

    Each half of the sample (``maps``) learns its own template, both read
    every cell of the board (``every`` map), and the two readings must differ
    by one fixed turn in all but a share of 1 - AGREE of the cells.
    """
    turned = np.stack([np.rot90(every, k, axes=(1, 2)) for k in range(4)], axis=1)
    readings = []
    for start in (0, 1):
        template, _, _ = _align(maps[start::2], cut=cut)
        if template is None:
            return False
        readings.append(_turn_scores(turned, template).argmax(axis=1))
    between = np.bincount((readings[0] - readings[1]) % 4, minlength=4)
    return bool(between.max() >= AGREE * len(every))


def _turned(scores: np.ndarray) -> float:
    """The share of cells whose best turn matches well and beats the next best."""
    ordered = np.sort(scores, axis=1)
    best, second = ordered[:, -1], ordered[:, -2]
    return float(np.mean((best >= MATCHES) & (best - second >= TURN_MARGIN)))


def _align(
    maps: np.ndarray, template: np.ndarray | None = None, rounds: int = ROUNDS, cut: bool = False
) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """(template, each map's turn into its frame, ``(n, 4)`` scores of the turns).

    Without a ``template``, the first is the map with the most typical ink;
    each round turns every map into the template's frame and averages them
    into the next one, until the turns no longer change (at most ``rounds``
    times).  No template when the maps are blank.  ``cut``: each map is averaged
    cut where the template matched it best, not its middle (``_cut_mean``).
    """
    ink = _middles(maps).mean(axis=(1, 2))
    if _blank(maps, ink):
        return None, np.zeros(len(maps), np.int64), np.zeros((len(maps), 4))
    if template is None:
        template = _centre(maps[int(np.argsort(ink)[len(ink) // 2])])
    turned = np.stack([np.rot90(maps, k, axes=(1, 2)) for k in range(4)], axis=1)
    turns = None
    for _ in range(rounds):
        scores, where = _placed_scores(turned, template)
        before, turns = turns, scores.argmax(axis=1)
        if cut:
            template = _cut_mean(turned, turns, where, template.shape[0])
        else:
            template = _centre(turned[np.arange(len(maps)), turns].mean(axis=0).astype(np.float32))
        if before is not None and np.array_equal(before, turns):
            break  # the same turns again: the template changes no more
        if before is None and np.mean(scores.max(axis=1) >= MATCHES) < HOPELESS:
            break  # most cells match in no turn: no sharper template will change that
    return template, turns, scores


def _cut_mean(turned: np.ndarray, turns: np.ndarray, where: np.ndarray, side: int) -> np.ndarray:
    """The mean of every map in its turn ``turns`` (of ``turned``, ``(cells, 4, size, size)``),
    each cut ``side`` square where the template matched it (``where``: ``_placed_scores``)."""
    cells = np.arange(len(turns))
    at = where[cells, turns]  # (cells, 2)
    rows = at[:, 0, None] + np.arange(side)[None, :]  # (cells, side)
    cols = at[:, 1, None] + np.arange(side)[None, :]
    cut = turned[cells, turns][cells[:, None, None], rows[:, :, None], cols[:, None, :]]
    return np.ascontiguousarray(cut.mean(axis=0).astype(np.float32))


def _offset(kinds: list[np.ndarray], turns: np.ndarray) -> tuple[int, float]:
    """The direction the board's object points in the template's frame, and how clearly the
    votes say so (the winner's share of them less the runner-up's).

    ``kinds``: one or more kinds of maps of the same cells (their ink, their
    glyph colour).  Every cell, turned into that frame and enlarged
    VOTE_SCALE times, votes with the way its map points (``pointing`` of the
    map above Otsu's threshold), each vote weighted by its sureness; the
    average map votes too, once.  Each kind's votes count as a share of its own.
    """
    votes = np.zeros(4)
    for maps in kinds:
        kind_votes = _pointing_votes(maps, turns)
        votes += kind_votes / max(float(kind_votes.sum()), 1e-9)
    ordered = np.sort(votes)
    margin = float((ordered[-1] - ordered[-2]) / ordered.sum()) if ordered.sum() > 0 else 0.0
    return int(np.argmax(votes)), margin


def _pointing_votes(maps: np.ndarray, turns: np.ndarray) -> np.ndarray:
    """``(4,)``: the ways the maps, turned into the template's frame, point, summed by sureness."""
    aligned = np.stack([np.rot90(m, k) for m, k in zip(maps, turns.tolist(), strict=True)])
    votes = np.zeros(4)
    for cell in [*aligned, aligned.mean(axis=0)]:
        finer = cv2.resize(cell, None, fx=VOTE_SCALE, fy=VOTE_SCALE, interpolation=cv2.INTER_CUBIC)
        mask = _ink_mask(finer)
        if mask is None:
            continue
        direction, sure = pointing(mask)
        votes[direction] += sure
    return votes


def pointing(mask: np.ndarray) -> tuple[int, float]:
    """The way a glyph (0/1 mask) points, 0 up .. 3 left, and how sure that is (0..1).

    A glyph that points is mirror-symmetric about the line it points along:
    the mask matches itself flipped across that line better than across the
    other.  Along it, the glyph points to its tip: the end where its outline
    starts from a point and widens going inward (an arrowhead, a caret, a
    triangle's or a chevron's apex), where the other end is blunt or keeps
    its width (a shaft, a triangle's base, a chevron's arms).  When neither
    end clearly does (``_tip``), it points away from the hollow of its hull (a
    chevron's V, the notches beside an arrow's shaft) when it has one, else
    toward the end that reaches farther from its centroid (a triangle's tip:
    two thirds of its height from the centroid, its base one third).
    """
    ys, xs = np.nonzero(mask)
    box = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(bool)
    across = float(overlap(box, box[:, ::-1]))  # symmetric about a vertical line: up or down
    down = float(overlap(box, box[::-1, :]))  # about a horizontal one: left or right
    vertical = across >= down
    sure = float(abs(across - down))
    tip = _tip(box if vertical else box.T)  # rows along the axis: the first is the top, left
    if tip is not None:
        return ((0 if tip else 2) if vertical else (3 if tip else 1)), sure
    axis = np.array([0.0, -1.0]) if vertical else np.array([1.0, 0.0])  # (x, y): up, right
    ink = np.column_stack([xs, ys]).astype(np.float64)
    centroid = ink.mean(axis=0)
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(np.vstack(contours))
    hull_mask = np.zeros_like(mask, dtype=np.uint8)
    cv2.fillConvexPoly(hull_mask, hull, 1)
    hollow = np.argwhere((hull_mask > 0) & (mask == 0))[:, ::-1].astype(np.float64)
    if len(hollow) > HOLLOW * np.count_nonzero(hull_mask):
        along = float((centroid - hollow.mean(axis=0)) @ axis)
    else:
        reach = (hull.reshape(-1, 2) - centroid) @ axis
        along = float(reach.max() + reach.min())  # the farther end's side
    forward = along >= 0
    direction = (0 if forward else 2) if vertical else (1 if forward else 3)
    return direction, sure


def _tip(box: np.ndarray) -> bool | None:
    """Which end of a glyph (a 0/1 mask cropped to its ink, its rows along the way it points)
    is its tip: True for the first row's, False for the last's, None when neither clearly is.

    The glyph's width (its extent across, row by row) is taken within TIP_NEAR of its length
    from either end and within TIP_FAR of it (the most in each); the tip's end widens going
    inward by TIP_WIDENS of the glyph's widest more than the other end does.  Asked first: a
    block arrow, its shaft nearly as wide as its head, has notches too small for their
    centroid to lie behind the glyph's.  Measured on the made-up glyphs of the tuning looks
    (1,800 masks, 20 to 44 pixels long, in four turns): 82 pointed wrong without it, 19 with
    it; arrow tiles, 120 boards: 116 read exactly without it, 117 with it.  The most within
    TIP_FAR, not the width at TIP_FAR: a short head narrows within a quarter of a thin
    arrow's length, and a quarter in lies in its shaft (fresh tuning arrow tiles 8172 read
    a half turn off).  Measured: 1,800 drawn masks (another draw) 2 pointed wrong at TIP_FAR,
    0 within it; 350 tuning arrow boards (arrow tiles 0-396 and 8000-8396, made-up glyphs
    0-396 and 8000-8196), 345 read exactly at TIP_FAR, 346 within it (8172), none lost.
    """
    filled = box.any(axis=1)
    first = np.argmax(box, axis=1)
    last = box.shape[1] - 1 - np.argmax(box[:, ::-1], axis=1)
    widths = np.where(filled, last - first + 1, 0).astype(np.float64)
    widest = float(widths.max())
    if len(widths) < 4 or widest <= 0:
        return None

    def widening(widths: np.ndarray) -> float:
        """How much wider the glyph is TIP_FAR in from this end than within TIP_NEAR of it
        (at its widest there: one ragged row of a blunt end is no tip)."""
        near = float(widths[: max(1, int(round(TIP_NEAR * (len(widths) - 1)))) + 1].max())
        i = int(round(TIP_FAR * (len(widths) - 1)))
        return (float(widths[: i + 2].max()) - near) / widest

    lead = widening(widths) - widening(widths[::-1])
    if abs(lead) < TIP_WIDENS:
        return None
    return lead > 0


def _ink_mask(cell: np.ndarray) -> np.ndarray | None:
    """The ink of a map (0/1): its largest component above Otsu's threshold, in the middle."""
    mask = _above_otsu(_centre(cell))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count < 2:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return (labels == largest).astype(np.uint8)


def _above_otsu(cell: np.ndarray) -> np.ndarray:
    """A map's pixels above Otsu's threshold of it (its range stretched to 0..255), 0/1."""
    scaled = cv2.normalize(cell, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
    _, mask = cv2.threshold(scaled, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return mask
