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
from pathlib import Path

import numpy as np
from timing import best_of

from vision_solver import Rule, apply_presses, solve

HERE = Path(__file__).resolve().parent


def random_solvable(size: int, rule: Rule, seed: int) -> np.ndarray:
    """Click every cell a random number of times, starting from the goal."""
    rng = np.random.default_rng(seed)
    goal = np.full((size, size), rule.goal, dtype=np.int64)
    return apply_presses(goal, -rng.integers(0, rule.states, (size, size)), rule)


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


def compiled_reference(workdir: Path, board_file: Path, repeat: int) -> float | None:
    """Best time of the C++ bitset solver on the board, or None without g++."""
    if not shutil.which("g++"):
        return None
    exe = workdir / "lights_out_bitset"
    source = HERE / "reference" / "lights_out_bitset.cpp"
    subprocess.run(["g++", "-O2", "-march=native", "-o", str(exe), str(source)], check=True)
    seconds, _ = run_process([str(exe), str(board_file)], repeat)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    n, repeat = args.size, args.repeat
    workdir = Path(tempfile.mkdtemp(prefix="boardsolve-bench-"))
    rows: list[tuple[str, str]] = []
    reference = None

    for seed, preset in enumerate(("lights-out", "moon-legend"), start=1):
        rule = Rule.preset(preset)
        board = random_solvable(n, rule, seed=seed)
        board_file = workdir / f"{preset}.txt"
        write_board(board, board_file, ints=False)
        if preset == "lights-out":
            reference = compiled_reference(workdir, board_file, repeat)
            shown = f"{reference:.3f} s" if reference else "skipped: no g++"
            rows.append((f"C++ bitset reference, lights-out {n}x{n} (process)", shown))

        result = solve(board, rule)
        api = best_of(repeat, lambda board=board, rule=rule: solve(board, rule))
        rows.append((f"solve() {preset} {n}x{n} (in-process, replayed)", f"{api:.3f} s"))
        if reference:
            rows.append(("  ratio to the C++ lights-out reference", f"{api / reference:.1f}x"))
        rows.append(
            (
                "  clicks / solutions / optimal",
                f"{result.moves} / {result.solutions} / {result.optimal}",
            )
        )

        command = [
            sys.executable,
            "-m",
            "vision_solver",
            "solve",
            str(board_file),
            "-p",
            preset,
            "--json",
        ]
        cli, peak = run_process(command, repeat)
        rows.append((f"boardsolve solve {preset} {n}x{n} --json (process)", f"{cli:.3f} s"))
        rows.append(("  peak memory of the processes so far", f"{peak:.0f} MiB"))

    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
