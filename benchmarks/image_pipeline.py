"""Benchmark: the main job on a 1920x1080 screenshot against merely decoding and encoding it.

Renders seeded 1920x1080 screenshots with the project's renderer (a board among
other UI), then times, best of N (the first two taken in turn):

* decode + encode: read the PNG, and write the overlay (drawn beforehand) as a PNG (the floor);
* end to end: read, locate, grid, classify, solve, draw the overlay, write it;
* the ``boardsolve IMAGE`` command as a process (Python start-up included).

Then the renderer's scenes of 3-D chairs on grass under a game's tilted camera (the
moon-legend puzzle's own view, boards of 2x2 to 20x20), each read once, end to end against
its own decode + encode: the spread of their ratios, which one board of a fixed size
does not show.

Run: python benchmarks/image_pipeline.py [--repeat 9] [--chairs-scenes 12]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np
from timing import best_of, best_of_each

from vision_solver.vision.imageio import read_image, write_image
from vision_solver.vision.looks import load_looks
from vision_solver.vision.pipeline import BoardReading, read_board, rule_for, solve_image

# the renderer is test support, not installed: it lives in the repository's tests/synth
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from synth import random_scene, render_board  # noqa: E402

SCENES = {
    "7x7 flat tiles, 60 px cells": ("flat-dark", (7, 7), 60),
    "10x10 numbered tiles, 48 px cells": ("numbered", (10, 10), 48),
    "6x6 arrow tiles, 64 px cells": ("arrow-tiles", (6, 6), 64),
    "20x20 flat tiles, 26 px cells": ("flat-dark", (20, 20), 26),
    # 3-D benches on grass, found by the frame around them (its PNG alone takes
    # about four times longer to decode and encode than the tile boards')
    "5x5 chairs on grass, 100 px cells": ("chairs", (5, 5), 100),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--chairs-scenes", type=int, default=12)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="boardsolve-image-bench-"))
    looks = load_looks(workdir / "no-user-looks")
    source = workdir / "shot.png"
    target = workdir / "shot.solved.png"
    print(
        f"{'screenshot (1920x1080)':36s} {'decode+encode':>14s} {'end to end':>11s} "
        f"{'ratio':>7s} {'command':>9s}"
    )
    for name, (look, shape, cell_px) in SCENES.items():
        states = 4 if look.startswith("arrow") or look == "chairs" else 2
        cells = np.random.default_rng(7).integers(0, states, shape)
        scene = render_board(cells, look, seed=7, cell_px=cell_px, canvas=(1920, 1080))
        cv2.imwrite(str(source), scene.image)

        screenshot = read_image(source)
        check = read_board(screenshot, looks=looks)
        assert check.cells.tolist() == cells.tolist(), f"{name}: misread"
        # The floor decodes the screenshot and encodes the overlay, drawn once
        # beforehand (an overlay with many marks takes longer to encode).
        overlay = solve_image(screenshot, check, rule_for(check)).overlay

        t_floor, t_e2e = best_of_each(
            args.repeat,
            lambda overlay=overlay: _decode_encode(source, target, overlay),
            lambda: _end_to_end(source, target, looks),
        )
        t_cmd = best_of(
            max(1, args.repeat // 2),
            lambda: subprocess.run(
                [sys.executable, "-m", "vision_solver", str(source), "--out", str(target)],
                check=False,
                stdout=subprocess.DEVNULL,
            ),
        )
        print(
            f"{name:36s} {t_floor * 1000:11.0f} ms {t_e2e * 1000:8.0f} ms "
            f"{t_e2e / t_floor:6.2f}x {t_cmd * 1000:6.0f} ms"
        )
    _chairs_scenes(args.chairs_scenes, looks, source, target)
    shutil.rmtree(workdir, ignore_errors=True)


def _decode_encode(source: Path, target: Path, overlay: np.ndarray) -> None:
    """The floor: decode the screenshot, encode an overlay drawn beforehand."""
    read_image(source)
    write_image(target, overlay)


def _end_to_end(source: Path, target: Path, looks: list) -> tuple[BoardReading, np.ndarray]:
    """The main job: read, locate, grid, classify, solve, draw the overlay, write it;
    the reading and the overlay."""
    image = read_image(source)
    reading = read_board(image, looks=looks)
    answer = solve_image(image, reading, rule_for(reading))
    write_image(target, answer.overlay)
    return reading, answer.overlay


def _chairs_scenes(count: int, looks: list, source: Path, target: Path) -> None:
    """The renderer's first ``count`` scenes of chairs on grass (seeds 0.., flat), each
    timed once end to end and against its decode + encode; their spread printed."""
    if count <= 0:
        return
    ratios, seconds, misread = [], [], 0
    for seed in range(count):
        scene = random_scene(seed, puzzle="arrows", look="chairs")
        cv2.imwrite(str(source), scene.image)
        start = time.perf_counter()
        reading, overlay = _end_to_end(source, target, looks)
        spent = time.perf_counter() - start
        misread += reading.cells.tolist() != scene.cells.tolist()
        t_floor = best_of(3, lambda overlay=overlay: _decode_encode(source, target, overlay))
        ratios.append(spent / t_floor)
        seconds.append(spent)
    ratios_sorted = sorted(ratios)
    print(
        f"\n{count} renderer scenes of chairs on grass, tilted camera (1024x768 to 1920x1080): "
        f"end to end {np.mean(seconds):.2f} s mean, {max(seconds):.2f} s most; "
        f"ratio median {ratios_sorted[len(ratios) // 2]:.1f}x, "
        f"most {ratios_sorted[-1]:.1f}x; misread {misread}"
    )


if __name__ == "__main__":
    main()
