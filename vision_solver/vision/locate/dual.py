"""The tiles around a lattice of gaps: where four rounded tiles meet, the gap widens.

On a board of rounded tiles with narrow gaps, the gap where four tiles meet
is a blob of its own; those blobs make a lattice of the board's pitch, half
a step off its cells, one row and one column fewer.  On tiles split by their
glyphs and drawn in several colours, that lattice may be the surest of all.
The board as a whole tells it apart: its blobs are all one colour, the
colour of the panel all around the board, while every point half a step off
them (a tile's middle) is another colour.  Its board is then the lattice of
those points, a row and a column more.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..colour import SAME_COLOUR, on_scale
from ..geometry import apply_homography
from .cellsample import alike_to_neighbours, cell_colours
from .judge import pitch
from .lattice import Lattice
from .segment import Blob

#: Gaps between tiles are small beside the pitch (median size under this share) ...
GAP_SIZE = 0.6
#: ... all one colour (this share of them within SAME_COLOUR of their median, or of their
#: neighbouring pairs within SAME_COLOUR of each other: glare shades a photographed screen's
#: gaps across the board) ...
ALIKE = 0.9
#: ... and this share of the tiles' middles, half a step off, are not that
#: colour in every row and every column of tiles ...
TILES_APART = 0.9
#: ... while this share of the points half-way between two neighbouring gaps
#: are (the narrow gap between two tiles' straight edges; on the tuning looks
#: 0.43 to 1.0 for lattices of gaps, none for a lattice of glyphs).
JOINED = 0.25
#: The panel is looked at this far (cells) outside the tiles' board, and has
#: the gaps' colour within this (Delta E; a narrow gap is shaded by the tiles
#: beside it: 10 darker on the tuning looks).
AROUND = 0.85
PANEL_NEAR = 2 * SAME_COLOUR
#: Round tiles that nearly touch leave a seam a pixel wide or less, hardly the gaps' colour
#: at its middle, yet nearer it than the tiles SEAM_SIDE of a step to either side of the seam
#: are (by half SAME_COLOUR or more) at this share of the half-way points.  Measured on
#: fresh tuning looks: lattices of such gaps that JOINED missed 0.85 to 0.98 (one at 0.52
#: stays missed); on a lattice of glyphs on gapless tiles the seam is the tiles' own colour.
#: A photo blurs the seams: round tiles on a photographed monitor 0.70 to 0.73 (tuning 4336,
#: read one row and column short on their gaps at 0.8).  At 0.65, of 660 tuning boards and
#: photos of every family and kind, that one changed.
SEAMS = 0.65
SEAM_SIDE = 0.2
#: A tile's fill (area over box): rounded.
TILE_FILL = 0.9


def tiles_around(lattice: Lattice, blobs: list[Blob], lab: np.ndarray) -> Lattice | None:
    """The board of tiles whose gaps ``lattice`` is, or None when it is no lattice of gaps.

    Its cells lie half a step off the gaps, a row and a column more; its
    members are the tiles as the gaps outline them (a pitch less a gap
    across, the colour of the tile's middle) and it keeps the gaps' score.
    """
    members = list(lattice.members.values())
    step = pitch(lattice)
    if np.median([b.size for b in members]) >= GAP_SIZE * step:
        return None
    # the colour right at the gaps' points (a blob's box takes in the tiles' rounded corners)
    at = _pixels(lattice, [(c, r) for r, c in lattice.members], lab.shape)
    if at is None:
        return None
    colours = on_scale(lab[at[:, 1], at[:, 0]])
    gap = np.median(colours, axis=0)
    near_median = float(np.mean(np.linalg.norm(colours - gap, axis=1) < SAME_COLOUR))
    if max(near_median, alike_to_neighbours(list(lattice.members), colours)) < ALIKE:
        return None
    # between two neighbouring gaps runs the narrow gap between two tiles: the gaps' colour,
    # or where the tiles nearly touch, nearer it than the tiles beside it
    keys = list(lattice.members)
    halfway = [(c + 0.5, r) for r, c in keys] + [(c, r + 0.5) for r, c in keys]
    between = _pixels(lattice, halfway, lab.shape, every=False)
    if between is None or not len(between):
        return None
    seam_colours = on_scale(lab[between[:, 1], between[:, 0]])
    apart = np.linalg.norm(seam_colours - gap, axis=1)
    if np.mean(apart < SAME_COLOUR) < JOINED:
        if len(between) < len(halfway):
            return None  # (the seams test needs them all)
        # Each seam is told from the gap it runs from, not from the gaps' median: a
        # photographed screen shades its gaps across the board (glare, vignetting).
        own = np.concatenate([colours, colours])
        seams = np.linalg.norm(seam_colours - own, axis=1)
        if _seams_darker(lattice, keys, lab, own, seams) < SEAMS:
            return None
    shift = np.array([[1.0, 0.0, -0.5], [0.0, 1.0, -0.5], [0.0, 0.0, 1.0]])
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    tiles = dataclasses.replace(
        lattice,
        homography=lattice.homography @ shift,
        members={},
        rows=(r0, r1 + 1),
        cols=(c0, c1 + 1),
    )
    keys = [(r, c) for r in range(r0, r1 + 2) for c in range(c0, c1 + 2)]
    middles = cell_colours(tiles, lab, keys)
    panel = _panel_around(tiles, lab)
    if np.isnan(middles).any() or panel is None or np.linalg.norm(panel - gap) >= PANEL_NEAR:
        return None
    # every line of tiles holds tiles, unlike the gaps and the panel: a lattice
    # of gaps that reaches the board's edge (where a tile's rounded corners
    # meet the panel) would add a line of the panel
    unlike = np.minimum(
        np.linalg.norm(middles - gap, axis=1), np.linalg.norm(middles - panel, axis=1)
    )
    tile = (unlike >= SAME_COLOUR).reshape(r1 - r0 + 2, -1)
    if min(tile.mean(axis=0).min(), tile.mean(axis=1).min()) < TILES_APART:
        return None
    # The tiles, as the gaps outline them (a tile's own blobs are cut by its glyph).
    side = max(1, int(round(step - np.median([b.size for b in members]))))
    centres = _pixels(tiles, [(c, r) for r, c in keys], lab.shape, every=False)
    if centres is None or len(centres) < len(keys):
        return None
    found = {
        key: Blob(
            float(x),
            float(y),
            side,
            side,
            int(TILE_FILL * side * side),
            TILE_FILL,
            "between gaps",
            tuple(float(v) for v in colour),
        )
        for key, (x, y), colour in zip(keys, centres.tolist(), middles.tolist(), strict=True)
    }
    return dataclasses.replace(tiles, members=found)


def _seams_darker(
    lattice: Lattice,
    keys: list[tuple[int, int]],
    lab: np.ndarray,
    gap: np.ndarray,
    seam: np.ndarray,
) -> float:
    """The share of the points half-way between two neighbouring gaps (``keys``, (row, col);
    ``seam``: their distances from the ``gap`` colour, one or each point's own) nearer that
    colour, by half SAME_COLOUR or more, than both points SEAM_SIDE of a step across the seam
    from them (0 when one of those is off the image)."""
    beside = []
    for side in (-SEAM_SIDE, SEAM_SIDE):
        uv = [(c + 0.5, r + side) for r, c in keys] + [(c + side, r + 0.5) for r, c in keys]
        found = _pixels(lattice, uv, lab.shape)
        if found is None:
            return 0.0
        beside.append(np.linalg.norm(on_scale(lab[found[:, 1], found[:, 0]]) - gap, axis=1))
    return float(np.mean(seam < np.minimum(*beside) - SAME_COLOUR / 2))


def _panel_around(tiles: Lattice, lab: np.ndarray) -> np.ndarray | None:
    """The median colour of the ring AROUND cells outside the tiles' board (None: off the
    image)."""
    (r0, r1), (c0, c1) = tiles.rows, tiles.cols
    ring = []
    for t in np.linspace(0, 1, 40):
        u = c0 - 0.5 + t * (c1 - c0 + 1)
        v = r0 - 0.5 + t * (r1 - r0 + 1)
        ring += [(u, r0 - AROUND), (u, r1 + AROUND), (c0 - AROUND, v), (c1 + AROUND, v)]
    points = _pixels(tiles, ring, lab.shape, every=False)
    if points is None or len(points) < 20:
        return None
    return on_scale(np.median(lab[points[:, 1], points[:, 0]], axis=0))


def _pixels(
    lattice: Lattice, uv: list[tuple[float, float]], shape: tuple[int, ...], every: bool = True
) -> np.ndarray | None:
    """The pixels (x, y) of lattice points (col, row) on the image; None when ``every`` is
    asked and one is off it."""
    with np.errstate(divide="ignore", invalid="ignore"):
        points = apply_homography(lattice.homography, uv)
    points = np.where(np.isfinite(points), np.round(points), -1).astype(np.int64)
    h, w = shape[:2]
    inside = (points[:, 0] >= 0) & (points[:, 0] < w) & (points[:, 1] >= 0) & (points[:, 1] < h)
    if every and not inside.all():
        return None
    return points[inside]
