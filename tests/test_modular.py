"""Z/m linear algebra on arbitrary small systems, against brute force."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision_solver.algebra import gf2
from vision_solver.algebra.modular import factorize, solve_linear


@st.composite
def systems(draw):
    m = draw(st.sampled_from([2, 3, 4, 6, 8, 9, 12]))
    n_var = draw(st.integers(1, 4 if m <= 4 else 3))
    n_eq = draw(st.integers(1, 4))
    a = draw(st.lists(st.integers(0, m - 1), min_size=n_eq * n_var, max_size=n_eq * n_var))
    b = draw(st.lists(st.integers(0, m - 1), min_size=n_eq, max_size=n_eq))
    return np.array(a).reshape(n_eq, n_var), np.array(b), m


@settings(max_examples=400, deadline=None)
@given(systems())
def test_solution_set_is_exact(system):
    """The generators produce every solution exactly once, and nothing else."""
    a, b, m = system
    brute = {
        x
        for x in itertools.product(range(m), repeat=a.shape[1])
        if np.all((a @ np.array(x) - b) % m == 0)
    }
    sol = solve_linear(a, b, m)
    if not brute:
        assert sol is None
        return
    assert sol is not None
    assert sol.count == len(brute)
    produced = set()
    for coeffs in itertools.product(*(range(o) for o in sol.orders)):
        x = sol.particular.copy()
        for c, g in zip(coeffs, sol.generators, strict=True):
            x = (x + c * g) % m
        produced.add(tuple(int(v) for v in x))
    assert produced == brute


def test_factorize():
    assert factorize(2) == [(2, 1)]
    assert factorize(12) == [(2, 2), (3, 1)]
    assert factorize(97) == [(97, 1)]
    assert factorize(2**31) == [(2, 31)]


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 200), st.integers(1, 5), st.integers(0, 2**32))
def test_pack_round_trip(n, rows, seed):
    bits = np.random.default_rng(seed).integers(0, 2, size=(rows, n)).astype(np.uint8)
    assert np.array_equal(gf2.unpack(gf2.pack(bits), n), bits)


def test_gf2_matches_dense_on_random_systems():
    rng = np.random.default_rng(7)
    for n in (63, 64, 65, 130):
        a = rng.integers(0, 2, size=(n, n))
        x = rng.integers(0, 2, size=n)
        b = a @ x % 2
        sol = gf2.solve(a, b)
        assert sol is not None
        assert np.all(a @ sol.particular % 2 == b)
        for g in sol.generators:
            assert np.all(a @ g % 2 == 0)
