"""Benchmark: 1000 x 1000 boards against a compiled O(n^3/64) bitset solver.

Prints, for a random solvable 1000 x 1000 Lights Out board and a random
solvable 1000 x 1000 moon-legend (Z/4) board:

* the compiled reference (benchmarks/reference/lights_out_bitset.cpp, built
  here with g++ -O2 if g++ is available), as a whole process including I/O;
* ``vision_solver.solve`` in-process (solve, fewest clicks, replay check);
* the ``boardsolve solve`` command end to end (Python start-up included).

Run: python benchmarks/solve_large.py [--size 1000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from vision_solver import Rule, apply_presses, solve

HERE = Path(__file__).resolve().parent


def random_solvable(size: int, rule: Rule, seed: int) -> np.ndarray:
    """Click every cell a random number of times, starting from the goal."""
    rng = np.random.default_rng(seed)
    goal = np.full((size, size), rule.goal, dtype=np.int64)
    return apply_presses(goal, -rng.integers(0, rule.states, (size, size)), rule)


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def write_board(board: np.ndarray, path: Path, ints: bool) -> None:
    if ints:
        path.write_text("\n".join(" ".join(map(str, row)) for row in board.tolist()) + "\n")
    else:
        path.write_text("\n".join("".join(map(str, row)) for row in board.tolist()) + "\n")


def run_process(args: list[str], repeat: int) -> tuple[float, float]:
    """Best wall time of a command and the peak RSS (MiB) of the children so far."""

    def once() -> None:
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)

    seconds = best_of(repeat, once)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    n, repeat = args.size, args.repeat
    workdir = Path(tempfile.mkdtemp(prefix="boardsolve-bench-"))
    rows: list[tuple[str, str]] = []

    lights = Rule.preset("lights-out")
    lights_board = random_solvable(n, lights, seed=1)
    lights_file = workdir / "lights.txt"
    write_board(lights_board, lights_file, ints=False)

    reference = None
    if shutil.which("g++"):
        exe = workdir / "lights_out_bitset"
        subprocess.run(
            [
                "g++",
                "-O2",
                "-march=native",
                "-o",
                str(exe),
                str(HERE / "reference" / "lights_out_bitset.cpp"),
            ],
            check=True,
        )
        reference, _ = run_process([str(exe), str(lights_file)], repeat)
        rows.append((f"C++ bitset reference, lights-out {n}x{n} (process)", f"{reference:.3f} s"))
    else:
        rows.append(("C++ bitset reference", "skipped: no g++"))

    result = solve(lights_board, lights)
    api = best_of(repeat, lambda: solve(lights_board, lights))
    rows.append((f"solve() lights-out {n}x{n} (in-process, replayed)", f"{api:.3f} s"))
    if reference:
        rows.append(("  ratio to reference", f"{api / reference:.1f}x"))
    rows.append(
        (
            "  clicks / solutions / optimal",
            f"{result.moves} / {result.solutions} / {result.optimal}",
        )
    )

    cli, peak = run_process(
        [sys.executable, "-m", "vision_solver", "solve", str(lights_file), "--json"], repeat
    )
    rows.append((f"boardsolve solve lights-out {n}x{n} --json (process)", f"{cli:.3f} s"))
    if reference:
        rows.append(("  ratio to reference", f"{cli / reference:.1f}x"))
    rows.append(("  peak memory of the process", f"{peak:.0f} MiB"))

    moon = Rule.preset("moon-legend")
    moon_board = random_solvable(n, moon, seed=2)
    result = solve(moon_board, moon)
    api_moon = best_of(repeat, lambda: solve(moon_board, moon))
    rows.append((f"solve() moon-legend {n}x{n} (in-process, replayed)", f"{api_moon:.3f} s"))
    if reference:
        rows.append(("  ratio to C++ lights-out reference", f"{api_moon / reference:.1f}x"))
    rows.append(
        (
            "  clicks / solutions / optimal",
            f"{result.moves} / {result.solutions} / {result.optimal}",
        )
    )
    moon_file = workdir / "moon.txt"
    write_board(moon_board, moon_file, ints=False)
    cli_moon, _ = run_process(
        [
            sys.executable,
            "-m",
            "vision_solver",
            "solve",
            str(moon_file),
            "-p",
            "moon-legend",
            "--json",
        ],
        repeat,
    )
    rows.append((f"boardsolve solve moon-legend {n}x{n} --json (process)", f"{cli_moon:.3f} s"))

    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
