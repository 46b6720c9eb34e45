"""Grouping blobs: by size (each group may seed a lattice), one blob per place.

Several segmentations often cut the same cell; a lattice is fitted to each
group of blobs of much the same width and height, with repeats dropped.
"""

from __future__ import annotations

import numpy as np

from .segment import Blob


def size_groups(blobs: list[Blob]) -> list[list[Blob]]:
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


def distinct(blobs: list[Blob]) -> list[Blob]:
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
