"""Light chasing: solve large plus-pattern boards (no wrap) through their first row.

With the plus pattern, the only click that changes cell ``(i, j)`` from the
row below is the click at ``(i + 1, j)``, and it does so with coefficient 1,
a unit in every Z/m.  So once the clicks of rows ``0..i`` are known, the
clicks of row ``i + 1`` are forced: they must finish cell ``(i, j)``.

We therefore treat the C clicks of the first row as unknowns u: every later
click is an affine function of u, and "chasing" row by row down the board
ends with the C conditions of the last row, a C x C system instead of an
(R*C) x (R*C) one.  Solving it gives every admissible first row; chasing
each of those down gives the whole click grid.
"""

from __future__ import annotations

import numpy as np

from .ints import reduce_mod, work_dtype
from .modular import LinearSolution, solve_linear


def _forced_rows(first: np.ndarray, targets: np.ndarray, m: int) -> np.ndarray:
    """Chase concrete values: every row of clicks from the first row's clicks.

    ``first`` is ``(..., C)`` (a batch of first rows is allowed), ``targets``
    is ``(R, C)`` (the change each cell needs, in click units) or 0.
    """
    rows = targets.shape[0]
    # Values stay in 0..m-1 and a cell sums 5 of them.
    dtype = work_dtype(m, terms=5)
    presses = np.empty((rows, *first.shape), dtype=dtype)
    presses[0] = reduce_mod(np.asarray(first, dtype=np.int64), m)
    targets = np.asarray(targets, dtype=dtype)
    total = np.empty_like(presses[0])
    for i in range(rows - 1):
        cur = presses[i]
        np.add(cur, presses[i - 1], out=total) if i else np.copyto(total, cur)
        total[..., 1:] += cur[..., :-1]
        total[..., :-1] += cur[..., 1:]
        nxt = presses[i + 1]
        np.subtract(targets[i], total, out=nxt)
        reduce_mod(nxt, m)
    return presses.astype(np.int64)


def _chase_system(targets: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
    """The last row's conditions ``M u = c`` on the first row's clicks u.

    Chasing gives row ``i + 1`` of clicks as ``t_i - T x_i - x_(i-1)``, where
    ``(T v)_j = v_(j-1) + v_j + v_(j+1)`` (a click's own row).  So the virtual
    row R below the board is ``M u + x_R``, where ``x_R`` is the chase of the
    targets from an all-zero first row and ``M = p_R(T)`` is a polynomial in T.

    Carrying the whole C x C matrix down the board costs O(R C**2).  Instead we
    chase only its first column ``M e_0`` (one vector), and get every other
    column from ``e_(j+1) = T e_j - e_j - e_(j-1)``: since M commutes with T,
    ``M e_(j+1) = T (M e_j) - M e_j - M e_(j-1)``.  Total cost O(R C + C**2).
    """
    rows, cols = targets.shape
    # Two chases side by side: [0] from u = e_0 without targets, [1] from u = 0 with them.
    cur = np.zeros((2, cols), dtype=np.int64)
    cur[0, 0] = 1
    above = np.zeros_like(cur)
    drive = np.zeros((2, cols), dtype=np.int64)
    for i in range(rows):
        total = cur + above
        total[:, 1:] += cur[:, :-1]
        total[:, :-1] += cur[:, 1:]
        drive[1] = targets[i]
        above, cur = cur, reduce_mod(drive - total, m)
    first_column, constant = cur
    # Column j+1 of M = (column j's left and right neighbours) - column j-1.
    columns = np.zeros((cols, cols), dtype=np.int64)
    columns[0] = first_column
    for j in range(cols - 1):
        nxt = columns[j + 1]
        nxt[1:] += columns[j, :-1]
        nxt[:-1] += columns[j, 1:]
        if j:
            nxt -= columns[j - 1]
        reduce_mod(nxt, m)
    # The virtual row must vanish: M u + constant = 0.
    return columns.T.copy(), reduce_mod(-constant, m)


def chase_solve(targets: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray, list[int]] | None:
    """Every click grid ``x`` of a plus-pattern board (no wrap) with ``A x = targets (mod m)``.

    Returns ``(particular, generators, orders)`` with ``particular`` of shape
    ``(R, C)`` and ``generators`` of shape ``(d, R, C)``, or None when the
    last row's conditions cannot be met.
    """
    targets = reduce_mod(np.array(targets, dtype=np.int64), m)
    rows, cols = targets.shape
    # The virtual row R must come out all zero: its forms are L u + c, so we
    # need L u = -c, a cols x cols system in the first row's clicks u.
    matrix, rhs = _chase_system(targets, m)
    first: LinearSolution | None = solve_linear(matrix, rhs, m)
    if first is None:
        return None
    particular = _forced_rows(first.particular, targets, m)
    zero = np.zeros_like(targets)
    if first.generators.shape[0]:
        # Kernel elements chase with no target: move the batch axis to the front.
        gens = np.moveaxis(_forced_rows(first.generators, zero, m), 1, 0)
    else:
        gens = np.zeros((0, rows, cols), dtype=np.int64)
    return particular, gens, list(first.orders)
