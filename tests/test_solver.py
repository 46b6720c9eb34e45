"""The solver against an independent brute force, and its known results."""

from __future__ import annotations

import numpy as np
import pytest
from brute import all_solutions, fewest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vision_solver import BoardInputError, Rule, Unsolvable, apply_presses, solve
from vision_solver.rules import press_matrix

# Largest brute-force search per modulus: states ** cells click grids.
MAX_GRIDS = 4096


@st.composite
def tiny_cases(draw):
    states = draw(st.sampled_from([2, 3, 4, 6]))
    pattern = draw(st.sampled_from(["plus", "rowcol", "square", "x"]))
    wrap = draw(st.booleans())
    turn = draw(st.sampled_from(["cw", "ccw", "both"]))
    max_cells = 1
    while states ** (max_cells + 1) <= MAX_GRIDS:
        max_cells += 1
    rows = draw(st.integers(1, max_cells))
    cols = draw(st.integers(1, max(1, max_cells // rows)))
    goal = draw(st.integers(0, states - 1))
    board = draw(
        st.lists(
            st.lists(st.integers(0, states - 1), min_size=cols, max_size=cols),
            min_size=rows,
            max_size=rows,
        )
    )
    rule = Rule(states=states, pattern=pattern, wrap=wrap, turn=turn, goal=goal)
    return np.array(board, dtype=np.int64), rule


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_cases())
def test_matches_brute_force(case):
    """Solution count, fewest clicks and unsolvability agree with brute force."""
    board, rule = case
    expected = all_solutions(board, rule.states, rule.pattern, rule.wrap, rule.delta, rule.goal)
    if len(expected) == 0:
        with pytest.raises(Unsolvable) as info:
            solve(board, rule)
        cert = info.value.certificate
        # The certificate is real: no click changes the weighted sum, the goal does.
        a = press_matrix(rule, board.shape)
        w = cert.weights.reshape(-1)
        assert np.all((w @ a) % rule.states == 0)
        assert (w @ (rule.goal - board).reshape(-1)) % rule.states == cert.needed != 0
        return
    result = solve(board, rule)
    assert result.solutions == len(expected)
    assert result.optimal
    assert result.moves == fewest(expected, rule.states, both=rule.turn == "both")
    assert np.all(apply_presses(board, result.presses, rule) == rule.goal)


def random_solvable(rows, cols, rule, seed):
    """A board made by clicking at random from the goal, so it is solvable."""
    rng = np.random.default_rng(seed)
    goal = np.full((rows, cols), rule.goal, dtype=np.int64)
    presses = rng.integers(0, rule.states, size=(rows, cols))
    return apply_presses(goal, -presses, rule)


@pytest.mark.parametrize(
    ("rows", "cols", "states"),
    [(30, 30, 2), (17, 40, 2), (40, 9, 4), (25, 25, 3), (20, 21, 6), (9, 9, 4)],
)
def test_large_plus_boards_replay(rows, cols, states):
    """Light chasing on larger boards: the answer replays to the goal."""
    rule = Rule(states=states, pattern="plus", turn="cw")
    board = random_solvable(rows, cols, rule, seed=rows * cols)
    result = solve(board, rule)
    assert result.method == "chase"
    assert np.all(apply_presses(board, result.presses, rule) == 0)


@pytest.mark.parametrize("pattern", ["rowcol", "square", "x"])
@pytest.mark.parametrize("states", [2, 4, 6])
def test_other_patterns_replay(pattern, states):
    rule = Rule(states=states, pattern=pattern, wrap=True)
    board = random_solvable(7, 8, rule, seed=states)
    result = solve(board, rule)
    assert np.all(apply_presses(board, result.presses, rule) == 0)


@pytest.mark.parametrize(("n", "count"), [(4, 16), (5, 4), (6, 1), (9, 256), (11, 64)])
def test_lights_out_nullity(n, count):
    """An n x n board's solution count is 2**nullity (known values)."""
    result = solve(np.ones((n, n), dtype=np.int64), Rule.preset("lights-out"))
    assert result.solutions == count


@pytest.mark.parametrize("n", range(1, 21))
def test_all_lit_always_solvable(n):
    """The all-lit board is solvable for every size (A symmetric with a 1-diagonal)."""
    board = np.ones((n, n + 1), dtype=np.int64)
    result = solve(board, Rule.preset("lights-out"))
    assert np.all(apply_presses(board, result.presses, Rule.preset("lights-out")) == 0)


def test_cross_flip_sample_takes_two_clicks_in_opposite_corners():
    """Seed sample: +++- / +--+ / +--+ / -+++ takes 2 clicks, at (1,1) and (4,4)."""
    board = np.array([[1, 1, 1, 0], [1, 0, 0, 1], [1, 0, 0, 1], [0, 1, 1, 1]])
    result = solve(board, Rule.preset("cross-flip"))
    assert result.moves == 2
    assert [(r + 1, c + 1) for r, c, _ in result.clicks()] == [(1, 1), (4, 4)]
    assert result.optimal


def test_moon_legend_sample_has_eight_solutions_the_fewest_of_seven_clicks():
    """Seed sample 3 2 0 / 1 3 2: 8 solutions; the fewest take 7 clicks."""
    board = np.array([[3, 2, 0], [1, 3, 2]])
    rule = Rule.preset("moon-legend")
    result = solve(board, rule)
    assert result.solutions == 8
    assert result.moves == 7 == fewest(all_solutions(board, 4), 4)
    assert result.optimal


def test_moon_legend_sample_both_ways_takes_fewest_clicks_some_counter_clockwise():
    board = np.array([[3, 2, 0], [1, 3, 2]])
    result = solve(board, Rule.preset("moon-legend", turn="both"))
    assert result.moves == fewest(all_solutions(board, 4), 4, both=True)
    assert result.presses.min() < 0  # some cells are cheaper counter-clockwise


def test_mod4_elimination_never_pivots_on_two():
    """A system where pivoting on 2 goes wrong: only valuation pivoting finds x."""
    # 2x + y = 1, x + 2y = 0 (mod 4) has the unique solution x = 2, y = 1.
    from vision_solver.algebra.modular import solve_linear

    a, b = np.array([[2, 1], [1, 2]]), np.array([1, 0])
    brute = [(x, y) for x in range(4) for y in range(4) if np.all((a @ [x, y] - b) % 4 == 0)]
    assert brute == [(2, 1)]
    sol = solve_linear(a, b, 4)
    assert sol is not None
    assert sol.particular.tolist() == [2, 1]
    assert sol.count == 1


def test_unsolvable_certificate_message():
    board = np.zeros((5, 5), dtype=np.int64)
    board[0, 0] = 1
    with pytest.raises(Unsolvable, match="cannot all be fixed together"):
        solve(board, Rule.preset("lights-out"))


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ([1, 0], "2-D"),
        ([[]], "empty"),
        ([[0, 2]], "holds 2"),
        ([[0.5]], "integers"),
    ],
)
def test_bad_boards_rejected(board, message):
    with pytest.raises(BoardInputError, match=message):
        solve(board, Rule())


def test_rule_checks_its_inputs():
    with pytest.raises(BoardInputError, match="pattern"):
        Rule(pattern="star")
    with pytest.raises(BoardInputError, match="goal"):
        Rule(states=2, goal=2)
    with pytest.raises(BoardInputError, match="states"):
        Rule(states=1)


def test_large_kernel_reports_not_proven():
    """Past the proof limit the answer is still correct but not claimed optimal."""
    rule = Rule.preset("lights-out")
    board = np.ones((9, 9), dtype=np.int64)  # 256 solutions
    result = solve(board, rule, limit=16)
    assert not result.optimal
    assert np.all(apply_presses(board, result.presses, rule) == 0)
    full = solve(board, rule)
    assert full.optimal and full.moves <= result.moves


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.sampled_from([2, 3, 4, 6, 8]), st.integers(0, 9))
def test_chase_agrees_with_elimination(rows, cols, states, seed):
    """Light chasing and full elimination give the same solution set."""
    from vision_solver.algebra.chase import chase_solve
    from vision_solver.algebra.modular import solve_linear

    rule = Rule(states=states)
    board = np.random.default_rng(seed).integers(0, states, (rows, cols))
    targets = (-board) % states
    chased = chase_solve(targets, states)
    direct = solve_linear(press_matrix(rule, (rows, cols)), targets.reshape(-1), states)
    assert (chased is None) == (direct is None)
    if chased is not None:
        particular, gens, orders = chased
        assert np.prod(orders, dtype=object) == direct.count
        assert np.all(apply_presses(board, particular, rule) == 0)
        for g in gens:
            assert np.all(apply_presses(np.zeros_like(board), g, rule) == 0)


def test_replay_catches_a_wrong_answer(monkeypatch):
    """A solver bug that returns a wrong grid fails loudly instead of printing it.

    The bug is planted in the public search for the fewest clicks
    (``algebra.search.cheapest``), as ``solve`` calls it: its answer has one
    cell clicked once more.
    """
    import dataclasses
    import importlib

    from vision_solver import ReplayFailed
    from vision_solver.algebra.search import cheapest

    solve_module = importlib.import_module("vision_solver.solve")  # (not the solve function)

    def broken(particular, generators, orders, cost_table, **options):
        best = cheapest(particular, generators, orders, cost_table, **options)
        wrong = best.presses.copy()
        wrong[0, 0] = (wrong[0, 0] + 1) % len(cost_table)
        return dataclasses.replace(best, presses=wrong)

    monkeypatch.setattr(solve_module, "cheapest", broken)
    with pytest.raises(ReplayFailed, match="this is a bug"):
        solve(np.array([[1, 1], [1, 0]]), Rule.preset("lights-out"))


def test_too_large_for_elimination_is_a_clear_error():
    with pytest.raises(BoardInputError, match="too large for exact elimination"):
        solve(np.zeros((50, 50), dtype=np.int64), Rule(states=3, pattern="x"))


def test_likeliest_misread_is_the_doubtful_cell():
    """An unsolvable read with one doubtful cell: changing that cell fixes it."""
    from vision_solver.solve import likeliest_misreads

    rule = Rule.preset("lights-out")
    board = np.zeros((5, 5), dtype=np.int64)
    board[0, 0] = 1  # unsolvable on 5x5
    confidence = np.ones((5, 5))
    confidence[0, 0] = 0.3
    changes = likeliest_misreads(board, confidence, rule)
    assert changes == [(0, 0, 0)]
    fixed = board.copy()
    for r, c, v in changes:
        fixed[r, c] = v
    solve(fixed, rule)  # does not raise


def test_likeliest_misreads_empty_when_solvable():
    from vision_solver.solve import likeliest_misreads

    board = np.ones((5, 5), dtype=np.int64)
    assert likeliest_misreads(board, np.ones((5, 5)), Rule.preset("lights-out")) == []


def test_puzzle_kind_is_its_plain_name_in_json_and_comparisons():
    import json

    from vision_solver.rules import PRESETS, PUZZLE_KIND, PuzzleKind

    assert json.dumps({"puzzle": PuzzleKind.lights}) == '{"puzzle": "lights"}'
    assert PuzzleKind.arrows == "arrows" and f"{PuzzleKind.arrows}" == "arrows"
    assert set(PUZZLE_KIND) == set(PRESETS)
    for kind in PuzzleKind:
        assert PUZZLE_KIND[kind.preset] is kind
        assert kind.states == Rule.preset(kind.preset).states


def test_summary_long_for_the_cli_short_for_the_legend():
    from dataclasses import replace

    one = solve([[1, 1], [1, 0]], Rule.preset("lights-out"))
    assert one.summary() == "1 click (optimal), 1 solution"
    assert one.summary(short=True) == "1 click (optimal)"
    unproven = replace(one, moves=3, optimal=False, solutions=8)
    assert unproven.summary() == "3 clicks (best found, not proven optimal), 8 solutions"
    assert unproven.summary(short=True) == "3 clicks (best found)"


def test_unsolvable_dict_has_the_keys_of_a_solution():
    from vision_solver.solve import unsolvable_dict

    solution = solve([[1, 1], [1, 0]], Rule.preset("lights-out"))
    obj = unsolvable_dict(2, 3, 4)
    assert list(obj) == list(solution.to_dict())
    assert obj == {
        "rows": 2,
        "cols": 3,
        "states": 4,
        "solvable": False,
        "presses": None,
        "moves": None,
        "optimal": None,
        "solutions": 0,
    }
