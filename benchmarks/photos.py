"""Benchmark: the reader on photographed boards, scored on seeds it was never tuned on.

Draws photos with ``tests/synth/photo.py`` (``photo_scene(seed, kind)``: a phone photo of a
monitor, a toy on a table, either with a competing grid in view) and reads them with no game
look (``read_board(image, looks=[])``).  Seeds divisible by four are the tuning side, all others
the scored side.  Tune on ``--side tune``; report ``--side score``.

Per kind the table gives: the photos read exactly (kind, rows, cols and every cell), the
boards found with the right size, the mean corner error of those as % of the board's diagonal
(each found corner against the true one, TL TR BR BL), the cells right over the cells of the
boards of the right size, the mean seconds in ``read_board`` per photo, and the mean seconds
per 12 MP photo (the photos of 11 MP and more; '-' when there were none).

``--light-unlit`` draws every toy drawn all unlit (one in six) with every key lit instead:
a board whose cells all look alike must be read lit when it emits light as surely as
unlit when it does not.

Run: python benchmarks/photos.py [--per-kind 24] [--side score|tune] [--kind K ...]
     [--show K] [--save DIR] [--light-unlit]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

# the renderer is test support, not installed: it lives in the repository's tests/synth
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from scoring import Tally, score_and_report, score_read, seeds, timed_read  # noqa: E402
from synth.photo import KINDS, photo_scene  # noqa: E402

TWELVE_MP = 11e6


@dataclass
class PhotoTally(Tally):
    """A tally that also times the photos of 12 MP (``big``)."""

    big: int = 0
    big_seconds: float = 0.0

    def row(self, name: str) -> str:
        big = f"{self.big_seconds / self.big:7.2f}" if self.big else "      -"
        return f"{self.columns(name, 10)}{self.seconds / max(1, self.reads):6.2f} {big}"


def score_kind(kind: str, side: str, count: int, light_unlit: bool = False) -> PhotoTally:
    tally = PhotoTally()
    for seed in seeds(side, count):
        scene = photo_scene(seed, kind, light_unlit=light_unlit)
        tally.reads += 1
        reading, failure, spent = timed_read(scene.image)
        tally.seconds += spent
        if scene.image.shape[0] * scene.image.shape[1] >= TWELVE_MP:
            tally.big += 1
            tally.big_seconds += spent
        score_read(tally, seed, scene, reading, failure)
    return tally


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=24, metavar="N")
    parser.add_argument("--side", choices=["score", "tune"], default="score")
    parser.add_argument("--kind", choices=KINDS, action="append", metavar="K")
    parser.add_argument("--show", type=int, default=None, metavar="K", help="describe K failures")
    parser.add_argument("--save", type=Path, metavar="DIR", help="write the failing photos here")
    parser.add_argument(
        "--light-unlit", action="store_true", help="draw the all-unlit toys with every key lit"
    )
    args = parser.parse_args(argv)
    if args.per_kind < 1:
        parser.error("--per-kind must be at least 1")

    kinds = args.kind or list(KINDS)
    print(
        f"photos, {args.side} side (seeds {'' if args.side == 'tune' else 'not '}"
        f"divisible by 4), {args.per_kind} photos a kind, read_board(image, looks=[])"
        + (", the all-unlit toys drawn lit" if args.light_unlit else "")
    )
    print(
        f"{'kind':10s} {'exact':>9s} {'size right':>11s} {'corner':>8s} {'cells right':>20s}"
        f"  {'s/photo':>6s} {'s/12MP':>7s}"
    )
    score_and_report(
        kinds,
        lambda kind: score_kind(kind, args.side, args.per_kind, args.light_unlit),
        PhotoTally(),
        args.show,
        args.save,
        lambda seed, kind: photo_scene(seed, kind, light_unlit=args.light_unlit),
        "photos",
    )


if __name__ == "__main__":
    main()
