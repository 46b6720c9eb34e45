"""Sampling a lattice's cells in a work image: colours, flat regions, areas.

What the judges of a lattice and the gapless growth look at: the median
colour of a ring inside each cell, the flat region under its four quarters,
the area of its quadrilateral, and the distinct colours (states) of the
members.
"""

from __future__ import annotations

import numpy as np

from ..colour import SAME_COLOUR, on_scale
from ..geometry import apply_homography, quad_areas
from .lattice import Lattice
from .segment import Regions

#: Where a cell's colour is sampled, in cells from its centre: a ring that
#: misses a mark in the middle of the cell and the cell's own edge.
RING = np.array([(du, dv) for du in (-0.3, -0.15, 0.15, 0.3) for dv in (-0.3, -0.15, 0.15, 0.3)])


#: Where a cell's flat region is looked up: all four must agree.
QUARTERS = np.array([(-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)])


def cell_points(lattice: Lattice, keys: list[tuple[int, int]], offsets: np.ndarray) -> np.ndarray:
    """``(len(keys), len(offsets), 2)`` pixels (x, y) of offsets around lattice cells (row, col).

    A point the lattice sends to infinity (beyond a slanted lattice's horizon) is (-1, -1).
    """
    centres = np.array([(c, r) for r, c in keys], dtype=np.float64).reshape(-1, 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        points = apply_homography(
            lattice.homography, (centres[:, None, :] + offsets[None]).reshape(-1, 2)
        )
    # A point on or beyond a slanted lattice's horizon is no pixel: -1, off the image.
    points = np.where(np.isfinite(points), np.round(points), -1)
    return points.astype(np.int64).reshape(len(keys), len(offsets), 2)


def on_image(pixels: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Which cells have all their sample ``pixels`` (..., k, 2) on an image of ``shape``."""
    h, w = shape[:2]
    x, y = pixels[..., 0], pixels[..., 1]
    return ((x >= 0) & (x < w) & (y >= 0) & (y < h)).all(axis=-1)


def outside_lines(lattice: Lattice) -> list[list[tuple[int, int]]]:
    """The cells (row, col) of the line just outside the lattice, side by side in order
    round it: the row above left to right, the column right of it downwards, the row below
    right to left, the column left of it upwards."""
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    return [
        [(r0 - 1, c) for c in range(c0, c1 + 1)],
        [(r, c1 + 1) for r in range(r0, r1 + 1)],
        [(r1 + 1, c) for c in range(c1, c0 - 1, -1)],
        [(r, c0 - 1) for r in range(r1, r0 - 1, -1)],
    ]


def cell_colours(
    lattice: Lattice, lab: np.ndarray, keys: list[tuple[int, int]], offsets: np.ndarray = RING
) -> np.ndarray:
    """Median Lab colour of each lattice cell (row, col) in ``keys``, sampled at ``offsets``
    (cells from its centre: its RING by default); NaN where off the image."""
    pixels = cell_points(lattice, keys, offsets)
    inside = on_image(pixels, lab.shape)
    colours = np.full((len(keys), 3), np.nan)
    if inside.any():
        picked = pixels[inside]
        colours[inside] = on_scale(np.median(lab[picked[..., 1], picked[..., 0]], axis=1))
    return colours


#: Where the edge a cell shares with its neighbour to the right is sampled (cells from its
#: centre): at three places along it, each at three depths across it (a thin line drawn
#: there may fall a pixel to either side of the lattice's).
ACROSS_EDGE = (0.45, 0.5, 0.55)
ALONG_EDGE = (-0.25, 0.0, 0.25)


def edge_contrasts(
    lattice: Lattice, lab: np.ndarray, pairs: list[tuple[tuple[int, int], tuple[int, int]]]
) -> np.ndarray:
    """How far the edge between each pair of neighbouring cells ((row, col), and the cell to
    its right or below it) stands out from the two cells' mean colour (Delta E): where a line
    is drawn along it, and across a gap, the most; NaN where any of it lies off the image."""
    contrasts = np.full(len(pairs), np.nan)
    if not pairs:
        return contrasts
    firsts = [first for first, _ in pairs]
    rightward = np.array([second[1] > first[1] for first, second in pairs])
    offsets = np.array([(across, along) for along in ALONG_EDGE for across in ACROSS_EDGE])
    to_right = cell_points(lattice, firsts, offsets)
    below = cell_points(lattice, firsts, offsets[:, ::-1])
    pixels = np.where(rightward[:, None, None], to_right, below)
    inside = on_image(pixels, lab.shape)
    if not inside.any():
        return contrasts
    mean = (
        cell_colours(lattice, lab, firsts) + cell_colours(lattice, lab, [b for _, b in pairs])
    ) / 2
    picked = pixels[inside]
    colours = on_scale(lab[picked[..., 1], picked[..., 0]])  # (pairs, points, 3)
    apart = np.linalg.norm(colours - mean[inside][:, None, :], axis=2)
    apart = apart.reshape(len(picked), len(ALONG_EDGE), len(ACROSS_EDGE))
    contrasts[inside] = np.median(apart.max(axis=2), axis=1)
    return contrasts


def cell_regions(lattice: Lattice, regions: Regions, keys: list[tuple[int, int]]) -> np.ndarray:
    """The flat region holding each lattice cell (row, col); 0 where none does, or off the image."""
    pixels = cell_points(lattice, keys, QUARTERS)
    inside = on_image(pixels, regions.labels.shape)
    found = np.zeros(len(keys), dtype=np.int64)
    if inside.any():
        picked = pixels[inside]
        labels = regions.labels[picked[..., 1], picked[..., 0]]
        found[inside] = np.where((labels == labels[:, :1]).all(axis=1), labels[:, 0], 0)
    return found


def cell_areas(lattice: Lattice, keys: list[tuple[int, int]]) -> np.ndarray:
    """Area in pixels of each lattice cell (row, col): its quadrilateral's, by the shoelace rule."""
    corners = np.array([(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)])
    centres = np.array([(c, r) for r, c in keys], dtype=np.float64).reshape(-1, 2)
    return quad_areas(apply_homography(lattice.homography, centres[:, None, :] + corners[None]))


def state_colours(lattice: Lattice, lab: np.ndarray, tolerance: float = SAME_COLOUR) -> np.ndarray:
    """The members' colours, one of each (``one_of_each``)."""
    found = cell_colours(lattice, lab, list(lattice.members))
    return one_of_each(found[~np.isnan(found).any(axis=1)], tolerance)


def one_of_each(colours: np.ndarray, tolerance: float = SAME_COLOUR) -> np.ndarray:
    """``(k, 3)``: one of each colour: the first one, then the first one unlike it
    (``tolerance`` or more away), and so on."""
    left = colours
    palette = []
    while len(left):
        palette.append(left[0])
        left = left[np.linalg.norm(left - left[0], axis=1) >= tolerance]
    return np.array(palette).reshape(-1, 3)


def alike_to_neighbours(keys: list[tuple[int, int]], colours: np.ndarray) -> float:
    """The share of neighbouring points of a lattice (``keys``, (row, col): side by side or
    one above the other) whose ``colours`` (``(n, 3)``, in ``keys``' order) lie within
    SAME_COLOUR of each other; 0 when no two are neighbours.  A page or a screen shaded
    across (a vignette, a glare spot) still matches from each point to the next."""
    at = {key: i for i, key in enumerate(keys)}
    pairs = [
        (i, at[(row + d_row, col + d_col)])
        for (row, col), i in at.items()
        for d_row, d_col in ((0, 1), (1, 0))
        if (row + d_row, col + d_col) in at
    ]
    if not pairs:
        return 0.0
    one, other = np.array(pairs).T
    return float(np.mean(np.linalg.norm(colours[one] - colours[other], axis=1) < SAME_COLOUR))
