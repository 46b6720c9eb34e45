"""Shared by the benchmark scripts: best-of-N wall time."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    """The shortest of ``repeat`` wall-clock runs of ``fn``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def best_of_each(repeat: int, *fns: Callable[[], object]) -> list[float]:
    """The shortest of ``repeat`` runs of each of ``fns``, taken in turn.

    Taking them in turn lets a busy spell of a shared machine slow all of
    them alike, so their ratio holds better than when timed one after another.
    """
    times = [[] for _ in fns]
    for _ in range(repeat):
        for fn, runs in zip(fns, times, strict=True):
            start = time.perf_counter()
            fn()
            runs.append(time.perf_counter() - start)
    return [min(runs) for runs in times]
