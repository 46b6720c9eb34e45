"""Named exceptions of the library.

The library raises these; only ``cli.py`` turns them into an ``Error: ...`` line
and an exit status.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


class BoardSolveError(Exception):
    """Base class of every error this package raises on purpose."""


class BoardInputError(BoardSolveError, ValueError):
    """A board, rule or option that cannot be used as given (bad text, bad shape)."""


@dataclass
class Certificate:
    """Why a board has no solution.

    ``weights[r, c]`` (mod ``states``) are chosen so that every click changes the
    weighted sum of the cell states by 0, yet reaching the goal would need that
    sum to change by ``needed`` (non-zero).  Over Z/2 this reads: every click
    toggles an even number of the marked cells, but an odd number of them are
    wrong.
    """

    weights: np.ndarray
    states: int
    needed: int
    cells: list[tuple[int, int]] = field(default_factory=list)

    def describe(self) -> str:
        """One human sentence naming the cells (1-based ``row,col``)."""
        shown = " ".join(f"({r + 1},{c + 1})" for r, c in self.cells[:12])
        more = f" and {len(self.cells) - 12} more" if len(self.cells) > 12 else ""
        if self.states == 2 or bool(np.all(self.weights[self.weights != 0] == 1)):
            if self.states == 2:
                return (
                    f"the {len(self.cells)} cells {shown}{more} cannot all be fixed together: "
                    "every click toggles an even number of them, but an odd number are wrong"
                )
            return (
                f"the {len(self.cells)} cells {shown}{more} cannot all be fixed together: "
                f"every click changes their sum by 0 mod {self.states}, but the goal needs "
                f"a change of {self.needed} mod {self.states}"
            )
        return (
            f"the {len(self.cells)} cells {shown}{more}, weighted, cannot all be fixed together: "
            f"every click changes their weighted sum by 0 mod {self.states}, but the goal needs "
            f"a change of {self.needed} mod {self.states}"
        )


class Unsolvable(BoardSolveError):
    """No sequence of clicks reaches the goal; ``certificate`` says which cells conflict."""

    def __init__(self, certificate: Certificate):
        self.certificate = certificate
        super().__init__(f"no solution: {certificate.describe()}")


class ReplayFailed(BoardSolveError, AssertionError):
    """A computed answer did not reach the goal when replayed: always a bug."""


class ImageError(BoardSolveError):
    """An image file that cannot be read (missing, truncated, not an image)."""


class BoardNotFound(BoardSolveError):
    """No puzzle board could be found in an image; the message says why."""
