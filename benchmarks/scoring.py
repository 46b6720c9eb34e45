"""Shared by the reading benchmarks (``unseen_looks.py``, ``photos.py``): the seeds of each
side of the split, one timed read, a read scored against the truth (its size, its corners
and its cells), and the loop that prints a row a group, a total and the failures."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision_solver.errors import BoardNotFound
from vision_solver.vision.pipeline import BoardReading, read_board


@dataclass
class Tally:
    """What a reading benchmark counts over a group of reads (a subclass may count more)."""

    reads: int = 0
    exact: int = 0
    sized: int = 0
    corner_error: float = 0.0  # sum over the sized boards of the mean corner error / diagonal
    cells_right: int = 0
    cells: int = 0
    seconds: float = 0.0
    failures: list[tuple[int, str]] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        """Add ``other``'s counts (every field but the failures) to this tally's."""
        for counted in dataclasses.fields(self):
            if counted.name != "failures":
                name = counted.name
                setattr(self, name, getattr(self, name) + getattr(other, name))

    def columns(self, name: str, width: int) -> str:
        """The row's name and the columns every reading benchmark prints: exact, right size,
        corner error, cells right."""
        share = f"{100 * self.cells_right / self.cells:5.1f}%" if self.cells else "    -"
        corner = f"{100 * self.corner_error / self.sized:6.2f}%" if self.sized else "     -"
        return (
            f"{name:{width}s} {self.exact:>4d}/{self.reads:<4d} {self.sized:>5d}/{self.reads:<5d} "
            f"{corner:>8s} {self.cells_right:>6d}/{self.cells:<6d} {share}  "
        )


def seeds(side: str, count: int, start: int = 0) -> list[int]:
    """The first ``count`` seeds from ``start`` on of one side of the split (tune: s % 4 == 0;
    score: the rest).  A later ``start`` gives fresh boards of the same side: tuning seeds
    nobody has looked at yet show what tuning on the first ones did not reach."""
    tuned = side == "tune"
    out, seed = [], start
    while len(out) < count:
        if (seed % 4 == 0) == tuned:
            out.append(seed)
        seed += 1
    return out


def timed_read(image: Any, **placed: Any) -> tuple[BoardReading | None, str | None, float]:
    """(reading, why it failed, seconds) of ``read_board(image, looks=[], **placed)``.

    A board not found, or a crash, is a failure to read, reported as such.
    """
    start = time.perf_counter()
    try:
        reading, failure = read_board(image, looks=[], **placed), None
    except BoardNotFound as error:
        reading, failure = None, f"not found ({error})"
    except Exception as error:
        reading, failure = None, f"crashed: {type(error).__name__}: {error}"
    return reading, failure, time.perf_counter() - start


def score_read(
    tally: Any, seed: int, scene: Any, reading: BoardReading | None, failure: str | None
) -> None:
    """Score one read of ``scene`` (from ``timed_read``) into ``tally``: a failure to read, a
    wrong size, or a board at its size (its corner error as a share of the diagonal, and its
    cells)."""
    if reading is None:
        tally.failures.append((seed, str(failure)))
        return
    rows, cols = scene.cells.shape
    if (reading.rows, reading.cols) != (rows, cols):
        what = f"wrong size: {reading.rows}x{reading.cols} for {rows}x{cols}"
        if reading.puzzle != scene.puzzle:
            what += f", read as {reading.puzzle}"
        tally.failures.append((seed, what))
        return
    tally.sized += 1
    diagonal = float(np.linalg.norm(scene.corners[2] - scene.corners[0]))
    error = np.linalg.norm(reading.grid.corners - scene.corners, axis=1).mean() / diagonal
    tally.corner_error += float(error)
    score_cells(tally, seed, reading, scene)


def score_cells(tally: Any, seed: int, reading: BoardReading, scene: Any) -> None:
    """Count the cells of a board read at its true size; exact, or a failure saying why not."""
    right = int((reading.cells == scene.cells).sum())
    tally.cells_right += right
    tally.cells += scene.cells.size
    wrong = scene.cells.size - right
    if reading.puzzle != scene.puzzle:
        tally.failures.append((seed, f"wrong kind: read as {reading.puzzle}, {wrong} cells wrong"))
    elif wrong:
        tally.failures.append((seed, f"{wrong} of {scene.cells.size} cells wrong"))
    else:
        tally.exact += 1


def score_and_report(
    groups: list[str],
    score: Callable[[str], Any],
    total: Any,
    show: int | None,
    save: Path | None,
    draw: Callable[[int, str], Any],
    what: str = "images",
) -> None:
    """``score(group)`` gives a tally (``row``, ``add``, ``failures`` of (seed, what));
    ``draw(seed, group)`` redraws a failing image for ``save``."""
    failures: list[tuple[str, int, str]] = []
    for group in groups:
        tally = score(group)
        print(tally.row(group), flush=True)
        total.add(tally)
        failures += [(group, seed, failure) for seed, failure in tally.failures]
    print(total.row("all"))
    shown = failures if show is None else failures[:show]
    if show:
        print(f"\nfirst {len(shown)} of {len(failures)} failures:")
        for group, seed, failure in shown:
            print(f"  {group} seed {seed}: {failure}")
    if save:
        save.mkdir(parents=True, exist_ok=True)
        for group, seed, _ in shown:
            cv2.imwrite(str(save / f"{group}-{seed}.png"), draw(seed, group).image)
        print(f"wrote {len(shown)} failing {what} to {save}")
