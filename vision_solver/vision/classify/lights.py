"""The lights reader: each cell lit or dark, read from the board as a whole.

Each cell is summarised by its typical colour and its ink (``cells``).  One
state is the densest tight group of cells (a game draws all its cells of one
state alike); the others are the second state.  Which group is lit is known
from a matching look (``read_with_look``) or decided by the generic rule: the
more colourful state is lit; between two greys the brighter one; between two
equally bright greys the one carrying a mark.  The generic reading says what
decided (``LitBy``), since a board of greys does not show which shade is on:
``lit="dark"`` (the user's word for the game) turns any generic reading round.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Literal, NamedTuple

import cv2
import numpy as np

from ..colour import SAME_COLOUR, chroma
from ..looks import Look, state_distances

#: Which cells are on, as the user says of a game: the lighter (the generic
#: rule's own way) or the darker ones.
Lit = Literal["light", "dark"]
LIT = ("light", "dark")
#: What decided which group of a lights board is lit: the more colourful
#: group, the far lighter one that lights up its surround (``glow``) or stands out
#: from the page round the board while the colourful one hardly does (``surround``), the
#: lighter of two greys, the one carrying a mark, every cell alike (lit only
#: on a colourful board), a look naming the states, or the user (``lit="dark"``,
#: which turned a generic reading round).
LitBy = Literal["colour", "glow", "surround", "lightness", "mark", "one-state", "look", "user"]


class LightsReading(NamedTuple):
    """The lights reader's result: the cells, their confidence, and what decided which is lit."""

    cells: np.ndarray
    confidence: np.ndarray
    lit_by: LitBy


#: Feature weights for telling states apart: hue and saturation count more than
#: lightness, so a cursor's glow or a shadow does not pass for a lit cell.
_WEIGHTS = np.array([0.5, 1.5, 1.5, 1.0])
#: Cells of one state lie within this of their group's densest point, in the
#: weighted feature space (Delta E of hue and saturation counting 1.5, of
#: lightness 0.5, and a point of ink 1).
STATE_RADIUS = 12.0
#: Two states are told apart by colourfulness when their mean chroma differs
#: by more than this (Delta E): the more colourful one is lit ...
CHROMA_APART = 15.0
#: Two states both more colourful than this (mean chroma, Delta E) and far
#: apart in lightness (LIGHTNESS_APART) are told by lightness: the lighter
#: shines.
BOTH_COLOURFUL = 30.0
#: ... else, between two greys, by lightness when their L* differs by more
#: than this (a filled tile against an outline): the lighter one is lit ...
LIGHTNESS_APART = 30.0
#: ... or by a mark, when their ink differs by at least this (points of 100):
#: the one carrying it is lit (a checked box).
INK_APART = 3.0
#: Cells alike in colour but for lightness are two groups when their L* falls
#: apart by a gap wider than this (twice SAME_COLOUR) ...
LIGHTNESS_GAP = 16.0
#: Two greys whose L* differs by more than LIGHTNESS_GAP (apart by lightness
#: alone) are told by lightness unless their ink differs by this much too: a
#: few points of ink are the edge of a round tile or its shading caught in a
#: cell's middle (26 L* and 4 points apart on a tuning look), a checked box
#: is inked far more.
MARK_OVER_LIGHTNESS = 10.0
#: ... or, when each side holds at least TWO_OF_A_STATE cells, when the two
#: sides' mean L* stand more than SAME_COLOUR apart with a gap of half that
#: between them (two greys 14 L* apart, each drawn alike: a lone cell that
#: little lighter is a cursor or a glint, not a state; two greys 11 L* apart
#: on a photographed monitor, lit 3 L* lighter at the bottom than at the top,
#: leave a gap of 6) ...
TWO_OF_A_STATE = 2
#: ... and wider than this many times the spread of either group.
GAP_OVER_SPREAD = 4.0
#: The more colourful group is not lit when the other is lighter by LIGHTNESS_APART and
#: lights up the cells' surround (their rims, where a panel shows round a lamp or a
#: button) by this much more (median L*): a lit lamp photographed is white, its glow on
#: the panel round it, and an unlit one keeps its colour.  Measured on the tuning photos
#: (toys, devices among other grids) read by colour the wrong way round: 6.3 to 11.8;
#: the made-up screenshots' lit cells are the lighter as well as the more colourful.
GLOW_APART = 3.0
#: ... unless the more colourful group tints the panel between the cells (``halos``: the
#: cells' outer frames, Delta E from the panel's colour) by this much more than the lighter
#: one: its own glow, coloured (red tiles glowing onto a green panel beside cream ones).
#: Measured where the rims' rule turned a board: the renderer's bevelled tiles and the
#: tuning photos it turned rightly, -3.3 to 1.6; a board of glowing tiles, 3.5.
TINT_APART = 2.5
#: The more colourful group is not lit when the other is lighter by LIGHTNESS_GAP and stands
#: out from what lies round the board (``surround()``: its colour, Delta E from each group's
#: mean colour) this many times as far: a game draws its unlit cells in the page's own hue
#: and lights them up away from it (pale buttons on a navy page among blue ones), as it
#: draws lit cells in a colour on a white page.  Measured where the colour rule met a far
#: lighter group (tuning looks, toys, photos, the renderer's looks): the lit group stood
#: out 0.9 to 6.7 times as far as the unlit one in every case, the lighter group lit only
#: at 1.38 and more; the renderer's bevelled buttons, read backwards by colour, 1.6 to 2.4
#: (lighter by 31 to 39 L*; photographed, by 24 and more).  Nor does a far lighter group
#: that lights up its rims more (``glow``) take the light from a colourful group that stands
#: out STANDS_OUT times as far as it does: white cells on a photographed white page among
#: coloured ones (their rims lit by the white page, not by glow) stood 5 to 10 times nearer.
STANDS_OUT = 1.5
#: Boards of this many cells or more are read again levelled (``_levelled``) ...
LEVEL_CELLS = 16
#: ... and the levelled reading is kept when its groups stand TWO_APART apart at least
#: (``_apart``) and this many times further apart than the plain reading's.
LEVELLED_APART = 1.5
#: A levelled board (split in two along the way its cells vary most, ``_split_in_two``,
#: where the generic rule sees one state) is two states when its two sides stand at least
#: this far apart (``_apart``): measured, a photographed monitor's board lit unevenly 3.6
#: levelled, 2.0 as it stands; a board whose lit cells are each their own colour 0.5.
TWO_APART = 3.0
#: A board whose cells all look alike is lit when its mean chroma is above this.
COLOURFUL_BOARD = 25.0
#: The cells left over by the first state share one look (the second state) when this
#: share of them lie in their own densest tight group; else they vary (each lit cell
#: its own colour), and are simply "not the first state".
SHARED_LOOK = 0.3
#: A cell further from its state's colour than this share of the distance
#: between the two states looks like neither (a cursor over it).
ODD_CELL = 0.35
#: With the second state's cells spread out (each lit cell its own colour),
#: a cell this far from the first state is as unsure as it gets.
SPREAD_DOUBT = 18.0


def _mode_cluster(points: np.ndarray, radius: float) -> np.ndarray:
    """Mask of the densest tight cluster of ``points`` (mean-shift from the densest point)."""
    # squared distances from a Gram matrix: no (n, n, d) array of differences
    # (single precision is plenty to count neighbours within a radius)
    single = points.astype(np.float32)
    square = np.square(single).sum(axis=1)
    dist2 = single @ (-2.0 * single.T).astype(np.float32)
    dist2 += square[:, None]
    dist2 += square[None, :]
    centre = points[int(np.argmax(np.count_nonzero(dist2 < radius**2, axis=1)))]
    member = np.zeros(len(points), dtype=bool)
    for _ in range(5):
        member = np.linalg.norm(points - centre, axis=1) < 1.5 * radius
        centre = points[member].mean(axis=0)
    return member


def _split_by_lightness(lightness: np.ndarray) -> np.ndarray | None:
    """The brighter of two groups of cells apart by lightness alone, or None.

    The cells' L* sorted, the widest gap between neighbours splits them; it
    is two groups when that gap is wider than GAP_OVER_SPREAD times the spread
    (standard deviation) of either side, and than LIGHTNESS_GAP; or, when both
    sides hold TWO_OF_A_STATE cells or more, than half SAME_COLOUR with the
    sides' means SAME_COLOUR apart.  A board of one state, shaded or not, has no
    such gap.
    """
    order = np.sort(lightness)
    if len(order) < 2:
        return None
    gaps = np.diff(order)
    at = int(np.argmax(gaps))
    below, above = order[: at + 1], order[at + 1 :]
    spread = max(float(below.std()), float(above.std()))
    several = min(len(below), len(above)) >= TWO_OF_A_STATE
    if gaps[at] <= GAP_OVER_SPREAD * spread:
        return None
    if several:
        # Two groups of cells whose lightness stands SAME_COLOUR apart, with a gap between them
        # of half that at least (a light falling across the board narrows the gap, not the
        # groups' difference).
        if float(above.mean() - below.mean()) <= SAME_COLOUR or gaps[at] <= SAME_COLOUR / 2:
            return None
    elif gaps[at] <= LIGHTNESS_GAP:
        return None
    return lightness > (order[at] + order[at + 1]) / 2


def _lit_group(groups: list[np.ndarray]) -> tuple[int, LitBy]:
    """Which of two groups of cells ([L, a, b, ink] rows) is lit by the generic rule, and why.

    The more colourful group (mean chroma of its cells): ``colour``; between
    two greys of very different lightness the brighter (a filled tile against
    an outline): ``lightness``; otherwise the one carrying more of a mark (a
    checked box): ``mark``, or the brighter when neither carries more of one.
    """
    colourful = [float(chroma(g[:, :3]).mean()) for g in groups]
    light = [float(g[:, 0].mean()) for g in groups]
    if min(colourful) > BOTH_COLOURFUL and abs(light[0] - light[1]) > LIGHTNESS_APART:
        # Two colours, both vivid (yellow lamps among blue ones): the lamp that
        # is lit shines, so the far lighter one is lit, whichever hue is the
        # more saturated (a deep blue has more chroma than a bright yellow).
        return int(np.argmax(light)), "colour"
    if abs(colourful[0] - colourful[1]) > CHROMA_APART:
        return int(np.argmax(colourful)), "colour"
    ink = [float(g[:, 3].mean()) for g in groups]
    lighter = abs(light[0] - light[1])
    marked = abs(ink[0] - ink[1])
    if lighter > LIGHTNESS_APART or marked < INK_APART:
        return int(np.argmax(light)), "lightness"
    if lighter > LIGHTNESS_GAP and marked < MARK_OVER_LIGHTNESS:
        return int(np.argmax(light)), "lightness"
    return int(np.argmax(ink)), "mark"


def read_lights(
    features: np.ndarray,
    lit: Lit = "light",
    glows: Callable[[], bool | None] | None = None,
    rims: Callable[[], np.ndarray | None] | None = None,
    halos: Callable[[], np.ndarray] | None = None,
    surround: Callable[[], np.ndarray] | None = None,
) -> LightsReading:
    """Generic two-state reading: cells, confidence and what decided which group is lit.

    One state is the densest tight group of cells (a game draws all its cells
    of one state alike).  If the remaining cells also share one look, every
    cell goes to the nearer of the two looks; if they vary (games that paint
    each lit cell a different colour), they are simply "not the first group".

    ``lit="dark"`` is the user's word that the game's darker cells are on: it
    turns the generic rule's reading round whatever decided it (colour,
    lightness, a mark, or every cell alike), with the same confidence, and the
    basis becomes ``user``.  (A look, read by ``read_with_look``, names its
    states itself and is never turned round.)

    ``glows()``, when given, is asked of a board whose cells all look alike: lit means
    emitting light, so such a board that does not glow against its surroundings (an unlit
    device's coloured keys) is all off, one that does (a photographed board's keys, washed
    toward white by their glow) all on; where it cannot tell (None), the board's colour
    decides.

    ``rims()``, when given, is the lightness round each cell's object (``(rows, cols)``
    L*, NaN where none shows; None when the cells' objects fill them: tiles): asked when
    the more colourful group is the far darker one, whose rims the lighter group's
    outshine by GLOW_APART when the lighter one is lit (``glow``).  ``halos()``, when given,
    is how far each cell's outer frame is from the panel's colour (``(rows, cols)``, Delta
    E): the more colourful group that tints it TINT_APART more than the lighter one glows,
    and stays lit.
    """
    # The plain and the levelled readings may both ask: each question asked once.
    glows = cache(glows) if glows is not None else None
    rims = cache(rims) if rims is not None else None
    halos = cache(halos) if halos is not None else None
    surround = cache(surround) if surround is not None else None
    cells, confidence, lit_by = _read_generic(features, glows, rims, halos, surround)
    level = _levelled(features)
    if level is not None:
        # Lit unevenly (a photo's vignette, a colour cast across the screen): the board
        # read again with the colours' slope across it taken off, kept when its two
        # groups stand further apart.
        again = _read_generic(level, glows, rims, halos, surround)
        if not 0 < again.cells.mean() < 1:
            again = _split_in_two(level) or again
        apart = _apart(level, again.cells)
        if apart >= TWO_APART and apart > LEVELLED_APART * _apart(features, cells):
            cells, confidence, lit_by = again
        near = _read_by_neighbours(features, cells, level, rims, halos, surround)
        if near is not None:
            # Lit by a spot (a glare on a photographed screen): each cell read against
            # its neighbours' states, not the whole board's.
            cells, confidence, lit_by = near
    if lit == "dark":
        return LightsReading(1 - cells, confidence, "user")
    return LightsReading(cells, confidence, lit_by)


def _read_generic(
    features: np.ndarray,
    glows: Callable[[], bool | None] | None = None,
    rims: Callable[[], np.ndarray | None] | None = None,
    halos: Callable[[], np.ndarray] | None = None,
    surround: Callable[[], np.ndarray] | None = None,
) -> LightsReading:
    """The generic rule's reading, the lighter (or more colourful, or marked) group lit."""
    rows, cols, _ = features.shape
    points = features.reshape(-1, 4).astype(np.float64) * _WEIGHTS
    raw = features.reshape(-1, 4).astype(np.float64)
    first = _mode_cluster(points, radius=STATE_RADIUS)
    if first.all():
        # Alike in colour, where lightness counts least: two greys (a grey
        # capture) may still fall into two groups by lightness alone.
        brighter = _split_by_lightness(raw[:, 0])
        if brighter is None:
            return _one_state(raw, rows, cols, glows)
        first = ~brighter
    rest = points[~first]
    second_core = _mode_cluster(rest, radius=STATE_RADIUS)
    if second_core.sum() >= SHARED_LOOK * len(rest):
        centres = np.array([points[first].mean(axis=0), rest[second_core].mean(axis=0)])
        d = np.linalg.norm(points[:, None, :] - centres[None, :, :], axis=2)
        labels = d.argmin(axis=1)
        own = d[np.arange(len(points)), labels]
        other = d[np.arange(len(points)), 1 - labels]
        # A cell far from both looks is usually under a cursor, which brightens:
        # between the two it is the darker state, above both the brighter one.
        colour_own = np.linalg.norm(points[:, :3] - centres[labels, :3], axis=1)
        odd = colour_own > ODD_CELL * np.linalg.norm(centres[0, :3] - centres[1, :3])
        if odd.any():
            light = centres[:, 0] / _WEIGHTS[0]
            darker, brighter = int(np.argmin(light)), int(np.argmax(light))
            labels[odd] = np.where(raw[odd, 0] > light.max(), brighter, darker)
        confidence = np.clip((other - own) / np.maximum(other + own, 1e-9), 0, 1)
        confidence[odd] = 0.3
    else:
        labels = (~first).astype(np.int64)
        spread = np.linalg.norm(points - points[first].mean(axis=0), axis=1)
        confidence = np.clip(np.abs(spread - SPREAD_DOUBT) / SPREAD_DOUBT, 0, 1)
    if labels.min() == labels.max():
        # Every cell went to one of the two looks (the other's few cells far from both, taken
        # for a cursor's): one state after all.
        return _one_state(raw, rows, cols, glows)
    return _named(raw, labels, confidence, rows, cols, rims, halos, surround)


def _one_state(
    raw: np.ndarray, rows: int, cols: int, glows: Callable[[], bool | None] | None
) -> LightsReading:
    """The reading of a board whose cells ([L, a, b, ink] rows) all look alike: lit when
    ``glows()`` says the board emits light, off when it says not; where it cannot tell (or
    is not given), lit when the board is colourful."""
    said = glows() if glows is not None else None
    lit = said if said is not None else bool(chroma(raw[:, :3]).mean() > COLOURFUL_BOARD)
    return LightsReading(np.full((rows, cols), int(lit)), np.full((rows, cols), 0.6), "one-state")


def _named(
    raw: np.ndarray,
    labels: np.ndarray,
    confidence: np.ndarray,
    rows: int,
    cols: int,
    rims: Callable[[], np.ndarray | None] | None,
    halos: Callable[[], np.ndarray] | None,
    surround: Callable[[], np.ndarray] | None,
) -> LightsReading:
    """The reading of cells grouped in two (``labels`` 0/1 of the ``raw`` [L, a, b, ink] rows),
    the lit group named by the generic rule (``_lit_group``, turned by ``glow`` or
    ``surround``)."""
    lit_group, lit_by = _lit_group([raw[labels == 0], raw[labels == 1]])
    other = 1 - lit_group
    if (
        lit_by == "colour"
        and rims is not None
        and _outshone(raw, labels, lit_group, rims)
        and not (halos is not None and _tints_more(halos().reshape(-1), labels, lit_group))
        and not (surround is not None and _stands_out(raw, labels, lit_group, surround))
    ):
        lit_group, lit_by = other, "glow"
    elif (
        surround is not None
        and _may_give_way(raw, labels, lit_group, lit_by)
        and _stands_out(raw, labels, other, surround)
    ):
        # Pale buttons among blue ones on a navy page (lit by colour, or by the shading a
        # camera caught as a mark on the blue ones): blue is the page's own hue.
        lit_group, lit_by = other, "surround"
    cells = (labels == lit_group).astype(np.int64)
    return LightsReading(
        cells.reshape(rows, cols), (0.5 + 0.5 * confidence).reshape(rows, cols), lit_by
    )


def _levelled(features: np.ndarray) -> np.ndarray | None:
    """The cells' features less the plane that fits their L*, a and b across the board (their
    mean kept; ink as it is), or None on a board of fewer than LEVEL_CELLS cells (there a
    plane may take in the states' own pattern)."""
    rows, cols, channels = features.shape
    if rows * cols < LEVEL_CELLS:
        return None
    v, u = np.mgrid[0:rows, 0:cols].astype(np.float64)
    slopes = np.column_stack([u.ravel() - u.mean(), v.ravel() - v.mean()])
    design = np.column_stack([np.ones(rows * cols), slopes])
    values = features.reshape(-1, channels).astype(np.float64)
    fit, *_ = np.linalg.lstsq(design, values[:, :3], rcond=None)
    level = values.copy()
    level[:, :3] -= slopes @ fit[1:]
    return level.reshape(rows, cols, channels)


#: Light that changes within a few cells (a glare spot on a photographed screen) lifts
#: both states where it falls, so that a dark cell in it may outshine a lit one beside the
#: spot, and neither the board-wide groups nor a plane levelled off (``_levelled``) part
#: them.  Each cell is then named by the nearer of its two states' colours *near it*:
#: its neighbours' of that state, weighted by a Gaussian of NEAR_CELLS cells (one next to
#: it weighs nearly 1; the cell itself is not counted), with the state's colour over the
#: whole board weighing as BOARD_WEIGHT of one neighbour beside them, and renamed so until
#: no cell changes (at most NEAR_ROUNDS rounds).
NEAR_CELLS = 1.5
BOARD_WEIGHT = 0.5
NEAR_ROUNDS = 6
#: That reading stands where light, not the states, varies smoothly: its two states
#: stand SAME_COLOUR apart near a typical cell (the weighted features' distance, median
#: over the cells), and two neighbours of different states differ by NEIGHBOURS_APART of
#: that at least (median): one whole step, where a spot or a shade that parts the cells
#: of one state changes by little from cell to cell.  Measured with true corners on
#: 404 tuning lights boards (photos of all three kinds, five flat families) where the
#: reading changed the cells: the twelve it mended stood 10.1 to 77 apart with
#: neighbours 0.96 to 1.08 of it; the 23 it would have spoilt 1.5 to 7.8 apart, or
#: 11.4 with neighbours 0.58 of it.  On 189 fresh tuning photos it mended five and
#: spoilt one (a glare that washed a green board's lit cells white).
NEIGHBOURS_APART = 0.9


def _near_centres(points: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """``(rows, cols, 2, depth)``: each state's colour near every cell (``NEAR_CELLS``).

    ``points`` are the cells' weighted features ``(rows, cols, depth)``, ``labels`` their
    states (0/1, both present).
    """
    rows, cols, depth = points.shape
    size = 2 * int(np.ceil(3 * NEAR_CELLS)) + 1
    kernel = cv2.getGaussianKernel(size, NEAR_CELLS)
    kernel /= kernel.max()  # the cell's own weight 1, a neighbour's nearly 1
    centres = np.zeros((rows, cols, 2, depth))
    for state in (0, 1):
        member = (labels == state).astype(np.float64)
        held = np.dstack([points * member[..., None], member])  # sums and counts
        near = cv2.sepFilter2D(held, cv2.CV_64F, kernel, kernel, borderType=cv2.BORDER_CONSTANT)
        near = near.reshape(rows, cols, depth + 1) - held.reshape(rows, cols, depth + 1)
        board = points[labels == state].mean(axis=0)
        weight = near[..., depth:] + BOARD_WEIGHT
        centres[:, :, state] = (near[..., :depth] + BOARD_WEIGHT * board) / weight
    return centres


def _margins(points: np.ndarray, labels: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """``(rows, cols)``: how much nearer each cell lies to its own state's colour than to the
    other's (-1..1), the states' colours given for every cell (``(rows, cols, 2, depth)``)."""
    distance = np.linalg.norm(points[:, :, None, :] - centres, axis=3)
    own = np.take_along_axis(distance, labels[:, :, None], axis=2)[..., 0]
    other = np.take_along_axis(distance, 1 - labels[:, :, None], axis=2)[..., 0]
    return (other - own) / np.maximum(other + own, 1e-9)


def _neighbours_step(points: np.ndarray, labels: np.ndarray) -> float:
    """The median difference between side-by-side cells of different states (weighted
    features); 0 when no two such cells touch."""
    steps = [
        np.linalg.norm(points[:, 1:] - points[:, :-1], axis=2)[labels[:, 1:] != labels[:, :-1]],
        np.linalg.norm(points[1:] - points[:-1], axis=2)[labels[1:] != labels[:-1]],
    ]
    joined = np.concatenate(steps)
    return float(np.median(joined)) if len(joined) else 0.0


def _read_by_neighbours(
    features: np.ndarray,
    cells: np.ndarray,
    level: np.ndarray,
    rims: Callable[[], np.ndarray | None] | None,
    halos: Callable[[], np.ndarray] | None,
    surround: Callable[[], np.ndarray] | None,
) -> LightsReading | None:
    """The board read cell by cell against its two states' colours near each cell, or None
    where that reads it as ``cells`` do, or does not stand (NEIGHBOURS_APART), or fits the
    cells no better than the board-wide states do, or where a state of ``cells`` has no
    one look (SHARED_LOOK: each lit cell its own colour, as a game may paint them).

    It starts from ``cells`` (where they hold two states) and from the ``level``-led board
    split in two however little, renames the cells until none changes (``NEAR_CELLS``), and
    keeps the end that fits the cells better (a glare spot's brightest cells may be all
    that the board-wide reading told apart).  The lit state is named by the generic rule on
    the features less the light over each cell (its state's colour near it less the state's
    own over the board).
    """
    rows, cols, depth = features.shape
    points = features.astype(np.float64) * _WEIGHTS
    if 0 < cells.mean() < 1 and not all(
        _mode_cluster(points[cells == state], STATE_RADIUS).mean() >= SHARED_LOOK
        for state in (0, 1)
    ):
        return None  # a state whose cells vary (each its own colour) has no colour near a cell
    parted = _parted(level)
    if not 0 < cells.mean() < 1:
        starts = [parted]
    elif np.array_equal(parted, cells) or np.array_equal(parted, 1 - cells):
        starts = [cells]  # the same two groups: the same end
    else:
        starts = [cells, parted]
    ends = [end for end in (_renamed(points, start) for start in starts) if end is not None]
    if not ends:
        return None
    fits = [(end, _near_centres(points, end)) for end in ends]
    labels, centres = max(fits, key=lambda fit: _margins(points, *fit).mean())
    if np.array_equal(labels, cells):
        return None
    if np.array_equal(labels, 1 - cells):
        return None  # the same groups: which one is lit is the board-wide rule's to say
    apart = float(np.median(np.linalg.norm(centres[:, :, 0] - centres[:, :, 1], axis=2)))
    if apart < SAME_COLOUR or _neighbours_step(points, labels) < NEIGHBOURS_APART * apart:
        return None
    near = _margins(points, labels, centres)
    if 0 < cells.mean() < 1:
        board = np.array([points[cells == state].mean(axis=0) for state in (0, 1)])
        plain = _margins(points, cells, np.broadcast_to(board, centres.shape)).mean()
        if near.mean() <= plain:
            return None
    board = np.array([points[labels == state].mean(axis=0) for state in (0, 1)])
    light = np.take_along_axis(centres, labels[:, :, None, None], axis=2)[:, :, 0] - board[labels]
    evened = ((points - light) / _WEIGHTS).reshape(-1, depth)
    confidence = np.clip(near, 0, 1).reshape(-1)
    return _named(evened, labels.reshape(-1), confidence, rows, cols, rims, halos, surround)


def _renamed(points: np.ndarray, labels: np.ndarray) -> np.ndarray | None:
    """``labels`` renamed, each cell to the state whose colour near it is the nearer, until
    none changes (NEAR_ROUNDS at most); None when one state is left."""
    for _ in range(NEAR_ROUNDS):
        if not 0 < labels.mean() < 1:
            return None
        distance = np.linalg.norm(points[:, :, None, :] - _near_centres(points, labels), axis=3)
        renamed = distance.argmin(axis=2)
        if np.array_equal(renamed, labels):
            break
        labels = renamed
    return labels if 0 < labels.mean() < 1 else None


def _along_parting(features: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """The cells' weighted features projected on the way they vary most, those projections
    sorted, and where the sorted ones part (the split that leaves the least spread within
    either side: the first index of the upper side)."""
    points = features.reshape(-1, features.shape[-1]).astype(np.float64) * _WEIGHTS
    centred = points - points.mean(axis=0)
    axis = np.linalg.svd(centred, full_matrices=False)[2][0]
    along = centred @ axis
    order = np.sort(along)
    # Each split's spread within its two sides (the sum of squared deviations from each
    # side's mean), from running sums: the first k sorted projections and the rest.
    count = len(order)
    left = np.arange(1, count, dtype=np.float64)
    sums, squares = np.cumsum(order)[:-1], np.cumsum(order * order)[:-1]
    total, total_squares = float(order.sum()), float((order * order).sum())
    costs = (squares - sums * sums / left) + (
        (total_squares - squares) - (total - sums) ** 2 / (count - left)
    )
    return along, order, 1 + int(np.argmin(costs))


def _parted(features: np.ndarray) -> np.ndarray:
    """``(rows, cols)`` 0/1: the cells split in two where their features part most
    (``_along_parting``), however little."""
    along, order, k = _along_parting(features)
    return (along >= order[k]).astype(np.int64).reshape(features.shape[:2])


def _split_in_two(features: np.ndarray) -> LightsReading | None:
    """The cells split in two where their weighted features part most along the way they
    vary most (the split of their projections that leaves the least spread within either
    side), the lit side named by the generic rule; None unless the two stand apart by
    TWO_APART (``_apart``) and by STATE_RADIUS at least (two states, not noise)."""
    rows, cols, _ = features.shape
    raw = features.reshape(-1, 4).astype(np.float64)
    points = raw * _WEIGHTS
    along, order, k = _along_parting(features)
    labels = (along >= order[k]).astype(np.int64)
    between = np.linalg.norm(points[labels == 1].mean(axis=0) - points[labels == 0].mean(axis=0))
    if between < STATE_RADIUS or _apart(features, labels) < TWO_APART:
        return None  # (cells all alike but for noise split as far apart, by their spreads)
    lit_group, lit_by = _lit_group([raw[labels == 0], raw[labels == 1]])
    cells = (labels == lit_group).astype(np.int64)
    centre = (order[k - 1] + order[k]) / 2
    spread = max(float(np.abs(along - centre).max()), 1e-9)
    confidence = 0.5 + 0.5 * np.clip(np.abs(along - centre) / spread * 2, 0, 1)
    return LightsReading(cells.reshape(rows, cols), confidence.reshape(rows, cols), lit_by)


def _apart(features: np.ndarray, cells: np.ndarray) -> float:
    """How far apart a reading's two groups stand: the distance between their mean weighted
    features over the sum of their spreads (0 when every cell is in one group)."""
    points = features.reshape(-1, 4).astype(np.float64) * _WEIGHTS
    lit = cells.reshape(-1) == 1
    if lit.all() or not lit.any():
        return 0.0
    between = float(np.linalg.norm(points[lit].mean(axis=0) - points[~lit].mean(axis=0)))
    spread = float(
        np.linalg.norm(points[lit].std(axis=0)) + np.linalg.norm(points[~lit].std(axis=0))
    )
    return between / max(spread, 1e-9)


def _may_give_way(raw: np.ndarray, labels: np.ndarray, lit_group: int, lit_by: LitBy) -> bool:
    """Whether the group the generic rule lit (``lit_group`` of ``labels``) gives way to the
    other where that one stands out from the page (``_stands_out``): it does when it was lit
    by colour, or by a slight mark (its groups further apart in lightness, L*, than in ink,
    points of 100: a camera's catch of a bevel's shading, not a drawn tick), and the other is
    the lighter by LIGHTNESS_GAP.  A checked box is marked more than it is lighter, and
    keeps its mark."""
    if lit_by not in ("colour", "mark"):
        return False
    other = 1 - lit_group
    lighter = float(raw[labels == other, 0].mean() - raw[labels == lit_group, 0].mean())
    marked = float(raw[labels == lit_group, 3].mean() - raw[labels == other, 3].mean())
    return lighter > LIGHTNESS_GAP and (lit_by == "colour" or marked < lighter)


def _outshone(
    raw: np.ndarray, labels: np.ndarray, lit_group: int, rims: Callable[[], np.ndarray | None]
) -> bool:
    """Whether the group the colour rule lit (``lit_group`` of ``labels``) is the far darker
    one (by LIGHTNESS_APART) and the other lights up its cells' rims more (GLOW_APART):
    then the other is lit.  ``rims()`` is asked only then."""
    other = 1 - lit_group
    light = [float(raw[labels == g, 0].mean()) for g in (0, 1)]
    if light[other] - light[lit_group] <= LIGHTNESS_APART:
        return False
    lightness = rims()
    if lightness is None:
        return False
    flat = lightness.reshape(-1)
    shown = np.isfinite(flat)
    lighter, darker = flat[shown & (labels == other)], flat[shown & (labels == lit_group)]
    if not (len(lighter) and len(darker)):
        return False
    return bool(np.median(lighter) - np.median(darker) > GLOW_APART)


def _stands_out(
    raw: np.ndarray, labels: np.ndarray, group: int, surround: Callable[[], np.ndarray]
) -> bool:
    """Whether ``group`` of ``labels`` stands out STANDS_OUT times as far from ``surround()``
    (the colour round the board) as the other group (Delta E of their mean colours)."""
    page = np.asarray(surround(), dtype=np.float64)
    apart = [float(np.linalg.norm(raw[labels == g, :3].mean(axis=0) - page)) for g in (0, 1)]
    return apart[group] > STANDS_OUT * apart[1 - group]


def _tints_more(tints: np.ndarray, labels: np.ndarray, group: int) -> bool:
    """Whether the cells of ``group`` tint the panel round them (``tints``, per cell) more,
    by TINT_APART at the median, than the other group's."""
    own, other = tints[labels == group], tints[labels != group]
    if not (len(own) and len(other)):
        return False
    return bool(np.median(own) - np.median(other) > TINT_APART)


def read_with_look(features: np.ndarray, look: Look) -> tuple[np.ndarray, np.ndarray]:
    """Nearest prototype of a look: (cells, confidence)."""
    rows, cols, _ = features.shape
    points = features.reshape(-1, 4).astype(np.float64)
    states = sorted(look.prototypes)
    best = state_distances(points, look)
    order = np.sort(best, axis=1)
    cells = np.array(states)[best.argmin(axis=1)]
    margin = (order[:, 1] - order[:, 0]) / np.maximum(order[:, 1] + order[:, 0], 1e-9)
    fit = np.clip(1 - order[:, 0] / (2 * look.tolerance), 0, 1)
    confidence = np.clip(0.5 + 0.5 * margin, 0, 1) * (0.5 + 0.5 * fit)
    return cells.reshape(rows, cols).astype(np.int64), confidence.reshape(rows, cols)
