"""Segmentation: cut a work image into cell-like blobs, cheapest first.

The locate stage works on a *work image*: the screenshot scaled so that its
longer side is at most a few hundred pixels (fast) or, for a finer look,
two thousand, and small images enlarged.  Its blobs come from several
segmentations (objects on the commonest colour, flat regions, colour
clusters, objects far from the backdrop's chroma, dark and light objects);
a board's cells are among the blobs of at least one of them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from ..colour import commonest_chroma, far_from_chroma, on_scale

#: First look at images scaled so their longer side is at most this (speed) ...
COARSE_SIDE = 800


#: ... and again, finer, when the cells found there are smaller than MIN_PITCH.
MAX_SIDE = 2000


#: Small images are enlarged so their shorter side is at least this.
MIN_SIDE = 320


#: A cell-like blob is at least this many pixels a side, no more than this
#: many times wider than tall or taller than wide, and fills at least this
#: share of its box (a ring or a cross does not).
CELL_SIDE, CELL_ASPECT, CELL_FILL = 3, 2.5, 0.3
#: Flat pixels: every channel's Sobel gradient (|d/dx| + |d/dy| on 8-bit Lab,
#: L stored at 0..255) at most FLAT strictly, LOOSELY_FLAT loosely (soft
#: shading, gradients across a tile).
FLAT, LOOSELY_FLAT = 11, 29
#: The backdrop: pixels within this of the commonest colour in every 8-bit
#: Lab channel (L* within 3.9, a and b within 10), when at least
#: BACKDROP_SHARE of the image has it.
BACKDROP_BOX, BACKDROP_SHARE = 10, 0.15
#: The colour-cluster segmentation splits the image into this many colours.
CLUSTERS = 6

#: The lightness split smooths the lightness with a median of this many pixels a side
#: (a screen's finest stripes and a photo's noise are finer than that; a cell is not).
LIGHTNESS_SMOOTHING = 5


@dataclass
class Blob:
    x: float  # centroid, work-image pixels
    y: float
    w: int
    h: int
    area: int
    fill: float  # area / bbox area
    source: str
    colour: tuple[float, float, float] = (0.0, 0.0, 0.0)  # mean L*a*b* of its box
    size: float = 0.0  # sqrt(w * h)

    def __post_init__(self) -> None:
        self.size = math.sqrt(self.w * self.h)


@dataclass
class Regions:
    """The flat regions of a work image: each pixel's region (0: not flat) and their stats."""

    labels: np.ndarray  # int32, the work image's shape
    stats: np.ndarray  # OpenCV's (x, y, w, h, area) of each region


def work_image(image: np.ndarray, max_side: int = MAX_SIDE) -> tuple[np.ndarray, float]:
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


def components(
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
        & (w >= CELL_SIDE)
        & (h >= CELL_SIDE)
        & (aspect >= 1 / CELL_ASPECT)
        & (aspect <= CELL_ASPECT)
        & (fill >= CELL_FILL)
    )
    keep[0] = False
    ids = np.flatnonzero(keep)
    if not ids.size:
        return []
    x0, y0, x1, y1 = x[ids], y[ids], x[ids] + w[ids], y[ids] + h[ids]
    box = sums[y1, x1] - sums[y0, x1] - sums[y1, x0] + sums[y0, x0]
    colours = on_scale(box / (w[ids] * h[ids])[:, None]).tolist()
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


def _quantised_labels(lab: np.ndarray, k: int = CLUSTERS) -> np.ndarray:
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


def _lightness_split(lab: np.ndarray, sums: np.ndarray, min_area: int, max_area: int) -> list[Blob]:
    """Cell-shaped components of the pixels darker than Otsu's threshold of the smoothed
    lightness, and of those lighter than it."""
    lightness = cv2.medianBlur(np.ascontiguousarray(lab[:, :, 0]), LIGHTNESS_SMOOTHING)
    _, dark = cv2.threshold(lightness, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    return components(dark, sums, "dark", min_area, max_area) + components(
        cv2.bitwise_not(dark), sums, "light", min_area, max_area
    )


def commonest_colour(lab: np.ndarray) -> np.ndarray:
    """The image's commonest colour (its page, its backdrop), 8-bit Lab to within 8 units."""
    sample = lab.reshape(-1, 3)[:: max(1, lab.size // 150000)].astype(np.uint16) >> 3
    index = (sample[:, 0] << 10) | (sample[:, 1] << 5) | sample[:, 2]
    mode = int(np.argmax(np.bincount(index, minlength=1 << 15)))
    return np.array([mode >> 10, (mode >> 5) & 31, mode & 31], dtype=np.uint8) * 8 + 4


def _backdrop_mask(lab: np.ndarray, centre: np.ndarray) -> np.ndarray | None:
    """0/255 mask of the image's commonest colour ``centre`` (within a few Lab units),
    if it is common."""
    near = cv2.inRange(
        lab,
        np.clip(centre.astype(int) - BACKDROP_BOX, 0, 255).astype(np.uint8),
        np.clip(centre.astype(int) + BACKDROP_BOX, 0, 255).astype(np.uint8),
    )
    return near if cv2.countNonZero(near) > BACKDROP_SHARE * near.size else None


def lab_gradient(lab: np.ndarray) -> np.ndarray:
    """|d/dx| + |d/dy| of each Lab channel (uint8, saturated)."""
    return cv2.add(
        cv2.convertScaleAbs(cv2.Sobel(lab, cv2.CV_16S, 1, 0, ksize=3)),
        cv2.convertScaleAbs(cv2.Sobel(lab, cv2.CV_16S, 0, 1, ksize=3)),
    )


def flat_mask(gradient: np.ndarray, limit: int = FLAT) -> np.ndarray:
    """0/255 mask of the pixels flat in every channel: each one's gradient at most ``limit``."""
    return cv2.inRange(gradient, (0, 0, 0), (limit, limit, limit))


def candidate_stages(
    lab: np.ndarray,
    regions: list[Regions] | None = None,
    gradient: np.ndarray | None = None,
    flat: np.ndarray | None = None,
    page: np.ndarray | None = None,
) -> Iterator[list[Blob]]:
    """Cell-like blobs of a Lab work image, cheapest segmentation first.

    Objects on the backdrop come first, then flat regions (strictly, then
    loosely flat), then colour clusters and salient objects, and last the
    dark and the light objects of the lightness split (the search asks for
    them only where a plane is seen at an angle and the stages before found
    no convincing board: ``search.LAST_RESORT``).  The strictly flat regions
    themselves (cell-like or not) are appended to ``regions``
    when it is given.  ``gradient`` is ``lab_gradient(lab)``, ``flat``
    ``flat_mask(gradient)`` and ``page`` ``commonest_colour(lab)``, when known.
    """
    h, w = lab.shape[:2]
    min_area = max(6, int(h * w * 4e-6))
    max_area = int(h * w * 0.2)
    sums = cv2.integral(lab, sdepth=cv2.CV_32S)
    blobs: list[Blob] = []

    # 1. Whatever stands out from the commonest colour (the backdrop): on most
    # boards these are the tiles, a tile with a glyph on it as one blob.
    backdrop = _backdrop_mask(lab, commonest_colour(lab) if page is None else page)
    if backdrop is None:
        yield []
    else:
        yield components(cv2.bitwise_not(backdrop), sums, "backdrop", min_area, max_area)
    # Flat regions: pixels whose colour barely changes, split by every edge.
    if gradient is None:
        gradient = lab_gradient(lab)
    if flat is None:
        flat = flat_mask(gradient)
    yield components(flat, sums, "flat12", min_area, max_area, regions)
    # Regions that are flat only more loosely (gradients, soft shading).
    flat = flat_mask(gradient, LOOSELY_FLAT)
    yield components(flat, sums, "flat30", min_area, max_area)
    blobs = []

    # 2. Colour clusters: components of each of a few k-means colours.
    labels = _quantised_labels(lab)
    kernel = np.ones((2, 2), np.uint8)
    for k in range(int(labels.max()) + 1):
        mask = cv2.morphologyEx((labels == k).astype(np.uint8), cv2.MORPH_OPEN, kernel)
        blobs += components(mask, sums, f"colour{k}", min_area, max_area)

    # 3. Colourful objects on a textured backdrop (benches on grass): pixels far
    # from the image's commonest chroma, smoothed so texture speckle drops out.
    salient = far_from_chroma(lab, commonest_chroma(lab))
    blobs += components(salient, sums, "salient", min_area, max_area)

    # 4. Objects on a backdrop: whatever is not the one or two commonest colours,
    # so a tile with a glyph on it (an arrow, a number) counts as one blob.
    counts = np.bincount(labels.reshape(-1), minlength=int(labels.max()) + 1)
    for k in np.argsort(-counts)[:2]:
        if counts[k] < 0.1 * labels.size:
            continue
        blobs += components(labels != k, sums, f"object{k}", min_area, max_area)
    yield blobs

    # 5. Dark objects on a light ground and light ones on a dark ground: the lightness,
    # median-smoothed, split in two at Otsu's threshold.  A phone's photo of a screen
    # streaks every colour with moiré and noise, so nothing in it is flat and its colour
    # clusters break each cell into specks; the cells still stand apart in lightness.
    yield _lightness_split(lab, sums, min_area, max_area)
