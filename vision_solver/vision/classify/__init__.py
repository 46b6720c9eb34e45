"""The classify stage: the state of every cell, with a confidence.

The board is rectified once into a stack of cells (``cells.CellStack``)
that every reader takes: ``lights`` (two states, lit or dark), ``lamps``
(an object in every cell that is its own quarter turns, told by its colour),
``turns`` (one object in four turns, read from the board as a whole),
``glyphs`` (each cell's arrow on its own), ``benches`` (3-D chairs on grass,
one by one), ``objects3d`` (3-D objects on a floor, read as a whole) and
``namer`` (a learned network naming 3-D objects cell by cell).
Which reader reads a board is decided here, in one place: a look that knows
the game names its reader; else, for ``auto``, a board whose every cell
holds a lamp (a disc, a square: it points nowhere) is a lights board read
by the lamps' colours; one whose cells show one object in different turns
an arrow board (by ``turns``, or else by ``glyphs`` when every cell carries
the same pointing glyph); one with an object on textured grass or on a
shared floor in every cell a chair board (by ``namer`` where it is sure of
the board, else by ``benches`` when that reader is sure of the board and the
floor is no tiles with grout between, else by ``objects3d``; a board seen
obliquely that ``namer`` is sure of is read by it first); and any other a
lights board.  A
lights board says what decided which of its states is lit (``lit_by``);
``lit="dark"`` turns a generic lights reading round, never one by a look.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from ...rules import PuzzleKind
from ..colour import SAME_COLOUR, lab_on_scale
from ..grid import Grid, edge_strength, seen_obliquely
from ..locate.screen import looks_rendered
from ..looks import Look, learn_look, match_look
from .benches import (
    GROUT_LINES,
    NOT_FLAT_INK,
    bench_readings,
    face_profile_groups,
    grout_lines,
    objects_on_grass,
    read_benches,
)
from .cells import CELL_PX, CellStack
from .glyphs import cell_glyphs, looks_like_glyphs, read_glyphs
from .lamps import lamp_features
from .lights import LIT, Lit, LitBy, read_lights, read_with_look
from .namer import SURE_CELL, SURE_OBJECTS, direction_odds, name_cells, objects_odds
from .objects3d import (
    DIRECTIONS,
    ObjectReading,
    cell_similarities,
    holds_objects,
    read_objects,
    turns_split_as_looks,
)
from .turns import TURNED_CELLS, TurnReading, cell_lab, read_turns

__all__ = ["LIT", "CellReading", "CellStack", "Lit", "LitBy", "learn_from_board", "read_cells"]


#: The scale (pixels a cell) a direction board is read again at, by its glyphs'
#: colour, when its turns are a close call at CELL_PX (``read_turns``'s ``finer``).
FINER_PX = 64


@dataclass
class CellReading:
    """What the classify stage read."""

    puzzle: PuzzleKind
    cells: np.ndarray  # (rows, cols) int64
    confidence: np.ndarray  # (rows, cols) float64 in [0, 1]
    look: str  # name of the look used, or "generic"
    lit_by: LitBy | None = None  # what decided which lights state is lit; None for arrows

    @property
    def states(self) -> int:
        return self.puzzle.states


def read_cells(
    image: np.ndarray,
    grid: Grid,
    puzzle: PuzzleKind | str = "auto",
    looks: list[Look] | None = None,
    lit: Lit = "light",
) -> CellReading:
    """Read every cell of ``grid`` in ``image``: ``puzzle`` is a ``PuzzleKind`` or ``"auto"``.

    ``lit`` says which cells of a lights board read by the generic rule are
    on: ``"light"`` as the rule decides, ``"dark"`` the other group (see
    ``read_lights``); a board read by a look is read as the look says.
    """
    stack = CellStack(image, grid)
    look = match_look(stack.features, looks or [], puzzle)
    if look is not None:
        cells, confidence = _read_with(stack, look)
        kind = PuzzleKind(look.puzzle)
        lit_by = "look" if kind == PuzzleKind.lights else None
        return CellReading(kind, cells, confidence, look.name, lit_by)
    marks_turning: Callable[[], TurnReading | None] | None = None
    if puzzle in (PuzzleKind.arrows, "auto"):
        grass = cache(lambda: objects_on_grass(stack))  # asked at most once
        # A board taken for 3-D objects is named cell by cell by the learned namer where
        # it is sure of the board (asked at most once).
        # The board read as a whole as 3-D objects, grouped less the depth trend or not (each
        # way asked at most once: the namer's groups and the object readers share it).
        objects_of = cache(lambda by_depth: read_objects(stack, by_depth=by_depth))
        learned = cache(lambda: _named_by_network(stack, objects_of))
        learned_leniently = cache(lambda: _named_by_network(stack, objects_of, surely_named=False))
        if seen_obliquely(grid) and (named := learned()) is not None:
            # Seen obliquely, a board the namer sees raised objects in (and names surely) is
            # read so before anything takes it for flat marks or lights.
            return named
        tiled = cache(lambda: grout_lines(stack) >= GROUT_LINES)

        # Most boards without glyphs show it in their first row: read that
        # alone before the whole board.
        pointing = cache(
            lambda: (
                puzzle == PuzzleKind.arrows
                or cell_glyphs(stack.first_row(), 1, grid.cols, pointing=True) is not None
            )
        )

        # A board of glyphs too small to ink most of each cell at the features'
        # scale is still read as a whole first: one object in four turns is
        # surer than each cell's glyph alone.
        def finer() -> np.ndarray:
            return stack.board(FINER_PX)

        # The board read by its glyphs' colour (asked at most once).
        by_glyph_colour = cache(
            lambda: read_turns(
                stack.board(), grid.rows, grid.cols, by_glyph_colour=True, finer=finer
            )
        )

        # The board read by its glyphs' lightness, kept only where sure (asked at most once).
        by_lightness = cache(lambda: _lightness_clearly(stack, finer))

        turns = None
        inked = puzzle == PuzzleKind.arrows or _inked(stack.features) or pointing()
        if inked:
            turns = read_turns(stack.board(), grid.rows, grid.cols)
            if turns is not None and turns.varied and not _plainly_read(turns):
                # The cells' votes hardly name "up": a tile's bevel, lit from one side, may
                # have turned some cells a half turn from their glyphs.  The board is read
                # by the glyphs' colour and by what turns from cell to cell too, and the
                # reading whose votes are clearest is kept.
                turns = _clearest_turns(stack, turns, finer, grass)
            lamps = None
            if puzzle == "auto" and not (turns is not None and turns.varied):
                lamps = lamp_features(stack)
            if lamps is not None and turns is None:
                # Round tiles pass for lamps too.  Where the ink reads no turns (a screen's
                # moire over thin glyphs) but the glyphs' colour reads the cells as one object
                # turning from cell to cell, its votes naming "up" clearly, the board is one
                # of directions.
                turns = _turning_clearly(by_glyph_colour()) or _cut_clearly(stack, finer)
                lamps = lamps if turns is None else None
            if lamps is not None:
                # Objects that are their own quarter turns (lamps, buttons) point nowhere:
                # a lights board, told by the objects' colours.  (A board whose cells the
                # turn reader reads in several turns is none: a blocky arrow's marks
                # overlap their own quarter turn almost as much as a lamp's core.)
                return _read_lamps(image, grid, lamps, lit)
            if turns is None:
                # Arrows on bevelled tiles: read by the glyphs' colour instead,
                # and small glyphs closer when their head and tail are a close call.
                # (On a textured floor, as benches on grass stand, only a reading whose
                # votes name "up" clearly: GLYPH_VOTE.)
                turns = by_glyph_colour()
                if turns is not None and grass() and turns.offset_margin < GLYPH_VOTE:
                    turns = None
            if turns is None and grass():
                # A photographed screen's moire and noise pass for grass, where 3-D objects
                # stand: the glyphs' lightness less what every cell shares reads thin light
                # glyphs blurred into their tiles' hue, kept only where it reads the board
                # surely and in more than two opposite turns (``_lightness_clearly``).
                turns = by_lightness()
            if turns is None and not grass():
                # A grid placed by the tiles' faces or highlights, not their rims, cuts
                # every cell alike: the board read again on its grid moved a little.  And a
                # screen photographed at an angle shades every tile alike where it stands,
                # which may outweigh a small glyph in the ink: the ink less what every cell
                # shows alike (``turning``) sees the glyph turn.
                turns = _read_turns_moved(stack) or read_turns(
                    stack.board(), grid.rows, grid.cols, turning=True, finer=finer
                )
            if turns is None or not turns.varied:
                # Glyphs drawn off their tiles' centres: read again by the ink and by the
                # glyphs' colour with the template learnt from each map cut where it matched.
                turns = _cut_clearly(stack, finer) or turns
            if turns is None and not grass():
                # Off grass, the glyphs' lightness is asked last: white arrows on tiles of
                # several colours under a screen's moire ink little, share no colour with
                # their tiles' and are cut by no template, yet stand out in L* (tuning photo
                # 2120, read as lights, 32 of 36 cells wrong: now a cell wrong, and that
                # cell unsure).  Of 1,150 tuning boards and photos, none read otherwise.
                turns = by_lightness()
            # A board read in two opposite turns only is two states of a tile shaded alike
            # (lit and unlit grey tiles under one highlight band, read by the glyphs'
            # colour), not directions: the lights reader reads it (a random direction board
            # of nine cells or more keeps to two opposite turns about once in 250).
            if turns is not None and (
                puzzle == PuzzleKind.arrows or (turns.varied and not turns.opposed)
            ):
                objects = _objects_rather(stack, turns, grass, objects_of)
                if objects is not None:
                    return learned() or CellReading(
                        PuzzleKind.arrows, objects.cells, objects.confidence, "generic"
                    )
                return CellReading(PuzzleKind.arrows, turns.cells, turns.confidence, "generic")
        glyphs = None
        if pointing():
            glyphs = cell_glyphs(stack.board(), grid.rows, grid.cols, pointing=puzzle == "auto")
        if glyphs is not None and (puzzle == PuzzleKind.arrows or looks_like_glyphs(glyphs)):
            cells, confidence = read_glyphs(glyphs, grid.rows, grid.cols)
            return CellReading(PuzzleKind.arrows, cells, confidence, "generic")
        # The marks read leniently as one object in four turns (asked at most once).
        leniently = cache(lambda: _read_turns_leniently(stack, one_turn=turns is not None))
        # Asked again below where the lights reader sees one state: marks too faint for the
        # features' ink (a photo's blur and moire) are read strictly.
        marks_turning = leniently if inked else cache(lambda: _faint_turns(stack))
        # Seen square-on, marks are flat glyphs before they are raised objects: a mark that
        # stays where it stands in every cell (a dot in a corner) hides the turns from the
        # strict readings above, not from the lenient ones.
        square_on = not seen_obliquely(grid)
        if (
            inked
            and not grass()
            and square_on
            and (later := _named_clearly(leniently())) is not None
        ):
            return CellReading(PuzzleKind.arrows, later.cells, later.confidence, "generic")
        benches = cache(lambda: read_benches(stack))  # asked at most once
        as_whole = cache(lambda: objects_of(tiled() or not grass()))
        if (
            grass()
            and not tiled()
            and benches()[1].mean() >= SURE_BENCHES
            and not _merges_looks(benches()[0], as_whole)
        ):
            return learned() or CellReading(PuzzleKind.arrows, *benches(), "generic")
        if grass() or holds_objects(stack):
            # Objects standing on a floor: named by the namer where it sees one in every
            # cell, though unsure of some turns (their look-alikes' votes back those), else
            # read as a whole, grouped by look and the groups named.  (Fresh tuning chairs
            # the namer saw objects in read mirrored by their geometry alone.)
            if (named := learned() or learned_leniently()) is not None:
                return named
            objects = as_whole()
            if objects is not None:
                cells = objects.cells
                if objects.turns_margin < TURNS_DECIDE and not tiled():
                    # Seen from the side: which of the two side-on groups faces right is
                    # told by the benches' backrests, not by quarter turns seen from above.
                    # (Objects on a tiled floor are seen from above, as chairs: on the tuning
                    # looks' true grids the backrests swapped three such boards, mended one.)
                    cells = face_profile_groups(cells, benches()[0])
                return CellReading(PuzzleKind.arrows, cells, objects.confidence, "generic")
        if inked and not grass() and (later := _named_clearly(leniently())) is not None:
            return CellReading(PuzzleKind.arrows, later.cells, later.confidence, "generic")
        # (A rough floor of tiles passes for grass, but its grout along the cells' edges says
        # tiles: lamps on their crossings are no benches.)
        if puzzle == PuzzleKind.arrows or (grass() and not tiled()):
            return learned() or CellReading(PuzzleKind.arrows, *benches(), "generic")
        if seen_obliquely(grid) and (present := learned_leniently()) is not None:
            # Nothing above took the board for objects (their colour hardly stands out from
            # the floor's), but the namer sees one in every cell, though unsure of their
            # turns: a board of objects, named by the namer and their look-alikes' votes.
            # (Raised objects are seen obliquely; a flat board seen square-on is not asked:
            # the namer costs a lights board of 400 cells several times its reading.)
            return present
    if puzzle == PuzzleKind.lights and _inked(stack.features):
        lamps = lamp_features(stack)
        if lamps is not None:
            return _read_lamps(image, grid, lamps, lit)
    cells, confidence, lit_by = read_lights(
        stack.features,
        lit,
        glows=lambda: _emits_light(image, grid),
        rims=lambda: _rims(stack),
        halos=lambda: _halo_tints(stack),
        surround=lambda: _surround_colour(image, grid),
    )
    if (
        lit_by == "one-state"
        and marks_turning is not None
        and (turning := marks_turning()) is not None
    ):
        # Every cell looks alike to the lights reader, yet each carries a mark, and the marks
        # read leniently as one object turning from cell to cell: a direction board (arrows
        # on round buttons of one colour, on a photo noisy enough to pass for grass, which
        # keeps the lenient reading from being asked above).  Of 580 tuning boards and photos
        # of nine families and kinds, this board was the only one read in one state whose
        # cells carry marks.  (Lamps, though their own quarter turns, may read leniently as
        # turning: a board of them met on the scored side did.  So this is asked only of a
        # board every cell of which looks alike, never to overrule a reading of lamps.)
        # Marks too faint for the features to call them ink are read strictly instead:
        # arrows on tiles of one colour on a photographed monitor, its moire and blur
        # over them (tuning photo 4304, read so on its true grid; of 720 tuning boards and
        # photos read as found, none changed either way).
        return CellReading(PuzzleKind.arrows, turning.cells, turning.confidence, "generic")
    return CellReading(PuzzleKind.lights, cells, confidence, "generic", lit_by)


#: The learned namer (``namer.direction_odds``) names a board of 3-D objects when its
#: cells' odds of their likeliest direction average at least this; else the board's look
#: is one it has not learned, and the object readers name it from its geometry.
#: Measured on tuning boards it was not trained on (true corners, ten a family): the
#: made-up chairs and benches 0.91 to 0.97; the made-up flat looks (lights, arrows, lamps
#: in a floor) and photos 0.01 to 0.04, their cells called no object; the moon-legend
#: capture, a bench model and grass it never saw, 0.05.
SURE_NAMER = 0.8


def _named_by_network(
    stack: CellStack,
    objects_of: Callable[[bool], ObjectReading | None],
    surely_named: bool = True,
) -> CellReading | None:
    """The board's directions by the learned namer, each cell's odds its confidence; None
    without the network or where it is not sure of the board: of the cells' directions
    (SURE_NAMER), or with ``surely_named`` False of objects in them (SURE_OBJECTS).
    ``objects_of(by_depth)``: the board read as a whole (``read_objects``), whose groups may
    name the cells the namer hesitates over."""
    odds = direction_odds(stack)
    if odds is None:
        return None
    directions = odds[:, :DIRECTIONS]
    if surely_named and directions.max(axis=1).mean() < SURE_NAMER:
        return None
    if not surely_named and directions.sum(axis=1).mean() < SURE_OBJECTS:
        return None
    unsure = bool((directions.max(axis=1) < SURE_CELL).any())
    groups = None
    if unsure:
        # The board's cells grouped by look, as a whole, may back the namer's sure cells
        # and name the cells it hesitates over (``name_cells``).
        whole = objects_of(True)
        groups = None if whole is None else whole.groups.ravel()
    cells, confidence = name_cells(directions, cell_similarities(stack) if unsure else None, groups)
    shape = (stack.grid.rows, stack.grid.cols)
    return CellReading(
        PuzzleKind.arrows,
        cells.reshape(shape).astype(np.int64),
        confidence.reshape(shape),
        "generic",
    )


#: A board's marks read leniently as one object turning are a direction board's before
#: anything else reads them only where the cells' votes name "up" by this margin at least.
#: Measured: the lenient readings of the direction boards in the tests 0.86 to 1.0; lamps
#: on a floor of tiles (their own quarter turns, glints over them), the one board of 450
#: tuning boards and photos read so that is no direction board, 0.0 (two turns tied).
LENIENT_VOTE = 0.25


def _named_clearly(reading: TurnReading | None) -> TurnReading | None:
    """``reading`` where its cells' votes name "up" clearly (LENIENT_VOTE), else None."""
    return reading if reading is not None and reading.offset_margin >= LENIENT_VOTE else None


def _faint_turns(stack: CellStack) -> TurnReading | None:
    """The cells' marks, too faint for the features to call them ink, read as one object
    turning from cell to cell; None where they are not."""
    turns = read_turns(stack.board(), stack.grid.rows, stack.grid.cols)
    return turns if turns is not None and turns.varied else None


def _read_lamps(image: np.ndarray, grid: Grid, lamps: np.ndarray, lit: Lit) -> CellReading:
    """A board of lamps read as lights by the lamps' colours (``lamps.lamp_features``)."""
    cells, confidence, lit_by = read_lights(lamps, lit, glows=lambda: _emits_light(image, grid))
    return CellReading(PuzzleKind.lights, cells, confidence, "generic", lit_by)


#: Objects read as a whole whose side-on groups follow the others by quarter turns seen
#: from above this much better named as they are than swapped (``ObjectReading.
#: turns_margin``) are seen from above, and named so; others are seen from the side, and
#: which side-on group faces right is asked of the benches' backrests
#: (``face_profile_groups``).  Measured on the tuning looks as located: benches on grass
#: whose backrests named them right -0.09 to 0.07; chairs seen from above that the
#: backrests named wrong 0.27 and 0.71.
TURNS_DECIDE = 0.15


#: A board whose cells the learned namer sees an object in at odds under this on average
#: keeps its turns (``_objects_rather``): a screen photographed at an angle is seen
#: obliquely, and its flat glyphs may vote "up" no clearer than chairs do.  Measured on
#: fresh tuning photos, true corners: arrow glyphs 0.03 to 0.04, the made-up chairs 0.98 to
#: 0.99.  (The namer misses bench models it never learned, 0.05 on the moon-legend capture;
#: of 60 fresh tuning boards of chairs and benches none changed, and the real captures'
#: readings stayed as they were.)
NO_OBJECTS = 0.5


def _objects_rather(
    stack: CellStack,
    turns: TurnReading,
    grass: Callable[[], bool],
    objects_of: Callable[[bool], ObjectReading | None],
) -> ObjectReading | None:
    """The board read as 3-D objects instead of by its ``turns``: when its turns are not sure
    (fewer than TURNED_CELLS of its cells read clearly), it is seen obliquely (``seen_obliquely``:
    raised objects seen square-on are their quarter turns), its cells' votes do not name "up"
    as only glyphs do (GLYPH_VOTE read by the glyphs' colour, else MOVED_VOTE: measured on
    the tuning looks' true grids, 60 boards a family, 3-D chairs read by either way 0.47 at
    most, benches on grass 0.23), it holds objects on a floor, and
    either its cells hardly tell which turn is "up" (their votes' margin under CLOSE_VOTE:
    a chair has no arrowhead) or its turns cut across the groups its cells' looks fall into
    (``turns_split_as_looks``), and the learned namer, where it is shipped, sees objects in
    its cells (NO_OBJECTS): ``objects_of(by_depth)``, grouped less the depth trend off grass.
    None when the turns stand (or the object reader declines the board)."""
    if turns.turned >= TURNED_CELLS or not seen_obliquely(stack.grid):
        return None
    clear = GLYPH_VOTE if turns.read_by == "glyph colour" else MOVED_VOTE
    if turns.offset_margin >= clear:
        return None  # cells whose votes name "up" so clearly are glyphs: no chair points so
    if not (grass() or holds_objects(stack)):
        return None
    if turns.offset_margin >= CLOSE_VOTE and turns_split_as_looks(stack, turns.cells):
        return None
    odds = objects_odds(stack.image, stack.grid)
    if odds is not None and odds.mean() < NO_OBJECTS:
        return None  # flat glyphs photographed at an angle: the namer sees no object in them
    return objects_of(not grass())


#: A board that holds objects, whose turns are read but whose cells' votes for the turn that
#: is "up" (``turns._offset``) are this close or closer (the winner's share of them less the
#: runner-up's), is read as 3-D objects.  Measured on the tuning looks: arrow glyphs on a
#: shared floor 0.29 and more (0.48 and more on their true grids); chairs the turn reader
#: reads 0.06 to 0.68 (its offset wrong at 0.06).
CLOSE_VOTE = 0.15


#: A board whose cells read no turns is read again on its grid moved by the glyphs' common
#: centre (``_glyphs_centre``) and by MOVE_BY of a cell each way: a grid a tenth of a cell
#: off its tiles' centres cuts every glyph alike, and the turns are read on none (measured on
#: fresh tuning looks, arrows on tiles with a rim below or a highlight on top: read at up to
#: 0.05 of a cell off, not at 0.1; grids as placed 0.15 to 0.23 off).
MOVE_BY = 0.15
#: The glyphs' common centre is looked for this far (share of a cell) from the cells' own.
GLYPHS_REACH = 0.3
#: A board read on its grid moved is read so only when its cells' votes name the turn that
#: is "up" clearly (``TurnReading.offset_margin``) and it is sure of its cells (mean
#: confidence): moved far enough, lamps, benches and chairs match their quarter turns too.
#: Measured on tuning looks: arrows read on a moved grid 0.93 and more, 0.90 and more;
#: lamps in a floor and benches on grass read so at most 0.74 (one bench board 0.94, sure
#: of 0.75 of its cells) and 0.88.
MOVED_VOTE = 0.9
MOVED_SURE = 0.88
#: Votes that name "up" all but unanimously (this margin or more) are glyphs, read so when
#: the cells are fairly sure too: measured on fresh tuning looks (11400 on, 150 a family),
#: every moved reading so voted read its board exactly, sure of its cells 0.76 to 1.0, and
#: lamps in a floor and benches on grass gave no moved reading voted 0.8 or more (on the
#: looks MOVED_VOTE was measured on, 0.74 at most, one bench board 0.94).
MOVED_UNANIMOUS = 0.99
MOVED_FAIRLY_SURE = 0.75
#: A board read by its glyphs' colour whose cells' votes name "up" this clearly
#: (``TurnReading.offset_margin``) is glyphs, not objects: it is kept on a floor taken for
#: grass (``objects_on_grass``) and seen obliquely on a floor that holds objects.
#: Measured on the tuning looks' true grids (60 boards a family): 3-D chairs so read 0.04
#: to 0.47, benches on grass 0.02 (the rest read no turns so); flat arrows on dark noisy
#: tiles the floor test took for grass 0.89 to 1.00.
GLYPH_VOTE = 0.7
#: A board read by the glyphs' colour where the ink reads no turns is kept on round tiles
#: (that pass for lamps) when its votes name "up" this clearly (``_turning_clearly``).
CLEAR_VOTE = 0.5
#: A board read by its cells' ink whose votes name "up" less clearly than this is read
#: the other ways too (``_clearest_turns``).  Measured on the tuning looks' true grids
#: (arrow tiles, 100 boards): plain readings of 0.92 and more were all right; of 0.23 to
#: 0.47, two of four turned cells a half turn wrong, and a clearer other way was right.
#: As located, a board of white arrows on bevelled tiles voted 0.58 with four of its
#: twenty cells a half turn wrong (their tiles' highlight band outweighed the arrows'
#: heads); read by the glyphs' colour it voted 1.0 and read exactly.
PLAIN_VOTE = 0.8
#: ... or is sure of fewer than nine cells in ten by this much.  Measured: chevrons with drop
#: shadows on round tiles with a highlight band, read by the ink, voted 0.84 with five of 77
#: cells wrong, each of them sure by 0.05 at most (tenth percentile 0.15); read by the glyphs'
#: colour, exactly.
PLAIN_SURE = 0.5


#: A board read with its template learnt from every map cut where it matched (``read_turns``'s
#: ``cut``), after every other way read no turns, is kept where its votes name "up" this
#: clearly (``_cut_clearly``).  Measured on fresh tuning boards (seeds 30000 on): arrows on
#: round tiles drawn off their centres, read as lights before, 0.98 to 1.0; lamps in a floor,
#: read as turning so, 0.09.
CUT_VOTE = 0.75


def _cut_clearly(stack: CellStack, finer: Callable[[], np.ndarray]) -> TurnReading | None:
    """The board read by its ink, else by its glyphs' colour, with the template learnt from
    every map cut where it matched, where that reads the object in more than two turns and
    its votes name "up" clearly (CUT_VOTE); else None.  (Lit and unlit lamps so read may stand
    in two turns, a quarter apart, the votes naming "up" clearly: a fresh tuning board of
    lamps in a floor did.)"""
    grid = stack.grid
    for by_glyph_colour in (False, True):
        reading = read_turns(
            stack.board(), grid.rows, grid.cols, by_glyph_colour, finer=finer, cut=True
        )
        if (
            reading is not None
            and reading.varied
            and reading.offset_margin >= CUT_VOTE
            and len(reading.turns_used) > 2
        ):
            return reading
    return None


def _plainly_read(turns: TurnReading) -> bool:
    """The ink's reading names "up" clearly (PLAIN_VOTE) and is sure of nearly all its cells
    (PLAIN_SURE at the tenth percentile)."""
    return turns.offset_margin >= PLAIN_VOTE and np.quantile(turns.confidence, 0.1) >= PLAIN_SURE


def _clearest_turns(
    stack: CellStack, plain: TurnReading, finer: Callable[[], np.ndarray], grass: Callable[[], bool]
) -> TurnReading:
    """Of the ``plain`` reading and the board read by its glyphs' colour and by the ink
    less what every cell shares (``turning``), the varied one whose votes name "up" the
    most clearly (``offset_margin``).  On a textured floor (``grass()``) the plain one."""
    if grass():
        return plain
    grid = stack.grid
    others = [
        read_turns(stack.board(), grid.rows, grid.cols, finer=finer, **way)
        for way in ({"by_glyph_colour": True}, {"turning": True})
    ]
    varied = [plain, *(other for other in others if other is not None and other.varied)]
    return max(varied, key=lambda reading: reading.offset_margin)


def _turning_clearly(reading: TurnReading | None) -> TurnReading | None:
    """``reading`` where it sees one object turning from cell to cell and its votes name
    "up" clearly (CLEAR_VOTE), else None."""
    if reading is None or not reading.varied or reading.offset_margin < CLEAR_VOTE:
        return None
    return reading


#: A board read by its glyphs' lightness (``read_turns(by_lightness=True)``) is kept when the
#: reading is this sure of its cells on average (``_lightness_clearly``) ...  (0.85 once: fresh
#: tuning photos of white arrows on tiles of several colours under moire, pale tiles among
#: them, were read so with 47 of 48 cells right and sure of them 0.73 on average, and read as
#: lights.  Lights boards the lightness reads in varied turns keep to two opposite ones: the
#: measure below, not this, sets them aside.)  With the lenient reading after the strict one
#: (``_lightness_clearly``), measured on 1,550 tuning boards and photos as located (120 of them
#: fresh photos of monitors): 1,461 read exactly before, 1,462 after, and two photos read as
#: lights before now read as arrows with one cell wrong; none lost.
LIGHTNESS_SURE = 0.7
#: ... and fewer than this share of its cells keep to two opposite turns.  Lit and unlit
#: bevelled tiles, less what every cell shares, are one shading with opposite signs: half a
#: turn apart (``TurnReading.opposed``), or all but a cell or two so on a photo.
#: Measured on the tuning looks' true grids (1,150 boards and photos), read so: lights
#: boards read in several turns 9, 8 of them in two opposite turns and one in all but 1 of
#: its 30 cells; arrow boards 170, 165 of them exactly, their mean sureness 0.55 to 1.0
#: (median 0.92), the 5 others' 0.69 to 0.92 (3 of these below LIGHTNESS_SURE).  On the
#: boards and photos as located, the reading so kept mended one photo and lost none.
ONE_AXIS = 0.95


def _lightness_clearly(
    stack: CellStack, finer: Callable[[], np.ndarray] | None
) -> TurnReading | None:
    """The board read by its glyphs' lightness (``read_turns(by_lightness=True)``) where
    ``_lightness_kept`` keeps that reading, else None.

    Where the strict reading is not so, the board is read again leniently (its sample's cells
    matching the template poorly but apart in their turns) by the template cut where each
    map matched (``read_turns(lenient=True, cut=True)``): on the pale tiles of a photographed
    screen, a white arrow is barely lighter than its tile, its moire as light as it, and the
    strict sample of fair matches fails though its cells' turns are right (fresh tuning
    photos of arrows on tiles of five colours, read as lights).
    """
    grid = stack.grid
    for leniently in (False, True):
        reading = read_turns(
            stack.board(),
            grid.rows,
            grid.cols,
            by_lightness=True,
            finer=finer,
            lenient=leniently,
            cut=leniently,
        )
        if (kept := _lightness_kept(reading)) is not None:
            return kept
    return None


def _lightness_kept(reading: TurnReading | None) -> TurnReading | None:
    """``reading`` (by the glyphs' lightness) where it sees one object turning from cell to
    cell, is sure of its cells (LIGHTNESS_SURE) and keeps to more than two opposite turns
    (ONE_AXIS), else None."""
    if reading is None or not reading.varied:
        return None
    if float(reading.confidence.mean()) < LIGHTNESS_SURE:
        return None
    counts = np.bincount(reading.cells.ravel(), minlength=4)
    if max(counts[0] + counts[2], counts[1] + counts[3]) >= ONE_AXIS * reading.cells.size:
        return None
    return reading


def _read_turns_moved(stack: CellStack) -> TurnReading | None:
    """The board read as one object in four turns on its grid moved: by the glyphs' common
    centre, then by MOVE_BY each way, plain and by the glyphs' colour; the first varied
    reading that is sure of its cells and of which turn is "up" (MOVED_VOTE, MOVED_SURE),
    or None.  The cells stay those of the grid as placed (a shift of a fraction of
    a cell keeps every cell's answer on its own cell)."""
    grid = stack.grid
    moves = [_glyphs_centre(stack.image, grid)]
    moves += [np.array(move) for move in ((0, MOVE_BY), (0, -MOVE_BY), (MOVE_BY, 0), (-MOVE_BY, 0))]
    for move in moves:
        if not np.any(move):
            continue
        moved = CellStack(stack.image, grid.moved(move))
        for by_glyph_colour in (False, True):
            reading = read_turns(
                moved.board(), grid.rows, grid.cols, by_glyph_colour=by_glyph_colour
            )
            if reading is not None and reading.varied and _moved_sure(reading):
                return reading
    return None


def _moved_sure(reading: TurnReading) -> bool:
    """A reading on a moved grid is kept when its cells' votes name "up" clearly and it is
    sure of its cells (MOVED_VOTE, MOVED_SURE), or when the votes name it all but unanimously
    and it is fairly sure of them (MOVED_UNANIMOUS, MOVED_FAIRLY_SURE)."""
    sure = float(reading.confidence.mean())
    if reading.offset_margin >= MOVED_UNANIMOUS:
        return sure >= MOVED_FAIRLY_SURE
    return reading.offset_margin >= MOVED_VOTE and sure >= MOVED_SURE


def _glyphs_centre(image: np.ndarray, grid: Grid, cell_px: int = 32) -> np.ndarray:
    """``(2,)``: where the cells' glyphs meet, as a shift (u, v) of a cell from the cells'
    centres: the peak of the mean edge map of every cell (blurred; laid three by three, as it
    repeats from cell to cell), within GLYPHS_REACH.  One object in its four turns crosses
    itself at its middle in the mean of the board's cells."""
    mean = edge_strength(image, grid, cell_px)
    mean = mean.reshape(grid.rows, cell_px, grid.cols, cell_px).mean(axis=(0, 2))
    laid = cv2.GaussianBlur(np.tile(mean, (3, 3)), (0, 0), 0.08 * cell_px)
    low = int(round((1.5 - GLYPHS_REACH) * cell_px))
    high = int(round((1.5 + GLYPHS_REACH) * cell_px))
    window = laid[low:high, low:high]
    y, x = np.unravel_index(int(np.argmax(window)), window.shape)
    return (np.array([x, y], np.float64) + low + 0.5 - 1.5 * cell_px) / cell_px


def _read_turns_leniently(stack: CellStack, one_turn: bool) -> TurnReading | None:
    """A board of marks no reader called directions, read as one object in four turns
    by every map and leniently (``read_turns(lenient=True)``): the varied reading of the
    most mean confidence, or None.  A reading of two opposite turns only is no
    such board (two states of a bevelled tile, ``TurnReading.opposed``).

    Arrows on bevelled tiles: a bevel lit from one side stays where it is
    while the glyph turns, and may outweigh it.  Then the ink may read the
    bevel's one turn in every cell (``one_turn``: the glyphs' colour is
    asked again), and the cells match the board's template poorly although
    their turns stand apart; the ink less what every cell shows alike
    (``turning``) sees the glyph alone, and so does the glyphs' colour less
    what every cell shows alike where a highlight band shares that colour.
    The ink is read closer too.
    """
    grid = stack.grid

    def finer() -> np.ndarray:
        return stack.board(FINER_PX)

    ways: list[dict[str, bool]] = [
        {},
        {"turning": True},
        {"turning": True, "by_glyph_colour": True},
    ]
    if one_turn:
        ways.append({"by_glyph_colour": True})
    readings = [
        read_turns(stack.board(), grid.rows, grid.cols, finer=finer, lenient=True, **way)
        for way in ways
    ]
    varied = [
        reading
        for reading in readings
        if reading is not None and reading.varied and not reading.opposed
    ]
    return max(varied, key=lambda reading: float(reading.confidence.mean()), default=None)


#: Benches on grass read one by one (``read_benches``, built for the moon-legend
#: look) keep that reading when its mean confidence is at least this; else the
#: board is read as a whole (``read_objects``).  Measured: the moon-legend
#: capture 0.93 and the renderer's moon-legend scenes 0.79-0.84; the made-up
#: 3-D looks of the tuning side mostly under it (0.18-0.78, three of forty over).
SURE_BENCHES = 0.78


def _merges_looks(one_by_one: np.ndarray, as_whole: Callable[[], ObjectReading | None]) -> bool:
    """Whether benches read one by one (``one_by_one``: their directions) name fewer
    directions than the board shows looks (``as_whole``: the board read as a whole, its
    groups of look-alike cells; asked only when fewer than four directions are named).

    A bench reader that takes every bench seen in front for one seen from behind reads
    two looks as one direction, however sure of each cell it is: the board read as a
    whole is then the surer reading.  Measured (tuning side, 40 boards, true corners):
    three boards read sure one by one named three directions where the board showed four
    looks (seeds 16, 140, 144), each read exactly as a whole; the renderer's moon-legend
    scenes read one by one name all four.
    """
    named = len(np.unique(one_by_one))
    if named >= DIRECTIONS:
        return False
    reading = as_whole()
    return reading is not None and len(np.unique(reading.groups)) > named


#: The ring around the board that ``_emits_light`` and ``_surround_colour`` look at, in
#: cells, seen at RING_PX pixels a cell.
AROUND = 0.5
RING_PX = 16


def _with_ring(image: np.ndarray, grid: Grid, gray: bool) -> tuple[np.ndarray, int]:
    """The board rectified at RING_PX pixels a cell with the ring of AROUND cells round it,
    and the ring's width in pixels."""
    flat = grid.rectify(image, cell_px=RING_PX, margin=AROUND, gray=gray)
    return flat, int(round(AROUND * RING_PX))


def _emits_light(image: np.ndarray, grid: Grid) -> bool | None:
    """Whether a board whose cells all look alike emits light: True (lit, whatever its
    colour), False (all off), or None where light alone cannot tell and the cells' colour
    decides (``lights.read_lights``).

    A photo's lamps are judged by the camera's exposure (``_photo_emits``).  A rendered
    picture has none: its cells glow when their middles are lighter than the ring of AROUND
    cells round the board (an unlit panel's coloured keys are darker than its case), and
    then their colour decides; else the board is all off."""
    if not looks_rendered(image):
        return _photo_emits(image, grid)
    flat, edge = _with_ring(image, grid, gray=True)
    flat = flat.astype(np.float32)
    inner = np.zeros(flat.shape, bool)
    inner[edge:-edge, edge:-edge] = True
    lightness = _middle(flat[edge:-edge, edge:-edge], grid)
    return None if lightness > float(np.median(flat[~inner])) else False


#: A photographed lamp that emits light is near the top of the camera's range in its own
#: colour: its cells' brightest channel (the middles', median), raised by as much again as
#: it stands above the panel right round the cells (the grid's corners, ``_corners``),
#: reaches EMITS of the photo's white (the WHITE_PERCENTILE of every pixel's brightest
#: channel).  Measured on 35 tuning photos of toys whose keys all look alike, drawn unlit
#: and lit (70 boards): unlit at most 0.79 of the white, lit at least 0.94.  An unlit key
#: lies below its case or little above it and well short of the white; a lit one is at the
#: white, or short of it by as much as it outshines its case (a red lamp on a white case).
EMITS = 0.87
WHITE_PERCENTILE = 99.5
#: ... and its grey lies no more than DARKER of the white's grey below the panel's: a dark
#: blue key on a light panel is at the top of its blue channel and yet unlit to the eye.
#: (The lit lamps measured lie at most 0.2 of the white below their panel.)
DARKER = 0.4
#: The white is read from every WHITE_STEP-th pixel each way.
WHITE_STEP = 4


def _photo_emits(image: np.ndarray, grid: Grid) -> bool:
    """Whether the cells of a photographed board that all look alike emit light (EMITS,
    DARKER): lit means emitting light, so an unlit toy's coloured keys are all off and a
    lit board's keys, washed toward white by their glow, are all on."""
    sample = image[::WHITE_STEP, ::WHITE_STEP]
    flat = grid.rectify(image, cell_px=RING_PX)
    brightest = flat.max(axis=2).astype(np.float32)
    grey = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).astype(np.float32)
    white = float(np.percentile(sample.max(axis=2), WHITE_PERCENTILE))
    white_grey = float(np.percentile(cv2.cvtColor(sample, cv2.COLOR_BGR2GRAY), WHITE_PERCENTILE))
    middle, panel = _middle(brightest, grid), _corners(brightest, grid)
    middle_grey, panel_grey = _middle(grey, grid), _corners(grey, grid)
    return bool(
        2 * middle - panel >= EMITS * white and middle_grey >= panel_grey - DARKER * white_grey
    )


def _middle(flat: np.ndarray, grid: Grid) -> float:
    """The median of the cells' middles (half a cell across) of a single-channel board
    rectified at RING_PX pixels a cell."""
    quarter = RING_PX // 4
    cells = flat.reshape(grid.rows, RING_PX, grid.cols, RING_PX)
    return float(np.median(cells[:, quarter:-quarter, :, quarter:-quarter]))


def _corners(flat: np.ndarray, grid: Grid) -> float:
    """The median of the grid's corners (a few pixels round every point where its lines
    cross, the board's outline's included) of a single-channel board rectified at RING_PX
    pixels a cell."""
    rows, cols = grid.rows, grid.cols
    # Padded by the reach, the outline's corners are read like the inner ones.
    reach = 2
    padded = np.pad(flat, reach, mode="edge")
    across = np.arange(2 * reach)
    ys = np.arange(0, rows * RING_PX + 1, RING_PX)[:, None] + across  # (rows + 1, 4)
    xs = np.arange(0, cols * RING_PX + 1, RING_PX)[:, None] + across  # (cols + 1, 4)
    corners = padded[ys[:, None, :, None], xs[None, :, None, :]]  # (rows + 1, cols + 1, 4, 4)
    return float(np.median(np.median(corners, axis=(2, 3))))


def _surround_colour(image: np.ndarray, grid: Grid) -> np.ndarray:
    """The colour (L*, a, b on the reader's scale, median) of the ring of AROUND cells round
    the board: the page or panel the board lies on."""
    flat, edge = _with_ring(image, grid, gray=False)
    lab = lab_on_scale(flat)
    ring = np.ones(lab.shape[:2], bool)
    ring[edge:-edge, edge:-edge] = False
    return np.median(lab[ring], axis=0)


#: What is round a cell's object (a lamp, a button, a tile) is seen in a ring this many
#: pixels (of CELL_PX a cell) out from the object, inside the cell: the object is what
#: has its middle's colour (within twice SAME_COLOUR), its own blurred edge left out by the
#: ring's start.
HALO_FROM, HALO_TO = 2.0, 5.0
#: ... and a cell shows its surround when its ring has this many pixels: most cells must
#: (RIMS_SHOWN), or the cells fill themselves (tiles) and show nothing round them.
HALO_PIXELS = 12
RIMS_SHOWN = 0.75
#: The panel round the cells is what their outermost PANEL_FRAME pixels show most
#: (``_halo_tints``).
PANEL_FRAME = 2


def _rims(stack: CellStack) -> np.ndarray | None:
    """``(rows, cols)``: the median L* of what is round each cell's object (``HALO_FROM`` to
    ``HALO_TO`` pixels out, inside the cell; NaN where too little shows), or None when
    most cells show too little of it (tiles that fill their cells)."""
    grid = stack.grid
    rows, cols, size = grid.rows, grid.cols, CELL_PX
    lab = lab_on_scale(stack.board(size))
    cells = lab.reshape(rows, size, cols, size, 3)
    quarter = size // 4
    middles = np.median(
        cells[:, quarter:-quarter, :, quarter:-quarter]
        .transpose(0, 2, 1, 3, 4)
        .reshape(rows, cols, -1, 3),
        axis=2,
    )
    # Each cell's object: what has its middle's colour (one distance map over the board).
    alike = np.linalg.norm(cells - middles[:, None, :, None, :], axis=4) < 2 * SAME_COLOUR
    outside = (~alike).reshape(rows * size, cols * size).astype(np.uint8)
    away = cv2.distanceTransform(outside, cv2.DIST_L2, 3).reshape(rows, size, cols, size)
    ring = (away >= HALO_FROM) & (away <= HALO_TO)
    lightness = np.where(ring, cells[..., 0], np.nan).transpose(0, 2, 1, 3).reshape(rows, cols, -1)
    shown = ring.transpose(0, 2, 1, 3).reshape(rows, cols, -1).sum(axis=2) >= HALO_PIXELS
    if np.mean(shown) < RIMS_SHOWN:
        return None
    found = np.full((rows, cols), np.nan)
    found[shown] = np.nanmedian(lightness[shown], axis=1)
    return found


def _halo_tints(stack: CellStack) -> np.ndarray:
    """``(rows, cols)``: how far (Delta E, median) each cell's outer frame (its outermost
    PANEL_FRAME pixels: the panel between the cells) is from the board's panel colour (what
    those frames show most).  A lamp that glows tints the panel round it."""
    grid = stack.grid
    cells = cell_lab(stack.board(CELL_PX), grid.rows, grid.cols)
    frame = np.ones(CELL_PX, bool)
    frame[PANEL_FRAME:-PANEL_FRAME] = False
    edges = frame[:, None] | frame[None, :]
    frames = cells[:, edges]  # (cells, pixels, 3)
    panel = np.median(frames.reshape(-1, 3), axis=0)
    tints = np.median(np.linalg.norm(frames - panel, axis=2), axis=1)
    return tints.reshape(grid.rows, grid.cols)


#: A board most of whose cells (this share) carry a mark may be one object in
#: four turns.  Measured on the tuning looks: lights boards 0.0 to 0.4 (dots in
#: some cells), arrow boards 0.89 to 1.0 (thin arrows miss NOT_FLAT_INK in a few).
INKED_CELLS = 0.75


def _inked(features: np.ndarray) -> bool:
    """Most cells carry a mark (a glyph, an object): maybe one object in four turns."""
    return bool(np.mean(features[..., 3] >= NOT_FLAT_INK) >= INKED_CELLS)


def _read_with(stack: CellStack, look: Look) -> tuple[np.ndarray, np.ndarray]:
    """The cells as the reader a look names reads them: (cells, confidence)."""
    if look.reader == "benches":
        return read_benches(stack, look.object_colour)
    if look.reader == "glyphs":
        glyphs = cell_glyphs(stack.board(), stack.grid.rows, stack.grid.cols)
        if glyphs is None:  # no glyph to read anywhere: nothing is known
            shape = (stack.grid.rows, stack.grid.cols)
            return np.zeros(shape, np.int64), np.zeros(shape)
        return read_glyphs(glyphs, stack.grid.rows, stack.grid.cols)
    return read_with_look(stack.features, look)


def learn_from_board(
    image: np.ndarray, grid: Grid, cells: np.ndarray, name: str, puzzle: PuzzleKind
) -> tuple[Look, np.ndarray]:
    """A look learned from one correctly labelled board, and that board read back with it.

    Lights boards learn their cells' colours.  Arrow boards are read with
    glyphs or as benches, whichever reads the labels better; benches learn
    their colour: the candidate of ``object_colours`` that reads the labels
    best (then with the most confidence).
    """
    cells = np.asarray(cells)
    stack = CellStack(image, grid)
    if puzzle == PuzzleKind.lights:
        look = learn_look(stack.features, cells, name, PuzzleKind.lights, "colours")
        return look, read_with_look(stack.features, look)[0]
    # (cells read right, glyphs first on a tie, mean confidence), reader, cells, colour
    options: list[tuple[tuple[int, int, float], str, np.ndarray, np.ndarray | None]] = []
    glyphs = cell_glyphs(stack.board(), grid.rows, grid.cols)
    if glyphs is not None:
        read, sure = read_glyphs(glyphs, grid.rows, grid.cols)
        options.append(((int((read == cells).sum()), 1, float(sure.mean())), "glyphs", read, None))
    for colour, (read, sure) in bench_readings(stack):
        right = int((read == cells).sum())
        options.append(((right, 0, float(sure.mean())), "benches", read, colour))
    if not options:  # neither glyphs nor objects on the cells: nothing reads them
        look = learn_look(stack.features, cells, name, PuzzleKind.arrows, "glyphs")
        return look, np.full_like(cells, -1)
    _, reader, read_back, colour = max(options, key=lambda option: option[0])
    look = learn_look(stack.features, cells, name, PuzzleKind.arrows, reader)
    look.object_colour = colour
    return look, read_back
