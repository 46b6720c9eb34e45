"""The puzzle model: what a click does to an R x C board of states in Z/m.

A board is an ``(rows, cols)`` integer array with values in ``0..states-1``.
A click on a cell adds ``delta`` (+1, or -1 for counter-clockwise games) to
every cell of its *pattern*, modulo ``states``.  Each cell of the pattern is
changed once, even where ``wrap`` makes two offsets land on the same cell.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Literal, get_args

import numpy as np

from .algebra.ints import reduce_mod, work_dtype
from .errors import BoardInputError

Pattern = Literal["plus", "rowcol", "square", "x"]
Turn = Literal["cw", "ccw", "both"]

PATTERNS: tuple[Pattern, ...] = get_args(Pattern)
TURNS: tuple[Turn, ...] = get_args(Turn)

_OFFSETS: dict[str, tuple[tuple[int, int], ...]] = {
    "plus": ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)),
    "square": tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)),
    "x": ((0, 0), (-1, -1), (-1, 1), (1, -1), (1, 1)),
}

#: name -> (states, pattern, description)
PRESETS: dict[str, tuple[int, Pattern, str]] = {
    "lights-out": (2, "plus", "a click toggles the cell and its 4 neighbours"),
    "cross-flip": (2, "rowcol", "a click flips its whole row and column"),
    "moon-legend": (
        4,
        "plus",
        "chairs facing up/right/down/left (0..3, clockwise quarter turns from up); "
        "a click turns the chair and its 4 neighbours a quarter turn",
    ),
}


class PuzzleKind(StrEnum):
    """What a board's cells show: lit or dark tiles, or arrows (chairs) facing 4 ways.

    A ``str``: it equals its plain name and prints and dumps to JSON as it.
    """

    lights = "lights"
    arrows = "arrows"

    @property
    def preset(self) -> str:
        """The game a board of this kind is taken to be unless told otherwise."""
        return "lights-out" if self is PuzzleKind.lights else "moon-legend"

    @property
    def states(self) -> int:
        return PRESETS[self.preset][0]


#: preset name -> the kind of board it is played on
PUZZLE_KIND: dict[str, PuzzleKind] = {
    "lights-out": PuzzleKind.lights,
    "cross-flip": PuzzleKind.lights,
    "moon-legend": PuzzleKind.arrows,
}


@dataclass(frozen=True)
class Rule:
    """How clicks act on a board.

    ``states`` is m, ``pattern`` the cells a click changes, ``wrap`` joins
    opposite edges, ``turn`` says whether a click adds +1 (``cw``), -1
    (``ccw``), or the player may choose per click (``both``: answers are
    signed, negative meaning counter-clockwise), and ``goal`` is the state
    every cell must reach.
    """

    states: int = 2
    pattern: Pattern = "plus"
    wrap: bool = False
    turn: Turn = "cw"
    goal: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.states, int | np.integer) or self.states < 2:
            raise BoardInputError(f"states must be an integer >= 2, not {self.states!r}")
        if self.states > 2**31:
            raise BoardInputError(f"states must be at most 2**31, not {self.states}")
        if self.pattern not in PATTERNS:
            raise BoardInputError(
                f"pattern must be one of {', '.join(PATTERNS)}, not {self.pattern!r}"
            )
        if self.turn not in TURNS:
            raise BoardInputError(f"turn must be one of {', '.join(TURNS)}, not {self.turn!r}")
        if not 0 <= self.goal < self.states:
            raise BoardInputError(f"goal must be in 0..{self.states - 1}, not {self.goal}")

    @classmethod
    def preset(cls, name: str, **changes: object) -> Rule:
        """A named game (``lights-out``, ``cross-flip``, ``moon-legend``) with optional changes."""
        if name not in PRESETS:
            raise BoardInputError(f"unknown puzzle {name!r}; known: {', '.join(PRESETS)}")
        states, pattern, _ = PRESETS[name]
        return replace(cls(states=states, pattern=pattern), **changes)  # type: ignore[arg-type]

    @property
    def delta(self) -> int:
        """What one click adds to each cell of its pattern (``both`` solves with +1)."""
        return -1 if self.turn == "ccw" else 1

    def cost(self, presses: np.ndarray) -> int:
        """Number of clicks: the sum of ``|presses|``."""
        return int(np.abs(np.asarray(presses, dtype=np.int64)).sum())

    def signed(self, presses: np.ndarray) -> np.ndarray:
        """Press counts as shown to the player.

        For ``cw``/``ccw`` a cell needs ``v`` clicks, ``0 <= v < m``.  For
        ``both``, ``v`` clockwise clicks equal ``m - v`` counter-clockwise ones;
        the cheaper is kept and counter-clockwise is written negative.
        """
        presses = reduce_mod(np.array(presses, dtype=np.int64), self.states)
        if self.turn != "both":
            return presses
        m = self.states
        return np.where(2 * presses > m, presses - m, presses)


def pattern_cells(rule: Rule, shape: tuple[int, int], row: int, col: int) -> list[tuple[int, int]]:
    """The distinct cells a click at ``(row, col)`` changes, in (row, col) order."""
    rows, cols = shape
    if rule.pattern == "rowcol":
        cells = {(row, c) for c in range(cols)} | {(r, col) for r in range(rows)}
        return sorted(cells)
    cells = set()
    for dr, dc in _OFFSETS[rule.pattern]:
        r, c = row + dr, col + dc
        if rule.wrap:
            cells.add((r % rows, c % cols))
        elif 0 <= r < rows and 0 <= c < cols:
            cells.add((r, c))
    return sorted(cells)


def press_matrix(rule: Rule, shape: tuple[int, int]) -> np.ndarray:
    """The 0/1 matrix A with ``A[cell, click] = 1`` when the click changes the cell.

    Cells and clicks are numbered row-major: ``index = row * cols + col``.
    """
    rows, cols = shape
    n = rows * cols
    matrix = np.zeros((n, n), dtype=np.int64)
    for r in range(rows):
        for c in range(cols):
            click = r * cols + c
            for rr, cc in pattern_cells(rule, shape, r, c):
                matrix[rr * cols + cc, click] = 1
    return matrix


def apply_presses(board: np.ndarray, presses: np.ndarray, rule: Rule) -> np.ndarray:
    """Replay: the board after clicking each cell ``presses[r, c]`` times (signed allowed).

    Works by adding shifted copies of the whole press grid, so it is cheap on a
    1000 x 1000 board.
    """
    board = np.asarray(board)
    presses = np.asarray(presses)
    if board.shape != presses.shape:
        raise BoardInputError(f"presses shape {presses.shape} differs from board {board.shape}")
    m = rule.states
    rows, cols = board.shape
    # Reduce first, then sum at most 9 values below m in the smallest type that holds them.
    dtype = work_dtype(m)
    reduced = reduce_mod(presses.astype(dtype), m)
    if rule.pattern == "rowcol":
        # Each click changes its row and its column; the cell itself once.
        effect = reduce_mod(
            reduced.sum(axis=1, keepdims=True, dtype=np.int64)
            + reduced.sum(axis=0, keepdims=True, dtype=np.int64)
            - reduced,
            m,
        ).astype(dtype)
    else:
        effect = np.zeros_like(reduced)
        seen: set[tuple[int, int]] = set()
        for dr, dc in _OFFSETS[rule.pattern]:
            if rule.wrap:
                key = (dr % rows, dc % cols)
                if key in seen:  # a small torus: the same cell reached twice counts once
                    continue
                seen.add(key)
                effect += np.roll(reduced, shift=(dr, dc), axis=(0, 1))
            else:
                _add_shifted(effect, reduced, dr, dc)
        reduce_mod(effect, m)
    if rule.delta < 0:
        np.negative(effect, out=effect)
    effect += reduce_mod(board.astype(dtype), m)
    return reduce_mod(effect, m).astype(np.int64)


def _add_shifted(out: np.ndarray, values: np.ndarray, dr: int, dc: int) -> None:
    """``out[r, c] += values[r - dr, c - dc]`` wherever that stays on the board."""
    rows, cols = values.shape
    r0, r1 = max(dr, 0), rows + min(dr, 0)
    c0, c1 = max(dc, 0), cols + min(dc, 0)
    if r0 < r1 and c0 < c1:
        out[r0:r1, c0:c1] += values[r0 - dr : r1 - dr, c0 - dc : c1 - dc]
