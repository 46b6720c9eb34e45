"""vision_solver: read a puzzle board from an image, solve it exactly, draw the answer.

The algebra half needs only numpy (``read_board`` for images loads OpenCV lazily)::

    >>> from vision_solver import Rule, solve
    >>> solve([[1, 1], [1, 0]], Rule.preset("lights-out")).moves
    1
"""

from __future__ import annotations

from .errors import (
    BoardInputError,
    BoardNotFound,
    BoardSolveError,
    Certificate,
    ImageError,
    ReplayFailed,
    Unsolvable,
)
from .rules import PRESETS, PuzzleKind, Rule, apply_presses, press_matrix
from .solve import Solution, solve

__all__ = [
    "PRESETS",
    "BoardInputError",
    "BoardNotFound",
    "BoardSolveError",
    "Certificate",
    "ImageError",
    "PuzzleKind",
    "ReplayFailed",
    "Rule",
    "Solution",
    "Unsolvable",
    "apply_presses",
    "press_matrix",
    "solve",
]
__version__ = "0.1.0"


def __getattr__(name: str):  # the image half loads OpenCV only when asked for
    if name in ("read_board", "solve_image"):
        from .vision import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module 'vision_solver' has no attribute {name!r}")
