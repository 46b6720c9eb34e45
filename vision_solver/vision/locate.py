"""The locate stage: find the board's cells among everything else in the image.

A board is a lattice of look-alike cells.  We cut the image into candidate
blobs (flat-coloured regions and colour-cluster components), keep those of
cell-like shape, and look for the largest set of similar blobs that sit on a
regular 2-D lattice.  The lattice is fitted as a homography from lattice
coordinates (col, row) to image pixels, so a tilted photo is the same problem
as a screenshot, only with a less trivial homography.  On a board without
gaps, cells of one state merge into larger regions; the lattice found from
the isolated cells then grows over the regions made of whole cells.

The result is the board's four outer corners (the outer edge of the cell
grid, clockwise from the top-left) and its homography; the grid stage then
settles the rows and columns.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from ..errors import BoardInputError

#: A board in a frame is looked for once the first FRAME_AFTER stages found
#: no complete board of tiles (most tile boards end the search by then).
FRAME_AFTER = 2
#: ... or at once, in an image less than this share of which is flat (grass:
#: 0.01 to 0.13; photos 0.2; screenshots of tile boards 0.65 and up).
TEXTURED = 0.4
#: First look at images scaled so their longer side is at most this (speed) ...
COARSE_SIDE = 800
#: ... and again, finer, when the cells found there are smaller than MIN_PITCH.
MAX_SIDE = 2000
MIN_PITCH = 18.0
#: Small images are enlarged so their shorter side is at least this.
MIN_SIDE = 320
#: The first stages of ``candidate_stages`` (objects on the backdrop, flat
#: regions) may end the search early.
EARLY_STAGES = 3


@dataclass
class Blob:
    x: float  # centroid, work-image pixels
    y: float
    w: int
    h: int
    area: int
    fill: float  # area / bbox area
    source: str
    colour: tuple[float, float, float] = (0.0, 0.0, 0.0)  # mean Lab
    size: float = 0.0  # sqrt(w * h)

    def __post_init__(self) -> None:
        self.size = math.sqrt(self.w * self.h)


class Pool:
    """The blobs a lattice may take in, with their centres, sizes and fills as arrays.

    Built once per stage: every size group's lattice looks through it.
    """

    def __init__(self, blobs: list[Blob]) -> None:
        self.blobs = blobs
        self.xy = np.array([(b.x, b.y) for b in blobs], dtype=np.float64).reshape(-1, 2)
        self.size = np.array([b.size for b in blobs], dtype=np.float64)
        self.fill = np.array([b.fill for b in blobs], dtype=np.float64)


@dataclass
class Lattice:
    """Cells found on a lattice: ``homography`` maps (col, row) to work pixels."""

    homography: np.ndarray
    members: dict[tuple[int, int], Blob]
    rows: tuple[int, int]  # min, max row index (inclusive)
    cols: tuple[int, int]
    score: float
    group: int = 0  # blobs in the size group it was fitted to
    finer: bool = False  # look-alikes sit half-way between its points: a finer board?

    @property
    def shape(self) -> tuple[int, int]:
        return self.rows[1] - self.rows[0] + 1, self.cols[1] - self.cols[0] + 1


@dataclass
class BoardLocation:
    """Where the board is: corners and the homography of its cell grid.

    ``homography`` maps board coordinates (u, v) in [0, cols] x [0, rows]
    (cell (r, c) spans u in [c, c+1], v in [r, r+1]) to image pixels (x, y).
    ``rows``/``cols`` are the lattice's own count, which the grid stage checks.
    """

    corners: np.ndarray  # (4, 2) float64: TL, TR, BR, BL in image pixels
    homography: np.ndarray  # 3 x 3
    rows: int
    cols: int
    confidence: float
    framed: bool = False  # the outline is a frame's inner edge: the grid stage keeps it

    def __bool__(self) -> bool:
        return True


@dataclass
class NotFound:
    """Detection failed; ``reason`` says why (falsy, like a failed estimation)."""

    reason: str

    def __bool__(self) -> bool:
        return False


@dataclass
class Regions:
    """The flat regions of a work image: each pixel's region (0: not flat) and their stats."""

    labels: np.ndarray  # int32, the work image's shape
    stats: np.ndarray  # OpenCV's (x, y, w, h, area) of each region


def _work_image(image: np.ndarray, max_side: int = MAX_SIDE) -> tuple[np.ndarray, float]:
    h, w = image.shape[:2]
    scale = 1.0
    if max(h, w) > max_side:
        scale = max_side / max(h, w)
    elif min(h, w) < MIN_SIDE:
        scale = min(8.0, MIN_SIDE / min(h, w))
    if scale == 1.0:
        return image, 1.0
    if scale > 1:
        return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST), scale
    # Averaging by a whole factor is an order of magnitude faster than by an
    # arbitrary one; what is left (less than 2x) is bilinear, which then
    # drops no pixel.
    factor = int(1 / scale)
    if factor >= 2:
        image = cv2.resize(image, (w // factor, h // factor), interpolation=cv2.INTER_AREA)
    rest = scale * factor
    if rest < 1:
        image = cv2.resize(image, None, fx=rest, fy=rest, interpolation=cv2.INTER_LINEAR)
    return image, scale


def _components(
    mask: np.ndarray,
    sums: np.ndarray,
    source: str,
    min_area: int,
    max_area: int,
    regions: list[Regions] | None = None,
) -> list[Blob]:
    """Cell-shaped connected components of ``mask``; colour = mean Lab of their box.

    ``sums`` is the integral image of the Lab work image, so a box's mean
    colour costs four look-ups whatever its size.  All the components (cell
    shaped or not) are appended to ``regions`` when it is given.
    """
    if mask.dtype != np.uint8:
        mask = mask.astype(np.uint8)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=4)
    if regions is not None:
        regions.append(Regions(labels, stats))
    x, y, w, h, area = (stats[:, i] for i in range(5))
    aspect = w / np.maximum(h, 1)
    fill = area / np.maximum(w * h, 1)
    keep = (
        (area >= min_area)
        & (area <= max_area)
        & (w >= 3)
        & (h >= 3)
        & (aspect >= 0.4)
        & (aspect <= 2.5)
        & (fill >= 0.3)
    )
    keep[0] = False
    ids = np.flatnonzero(keep)
    if not ids.size:
        return []
    x0, y0, x1, y1 = x[ids], y[ids], x[ids] + w[ids], y[ids] + h[ids]
    box = sums[y1, x1] - sums[y0, x1] - sums[y1, x0] + sums[y0, x0]
    colours = (box / (w[ids] * h[ids])[:, None]).tolist()
    columns = zip(
        centroids[ids, 0].tolist(),
        centroids[ids, 1].tolist(),
        w[ids].tolist(),
        h[ids].tolist(),
        area[ids].tolist(),
        fill[ids].tolist(),
        colours,
        strict=True,
    )
    return [
        Blob(cx, cy, bw, bh, n, f, source, tuple(colour))  # type: ignore[arg-type]
        for cx, cy, bw, bh, n, f, colour in columns
    ]


def _quantised_labels(lab: np.ndarray, k: int = 6) -> np.ndarray:
    """k-means colour labels of every pixel, through a 32x32x32 colour table."""
    flat = lab.reshape(-1, 3)
    step = max(1, flat.shape[0] // 30000)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(12345)
    _, _, centres = cv2.kmeans(
        flat[::step].astype(np.float32), k, None, criteria, 2, cv2.KMEANS_PP_CENTERS
    )
    grid = np.arange(32, dtype=np.float32) * 8 + 4
    cube = np.stack(np.meshgrid(grid, grid, grid, indexing="ij"), axis=-1).reshape(-1, 3)
    # nearest centre of every table colour: |x - c|^2 = |c|^2 - 2 x.c + |x|^2
    scores = (centres**2).sum(axis=1)[None, :] - 2.0 * (cube @ centres.T)
    table = scores.argmin(axis=1).astype(np.uint8)
    l_ch, a_ch, b_ch = cv2.split(lab)
    index = ((l_ch >> 3).astype(np.uint16) << 10) | ((a_ch >> 3).astype(np.uint16) << 5)
    return table[index | (b_ch >> 3)]


def _backdrop_mask(lab: np.ndarray) -> np.ndarray | None:
    """0/255 mask of the image's commonest colour (within a few Lab units), if it is common."""
    sample = lab.reshape(-1, 3)[:: max(1, lab.size // 150000)].astype(np.uint16) >> 3
    index = (sample[:, 0] << 10) | (sample[:, 1] << 5) | sample[:, 2]
    counts = np.bincount(index, minlength=1 << 15)
    mode = int(np.argmax(counts))
    centre = np.array([mode >> 10, (mode >> 5) & 31, mode & 31], dtype=np.uint8) * 8 + 4
    near = cv2.inRange(
        lab,
        np.clip(centre.astype(int) - 10, 0, 255).astype(np.uint8),
        np.clip(centre.astype(int) + 10, 0, 255).astype(np.uint8),
    )
    return near if cv2.countNonZero(near) > 0.15 * near.size else None


def far_from_chroma(lab: np.ndarray, reference: np.ndarray, *, thin: bool = False) -> np.ndarray:
    """0/1 mask of pixels whose chroma is far from ``reference`` (a, b).

    The distance is median-smoothed so that texture speckle (grass) drops out,
    and split by Otsu's threshold.  ``thin`` keeps lines two pixels wide (a
    frame's far side): lighter smoothing, and no opening after.
    """
    lab = lab.astype(np.float32, copy=False)
    da = lab[:, :, 1] - np.float32(reference[0])
    db = lab[:, :, 2] - np.float32(reference[1])
    distance = np.sqrt(da * da + db * db)
    smooth = cv2.medianBlur(np.clip(distance * 4, 0, 255).astype(np.uint8), 3 if thin else 5)
    _, mask = cv2.threshold(smooth, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if thin:
        return mask
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _commonest_chroma(lab: np.ndarray) -> np.ndarray:
    """The median chroma (a, b) of a Lab image: the colour of its backdrop (grass)."""
    h, w = lab.shape[:2]
    sample = lab.reshape(-1, 3)[:: max(1, h * w // 20000)]
    return np.median(sample[:, 1:], axis=0)


def _gradient(lab: np.ndarray) -> np.ndarray:
    """|d/dx| + |d/dy| of each Lab channel (uint8, saturated)."""
    return cv2.add(
        cv2.convertScaleAbs(cv2.Sobel(lab, cv2.CV_16S, 1, 0, ksize=3)),
        cv2.convertScaleAbs(cv2.Sobel(lab, cv2.CV_16S, 0, 1, ksize=3)),
    )


def _flat(gradient: np.ndarray, limit: int = 11) -> np.ndarray:
    """0/255 mask of the pixels flat in every channel: each one's gradient at most ``limit``."""
    return cv2.inRange(gradient, (0, 0, 0), (limit, limit, limit))


def candidate_stages(
    lab: np.ndarray,
    regions: list[Regions] | None = None,
    gradient: np.ndarray | None = None,
    flat: np.ndarray | None = None,
) -> Iterator[list[Blob]]:
    """Cell-like blobs of a Lab work image, cheapest segmentation first.

    Objects on the backdrop come first, then flat regions (strictly, then
    loosely flat), then colour clusters and salient objects.  The strictly
    flat regions themselves (cell-like or not) are appended to ``regions``
    when it is given.  ``gradient`` is ``_gradient(lab)`` and ``flat``
    ``_flat(gradient)``, when known.
    """
    h, w = lab.shape[:2]
    min_area = max(6, int(h * w * 4e-6))
    max_area = int(h * w * 0.2)
    sums = cv2.integral(lab, sdepth=cv2.CV_32S)
    blobs: list[Blob] = []

    # 1. Whatever stands out from the commonest colour (the backdrop): on most
    # boards these are the tiles, a tile with a glyph on it as one blob.
    backdrop = _backdrop_mask(lab)
    if backdrop is None:
        yield []
    else:
        yield _components(cv2.bitwise_not(backdrop), sums, "backdrop", min_area, max_area)
    # Flat regions: pixels whose colour barely changes, split by every edge.
    if gradient is None:
        gradient = _gradient(lab)
    if flat is None:
        flat = _flat(gradient)
    yield _components(flat, sums, "flat12", min_area, max_area, regions)
    # Regions that are flat only more loosely (gradients, soft shading).
    flat = _flat(gradient, 29)
    yield _components(flat, sums, "flat30", min_area, max_area)
    blobs = []

    # 2. Colour clusters: components of each of a few k-means colours.
    labels = _quantised_labels(lab)
    kernel = np.ones((2, 2), np.uint8)
    for k in range(int(labels.max()) + 1):
        mask = cv2.morphologyEx((labels == k).astype(np.uint8), cv2.MORPH_OPEN, kernel)
        blobs += _components(mask, sums, f"colour{k}", min_area, max_area)

    # 3. Colourful objects on a textured backdrop (benches on grass): pixels far
    # from the image's commonest chroma, smoothed so texture speckle drops out.
    salient = far_from_chroma(lab, _commonest_chroma(lab))
    blobs += _components(salient, sums, "salient", min_area, max_area)

    # 4. Objects on a backdrop: whatever is not the one or two commonest colours,
    # so a tile with a glyph on it (an arrow, a number) counts as one blob.
    counts = np.bincount(labels.reshape(-1), minlength=int(labels.max()) + 1)
    for k in np.argsort(-counts)[:2]:
        if counts[k] < 0.1 * labels.size:
            continue
        blobs += _components(labels != k, sums, f"object{k}", min_area, max_area)
    yield blobs


def _fit_homography(points: np.ndarray, pixels: np.ndarray) -> np.ndarray:
    """Homography (least squares) taking lattice ``points`` (col, row) to ``pixels`` (x, y)."""
    src = np.asarray(points, dtype=np.float64)
    dst = np.asarray(pixels, dtype=np.float64)
    if len(src) >= 5 and np.ptp(src[:, 0]) > 0 and np.ptp(src[:, 1]) > 0:
        homography, _ = cv2.findHomography(src, dst, 0)
        if homography is not None and _well_conditioned(homography):
            return homography
    # Too few points (or degenerate) for a homography: an affine fit.
    design = np.column_stack([src, np.ones(len(src))])
    coeffs, *_ = np.linalg.lstsq(design, dst, rcond=None)
    return np.vstack([coeffs.T, [0.0, 0.0, 1.0]])


def _well_conditioned(homography: np.ndarray) -> bool:
    return bool(np.all(np.isfinite(homography))) and abs(homography[2, 2]) > 1e-9


def _apply(homography: np.ndarray, uv: np.ndarray) -> np.ndarray:
    uv = np.asarray(uv, dtype=np.float64).reshape(-1, 2)
    pts = np.column_stack([uv, np.ones(len(uv))]) @ homography.T
    return pts[:, :2] / pts[:, 2:3]


def _relative_scale(homography: np.ndarray, xy: np.ndarray, seeds: np.ndarray) -> np.ndarray | None:
    """How large a cell looks at each pixel ``xy``, relative to the ``seeds`` (pixels).

    A homography's local area scale is det(H) / w^3, w its third coordinate.
    None where w barely changes over the seeds (no perspective: all the same).
    """
    try:
        inverse = np.linalg.inv(homography)
    except np.linalg.LinAlgError:
        return None  # a degenerate fit: nothing to scale by

    def third(points: np.ndarray) -> np.ndarray:
        uv = _apply(inverse, points)
        return uv @ homography[2, :2] + homography[2, 2]

    at_seeds = np.abs(third(seeds))
    if np.ptp(at_seeds) < 0.03 * np.median(at_seeds) or not len(xy):
        return None
    return (np.median(at_seeds) / np.abs(third(xy))) ** 1.5


@dataclass
class Placement:
    """Points placed on a lattice: index of each point, its lattice (row, col), its distance."""

    won: np.ndarray  # indices into the points placed
    keys: np.ndarray  # (n, 2) int: (row, col) of each
    resid: np.ndarray  # distance to its lattice point, in cells

    @staticmethod
    def none() -> Placement:
        return Placement(np.zeros(0, np.int64), np.zeros((0, 2), np.int64), np.zeros(0))

    def same_as(self, other: Placement) -> bool:
        """The same points on the same lattice points (in whatever order)."""
        if len(self.won) != len(other.won):
            return False
        mine = np.lexsort((self.keys[:, 1], self.keys[:, 0]))
        theirs = np.lexsort((other.keys[:, 1], other.keys[:, 0]))
        return np.array_equal(self.keys[mine], other.keys[theirs]) and np.array_equal(
            self.won[mine], other.won[theirs]
        )

    def entries(self, blobs: list[Blob]) -> dict[tuple[int, int], tuple[float, Blob]]:
        """(row, col) -> (distance, blob) of each point placed (``blobs`` are the points)."""
        rows, cols = self.keys[:, 0].tolist(), self.keys[:, 1].tolist()
        return {
            (r, c): (e, blobs[i])
            for r, c, i, e in zip(rows, cols, self.won.tolist(), self.resid.tolist(), strict=True)
        }


def _lattice_from(seed_group: list[Blob], pool: Pool) -> Lattice | None:
    """Fit a lattice to a group of similar blobs, then take in look-alike blobs on it."""
    pts = np.array([(b.x, b.y) for b in seed_group])
    size = float(statistics.median(b.size for b in seed_group))
    found = _best_steps(pts, size)
    if found is None:
        return None
    u, v, origin = found
    basis = np.column_stack([u, v])
    if abs(np.linalg.det(basis)) < 1e-6:
        return None
    inv = np.linalg.inv(basis)

    def assign(xy: np.ndarray, homography: np.ndarray | None, tol: float) -> Placement:
        """Lattice point of each point ``xy`` within ``tol``; the closest one wins a point."""
        if not len(xy):
            return Placement.none()
        if homography is None:
            uv = (xy - origin) @ inv.T
        else:
            try:
                uv = _apply(np.linalg.inv(homography), xy)
            except np.linalg.LinAlgError:
                return Placement.none()
        nearest = np.round(uv).astype(np.int64)
        resid = np.sqrt(np.square(uv - nearest).sum(axis=1))
        close = np.flatnonzero(resid <= tol)
        close = close[np.argsort(resid[close], kind="stable")]
        # the closest point of each lattice point: first of each key in that order
        keys = nearest[close]
        _, first = np.unique(keys[:, 1] * 1_000_003 + keys[:, 0], return_index=True)
        won = close[np.sort(first)]
        return Placement(won, nearest[won][:, ::-1], resid[won])

    placed = assign(pts, None, 0.25)
    if len(placed.won) < 3:
        return None
    homography = None
    for _ in range(3):
        if np.ptp(placed.keys[:, 0]) == 0 or np.ptp(placed.keys[:, 1]) == 0:
            return None  # a single row or column: not a board
        homography = _fit_homography(placed.keys[:, ::-1], pts[placed.won])
        before = placed
        placed = assign(pts, homography, 0.22)
        if len(placed.won) < 3:
            return None
        if placed.same_as(before):
            break  # the same blobs on the same points: refitting changes nothing
    # Blobs of a real board sit right on their lattice points; clutter that a
    # fine lattice happens to catch is spread over the whole tolerance disc
    # (at random, an eighth of it lies within 0.08 of a point).  A lattice with
    # most of its blobs off their points is texture (grass), not a board.
    precision = float(np.mean(placed.resid < 0.08))
    if precision < 0.5:
        return None
    # Take in blobs of any source that look like cells and sit on lattice points.
    # On a slanted board far cells look smaller: a blob's size is compared
    # at the seeds' scale.
    pitch = float(np.sqrt(abs(np.linalg.det(basis))))
    fill = float(statistics.median(b.fill for b in seed_group))

    def take_in(homography: np.ndarray) -> tuple[Placement, bool]:
        """The look-alikes on the lattice points, and whether the board is slanted."""
        # (a blob beyond a slanted lattice's horizon has no place on it: NaN)
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = _relative_scale(homography, pool.xy, pts[placed.won])
            seen_size = pool.size if scale is None else pool.size / scale
            lookalikes = np.flatnonzero(
                (seen_size >= 0.7 * size)
                & (seen_size <= max(1.25 * pitch, 1.5 * size))
                & (np.abs(pool.fill - fill) < 0.25)
            )
            extra = assign(pool.xy[lookalikes], homography, 0.18)
        extra.won = lookalikes[extra.won]  # index the pool, not the look-alikes
        return extra, scale is not None

    extra, slanted = take_in(homography)
    # Fitted to the seeds alone, a slanted board's homography drifts off the
    # far cells: refit it through the look-alikes too, while that takes in more.
    for _ in range(2 if slanted else 0):
        keys = np.concatenate([placed.keys, extra.keys])
        pixels = np.concatenate([pts[placed.won], pool.xy[extra.won]])
        refit = _fit_homography(keys[:, ::-1], pixels)
        more, _ = take_in(refit)
        if len(more.won) <= len(extra.won):
            break
        homography, extra = refit, more
    scored = placed.entries(seed_group)
    for key, value in extra.entries(pool.blobs).items():
        scored.setdefault(key, value)
    seeds = {(r, c) for r, c in placed.keys.tolist()}
    scored = _trim_stragglers(_contiguous(scored), seeds)
    members = {k: blob for k, (_, blob) in scored.items()}
    rows = sorted({k[0] for k in members})
    cols = sorted({k[1] for k in members})
    shape = (rows[-1] - rows[0] + 1, cols[-1] - cols[0] + 1)
    if min(shape) < 2:
        return None
    cover = len(members) / (shape[0] * shape[1])
    seeds_on = len(placed.won)
    # Real boards have near-square cells on near-perpendicular rows and columns.
    lengths = np.hypot(*u), np.hypot(*v)
    isotropy = min(lengths) / max(lengths)
    sine = abs(u[0] * v[1] - u[1] * v[0]) / (lengths[0] * lengths[1])
    score = seeds_on * cover**2 * np.log1p(pitch) * isotropy * sine**2 * precision**2
    return Lattice(
        homography, members, (rows[0], rows[-1]), (cols[0], cols[-1]), float(score), len(seed_group)
    )


def _contiguous(
    members: dict[tuple[int, int], tuple[float, Blob]],
) -> dict[tuple[int, int], tuple[float, Blob]]:
    """Keep the run of consecutive rows (then columns) holding the most members.

    Rows or columns cut off from it by an empty one are not part of the board.
    """
    for axis in (0, 1):
        counts = Counter(key[axis] for key in members)
        if not counts or max(counts) - min(counts) + 1 == len(counts):
            continue  # one run already
        runs: list[list[int]] = []
        for i in sorted(counts):
            if runs and i == runs[-1][-1] + 1:
                runs[-1].append(i)
            else:
                runs.append([i])
        keep = set(max(runs, key=lambda run: sum(counts[i] for i in run)))
        members = {k: b for k, b in members.items() if k[axis] in keep}
    return members


def _best_steps(pts: np.ndarray, size: float) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The lattice steps (u, v) and an origin that the most blobs agree with.

    Each of a sample of blobs proposes a lattice from its own nearest
    neighbours along a row (u) and down a column (v); the proposal with the
    most blobs on its points wins.  Text and other look-alikes that crowd a
    size group then cannot skew the steps.  All proposals are scored at once.
    """
    n = len(pts)
    sample = np.linspace(0, n - 1, min(n, 40)).astype(int)
    # offsets from each proposing blob to every blob: (proposals, blobs), x and y apart
    dx = pts[None, :, 0] - pts[sample, 0][:, None]
    dy = pts[None, :, 1] - pts[sample, 1][:, None]
    dist = np.sqrt(dx * dx + dy * dy)
    dist[np.arange(len(sample)), sample] = np.inf
    rows = np.arange(len(sample))
    steps = []
    ok = np.ones(len(sample), dtype=bool)
    for along, across in ((dx, dy), (dy, dx)):
        cand = np.where(np.abs(along) > 1.5 * np.abs(across), dist, np.inf)
        j = cand.argmin(axis=1)
        ok &= np.isfinite(cand[rows, j]) & (cand[rows, j] >= 0.7 * size)
        step = np.column_stack([dx[rows, j], dy[rows, j]])
        step *= np.where(along[rows, j] > 0, 1.0, -1.0)[:, None]  # point right / down
        steps.append(step)
    u, v = steps
    det = u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]
    ok &= np.abs(det) > 1e-6
    if not ok.any():
        return None
    safe = np.where(ok, det, 1.0)
    # each proposal's lattice coordinates of every blob: inverse of [u v] times the offset
    a, b = v[:, 1] / safe, -v[:, 0] / safe
    c, d = -u[:, 1] / safe, u[:, 0] / safe
    lu = a[:, None] * dx + b[:, None] * dy
    lv = c[:, None] * dx + d[:, None] * dy
    lu -= np.round(lu)
    lv -= np.round(lv)
    counts = (lu * lu + lv * lv < 0.2**2).sum(axis=1)
    counts[~ok] = -1
    best = int(np.argmax(counts))
    return u[best], v[best], pts[sample[best]]


def _foreign(others: np.ndarray, colours: np.ndarray) -> bool:
    """True when most of ``colours`` (Lab) are unlike every one of ``others``."""
    if not len(others):
        return False
    nearest = np.linalg.norm(others[None, :, :] - colours[:, None, :], axis=2).min(axis=1)
    return bool(np.mean(nearest > 20) > 0.5)


def _trim_stragglers(
    members: dict[tuple[int, int], tuple[float, Blob]], seeds: set[tuple[int, int]]
) -> dict[tuple[int, int], tuple[float, Blob]]:
    """Drop an outer row/column that is not really part of the board.

    Such a line is held only by a few look-alikes (a label beside the board),
    or its blobs sit loosely near the lattice points (a line of text below),
    or it holds no seed, or its blobs' colours are unlike all the others.
    One line goes at a time, then the board's lines are counted again.
    """
    if not members:
        return members
    keys = np.array(list(members), dtype=np.int64)
    keys -= keys.min(axis=0)
    distance = np.array([d for d, _ in members.values()])
    colours = np.array([b.colour for _, b in members.values()], dtype=np.float64)
    is_seed = np.array([key in seeds for key in members])
    alive = np.ones(len(keys), dtype=bool)
    # members per row and per column, kept up to date as lines go
    counts = [np.bincount(keys[:, axis]) for axis in (0, 1)]
    changed = True
    while changed and alive.any():
        changed = False
        for axis in (0, 1):
            lines = np.flatnonzero(counts[axis])
            if len(lines) <= 2:
                continue
            most = counts[axis].max()
            for edge in (lines[0], lines[-1]):
                if counts[axis][edge] >= 0.5 * most:
                    continue  # not sparse: a line of the board
                on = alive & (keys[:, axis] == edge)
                loose = statistics.median(distance[on].tolist()) > 0.1
                if not is_seed[on].any() or loose or _foreign(colours[alive & ~on], colours[on]):
                    alive &= ~on
                    counts[axis][edge] = 0
                    other = keys[on, 1 - axis]
                    counts[1 - axis] -= np.bincount(other, minlength=len(counts[1 - axis]))
                    changed = True
                    break
            if changed:
                break
    kept = zip(members.items(), alive.tolist(), strict=True)
    return {key: value for (key, value), keep in kept if keep}


def _groups(blobs: list[Blob]) -> list[list[Blob]]:
    """Blobs of similar width and height (each blob seeds one group)."""
    if not blobs:
        return []
    log_w = np.log([b.w for b in blobs])
    log_h = np.log([b.h for b in blobs])
    order = np.argsort(-np.array([b.area for b in blobs])).tolist()
    xy = np.array([(b.x, b.y) for b in blobs])
    size = np.array([b.size for b in blobs])
    fill = np.array([b.fill for b in blobs])
    groups = []
    seen: set[frozenset[int]] = set()
    gathered: set[bytes] = set()
    used = np.zeros(len(blobs), dtype=bool)
    for i in order:
        if used[i]:
            continue
        dw, dh = np.abs(log_w - log_w[i]), np.abs(log_h - log_h[i])
        near = (dw < 0.2) & (dh < 0.2)
        used |= (dw < 0.1) & (dh < 0.1)
        members = np.flatnonzero(near)
        if len(members) >= 4:  # the smallest board, 2x2
            # Seeds of much the same size often gather the very same blobs.
            asked = members.tobytes()
            if asked in gathered:
                continue
            gathered.add(asked)
            kept = _dedupe(members, xy, size, fill).tolist()
            # Neighbouring seeds often keep the very same blobs: fit those once.
            key = frozenset(kept)
            if key not in seen:
                seen.add(key)
                groups.append([blobs[j] for j in kept])
    return groups


def _distinct(blobs: list[Blob]) -> list[Blob]:
    """Drop exact repeats: segmentations often cut the very same box (best fill kept)."""
    best: dict[tuple[int, int, int, int], Blob] = {}
    for b in blobs:
        key = (round(b.x), round(b.y), b.w, b.h)
        if key not in best or b.fill > best[key].fill:
            best[key] = b
    return list(best.values())


def _close_pairs(xy: np.ndarray, size: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All pairs i < j of points closer than 0.3 of the smaller of their sizes.

    Many points are put in square buckets as wide as the largest such
    distance, so only points in neighbouring buckets are compared.
    """
    if len(xy) <= 64:  # few points: compare them all
        i, j = np.triu_indices(len(xy), k=1)
    else:
        i, j = _bucket_pairs(xy, 0.3 * float(size.max()))
    reach = 0.3 * np.minimum(size[i], size[j])
    close = np.square(xy[i] - xy[j]).sum(axis=1) <= reach**2
    return i[close], j[close]


def _bucket_pairs(xy: np.ndarray, width: float) -> tuple[np.ndarray, np.ndarray]:
    """Pairs i < j of points in the same or neighbouring square buckets of ``width``."""
    width = max(width, 1e-6)
    cell = np.floor(xy / width).astype(np.int64) + 1
    stride = int(cell[:, 1].max()) + 2
    key = cell[:, 0] * stride + cell[:, 1]
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    firsts, seconds = [], []
    for step in (-stride - 1, -stride, -stride + 1, -1, 0, 1, stride - 1, stride, stride + 1):
        lo = np.searchsorted(sorted_key, key + step, "left")
        hi = np.searchsorted(sorted_key, key + step, "right")
        count = hi - lo
        total = int(count.sum())
        if not total:
            continue
        owner = np.repeat(np.arange(len(key)), count)
        offset = np.arange(total) - np.repeat(np.cumsum(count) - count, count)
        firsts.append(owner)
        seconds.append(order[np.repeat(lo, count) + offset])
    i, j = np.concatenate(firsts), np.concatenate(seconds)
    keep = i < j
    return i[keep], j[keep]


def _dedupe(members: np.ndarray, xy: np.ndarray, size: np.ndarray, fill: np.ndarray) -> np.ndarray:
    """One blob per place: several segmentations often find the same cell.

    ``members`` index the blobs' centres ``xy``, ``size`` and ``fill``.  Blobs
    are taken best-filled first; one closer than 0.3 of its size (the smaller
    of the two) to a kept blob is dropped.  Most blobs clash with none, so
    only the clashing ones are walked through one by one.
    """
    ordered = members[np.argsort(-fill[members], kind="stable")]
    rivals: dict[int, list[int]] = {}
    for i, j in zip(*(a.tolist() for a in _close_pairs(xy[ordered], size[ordered])), strict=True):
        rivals.setdefault(i, []).append(j)
    dropped: set[int] = set()
    for i in sorted(rivals):  # i comes first: if it is kept, its later rivals go
        if i not in dropped:
            dropped.update(rivals[i])
    keep = np.ones(len(ordered), dtype=bool)
    keep[list(dropped)] = False
    return ordered[keep]


def _encloses_as_holes(outer: Lattice, inner: Lattice) -> bool:
    """True when ``inner`` is the lattice of gaps between ``outer``'s (round) tiles.

    Gaps between four round tiles look like cells too; they sit half a step off
    the tiles' lattice and there is one row and one column fewer of them.
    """
    if (inner.shape[0] + 1, inner.shape[1] + 1) != outer.shape:
        return False
    centre = np.mean([(b.x, b.y) for b in inner.members.values()], axis=0)
    uv = _apply(np.linalg.inv(outer.homography), [centre])[0]
    frac = uv - np.floor(uv)
    return bool(np.all(np.abs(frac - 0.5) < 0.2))


def _pitch(lattice: Lattice) -> float:
    """Cell pitch of a lattice in work pixels."""
    a, b, c = _apply(lattice.homography, [[0, 0], [1, 0], [0, 1]])
    return float(min(np.linalg.norm(b - a), np.linalg.norm(c - a)))


def _around(lattice: Lattice, scale: float, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The image box around a (coarse) lattice's cells, with two cells of margin."""
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    pts = (
        _apply(
            lattice.homography,
            [
                [c0 - 2.5, r0 - 2.5],
                [c1 + 2.5, r0 - 2.5],
                [c1 + 2.5, r1 + 2.5],
                [c0 - 2.5, r1 + 2.5],
            ],
        )
        / scale
    )
    x0, y0 = np.floor(pts.min(axis=0)).astype(int)
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
    h, w = shape[:2]
    return max(0, x0), max(0, y0), min(w, x1), min(h, y1)


def _touches_edge(lattice: Lattice, width: int, height: int, scale: float) -> bool:
    """True when a lattice found in a crop may run on past the crop's edge."""
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    pts = _apply(lattice.homography, [[c0 - 1.5, r0 - 1.5], [c1 + 1.5, r1 + 1.5]]) / scale
    return bool(pts[0, 0] < 0 or pts[0, 1] < 0 or pts[1, 0] > width or pts[1, 1] > height)


def _convincing(lattice: Lattice | None) -> bool:
    """A board worth trusting: not tiny, mostly found, cells big enough to place well.

    A board found whole may have smaller cells (down to 10 px) than one with
    gaps (MIN_PITCH): every cell then helps to place the grid.
    """
    if lattice is None or min(lattice.shape) <= 2 or lattice.finer:
        return False
    found = len(lattice.members) / (lattice.shape[0] * lattice.shape[1])
    pitch = _pitch(lattice)
    if _specks(lattice):
        return False  # specks (dots, glints) on a lattice: look closer before trusting it
    return (pitch >= MIN_PITCH and found >= 0.7) or (pitch >= 10 and found == 1.0)


def _specks(lattice: Lattice) -> bool:
    """True when the lattice's blobs are specks: far smaller than its cells."""
    return bool(np.median([b.size for b in lattice.members.values()]) < 0.25 * _pitch(lattice))


@dataclass
class _Search:
    """What the search of one work image found."""

    lattice: Lattice | None  # the most convincing lattice of cells
    searched_all: bool  # no stage ended the search early: no complete board of tiles
    framed: BoardLocation | None = None  # a board in a frame, found instead


def _best_lattice(
    work: np.ndarray, framed: Callable[[Lattice | None], BoardLocation | None] | None = None
) -> _Search:
    """The most convincing lattice of cells in a work image.

    Objects on the backdrop or flat regions find most tile boards (arrow
    tiles the former, plain tiles the latter).  As soon as a stage gives a
    complete, solid board the later ones are skipped (the colour
    segmentations cost the most).  When the first FRAME_AFTER stages found
    none, or at once in an image with hardly anything flat, ``framed``
    (given the lattice so far) is asked for a board in a frame: the one it
    gives ends the search.
    """
    blobs: list[Blob] = []
    best = None
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2LAB)
    regions: list[Regions] = []
    gradient = _gradient(lab)
    flat = _flat(gradient)
    if framed is not None and cv2.countNonZero(flat) < TEXTURED * flat.size:
        # Hardly anything flat (grass, a photo): tiles are unlikely, and the
        # texture's countless blobs make every stage slow.  A frame first.
        found = framed(None)
        if found is not None:
            return _Search(None, True, found)
        framed = None
    for stage, found in enumerate(candidate_stages(lab, regions, gradient, flat)):
        blobs = _distinct(blobs + found)
        pool = Pool(blobs)
        lattices = [lat for lat in (_lattice_from(g, pool) for g in _groups(blobs)) if lat]
        if regions:
            lattices = [_grow_gapless(lat, lab, regions[0]) for lat in lattices]
        if best is not None:
            # More blobs may regroup the cells of an earlier stage's board.
            lattices.append(best)
        best = max(lattices, key=lambda lat: lat.score, default=None)
        if best is not None:
            # Prefer the tiles to the gaps between them.
            tiles = [
                lat
                for lat in lattices
                if lat.score > 0.3 * best.score and _encloses_as_holes(lat, best)
            ]
            if tiles:
                best = max(tiles, key=lambda lat: lat.score)
        if best is not None:
            best.finer = _finer_hidden(best, blobs)
        if (
            stage < EARLY_STAGES
            and _complete_and_solid(best, lab)
            and not _runs_on(best, blobs)
            and not (regions and _pieces_run_on(best, lab, regions[0]))
        ):
            return _Search(best, False)
        if stage + 1 == FRAME_AFTER and framed is not None:
            found = framed(best)
            if found is not None:
                return _Search(best, True, found)
    return _Search(best, True)


#: Where a cell's colour is sampled, in cells from its centre: a ring that
#: misses a mark in the middle of the cell and the cell's own edge.
_RING = np.array([(du, dv) for du in (-0.3, -0.15, 0.15, 0.3) for dv in (-0.3, -0.15, 0.15, 0.3)])
#: Where a cell's flat region is looked up: all four must agree.
_QUARTERS = np.array([(-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)])


def _cell_points(lattice: Lattice, keys: list[tuple[int, int]], offsets: np.ndarray) -> np.ndarray:
    """``(len(keys), len(offsets), 2)`` pixels (x, y) of offsets around lattice cells (row, col)."""
    centres = np.array([(c, r) for r, c in keys], dtype=np.float64).reshape(-1, 2)
    points = _apply(lattice.homography, (centres[:, None, :] + offsets[None]).reshape(-1, 2))
    return np.round(points).astype(np.int64).reshape(len(keys), len(offsets), 2)


def _on_image(pixels: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Which cells have all their sample ``pixels`` (..., k, 2) on an image of ``shape``."""
    h, w = shape[:2]
    x, y = pixels[..., 0], pixels[..., 1]
    return ((x >= 0) & (x < w) & (y >= 0) & (y < h)).all(axis=-1)


def _cell_colours(lattice: Lattice, lab: np.ndarray, keys: list[tuple[int, int]]) -> np.ndarray:
    """Median Lab colour of each lattice cell (row, col) in ``keys``; NaN where off the image."""
    pixels = _cell_points(lattice, keys, _RING)
    inside = _on_image(pixels, lab.shape)
    colours = np.full((len(keys), 3), np.nan)
    if inside.any():
        picked = pixels[inside]
        colours[inside] = np.median(lab[picked[..., 1], picked[..., 0]].astype(np.float64), axis=1)
    return colours


def _cell_regions(lattice: Lattice, regions: Regions, keys: list[tuple[int, int]]) -> np.ndarray:
    """The flat region holding each lattice cell (row, col); 0 where none does, or off the image."""
    pixels = _cell_points(lattice, keys, _QUARTERS)
    inside = _on_image(pixels, regions.labels.shape)
    found = np.zeros(len(keys), dtype=np.int64)
    if inside.any():
        picked = pixels[inside]
        labels = regions.labels[picked[..., 1], picked[..., 0]]
        found[inside] = np.where((labels == labels[:, :1]).all(axis=1), labels[:, 0], 0)
    return found


def _cell_areas(lattice: Lattice, keys: list[tuple[int, int]]) -> np.ndarray:
    """Area in pixels of each lattice cell (row, col): its quadrilateral's, by the shoelace rule."""
    corners = np.array([(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)])
    centres = np.array([(c, r) for r, c in keys], dtype=np.float64).reshape(-1, 2)
    quad = _apply(lattice.homography, (centres[:, None, :] + corners[None]).reshape(-1, 2))
    x, y = quad.reshape(-1, 4, 2)[..., 0], quad.reshape(-1, 4, 2)[..., 1]
    return 0.5 * np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1))


def _union_of_cells(lattice: Lattice, regions: Regions, label: int) -> bool:
    """True when flat region ``label`` is a union of whole cells of ``lattice``.

    Its outline turns only at cell corners, and its area is about that of the
    cells whose middles it holds (less the thin edge band that is not flat).
    """
    x, y, w, h, area = regions.stats[label].tolist()
    height, width = regions.labels.shape
    if w * h > 0.25 * height * width:
        return False  # a backdrop, not cells
    inverse = np.linalg.inv(lattice.homography)
    # Corners of its outline, in lattice coordinates, sit on cell corners (x.5, y.5).
    mask = (regions.labels[y : y + h, x : x + w] == label).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    corners = cv2.approxPolyDP(outline, 0.15 * _pitch(lattice), True).reshape(-1, 2) + [x, y]
    offset = _apply(inverse, corners) - 0.5
    if np.mean((np.abs(offset - np.round(offset)) < 0.25).all(axis=1)) < 0.8:
        return False
    # Its area is about that of the cells whose middles it holds.
    box = _apply(inverse, [[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
    (u0, v0), (u1, v1) = np.floor(box.min(axis=0)), np.ceil(box.max(axis=0))
    keys = [(r, c) for r in range(int(v0), int(v1) + 1) for c in range(int(u0), int(u1) + 1)]
    held = [
        k
        for k, found in zip(keys, _cell_regions(lattice, regions, keys), strict=True)
        if found == label
    ]
    return bool(held) and 0.45 <= area / float(_cell_areas(lattice, held).sum()) <= 1.1


def _grow_gapless(
    lattice: Lattice, lab: np.ndarray, regions: Regions, tolerance: float = 14.0
) -> Lattice:
    """Take in the rest of a board whose cells touch (no gaps between them).

    Without gaps, neighbouring cells of one state merge into one flat region,
    so only isolated cells stand out as blobs and the lattice found may cover
    a part of the board.  But such a region is still made of whole cells
    (``_union_of_cells``).  A row or column just outside the lattice joins
    when every cell on it lies in such a region and has the colour of one of
    the states seen on the members.  The outline of a backdrop or a panel
    does not turn at cell corners, and a gap between tiles holds no cell's
    middle, so boards with gaps do not grow.  A grown lattice scores as many
    times more as it has more cells.
    """
    made_of_cells: dict[int, bool] = {}
    palette: list[np.ndarray] = []  # the state colours, once asked

    def whole_cells(label: int) -> bool:
        """``_union_of_cells``, asked once per region."""
        if label not in made_of_cells:
            made_of_cells[label] = _union_of_cells(lattice, regions, label)
        return made_of_cells[label]

    def state_colours() -> np.ndarray:
        """``_state_colours``, worked out once."""
        if not palette:
            palette.append(_state_colours(lattice, lab, tolerance))
        return palette[0]

    def joins(cells: list[tuple[int, int]]) -> bool:
        """Every cell lies in a region of whole cells and has a state's colour."""
        labels = _cell_regions(lattice, regions, cells).tolist()
        if not all(label > 0 and whole_cells(label) for label in labels):
            return False
        found = _cell_colours(lattice, lab, cells)
        states = state_colours()
        if np.isnan(found).any() or not len(states):
            return False
        near = np.linalg.norm(found[:, None, :] - states[None], axis=2).min(axis=1)
        return bool((near < tolerance).all())

    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    grew = True
    while grew and (r1 - r0) + (c1 - c0) < 400:
        grew = False
        if joins([(r0 - 1, c) for c in range(c0, c1 + 1)]):
            r0, grew = r0 - 1, True
        if joins([(r1 + 1, c) for c in range(c0, c1 + 1)]):
            r1, grew = r1 + 1, True
        if joins([(r, c0 - 1) for r in range(r0, r1 + 1)]):
            c0, grew = c0 - 1, True
        if joins([(r, c1 + 1) for r in range(r0, r1 + 1)]):
            c1, grew = c1 + 1, True
    if (r0, r1, c0, c1) == (*lattice.rows, *lattice.cols):
        return lattice
    (a0, a1), (b0, b1) = lattice.rows, lattice.cols
    members = dict(lattice.members)
    new = [
        (r, c)
        for r in range(r0, r1 + 1)
        for c in range(c0, c1 + 1)
        if not (a0 <= r <= a1 and b0 <= c <= b1)
    ]
    side = float(np.sqrt(np.median(_cell_areas(lattice, new))))
    for (r, c), colour, (x, y) in zip(
        new,
        _cell_colours(lattice, lab, new).tolist(),
        _apply(lattice.homography, [(c, r) for r, c in new]).tolist(),
        strict=True,
    ):
        members[(r, c)] = Blob(
            x, y, int(side), int(side), int(side * side), 1.0, "grown", tuple(colour)
        )
    before = (a1 - a0 + 1) * (b1 - b0 + 1)
    after = (r1 - r0 + 1) * (c1 - c0 + 1)
    return Lattice(
        lattice.homography,
        members,
        (r0, r1),
        (c0, c1),
        lattice.score * after / before,
        lattice.group,
    )


def _runs_on(lattice: Lattice, blobs: list[Blob]) -> bool:
    """True when blocks of cells continue the lattice's rows or columns just outside it.

    A segmentation may find a part of a board whole (cells that it split
    from their neighbours) and merge the rest into blocks of two or more
    cells: then the board runs on past what was found, and the search must
    go on.  Such a block has a member's colour and a tile's height (beside
    the lattice) or width (above or below it), and its middle lies on the
    line of a row (or a column), half-way between lattice points or on one.
    """
    members = list(lattice.members.values())
    width = float(np.median([b.w for b in members]))
    height = float(np.median([b.h for b in members]))
    col, row = _apply(np.linalg.inv(lattice.homography), [(b.x, b.y) for b in blobs]).T
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    beside = (col > c1 + 0.5) & (col < c1 + 2.5) | (col < c0 - 0.5) & (col > c0 - 2.5)
    beside &= (row > r0 - 0.2) & (row < r1 + 0.2) & (np.abs(row - np.round(row)) < 0.15)
    above = (row > r1 + 0.5) & (row < r1 + 2.5) | (row < r0 - 0.5) & (row > r0 - 2.5)
    above &= (col > c0 - 0.2) & (col < c1 + 0.2) & (np.abs(col - np.round(col)) < 0.15)
    near = np.flatnonzero(beside | above)
    if len(near) < 2:
        return False
    colours = np.array([b.colour for b in members])
    blocks = 0
    for i in near.tolist():
        blob = blobs[i]
        fits = (
            abs(blob.h - height) < 0.25 * height
            if beside[i]
            else abs(blob.w - width) < 0.25 * width
        )
        alike = np.min(np.linalg.norm(colours - np.array(blob.colour), axis=1)) < 15
        blocks += bool(fits and alike)
    return blocks >= 2


def _state_colours(lattice: Lattice, lab: np.ndarray, tolerance: float = 14.0) -> np.ndarray:
    """The members' colours, one of each: the first one's, then the first one unlike it, ..."""
    left = _cell_colours(lattice, lab, list(lattice.members))
    left = left[~np.isnan(left).any(axis=1)]
    palette = []
    while len(left):
        palette.append(left[0])
        left = left[np.linalg.norm(left - left[0], axis=1) >= tolerance]
    return np.array(palette).reshape(-1, 3)


def _pieces_run_on(
    lattice: Lattice, lab: np.ndarray, regions: Regions, tolerance: float = 14.0
) -> bool:
    """True when the cells of a row or column just outside the lattice hold pieces of tiles.

    A mark across a tile (a three-digit number) can cut its flat region into
    strips that are not cell-shaped, so a board whose lower rows carry such
    marks is found only down to them.  A line of the board beyond them
    still holds, in (nearly) every cell, a flat region of a member's colour
    that lies wholly inside the cell; a panel or a backdrop around a board
    reaches past the cells.
    """
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    area = float(np.median(_cell_areas(lattice, list(lattice.members))))
    x, y, w, h, n = (regions.stats[:, i] for i in range(5))
    pieces = np.flatnonzero((n >= 0.04 * area) & (n <= area))
    pieces = pieces[pieces > 0]  # not the unflat pixels
    if not len(pieces):
        return False
    # the lattice cell (col, row) holding each piece's box, if one holds it whole
    x0, y0, x1, y1 = x[pieces], y[pieces], x[pieces] + w[pieces], y[pieces] + h[pieces]
    boxes = np.stack([x0, y0, x1, y0, x1, y1, x0, y1], axis=1).reshape(-1, 2).astype(np.float64)
    uv = _apply(np.linalg.inv(lattice.homography), boxes).reshape(-1, 4, 2)
    cell = np.round(uv.mean(axis=1))
    whole = (np.abs(uv - cell[:, None, :]) <= 0.55).all(axis=(1, 2))
    pieces, cell = pieces[whole], cell[whole].astype(np.int64)
    col, row = cell[:, 0], cell[:, 1]
    lines = (
        (row == r0 - 1) & (col >= c0) & (col <= c1),
        (row == r1 + 1) & (col >= c0) & (col <= c1),
        (col == c0 - 1) & (row >= r0) & (row <= r1),
        (col == c1 + 1) & (row >= r0) & (row <= r1),
    )
    lengths = (c1 - c0 + 1, c1 - c0 + 1, r1 - r0 + 1, r1 - r0 + 1)
    palette = None
    for on_line, length, along in zip(lines, lengths, (col, col, row, row), strict=True):
        if len(np.unique(along[on_line])) < 0.8 * length:
            continue  # most cells of the line hold no piece
        if palette is None:
            palette = _state_colours(lattice, lab, tolerance)
        held = set()
        for i, at in zip(pieces[on_line].tolist(), along[on_line].tolist(), strict=True):
            if at in held:
                continue
            box = np.s_[y[i] : y[i] + h[i], x[i] : x[i] + w[i]]
            colour = np.median(lab[box][regions.labels[box] == i].astype(np.float64), axis=0)
            if len(palette) and np.linalg.norm(palette - colour, axis=1).min() < tolerance:
                held.add(at)
        if len(held) >= 0.8 * length:
            return True
    return False


def _finer_hidden(lattice: Lattice, blobs: list[Blob]) -> bool:
    """True when many look-alikes sit half a step between the lattice's points."""
    size = float(np.median([b.size for b in lattice.members.values()]))
    alike = [b for b in blobs if 0.6 * size <= b.size <= 1.6 * size]
    if not alike:
        return False
    uv = _apply(np.linalg.inv(lattice.homography), [(b.x, b.y) for b in alike])
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    inside = (
        (uv[:, 0] > c0 - 0.5)
        & (uv[:, 0] < c1 + 0.5)
        & (uv[:, 1] > r0 - 0.5)
        & (uv[:, 1] < r1 + 0.5)
    )
    frac = np.abs(uv - np.round(uv))
    halfway = ((np.abs(frac - 0.5) < 0.15) & (frac[:, ::-1] < 0.15)).any(axis=1)
    return bool((halfway & inside).sum() >= 0.3 * len(lattice.members))


def _complete_and_solid(lattice: Lattice | None, lab: np.ndarray) -> bool:
    """Every cell found, and surely tiles: nothing for further segmentations to add.

    Solid blobs are tiles, and so are objects that stand out from the
    commonest colour; other hollow ones (a tile with a digit or an arrow cut
    out) are too unless they have the colour around the board, as the gaps
    between round tiles do.
    """
    if lattice is None or not _convincing(lattice):
        return False
    rows, cols = lattice.shape
    if len(lattice.members) != rows * cols or len(lattice.members) < 0.8 * lattice.group:
        return False  # incomplete, or look-alikes off the lattice (a finer board?)
    fills = [b.fill for b in lattice.members.values()]
    if np.mean([b.source == "backdrop" for b in lattice.members.values()]) > 0.5:
        return True  # objects standing out from the backdrop cannot be gaps in it
    return float(np.median(fills)) >= 0.85 or not _background_coloured(lattice, lab)


def _background_coloured(lattice: Lattice, lab: np.ndarray) -> bool:
    """True when the cells have the colour of a ring just outside the board."""
    (r0, r1), (c0, c1) = lattice.rows, lattice.cols
    ring = []
    for t in np.linspace(0, 1, 40):
        u = c0 - 0.5 + t * (c1 - c0 + 1)
        v = r0 - 0.5 + t * (r1 - r0 + 1)
        ring += [(u, r0 - 0.85), (u, r1 + 0.85), (c0 - 0.85, v), (c1 + 0.85, v)]
    pts = np.round(_apply(lattice.homography, ring)).astype(int)
    inside = _on_image(pts[:, None, :], lab.shape)
    if inside.sum() < 20:
        return True  # cannot tell: do not stop early
    around = np.median(lab[pts[inside, 1], pts[inside, 0]].astype(np.float64), axis=0)
    cells = np.median([b.colour for b in lattice.members.values()], axis=0)
    return bool(np.linalg.norm(around - cells) < 12.0)


# -- Boards drawn inside a frame ------------------------------------------------
#
# Some boards are no lattice of look-alike cells: 3-D objects seen under a
# steep camera (benches) change their outline with their turn, so no size
# group holds them all.  Such boards are often drawn inside a frame (a paved
# border, a rim).  The frame's inner edge is then the board's outline, and the
# objects inside count its rows and columns.

#: The largest count of rows or columns looked for inside a frame.
MAX_FRAMED_CELLS = 24


@dataclass
class Framed:
    """A board inside a frame: the frame's inner edge and the cells counted in it."""

    corners: np.ndarray  # (4, 2) TL, TR, BR, BL, work pixels
    rows: int
    cols: int
    cover: float  # share of the cells that hold an object


def _clockwise_from_top_left(quad: np.ndarray) -> np.ndarray:
    """The four points of a convex quadrilateral, clockwise (on screen) from the top-left."""
    quad = np.roll(quad, -int(np.argmin(quad.sum(axis=1))), axis=0)
    a, b, c = quad[0], quad[1], quad[2]
    if (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]) < 0:
        quad = quad[[0, 3, 2, 1]]  # it went anticlockwise
    return quad


def _fit_line(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The least-squares line through ``points``: (unit direction, a point on it)."""
    vx, vy, x0, y0 = cv2.fitLine(points.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
    return np.array([vx, vy], dtype=np.float64), np.array([x0, y0], dtype=np.float64)


def _crossing(
    first: tuple[np.ndarray, np.ndarray], second: tuple[np.ndarray, np.ndarray]
) -> np.ndarray | None:
    """Where two lines (direction, point) cross; None when they are parallel."""
    (d1, p1), (d2, p2) = first, second
    system = np.column_stack([d1, -d2])
    if abs(np.linalg.det(system)) < 1e-9:
        return None
    t = np.linalg.solve(system, p2 - p1)
    return p1 + t[0] * d1


def _inner_edge(outer: np.ndarray, hole: np.ndarray) -> np.ndarray | None:
    """The frame's inner edge: a line through the hole's border along each outer side.

    Each point of the hole's border belongs to the outer side it is nearest
    to.  Objects that touch the frame dent the hole; a dent lies further in
    than the frame's edge, so the line is fitted again without the points
    well inside it until none is left.
    """
    centre = outer.mean(axis=0)
    inward, starts, directions, lengths = [], [], [], []
    for k in range(4):
        a, b = outer[k], outer[(k + 1) % 4]
        length = float(np.linalg.norm(b - a))
        direction = (b - a) / length
        normal = np.array([-direction[1], direction[0]])
        if np.dot(centre - a, normal) < 0:
            normal = -normal
        inward.append(normal)
        starts.append(a)
        directions.append(direction)
        lengths.append(length)
    depth = np.column_stack([(hole - starts[k]) @ inward[k] for k in range(4)])
    side = depth.argmin(axis=1)
    lines = []
    for k in range(4):
        along = (hole - starts[k]) @ directions[k] / lengths[k]
        points = hole[(side == k) & (along > 0.1) & (along < 0.9)]
        for _ in range(5):
            if len(points) < 10:
                return None
            direction, through = _fit_line(points)
            normal = np.array([-direction[1], direction[0]])
            normal *= np.sign(np.dot(normal, inward[k])) or 1.0
            inside = (points - through) @ normal > 1.5
            if not inside.any():
                break
            points = points[~inside]
        lines.append(_fit_line(points))
    corners = [_crossing(lines[(k - 1) % 4], lines[k]) for k in range(4)]
    if any(c is None for c in corners):
        return None
    return np.array(corners)


def _depth_inside(points: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """How far inside the convex ``polygon`` each point lies: its distance to the nearest side."""
    ends = np.roll(polygon, -1, axis=0)
    sides = ends - polygon
    normals = np.column_stack([-sides[:, 1], sides[:, 0]])
    normals /= np.maximum(np.linalg.norm(normals, axis=1), 1e-12)[:, None]
    centre = polygon.mean(axis=0)
    normals *= np.where(((centre - polygon) * normals).sum(axis=1) < 0, -1.0, 1.0)[:, None]
    depths = (points[:, None, :] - polygon[None, :, :]) * normals[None, :, :]
    return depths.sum(axis=2).min(axis=1)


def _frames(mask: np.ndarray) -> Iterator[np.ndarray]:
    """Inner edges of the frames in a 0/1 mask, largest first.

    A frame is a ring: a component whose convex hull is a quadrilateral it
    fills less than half of, around one large hole.
    """
    h, w = mask.shape
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    boxes = stats[1:, 2].astype(np.int64) * stats[1:, 3]
    for i in (np.argsort(-boxes)[:5] + 1).tolist():
        x, y, bw, bh, area = stats[i].tolist()
        if bw * bh < 0.005 * h * w:
            break
        ring = (labels[y : y + bh, x : x + bw] == i).astype(np.uint8)
        contours, _ = cv2.findContours(ring, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        outline = max(contours, key=cv2.contourArea)
        hull = cv2.convexHull(outline)
        hull_area = cv2.contourArea(hull)
        if area > 0.5 * hull_area:
            continue  # solid: no ring
        quad = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True).reshape(-1, 2)
        if len(quad) != 4:
            continue
        # The hole: what the hull holds besides the ring (a far side too thin
        # to survive the smoothing may leave the ring open there).
        filled = np.zeros_like(ring)
        cv2.fillConvexPoly(filled, hull, 1)
        holes, hole_labels, hole_stats, _ = cv2.connectedComponentsWithStats(
            filled & (1 - ring), connectivity=4
        )
        if holes < 2:
            continue
        j = 1 + int(np.argmax(hole_stats[1:, 4]))
        if hole_stats[j, 4] < 0.3 * hull_area:
            continue
        border, _ = cv2.findContours(
            (hole_labels == j).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE
        )
        hole = max(border, key=cv2.contourArea).reshape(-1, 2).astype(np.float64)
        # (where the ring is open the hole's border runs along the hull: no edge there)
        hole = hole[_depth_inside(hole, hull.reshape(-1, 2).astype(np.float64)) > 1.5]
        outer = _clockwise_from_top_left(quad.astype(np.float64))
        inner = _inner_edge(outer, hole)
        if inner is not None and _clockwise_convex(inner):
            yield inner + (x, y)


def _count_along(positions: np.ndarray) -> tuple[int, float] | None:
    """How many equal cells ``positions`` (0..1 across the board) fall into, and their offset.

    One object per cell puts the positions at the cells' centres, give or
    take a common offset (3-D objects stand up from their cell's centre):
    the count is the largest whose centres all the positions agree with
    (their phases, 2 pi count x position, line up) and that leaves no cell
    empty.  A count twice too large lines the phases up too, but half a cell
    off and with every other cell empty.
    """
    best = None
    for count in range(2, MAX_FRAMED_CELLS + 1):
        phase = positions * count - 0.5
        mean = np.exp(2j * np.pi * phase).mean()
        offset = float(np.angle(mean) / (2 * np.pi))  # -0.5 .. 0.5 of a cell
        if abs(mean) < 0.6 or abs(offset) > 0.35:
            continue
        cells = np.floor(phase + 0.5 - offset).astype(np.int64)
        if len(np.unique(cells[(cells >= 0) & (cells < count)])) == count:
            best = count, offset
    return best


def _framed_board(lab: np.ndarray) -> Framed | None:
    """A board of objects inside a frame, in a Lab work image (None when there is none).

    The objects are what stands out from the backdrop's colour inside the
    frame.  Columns are counted from their centres across the board, rows
    from their feet (their lowest pixels: what stands up from a cell rises up
    the image, but stands on the cell).
    """
    backdrop = _commonest_chroma(lab)
    mask = None  # the objects: made once a frame is found (most images have none)
    for inner in _frames(far_from_chroma(lab, backdrop, thin=True)):
        if mask is None:
            mask = far_from_chroma(lab, backdrop)
        inside = np.zeros_like(mask)
        cv2.fillConvexPoly(inside, np.round(inner).astype(np.int32), 1)
        inside = cv2.erode(inside, np.ones((5, 5), np.uint8))
        count, _, stats, centroids = cv2.connectedComponentsWithStats(mask & inside)
        area = stats[1:, 4].astype(np.float64)
        if count < 5:
            continue  # a 2x2 board holds four objects at least
        big = np.flatnonzero(area >= 0.2 * np.percentile(area, 90))
        x, y, w, h = (stats[1:, k][big].astype(np.float64) for k in range(4))
        to_unit = cv2.getPerspectiveTransform(
            inner.astype(np.float32), np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
        )
        across = _apply(to_unit, centroids[1:][big])[:, 0]
        down = _apply(to_unit, np.column_stack([x + w / 2, y + h - 1]))[:, 1]
        cols, rows = _count_along(across), _count_along(down)
        if cols is None or rows is None:
            continue
        (n_cols, col_offset), (n_rows, row_offset) = cols, rows
        c = np.floor(across * n_cols - col_offset).astype(np.int64)
        r = np.floor(down * n_rows - row_offset).astype(np.int64)
        on = (r >= 0) & (r < n_rows) & (c >= 0) & (c < n_cols)
        cover = len(set(zip(r[on].tolist(), c[on].tolist(), strict=True))) / (n_rows * n_cols)
        if cover >= 0.8:
            return Framed(inner, n_rows, n_cols, cover)
    return None


def locate_board(image: np.ndarray) -> BoardLocation | NotFound:
    """Find the board in a BGR image: its outer corners and grid homography."""
    if image.ndim != 3 or image.shape[2] != 3:
        return NotFound(f"expected an H x W x 3 colour image, not shape {image.shape}")
    # Coarse first (fast).  When that finds nothing convincing (tiny cells, a
    # tiny or gappy board), look again at full detail: first around what the
    # coarse pass found, then over the whole image; keep what holds more cells.
    work, scale = _work_image(image, COARSE_SIDE)
    offset = np.zeros(2)

    def in_frame(
        crop: np.ndarray, crop_scale: float, crop_at: np.ndarray, lattice: Lattice | None
    ) -> BoardLocation | None:
        """The board in a frame in a work image, when it is a better answer than ``lattice``."""
        framed = _framed_board(cv2.cvtColor(crop, cv2.COLOR_BGR2LAB))
        if framed is None:
            return None
        found = _framed_location(framed, crop_scale, crop_at)
        placed = _lattice_location(lattice, scale, offset, image.shape)
        return found if _frame_rather(found, lattice, placed) else None

    # When the cheap stages find no complete board of tiles, it may be objects
    # in a frame (benches on grass, whose texture makes the later stages slow).
    coarse = _best_lattice(work, lambda lattice: in_frame(work, scale, offset, lattice))
    if coarse.framed is not None:
        return coarse.framed
    best, searched_all = coarse.lattice, coarse.searched_all
    if max(image.shape[:2]) > COARSE_SIDE and not _convincing(best):
        regions = [_around(best, scale, image.shape)] if best is not None else []
        whole_image = (0, 0, image.shape[1], image.shape[0])
        if whole_image not in regions:  # the box around may be the whole image already
            regions.append(whole_image)
        for x0, y0, x1, y1 in regions:
            fine_work, fine_scale = _work_image(image[y0:y1, x0:x1], MAX_SIDE)
            fine_offset = np.array([x0, y0], dtype=np.float64)
            if searched_all:
                # A frame too thin to see in the coarse image: first, as the
                # lattice search at full detail costs the most.
                found = in_frame(fine_work, fine_scale, fine_offset, best)
                if found is not None:
                    return found
            fine = _best_lattice(fine_work).lattice
            if fine is not None and (
                best is None
                or len(fine.members) > len(best.members)
                or (_pitch(best) < MIN_PITCH and len(fine.members) >= 0.8 * len(best.members))
            ):
                best, scale, offset = fine, fine_scale, fine_offset
            whole = (x0, y0, x1, y1) == (0, 0, image.shape[1], image.shape[0])
            if _convincing(best) and (whole or not _touches_edge(best, x1 - x0, y1 - y0, scale)):
                break
    return _lattice_location(best, scale, offset, image.shape)


def _lattice_location(
    best: Lattice | None, scale: float, offset: np.ndarray, shape: tuple[int, ...]
) -> BoardLocation | NotFound:
    """The board a lattice found in a work image (``scale``, ``offset``) makes in the image."""
    if best is None:
        return NotFound("no grid of similar cells found in the image")
    r0, r1 = best.rows
    c0, c1 = best.cols
    # Cell (r, c) of the board is lattice point (c0 + c, r0 + r); its edges are +-0.5.
    to_board = np.array([[1.0, 0, c0 - 0.5], [0, 1.0, r0 - 0.5], [0, 0, 1.0]])
    unscale = np.array([[1.0 / scale, 0, offset[0]], [0, 1.0 / scale, offset[1]], [0, 0, 1.0]])
    homography = unscale @ best.homography @ to_board
    homography /= homography[2, 2]
    rows, cols = best.shape
    corners = _apply(homography, [[0, 0], [cols, 0], [cols, rows], [0, rows]])
    off = _cells_off_image(corners, rows, cols, shape)
    if off > 0.5 and _specks(best):
        # Specks on a lattice that runs off the image are what texture (noise,
        # foliage) makes up; a board's cells past the image could not be read.
        return NotFound(f"the only grid found runs {off:.1f} cells off the image")
    cover = len(best.members) / (rows * cols)
    return BoardLocation(corners, homography, rows, cols, float(min(1.0, cover)))


def _framed_location(framed: Framed, scale: float, offset: np.ndarray) -> BoardLocation:
    """The board inside a frame found in a work image at ``scale`` of the crop at ``offset``."""
    location = board_at(framed.corners / scale + offset, framed.rows, framed.cols)
    return dataclasses.replace(location, confidence=framed.cover, framed=True)


def _frame_rather(
    framed: BoardLocation, lattice: Lattice | None, location: BoardLocation | NotFound
) -> bool:
    """True when the board in a frame is a better answer than the lattice's.

    It is when the lattice is not convincing, or when the lattice is part of
    the framed board: cells of the same size, inside the frame, fewer (the
    objects of one turn, say).
    """
    if lattice is None or not location or not _convincing(lattice):
        return True
    corners = framed.corners
    centre = location.corners.mean(axis=0)
    inside = cv2.pointPolygonTest(
        corners.astype(np.float32), (float(centre[0]), float(centre[1])), False
    )
    ratio = _cell_size(corners, framed.rows, framed.cols) / _cell_size(
        location.corners, location.rows, location.cols
    )
    more = framed.rows * framed.cols > location.rows * location.cols
    return bool(inside >= 0 and more and 0.75 < ratio < 1.33)


def _cell_size(corners: np.ndarray, rows: int, cols: int) -> float:
    """The mean side of a cell of the board with outline ``corners`` (TL, TR, BR, BL)."""
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    return float(np.mean(sides / [cols, rows, cols, rows]))


def board_at(corners: np.ndarray, rows: int, cols: int) -> BoardLocation:
    """The board whose outer corners (TL, TR, BR, BL, image pixels) are given, of rows x cols.

    For boards the locate stage cannot find: the corners come from the user.
    BoardInputError when they are not four points going clockwise round a
    convex quadrilateral.
    """
    corners = np.asarray(corners, dtype=np.float64)
    if corners.shape != (4, 2) or not np.all(np.isfinite(corners)):
        raise BoardInputError(f"corners must be four (x, y) points, not shape {corners.shape}")
    if not _clockwise_convex(corners):
        raise BoardInputError(
            "corners must go clockwise round the board from its top-left "
            "(top-left, top-right, bottom-right, bottom-left), as a convex outline"
        )
    square = np.float64([[0, 0], [cols, 0], [cols, rows], [0, rows]])
    homography = cv2.getPerspectiveTransform(square.astype(np.float32), corners.astype(np.float32))
    return BoardLocation(corners, homography / homography[2, 2], rows, cols, 1.0)


def _clockwise_convex(corners: np.ndarray) -> bool:
    """True when the points go clockwise (on screen) round a convex outline."""
    edges = np.roll(corners, -1, axis=0) - corners
    following = np.roll(edges, -1, axis=0)
    turns = edges[:, 0] * following[:, 1] - edges[:, 1] * following[:, 0]
    return bool(np.all(turns > 0))


def _cells_off_image(corners: np.ndarray, rows: int, cols: int, shape: tuple[int, ...]) -> float:
    """How far (in cells) the outline ``corners`` (TL, TR, BR, BL) reaches past the image."""
    h, w = shape[:2]
    x, y = corners[:, 0], corners[:, 1]
    past = np.max([-x, x - w, -y, y - h], axis=0)  # pixels past the edge, per corner
    # each corner's own cell size: its two edges, over their cells
    to_next = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)  # top, right, ...
    to_previous = np.roll(to_next, 1)  # left, top, right, bottom
    cell = (to_next / [cols, rows, cols, rows] + to_previous / [rows, cols, rows, cols]) / 2
    return float(max(0.0, np.max(past / cell)))
