"""Whether a lattice's cells share a structure: the test that tells a board from a lattice
that a texture or a blank page made up.

A board's cells show one thing each, in a few states or turns: a tile's border and bevel,
a lamp's rim, a glyph, the edge between a lit and an unlit cell.  Whatever it is, it sits
at the same place in every cell, so the cells' edge maps, laid over one another, add up to
a sharp picture.  A lattice fitted to blotches of a dark screen, to a wood grain or to the
specks of noise has cells whose edges lie anywhere: laid over one another they blur to an
even grey, no sharper than the average of as many unrelated pictures would be.

``shared_structure`` measures that as a ratio with a known value for no structure: the
variance over the pixels of the cells' mean edge map, against the variance that the mean
of ``n`` unrelated maps keeps (each pixel's spread over the cells, divided by ``n``).  For
cells that share nothing it is about 1 whatever their number; measured on the renderer's
boards (tuning seeds, twelve looks, 300 boards), a board's true lattice is never under 3
(objects on grass, in perspective, with no tiles), its median per look from 7 (those) and
23 (chairs) to 375 (arrow glyphs).  The ratio takes a
cell's pixels as varying apart; blotches as large as a cell vary together, and the ratio
over them spreads wider (1 to 2.8 in 30 draws): a lattice of those may pass for a board.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..geometry import BoardLocation, apply_homography

#: Each cell is sampled at this many pixels a side (its edge map is this square).
CELL_PIXELS = 16


#: At least this many cells within the picture, or the ratio says nothing.
FEWEST_CELLS = 4


def shared_structure(
    image: np.ndarray, homography: np.ndarray, rows: int, cols: int
) -> float | None:
    """How strongly the cells of a board share a structure (1: not at all; see the module).

    ``image``: BGR or one channel (a Lab image's lightness); ``homography`` maps board
    coordinates (u, v) in [0, cols] x [0, rows] to its pixels.  Cells reaching past the
    picture are left out; None when fewer than FEWEST_CELLS are left.
    """
    if image.ndim not in (2, 3):
        raise ValueError(f"expected a BGR or one-channel image, not {image.ndim}-D")
    side = CELL_PIXELS
    # Only the cells wholly inside the picture count (a cell cut by the edge is half blank).
    height, width = image.shape[:2]
    corners = np.stack(np.meshgrid(np.arange(cols + 1), np.arange(rows + 1)), axis=-1).astype(
        np.float64
    )
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        points = apply_homography(homography, corners)
        within = (
            (points[..., 0] >= 0)
            & (points[..., 0] <= width - 1)
            & (points[..., 1] >= 0)
            & (points[..., 1] <= height - 1)
        )
    cell_within = within[:-1, :-1] & within[:-1, 1:] & within[1:, :-1] & within[1:, 1:]
    if np.count_nonzero(cell_within) < FEWEST_CELLS:
        return None
    maps = cell_edge_maps(square_on(image, homography, rows, cols, side), rows, cols)
    maps = maps[cell_within]
    mean_map = maps.mean(axis=0)
    structure = float(mean_map.var())
    if structure == 0.0:
        return None  # every cell one flat colour: nothing to weigh
    left_by_chance = float((maps - mean_map).var(axis=0).mean()) / len(maps)
    # (Cells drawn alike to the pixel, a screenshot's, leave nothing to chance.)
    return structure / left_by_chance if left_by_chance > 0 else float("inf")


def square_on(
    image: np.ndarray, homography: np.ndarray, rows: int, cols: int, cell_px: int
) -> np.ndarray:
    """A board warped square-on, ``cell_px`` pixels a cell (``homography``: board coordinates
    to ``image`` pixels); past the picture's edge its edge pixels repeat."""
    to_square = np.diag([cell_px, cell_px, 1.0]) @ np.linalg.inv(homography)
    return cv2.warpPerspective(
        image,
        to_square,
        (cols * cell_px, rows * cell_px),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


def cell_edge_maps(board: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """``(rows, cols, side * side)`` float32: each cell's edge map (the gradient magnitude of
    its grey) in a board warped square-on, ``side`` pixels a cell (BGR or one channel)."""
    if board.ndim == 3:
        board = cv2.cvtColor(board, cv2.COLOR_BGR2GRAY)
    grey = board.astype(np.float32)
    side = grey.shape[0] // rows
    edges = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    maps = edges.reshape(rows, side, cols, side).transpose(0, 2, 1, 3)
    return maps.reshape(rows, cols, side * side)


#: A lattice whose cells' shared structure (``shared_structure``) is under this is made up
#: (1 is none at all).  Measured on tuning photos: boards of "objects" counted in a dark
#: screen's blotches, a wood grain, a wall's texture 0.7 to 1.4 (one 2.6); boards' own, found
#: whole or in part, 2.4 and up (nine benches on grass, a tilted camera's 3x3).
MADE_UP = 1.6


def made_up(image: np.ndarray, location: BoardLocation) -> bool:
    """True when the board found at ``location`` in ``image`` is a lattice whose cells share
    no structure (MADE_UP): blotches, a texture's grain, nothing a board's cells show."""
    shared = shared_structure(image, location.homography, location.rows, location.cols)
    return shared is not None and shared < MADE_UP
