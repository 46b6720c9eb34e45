"""Benchmark: the reader on looks made up at random, scored on seeds it was never tuned on.

Draws boards with ``tests/synth/wild.py`` (``wild_scene(seed, family)``) and reads them with no
game look (``read_board(image, looks=[])``).  The seeds are split: those divisible by four are
the tuning side, all others the scored side.  Tune on ``--side tune``; report ``--side score``.

A board is read exactly when its kind (lights / arrows), rows, cols and every cell match.  Per
family the table gives the boards read exactly, the boards found with the right size, the mean
corner error of those as % of the board's diagonal (as in ``photos.py``: each found corner
against the true one), the cells right over the cells of the boards of the right size, and the
mean seconds a board spent in ``read_board``.

Run: python benchmarks/unseen_looks.py [--per-family 25] [--side score|tune] [--from SEED]
     [--family F ...] [--show K] [--save DIR] [--true-corners]

``--from SEED`` starts the side's seeds there: ``--side tune --from 1000`` gives tuning boards
nobody has tuned on yet, to see what tuning on the first ones did not reach.

``--show K`` describes the first K failures (seed and what went wrong); ``--save DIR`` writes
their images as PNG (all failures' when ``--show`` is not given).  ``--true-corners`` places
the board by its true corners and size (``read_board(..., corners=, size=)``): the classify
stage alone, on the true grid, so that what locating misses and what reading misses are told
apart.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# the renderer is test support, not installed: it lives in the repository's tests/synth
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from scoring import Tally, score_and_report, score_read, seeds, timed_read  # noqa: E402
from synth.wild import ALL_FAMILIES, wild_scene  # noqa: E402


class BoardTally(Tally):
    """A tally of boards, its seconds the mean a board spent in ``read_board``."""

    def row(self, name: str) -> str:
        return f"{self.columns(name, 16)}{self.seconds / max(1, self.reads):7.3f}"


def score_family(
    family: str, side: str, count: int, true_corners: bool = False, start: int = 0
) -> BoardTally:
    tally = BoardTally()
    for seed in seeds(side, count, start):
        scene = wild_scene(seed, family)
        rows, cols = scene.cells.shape
        placed = {"corners": scene.corners, "size": (rows, cols)} if true_corners else {}
        tally.reads += 1
        reading, failure, spent = timed_read(scene.image, **placed)
        tally.seconds += spent
        score_read(tally, seed, scene, reading, failure)
    return tally


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-family", type=int, default=25, metavar="N")
    parser.add_argument("--side", choices=["score", "tune"], default="score")
    parser.add_argument(
        "--from", dest="start", type=int, default=0, metavar="SEED", help="first seed (default 0)"
    )
    parser.add_argument("--family", choices=ALL_FAMILIES, action="append", metavar="F")
    parser.add_argument("--show", type=int, default=None, metavar="K", help="describe K failures")
    parser.add_argument("--save", type=Path, metavar="DIR", help="write the failing images here")
    parser.add_argument(
        "--true-corners", action="store_true", help="place the board by its true corners and size"
    )
    args = parser.parse_args(argv)
    if args.per_family < 1:
        parser.error("--per-family must be at least 1")

    families = args.family or list(ALL_FAMILIES)
    print(
        f"unseen looks, {args.side} side (seeds {'' if args.side == 'tune' else 'not '}"
        f"divisible by 4), {args.per_family} boards a family, read_board(image, looks=[]"
        + (", corners=truth, size=truth)" if args.true_corners else ")")
    )
    print(
        f"{'family':16s} {'exact':>9s} {'size right':>11s} {'corner':>8s} {'cells right':>20s}  "
        f"{'s/board':>7s}"
    )
    score_and_report(
        families,
        lambda family: score_family(
            family, args.side, args.per_family, args.true_corners, args.start
        ),
        BoardTally(),
        args.show,
        args.save,
        lambda seed, family: wild_scene(seed, family),
        "images",
    )


if __name__ == "__main__":
    main()
