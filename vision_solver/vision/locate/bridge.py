"""Bridging a board split by a line of cells of its other state.

On a board whose cells of one state merge with the panel around them (dark
cells on a dark frame), only the other state's cells are blobs.  A row or
column all of the merged state then holds no blob, and the lattice keeps
only the run of lines on one side of it: a board of 4 x 13 read as 4 x 8.
The board as a whole says what such a line is: its cells are all alike, and
they have the colour of the lattice's own empty cells (the merged state, seen
between the members), while beyond it the same cells as the members go on,
on the same lattice points.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..colour import SAME_COLOUR, on_scale
from ..geometry import apply_homography
from .cellsample import cell_colours
from .lattice import LOOKALIKE_REACH, Lattice, Pool
from .segment import Blob

#: At most this many lines of the other state are bridged at once.
MOST_EMPTY = 2
#: A look-alike beyond the gap is this near the members' median size (least, most).
ALIKE_SIZE = (0.8, 1.25)


def bridged(lattice: Lattice, pool: Pool, lab: np.ndarray, page: np.ndarray) -> Lattice:
    """``lattice`` grown over look-alikes beyond up to MOST_EMPTY lines of its other state.

    The look-alikes, among the ``pool``'s blobs, sit on the lattice's points
    (LOOKALIKE_REACH) within its span the other way, are of the members' size
    and colour, and the lines between hold cells all of one colour, that of
    the lattice's empty cells (``_other_state``: not the ``page``'s).  The
    score grows with the members.  The lattice itself when nothing is bridged.
    """
    members = lattice.members
    size = float(np.median([b.size for b in members.values()]))
    colour = np.median([b.colour for b in members.values()], axis=0)
    taken = {id(b) for b in members.values()}
    candidates = np.flatnonzero(
        (pool.size >= ALIKE_SIZE[0] * size)
        & (pool.size <= ALIKE_SIZE[1] * size)
        & (np.linalg.norm(pool.colour - colour, axis=1) < SAME_COLOUR)
    )
    alike = [pool.blobs[i] for i in candidates.tolist() if id(pool.blobs[i]) not in taken]
    if not alike:
        return lattice
    with np.errstate(divide="ignore", invalid="ignore"):
        uv = apply_homography(np.linalg.inv(lattice.homography), [(b.x, b.y) for b in alike])
    off = np.linalg.norm(uv - np.round(uv), axis=1)
    near = np.flatnonzero(np.isfinite(uv).all(axis=1) & (off <= LOOKALIKE_REACH))
    found: dict[tuple[int, int], Blob] = {}
    for i in near.tolist():
        u, v = np.round(uv[i]).astype(int).tolist()
        found.setdefault((v, u), alike[i])
    grown = dict(members)
    other = None
    changed = True
    while changed:
        changed = False
        rows = (min(k[0] for k in grown), max(k[0] for k in grown))
        cols = (min(k[1] for k in grown), max(k[1] for k in grown))
        for axis, span, across in ((0, rows, cols), (1, cols, rows)):
            beyond = [k for k in found if k not in grown and across[0] <= k[1 - axis] <= across[1]]
            for side in (-1, 1):
                edge = span[0] if side < 0 else span[1]
                steps = {side * (k[axis] - edge) for k in beyond}
                lines = sorted(step for step in steps if step > 0)
                if not lines or not 2 <= lines[0] <= MOST_EMPTY + 1:
                    continue
                if other is None:
                    other = _other_state(lattice, lab, page)
                    if other is None:
                        return lattice
                gap = [
                    _key(axis, edge + side * step, at)
                    for step in range(1, lines[0])
                    for at in range(across[0], across[1] + 1)
                ]
                colours = cell_colours(lattice, lab, gap)
                if np.isnan(colours).any() or not _alike(colours, other):
                    continue
                run = [lines[0]]
                while run[-1] + 1 in lines:
                    run.append(run[-1] + 1)
                reach = {edge + side * step for step in run}
                grown.update({k: found[k] for k in beyond if k[axis] in reach})
                changed = True
                break
            if changed:
                break
    if len(grown) == len(members):
        return lattice
    rows = (min(k[0] for k in grown), max(k[0] for k in grown))
    cols = (min(k[1] for k in grown), max(k[1] for k in grown))
    score = lattice.score * len(grown) / len(members)
    return dataclasses.replace(lattice, members=grown, rows=rows, cols=cols, score=float(score))


#: The panel's margin around a board is looked for up to this far beyond each
#: edge (cells), in steps of MARGIN_STEP ...
MARGIN_REACH = MOST_EMPTY + 1.0
MARGIN_STEP = 0.05
#: ... and a board's panel is thin: its margin on the thinnest side is under this.
THIN_PANEL = 0.5
#: A side whose margin is a whole number of cells (within this) wider than the
#: thinnest side's holds that many lines of the other state ...
WHOLE_LINE = 0.2
#: ... unless the board's found cells of that state stand out from the gaps at their
#: corners (``_rim_contrast``) and the line's cells do so by less than this share of it.
LINE_RIMS = 0.5
#: Where a cell's corners are sampled, in cells from its centre: where four cells meet.
CORNERS = np.array([(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)])


def framed_lines(lattice: Lattice, lab: np.ndarray, page: np.ndarray) -> Lattice:
    """``lattice`` grown over its outer lines of the other state, told by the panel's margin.

    When cells of one state have the colour of the panel around the board,
    a row or column of them at the board's edge is part of the panel as far
    as the blobs go.  The panel's margin is the same on every side of a
    board: a side whose margin is one or two cells wider than the thinnest
    side's holds one or two lines of cells.  Only when the lattice's empty
    cells (``_other_state``, not the ``page``'s colour) have the colour of a
    thin panel, and the line's cells look like cells (``_bare_panel``): where
    the board's own cells of that state are found as cells (keys of a toy
    whose unlit ones have the panel's colour but their own rims), a line is
    added only where it shows such cells, not the bare panel beyond the keys.
    """
    other = None
    margins = []
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    steps = np.arange(0.0, MARGIN_REACH + 1e-9, MARGIN_STEP)
    for axis, (start, end), across in ((0, (r0, r1), (c0, c1)), (1, (c0, c1), (r0, r1))):
        for side, edge in ((-1, start), (1, end)):
            if other is None:
                other = _other_state(lattice, lab, page)
                if other is None:
                    return lattice
            at = np.arange(across[0], across[1] + 1, dtype=np.float64)
            out = edge + side * (0.5 + steps)  # (steps,) along the axis
            if axis == 0:
                points = np.stack(np.broadcast_arrays(at[None, :], out[:, None]), axis=-1)
            else:
                points = np.stack(np.broadcast_arrays(out[:, None], at[None, :]), axis=-1)
            margins.append((axis, side, _panel_margin(lattice, lab, points, other, steps)))
    thinnest = min(margin for _, _, margin in margins)
    if thinnest >= THIN_PANEL:
        return lattice
    rows, cols = [r0, r1], [c0, c1]
    for axis, side, margin in margins:
        lines = int(round(margin - thinnest))
        if 1 <= lines <= MOST_EMPTY and abs(margin - thinnest - lines) <= WHOLE_LINE:
            edge = (r0, r1, c0, c1)[2 * axis + (side > 0)]
            across = range(c0, c1 + 1) if axis == 0 else range(r0, r1 + 1)
            added = [
                _key(axis, edge + side * step, at) for step in range(1, lines + 1) for at in across
            ]
            if _bare_panel(lattice, lab, added, other):
                continue
            span = rows if axis == 0 else cols
            span[0 if side < 0 else 1] += side * lines
    if (rows, cols) == ([r0, r1], [c0, c1]):
        return lattice
    return dataclasses.replace(lattice, rows=tuple(rows), cols=tuple(cols))


def _panel_margin(
    lattice: Lattice, lab: np.ndarray, points: np.ndarray, other: np.ndarray, steps: np.ndarray
) -> float:
    """How far (cells) the panel of colour ``other`` reaches past an edge: the first of
    ``steps`` at which most of its ``points`` (steps, across, 2: lattice (u, v)) are
    not that colour; the last step when it reaches past them all or the image's edge."""
    with np.errstate(divide="ignore", invalid="ignore"):
        pixels = apply_homography(lattice.homography, points.reshape(-1, 2))
    pixels = np.where(np.isfinite(pixels), np.round(pixels), -1).astype(np.int64)
    h, w = lab.shape[:2]
    inside = (pixels[:, 0] >= 0) & (pixels[:, 0] < w) & (pixels[:, 1] >= 0) & (pixels[:, 1] < h)
    if not inside.all():
        return float(steps[-1])
    colours = on_scale(lab[pixels[:, 1], pixels[:, 0]]).reshape(points.shape[0], points.shape[1], 3)
    panel = np.linalg.norm(colours - other, axis=2) < SAME_COLOUR
    ended = np.flatnonzero(panel.mean(axis=1) < 0.5)
    return float(steps[ended[0]]) if len(ended) else float(steps[-1])


def _key(axis: int, line: int, at: int) -> tuple[int, int]:
    """(row, col) of the cell ``at`` along line ``line`` of ``axis`` (0: a row, 1: a column)."""
    return (line, at) if axis == 0 else (at, line)


def _other_state(lattice: Lattice, lab: np.ndarray, page: np.ndarray) -> np.ndarray | None:
    """The colour of the lattice's empty cells when they are all alike, else None.

    None too when the lattice has no empty cell (nothing shows its other
    state), or when that colour is the ``page``'s (its commonest colour, on
    the one scale): a panel has a boundary, the page runs on, perhaps with
    squares of its own grid to take for cells beyond.
    """
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    empty = [
        (r, c)
        for r in range(r0, r1 + 1)
        for c in range(c0, c1 + 1)
        if (r, c) not in lattice.members
    ]
    if not empty:
        return None
    colours = cell_colours(lattice, lab, empty)
    colours = colours[~np.isnan(colours).any(axis=1)]
    if not len(colours):
        return None
    median = np.median(colours, axis=0)
    if not _alike(colours, median) or np.linalg.norm(median - page) < SAME_COLOUR:
        return None
    return median


def _bare_panel(
    lattice: Lattice, lab: np.ndarray, added: list[tuple[int, int]], other: np.ndarray
) -> bool:
    """Whether the ``added`` cells (row, col) are bare panel, not cells of the ``other``
    state: the lattice's members of that colour (two at least) stand out from the gaps at
    their corners (``_rim_contrast``), and the added cells by less than LINE_RIMS of that."""
    members = list(lattice.members)
    colours = cell_colours(lattice, lab, members)
    with np.errstate(invalid="ignore"):
        alike = np.linalg.norm(colours - other, axis=1) < SAME_COLOUR
    found = [key for key, near in zip(members, alike.tolist(), strict=True) if near]
    if len(found) < 2:
        return False  # the other state's cells are merged with the panel: no rims to compare
    theirs = _rim_contrast(lattice, lab, found)
    ours = _rim_contrast(lattice, lab, added)
    if np.isnan(theirs) or np.isnan(ours):
        return False
    return ours < LINE_RIMS * theirs


def _rim_contrast(lattice: Lattice, lab: np.ndarray, keys: list[tuple[int, int]]) -> float:
    """The median over ``keys`` (row, col) of how far each cell's colour (``cell_colours``)
    lies from the median colour at its corners, where it meets its neighbours (Delta E);
    NaN when no cell lies wholly on the image."""
    apart = np.linalg.norm(
        cell_colours(lattice, lab, keys) - cell_colours(lattice, lab, keys, CORNERS), axis=1
    )
    shown = ~np.isnan(apart)
    return float(np.median(apart[shown])) if shown.any() else float("nan")


def _alike(colours: np.ndarray, colour: np.ndarray) -> bool:
    """Every one of ``colours`` is within SAME_COLOUR of ``colour``."""
    return bool(np.all(np.linalg.norm(colours - colour, axis=1) < SAME_COLOUR))
