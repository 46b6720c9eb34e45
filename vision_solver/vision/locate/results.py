"""What the locate stage gives back besides a board: a failure with its reason
(``NotFound``, falsy like a failed estimation) and the candidates a search weighed
(``Candidate``, for ``--debug-dir``), reported to a ``Trace``."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class NotFound:
    """Detection failed; ``reason`` says why (falsy, like a failed estimation)."""

    reason: str

    def __bool__(self) -> bool:
        return False


@dataclass(frozen=True)
class Candidate:
    """A lattice (or framed board) the search weighed, as it lies in the image.

    For ``--debug-dir``: ``corners`` (TL, TR, BR, BL, image pixels) of its
    ``rows`` x ``cols`` cells, its ``score`` (the lattice's; a framed board's
    share of cells found) and where it came from (``source``: the pass,
    ``coarse`` or ``fine``, and the stage, or ``frame``).  ``aside``: the search
    judged it no board (a floor's tiles, a minimap's mosaic, a border's bricks, a
    palette of icons), whatever its score.
    """

    corners: np.ndarray
    rows: int
    cols: int
    score: float
    source: str
    aside: bool = False


#: Where the search reports the candidates it weighed: a list to append to, or None (no report).
Trace = list[Candidate] | None
