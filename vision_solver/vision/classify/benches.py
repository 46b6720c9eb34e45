"""The bench reader: the moon-legend chairs, 3-D objects standing on grass.

Each bench is found as a colourful object on the grass, and its direction
read from its silhouette: a bench seen end-on (turned left/right) is
narrow, and its backrest is the side that rises higher; a bench seen from
behind (up) hides its seat, one facing the camera (down) shows its seat in
front of the backrest.  The benches' colour comes from the game's look, or
else from the board itself: of the colours that stand out from the grass,
the one whose benches read most surely.  Benches stand up out of their
cells, so they are read in the image, not on the rectified board.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from ..colour import far_from_chroma, lab_on_scale
from ..grid import Grid
from .cells import CELL_PX, CellStack

#: A bench seen end-on (turned left or right) is narrower than this, width over
#: height; one seen from behind or in front is wider.  Measured: end-on 0.8-1.0
#: in the moon legend capture and 0.4-0.6 in the renderer's scenes; from
#: behind 1.5-3.5 and 2.2-2.9; in front (seat showing, so taller) 1.4-1.8.
END_ON_ASPECT = 1.2
#: A bench seen front or back faces the camera (down) when its lower half is
#: lighter than its upper half by more than this many of its grey levels'
#: standard deviations: the lit seat shows in front of the backrest.
SEAT_SHOWS = 0.6
#: Colours whose chroma (a, b) lies within this of the backdrop's share its
#: colour: grass in light or shade, not an object on it.
BACKDROP_CHROMA = 12.0
#: Colours of less chroma than this are greys, whose hue means little.
GREYISH = 8.0


def _nearer_to_object(
    lab: np.ndarray, reference: np.ndarray, object_colour: np.ndarray
) -> np.ndarray:
    """Object pixels (0/1): the Lab pixels nearer in chroma to ``object_colour`` than to
    the backdrop's ``reference`` and to neutral grey (stones, paths), lightly smoothed."""
    a = lab[:, :, 1].astype(np.float32)
    b = lab[:, :, 2].astype(np.float32)

    def distance(to: tuple[float, float]) -> np.ndarray:
        da, db = a - np.float32(to[0]), b - np.float32(to[1])
        return np.sqrt(da * da + db * db)

    to_object = distance((object_colour[1], object_colour[2]))
    nearer = (to_object < distance((reference[0], reference[1]))) & (
        to_object < distance((128.0, 128.0))
    )
    mask = cv2.medianBlur(nearer.astype(np.uint8) * 255, 3) // 255
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))


def _dark(lightness: np.ndarray) -> np.ndarray:
    """The pixels darker than half the median ``lightness`` (L*, uint8): shaded faces."""
    # (the median from a histogram: the same value as np.median, a few times faster)
    below = np.bincount(lightness.ravel(), minlength=256).cumsum()
    middle = np.searchsorted(below, [(below[-1] - 1) // 2 + 1, below[-1] // 2 + 1]).mean()
    return lightness < 0.5 * float(middle)


def _grow_dark(part: np.ndarray, dark: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """Add the ``dark`` pixels (``_dark``) joined to ``part`` beside and above it (``box``:
    the part's left, top, width and height).

    The shaded faces of a bench (its backrest seen from the side) are too dark
    to show their colour.  Below the bench lies its shadow, so only the sides
    and the top are searched.
    """
    left, top, w, h = box
    region = np.zeros_like(dark)
    region[max(0, top - h // 2) : top + h, max(0, left - w // 2) : left + w + w // 2] = True
    joined = ((part > 0) | (dark & region)).astype(np.uint8)
    count, labels = cv2.connectedComponents(joined, connectivity=8)
    keep = np.unique(labels[part > 0])
    grown = np.isin(labels, keep[keep > 0])
    return cv2.morphologyEx(grown.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def bench_direction(
    mask: np.ndarray, image: np.ndarray, whole: np.ndarray | None = None
) -> tuple[int, float]:
    """Direction of one bench from its silhouette ``mask`` (0/1) and the image crop.

    ``whole`` (default ``mask``) is the silhouette with its shaded faces added:
    the lit part alone says whether the bench is turned, the whole one shows
    which side its backrest rises on.
    """
    ys, xs = np.nonzero(mask)
    width = xs.max() - xs.min() + 1
    height = ys.max() - ys.min() + 1
    aspect = width / height
    if aspect < END_ON_ASPECT:
        if whole is not None and whole.any():  # (a speck of a bench may open away)
            mask = whole
            ys, xs = np.nonzero(mask)
            height = ys.max() - ys.min() + 1
        # Seen end-on: the backrest is the half whose top rises higher.
        mid = (xs.min() + xs.max()) / 2
        tops = np.full(mask.shape[1], mask.shape[0], dtype=np.float64)
        cols_any = mask.any(axis=0)
        tops[cols_any] = mask.argmax(axis=0)[cols_any]
        left = tops[xs.min() : int(mid) + 1]
        right = tops[int(np.ceil(mid)) : xs.max() + 1]
        left_top, right_top = np.min(left), np.min(right)
        gap = abs(left_top - right_top) / height
        narrow = float(np.clip((END_ON_ASPECT - aspect) * 3, 0.3, 1))
        confidence = float(np.clip(gap * 4, 0.2, 1.0)) * narrow
        # backrest on the west side -> the sitter faces east (right)
        return (1 if left_top < right_top else 3), confidence
    # Seen from behind or in front: a bench facing the camera shows its lit seat
    # below the backrest, so its lower half is the brighter one.
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float64)
    mid_y = (ys.min() + ys.max()) / 2
    upper = gray[(mask > 0) & (np.arange(mask.shape[0])[:, None] < mid_y)]
    lower = gray[(mask > 0) & (np.arange(mask.shape[0])[:, None] >= mid_y)]
    if not len(upper) or not len(lower):
        return 0, 0.3
    contrast = (lower.mean() - upper.mean()) / max(gray[mask > 0].std(), 1.0)
    sureness = float(np.clip(0.5 + abs(contrast - SEAT_SHOWS), 0.3, 1.0))
    confidence = sureness * float(np.clip((aspect - END_ON_ASPECT) * 3, 0.3, 1))
    return (2 if contrast > SEAT_SHOWS else 0), confidence


def board_backdrop(image: np.ndarray, grid: Grid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The board's mask (0/1) and Lab pixels in the box around it, and its commonest chroma (a, b).

    Only the box around the board is converted (and searched for objects later).
    """
    h, w = image.shape[:2]
    x0, y0 = np.clip(np.floor(grid.corners.min(axis=0)).astype(int), 0, [w - 1, h - 1])
    x1, y1 = np.clip(np.ceil(grid.corners.max(axis=0)).astype(int) + 1, [x0 + 1, y0 + 1], [w, h])
    board_mask = np.zeros((y1 - y0, x1 - x0), dtype=np.uint8)
    cv2.fillConvexPoly(board_mask, np.round(grid.corners - [x0, y0]).astype(np.int32), 1)
    lab = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2LAB)
    reference = np.median(lab[board_mask > 0][:, 1:].astype(np.float32), axis=0)
    return board_mask, lab, reference


#: Candidate object colours whose hue is within this many degrees of the grass's
#: are grass, lit or shaded (0 to 7 degrees off measured; wooden benches 37 to 66).
GRASS_HUE = 25.0


#: The candidates are found among this many of the board's object pixels at most.
KMEANS_PIXELS = 8000


def object_colours(image: np.ndarray, grid: Grid, k: int = 3) -> list[np.ndarray]:
    """Candidate colours (Lab) of the objects standing on the board: benches.

    The pixels of the board that stand out from its backdrop (the grass) are
    benches, their shaded faces and shadows, and odd stones: their k-means
    centres are the candidates, one of which is the benches' own colour.
    """
    return _object_colours(*board_backdrop(image, grid), k)


def _object_colours(
    board_mask: np.ndarray, lab: np.ndarray, reference: np.ndarray, k: int = 3
) -> list[np.ndarray]:
    pixels = lab[(far_from_chroma(lab, reference) > 0) & (board_mask > 0)].astype(np.float32)
    if len(pixels) < k:
        return []
    pixels = pixels[:: -(-len(pixels) // KMEANS_PIXELS)]  # (evenly thinned: as good, faster)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.5)
    cv2.setRNGSeed(0)
    _, _, centres = cv2.kmeans(pixels, k, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
    return [
        np.round(centre.astype(np.float64), 1)
        for centre in centres
        if not _grass_hued(centre.astype(np.float64), reference)
    ]


def _grass_hued(colour: np.ndarray, grass: np.ndarray) -> bool:
    """True when a Lab ``colour`` has the hue of the ``grass`` chroma (a, b): it is
    grass in light or shade (paler or deeper), not an object on it.

    Near grey a hue means little: there only the chroma itself is compared.
    """
    ours, theirs = colour[1:] - 128.0, np.asarray(grass, dtype=np.float64) - 128.0
    if min(np.hypot(*ours), np.hypot(*theirs)) < GREYISH:
        return bool(np.hypot(*(ours - theirs)) < BACKDROP_CHROMA)
    turn = np.arctan2(ours[1], ours[0]) - np.arctan2(theirs[1], theirs[0])
    return bool(abs(np.degrees(np.angle(np.exp(1j * turn)))) < GRASS_HUE)


def bench_readings(
    stack: CellStack,
) -> Iterator[tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]]:
    """The board read as benches of each candidate colour of ``object_colours``:
    (colour, (cells, confidence)) for each, the area under the board converted once."""
    image, grid = stack.image, stack.grid
    board_mask, lab, reference = board_backdrop(image, grid)
    where = _bench_area(image, grid)
    for colour in _object_colours(board_mask, lab, reference):
        yield colour, _read_benches_as(image, grid, reference, colour, where)


def read_benches(
    stack: CellStack, object_colour: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Moon-legend benches: each cell's object read as a direction.

    Without a known ``object_colour`` (no look for the game), the benches
    are read as each candidate of ``object_colours``: the most confident
    reading wins.  Only when there is no candidate is any colour far from the
    grass a bench's: that takes in their shadows too, and on 40 renderer
    boards it read 741 of 771 cells where the candidates alone read 746.
    """
    image, grid = stack.image, stack.grid
    if object_colour is not None:
        reference = board_backdrop(image, grid)[2]
        return _read_benches_as(image, grid, reference, object_colour)
    best = None
    for _, reading in bench_readings(stack):
        if best is None or reading[1].mean() > best[1].mean():
            best = reading
    if best is None:
        reference = board_backdrop(image, grid)[2]
        return _read_benches_as(image, grid, reference, None)
    return best


@dataclass
class _BenchArea:
    """Each cell's box (image pixels), a little higher than the cell as benches stand
    up, and the image under all the boxes in Lab, its top-left at ``origin``."""

    boxes: dict[tuple[int, int], tuple[int, int, int, int]]
    origin: tuple[int, int]
    lab: np.ndarray
    darks: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)  # ``_dark`` of a box


def _bench_area(image: np.ndarray, grid: Grid) -> _BenchArea:
    h, w = image.shape[:2]
    boxes = {}
    for r in range(grid.rows):
        for c in range(grid.cols):
            quad = grid.cell_quad(r, c)
            x0, y0 = np.floor(quad.min(axis=0)).astype(int)
            x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
            y0 -= int(0.35 * (y1 - y0))
            boxes[r, c] = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    bx0, by0 = min(b[0] for b in boxes.values()), min(b[1] for b in boxes.values())
    bx1, by1 = max(b[2] for b in boxes.values()), max(b[3] for b in boxes.values())
    area = image[by0:by1, bx0:bx1]
    lab = cv2.cvtColor(area, cv2.COLOR_BGR2LAB) if area.size else area
    return _BenchArea(boxes, (bx0, by0), lab)


def _read_benches_as(
    image: np.ndarray,
    grid: Grid,
    reference: np.ndarray,
    object_colour: np.ndarray | None,
    where: _BenchArea | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``read_benches`` with benches of ``object_colour`` on grass of chroma ``reference``.

    ``reference`` is the grass's (a, b); with no ``object_colour``, any
    colour far from the grass is a bench's.  ``where`` is ``_bench_area``,
    when known (one for every colour tried).
    """
    rows, cols = grid.rows, grid.cols
    cells = np.zeros((rows, cols), dtype=np.int64)
    confidence = np.zeros((rows, cols))
    if where is None:
        where = _bench_area(image, grid)
    boxes, (bx0, by0), lab = where.boxes, where.origin, where.lab
    known = None
    if object_colour is not None and lab.size:
        known = _nearer_to_object(lab, reference, object_colour)
    for (r, c), (x0, y0, x1, y1) in boxes.items():
        crop = image[y0:y1, x0:x1]
        if crop.size == 0:
            confidence[r, c] = 0.0
            continue
        inside = slice(y0 - by0, y1 - by0), slice(x0 - bx0, x1 - bx0)
        # (no colour known: any colour far from the grass's, split cell by cell)
        mask = known[inside] if known is not None else far_from_chroma(lab[inside], reference)
        count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, 8)
        if count < 2:
            confidence[r, c] = 0.0
            continue
        # A bench stands on its cell: its foot (bottom of its box) is near the
        # cell's centre; stones and paths are big, ragged and off-centre.
        centre = grid.to_image(np.array([[c + 0.5, r + 0.5]]))[0] - [x0, y0]
        span = max(1, x1 - x0)
        feet = np.column_stack(
            [
                stats[1:, cv2.CC_STAT_LEFT] + stats[1:, cv2.CC_STAT_WIDTH] / 2,
                stats[1:, cv2.CC_STAT_TOP] + stats[1:, cv2.CC_STAT_HEIGHT],
            ]
        )
        box_areas = stats[1:, cv2.CC_STAT_WIDTH] * stats[1:, cv2.CC_STAT_HEIGHT]
        solidity = stats[1:, cv2.CC_STAT_AREA] / np.maximum(box_areas, 1)
        scores = (
            stats[1:, cv2.CC_STAT_AREA]
            * solidity**2
            / (1 + 3 * np.linalg.norm(feet - centre, axis=1) / span)
        )
        best = 1 + int(np.argmax(scores))
        part = (labels == best).astype(np.uint8)
        whole = None
        if known is not None:
            if (r, c) not in where.darks:  # (the same for every colour tried)
                where.darks[r, c] = _dark(lab[inside][:, :, 0])
            whole = _grow_dark(part, where.darks[r, c], tuple(stats[best, :4]))
        cells[r, c], confidence[r, c] = bench_direction(part, crop, whole)
    return cells, confidence


#: Objects on grass: the backdrop's texture (median |Laplacian| of L*, 0..255,
#: at up to 32 px a cell) is at least this.  Flat tiles measure 0 to 16, the
#: moon legend capture's grass 20 and up, but smoother grass (made-up looks
#: seen from afar) 6 to 18: the texture only keeps out a backdrop with none,
#: the tests below keep out tiles (a cell of a tile board is wholly one
#: colour, not an object on the backdrop's colour) ...
GRASS_TEXTURE = 5.0


#: ... and this share of the cells holds an object that covers 3 to 60% of it.
HELD_CELLS = 0.9


#: Most cells (this share) have the backdrop's colour (within BACKDROP_CHROMA
#: of the board's median) on grass; on a half-lit board of tiles half do not.
MOSTLY_BACKDROP = 0.6
#: A cell with at least this much ink (percent of its middle unlike its own
#: colour) is not flat: every cell of grass with a bench on it has some.
NOT_FLAT_INK = 5.0


def objects_on_grass(stack: CellStack) -> bool:
    """True when every cell holds one object on a textured backdrop: benches on grass.

    Lights boards are tiles: a cell is wholly one state, its colour flat (or
    a lit cell stands out whole from the unlit ones).  A chair board is grass
    in every cell with a bench standing on it.  The cells' features skip
    most tile boards at once: grass is the middle of most cells (of all but
    those whose bench stands over it), so most share one colour, and no cell
    is flat.
    """
    features, grid = stack.features, stack.grid
    ab = features[..., 1:3].reshape(-1, 2)
    spread = np.linalg.norm(ab - np.median(ab, axis=0), axis=1)
    if (
        np.mean(spread < BACKDROP_CHROMA) < MOSTLY_BACKDROP
        or np.mean(features[..., 3] >= NOT_FLAT_INK) < HELD_CELLS
    ):
        return False  # cells of two colours (half lit), or flat ones: tiles
    # (no larger than the cells are seen: enlarging would smooth the grass)
    cell_px = int(np.clip(round(grid.pitch()), 8, CELL_PX))
    lab = cv2.cvtColor(stack.board(cell_px), cv2.COLOR_BGR2LAB)
    reference = np.median(lab[:, :, 1:].reshape(-1, 2).astype(np.float32), axis=0)
    objects = far_from_chroma(lab, reference)
    backdrop = objects == 0
    if not backdrop.any():
        return False
    roughness = np.abs(cv2.Laplacian(lab[:, :, 0], cv2.CV_32F, ksize=3))
    if float(np.median(roughness[backdrop])) < GRASS_TEXTURE:
        return False
    share = objects.reshape(grid.rows, cell_px, grid.cols, cell_px).mean(axis=(1, 3))
    return bool(np.mean((share > 0.03) & (share < 0.6)) >= HELD_CELLS)


#: A floor of tiles, one a cell, shows its grout along the cells' edges: the
#: board's lines between cells differ in lightness from the floor beside them
#: by this much or more (``grout_lines``, L*).  Measured on the tuning looks
#: (40 boards a family): chairs on stone tiles 10.3 and up on their true
#: grids, 7.2 and up as located (grids a little off); benches on grass 4.6 at
#: most; the moon legend capture 2.7, the renderer's own benches 1.7 to 3.3.
GROUT_LINES = 6.0
#: ... seen on the board rectified at this many pixels a cell.
GROUT_PX = 40


def grout_lines(stack: CellStack) -> float:
    """How much the board's lines between cells differ in lightness from the floor beside
    them (L*): the median over the inner lines.

    Grass has nothing along the cells' edges (the board is only where the
    objects stand), a tiled floor its grout: objects on tiles are seen from
    above, on their own floor, not benches on grass.  Each line is seen by
    its cross-section (the median along it of the lightness at each distance
    across it), as the cross-section's farthest point within a GROUT_PX-th
    of an eighth of a cell of the grid's line from its level beside it (0.08
    to 0.2 of a cell off): a grid a little off still shows its lines.
    """
    grid, px = stack.grid, GROUT_PX
    lightness = lab_on_scale(stack.board(px))[..., 0]
    reach, near, far = px // 8, int(0.08 * px), int(0.2 * px)
    sections = [lightness[:, at - far : at + far].T for at in range(px, grid.cols * px, px)]
    sections += [lightness[at - far : at + far] for at in range(px, grid.rows * px, px)]
    if not sections:
        return 0.0
    seen = []
    for section in sections:
        profile = np.median(section, axis=1)  # (2 * far,): across the line
        beside = np.median(np.concatenate([profile[: far - near], profile[far + near :]]))
        seen.append(float(np.abs(profile[far - reach : far + reach] - beside).max()))
    return float(np.median(seen))


def face_profile_groups(cells: np.ndarray, one_by_one: np.ndarray) -> np.ndarray:
    """``cells`` (a board read as a whole: directions by groups of look-alikes) with its two
    side-on groups (facing right, 1, and left, 3) swapped when the benches' own silhouettes
    say so, one decision for the board.

    The two side-on groups are mirror images of each other, and which of them faces right
    is the one question their looks leave open: a bench seen end-on has its backrest on
    the side that rises higher (``bench_direction``), the left for one facing right.  Read
    one by one that leans one way on some looks (shadows, a post at the near end), but
    alike for both groups: so the group whose cells read 'right' more often (their share
    read 1 less their share read 3) is the one facing right.  ``one_by_one``: the
    directions ``read_benches`` gives the board's cells.
    """
    right, left = cells == 1, cells == 3
    if not right.any() or not left.any():
        return cells

    def leaning_right(group: np.ndarray) -> float:
        return float(np.mean(one_by_one[group] == 1) - np.mean(one_by_one[group] == 3))

    if leaning_right(right) >= leaning_right(left):
        return cells
    swapped = cells.copy()
    swapped[right], swapped[left] = 3, 1
    return swapped
