"""The board's cells, rectified once for every reader.

The grid stage places the cells in the image; here the board is warped
square-on (``CellStack.board``: ``cell_px`` pixels a cell, made once per size
and kept), and each cell summarised by its features (``CellStack.features``:
the median colour of its inner part and how much of it is ink).  Every
reader (lights, glyphs, benches) takes the same stack.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

import cv2
import numpy as np

from ..colour import L_STORED
from ..grid import Grid

#: Cells are rectified at this many pixels a side.
CELL_PX = 32
#: A pixel is ink (part of a mark: a glyph, a digit, a check) when its colour
#: is further than this (Delta E) from its cell's median: well past
#: SAME_COLOUR, so that the shading and anti-aliasing of a plain tile are none.
#: Part of the feature space the looks in ``models/`` were learned in.
INK = 20.0


def inset_for(tile: float) -> float:
    """Margin (fraction of the cell, each side) that leaves the middle of the tile."""
    return float(np.clip(0.5 - 0.32 * tile, 0.15, 0.4))


def cell_features(
    board: np.ndarray, rows: int, cols: int, tile: float = 0.8, cell_px: int = CELL_PX
) -> np.ndarray:
    """``(rows, cols, 4)``: median L*, a, b of each cell's inner part, and 100 x ink.

    L* is on the 0..100 scale; a and b are OpenCV's (128 = grey).
    """
    lab = cv2.cvtColor(board, cv2.COLOR_BGR2LAB)
    a = int(round(inset_for(tile) * cell_px))
    b = cell_px - a
    # (rows, cols, channel, pixel): each channel of each cell's inner part in a row
    inner = lab.reshape(rows, cell_px, cols, cell_px, 3)[:, a:b, :, a:b, :]
    inner = inner.transpose(0, 2, 4, 1, 3).reshape(rows, cols, 3, -1)
    # The median, by partial sorting of the bytes (what np.median does, faster).
    n = inner.shape[3]
    middle = np.partition(inner, [(n - 1) // 2, n // 2], axis=3)
    median = (middle[..., (n - 1) // 2].astype(np.float32) + middle[..., n // 2]) / 2
    scale = np.array([1.0 / L_STORED, 1.0, 1.0], dtype=np.float32)  # onto the one scale
    median *= scale
    diff = inner.astype(np.float32)
    diff *= scale[:, None]
    diff -= median[..., None]
    ink = (np.square(diff, out=diff).sum(axis=2) > INK**2).mean(axis=2)
    return np.concatenate([median, 100 * ink[..., None]], axis=2)


#: Boards of more than this many cells are summarised at half of CELL_PX:
#: enough pixels still, and four times fewer to warp and sort.
SMALL_BOARD = 144


class CellStack:
    """A board's cells in ``image`` under ``grid``, rectified as the readers ask.

    ``board(cell_px)`` is the board seen square-on at ``cell_px`` pixels a
    cell, warped once per size; ``first_row`` the top row alone (cut from the
    whole board when that is already made, else warped alone: most boards
    without glyphs give up at their first row); ``features`` the cells'
    ``cell_features``; ``kept`` what a reader made of the cells, made once for every
    reader that asks.
    """

    def __init__(self, image: np.ndarray, grid: Grid) -> None:
        self.image = image
        self.grid = grid
        self._boards: dict[int, np.ndarray] = {}
        self._kept: dict[str, Any] = {}

    def kept(self, name: str, make: Callable[[], Any]) -> Any:
        """What ``make()`` gives, made the first time ``name`` is asked and kept: the
        readers that compare every cell with every other share one comparison."""
        if name not in self._kept:
            self._kept[name] = make()
        return self._kept[name]

    def board(self, cell_px: int = CELL_PX) -> np.ndarray:
        """The board square-on, ``cell_px`` pixels a cell (BGR)."""
        if cell_px not in self._boards:
            self._boards[cell_px] = self.grid.rectify(self.image, cell_px)
        return self._boards[cell_px]

    def first_row(self, cell_px: int = CELL_PX) -> np.ndarray:
        """The board's top row of cells square-on, ``cell_px`` pixels a cell."""
        if cell_px in self._boards:
            return self._boards[cell_px][:cell_px]
        grid = self.grid
        row = Grid(1, grid.cols, grid.homography, grid.corners).with_homography(grid.homography)
        return row.rectify(self.image, cell_px)

    @property
    def features_px(self) -> int:
        """The pixels a cell the features are taken at: CELL_PX, half that on large boards."""
        return CELL_PX // 2 if self.grid.rows * self.grid.cols > SMALL_BOARD else CELL_PX

    @cached_property
    def features(self) -> np.ndarray:
        """``cell_features`` of every cell: what reading and learning compare."""
        grid, cell_px = self.grid, self.features_px
        return cell_features(self.board(cell_px), grid.rows, grid.cols, grid.tile, cell_px)
