"""An independent brute force for tiny boards, written without the package's algebra.

It simulates clicks cell by cell and enumerates every click grid, so it shares
no code with the solver it checks.
"""

from __future__ import annotations

import itertools

import numpy as np


def click_effect(rows: int, cols: int, pattern: str, wrap: bool, row: int, col: int) -> np.ndarray:
    """0/1 grid of the cells one click at (row, col) changes."""
    grid = np.zeros((rows, cols), dtype=np.int64)
    if pattern == "rowcol":
        grid[row, :] = 1
        grid[:, col] = 1
        return grid
    offsets = {
        "plus": [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)],
        "x": [(0, 0), (-1, -1), (-1, 1), (1, -1), (1, 1)],
        "square": [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1)],
    }[pattern]
    for dr, dc in offsets:
        r, c = row + dr, col + dc
        if wrap:
            grid[r % rows, c % cols] = 1
        elif 0 <= r < rows and 0 <= c < cols:
            grid[r, c] = 1
    return grid


def all_solutions(board, states, pattern="plus", wrap=False, delta=1, goal=0):
    """Every click grid (values 0..states-1) that takes board to all-goal."""
    board = np.asarray(board, dtype=np.int64)
    rows, cols = board.shape
    n = rows * cols
    effects = np.array(
        [
            click_effect(rows, cols, pattern, wrap, r, c).reshape(-1)
            for r in range(rows)
            for c in range(cols)
        ]
    )  # (clicks, cells)
    grids = np.array(list(itertools.product(range(states), repeat=n)), dtype=np.int64)
    final = (board.reshape(-1)[None, :] + delta * (grids @ effects)) % states
    ok = np.all(final == goal, axis=1)
    return grids[ok].reshape(-1, rows, cols)


def fewest(solutions: np.ndarray, states: int, both: bool = False) -> int | None:
    """Fewest clicks among solutions (both: a value v costs min(v, m - v))."""
    if len(solutions) == 0:
        return None
    cost = np.minimum(solutions, states - solutions) if both else solutions
    return int(cost.reshape(len(solutions), -1).sum(axis=1).min())
