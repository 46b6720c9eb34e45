"""Load test of ``boardsolve serve`` on loopback: many reads of 1080p screenshots at once.

Starts ``boardsolve serve`` as its own process on a free port, renders a seeded
1920x1080 screenshot (a 10x10 board among other UI, with the project's renderer,
and a little noise so that its PNG weighs what a real one does),
then sends ``--reads`` POST /api/read requests all at once while another client
asks POST /api/solve for a 20x20 board every ``--every`` seconds.  It prints:

* the reads: how many came back right (status 200, every cell as rendered), the
  wall time of the whole burst and each read's time (median, slowest);
* the server's memory: resident set before the burst, after it, and its peak
  (VmHWM, Linux), so that "bounded" can be read off;
* /api/solve while the reads run: count, median, 95th percentile and slowest,
  how many answered within 50 ms and when the slower ones were asked; the same
  with the server idle; and the machine's load average (other work skews it all).

Run: python benchmarks/serve_load.py [--reads 50] [--every 0.05]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import cv2
import numpy as np

# the renderer is test support, not installed: it lives in the repository's tests/synth
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from synth import render_board  # noqa: E402

SOLVE_BOARD = np.random.default_rng(3).integers(0, 2, (20, 20)).tolist()


def memory_kb(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak) of a process, in kB (Linux /proc)."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields


def post(port: int, path: str, body: bytes, content_type: str) -> tuple[int, bytes, float]:
    """Status, body and seconds of one POST on a fresh connection."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    try:
        connection.request("POST", path, body=body, headers={"Content-Type": content_type})
        response = connection.getresponse()
        data = response.read()
        return response.status, data, time.perf_counter() - started
    finally:
        connection.close()


def solve_once(port: int) -> float:
    body = json.dumps({"cells": SOLVE_BOARD, "puzzle": "lights-out"}).encode()
    status, data, seconds = post(port, "/api/solve", body, "application/json")
    assert status == 200, data
    return seconds


def start_server(models: Path) -> tuple[subprocess.Popen, int]:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    process = subprocess.Popen(
        [sys.executable, "-m", "vision_solver", "serve", "--port", "0", "--models", str(models)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    line = process.stdout.readline()  # boardsolve serve: http://127.0.0.1:PORT/ (...)
    port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
    return process, port


def describe(seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    return (
        f"n={len(ms)} median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, "
        f"max {ms[-1]:.1f} ms, {sum(m < 50 for m in ms)}/{len(ms)} under 50 ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=50, help="reads sent at once")
    parser.add_argument("--every", type=float, default=0.05, help="seconds between solves")
    args = parser.parse_args()

    cells = np.random.default_rng(7).integers(0, 2, (10, 10))
    scene = render_board(cells, "numbered", seed=7, cell_px=48, canvas=(1920, 1080))
    # a little sensor-like noise: the PNG is as large as a real screenshot's (a few MB),
    # not the few kB of flat colours
    grain = np.random.default_rng(1).normal(0, 3, scene.image.shape).round()
    image = np.clip(scene.image + grain, 0, 255).astype(np.uint8)
    ok, encoded = cv2.imencode(".png", image)
    assert ok
    png = encoded.tobytes()
    print(f"screenshot: {image.shape[1]}x{image.shape[0]} PNG, {len(png) / 1e6:.2f} MB")

    with tempfile.TemporaryDirectory(prefix="boardsolve-serve-load-") as models:
        process, port = start_server(Path(models))
        try:
            status, data, first = post(port, "/api/read", png, "image/png")  # warm-up
            assert status == 200 and json.loads(data)["cells"] == cells.tolist(), data
            idle_solves = [solve_once(port) for _ in range(40)]
            before = memory_kb(process.pid)

            results: list[tuple[int, bytes, float]] = []
            gate = threading.Barrier(args.reads + 1)

            def read() -> None:
                gate.wait()
                results.append(post(port, "/api/read", png, "image/png"))

            readers = [threading.Thread(target=read) for _ in range(args.reads)]
            for thread in readers:
                thread.start()
            loaded_solves: list[float] = []
            slow_at: list[float] = []  # seconds into the burst of each solve over 50 ms
            gate.wait()
            burst_started = time.perf_counter()
            while any(thread.is_alive() for thread in readers):
                asked = time.perf_counter() - burst_started
                loaded_solves.append(solve_once(port))
                if loaded_solves[-1] > 0.05:
                    slow_at.append(asked)
                time.sleep(args.every)
            for thread in readers:
                thread.join()
            burst = time.perf_counter() - burst_started
            after = memory_kb(process.pid)
        finally:
            process.terminate()
            process.wait(timeout=30)

    right = sum(
        status == 200 and json.loads(data)["cells"] == cells.tolist() for status, data, _ in results
    )
    read_times = [seconds for _, _, seconds in results]
    print(f"first read (warm-up): {first:.2f} s")
    print(
        f"{args.reads} reads at once: {right}/{len(results)} right, burst {burst:.1f} s, "
        f"each read median {statistics.median(read_times):.2f} s, slowest {max(read_times):.2f} s"
    )
    print(
        f"server memory: {before['VmRSS'] / 1024:.0f} MB before the burst, "
        f"{after['VmRSS'] / 1024:.0f} MB after, peak {after['VmHWM'] / 1024:.0f} MB"
    )
    print(f"/api/solve 20x20, idle server:    {describe(idle_solves)}")
    print(f"/api/solve 20x20, during the reads: {describe(loaded_solves)}")
    if slow_at:
        print("  those over 50 ms were asked at " + ", ".join(f"{t:.2f}" for t in slow_at) + " s")
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
