"""The classify stage: the state of every cell, with a confidence.

Lights boards: each cell is summarised by its typical colour (median Lab of
its inner part) and its "ink" (how much of it differs from that colour: a
check mark, a glyph).  Cells split into two groups; which group is "lit" is
either known from a matching look (``models/``) or decided by the generic
rule: the more colourful state is lit; between two greys the brighter one;
between two equally bright greys the one carrying a mark.

Arrow boards: the glyph of each cell (the minority colour of its inner part)
points the way its shape says: away from the hollow of its hull (a chevron's
V, the notches beside an arrow's shaft), or toward its sharpest tip.

Chair boards (moon legend): each bench is found as a colourful object on the
grass, and its direction read from its silhouette: a bench seen end-on
(turned left/right) is narrow, and its backrest is the side that rises
higher; a bench seen from behind (up) hides its seat, one facing the camera
(down) shows its seat in front of the backrest.  The benches' colour comes
from the game's look, or else from the board itself: of the colours that
stand out from the grass, the one whose benches read most surely.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .colour import far_from_chroma
from .grid import Grid
from .looks import Look, learn_look, match_look, state_distances

CELL_PX = 32
#: Glyphs are read at this many pixels a cell.
GLYPH_PX = 64


def inset_for(tile: float) -> float:
    """Margin (fraction of the cell, each side) that leaves the middle of the tile."""
    return float(np.clip(0.5 - 0.32 * tile, 0.15, 0.4))


@dataclass
class CellReading:
    """What the classify stage read."""

    puzzle: str  # "lights" or "arrows"
    cells: np.ndarray  # (rows, cols) int64
    confidence: np.ndarray  # (rows, cols) float64 in [0, 1]
    look: str  # name of the look used, or "generic"

    @property
    def states(self) -> int:
        return 2 if self.puzzle == "lights" else 4


def grid_features(image: np.ndarray, grid: Grid) -> np.ndarray:
    """``cell_features`` of every cell of ``grid``: what reading and learning compare.

    Cells are sampled at CELL_PX pixels, or half that on boards of more than
    144 cells (enough pixels still, and four times fewer to warp and sort).
    """
    cell_px = CELL_PX // 2 if grid.rows * grid.cols > 144 else CELL_PX
    board = grid.rectify(image, cell_px)
    return cell_features(board, grid.rows, grid.cols, grid.tile, cell_px)


def cell_features(
    board: np.ndarray, rows: int, cols: int, tile: float = 0.8, cell_px: int = CELL_PX
) -> np.ndarray:
    """``(rows, cols, 4)``: median L*, a, b of each cell's inner part, and 100 x ink.

    L* is on the 0..100 scale; a and b are OpenCV's (128 = grey).
    """
    lab = cv2.cvtColor(board, cv2.COLOR_BGR2LAB)
    a = int(round(inset_for(tile) * cell_px))
    b = cell_px - a
    # (rows, cols, channel, pixel): each channel of each cell's inner part in a row
    inner = lab.reshape(rows, cell_px, cols, cell_px, 3)[:, a:b, :, a:b, :]
    inner = inner.transpose(0, 2, 4, 1, 3).reshape(rows, cols, 3, -1)
    # The median, by partial sorting of the bytes (what np.median does, faster).
    n = inner.shape[3]
    middle = np.partition(inner, [(n - 1) // 2, n // 2], axis=3)
    median = (middle[..., (n - 1) // 2].astype(np.float32) + middle[..., n // 2]) / 2
    scale = np.array([100.0 / 255.0, 1.0, 1.0], dtype=np.float32)  # L* to 0..100
    median *= scale
    diff = inner.astype(np.float32)
    diff *= scale[:, None]
    diff -= median[..., None]
    ink = (np.square(diff, out=diff).sum(axis=2) > 20.0**2).mean(axis=2)
    return np.concatenate([median, 100 * ink[..., None]], axis=2)


#: Feature weights for telling states apart: hue and saturation count more than
#: lightness, so a cursor's glow or a shadow does not pass for a lit cell.
_WEIGHTS = np.array([0.5, 1.5, 1.5, 1.0])


def _mode_cluster(points: np.ndarray, radius: float) -> np.ndarray:
    """Mask of the densest tight cluster of ``points`` (mean-shift from the densest point)."""
    # squared distances from a Gram matrix: no (n, n, d) array of differences
    # (single precision is plenty to count neighbours within a radius)
    single = points.astype(np.float32)
    square = np.square(single).sum(axis=1)
    dist2 = single @ (-2.0 * single.T).astype(np.float32)
    dist2 += square[:, None]
    dist2 += square[None, :]
    centre = points[int(np.argmax(np.count_nonzero(dist2 < radius**2, axis=1)))]
    member = np.zeros(len(points), dtype=bool)
    for _ in range(5):
        member = np.linalg.norm(points - centre, axis=1) < 1.5 * radius
        centre = points[member].mean(axis=0)
    return member


def _chroma(lab: np.ndarray) -> np.ndarray:
    return np.hypot(lab[..., 1] - 128.0, lab[..., 2] - 128.0)


def _lit_group(groups: list[np.ndarray]) -> int:
    """Which of two groups of cells ([L, a, b, ink] rows) is lit, by the generic rule.

    The more colourful group (mean chroma of its cells); between two greys of
    very different lightness the brighter (a filled tile against an outline);
    otherwise the one carrying more of a mark (a checked box).
    """
    chroma = [float(_chroma(g[:, :3]).mean()) for g in groups]
    if abs(chroma[0] - chroma[1]) > 15:
        return int(np.argmax(chroma))
    light = [float(g[:, 0].mean()) for g in groups]
    ink = [float(g[:, 3].mean()) for g in groups]
    if abs(light[0] - light[1]) > 30 or abs(ink[0] - ink[1]) < 3:
        return int(np.argmax(light))
    return int(np.argmax(ink))


def read_lights(features: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Generic two-state reading: (cells, confidence).

    One state is the densest tight group of cells (a game draws all its cells
    of one state alike).  If the remaining cells also share one look, every
    cell goes to the nearer of the two looks; if they vary (games that paint
    each lit cell a different colour), they are simply "not the first group".
    """
    rows, cols, _ = features.shape
    points = features.reshape(-1, 4).astype(np.float64) * _WEIGHTS
    first = _mode_cluster(points, radius=12.0)
    if first.all():
        # One state only: lit if the board is colourful, dark otherwise.
        lit = bool(_chroma(features.reshape(-1, 4)[:, :3]).mean() > 25)
        return np.full((rows, cols), int(lit)), np.full((rows, cols), 0.6)
    rest = points[~first]
    second_core = _mode_cluster(rest, radius=12.0)
    raw = features.reshape(-1, 4).astype(np.float64)
    if second_core.sum() >= 0.3 * len(rest):
        centres = np.array([points[first].mean(axis=0), rest[second_core].mean(axis=0)])
        d = np.linalg.norm(points[:, None, :] - centres[None, :, :], axis=2)
        labels = d.argmin(axis=1)
        own = d[np.arange(len(points)), labels]
        other = d[np.arange(len(points)), 1 - labels]
        # A cell far from both looks is usually under a cursor, which brightens:
        # between the two it is the darker state, above both the brighter one.
        colour_own = np.linalg.norm(points[:, :3] - centres[labels, :3], axis=1)
        odd = colour_own > 0.35 * np.linalg.norm(centres[0, :3] - centres[1, :3])
        if odd.any():
            light = centres[:, 0] / _WEIGHTS[0]
            darker, brighter = int(np.argmin(light)), int(np.argmax(light))
            labels[odd] = np.where(raw[odd, 0] > light.max(), brighter, darker)
        confidence = np.clip((other - own) / np.maximum(other + own, 1e-9), 0, 1)
        confidence[odd] = 0.3
    else:
        labels = (~first).astype(np.int64)
        spread = np.linalg.norm(points - points[first].mean(axis=0), axis=1)
        confidence = np.clip(np.abs(spread - 18.0) / 18.0, 0, 1)
    lit_group = _lit_group([raw[labels == 0], raw[labels == 1]])
    cells = (labels == lit_group).astype(np.int64)
    return cells.reshape(rows, cols), (0.5 + 0.5 * confidence).reshape(rows, cols)


def read_with_look(features: np.ndarray, look: Look) -> tuple[np.ndarray, np.ndarray]:
    """Nearest prototype of a look: (cells, confidence)."""
    rows, cols, _ = features.shape
    points = features.reshape(-1, 4).astype(np.float64)
    states = sorted(look.prototypes)
    best = state_distances(points, look)
    order = np.sort(best, axis=1)
    cells = np.array(states)[best.argmin(axis=1)]
    margin = (order[:, 1] - order[:, 0]) / np.maximum(order[:, 1] + order[:, 0], 1e-9)
    fit = np.clip(1 - order[:, 0] / (2 * look.tolerance), 0, 1)
    confidence = np.clip(0.5 + 0.5 * margin, 0, 1) * (0.5 + 0.5 * fit)
    return cells.reshape(rows, cols).astype(np.int64), confidence.reshape(rows, cols)


# --- arrows -----------------------------------------------------------------------------------

#: Unit vectors (dx, dy) in image coordinates for up, right, down, left.
_DIRECTIONS = np.array([[0, -1], [1, 0], [0, 1], [-1, 0]], dtype=np.float64)


def glyph_mask(cell: np.ndarray) -> np.ndarray | None:
    """The glyph of a rectified cell (BGR or grey) as a 0/1 mask: the minority side of Otsu."""
    gray = cell if cell.ndim == 2 else cv2.cvtColor(cell, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    m = int(0.14 * h)
    inner = gray[m : h - m, m : w - m]
    if int(inner.max()) - int(inner.min()) < 30:
        return None
    _, mask = cv2.threshold(inner, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if cv2.countNonZero(mask) > 0.5 * mask.size:
        mask = 1 - mask
    # The glyph is the largest component; a glyph sits in the middle, so one
    # lying along the window's edge is a tile rim, a gap or a bevel: then try
    # the largest component that keeps clear of the edge.  A big glyph (an
    # arrow across the whole tile) may touch the window a little, on one side
    # or on two opposite ones; a rim's corner touches two sides that meet.
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count < 2:
        return None
    order = 1 + np.argsort(-stats[1:, cv2.CC_STAT_AREA])
    height, width = labels.shape
    rim = 2 * (height + width)
    for k in order[:3].tolist():
        if stats[k, cv2.CC_STAT_AREA] < 0.02 * labels.size:
            return None
        top, bottom, left, right = (
            np.count_nonzero(side == k)
            for side in (labels[0], labels[-1], labels[:, 0], labels[:, -1])
        )
        total = top + bottom + left + right
        corner = (top or bottom) and (left or right)
        brief = max(top, bottom) <= 0.4 * width and max(left, right) <= 0.4 * height
        if total <= 0.05 * rim or (total <= 0.1 * rim and brief and not corner):
            return (labels == k).astype(np.uint8)
    return None


def _centroid(mask: np.ndarray) -> np.ndarray:
    """(x, y) mean of a non-empty 0/1 mask's pixels."""
    m = cv2.moments(mask, binaryImage=True)
    return np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])


def glyph_direction(glyph: np.ndarray) -> tuple[int, float]:
    """Direction (0 up, 1 right, 2 down, 3 left) a glyph points, and a confidence."""
    centroid = _centroid(glyph)
    contours, _ = cv2.findContours(glyph, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(np.vstack(contours))
    hull_mask = np.zeros_like(glyph)
    cv2.fillConvexPoly(hull_mask, hull, 1)
    hollow = cv2.bitwise_and(hull_mask, cv2.bitwise_not(glyph))  # 0/1: in the hull, not ink
    if cv2.countNonZero(hollow) > 0.12 * cv2.countNonZero(hull_mask):
        # The hollow of the hull (inside a chevron's V, beside an arrow's shaft)
        # lies behind the point: the arrow points from the hollow to the ink.
        vector = centroid - _centroid(hollow)
    else:
        # A solid shape (a triangle): it points to the hull corner farthest out.
        pts = hull.reshape(-1, 2).astype(np.float64)
        far = pts[np.argmax(np.linalg.norm(pts - centroid, axis=1))]
        vector = far - centroid
    norm = np.linalg.norm(vector)
    if norm < 1e-6:
        return 0, 0.0
    cosines = _DIRECTIONS @ (vector / norm)
    best = int(np.argmax(cosines))
    # 1 when the vector lies on an axis, 0 when it is diagonal (45 degrees)
    confidence = float(np.clip((cosines[best] - np.sqrt(0.5)) / (1 - np.sqrt(0.5)), 0, 1))
    return best, confidence


@dataclass
class Glyph:
    """A cell's glyph (0/1 mask) and the way it points, with a confidence."""

    mask: np.ndarray
    direction: int
    confidence: float


def cell_glyphs(
    board: np.ndarray, rows: int, cols: int, pointing: bool = False
) -> list[Glyph] | None:
    """The glyph of every cell of a rectified board (row-major), or None if one has none.

    With ``pointing``, also None as soon as a glyph does not clearly point
    one way (a digit, a dot): then the board is not an arrow board.
    """
    glyphs = []
    gray = cv2.cvtColor(board, cv2.COLOR_BGR2GRAY)
    for r in range(rows):
        # Enlarged a row of cells at a time (most boards without glyphs give up
        # at the first cell), then cut into cells.
        strip = gray[r * CELL_PX : (r + 1) * CELL_PX]
        big = cv2.resize(strip, (cols * GLYPH_PX, GLYPH_PX), interpolation=cv2.INTER_CUBIC)
        for c in range(cols):
            mask = glyph_mask(big[:, c * GLYPH_PX : (c + 1) * GLYPH_PX])
            if mask is None:
                return None
            glyph = Glyph(mask, *glyph_direction(mask))
            if pointing and glyph.confidence < 0.4:
                return None
            glyphs.append(glyph)
    return glyphs


def read_glyphs(glyphs: list[Glyph], rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Directions and confidences of the cells' glyphs."""
    cells = np.array([g.direction for g in glyphs], dtype=np.int64).reshape(rows, cols)
    return cells, np.array([g.confidence for g in glyphs]).reshape(rows, cols)


def looks_like_glyphs(glyphs: list[Glyph]) -> bool:
    """Every cell carries the same clearly pointing glyph (up to rotation)."""
    canonical = []
    extents: list[float] = []
    for glyph in glyphs:
        if glyph.confidence < 0.4:
            return False
        # frame it on its bounding box and turn it to point up
        x, y, w, h = cv2.boundingRect(glyph.mask)
        extents.append(max(w - 1, h - 1) / glyph.mask.shape[0])
        box = np.rot90(glyph.mask[y : y + h, x : x + w], k=glyph.direction)
        canonical.append(cv2.resize(box, (24, 24), interpolation=cv2.INTER_NEAREST))
    # An arrow fills a good part of its tile; a corner mark or a speck does not.
    if np.median(extents) < 0.35:
        return False
    stack = np.array(canonical) > 0

    def overlap(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Intersection over union of each glyph in ``a`` with ``b``."""
        both = np.logical_and(a, b).sum(axis=(1, 2))
        return both / np.maximum(1, np.logical_or(a, b).sum(axis=(1, 2)))

    # A mark that looks the same turned a quarter (a dot, a ring, a square) points nowhere.
    if np.median(overlap(stack, np.rot90(stack, axes=(1, 2)))) > 0.75:
        return False
    typical = np.median(stack.astype(np.float64), axis=0) > 0.5
    return bool(np.median(overlap(stack, typical[None])) > 0.6)


# --- chairs -----------------------------------------------------------------------------------

#: A bench seen end-on (turned left or right) is narrower than this, width over
#: height; one seen from behind or in front is wider.  Measured: end-on 0.8-1.0
#: in the moon legend capture and 0.4-0.6 in the renderer's scenes; from
#: behind 1.5-3.5 and 2.2-2.9; in front (seat showing, so taller) 1.4-1.8.
END_ON_ASPECT = 1.2


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


def _grow_dark(part: np.ndarray, lightness: np.ndarray) -> np.ndarray:
    """Add the dark pixels joined to ``part`` beside and above it (``lightness``: L*, uint8).

    The shaded faces of a bench (its backrest seen from the side) are too dark
    to show their colour.  Below the bench lies its shadow, so only the sides
    and the top are searched.
    """
    # (the median from a histogram: the same value as np.median, a few times faster)
    below = np.bincount(lightness.ravel(), minlength=256).cumsum()
    middle = np.searchsorted(below, [(below[-1] - 1) // 2 + 1, below[-1] // 2 + 1]).mean()
    dark = lightness < 0.5 * float(middle)
    ys, xs = np.nonzero(part)
    w, h = xs.max() - xs.min() + 1, ys.max() - ys.min() + 1
    region = np.zeros_like(dark)
    region[
        max(0, ys.min() - h // 2) : ys.max() + 1, max(0, xs.min() - w // 2) : xs.max() + 1 + w // 2
    ] = True
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
    sureness = float(np.clip(0.5 + abs(contrast - 0.6), 0.3, 1.0))
    confidence = sureness * float(np.clip((aspect - END_ON_ASPECT) * 3, 0.3, 1))
    return (2 if contrast > 0.6 else 0), confidence


def _board_backdrop(image: np.ndarray, grid: Grid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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


def object_colours(image: np.ndarray, grid: Grid, k: int = 3) -> list[np.ndarray]:
    """Candidate colours (Lab) of the objects standing on the board: benches.

    The pixels of the board that stand out from its backdrop (the grass) are
    benches, their shaded faces and shadows, and odd stones: their k-means
    centres are the candidates, one of which is the benches' own colour.
    """
    return _object_colours(*_board_backdrop(image, grid), k)


def _object_colours(
    board_mask: np.ndarray, lab: np.ndarray, reference: np.ndarray, k: int = 3
) -> list[np.ndarray]:
    pixels = lab[(far_from_chroma(lab, reference) > 0) & (board_mask > 0)].astype(np.float32)
    if len(pixels) < k:
        return []
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
    if min(np.hypot(*ours), np.hypot(*theirs)) < 8.0:
        return bool(np.hypot(*(ours - theirs)) < 12.0)
    turn = np.arctan2(ours[1], ours[0]) - np.arctan2(theirs[1], theirs[0])
    return bool(abs(np.degrees(np.angle(np.exp(1j * turn)))) < GRASS_HUE)


def read_benches(
    image: np.ndarray, grid: Grid, object_colour: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Moon-legend benches: each cell's object read as a direction.

    Without a known ``object_colour`` (no look for the game), the benches
    are read as each candidate of ``object_colours``: the most confident
    reading wins.  Only when there is no candidate is any colour far from the
    grass a bench's: that takes in their shadows too, and on 40 renderer
    boards it read 741 of 771 cells where the candidates alone read 746.
    """
    board_mask, lab, reference = _board_backdrop(image, grid)
    where = _bench_area(image, grid)
    if object_colour is not None:
        return _read_benches_as(image, grid, reference, object_colour, where)
    best = None
    for colour in _object_colours(board_mask, lab, reference):
        reading = _read_benches_as(image, grid, reference, colour, where)
        if best is None or reading[1].mean() > best[1].mean():
            best = reading
    return best if best is not None else _read_benches_as(image, grid, reference, None, where)


@dataclass
class _BenchArea:
    """Each cell's box (image pixels), a little higher than the cell as benches stand
    up, and the image under all the boxes in Lab, its top-left at ``origin``."""

    boxes: dict[tuple[int, int], tuple[int, int, int, int]]
    origin: tuple[int, int]
    lab: np.ndarray


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
        whole = _grow_dark(part, lab[inside][:, :, 0]) if known is not None else None
        cells[r, c], confidence[r, c] = bench_direction(part, crop, whole)
    return cells, confidence


#: Objects on grass: the backdrop's texture (median |Laplacian| of L*, 0..255,
#: at up to 32 px a cell) is at least this; flat tiles measure 0 to 16 ...
GRASS_TEXTURE = 20.0
#: ... and this share of the cells holds an object that covers 3 to 60% of it.
HELD_CELLS = 0.9


def objects_on_grass(image: np.ndarray, grid: Grid, features: np.ndarray | None = None) -> bool:
    """True when every cell holds one object on a textured backdrop: benches on grass.

    Lights boards are tiles: a cell is wholly one state, its colour flat (or
    a lit cell stands out whole from the unlit ones).  A chair board is grass
    in every cell with a bench standing on it.  The cells' features, when
    given, skip most tile boards at once: grass is the middle of most cells
    (of all but those whose bench stands over it), so most share one colour,
    and no cell is flat.
    """
    if features is not None:
        chroma = features[..., 1:3].reshape(-1, 2)
        spread = np.linalg.norm(chroma - np.median(chroma, axis=0), axis=1)
        if np.mean(spread < 12.0) < 0.6 or np.mean(features[..., 3] >= 5.0) < HELD_CELLS:
            return False  # cells of two colours (half lit), or flat ones: tiles
    # (no larger than the cells are seen: enlarging would smooth the grass)
    cell_px = int(np.clip(round(grid.pitch()), 8, CELL_PX))
    board = grid.rectify(image, cell_px)
    lab = cv2.cvtColor(board, cv2.COLOR_BGR2LAB)
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


def read_cells(
    image: np.ndarray, grid: Grid, puzzle: str = "auto", looks: list[Look] | None = None
) -> CellReading:
    """Read every cell of ``grid`` in ``image``: ``puzzle`` is lights, arrows or auto."""
    features = grid_features(image, grid)
    look = match_look(features, looks or [], puzzle)
    rows, cols = grid.rows, grid.cols
    if look is not None:
        if look.reader == "benches":
            cells, confidence = read_benches(image, grid, look.object_colour)
        elif look.reader == "glyphs":
            glyphs = cell_glyphs(grid.rectify(image, CELL_PX), rows, cols)
            if glyphs is None:  # no glyph to read anywhere: nothing is known
                cells, confidence = np.zeros((rows, cols), np.int64), np.zeros((rows, cols))
            else:
                cells, confidence = read_glyphs(glyphs, rows, cols)
        else:
            cells, confidence = read_with_look(features, look)
        return CellReading(look.puzzle, cells, confidence, look.name)
    if puzzle in ("arrows", "auto"):
        glyphs = None
        # Most boards without glyphs show it in their first row: read that
        # alone before the whole board (a one-row grid, its corners refitted).
        first_row = Grid(1, cols, grid.homography, grid.corners).with_homography(grid.homography)
        if puzzle == "arrows" or cell_glyphs(
            first_row.rectify(image, CELL_PX), 1, cols, pointing=True
        ):
            glyphs = cell_glyphs(
                grid.rectify(image, CELL_PX), rows, cols, pointing=puzzle == "auto"
            )
        if glyphs is not None and (puzzle == "arrows" or looks_like_glyphs(glyphs)):
            cells, confidence = read_glyphs(glyphs, rows, cols)
            return CellReading("arrows", cells, confidence, "generic")
        if puzzle == "arrows" or objects_on_grass(image, grid, features):
            cells, confidence = read_benches(image, grid)
            return CellReading("arrows", cells, confidence, "generic")
    cells, confidence = read_lights(features)
    return CellReading("lights", cells, confidence, "generic")


def learn_from_board(
    image: np.ndarray, grid: Grid, cells: np.ndarray, name: str, puzzle: str
) -> tuple[Look, np.ndarray]:
    """A look learned from one correctly labelled board, and that board read back with it.

    Lights boards learn their cells' colours.  Arrow boards are read with
    glyphs or as benches, whichever reads the labels better; benches learn
    their colour: the candidate of ``object_colours`` that reads the labels
    best (then with the most confidence).
    """
    cells = np.asarray(cells)
    features = grid_features(image, grid)
    if puzzle == "lights":
        look = learn_look(features, cells, name, "lights", "colours")
        return look, read_with_look(features, look)[0]
    rows, cols = grid.rows, grid.cols
    # (cells read right, glyphs first on a tie, mean confidence), reader, cells, colour
    options: list[tuple[tuple[int, int, float], str, np.ndarray, np.ndarray | None]] = []
    glyphs = cell_glyphs(grid.rectify(image, CELL_PX), rows, cols)
    if glyphs is not None:
        read, sure = read_glyphs(glyphs, rows, cols)
        right = int((read == cells).sum())
        options.append(((right, 1, float(sure.mean())), "glyphs", read, None))
    board_mask, lab, reference = _board_backdrop(image, grid)
    where = _bench_area(image, grid)
    for colour in _object_colours(board_mask, lab, reference):
        read, sure = _read_benches_as(image, grid, reference, colour, where)
        right = int((read == cells).sum())
        options.append(((right, 0, float(sure.mean())), "benches", read, colour))
    if not options:  # neither glyphs nor objects on the cells: nothing reads them
        return learn_look(features, cells, name, "arrows", "glyphs"), np.full_like(cells, -1)
    _, reader, read_back, colour = max(options, key=lambda option: option[0])
    look = learn_look(features, cells, name, "arrows", reader)
    look.object_colour = colour
    return look, read_back
