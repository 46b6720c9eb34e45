"""Scenery: lattices in a photo that are not the board (a tiled floor).

A photographed board shares the picture with other lattices of look-alike
cells: the tiles of the floor a toy lies on are cells too, many of them, and
their lattice outscores the board's.  A floor is told by what a board never
is: a board of many cells is set in something of its own (a frame, a case, a
page), while a floor's tiles go on past any patch of them that the search
finds, in their many colours.
"""

from __future__ import annotations

import numpy as np

from ..colour import SAME_COLOUR
from .cellsample import cell_colours, one_of_each, state_colours
from .judge import RUNS_OFF_CELLS, runs_off
from .lattice import Lattice

#: A lattice of at least FLOOR_CELLS cells is a floor's when the cells of the
#: line just outside it have at least FLOOR_COLOURS distinct colours
#: (SAME_COLOUR apart) and FLOOR_ALIKE of them have a member's colour: the
#: patches of floors the search found in the tuning photos showed 4 to 13
#: colours outside, most of them tiles again; the boards of the tuning looks
#: and photos showed 1 to 3, or up to 6 where a small board's line outside
#: fell past its case onto the table, none of them like the cells.
FLOOR_CELLS, FLOOR_COLOURS, FLOOR_ALIKE = 30, 4, 0.5


def outside_colours(lattice: Lattice, lab: np.ndarray) -> np.ndarray:
    """The colours of the cells of the line just outside the lattice (those on the image).

    The line is the row above and below and the column left and right of the
    lattice's cells.
    """
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    keys = [(r, c) for c in range(c0, c1 + 1) for r in (r0 - 1, r1 + 1)]
    keys += [(r, c) for r in range(r0, r1 + 1) for c in (c0 - 1, c1 + 1)]
    colours = cell_colours(lattice, lab, keys)
    return colours[~np.isnan(colours).any(axis=1)]


def members_alike(lattice: Lattice, lab: np.ndarray, colours: np.ndarray) -> float:
    """The share of ``colours`` within SAME_COLOUR of one of the lattice's members' colours."""
    members = cell_colours(lattice, lab, list(lattice.members))
    members = members[~np.isnan(members).any(axis=1)]
    if not len(colours) or not len(members):
        return 0.0
    gaps = np.linalg.norm(colours[:, None, :] - members[None], axis=2).min(axis=1)
    return float(np.mean(gaps < SAME_COLOUR))


def tiled_floor(lattice: Lattice, lab: np.ndarray) -> bool:
    """True when the lattice is a patch of a tiled floor (or wall), not a board.

    It has many cells (FLOOR_CELLS) and the line just outside it holds
    FLOOR_COLOURS colours or more, mostly the members' own (more tiles); or,
    with RUNS_OFF_CELLS cells or more running off the image on three sides
    or four (so that little of that line is on the image), its own cells
    have that many colours (a large board's had one to three on the tuning
    looks, a few more where marks or glare spot them; a floor's tiles vary
    without end).
    """
    if len(lattice.members) < FLOOR_CELLS:
        return False
    outside = outside_colours(lattice, lab)
    if (
        len(one_of_each(outside)) >= FLOOR_COLOURS
        and members_alike(lattice, lab, outside) >= FLOOR_ALIKE
    ):
        return True
    if len(lattice.members) < RUNS_OFF_CELLS:
        return False
    return runs_off(lattice, lab.shape) and len(state_colours(lattice, lab)) >= FLOOR_COLOURS
