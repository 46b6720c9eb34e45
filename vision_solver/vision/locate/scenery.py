"""Scenery: lattices in a picture that are not the board (a tiled floor, a border's bricks).

A photographed board shares the picture with other lattices of look-alike
cells: the tiles of the floor a toy lies on are cells too, many of them, and
their lattice outscores the board's.  A floor is told by what a board never
is: a board of many cells is set in something of its own (a frame, a case, a
page), while a floor's tiles go on past any patch of them that the search
finds, in their many colours.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..colour import SAME_COLOUR, chroma
from ..geometry import apply_homography
from .cellsample import (
    cell_colours,
    edge_contrasts,
    one_of_each,
    outside_lines,
    state_colours,
)
from .judge import RUNS_OFF_CELLS, middle, pitch, runs_off
from .lattice import Lattice, without

#: A lattice of at least FLOOR_CELLS cells is a floor's when the cells of the
#: line just outside it have at least FLOOR_COLOURS distinct colours
#: (SAME_COLOUR apart) and FLOOR_ALIKE of them have a member's colour: the
#: patches of floors the search found in the tuning photos showed 4 to 13
#: colours outside, most of them tiles again; the boards of the tuning looks
#: and photos showed 1 to 3, or up to 6 where a small board's line outside
#: fell past its case onto the table, none of them like the cells.
FLOOR_CELLS, FLOOR_COLOURS, FLOOR_ALIKE = 30, 4, 0.5
#: ... and at least FLOOR_ABRUPT of the neighbours along that line are SAME_COLOUR apart
#: (``abrupt_share``): on the floors the search found in the tuning photos 0.13 to 1 (all
#: but one patch); round a photographed screen's board of black and white cells whose page a
#: glare spot lights from grey to white (four colours outside, all the cells' own) 0 to 0.04.
FLOOR_ABRUPT = 0.1


def outside_colours(lattice: Lattice, lab: np.ndarray) -> np.ndarray:
    """The colours of the cells of the line just outside the lattice, in order round it (the
    row above left to right, the column right of it downwards, the row below, the column
    left of it); NaN where a cell is off the image."""
    return cell_colours(lattice, lab, [key for line in outside_lines(lattice) for key in line])


def abrupt_share(colours: np.ndarray) -> float:
    """The share of neighbours along a line of cells' ``colours`` (in order, closed; NaN
    off the image) that are SAME_COLOUR or more apart: tiles of many colours change from
    one cell to the next; a page under a glare spot or a vignette changes smoothly."""
    following = np.roll(colours, -1, axis=0)
    both = ~np.isnan(colours).any(axis=1) & ~np.isnan(following).any(axis=1)
    if not both.any():
        return 0.0
    steps = np.linalg.norm(colours[both] - following[both], axis=1)
    return float(np.mean(steps >= SAME_COLOUR))


def members_alike(lattice: Lattice, lab: np.ndarray, colours: np.ndarray) -> float:
    """The share of ``colours`` within SAME_COLOUR of one of the lattice's members' colours."""
    members = cell_colours(lattice, lab, list(lattice.members))
    members = members[~np.isnan(members).any(axis=1)]
    if not len(colours) or not len(members):
        return 0.0
    gaps = np.linalg.norm(colours[:, None, :] - members[None], axis=2).min(axis=1)
    return float(np.mean(gaps < SAME_COLOUR))


def tiled_floor(lattice: Lattice, lab: np.ndarray) -> bool:
    """True when the lattice is a patch of a tiled floor (or wall), not a board.

    It has many cells (FLOOR_CELLS) and the line just outside it holds
    FLOOR_COLOURS colours or more, mostly the members' own (more tiles); or,
    with RUNS_OFF_CELLS cells or more running off the image on three sides
    or four (so that little of that line is on the image), its own cells
    have that many colours (a large board's had one to three on the tuning
    looks, a few more where marks or glare spot them; a floor's tiles vary
    without end).
    """
    if len(lattice.members) < FLOOR_CELLS:
        return False
    around = outside_colours(lattice, lab)
    outside = around[~np.isnan(around).any(axis=1)]
    if (
        len(one_of_each(outside)) >= FLOOR_COLOURS
        and members_alike(lattice, lab, outside) >= FLOOR_ALIKE
        and abrupt_share(around) >= FLOOR_ABRUPT
    ):
        return True
    if len(lattice.members) < RUNS_OFF_CELLS:
        return False
    return runs_off(lattice, lab.shape) and len(state_colours(lattice, lab)) >= FLOOR_COLOURS


#: A lattice of at least PALETTE_CELLS cells whose cells nearly all differ in colour from
#: one another (PALETTE_SHARE of them distinct, SAME_COLOUR apart) is a palette: a game's
#: command card of icons, a colour picker.  A board's cells repeat a few states (two lit
#: colours, the tiles of four turns); a floor's tiles differ a little in shade.
PALETTE_CELLS = 6
PALETTE_SHARE = 0.75


def palette(lattice: Lattice, lab: np.ndarray) -> bool:
    """True when nearly every cell of the lattice has a colour of its own (PALETTE_SHARE)."""
    count = len(lattice.members)
    if count < PALETTE_CELLS:
        return False
    return len(state_colours(lattice, lab)) >= PALETTE_SHARE * count


#: A lattice whose cells show at least MOSAIC_COLOURS vivid colours (chroma MOSAIC_CHROMA
#: or more, SAME_COLOUR apart) of every hue (in MOSAIC_HUES of the twelve 30-degree
#: sectors of hue at least) is a mosaic: a game's minimap of coloured pixels.  Measured on
#: 16 tuning scenes of nine families and photos: the three HUD minimaps 28 to 31 vivid
#: colours in 9 or 10 sectors; every other lattice of 30 cells or more (boards, floors,
#: grass, photographed pages, frames) 11 at most in 4 sectors at most.  Left out of the
#: search, 610 tuning boards and photos lost none.
MOSAIC_COLOURS = 20
MOSAIC_CHROMA = 20.0
MOSAIC_HUES = 7


def mosaic(lattice: Lattice, lab: np.ndarray) -> bool:
    """True when the lattice's cells show vivid colours of nearly every hue (MOSAIC_COLOURS
    of them in MOSAIC_HUES sectors of hue): a minimap, not a board of a few states."""
    if len(lattice.members) < MOSAIC_COLOURS:
        return False
    colours = state_colours(lattice, lab)
    vivid = colours[chroma(colours) >= MOSAIC_CHROMA]
    if len(vivid) < MOSAIC_COLOURS:
        return False
    hues = np.degrees(np.arctan2(vivid[:, 2] - 128.0, vivid[:, 1] - 128.0))
    sectors = np.unique((hues % 360 // 30).astype(int))
    return len(sectors) >= MOSAIC_HUES


#: A lattice is a strip when it is at most STRIP_ACROSS cells across and at
#: least STRIP_ALONG times as many along.  The brick and slab borders round
#: the tuning looks' 3-D boards were found as strips 2 or 3 bricks across and
#: 10 to 32 along; the boards were 3 to 9 cells a side.
STRIP_ACROSS, STRIP_ALONG = 3, 4
#: A border's bricks show at most this many colours (a brick and its mortar,
#: or two shades of brick) ...
STRIP_COLOURS = 2
#: ... or are smaller than the board's cells: a strip whose pitch is at most this share of
#: the board's beside it is of bricks whatever their shades.  Measured on tuning chairs,
#: the strips of bricks beside their boards 0.08 to 0.18 of the board's pitch (the bricks'
#: short side); a part of a board lying along the rest of it is at its pitch.  (Fresh
#: tuning chairs 8228: bricks of two shades and their mortar, three colours, a 20x2 strip
#: that stood for its 7x5 board.)
BRICK_PITCH = 0.5
#: The board a strip frames runs along it: its side facing the strip is
#: parallel to it (within FRAMED_ANGLE degrees), lies within the strip's
#: length and covers at least FRAMED_SHARE of it, and the gap between the two
#: across the strip is at most BESIDE_CELLS of the board's cells.
FRAMED_ANGLE = 10.0
FRAMED_SHARE = 0.6
BESIDE_CELLS = 1.5
#: ... and holds at least this many cells.
FRAMED_CELLS = 6
#: A lattice that overlaps the strip by more than this many of its own cells
#: across it is no board beside the strip but a part of the same cells (an
#: 11x3 part of a 17x3 board of arrows lies along it too).
OVERLAP_CELLS = 0.5


def frame_strip(lattice: Lattice, others: list[Lattice], lab: np.ndarray) -> bool:
    """True when the lattice is a band of a border (its bricks or slabs), not a board.

    A border round a board is a strip of look-alike bricks (STRIP_ACROSS,
    STRIP_ALONG; of few colours, STRIP_COLOURS, or smaller than the board's cells,
    BRICK_PITCH) that runs beside the board within: it is regular and long, and
    outscores the board it frames.  A board is set
    inside its frame, not along one side of another board: so a strip with
    another lattice, no strip, lying along it, about as long on that side and
    not over it (FRAMED_ANGLE, FRAMED_SHARE, BESIDE_CELLS, OVERLAP_CELLS,
    FRAMED_CELLS) is a frame's.
    """
    if not _strip(lattice):
        return False
    few_colours = len(state_colours(lattice, lab)) <= STRIP_COLOURS
    ends = _middle_lines_by(lattice)[0]
    along = ends[1] - ends[0]
    length = float(np.linalg.norm(along))
    if length == 0:
        return False
    axis = along / length
    half_strip = 0.5 * min(lattice.shape) * pitch(lattice)
    for other in others:
        if other is lattice or _strip(other) or len(other.members) < FRAMED_CELLS:
            continue
        if not few_colours and pitch(lattice) > BRICK_PITCH * pitch(other):
            continue
        side, cross = _middle_lines_by(other, axis)
        direction = side[1] - side[0]
        size = float(np.linalg.norm(direction))
        if size == 0:
            continue
        cosine = abs(float(direction @ axis)) / size
        if cosine < np.cos(np.radians(FRAMED_ANGLE)):
            continue
        t = sorted(float((point - ends[0]) @ axis) for point in side)
        if t[0] < -half_strip or t[1] > length + half_strip or t[1] - t[0] < FRAMED_SHARE * length:
            continue
        gap = middle(other) - ends[0]
        off = abs(float(axis[0] * gap[1] - axis[1] * gap[0]))  # across the strip
        half_other = 0.5 * float(np.linalg.norm(cross[1] - cross[0]))
        apart = off - half_strip - half_other  # the gap between the two, across the strip
        if -OVERLAP_CELLS * pitch(other) <= apart <= BESIDE_CELLS * pitch(other):
            return True
    return False


def _strip(lattice: Lattice) -> bool:
    """Whether the lattice is long and narrow (STRIP_ACROSS, STRIP_ALONG)."""
    across, along = sorted(lattice.shape)
    return across <= STRIP_ACROSS and along >= STRIP_ALONG * across


def _middle_lines(lattice: Lattice) -> tuple[np.ndarray, np.ndarray]:
    """The ends (``(2, 2)``, work pixels) of the lattice's middle line down its columns and
    of the one along its rows, each from outer edge to outer edge."""
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    down = [[(c0 + c1) / 2, r0 - 0.5], [(c0 + c1) / 2, r1 + 0.5]]
    across = [[c0 - 0.5, (r0 + r1) / 2], [c1 + 0.5, (r0 + r1) / 2]]
    return apply_homography(lattice.homography, down), apply_homography(lattice.homography, across)


def _middle_lines_by(
    lattice: Lattice, along: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The lattice's two middle lines, the one nearer the direction ``along`` (a unit
    vector; by default, the one along its long side) first."""
    down, across = _middle_lines(lattice)
    if along is None:
        first = lattice.shape[0] >= lattice.shape[1]
    else:

        def slant(line: np.ndarray) -> float:
            direction = line[1] - line[0]
            return abs(float(direction @ along)) / max(float(np.linalg.norm(direction)), 1e-9)

        first = slant(down) >= slant(across)
    return (down, across) if first else (across, down)


#: An outer line of a lattice whose cells all have the page's colour is bare page (squares of
#: the page's own grid, on the board's pitch, taken in beyond it) when the edges between its
#: cells stand out (``edge_contrasts``) by less than this share of the edges between the
#: board's own cells of the page's colour (drawn with outlines, or parted by gaps).  Measured
#: on tuning boards on ruled pages: the lines of the page's squares their lattices ran on over,
#: 0 to 0.3 of that; a photographed board's own line of unlit cells, 0.73 and more.
BARE_EDGES = 0.4
#: Where a cell's edges are sampled (cells from its centre): the middle of each side.  A
#: lattice this share of whose cells of another colour than the page's show the page there
#: holds objects on the page, not cells (measured: the floor round lamps let into it, tuning
#: 252, 1.0; glowing cells and lamps on ruled pages, 0 to 0.52).
EDGE_MIDDLES = np.array([(-0.45, 0.0), (0.45, 0.0), (0.0, -0.45), (0.0, 0.45)])
OBJECTS_ON_PAGE = 0.75


def bare_page_trimmed(lattice: Lattice, lab: np.ndarray, page: np.ndarray) -> Lattice:
    """``lattice`` less the outer lines of bare page beyond its board (BARE_EDGES).

    A page ruled into squares on about the board's pitch lets the board's lattice run on
    over them: its unlit cells, of the page's colour, look like the squares.  The board as a
    whole tells them apart.  Its cells lie within the rows and columns that hold a cell not
    of the page's colour (a lit one).  Where that block's neighbouring cells of the state
    nearest the page's colour are parted by edges that stand out (outlines, gaps), an outer
    line of the page's colour whose cells are parted by edges that hardly do is the page's,
    and goes, from the outside in, never into that block.
    """
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    keys = [(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]
    colours = cell_colours(lattice, lab, keys)
    apart = np.linalg.norm(colours - page, axis=1).reshape(r1 - r0 + 1, c1 - c0 + 1)
    with np.errstate(invalid="ignore"):
        paged = apart < SAME_COLOUR
    standing_out = ~np.isnan(apart) & ~paged
    lit_rows = np.flatnonzero(standing_out.any(axis=1))
    lit_cols = np.flatnonzero(standing_out.any(axis=0))
    if len(lit_rows) < 2 or len(lit_cols) < 2:
        return lattice
    top, bottom = r0 + lit_rows[0], r0 + lit_rows[-1]
    left, right = c0 + lit_cols[0], c0 + lit_cols[-1]
    if (top, bottom, left, right) == (r0, r1, c0, c1):
        return lattice  # every outer line holds a cell of the board's own colour
    # Objects standing on the page's colour (lamps let into a floor) leave the lattice as it
    # is: its lines of bare floor round them are the floor a board set into it is told by
    # (``within``).  A board's own cells fill them to their edges.
    lit = [(r0 + row, c0 + col) for row, col in zip(*np.nonzero(standing_out), strict=True)]
    rims = cell_colours(lattice, lab, lit, EDGE_MIDDLES)
    with np.errstate(invalid="ignore"):
        on_page = np.linalg.norm(rims - page, axis=1) < SAME_COLOUR
    seen = on_page[~np.isnan(rims[:, 0])]
    if not len(seen) or np.mean(seen) >= OBJECTS_ON_PAGE:
        return lattice
    # The block's neighbouring cells of the state nearest the page's colour (its unlit ones,
    # say) show how the board parts its cells.
    inside = apart[top - r0 : bottom - r0 + 1, left - c0 : right - c0 + 1]
    if np.isnan(inside).all():
        return lattice
    nearest = float(np.nanmin(inside)) + SAME_COLOUR

    def near(row: int, col: int) -> bool:
        return bool(apart[row - r0, col - c0] < nearest)

    pairs = [
        ((r, c), (r + down, c + 1 - down))
        for r in range(top, bottom + 1)
        for c in range(left, right + 1)
        for down in (0, 1)
        if r + down <= bottom
        and c + 1 - down <= right
        and near(r, c)
        and near(r + down, c + 1 - down)
    ]
    theirs = edge_contrasts(lattice, lab, pairs)
    theirs = theirs[~np.isnan(theirs)]
    if len(theirs) < 2:
        return lattice
    drawn = float(np.median(theirs))
    rows, cols = [r0, r1], [c0, c1]
    trimmed = True
    while trimmed:
        trimmed = False
        for span, inner, axis in ((rows, (top, bottom), 0), (cols, (left, right), 1)):
            for end, step in ((0, 1), (1, -1)):
                line = span[end]
                if (line < inner[0] if end == 0 else line > inner[1]) and _bare_line(
                    lattice, lab, axis, line, rows, cols, paged, (r0, c0), drawn
                ):
                    span[end] += step
                    trimmed = True
    if (rows, cols) == ([r0, r1], [c0, c1]):
        return lattice
    dropped = {
        id(blob)
        for (r, c), blob in lattice.members.items()
        if not (rows[0] <= r <= rows[1] and cols[0] <= c <= cols[1])
    }
    kept = without(lattice, dropped) if dropped else lattice
    if kept is None:
        return lattice
    # (A lattice grown over cells no blob was found in spans lines no member holds.  Its
    # score falls with the members it loses, and does not rise with its cover: lines of bare
    # page cut off a page's own grid make it no likelier a board.)
    return dataclasses.replace(
        kept,
        score=min(kept.score, lattice.score),
        rows=(max(kept.rows[0], rows[0]), min(kept.rows[1], rows[1])),
        cols=(max(kept.cols[0], cols[0]), min(kept.cols[1], cols[1])),
    )


def _bare_line(
    lattice: Lattice,
    lab: np.ndarray,
    axis: int,
    line: int,
    rows: list[int],
    cols: list[int],
    paged: np.ndarray,
    origin: tuple[int, int],
    drawn: float,
) -> bool:
    """Whether row (``axis`` 0) or column ``line`` of the lattice, within ``rows`` and
    ``cols`` (its lines kept so far), is bare page: every cell of the page's colour
    (``paged``, from ``origin``) and the edges between them under BARE_EDGES of ``drawn``."""
    if axis == 0:
        keys = [(line, c) for c in range(cols[0], cols[1] + 1)]
    else:
        keys = [(r, line) for r in range(rows[0], rows[1] + 1)]
    if not all(paged[r - origin[0], c - origin[1]] for r, c in keys):
        return False
    edges = edge_contrasts(lattice, lab, list(zip(keys, keys[1:], strict=False)))
    edges = edges[~np.isnan(edges)]
    return len(edges) > 0 and float(np.median(edges)) < BARE_EDGES * drawn
