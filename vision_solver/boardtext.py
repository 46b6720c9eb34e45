"""Typed boards: parse the text of ``boardsolve solve`` and print grids back.

A board is one row per line.  A row is either single characters with no
separators, in one notation for the whole board, or whitespace-separated
integers:

========  =====================================
digits    ``0``-``9``: the state itself
hash      ``#`` = 1, ``.`` = 0
sign      ``+`` = 1, ``-`` = 0
arrows    ``↑ → ↓ ←`` = 0 1 2 3 (up, right, down, left)
letters   ``U R D L`` = 0 1 2 3
ints      ``3 2 0`` (any width, spaces or tabs between)
========  =====================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .errors import BoardInputError
from .rules import PuzzleKind

NOTATIONS: dict[str, str] = {
    "digits": "0123456789",
    "hash": ".#",
    "sign": "-+",
    "arrows": "↑→↓←",
    "letters": "URDL",
}
#: The largest cell value typed as an integer (``Rule`` allows at most 2**31 states).
MAX_CELL_VALUE = 2**31

#: Notations of directions (arrows, chairs): boards of ``PuzzleKind.arrows``.
ARROW_NOTATIONS = ("arrows", "letters")


@dataclass(frozen=True)
class ParsedBoard:
    cells: np.ndarray  # (rows, cols) int64
    notation: str  # a key of NOTATIONS, or "ints"

    @property
    def kind(self) -> PuzzleKind:
        """Arrows when typed as arrows or URDL letters, lights otherwise."""
        return PuzzleKind.arrows if self.notation in ARROW_NOTATIONS else PuzzleKind.lights


def _notation_of(char: str) -> str | None:
    for name, alphabet in NOTATIONS.items():
        if char in alphabet:
            return name
    return None


def parse_board(text: str, states: int | None = None) -> ParsedBoard:
    """Parse board text; ``states`` (if given) bounds the values.

    Raises BoardInputError with the 1-based line and column of the first
    problem: ragged rows, unknown characters, values >= states, empty board.
    """
    text = text.removeprefix("\ufeff")  # the byte-order mark Windows editors write
    lines = text.splitlines()
    numbered = [(i + 1, line.rstrip("\r\n")) for i, line in enumerate(lines)]
    # Blank lines before and after the board are ignored; inside it they are not.
    while numbered and not numbered[0][1].strip():
        numbered.pop(0)
    while numbered and not numbered[-1][1].strip():
        numbered.pop()
    if not numbered:
        raise BoardInputError("the board is empty: no rows")

    as_ints = any(len(line.split()) > 1 for _, line in numbered)
    if not as_ints:
        fast = _parse_chars_fast([line for _, line in numbered], states)
        if fast is not None:
            return fast
    rows: list[list[int]] = []
    notation = "ints" if as_ints else ""
    width_line = 0
    for lineno, line in numbered:
        if not line.strip():
            raise BoardInputError(f"line {lineno}: empty line inside the board")
        if as_ints:
            row = _parse_int_row(lineno, line)
        else:
            row, notation = _parse_char_row(lineno, line, notation)
        if rows and len(row) != len(rows[0]):
            raise BoardInputError(
                f"line {lineno}: {len(row)} cells, but line {width_line} has {len(rows[0])}"
            )
        if not rows:
            width_line = lineno
        rows.append(row)
        if states is not None:
            _check_range(lineno, line, row, states, notation)
    return ParsedBoard(np.array(rows, dtype=np.int64), notation)


def _parse_chars_fast(lines: list[str], states: int | None) -> ParsedBoard | None:
    """Vectorised parse of a clean single-character board (big boards); None if not clean.

    Anything unusual (ragged rows, unknown characters, out-of-range values)
    returns None so the line-by-line parser can name the exact position.
    """
    stripped = [line.strip() for line in lines]
    width = len(stripped[0])
    if any(len(line) != width for line in stripped):
        return None
    notation = _notation_of(stripped[0][0])
    if notation is None:
        return None
    alphabet = NOTATIONS[notation]
    # Map code points through a table: -1 marks characters outside the notation.
    codes = np.frombuffer("".join(stripped).encode("utf-32-le"), dtype="<u4")
    table = np.full(max(ord(ch) for ch in alphabet) + 1, -1, dtype=np.int64)
    for value, char in enumerate(alphabet):
        table[ord(char)] = value
    if codes.max() >= table.size:
        return None
    values = table[codes]
    if values.min() < 0:
        return None
    if states is not None and values.max() >= states:
        return None
    return ParsedBoard(values.astype(np.int64).reshape(len(stripped), width), notation)


def _parse_int_row(lineno: int, line: str) -> list[int]:
    row = []
    col = 0
    for token in line.split():
        col = line.index(token, col) + 1
        if not re.fullmatch(r"-?[0-9]+", token):
            raise BoardInputError(f"line {lineno}, column {col}: {token!r} is not an integer")
        digits = token.lstrip("-").lstrip("0")
        if len(digits) > 10 or abs(int(token)) > MAX_CELL_VALUE:  # no int() of 5000 digits
            raise BoardInputError(
                f"line {lineno}, column {col}: {token} is too large for a cell "
                f"(a board has at most 2**31 states)"
            )
        row.append(int(token))
        col += len(token) - 1
    return row


def _parse_char_row(lineno: int, line: str, notation: str) -> tuple[list[int], str]:
    row = []
    body = line.strip()
    start = line.index(body[0])
    for offset, char in enumerate(body):
        column = start + offset + 1
        if not notation:
            notation = _notation_of(char) or ""
        alphabet = NOTATIONS.get(notation, "")
        if char not in alphabet:
            expected = " ".join(alphabet) if alphabet else "0-9 # . + - ↑ → ↓ ← U R D L"
            raise BoardInputError(
                f"line {lineno}, column {column}: unknown character {char!r} "
                f"(expected one of {expected})"
            )
        row.append(alphabet.index(char))
    return row, notation


def _check_range(lineno: int, line: str, row: list[int], states: int, notation: str) -> None:
    for index, value in enumerate(row):
        if not 0 <= value < states:
            column = _column_of(line, index, notation)
            raise BoardInputError(
                f"line {lineno}, column {column}: value {value} is not a state of this "
                f"{states}-state board (0..{states - 1})"
            )


def _column_of(line: str, index: int, notation: str) -> int:
    if notation != "ints":
        return len(line) - len(line.lstrip()) + index + 1
    col = 0
    for i, token in enumerate(line.split()):
        col = line.index(token, col)
        if i == index:
            return col + 1
        col += len(token)
    return col + 1


def format_grid(values: np.ndarray, notation: str) -> str:
    """Rows of ``values`` in ``notation`` when every value has a symbol there, else integers."""
    values = np.asarray(values, dtype=np.int64)
    alphabet = NOTATIONS.get(notation)
    if alphabet and values.min() >= 0 and values.max() < len(alphabet):
        symbols = np.array([ord(ch) for ch in alphabet], dtype="<u4")
        codes = symbols[values]
        newline = np.full((values.shape[0], 1), ord("\n"), dtype="<u4")
        text = np.concatenate([codes, newline], axis=1).tobytes().decode("utf-32-le")
        return text[:-1]
    width = max(len(str(v)) for v in values.reshape(-1))
    return "\n".join(" ".join(str(v).rjust(width) for v in row) for row in values)


def format_presses(presses: np.ndarray, notation: str) -> str:
    """The click grid: counts are not directions, so arrow notations print digits."""
    if notation in ARROW_NOTATIONS:
        notation = "digits"
    return format_grid(presses, notation)


def parse_cell_settings(items: list[str] | None) -> list[tuple[int, int, int]]:
    """``["2,3=1", "1,1=R"]`` (``--set``: 1-based row,col=value, value a number or U/R/D/L)
    -> ``[(row, col, value)]`` 0-based; BoardInputError naming the bad item otherwise."""
    letters = NOTATIONS["letters"]
    out = []
    for item in items or []:
        try:
            where, value = item.split("=")
            r, c = (int(x) for x in where.split(","))
            shown = value.strip().upper()
            v = letters.index(shown) if len(shown) == 1 and shown in letters else int(value)
        except ValueError:
            raise BoardInputError(
                f"--set {item!r}: expected row,col=value, e.g. --set 2,3=1"
            ) from None
        out.append((r - 1, c - 1, v))
    return out
