"""Boards without gaps: cells of one state merge, so the board is grown.

On a board whose cells touch, neighbouring cells of one state merge into
one flat region, and only isolated cells stand out as blobs: the lattice
found from them may cover part of the board.  Such regions are still made of
whole cells, so the lattice grows over them; and a line of blocks or of
tile pieces just outside it says that the board runs on.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..colour import SAME_COLOUR, on_scale
from ..geometry import apply_homography
from .cellsample import cell_areas, cell_colours, cell_regions, outside_lines, state_colours
from .judge import pitch
from .lattice import Lattice
from .segment import Blob, Regions


def union_of_cells(lattice: Lattice, regions: Regions, label: int) -> bool:
    """True when flat region ``label`` is a union of whole cells of ``lattice``.

    Its outline turns only at cell corners, and its area is about that of the
    cells whose middles it holds (less the thin edge band that is not flat).
    """
    x, y, w, h, area = regions.stats[label].tolist()
    height, width = regions.labels.shape
    if w * h > 0.25 * height * width:
        return False  # a backdrop, not cells
    inverse = np.linalg.inv(lattice.homography)
    # Corners of its outline, in lattice coordinates, sit on cell corners (x.5, y.5).
    mask = (regions.labels[y : y + h, x : x + w] == label).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    corners = cv2.approxPolyDP(outline, 0.15 * pitch(lattice), True).reshape(-1, 2) + [x, y]
    offset = apply_homography(inverse, corners) - 0.5
    if np.mean((np.abs(offset - np.round(offset)) < 0.25).all(axis=1)) < 0.8:
        return False
    # Its area is about that of the cells whose middles it holds.
    box = apply_homography(inverse, [[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
    (u0, v0), (u1, v1) = np.floor(box.min(axis=0)), np.ceil(box.max(axis=0))
    keys = [(r, c) for r in range(int(v0), int(v1) + 1) for c in range(int(u0), int(u1) + 1)]
    held = [
        k
        for k, found in zip(keys, cell_regions(lattice, regions, keys), strict=True)
        if found == label
    ]
    return bool(held) and 0.45 <= area / float(cell_areas(lattice, held).sum()) <= 1.1


def grow_gapless(
    lattice: Lattice, lab: np.ndarray, regions: Regions, tolerance: float = SAME_COLOUR
) -> Lattice:
    """Take in the rest of a board whose cells touch (no gaps between them).

    Without gaps, neighbouring cells of one state merge into one flat region,
    so only isolated cells stand out as blobs and the lattice found may cover
    a part of the board.  But such a region is still made of whole cells
    (``union_of_cells``).  A row or column just outside the lattice joins
    when every cell on it lies in such a region and has the colour of one of
    the states seen on the members.  The outline of a backdrop or a panel
    does not turn at cell corners, and a gap between tiles holds no cell's
    middle, so boards with gaps do not grow.  A grown lattice scores as many
    times more as it has more cells.
    """
    made_of_cells: dict[int, bool] = {}
    palette: list[np.ndarray] = []  # the state colours, once asked

    def whole_cells(label: int) -> bool:
        """``union_of_cells``, asked once per region."""
        if label not in made_of_cells:
            made_of_cells[label] = union_of_cells(lattice, regions, label)
        return made_of_cells[label]

    def states_once() -> np.ndarray:
        """``state_colours``, worked out once."""
        if not palette:
            palette.append(state_colours(lattice, lab, tolerance))
        return palette[0]

    def joins(cells: list[tuple[int, int]]) -> bool:
        """Every cell lies in a region of whole cells and has a state's colour."""
        labels = cell_regions(lattice, regions, cells).tolist()
        if not all(label > 0 and whole_cells(label) for label in labels):
            return False
        found = cell_colours(lattice, lab, cells)
        states = states_once()
        if np.isnan(found).any() or not len(states):
            return False
        near = np.linalg.norm(found[:, None, :] - states[None], axis=2).min(axis=1)
        return bool((near < tolerance).all())

    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    grew = True
    while grew and (r1 - r0) + (c1 - c0) < 400:
        grew = False
        if joins([(r0 - 1, c) for c in range(c0, c1 + 1)]):
            r0, grew = r0 - 1, True
        if joins([(r1 + 1, c) for c in range(c0, c1 + 1)]):
            r1, grew = r1 + 1, True
        if joins([(r, c0 - 1) for r in range(r0, r1 + 1)]):
            c0, grew = c0 - 1, True
        if joins([(r, c1 + 1) for r in range(r0, r1 + 1)]):
            c1, grew = c1 + 1, True
    if (r0, r1, c0, c1) == (*lattice.rows, *lattice.cols):
        return lattice
    (a0, a1), (b0, b1) = lattice.rows, lattice.cols
    members = dict(lattice.members)
    new = [
        (r, c)
        for r in range(r0, r1 + 1)
        for c in range(c0, c1 + 1)
        if not (a0 <= r <= a1 and b0 <= c <= b1)
    ]
    side = float(np.sqrt(np.median(cell_areas(lattice, new))))
    for (r, c), colour, (x, y) in zip(
        new,
        cell_colours(lattice, lab, new).tolist(),
        apply_homography(lattice.homography, [(c, r) for r, c in new]).tolist(),
        strict=True,
    ):
        members[(r, c)] = Blob(
            x, y, int(side), int(side), int(side * side), 1.0, "grown", tuple(colour)
        )
    before = (a1 - a0 + 1) * (b1 - b0 + 1)
    after = (r1 - r0 + 1) * (c1 - c0 + 1)
    return Lattice(
        lattice.homography,
        members,
        (r0, r1),
        (c0, c1),
        lattice.score * after / before,
        lattice.group,
    )


def runs_on(lattice: Lattice, blobs: list[Blob]) -> bool:
    """True when blocks of cells continue the lattice's rows or columns just outside it.

    A segmentation may find a part of a board whole (cells that it split
    from their neighbours) and merge the rest into blocks of two or more
    cells: then the board runs on past what was found, and the search must
    go on.  Such a block has a member's colour and a tile's height (beside
    the lattice) or width (above or below it), and its middle lies on the
    line of a row (or a column), half-way between lattice points or on one.
    """
    members = list(lattice.members.values())
    width = float(np.median([b.w for b in members]))
    height = float(np.median([b.h for b in members]))
    col, row = apply_homography(np.linalg.inv(lattice.homography), [(b.x, b.y) for b in blobs]).T
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    beside = (col > c1 + 0.5) & (col < c1 + 2.5) | (col < c0 - 0.5) & (col > c0 - 2.5)
    beside &= (row > r0 - 0.2) & (row < r1 + 0.2) & (np.abs(row - np.round(row)) < 0.15)
    above = (row > r1 + 0.5) & (row < r1 + 2.5) | (row < r0 - 0.5) & (row > r0 - 2.5)
    above &= (col > c0 - 0.2) & (col < c1 + 0.2) & (np.abs(col - np.round(col)) < 0.15)
    near = np.flatnonzero(beside | above)
    if len(near) < 2:
        return False
    colours = np.array([b.colour for b in members])
    blocks = 0
    for i in near.tolist():
        blob = blobs[i]
        fits = (
            abs(blob.h - height) < 0.25 * height
            if beside[i]
            else abs(blob.w - width) < 0.25 * width
        )
        alike = np.min(np.linalg.norm(colours - np.array(blob.colour), axis=1)) < SAME_COLOUR
        blocks += bool(fits and alike)
    return blocks >= 2


#: A line of cells just outside a lattice continues it when this share of its cells (those
#: on the image, two at least) shows a colour of the members' (within SAME_COLOUR of one).
LINE_ALIKE = 0.8


def colour_runs_on(lattice: Lattice, lab: np.ndarray, page: np.ndarray) -> bool:
    """True when a row or column just outside the lattice shows its cells' colours, those
    unlike the ``page``'s (its commonest colour, on the one scale).

    A segmentation may merge a board's outer line with a page of nearly its
    colour (a gradient lighter toward one side): no blob, neither whole tiles
    nor blocks of them, lies there, but the cells are there in the image.
    Cells of the page's own colour are left out: unlit cells on a dark page
    would find the page's grid round the board like them.
    """
    states = state_colours(lattice, lab)
    states = states[np.linalg.norm(states - page, axis=1) >= SAME_COLOUR]
    if not len(states):
        return False
    for keys in outside_lines(lattice):
        colours = cell_colours(lattice, lab, keys)
        colours = colours[~np.isnan(colours).any(axis=1)]
        if len(colours) < 2:
            continue
        near = np.linalg.norm(colours[:, None, :] - states[None], axis=2).min(axis=1)
        if np.mean(near < SAME_COLOUR) >= LINE_ALIKE:
            return True
    return False


def pieces_run_on(
    lattice: Lattice, lab: np.ndarray, regions: Regions, tolerance: float = SAME_COLOUR
) -> bool:
    """True when the cells of a row or column just outside the lattice hold pieces of tiles.

    A mark across a tile (a three-digit number) can cut its flat region into
    strips that are not cell-shaped, so a board whose lower rows carry such
    marks is found only down to them.  A line of the board beyond them
    still holds, in (nearly) every cell, a flat region of a member's colour
    that lies wholly inside the cell; a panel or a backdrop around a board
    reaches past the cells.
    """
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    area = float(np.median(cell_areas(lattice, list(lattice.members))))
    x, y, w, h, n = (regions.stats[:, i] for i in range(5))
    pieces = np.flatnonzero((n >= 0.04 * area) & (n <= area))
    pieces = pieces[pieces > 0]  # not the unflat pixels
    if not len(pieces):
        return False
    # the lattice cell (col, row) holding each piece's box, if one holds it whole
    x0, y0, x1, y1 = x[pieces], y[pieces], x[pieces] + w[pieces], y[pieces] + h[pieces]
    boxes = np.stack([x0, y0, x1, y0, x1, y1, x0, y1], axis=1).reshape(-1, 2).astype(np.float64)
    uv = apply_homography(np.linalg.inv(lattice.homography), boxes).reshape(-1, 4, 2)
    cell = np.round(uv.mean(axis=1))
    whole = (np.abs(uv - cell[:, None, :]) <= 0.55).all(axis=(1, 2))
    pieces, cell = pieces[whole], cell[whole].astype(np.int64)
    col, row = cell[:, 0], cell[:, 1]
    lines = (
        (row == r0 - 1) & (col >= c0) & (col <= c1),
        (row == r1 + 1) & (col >= c0) & (col <= c1),
        (col == c0 - 1) & (row >= r0) & (row <= r1),
        (col == c1 + 1) & (row >= r0) & (row <= r1),
    )
    lengths = (c1 - c0 + 1, c1 - c0 + 1, r1 - r0 + 1, r1 - r0 + 1)
    palette = None
    for on_line, length, along in zip(lines, lengths, (col, col, row, row), strict=True):
        if len(np.unique(along[on_line])) < 0.8 * length:
            continue  # most cells of the line hold no piece
        if palette is None:
            palette = state_colours(lattice, lab, tolerance)
        held = set()
        for i, at in zip(pieces[on_line].tolist(), along[on_line].tolist(), strict=True):
            if at in held:
                continue
            box = np.s_[y[i] : y[i] + h[i], x[i] : x[i] + w[i]]
            colour = on_scale(np.median(lab[box][regions.labels[box] == i], axis=0))
            if len(palette) and np.linalg.norm(palette - colour, axis=1).min() < tolerance:
                held.add(at)
        if len(held) >= 0.8 * length:
            return True
    return False
