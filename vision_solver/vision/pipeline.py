"""The image pipeline: locate -> grid -> classify -> solve -> overlay.

``place_grid`` finds the board's cells in an image (or places them by hand);
``read_board`` turns an image into a board (cells, confidence, corners);
``solve_image`` also solves it and draws the answer; ``learn_board`` learns a
new look from an image whose cells are known.  Vision never solves:
the solve step is the algebra's ``solve``, called here with the cells read.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..boardtext import parse_cell_settings
from ..errors import BoardInputError, BoardNotFound, Unsolvable
from ..rules import PUZZLE_KIND, PuzzleKind, Rule
from ..solve import Solution, likeliest_misreads, solve, unsolvable_dict
from .background_lines import without_background_lines
from .classify import LIT, CellReading, Lit, LitBy, learn_from_board, read_cells
from .classify.namer import block_of_objects, objects_rather
from .geometry import cell_size, cells_off_image, clockwise_convex, parse_corners
from .grid import Grid, find_grid, fit_tiles, parse_size, seen_obliquely
from .imageio import read_image
from .locate import Candidate, Trace, board_at, locate_board
from .looks import Look, load_looks
from .outer_lines import with_outer_lines, without_foreign_lines
from .overlay import LOW_CONFIDENCE, Marks, draw_overlay


@dataclass
class BoardReading:
    """A board read from an image (cells as the solver numbers them)."""

    puzzle: PuzzleKind
    cells: np.ndarray
    confidence: np.ndarray
    grid: Grid
    look: str
    #: What decided which lights state is lit (``classify.LitBy``); None for arrows.
    lit_by: LitBy | None = None
    corrected: list[tuple[int, int]] = field(default_factory=list)

    @property
    def states(self) -> int:
        return self.puzzle.states

    @property
    def rows(self) -> int:
        return self.grid.rows

    @property
    def cols(self) -> int:
        return self.grid.cols

    def doubtful(self) -> list[tuple[int, int]]:
        """(row, col), row-major and 0-based, of the cells read with low confidence."""
        return [(int(r), int(c)) for r, c in np.argwhere(self.confidence < LOW_CONFIDENCE)]

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``boardsolve detect --json`` (``lit_by`` for lights boards only)."""
        return {
            "puzzle": self.puzzle,
            "states": self.states,
            "rows": self.rows,
            "cols": self.cols,
            "cells": self.cells.tolist(),
            "confidence": np.round(self.confidence, 3).tolist(),
            "corners": np.round(self.grid.corners, 2).tolist(),
            **({"lit_by": self.lit_by} if self.lit_by is not None else {}),
        }

    def with_corrections(self, corrections: list[tuple[int, int, int]]) -> BoardReading:
        """The reading with cells set by hand (0-based row, col, value); confidence 1 there."""
        cells = self.cells.copy()
        confidence = self.confidence.copy()
        done = []
        for r, c, v in corrections:
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                raise BoardInputError(
                    f"--set {r + 1},{c + 1}: no such cell on a {self.rows}x{self.cols} board"
                )
            if not 0 <= v < self.states:
                raise BoardInputError(
                    f"--set {r + 1},{c + 1}={v}: a {self.puzzle} cell is 0..{self.states - 1}"
                )
            cells[r, c] = v
            confidence[r, c] = 1.0
            done.append((r, c))
        return replace(self, cells=cells, confidence=confidence, corrected=done)


def place_grid(
    image: np.ndarray,
    size: tuple[int, int] | None = None,
    corners: np.ndarray | None = None,
    trace: Trace = None,
) -> Grid:
    """The cell grid of the board in ``image``; ``size`` (rows, cols) overrides the count.

    The locate stage finds the board, unless ``corners`` (TL, TR, BR, BL in
    image pixels, with ``size``) place it by hand.  Raises ``BoardNotFound``
    (with the reason) or ``BoardInputError`` (corners without a size, or not
    a clockwise convex outline).  ``trace`` (a list) gets the candidates the
    locate stage weighed (``locate.Candidate``), found or not.
    """
    if corners is not None:
        if size is None:
            raise BoardInputError("corners need the board's size (rows x cols) as well")
        check_corners_in_image(corners, image.shape[1], image.shape[0])
        location = board_at(corners, *size)
    else:
        weighed = trace if trace is not None else []
        location = locate_board(image, weighed)
        if not location:
            raise BoardNotFound(location.reason)
    grid = find_grid(image, location, size)
    if size is None and not seen_obliquely(grid):
        # A flat board one line short (an outer line of its cells made no blobs) takes the
        # line in: its cells repeat the board's states, and the board ends past it.
        grid = with_outer_lines(image, grid)
        # Nor is a line of what lies round the board (a page's squares, a floor's tiles):
        # the board less those lines is placed by its own tiles.
        board = without_foreign_lines(image, without_background_lines(image, grid))
        if board is not grid:
            grid = fit_tiles(image, board)
    if size is None and seen_obliquely(grid):
        # Raised objects are seen obliquely.  A lattice that took in the tiles round a board
        # of them (its border) is the board less those lines, and one that found a block of
        # it grows to the whole.  A grid whose cells hold none even so (a border's bricks)
        # gives way to a lattice the search weighed whose cells hold them.
        grid = block_of_objects(image, grid)
        rather = objects_rather(image, grid, _rivals(image, weighed))
        if rather is not grid:
            placed = find_grid(image, board_at(rather.corners, rather.rows, rather.cols))
            grid = block_of_objects(image, placed)
    return grid


def _rivals(image: np.ndarray, weighed: list[Candidate]) -> Iterator[Grid]:
    """The grids of the lattices the locate stage weighed, likeliest (by score) first: those
    of four cells or more whose outline is convex and lies in the image (RIVAL_OFF_IMAGE),
    each place once, as the search placed it (the one taken is placed by ``find_grid``)."""
    seen: set[tuple[int, ...]] = set()
    for candidate in sorted(weighed, key=lambda candidate: -candidate.score):
        corners, rows, cols = candidate.corners, candidate.rows, candidate.cols
        if rows * cols < 4 or not clockwise_convex(corners):
            continue
        if cells_off_image(corners, rows, cols, image.shape) > RIVAL_OFF_IMAGE:
            continue
        quarter_cell = 0.25 * cell_size(corners, rows, cols)
        place = (rows, cols, *np.round(corners.ravel() / quarter_cell).astype(int))
        if place in seen:
            continue
        seen.add(place)
        location = board_at(corners, rows, cols)
        yield Grid(rows, cols, location.homography, location.corners)


#: How far (cells) a lattice the search weighed may run off the image and still be a rival
#: to a grid of raised objects (``_rivals``).
RIVAL_OFF_IMAGE = 0.5

#: How far outside the image corners given by hand may lie, as a share of its side
#: (a board cut by the screen's edge).
CORNER_MARGIN = 0.25


def check_corners_in_image(corners: np.ndarray, width: int, height: int) -> None:
    """``BoardInputError`` unless every corner is a finite point on (or near) the image."""
    points = np.asarray(corners, dtype=np.float64)
    low = np.array([-CORNER_MARGIN * width, -CORNER_MARGIN * height])
    high = np.array([(1 + CORNER_MARGIN) * width, (1 + CORNER_MARGIN) * height])
    for x, y in points:
        if not (np.isfinite(x) and np.isfinite(y)) or not (
            low[0] <= x <= high[0] and low[1] <= y <= high[1]
        ):
            raise BoardInputError(
                f"corner ({x:g},{y:g}) lies outside the {width}x{height} image; "
                "corners are image pixels, x from 0 to the width, y from 0 to the height"
            )


def read_board(
    image: np.ndarray | str | Path,
    puzzle: str = "auto",
    *,
    size: tuple[int, int] | None = None,
    looks: list[Look] | None = None,
    corners: np.ndarray | None = None,
    lit: Lit = "light",
    trace: Trace = None,
) -> BoardReading:
    """Find and read the board in an image (a BGR array or a file path).

    ``puzzle`` is ``auto``, ``lights`` or ``arrows`` (or a preset name).
    ``corners`` (TL, TR, BR, BL in image pixels, with ``size``) place the
    board by hand where the locate stage does not find it.  ``lit`` is which
    cells of a lights board are on, as the user knows the game: ``"light"``
    (the generic rule: the more colourful, else the lighter, else the marked
    group) or ``"dark"``, which turns every generic lights reading round
    (``lit_by`` is then ``"user"``); a board read by a look is never turned
    round, since the look names its states.  The reading's ``lit_by`` says
    what decided.  ``trace``, a list, gets the locate stage's candidates
    (for ``--debug-dir``; the reading is the same).  Raises ``BoardNotFound`` (with the reason),
    ``BoardInputError`` or ``ImageError``.
    """
    if not isinstance(image, np.ndarray):
        image = read_image(image)
    kind = PUZZLE_KIND.get(puzzle, puzzle)
    if kind != "auto" and kind not in list(PuzzleKind):
        raise BoardInputError(f"puzzle must be auto, lights or arrows, not {puzzle!r}")
    if lit not in LIT:
        raise BoardInputError(f"lit must be light or dark, not {lit!r}")
    grid = place_grid(image, size, corners, trace)
    reading: CellReading = read_cells(
        image, grid, kind, looks if looks is not None else load_looks(), lit
    )
    return BoardReading(
        PuzzleKind(reading.puzzle),
        reading.cells,
        reading.confidence,
        grid,
        reading.look,
        reading.lit_by,
    )


def read_as_told(
    image: np.ndarray,
    source: str,
    puzzle: str = "auto",
    *,
    size: str | None = None,
    corners: str | None = None,
    settings: list[str] | None = None,
    lit: Lit | None = None,
    looks: list[Look] | None = None,
    trace: Trace = None,
) -> BoardReading:
    """Read the board in ``image`` as ``boardsolve IMAGE`` does with its options' text.

    ``size`` (``"5x5"``), ``corners`` (``"x,y x,y x,y x,y"``, with ``size``)
    and ``settings`` (``["2,3=1"]``, ``--set``) are parsed here, so a bad
    one raises ``BoardInputError`` with the sentence the CLI prints; a board
    not found raises ``BoardNotFound`` naming ``source`` and how to place it
    by hand.
    """
    points = parse_corners(corners) if corners is not None else None
    if points is not None and size is None:
        raise BoardInputError("--corners needs --size RxC too (the board's rows and columns)")
    corrections = parse_cell_settings(settings)
    try:
        reading = read_board(
            image,
            puzzle,
            size=parse_size(size) if size else None,
            looks=looks,
            corners=points,
            lit=lit or "light",
            trace=trace,
        )
    except BoardNotFound as exc:
        raise BoardNotFound(
            f"{source}: no board found ({exc}); --size RxC with --corners places it by hand"
        ) from None
    return reading.with_corrections(corrections)


def learn_board(
    image: np.ndarray | str | Path,
    cells: np.ndarray,
    name: str,
    puzzle: PuzzleKind,
    corners: np.ndarray | None = None,
) -> tuple[Look, np.ndarray]:
    """A new look named ``name`` learned from an image of a board whose ``cells`` are known.

    Returns the look and the board read back with it (-1 where nothing
    reads the cells).  The board is found as by ``read_board`` and must
    have the size of ``cells`` (else ``BoardInputError``: labels for another
    board would teach the look wrong colours); ``corners`` place it by hand,
    with the size of ``cells``.  Raises
    ``BoardNotFound``, ``BoardInputError`` or ``ImageError``.
    """
    if not isinstance(image, np.ndarray):
        image = read_image(image)
    cells = np.asarray(cells)
    if corners is None:
        found = place_grid(image)
        if (found.rows, found.cols) != cells.shape:
            rows, cols = cells.shape
            raise BoardInputError(
                f"the cells given are {rows}x{cols}, but the board found is "
                f"{found.rows}x{found.cols}: give one label per cell, row by row "
                "(--corners places the board by hand if it was miscounted)"
            )
        grid = found
    else:
        grid = place_grid(image, cells.shape, corners)
    return learn_from_board(image, grid, cells, name, PuzzleKind(puzzle))


def rule_for(reading: BoardReading, preset: str | None = None, **changes: Any) -> Rule:
    """The rule of the game read: lights-out for lights, moon-legend for arrows."""
    if preset is None or preset == "auto":
        preset = reading.puzzle.preset
    if PUZZLE_KIND[preset] != reading.puzzle:
        raise BoardInputError(f"--puzzle {preset} does not fit a board of {reading.puzzle}")
    return Rule.preset(preset, **changes)


@dataclass
class ImageAnswer:
    reading: BoardReading
    rule: Rule
    solution: Solution | None
    unsolvable: Unsolvable | None
    suspects: list[tuple[int, int, int]]
    overlay: np.ndarray

    def to_dict(self) -> dict[str, Any]:
        """The reading's JSON object with the answer's (or the unsolvable one's) keys added."""
        answer = (
            self.solution.to_dict()
            if self.solution is not None
            else unsolvable_dict(self.reading.rows, self.reading.cols, self.reading.states)
        )
        return {**self.reading.to_dict(), **answer}


def solve_image(image: np.ndarray, reading: BoardReading, rule: Rule) -> ImageAnswer:
    """Solve the board read and draw the answer (or the likeliest misreads) on the image."""
    turns = rule.states > 2
    try:
        solution = solve(reading.cells, rule)
    except Unsolvable as exc:
        suspects = likeliest_misreads(
            reading.cells, reading.confidence, rule, fixed=reading.corrected
        )
        legend = "no solution as read"
        if suspects:
            cells = ", ".join(f"({r + 1},{c + 1})" for r, c, _ in suspects)
            legend += f": check {cells}"
        marks = Marks(
            None,
            legend,
            reading.confidence,
            turns=turns,
            suspects=[(r, c) for r, c, _ in suspects],
        )
        return ImageAnswer(
            reading, rule, None, exc, suspects, draw_overlay(image, reading.grid, marks)
        )
    marks = Marks(solution.presses, solution.summary(short=True), reading.confidence, turns=turns)
    return ImageAnswer(reading, rule, solution, None, [], draw_overlay(image, reading.grid, marks))
