"""Shared by the reading benchmarks (``unseen_looks.py``, ``photos.py``): score each group of
seeded images, print a row a group and a total, then describe (and save) the failures."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2


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
