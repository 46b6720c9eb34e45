"""Benchmark: ``boardsolve batch`` at scale, screenshots per second and video frames per second.

* Screenshots: renders N synthetic 1920x1080 screenshots (boards among other UI, looks the
  reader takes without a learned look), then reads, solves and writes the overlay of each
  with 1 and with 2 worker processes (``run_inputs``, as ``--workers`` does; process
  start-up included; one OpenCV and one BLAS thread per worker, and so for the single
  one) and prints images per second and the speed-up.
* Video: renders a 1920x1080, 30 fps capture of a board being played (one click every
  1.1 s, ``tests/synth/video.py``), reads it as the batch does (``--every 0.2``) in this
  process with one OpenCV thread, and prints frames read per second (real time is 30) and how late
  each board change was caught (the target: within 0.5 s).

Run: python benchmarks/batch_scale.py [--images 200] [--boards 6]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

# One thread for numpy's numerical libraries in this process too, as each worker
# process gets (``run_inputs``): the single worker is then one core, as a worker is.
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision_solver.vision.batch import (  # noqa: E402
    BatchOptions,
    plan_inputs,
    process_input,
    run_inputs,
)

# the renderer is test support, not installed: it lives in the repository's tests/synth
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from synth import random_scene  # noqa: E402
from synth.video import played_board_video  # noqa: E402

LOOKS = ["flat-dark", "flat-light", "round", "gridlines", "numbered", "terminal"]


def render_screenshots(folder: Path, count: int) -> list[Path]:
    paths = []
    for index in range(count):
        scene = random_scene(index, look=LOOKS[index % len(LOOKS)], canvas=(1920, 1080))
        path = folder / f"shot{index:04d}.png"
        cv2.imwrite(str(path), scene.image)
        paths.append(path)
    return paths


def time_batch(paths: list[Path], out: Path, workers: int, options: BatchOptions) -> tuple:
    """Wall seconds (workers' start-up included), the machine's load before, and the rows."""
    items = plan_inputs(paths, out)
    load = os.getloadavg()[0]
    started = time.perf_counter()
    rows = [row for result in run_inputs(items, options, workers) for row in result]
    return time.perf_counter() - started, load, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=200, help="screenshots to render")
    parser.add_argument("--boards", type=int, default=6, help="boards shown in the video")
    parser.add_argument("--skip-images", action="store_true")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="boardsolve-batch-bench-"))
    options = BatchOptions(models=str(workdir / "no-user-looks"))
    print(f"machine: {os.cpu_count()} cores (os.cpu_count)")

    if not args.skip_images:
        started = time.perf_counter()
        shots = workdir / "shots"
        shots.mkdir()
        paths = render_screenshots(shots, args.images)
        print(
            f"rendered {len(paths)} 1920x1080 screenshots in {time.perf_counter() - started:.1f} s"
        )
        # one worker as each worker runs: one process, one OpenCV thread
        cv2.setNumThreads(1)
        one_s, one_load, one_rows = time_batch(paths, workdir / "out1", 1, options)
        two_s, two_load, two_rows = time_batch(paths, workdir / "out2", 2, options)
        same = [
            {k: v for k, v in r.items() if k not in ("seconds", "overlay")} for r in one_rows
        ] == [{k: v for k, v in r.items() if k not in ("seconds", "overlay")} for r in two_rows]
        solved = sum(row["status"] == "solved" for row in one_rows)
        print(f"{'workers':>8s} {'seconds':>8s} {'images/s':>9s} {'load before':>12s}")
        for workers, wall, load in ((1, one_s, one_load), (2, two_s, two_load)):
            print(f"{workers:8d} {wall:8.1f} {len(paths) / wall:9.2f} {load:12.2f}")
        print(
            f"speed-up with 2 workers: {one_s / two_s:.2f}x (target 1.8x); "
            f"{solved}/{len(paths)} solved; rows identical: {same}"
        )
        print(
            "load before: the machine's one-minute load average as each run began; near the "
            "core count, other work shared the cores and the speed-up reads low"
        )

    video_path = workdir / "played.mp4"
    started = time.perf_counter()
    video = played_board_video(
        video_path,
        canvas=(1920, 1080),
        cell_px=70,
        shape=(7, 7),
        fps=30.0,
        seconds_per_board=1.1,
        clicks=args.boards - 1,
        seed=3,
        fourcc="mp4v",
    )
    if video is None:
        print("no mp4v encoder in this OpenCV build: video part skipped")
        return
    print(
        f"rendered a {video.frames}-frame 1920x1080 30 fps capture of {len(video.boards)} boards "
        f"in {time.perf_counter() - started:.1f} s"
    )
    cv2.setNumThreads(1)  # one core
    started = time.perf_counter()
    rows = process_input(video_path, BatchOptions(models=options.models, every=0.2))
    elapsed = time.perf_counter() - started
    found = [np.array(row["board"]["cells"]) for row in rows if row["board"]]
    right = len(found) == len(video.boards) and all(
        np.array_equal(a, b) for a, b in zip(found, video.boards, strict=True)
    )
    lags = [row["time"] - start for row, start in zip(rows, video.starts, strict=False)]
    print(
        f"video: {video.frames} frames in {elapsed:.2f} s = {video.frames / elapsed:.0f} frames/s "
        f"on one core (real time: 30); {len(rows)} boards read, all right: {right}; "
        f"changes caught after {', '.join(f'{lag:.2f}' for lag in lags)} s "
        f"(worst {max(lags):.2f} s, target 0.5)"
    )
    with_out = BatchOptions(models=options.models, every=0.2, video_out=True)  # beside it
    started = time.perf_counter()
    process_input(video_path, with_out)
    elapsed = time.perf_counter() - started
    print(f"video with --video-out: {video.frames / elapsed:.0f} frames/s (every frame compared)")


if __name__ == "__main__":
    main()
