"""Light chasing: solve large plus-pattern boards (no wrap) through their first row.

With the plus pattern, the only click that changes cell ``(i, j)`` from the
row below is the click at ``(i + 1, j)``, and it does so with coefficient 1,
a unit in every Z/m.  So once the clicks of rows ``0..i`` are known, the
clicks of row ``i + 1`` are forced: they must finish cell ``(i, j)``.

We therefore treat the C clicks of the first row as unknowns, carry every
click of the board as an *affine form* in those unknowns (C coefficients and a
constant), "chase" row by row down the board, and end with the C conditions
of the last row: a C x C system instead of an (R*C) x (R*C) one.
"""

from __future__ import annotations

import numpy as np

from . import gf2
from .modular import LinearSolution, solve_linear


def _forced_rows(first: np.ndarray, targets: np.ndarray, m: int) -> np.ndarray:
    """Chase concrete values: every row of clicks from the first row's clicks.

    ``first`` is ``(..., C)`` (a batch of first rows is allowed), ``targets``
    is ``(R, C)`` (the change each cell needs, in click units) or 0.
    """
    rows = targets.shape[0]
    # Values stay below m and a cell sums 4 of them: int32 suffices unless m is huge.
    dtype = np.int32 if m <= 2**28 else np.int64
    presses = np.empty((rows, *first.shape), dtype=dtype)
    presses[0] = first % m
    targets = np.asarray(targets, dtype=dtype)
    total = np.empty_like(presses[0])
    for i in range(rows - 1):
        cur = presses[i]
        np.add(cur, presses[i - 1], out=total) if i else np.copyto(total, cur)
        total[..., 1:] += cur[..., :-1]
        total[..., :-1] += cur[..., 1:]
        nxt = presses[i + 1]
        np.subtract(targets[i], total, out=nxt)
        nxt %= m
    return presses.astype(np.int64)


def _chase_forms_gf2(targets: np.ndarray) -> np.ndarray:
    """GF(2): the packed affine forms of the virtual row below the board.

    Each form has C coefficient bits and the constant at bit C; the board is
    solvable exactly for the first rows that make every such form zero.
    """
    rows, cols = targets.shape
    width = cols + 1
    const_word, const_bit = divmod(cols, 64)
    current = gf2.pack(np.eye(cols, dtype=np.uint8), width)  # row 0: x_j is unknown j
    above = np.zeros_like(current)
    shift = np.uint64(const_bit)
    for i in range(rows):
        # The clicks of row i+1 must equal target(i,j) + (clicks that already
        # touched (i,j)): the cell itself, its left/right neighbours, the cell above.
        nxt = current ^ above
        nxt[1:] ^= current[:-1]
        nxt[:-1] ^= current[1:]
        nxt[:, const_word] ^= targets[i].astype(np.uint64) << shift
        above, current = current, nxt
    return current


def _add4(a_lo: np.ndarray, a_hi: np.ndarray, b_lo: np.ndarray, b_hi: np.ndarray) -> None:
    """In place ``a += b`` on Z/4 values stored as two bit-planes (value = lo + 2 hi)."""
    carry = a_lo & b_lo
    a_lo ^= b_lo
    a_hi ^= b_hi
    a_hi ^= carry


def _chase_forms_z4(targets: np.ndarray) -> np.ndarray:
    """Z/4: the forms of the virtual row, computed on two packed bit-planes.

    A Z/4 value is ``lo + 2 * hi``; adding two values is an XOR on each plane
    with the carry ``lo & lo`` going into ``hi``, and ``-v`` is ``hi ^= lo``.
    So each row of forms costs a few whole-array bit operations, like GF(2).
    """
    rows, cols = targets.shape
    width = cols + 1
    const_word, const_bit = divmod(cols, 64)
    shift = np.uint64(const_bit)
    cur_lo = gf2.pack(np.eye(cols, dtype=np.uint8), width)
    cur_hi = np.zeros_like(cur_lo)
    above_lo = np.zeros_like(cur_lo)
    above_hi = np.zeros_like(cur_lo)
    for i in range(rows):
        # total = cur + above + left neighbour + right neighbour
        lo = cur_lo ^ above_lo
        hi = cur_hi ^ above_hi
        hi ^= cur_lo & above_lo
        _add4(lo[1:], hi[1:], cur_lo[:-1], cur_hi[:-1])
        _add4(lo[:-1], hi[:-1], cur_lo[1:], cur_hi[1:])
        # next = target - total: negate, then add the target in the constant column
        hi ^= lo
        t = targets[i].astype(np.uint64)
        _add4(lo[:, const_word], hi[:, const_word], (t & np.uint64(1)) << shift,
              (t >> np.uint64(1)) << shift)
        above_lo, above_hi, cur_lo, cur_hi = cur_lo, cur_hi, lo, hi
    return gf2.unpack(cur_lo, width).astype(np.int64) + 2 * gf2.unpack(cur_hi, width)


def _chase_forms_int(targets: np.ndarray, m: int) -> np.ndarray:
    """Z/m: the affine forms ``(C, C + 1)`` of the virtual row below the board.

    For m a power of two up to 256, uint8 arithmetic wraps modulo 256, which is
    exact modulo m as well; otherwise we reduce after every row.
    """
    rows, cols = targets.shape
    wraps = m <= 256 and (m & (m - 1)) == 0
    dtype = np.uint8 if wraps else np.int64
    current = np.zeros((cols, cols + 1), dtype=dtype)
    current[:, :cols] = np.eye(cols, dtype=dtype)
    above = np.zeros_like(current)
    for i in range(rows):
        total = current + above
        total[1:] += current[:-1]
        total[:-1] += current[1:]
        nxt = -total if wraps else (-total) % m
        nxt[:, cols] += targets[i].astype(dtype)
        if not wraps:
            nxt %= m
        above, current = current, nxt
    return current.astype(np.int64) % m


def chase_solve(targets: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray, list[int]] | None:
    """Every click grid ``x`` of a plus-pattern board (no wrap) with ``A x = targets (mod m)``.

    Returns ``(particular, generators, orders)`` with ``particular`` of shape
    ``(R, C)`` and ``generators`` of shape ``(d, R, C)``, or None when the
    last row's conditions cannot be met.
    """
    targets = np.asarray(targets, dtype=np.int64) % m
    rows, cols = targets.shape
    # The virtual row R must come out all zero: its forms are L u + c, so we
    # need L u = -c, a cols x cols system in the first row's clicks u.
    if m == 2:
        first: LinearSolution | None = gf2.solve_packed(_chase_forms_gf2(targets), cols)
    else:
        forms = _chase_forms_z4(targets) if m == 4 else _chase_forms_int(targets, m)
        first = solve_linear(forms[:, :cols], (-forms[:, cols]) % m, m)
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
