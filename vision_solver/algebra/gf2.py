"""Linear algebra over GF(2) on bit-packed rows.

Each row of a 0/1 matrix is packed into numpy ``uint64`` words (bit j of a row
lives in word ``j // 64`` at bit ``j % 64``), so adding one row to many others
is a single whole-array XOR.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .modular import LinearSolution

_ONE = np.uint64(1)


def words_for(bits: int) -> int:
    """Number of uint64 words that hold ``bits`` bits."""
    return (bits + 63) // 64


def pack(bits: np.ndarray, width: int | None = None) -> np.ndarray:
    """Pack a 2-D 0/1 array ``(rows, n)`` into ``(rows, words_for(width or n))`` uint64."""
    bits = np.asarray(bits)
    if bits.ndim != 2:
        raise ValueError(f"bits must be 2-D, not {bits.ndim}-D")
    rows, n = bits.shape
    width = n if width is None else width
    w = words_for(width)
    padded = np.zeros((rows, w * 64), dtype=np.uint8)
    padded[:, :n] = bits & 1
    return np.packbits(padded, axis=1, bitorder="little").view("<u8").reshape(rows, w)


def unpack(words: np.ndarray, n: int) -> np.ndarray:
    """Inverse of :func:`pack`: ``(rows, w)`` uint64 -> ``(rows, n)`` uint8 of 0/1."""
    words = np.ascontiguousarray(words, dtype="<u8")
    as_bytes = words.view(np.uint8).reshape(words.shape[0], words.shape[1] * 8)
    return np.unpackbits(as_bytes, axis=1, bitorder="little")[:, :n]


def get_bit(words: np.ndarray, col: int) -> np.ndarray:
    """Column ``col`` of a packed matrix, as a 0/1 uint64 vector."""
    return (words[:, col >> 6] >> np.uint64(col & 63)) & _ONE


def eliminate(rows: np.ndarray, n_cols: int) -> tuple[np.ndarray, list[int]]:
    """Reduced row echelon form of packed ``rows`` over the first ``n_cols`` columns.

    Works in place on a copy and returns ``(reduced, pivot_columns)``; the rows
    ``0..rank-1`` of ``reduced`` carry the pivots, in column order.  Bits at or
    beyond ``n_cols`` (an augmented right-hand side) are carried along.
    """
    m = np.array(rows, dtype=np.uint64, copy=True)
    n_rows = m.shape[0]
    pivots: list[int] = []
    rank = 0
    for col in range(n_cols):
        if rank == n_rows:
            break
        w = col >> 6
        column = ((m[:, w] >> np.uint64(col & 63)) & _ONE).astype(bool)
        # A pivot for this column must come from the rows not yet used.
        candidates = np.flatnonzero(column[rank:])
        if candidates.size == 0:
            continue
        pick = rank + int(candidates[0])
        if pick != rank:
            m[[rank, pick]] = m[[pick, rank]]
            column[[rank, pick]] = column[[pick, rank]]
        # Every other row holding this column gets the pivot row added (XOR).
        # The pivot row is zero left of word w, so only words w.. change.
        column[rank] = False
        targets = np.flatnonzero(column)
        if targets.size:
            m[targets, w:] ^= m[rank, w:]
        pivots.append(col)
        rank += 1
    return m, pivots


def solve_packed(augmented: np.ndarray, n_vars: int) -> LinearSolution | None:
    """Solve a packed augmented system whose bit ``n_vars`` is the right-hand side."""
    from .modular import LinearSolution

    reduced, pivots = eliminate(augmented, n_vars)
    rank = len(pivots)
    # A row below the pivots is all zero on the left; if its right-hand bit is 1
    # it reads 0 = 1 and the system has no solution.
    rhs = get_bit(reduced, n_vars)
    if np.any(rhs[rank:]):
        return None
    pivot_cols = np.array(pivots, dtype=np.int64)
    particular = np.zeros(n_vars, dtype=np.int64)
    particular[pivot_cols] = rhs[:rank].astype(np.int64)

    free = np.setdiff1d(np.arange(n_vars), pivot_cols)
    generators = np.zeros((free.size, n_vars), dtype=np.int64)
    if free.size:
        # Setting one free variable to 1 forces each pivot variable to equal the
        # coefficient of that free variable in its row.
        dense = unpack(reduced[:rank], n_vars)
        generators[np.arange(free.size), free] = 1
        generators[:, pivot_cols] = dense[:, free].T
    return LinearSolution(2, particular, generators, [2] * int(free.size))


def solve(a: np.ndarray, b: np.ndarray) -> LinearSolution | None:
    """All solutions of ``a @ x = b`` over GF(2), or None when there are none."""
    a = np.asarray(a)
    n_vars = a.shape[1]
    augmented = np.concatenate([a & 1, (np.asarray(b) & 1)[:, None]], axis=1).astype(np.uint8)
    return solve_packed(pack(augmented), n_vars)


def inverse(a: np.ndarray) -> np.ndarray | None:
    """The inverse of a square 0/1 matrix over GF(2) as uint8, or None if singular.

    Eliminates ``[a | I]``: once the left half is the identity, the right half
    is the inverse.
    """
    n = a.shape[0]
    augmented = np.concatenate([np.asarray(a, dtype=np.uint8) & 1, np.eye(n, dtype=np.uint8)], 1)
    reduced, pivots = eliminate(pack(augmented), n)
    if len(pivots) < n:
        return None
    return unpack(reduced, 2 * n)[:, n:]
