"""The solve stage: from a board and a rule to the fewest-clicks answer, replayed.

``solve(board, rule)`` checks its inputs, picks a method (light chasing for
large plus-pattern boards, exact elimination over Z/m otherwise), finds the
cheapest of all solutions, replays it on the board and only then returns it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .algebra.chase import chase_solve
from .algebra.ints import reduce_mod
from .algebra.modular import LinearSolution, kernel, solve_linear
from .algebra.search import MAX_CANDIDATES, cheapest
from .errors import BoardInputError, Certificate, ReplayFailed, Unsolvable
from .rules import Rule, apply_presses, press_matrix

#: Boards with more cells than this use light chasing when the rule allows it.
CHASE_ABOVE = 64
#: Largest board (cells) solved by elimination on the full press matrix: bit-packed
#: GF(2) rows go further than integer rows (64 x 64 and 40 x 40 boards, under a few
#: seconds each).
DENSE_LIMIT = {2: 4096}
DENSE_LIMIT_OTHER = 1600


@dataclass
class Solution:
    """The answer to one board.

    ``presses[r, c]`` is how many times to click cell (r, c); with
    ``turn="both"`` it is signed, negative meaning counter-clockwise.
    ``moves`` is the total number of clicks, ``optimal`` says whether no
    solution has fewer (proven by looking at all ``solutions``).
    """

    board: np.ndarray
    rule: Rule
    presses: np.ndarray
    moves: int
    optimal: bool
    solutions: int
    method: str

    @property
    def rows(self) -> int:
        return int(self.board.shape[0])

    @property
    def cols(self) -> int:
        return int(self.board.shape[1])

    def clicks(self) -> list[tuple[int, int, int]]:
        """``(row, col, count)`` for every cell to click, row-major, 0-based."""
        where = np.argwhere(self.presses)
        counts = self.presses[where[:, 0], where[:, 1]]
        return list(zip(where[:, 0].tolist(), where[:, 1].tolist(), counts.tolist(), strict=True))

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``boardsolve solve --json``."""
        return {
            "rows": self.rows,
            "cols": self.cols,
            "states": self.rule.states,
            "solvable": True,
            "presses": self.presses.tolist(),
            "moves": self.moves,
            "optimal": self.optimal,
            "solutions": self.solutions,
        }

    def summary(self, *, short: bool = False) -> str:
        """``7 clicks (optimal), 8 solutions``, the line the CLI prints.

        ``short`` is the overlay's legend, ``7 clicks (optimal)``.  An answer
        not proven optimal says ``best found, not proven optimal`` (short:
        ``best found``).
        """
        clicks = "click" if self.moves == 1 else "clicks"
        if self.optimal:
            proof = "optimal"
        else:
            proof = "best found" if short else "best found, not proven optimal"
        if short:
            return f"{self.moves} {clicks} ({proof})"
        count = "solution" if self.solutions == 1 else "solutions"
        return f"{self.moves} {clicks} ({proof}), {self.solutions} {count}"


def unsolvable_dict(rows: int, cols: int, states: int) -> dict[str, Any]:
    """The JSON object of an unsolvable board: ``Solution.to_dict``'s keys, no answer."""
    return {
        "rows": rows,
        "cols": cols,
        "states": states,
        "solvable": False,
        "presses": None,
        "moves": None,
        "optimal": None,
        "solutions": 0,
    }


def misread_dicts(suspects: list[tuple[int, int, int]]) -> list[dict[str, int]]:
    """``likeliest_misreads``' answer as JSON: 1-based ``row``, ``col`` and the ``value``."""
    return [{"row": r + 1, "col": c + 1, "value": v} for r, c, v in suspects]


def answer_dict(
    board: Any,
    rule: Rule,
    *,
    confidence: np.ndarray | None = None,
    fixed: list[tuple[int, int]] | None = None,
) -> dict[str, Any]:
    """The ``solve --json`` object of ``board``: the answer, or the unsolvable one's keys.

    Given the cells' reading ``confidence``, an unsolvable board also names
    its likeliest ``misreads`` (as ``boardsolve IMAGE --json`` does); cells
    in ``fixed`` (set by hand) are never suspected.  Raises
    ``BoardInputError`` for a bad board.
    """
    try:
        return solve(board, rule).to_dict()
    except Unsolvable:
        cells = check_board(board, rule)
        obj = unsolvable_dict(*cells.shape, rule.states)
        if confidence is not None:
            confidence = np.asarray(confidence, dtype=np.float64)
            if confidence.shape != cells.shape:
                raise BoardInputError(
                    f"confidence has shape {confidence.shape}, the board {cells.shape}"
                ) from None
            obj["misreads"] = misread_dicts(
                likeliest_misreads(cells, confidence, rule, fixed=fixed)
            )
        return obj


def check_board(board: Any, rule: Rule) -> np.ndarray:
    """The board as an int64 array, or BoardInputError naming what is wrong."""
    try:
        array = np.asarray(board)
    except ValueError as exc:  # ragged nested lists
        raise BoardInputError(f"board rows must all have the same length ({exc})") from None
    if array.ndim != 2:
        raise BoardInputError(f"board must be 2-D (rows x cols), not {array.ndim}-D")
    if array.size == 0:
        raise BoardInputError(f"board is empty (shape {array.shape})")
    if not np.issubdtype(array.dtype, np.integer):
        if np.issubdtype(array.dtype, np.floating) and np.all(np.mod(array, 1) == 0):
            array = array.astype(np.int64)
        else:
            raise BoardInputError(f"board cells must be integers, not {array.dtype}")
    array = array.astype(np.int64, copy=False)
    if array.min() < 0 or array.max() >= rule.states:
        r, c = np.argwhere((array < 0) | (array >= rule.states))[0]
        raise BoardInputError(
            f"cell ({r + 1},{c + 1}) holds {array[r, c]}, not a state of Z/{rule.states} "
            f"(0..{rule.states - 1})"
        )
    return array


def click_targets(cells: np.ndarray, rule: Rule) -> np.ndarray:
    """What the presses covering each cell must add up to (mod m).

    Each click adds delta = +-1 to its cells, so that is delta * (goal - state):
    delta is its own inverse.
    """
    return reduce_mod(rule.delta * (rule.goal - cells), rule.states)


def cost_table(rule: Rule) -> np.ndarray:
    """Clicks needed for each press value v in Z/m."""
    values = np.arange(rule.states, dtype=np.int64)
    if rule.turn == "both":
        return np.minimum(values, rule.states - values)
    return values


def solve(board: Any, rule: Rule | None = None, *, limit: int = MAX_CANDIDATES) -> Solution:
    """Solve ``board`` under ``rule`` (default: lights-out).

    Raises ``Unsolvable`` (with a certificate naming conflicting cells) when no
    clicks reach the goal, and ``BoardInputError`` for a bad board.
    """
    rule = rule or Rule()
    cells = check_board(board, rule)
    targets = click_targets(cells, rule)

    found = _solution_set(targets, rule)
    if found is None:
        raise Unsolvable(_certificate(cells, targets, rule))
    particular, generators, orders, method = found
    count = 1
    for order in orders:
        count *= order

    best = cheapest(particular, generators, orders, cost_table(rule), limit=limit)
    presses = rule.signed(best.presses)
    replay = apply_presses(cells, presses, rule)
    if np.any(replay != rule.goal):
        wrong = np.argwhere(replay != rule.goal)[0]
        raise ReplayFailed(
            f"replaying the answer leaves cell ({wrong[0] + 1},{wrong[1] + 1}) at "
            f"{replay[tuple(wrong)]}, not {rule.goal}: this is a bug"
        )
    return Solution(
        board=cells,
        rule=rule,
        presses=presses,
        moves=rule.cost(presses),
        optimal=best.optimal,
        solutions=count,
        method=method,
    )


def _uses_chase(shape: tuple[int, int], rule: Rule) -> bool:
    return rule.pattern == "plus" and not rule.wrap and shape[0] * shape[1] > CHASE_ABOVE


def _solution_set(
    targets: np.ndarray, rule: Rule
) -> tuple[np.ndarray, np.ndarray, list[int], str] | None:
    """``(particular, generators, orders, method)`` of ``A x = targets``, or None."""
    rows, cols = targets.shape
    m = rule.states
    if _uses_chase(targets.shape, rule):
        # Chase along the longer side so the first row holds the fewer unknowns.
        flip = cols > rows
        chased = chase_solve(targets.T if flip else targets, m)
        if chased is None:
            return None
        particular, gens, orders = chased
        if flip:
            particular, gens = particular.T, np.transpose(gens, (0, 2, 1))
        return particular, gens, orders, "chase"
    limit = DENSE_LIMIT.get(m, DENSE_LIMIT_OTHER)
    if rows * cols > limit:
        raise BoardInputError(
            f"a {rows}x{cols} board with pattern {rule.pattern!r}"
            f"{' and wrap' if rule.wrap else ''} mod {m} is too large for exact elimination "
            f"(at most {limit} cells; plus-pattern boards without wrap have no limit)"
        )
    solution = solve_linear(press_matrix(rule, (rows, cols)), targets.reshape(-1), m)
    if solution is None:
        return None
    gens = solution.generators.reshape(-1, rows, cols)
    method = "gf2" if m == 2 else "smith"
    return solution.particular.reshape(rows, cols), gens, solution.orders, method


def quiet_patterns(shape: tuple[int, int], rule: Rule) -> LinearSolution:
    """Every click grid that changes nothing (the kernel of the press matrix)."""
    rows, cols = shape
    zero = np.zeros(shape, dtype=np.int64)
    if _uses_chase(shape, rule):
        found = _solution_set(zero, rule)
        assert found is not None
        _, gens, orders, _ = found
        return LinearSolution(rule.states, zero.reshape(-1), gens.reshape(len(orders), -1), orders)
    return kernel(press_matrix(rule, shape), rule.states)


def _certificate(cells: np.ndarray, targets: np.ndarray, rule: Rule) -> Certificate:
    """Cells whose states cannot all be fixed together.

    Every pattern the rule allows is symmetric (cell a is in b's pattern exactly
    when b is in a's), so a weighting w of the cells that no click changes is a
    click grid that changes nothing.  The board is unsolvable exactly when one
    of those has ``w . targets != 0``; we report one with the fewest cells.
    """
    m = rule.states
    quiet = quiet_patterns(cells.shape, rule)
    flat_targets = targets.reshape(-1)
    gens = quiet.generators % m
    products = (gens @ flat_targets) % m
    witness: np.ndarray | None = None
    if quiet.count <= 1 << 12:
        best_support = None
        for combo in np.ndindex(*quiet.orders):
            weights = np.zeros(flat_targets.size, dtype=np.int64)
            for c, g in zip(combo, gens, strict=True):
                if c:
                    weights = (weights + c * g) % m
            if (weights @ flat_targets) % m == 0:
                continue
            support = int(np.count_nonzero(weights))
            if best_support is None or support < best_support:
                best_support, witness = support, weights
    if witness is None:
        candidates = [g for g, p in zip(gens, products, strict=True) if p % m]
        assert candidates, "an unsolvable board must have a quiet pattern it fails"
        witness = min(candidates, key=np.count_nonzero)
    weights = witness.reshape(cells.shape)
    needed = int((weights.reshape(-1) @ ((rule.goal - cells) % m).reshape(-1)) % m)
    marked = [(int(r), int(c)) for r, c in np.argwhere(weights != 0)]
    return Certificate(weights=weights, states=m, needed=needed, cells=marked)


def likeliest_misreads(
    board: Any,
    confidence: np.ndarray,
    rule: Rule,
    *,
    candidates: int = 12,
    fixed: list[tuple[int, int]] | None = None,
) -> list[tuple[int, int, int]]:
    """The fewest, least confident cell changes that make an unsolvable board solvable.

    A board is solvable exactly when every quiet pattern w (see
    ``_certificate``) has ``w . targets = 0``.  Changing one cell moves those
    sums by a known column, so the test needs no new elimination: we look at
    single cells first, least confident first, then pairs among the
    ``candidates`` least confident cells; cells in ``fixed`` (set by hand) are
    never suspected.  Returns ``[(row, col, new_state)]``, empty when the board
    is solvable as it is or no such small change exists.
    """
    cells = check_board(board, rule)
    m = rule.states
    targets = click_targets(cells, rule).reshape(-1)
    quiet = quiet_patterns(cells.shape, rule)
    gens = quiet.generators % m
    syndrome = (gens @ targets) % m
    if not syndrome.any():
        return []
    flat_conf = np.asarray(confidence, dtype=np.float64).reshape(-1)
    cols = cells.shape[1]
    trusted = {r * cols + c for r, c in fixed or []}
    order = [int(k) for k in np.argsort(flat_conf, kind="stable") if int(k) not in trusted]
    order = order[: max(1, candidates)]

    def shift(index: int, value: int) -> np.ndarray:
        # new target minus old target of that cell, times its syndrome column
        change = (rule.delta * (cells.flat[index] - value)) % m
        return (gens[:, index] * change) % m

    singles = [
        (flat_conf[k], int(k), v)
        for k in order
        for v in range(m)
        if v != cells.flat[k] and not ((syndrome + shift(int(k), v)) % m).any()
    ]
    if singles:
        _, k, v = min(singles)
        return [(k // cols, k % cols, v)]
    pairs = []
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            for va in range(m):
                if va == cells.flat[a]:
                    continue
                partial = syndrome + shift(int(a), va)
                for vb in range(m):
                    if vb != cells.flat[b] and not ((partial + shift(int(b), vb)) % m).any():
                        pairs.append((flat_conf[a] + flat_conf[b], int(a), va, int(b), vb))
    if not pairs:
        return []
    _, a, va, b, vb = min(pairs)
    return [(a // cols, a % cols, va), (b // cols, b % cols, vb)]
