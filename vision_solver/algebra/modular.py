"""Exact linear algebra over Z/m: solve ``A x = b (mod m)`` for any modulus m >= 2.

Z/m is a field only when m is prime.  Over Z/4, say, the entry 2 has no
inverse, so a row may never be divided by 2 and a pivot of 2 cannot clear a
1 below it.  The method here works one prime power ``q = p**k`` of m at a
time (Chinese remainder theorem), and over Z/q it always pivots on an entry of
*least p-adic valuation*: every other entry of the remaining block is then a
multiple of the pivot, so each elimination step divides exactly.

Rows and columns are both reduced (Smith normal form), so the answer comes out
in a basis where the solution set is a product of cyclic groups, and every
solution is produced exactly once by the generators returned.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np

from . import gf2


@dataclass
class LinearSolution:
    """Every solution of ``A x = b (mod modulus)``.

    The solutions are exactly ``particular + sum(t_i * generators[i])`` with
    ``0 <= t_i < orders[i]``, each one produced by a single choice of the t_i.
    """

    modulus: int
    particular: np.ndarray  # (n,) int64 in [0, modulus)
    generators: np.ndarray  # (d, n) int64 in [0, modulus)
    orders: list[int]

    @property
    def count(self) -> int:
        """The exact number of solutions (a Python int, however large)."""
        return prod(self.orders, start=1)


def factorize(m: int) -> list[tuple[int, int]]:
    """``m`` as prime powers ``[(p, k), ...]`` in increasing p (trial division, m <= 2**31)."""
    if m < 2:
        raise ValueError(f"modulus must be >= 2, not {m}")
    factors = []
    p = 2
    while p * p <= m:
        if m % p == 0:
            k = 0
            while m % p == 0:
                m //= p
                k += 1
            factors.append((p, k))
        p += 1
    if m > 1:
        factors.append((m, 1))
    return factors


def solve_linear(a: np.ndarray, b: np.ndarray, modulus: int) -> LinearSolution | None:
    """All solutions of ``a @ x = b (mod modulus)``, or ``None`` when there are none."""
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    if a.ndim != 2:
        raise ValueError(f"matrix must be 2-D, not {a.ndim}-D")
    if b.shape != (a.shape[0],):
        raise ValueError(f"right-hand side must have shape ({a.shape[0]},), not {b.shape}")
    parts = []
    for p, k in factorize(modulus):
        part = solve_prime_power(a, b, p, k)
        if part is None:
            return None
        parts.append((p**k, part))
    return combine_crt(modulus, parts)


def kernel(a: np.ndarray, modulus: int) -> LinearSolution:
    """All solutions of ``a @ x = 0 (mod modulus)``."""
    a = np.asarray(a, dtype=np.int64)
    solution = solve_linear(a, np.zeros(a.shape[0], dtype=np.int64), modulus)
    assert solution is not None  # x = 0 always solves a homogeneous system
    return solution


def combine_crt(modulus: int, parts: list[tuple[int, LinearSolution]]) -> LinearSolution:
    """Glue solutions modulo coprime prime powers into one modulo their product."""
    if len(parts) == 1:
        return parts[0][1]
    n = parts[0][1].particular.shape[0]
    particular = np.zeros(n, dtype=object)
    generators: list[np.ndarray] = []
    orders: list[int] = []
    for q, part in parts:
        # e is 1 mod q and 0 mod every other prime power.
        rest = modulus // q
        e = rest * pow(rest, -1, q) % modulus
        particular = (particular + part.particular.astype(object) * e) % modulus
        for g, order in zip(part.generators, part.orders, strict=True):
            generators.append((g.astype(object) * e) % modulus)
            orders.append(order)
    gens = (
        np.array(generators, dtype=np.int64).reshape(len(generators), n)
        if generators
        else np.zeros((0, n), dtype=np.int64)
    )
    return LinearSolution(modulus, particular.astype(np.int64), gens, orders)


def _valuation_pivot(block: np.ndarray, p: int, k: int) -> tuple[int, int, int] | None:
    """Position and valuation of an entry of least p-adic valuation, or None if all are 0."""
    nonzero = block != 0
    if not nonzero.any():
        return None
    power = p
    for v in range(k):
        hit = nonzero & (block % power != 0)
        if hit.any():
            i, j = np.unravel_index(int(np.argmax(hit)), block.shape)
            return int(i), int(j), v
        power *= p
    raise AssertionError("a non-zero entry mod p**k has valuation below k")


def _matvec_mod(matrix: np.ndarray, vector: np.ndarray, q: int) -> np.ndarray:
    """``matrix @ vector mod q`` without int64 overflow."""
    if q <= 2**20:
        out = np.zeros(matrix.shape[0], dtype=np.int64)
        # chunk the sum so n * q**2 never overflows
        step = max(1, (2**62) // (q * q))
        for start in range(0, matrix.shape[1], step):
            out = (out + matrix[:, start : start + step] @ vector[start : start + step]) % q
        return out
    return ((matrix.astype(object) @ vector.astype(object)) % q).astype(np.int64)


def solve_prime_power(a: np.ndarray, b: np.ndarray, p: int, k: int) -> LinearSolution | None:
    """All solutions of ``a @ x = b (mod p**k)``, or None."""
    q = p**k
    if q == 2:
        return gf2.solve(a % 2, b % 2)
    if k > 1 and a.shape[0] == a.shape[1]:
        lifted = _hensel(a, b, p, k)
        if lifted is not None:
            return lifted

    m = a % q
    rhs = b % q
    n_eq, n_var = m.shape
    # R records the column operations: x = R @ y, where y solves the diagonal system.
    transform = np.eye(n_var, dtype=np.int64)
    valuations: list[int] = []

    t = 0
    while t < min(n_eq, n_var):
        # Step 1. Pick the pivot.  In the block still to reduce, take an entry of
        # least p-adic valuation v: it is u * p**v with u a unit, and every other
        # entry of the block is a multiple of p**v, so no step below ever has to
        # divide by p.  A block of zeros means we are done.
        found = _valuation_pivot(m[t:, t:], p, k)
        if found is None:
            break
        i, j, v = found
        i += t
        j += t
        if i != t:
            m[[t, i]] = m[[i, t]]
            rhs[[t, i]] = rhs[[i, t]]
        if j != t:
            m[:, [t, j]] = m[:, [j, t]]
            transform[:, [t, j]] = transform[:, [j, t]]
        pv = p**v

        # Step 2. Scale the pivot row by the inverse of the unit u (allowed: u
        # is invertible mod q), so the pivot becomes exactly p**v.
        unit = int(m[t, t]) // pv
        if unit != 1:
            inv = pow(unit, -1, q)
            m[t, t:] = m[t, t:] * inv % q
            rhs[t] = rhs[t] * inv % q

        # Step 3. Clear the pivot column below the pivot: each entry there is
        # f * p**v for an integer f, so subtract f times the pivot row.
        below = m[t + 1 :, t] // pv
        if below.any():
            m[t + 1 :, t:] = (m[t + 1 :, t:] - np.outer(below, m[t, t:])) % q
            rhs[t + 1 :] = (rhs[t + 1 :] - below * rhs[t]) % q

        # Step 4. Clear the pivot row right of the pivot with column operations.
        # The pivot column is now zero except at the pivot, so these change only
        # the pivot row of the matrix; we record them in R.
        right = m[t, t + 1 :] // pv
        if right.any():
            transform[:, t + 1 :] = (transform[:, t + 1 :] - np.outer(transform[:, t], right)) % q
            m[t, t + 1 :] = 0
        valuations.append(v)
        t += 1
    rank = t

    # Step 5. Read off the diagonal system p**v_t * y_t = rhs_t.  A row with no
    # pivot reads 0 = rhs_t: if rhs_t is not 0 the board is unsolvable.  A pivot
    # row is solvable only when p**v_t divides rhs_t.
    if np.any(rhs[rank:] != 0):
        return None
    y = np.zeros(n_var, dtype=np.int64)
    for t, v in enumerate(valuations):
        if rhs[t] % (p**v):
            return None
        y[t] = rhs[t] // (p**v)

    # Step 6. The solution set: y_t may move by multiples of p**(k - v_t) for a
    # pivot of valuation v_t > 0 (p**v_t choices), and freely (q choices) where
    # no pivot was found.  Map everything back with x = R @ y.
    particular = _matvec_mod(transform, y, q)
    generators = []
    orders = []
    for t, v in enumerate(valuations):
        if v > 0:
            generators.append(transform[:, t] * p ** (k - v) % q)
            orders.append(p**v)
    for t in range(rank, n_var):
        generators.append(transform[:, t].copy())
        orders.append(q)
    gens = np.array(generators, dtype=np.int64).reshape(len(generators), n_var)
    return LinearSolution(q, particular, gens, orders)


def _hensel(a: np.ndarray, b: np.ndarray, p: int, k: int) -> LinearSolution | None:
    """Solve a square system mod p**k by lifting, when it is invertible mod p.

    If ``a`` is invertible mod p it is invertible mod p**k and the solution is
    unique.  Write ``x = y_0 + p y_1 + ... + p**(k-1) y_(k-1)``: each digit y_j
    solves ``a y_j = (b - a x_so_far) / p**j (mod p)``, a system over the field
    Z/p, and the division is exact because the earlier digits already made the
    residual a multiple of p**j.  Returns None when ``a`` is singular mod p.
    """
    q = p**k
    n = a.shape[0]
    reduced = a % q
    inverse_mod_2 = gf2.inverse(reduced) if p == 2 else None
    if p == 2 and inverse_mod_2 is None:
        return None
    x = np.zeros(n, dtype=np.int64)
    power = 1
    for _ in range(k):
        residual = ((b - _matvec_mod(reduced, x, q)) % q // power) % p
        if inverse_mod_2 is not None:
            # uint8 sums wrap modulo 256, which keeps their parity exact.
            digit_values = (inverse_mod_2 @ residual.astype(np.uint8)) & 1
        else:
            digit = solve_prime_power(reduced, residual, p, 1)
            if digit is None or digit.generators.shape[0]:
                return None  # singular mod p: fall back to full elimination
            digit_values = digit.particular
        x = (x + power * digit_values.astype(np.int64)) % q
        power *= p
    return LinearSolution(q, x, np.zeros((0, n), dtype=np.int64), [])
