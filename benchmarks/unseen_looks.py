"""Benchmark: the reader on looks made up at random, never the ones it was tuned on.

Draws boards with ``tests/synth/wild.py`` and reads them with no game look
(``read_board(image, looks=[])``).  Seeds divisible by four are the tuning
side, the others the scored side: report the scored side.

Run: python benchmarks/unseen_looks.py [--side score|tune] [--per-family 25]
     [--family F] [--show K] [--save DIR]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from vision_solver.errors import BoardNotFound
from vision_solver.vision.pipeline import read_board

# the renderer is test support, not installed: it lives in the repository's tests/synth
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from synth.wild import FAMILIES, wild_scene  # noqa: E402


def seeds(side: str, count: int) -> list[int]:
    """The first ``count`` seeds of one side of the split."""
    tuned = side == "tune"
    return [s for s in range(8 * count) if (s % 4 == 0) == tuned][:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", choices=["score", "tune"], default="score")
    parser.add_argument("--per-family", type=int, default=25)
    parser.add_argument("--family", choices=FAMILIES, action="append")
    parser.add_argument("--show", type=int, default=0, help="describe the first K failures")
    parser.add_argument("--save", type=Path, help="write the failing images here")
    args = parser.parse_args()
    failures: list[tuple[str, int, str]] = []
    print(f"{args.side} side, {args.per_family} boards a family, no game look")
    print(f"{'family':18s} {'exact':>9s} {'size right':>11s} {'cells right':>13s} {'s/board':>8s}")
    totals = np.zeros(4)
    for family in args.family or FAMILIES:
        exact = sized = right = total = 0
        spent = 0.0
        for seed in seeds(args.side, args.per_family):
            scene = wild_scene(seed, family)
            start = time.perf_counter()
            try:
                reading = read_board(scene.image, looks=[])
            except BoardNotFound:
                failures.append((family, seed, "no board found"))
                spent += time.perf_counter() - start
                continue
            spent += time.perf_counter() - start
            if reading.cells.shape != scene.cells.shape:
                failures.append(
                    (
                        family,
                        seed,
                        f"size {reading.rows}x{reading.cols} for "
                        f"{scene.cells.shape[0]}x{scene.cells.shape[1]}",
                    )
                )
                continue
            sized += 1
            good = int((reading.cells == scene.cells).sum())
            right, total = right + good, total + scene.cells.size
            if reading.puzzle != scene.puzzle:
                failures.append((family, seed, f"read as {reading.puzzle}"))
            elif good < scene.cells.size:
                failures.append((family, seed, f"{scene.cells.size - good} cells wrong"))
            else:
                exact += 1
        count = args.per_family
        print(
            f"{family:18s} {exact:>4d}/{count:<4d} {sized:>5d}/{count:<5d} "
            f"{right:>6d}/{total:<6d} {spent / count:8.2f}"
        )
        totals += (exact, sized, count, 0)
    exact, sized, count = (int(v) for v in totals[:3])
    print(f"{'all':18s} {exact:>4d}/{count:<4d} {sized:>5d}/{count:<5d}")
    for family, seed, what in failures[: args.show]:
        print(f"  {family} seed {seed}: {what}")
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(args.save / f"{family}-{seed}.png"), wild_scene(seed, family).image)


if __name__ == "__main__":
    main()
