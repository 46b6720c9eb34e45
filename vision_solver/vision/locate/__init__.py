"""The locate stage: find the board's cells among everything else in the image.

A board is a lattice of look-alike cells.  We cut the image into candidate
blobs (``segment``), group those of cell-like shape (``blobs``), and look for
the largest set of similar blobs that sit on a regular 2-D lattice
(``lattice``).  The lattice is fitted as a homography from lattice
coordinates (col, row) to image pixels, so a tilted photo is the same problem
as a screenshot, only with a less trivial homography.  On a board without
gaps, cells of one state merge into larger regions; the lattice found from
the isolated cells then grows over the regions made of whole cells
(``gapless``).  Lattices are judged (``judge``) and the search stops at the
first convincing, complete one (``search``).  Boards of 3-D objects drawn inside
a frame are found by the frame (``frames``).  In an image with little flat in it
(a game's 3-D view), a lattice grows over look-alikes of any size, as a tilted
camera shows the far rows smaller, and objects on a ground with no tiles or
lines (benches on grass) are found as a lattice of objects in perspective when
no convincing board lies in the image's middle (``objects``, ``on_ground``); a
lattice lying apart from it (a HUD's command card) gives way to it.  A photo is
also searched on the plane it is aimed at, warped square-on (``plane``).  A
game's floor of look-alike tiles with a block of lamps set into it is no board:
the block is (``within``).  Nor is a lattice whose cells share no structure (blotches
of a blank screen, a wood grain: ``structure``) where a board whose cells do was found.

The search runs on a coarse work image first, then at full detail around
what it found and over the whole image.  The result is the board's four
outer corners (the outer edge of the cell grid, clockwise from the top-left)
and its homography; the grid stage then settles the rows and columns.
"""

from __future__ import annotations

import numpy as np

from ..geometry import BoardLocation, board_at
from .plane import search_board
from .results import Candidate, NotFound, Trace
from .search import locate_as_seen
from .within import board_within

__all__ = [
    "BoardLocation",
    "Candidate",
    "NotFound",
    "Trace",
    "board_at",
    "locate_as_seen",
    "locate_board",
]


def locate_board(image: np.ndarray, trace: Trace = None) -> BoardLocation | NotFound:
    """Find the board in a BGR image: its outer corners and grid homography.

    The search (``search_board``) finds the likeliest lattice of cells; when that is a
    game's floor of look-alike tiles with a block of lamps set into it, the board is the
    block (``within.board_within``).
    """
    found = search_board(image, trace)
    return (board_within(image, found) or found) if found else found
