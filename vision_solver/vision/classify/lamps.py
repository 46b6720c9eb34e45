"""Lamps: a lights board whose cells each hold one round (or square) object on a shared floor.

A block of lamps let into a game's floor, buttons on a panel, bulbs on a
toy: every cell holds an object, as on a direction board, but the object
is its own quarter turns (a disc, a square), so it points nowhere; the
cells differ in the object's colour (lit or not), not in its turn.  Such a
board is a lights board, and its cells are told by the objects' colours,
not by the middle of each cell, which a small lamp may not fill.

The object's shape is one decision for the whole board: every cell's
object is laid over the others at its own centre (a board placed a little
off moves every lamp alike), and the common footprint is where most cells
show their object.  A lamp's colour is then the median within the core of
that footprint, at the cell's own centre.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..colour import L_STORED
from .cells import CELL_PX, INK, CellStack

#: A cell's ring (this share of the cell each side) is its floor.
RING = 0.12
#: A cell holds an object when this share of it or more differs from its floor by INK ...
LEAST_OBJECT = 0.04
#: ... and no more than this (a whole tile lit is a tile, not an object on a floor);
MOST_OBJECT = 0.6
#: a board of lamps has an object in this share of its cells or more ...
HELD = 0.9
#: ... and each object (the median over the board) matches its own quarter turn by this
#: much or more (intersection over union of its footprint, holes filled, turned about its
#: centre) ...
#: Measured on the tuning looks with their true corners: lamps 0.92 and more; arrow
#: glyphs' tiles up to 1.0 (they are told by their marks), chairs 0.57-0.84.
ROUND = 0.85
#: ... and so do the marks inside the objects (unlike the object's own colour, EDGE pixels
#: of its edge left out), over the board: lamps' sockets and cores 0.59-1.0; arrow glyphs
#: on round or square tiles mostly 0.05-0.55, chairs 0.0-0.52 (a narrow margin: small
#: cores are a few pixels; short thick arrows reach 0.64, and the classify stage asks the
#: turn reader first).  (Measured with one pixel of the edge left out.)
MARKS_ROUND = 0.6
#: The object's edge left out of its marks (pixels at CELL_PX: an erosion by a square this
#: many pixels each side of the centre): a lamp's dark outline, cut by the cells' pixels
#: into dashes that are no quarter turn of themselves.  With one pixel, a tuning board of
#: round lamps on a grid half a pixel off matched by 0.596 and was read as arrows; with
#: two, 500 tuning boards and photos (lamps, tiles, arrows, chairs, benches, photos) lost none.
EDGE = 2
#: A board is judged on this many of its cells, spread over it; when they are no lamps
#: but their objects lie LEAST_MOVE pixels (at CELL_PX) off their cells' centres or more,
#: alike, it is judged again moved by that much (RECENTRE times at most).
SAMPLE = 24
LEAST_MOVE = 1.0
RECENTRE = 3
#: Strokes thinner than this (pixels at CELL_PX: an opening by a disc this wide) are no
#: object's: a floor's grout lines crossing under a lamp set on their crossing.  Left in,
#: a grid placed two pixels off cut them unevenly, and the lamp plus the cross matched its
#: quarter turn by 0.67 (a tuning board of lamps in a floor, read as objects); opened away,
#: 0.90.  Tuning boards of lamps, arrows, chairs and photos (290): that board mended, no
#: other reading changed.
THIN = 3
#: The common footprint is where at least this share of the cells show their object ...
FOOTPRINT = 0.5
#: ... and a lamp's colour is read within its core: the footprint eroded by this share
#: of its radius.
CORE = 0.4


def lamp_features(stack: CellStack) -> np.ndarray | None:
    """``(rows, cols, 4)`` features of a board of lamps (each cell's object's median L*, a,
    b, and no ink), or None when the board is not one: fewer than HELD of its cells hold an
    object on their floor, or its objects, or the marks inside them, are not their own
    quarter turns (ROUND, MARKS_ROUND).  The board is judged on SAMPLE of its cells spread
    over it, and read whole only when it is one."""
    grid = stack.grid
    rows, cols, px = grid.rows, grid.cols, CELL_PX
    lab = cv2.cvtColor(stack.board(px), cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 0] /= L_STORED
    cells = lab.reshape(rows, px, cols, px, 3).transpose(0, 2, 1, 3, 4).reshape(-1, px, px, 3)
    sample = np.unique(np.linspace(0, len(cells) - 1, min(len(cells), SAMPLE)).round().astype(int))
    for looked in range(RECENTRE + 1):
        lamps, (dy, dx) = _lamps(cells[sample])
        if lamps:
            break
        # A board placed a little off moves every lamp alike (and its ring cuts them, so
        # they seem nearer their cells' centres than they are): the board is looked at
        # again moved by its objects' usual move.
        if looked == RECENTRE or not max(abs(dy), abs(dx)) >= LEAST_MOVE:
            return None
        shift = np.float32([[1, 0, dx], [0, 1, dy]])
        lab = cv2.warpAffine(
            lab, shift, lab.shape[1::-1], flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        cells = lab.reshape(rows, px, cols, px, 3).transpose(0, 2, 1, 3, 4).reshape(-1, px, px, 3)
    objects, held = _objects(cells)
    moves = _moves(objects, held)
    footprint = _moved(objects.astype(np.float32), moves).mean(axis=0) >= FOOTPRINT
    if not footprint.any():
        return None
    distance = cv2.distanceTransform(footprint.astype(np.uint8), cv2.DIST_L2, 3)
    core = distance >= max(1.0, CORE * float(distance.max()))
    features = np.zeros((rows * cols, 4), np.float32)
    for i, (dy, dx) in enumerate(moves):
        placed = np.roll(core, (-int(round(dy)), -int(round(dx))), axis=(0, 1))
        features[i, :3] = np.median(cells[i][placed], axis=0)
    return features.reshape(rows, cols, 4)


def _objects(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's object (a mask: unlike the cell's ring by INK, its holes filled, so that
    a glyph of the floor's colour counts too) and whether the cell holds one (LEAST_OBJECT
    to MOST_OBJECT of it)."""
    px = cells.shape[1]
    rim = max(1, int(round(RING * px)))
    ring = np.zeros((px, px), bool)
    ring[:rim] = ring[-rim:] = True
    ring[:, :rim] = ring[:, -rim:] = True
    floors = np.median(cells[:, ring], axis=1)
    objects = np.linalg.norm(cells - floors[:, None, None, :], axis=3) > INK
    objects[:, ring] = False
    # A floor's grout lines crossing under a lamp are no part of it: opened away.
    lines_off = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (THIN, THIN))
    objects = np.stack(
        [
            _filled(cv2.morphologyEx(mask.view(np.uint8), cv2.MORPH_OPEN, lines_off) > 0)
            for mask in objects
        ]
    )
    share = objects.mean(axis=(1, 2))
    return objects, (share >= LEAST_OBJECT) & (share <= MOST_OBJECT)


def _lamps(cells: np.ndarray) -> tuple[bool, np.ndarray]:
    """Whether these cells hold lamps: HELD of them an object, each its own quarter turn
    (ROUND, the median), and so are the marks inside them, over all (MARKS_ROUND); and the
    objects' usual move to their cells' centres (``(dy, dx)`` pixels, the median; NaN when
    too few cells hold one)."""
    objects, held = _objects(cells)
    if held.mean() < HELD:
        return False, np.full(2, np.nan)
    moves = _moves(objects, held)
    usual = np.median(moves[held], axis=0)
    centred = _moved(objects.astype(np.float32), moves)
    turned = np.rot90(centred, 1, axes=(1, 2))
    overlap = np.minimum(centred, turned).sum(axis=(1, 2)) / np.maximum(
        np.maximum(centred, turned).sum(axis=(1, 2)), 1e-6
    )
    if float(np.median(overlap)) < ROUND:
        return False, usual
    # ... and so is what the object shows inside (a socket round a lamp, a lighter core: a
    # glyph on a round tile is no lamp): its pixels unlike the object's own colour, less
    # its edge, where the floor blends in
    colours = _moved(cells, moves)
    inside = centred > 0.5
    square = np.ones((2 * EDGE + 1, 2 * EDGE + 1), np.uint8)
    edge = np.stack([cv2.erode(m, square) for m in inside.astype(np.uint8)])
    own = np.stack(
        [
            np.median(colour[mask], axis=0) if mask.any() else colour[0, 0]
            for colour, mask in zip(colours, inside, strict=True)
        ]
    )
    marks = (np.linalg.norm(colours - own[:, None, None, :], axis=3) > INK) & (edge > 0)
    marked = marks.mean(axis=(1, 2)) >= LEAST_OBJECT / 2
    if not marked.any():
        return True, usual
    marks = marks[marked].astype(np.float32)
    turned_marks = np.rot90(marks, 1, axes=(1, 2))
    kept = np.minimum(marks, turned_marks).sum() / max(
        float(np.maximum(marks, turned_marks).sum()), 1e-6
    )
    return bool(kept >= MARKS_ROUND), usual


def _filled(mask: np.ndarray) -> np.ndarray:
    """The mask with its holes filled: all that the outside cannot reach from the edge."""
    outside = np.zeros((mask.shape[0] + 2, mask.shape[1] + 2), np.uint8)
    outside[1:-1, 1:-1] = mask
    reach = np.zeros((outside.shape[0] + 2, outside.shape[1] + 2), np.uint8)
    cv2.floodFill(outside, reach, (0, 0), 2)
    return outside[1:-1, 1:-1] != 2


def _moves(objects: np.ndarray, held: np.ndarray) -> np.ndarray:
    """``(cells, 2)``: the move ``(dy, dx)`` that brings each cell's object's centre to the
    cell's; a cell without an object moves as the board's median move."""
    middle = (objects.shape[1] - 1) / 2
    moves = np.full((len(objects), 2), np.nan)
    for i, mask in enumerate(objects):
        ys, xs = np.nonzero(mask)
        if len(ys):
            moves[i] = middle - ys.mean(), middle - xs.mean()
    usual = np.nanmedian(moves[held], axis=0)
    moves[~held] = usual
    return moves


def _moved(cells: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """Each cell's pixels moved by its ``moves`` (to a fraction of a pixel)."""
    size = cells.shape[1]
    out = np.empty_like(cells)
    for i, (dy, dx) in enumerate(moves):
        shift = np.float32([[1, 0, dx], [0, 1, dy]])
        out[i] = cv2.warpAffine(
            cells[i], shift, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
    return out
