"""Lattices: the largest set of similar blobs that sits on a regular 2-D lattice.

A group of similar blobs proposes lattice steps (each blob's nearest
neighbours along a row and down a column); the blobs on the winning steps fit
a homography from lattice coordinates (col, row) to work pixels, and
look-alike blobs of any segmentation that sit on its points join.  Rows and
columns cut off from the rest, or held by stray look-alikes, are trimmed.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections import Counter
from dataclasses import dataclass

import cv2
import numpy as np

from ..colour import SAME_COLOUR
from ..geometry import apply_homography
from .segment import Blob

# Distances below are in cells (lattice units) unless they say otherwise.

#: A seed joins the lattice its steps propose within this of a point ...
SEED_REACH = 0.25
#: ... and within this once a homography is fitted through the seeds ...
FITTED_REACH = 0.22
#: ... and a look-alike of another segmentation within this (tighter: it was
#: not among the blobs that proposed the lattice).
LOOKALIKE_REACH = 0.18
#: A blob this close to its lattice point sits *on* it.  Clutter that a fine
#: lattice catches by chance spreads over the whole reach: an eighth of it lies
#: this close at random.
ON_POINT = 0.08
#: A lattice with fewer of its seeds on their points than this is texture
#: (grass, noise), not a board: on 181 real and synthetic scenes no board's
#: lattice came under it, and dropping the others early sped up the search.
MIN_PRECISION = 0.5
#: A look-alike's size (at the seeds' scale) is at least this share of the
#: seeds' median size, and at most the larger of a pitch and a quarter and a
#: half as large again as the seeds (tiles with gaps are smaller than the
#: pitch; gapless ones fill it) ...
LOOKALIKE_SIZE = (0.7, 1.25, 1.5)
#: ... and its fill (area over box) within this of the seeds'.
LOOKALIKE_FILL = 0.25
#: Perspective shows when the homography's third coordinate varies by more
#: than this share over the seeds: then far cells are compared at their scale.
PERSPECTIVE = 0.03
#: Lattice steps are proposed by this many blobs of a group, spread over it.
PROPOSERS = 40
#: A blob's neighbour lies along its row when it is this many times further
#: across than down (within 34 degrees of the row), and down its column alike.
ALONG = 1.5
#: A proposal counts the blobs within this of its points.
VOTE_REACH = 0.2
#: An outer line of a lattice holding fewer than this share of the fullest
#: line's members is sparse: it may be a label or text beside the board ...
SPARSE_LINE = 0.5
#: ... and it goes when its blobs sit further than this (median) from their
#: points, hold no seed, or are unlike all other members' colours.
LOOSE_LINE = 0.1


class Pool:
    """The blobs a lattice may take in, with their centres, sizes, fills and colours as arrays.

    Built once per stage: every size group's lattice looks through it.
    """

    def __init__(self, blobs: list[Blob]) -> None:
        self.blobs = blobs
        self.xy = np.array([(b.x, b.y) for b in blobs], dtype=np.float64).reshape(-1, 2)
        self.size = np.array([b.size for b in blobs], dtype=np.float64)
        self.fill = np.array([b.fill for b in blobs], dtype=np.float64)
        self.colour = np.array([b.colour for b in blobs], dtype=np.float64).reshape(-1, 3)


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
    palette: bool = False  # nearly every cell of a colour of its own: icons, no board
    dust: bool = False  # specks far apart among as many off its points: lined up by chance

    @property
    def shape(self) -> tuple[int, int]:
        return self.rows[1] - self.rows[0] + 1, self.cols[1] - self.cols[0] + 1


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


def on_points(uv: np.ndarray, reach: float) -> Placement:
    """Points at lattice coordinates ``uv`` (col, row) placed on their nearest lattice points.

    Only points within ``reach`` (cells) of one are placed, and of the points
    near one lattice point the closest wins it; the placed come closest first.
    """
    nearest = np.round(uv).astype(np.int64)
    resid = np.sqrt(np.square(uv - nearest).sum(axis=1))
    close = np.flatnonzero(resid <= reach)
    close = close[np.argsort(resid[close], kind="stable")]
    # the closest point of each lattice point: first of each key in that order
    keys = nearest[close]
    _, first = np.unique(keys[:, 1] * 1_000_003 + keys[:, 0], return_index=True)
    won = close[np.sort(first)]
    return Placement(won, nearest[won][:, ::-1], resid[won])


def fit_homography(points: np.ndarray, pixels: np.ndarray) -> np.ndarray:
    """Homography (least squares) taking lattice ``points`` (col, row) to ``pixels`` (x, y)."""
    src = np.asarray(points, dtype=np.float64)
    dst = np.asarray(pixels, dtype=np.float64)
    if len(src) >= 5 and np.ptp(src[:, 0]) > 0 and np.ptp(src[:, 1]) > 0:
        homography, _ = cv2.findHomography(src, dst, 0)
        if homography is not None and _well_conditioned(homography):
            return homography
    # Too few points (or degenerate) for a homography: an affine fit.
    return fit_affine(src, dst)


def fit_affine(points: np.ndarray, pixels: np.ndarray) -> np.ndarray:
    """The affine map (least squares, as a 3 x 3 homography) taking ``points`` to ``pixels``."""
    design = np.column_stack([np.asarray(points, dtype=np.float64), np.ones(len(points))])
    coeffs, *_ = np.linalg.lstsq(design, np.asarray(pixels, dtype=np.float64), rcond=None)
    return np.vstack([coeffs.T, [0.0, 0.0, 1.0]])


def _well_conditioned(homography: np.ndarray) -> bool:
    return bool(np.all(np.isfinite(homography))) and abs(homography[2, 2]) > 1e-9


def relative_scale(homography: np.ndarray, xy: np.ndarray, seeds: np.ndarray) -> np.ndarray | None:
    """How large a cell looks at each pixel ``xy``, relative to the ``seeds`` (pixels).

    A homography's local area scale is det(H) / w^3, w its third coordinate.
    None where w barely changes over the seeds (no perspective: all the same).
    """
    try:
        inverse = np.linalg.inv(homography)
    except np.linalg.LinAlgError:
        return None  # a degenerate fit: nothing to scale by

    def third(points: np.ndarray) -> np.ndarray:
        uv = apply_homography(inverse, points)
        return uv @ homography[2, :2] + homography[2, 2]

    at_seeds = np.abs(third(seeds))
    if np.ptp(at_seeds) < PERSPECTIVE * np.median(at_seeds) or not len(xy):
        return None
    return (np.median(at_seeds) / np.abs(third(xy))) ** 1.5


def lattice_score(
    seeds_on: int, cover: float, pitch: float, isotropy: float, sine: float, precision: float
) -> float:
    """How much a lattice looks like a board; the highest-scoring lattice is the board.

    It grows with the blobs that agree with it (``seeds_on``), linearly: a
    board holds many cells alike.  The other factors are shares in 0..1 that
    a board has near 1, and the squared ones are those whose shortfall marks
    a non-board most surely: ``cover`` (members over the cells of its box: a
    lattice with holes is a part of a board, or clutter that happens to line
    up) and ``precision`` (seeds right on their points: texture is not) are
    squared, and so is ``sine`` (the angle between rows and columns: boards
    are square-on, and a skewed lattice of diagonal neighbours scores
    ``sine``**2 = 1/2 of the true one, below it even when it holds more
    blobs).  ``isotropy`` (square cells) counts once, since perspective
    stretches cells too, and the pitch only as ``log1p``: larger cells are
    likelier a board than specks, but a board of small cells must still
    beat a few large panels.
    """
    return seeds_on * cover**2 * np.log1p(pitch) * isotropy * sine**2 * precision**2


def lattice_from(seed_group: list[Blob], pool: Pool) -> Lattice | None:
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
                uv = apply_homography(np.linalg.inv(homography), xy)
            except np.linalg.LinAlgError:
                return Placement.none()
        return on_points(uv, tol)

    placed = assign(pts, None, SEED_REACH)
    if len(placed.won) < 3:
        return None
    homography = None
    for _ in range(3):
        if np.ptp(placed.keys[:, 0]) == 0 or np.ptp(placed.keys[:, 1]) == 0:
            return None  # a single row or column: not a board
        homography = fit_homography(placed.keys[:, ::-1], pts[placed.won])
        before = placed
        placed = assign(pts, homography, FITTED_REACH)
        if len(placed.won) < 3:
            return None
        if placed.same_as(before):
            break  # the same blobs on the same points: refitting changes nothing
    # Blobs of a real board sit right on their lattice points; clutter that a
    # fine lattice happens to catch is spread over the whole tolerance disc.
    # A lattice with most of its blobs off their points is texture, not a board.
    precision = float(np.mean(placed.resid < ON_POINT))
    if precision < MIN_PRECISION:
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
            scale = relative_scale(homography, pool.xy, pts[placed.won])
            seen_size = pool.size if scale is None else pool.size / scale
            smallest, of_pitch, of_size = LOOKALIKE_SIZE
            lookalikes = np.flatnonzero(
                (seen_size >= smallest * size)
                & (seen_size <= max(of_pitch * pitch, of_size * size))
                & (np.abs(pool.fill - fill) < LOOKALIKE_FILL)
            )
            extra = assign(pool.xy[lookalikes], homography, LOOKALIKE_REACH)
        extra.won = lookalikes[extra.won]  # index the pool, not the look-alikes
        return extra, scale is not None

    extra, slanted = take_in(homography)
    # Fitted to the seeds alone, a slanted board's homography drifts off the
    # far cells: refit it through the look-alikes too, while that takes in more.
    for _ in range(2 if slanted else 0):
        keys = np.concatenate([placed.keys, extra.keys])
        pixels = np.concatenate([pts[placed.won], pool.xy[extra.won]])
        refit = fit_homography(keys[:, ::-1], pixels)
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
    score = lattice_score(seeds_on, cover, pitch, isotropy, sine, precision)
    return Lattice(
        homography, members, (rows[0], rows[-1]), (cols[0], cols[-1]), float(score), len(seed_group)
    )


def without(lattice: Lattice, dropped: set[int]) -> Lattice | None:
    """``lattice`` less the members whose ``id`` is in ``dropped``, or None if too little is left.

    What is left keeps its longest run of rows and columns (``_contiguous``)
    less sparse outer lines of foreign colour (``_trim_stragglers``); the
    score is scaled as ``lattice_score`` scales with the members (linearly)
    and with the cover (squared).
    """
    kept = {key: (0.0, blob) for key, blob in lattice.members.items() if id(blob) not in dropped}
    if len(kept) == len(lattice.members):
        return lattice
    # An outer line left with a few members unlike the rest (a button of the page
    # on one of its squares' points) goes too.
    trimmed = _trim_stragglers(_contiguous(kept), set(kept))
    members = {key: blob for key, (_, blob) in trimmed.items()}
    if not members:
        return None
    rows = sorted({key[0] for key in members})
    cols = sorted({key[1] for key in members})
    shape = (rows[-1] - rows[0] + 1, cols[-1] - cols[0] + 1)
    if min(shape) < 2:
        return None
    old_cover = len(lattice.members) / (lattice.shape[0] * lattice.shape[1])
    cover = len(members) / (shape[0] * shape[1])
    score = lattice.score * len(members) / len(lattice.members) * (cover / old_cover) ** 2
    return dataclasses.replace(
        lattice,
        members=members,
        rows=(rows[0], rows[-1]),
        cols=(cols[0], cols[-1]),
        score=float(score),
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
    sample = np.linspace(0, n - 1, min(n, PROPOSERS)).astype(int)
    # offsets from each proposing blob to every blob: (proposals, blobs), x and y apart
    dx = pts[None, :, 0] - pts[sample, 0][:, None]
    dy = pts[None, :, 1] - pts[sample, 1][:, None]
    dist = np.sqrt(dx * dx + dy * dy)
    dist[np.arange(len(sample)), sample] = np.inf
    rows = np.arange(len(sample))
    steps = []
    ok = np.ones(len(sample), dtype=bool)
    for along, across in ((dx, dy), (dy, dx)):
        cand = np.where(np.abs(along) > ALONG * np.abs(across), dist, np.inf)
        j = cand.argmin(axis=1)
        ok &= np.isfinite(cand[rows, j]) & (cand[rows, j] >= LOOKALIKE_SIZE[0] * size)
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
    counts = (lu * lu + lv * lv < VOTE_REACH**2).sum(axis=1)
    counts[~ok] = -1
    best = int(np.argmax(counts))
    return u[best], v[best], pts[sample[best]]


def _foreign(others: np.ndarray, colours: np.ndarray) -> bool:
    """True when most of ``colours`` (Lab) are unlike every one of ``others``."""
    if not len(others):
        return False
    nearest = np.linalg.norm(others[None, :, :] - colours[:, None, :], axis=2).min(axis=1)
    return bool(np.mean(nearest > SAME_COLOUR) > 0.5)


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
                if counts[axis][edge] >= SPARSE_LINE * most:
                    continue  # not sparse: a line of the board
                on = alive & (keys[:, axis] == edge)
                loose = statistics.median(distance[on].tolist()) > LOOSE_LINE
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
