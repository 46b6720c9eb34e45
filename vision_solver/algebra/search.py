"""Fewest clicks: the cheapest element of a coset ``particular + span(generators)``.

Every solution of a board is ``x0 + sum(t_i * g_i)`` (mod m), each one exactly
once.  When there are at most ``limit`` of them we look at all of them, so the
minimum found is proven; otherwise we run a bounded local search and report
the best one found as not proven.

The cost of a cell holding press value ``v`` is ``cost_table[v]``: ``v``
clicks for one-way games, ``min(v, m - v)`` when both turn directions are
allowed.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from math import prod

import numpy as np

#: Default proof limit: look at every solution when there are at most this many.
MAX_CANDIDATES = 1 << 24
#: Cap on candidate cells visited (candidates x cells) for very large boards.
MAX_WORK = 1 << 34


@dataclass
class Cheapest:
    presses: np.ndarray  # same shape as the particular solution
    cost: int
    optimal: bool
    examined: int


def cheapest(
    particular: np.ndarray,
    generators: np.ndarray,
    orders: list[int],
    cost_table: np.ndarray,
    *,
    limit: int = MAX_CANDIDATES,
    seed: int = 0,
) -> Cheapest:
    """The cheapest solution of the coset; ``optimal`` when every element was examined."""
    shape = particular.shape
    m = len(cost_table)
    x0 = particular.reshape(-1).astype(np.int64, copy=False)  # already reduced mod m
    gens = generators.reshape(len(orders), x0.size).astype(np.int64) % m
    cost_table = np.asarray(cost_table, dtype=np.int64)
    total = prod(orders, start=1)
    if total == 1:
        cost = int(np.count_nonzero(x0)) if m == 2 else int(cost_table[x0].sum())
        return Cheapest(x0.reshape(shape), cost, True, 1)
    n = max(1, x0.size)
    if total <= limit and total * n <= MAX_WORK:
        if m == 2:
            best, cost = _exhaustive_gf2(x0, gens)
        else:
            best, cost = _exhaustive(x0, gens, orders, cost_table)
        return Cheapest(best.reshape(shape), cost, True, total)
    best, cost, examined = _local_search(x0, gens, orders, cost_table, seed=seed)
    return Cheapest(best.reshape(shape), cost, False, examined)


def _popcount_rows(words: np.ndarray) -> np.ndarray:
    return np.bitwise_count(words).sum(axis=-1, dtype=np.int64)


def _exhaustive_gf2(x0: np.ndarray, gens: np.ndarray) -> tuple[np.ndarray, int]:
    """All 2**d solutions over GF(2): a table of half the generators, Gray code over the rest."""
    from .gf2 import pack, unpack

    n = x0.size
    d = gens.shape[0]
    base = pack(x0[None, :].astype(np.uint8))[0]
    packed = pack(gens.astype(np.uint8)) if d else np.zeros((0, base.size), np.uint64)
    words = base.size
    # Inner table: every combination of the first `a` generators (<= ~32 MiB).
    a = d
    while a > 0 and (1 << a) * words * 8 > 32 << 20:
        a -= 1
    table = np.zeros((1 << a, words), dtype=np.uint64)
    for i in range(a):
        table[1 << i : 2 << i] = table[: 1 << i] ^ packed[i]
    outer = base.copy()
    best_cost = None
    best_vec = None
    # Gray code over the remaining generators: each step flips one of them.
    for step in range(1 << (d - a)):
        if step:
            flip = a + (step & -step).bit_length() - 1
            outer ^= packed[flip]
        costs = _popcount_rows(table ^ outer)
        i = int(np.argmin(costs))
        if best_cost is None or costs[i] < best_cost:
            best_cost = int(costs[i])
            best_vec = table[i] ^ outer
    assert best_vec is not None and best_cost is not None
    return unpack(best_vec[None, :], n)[0].astype(np.int64), best_cost


def _exhaustive(
    x0: np.ndarray, gens: np.ndarray, orders: list[int], cost_table: np.ndarray
) -> tuple[np.ndarray, int]:
    """All solutions over Z/m: a table of combinations of some generators, loop over the rest."""
    m = len(cost_table)
    n = x0.size
    d = len(orders)
    # Inner table over generators 0..a-1, kept under ~2**22 cells.
    a, size = 0, 1
    while a < d and size * orders[a] * n <= 1 << 22:
        size *= orders[a]
        a += 1
    table = x0[None, :].copy()
    for i in range(a):
        steps = np.arange(orders[i], dtype=np.int64)[:, None, None] * gens[i][None, None, :]
        table = ((table[None, :, :] + steps) % m).reshape(-1, n)
    best_cost = None
    best_vec = None
    for coeffs in product(*(range(o) for o in orders[a:])):
        shift = np.zeros(n, dtype=np.int64)
        for c, g in zip(coeffs, gens[a:], strict=True):
            if c:
                shift += c * g
        candidates = (table + shift) % m
        costs = cost_table[candidates].sum(axis=1)
        i = int(np.argmin(costs))
        if best_cost is None or costs[i] < best_cost:
            best_cost = int(costs[i])
            best_vec = candidates[i].copy()
    assert best_vec is not None and best_cost is not None
    return best_vec, best_cost


def _local_search(
    x0: np.ndarray,
    gens: np.ndarray,
    orders: list[int],
    cost_table: np.ndarray,
    *,
    seed: int,
    restarts: int = 8,
) -> tuple[np.ndarray, int, int]:
    """Best found by steepest descent over single generator moves, with random restarts."""
    m = len(cost_table)
    rng = np.random.default_rng(seed)
    examined = 0
    # Candidate moves: every non-zero multiple of every generator.
    moves = [(c * g) % m for g, o in zip(gens, orders, strict=True) for c in range(1, o)]
    move_stack = np.array(moves, dtype=np.int64) if moves else np.zeros((0, x0.size), np.int64)
    max_rounds = 64
    best = x0.copy()
    best_cost = int(cost_table[x0].sum())
    for attempt in range(restarts):
        x = x0.copy()
        if attempt:
            for g, o in zip(gens, orders, strict=True):
                x = (x + int(rng.integers(o)) * g) % m
        cost = int(cost_table[x].sum())
        for _ in range(max_rounds):
            if not len(move_stack):
                break
            # Evaluate moves in chunks to bound memory on large boards.
            chunk = max(1, (1 << 24) // max(1, x.size))
            best_move, best_move_cost = -1, cost
            for start in range(0, len(move_stack), chunk):
                block = (x[None, :] + move_stack[start : start + chunk]) % m
                costs = cost_table[block].sum(axis=1)
                examined += len(block)
                i = int(np.argmin(costs))
                if costs[i] < best_move_cost:
                    best_move, best_move_cost = start + i, int(costs[i])
            if best_move < 0:
                break
            x = (x + move_stack[best_move]) % m
            cost = best_move_cost
        if cost < best_cost:
            best, best_cost = x, cost
    return best, best_cost, examined
