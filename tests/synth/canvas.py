"""Where the board goes on the canvas, the perspective tilt of a whole screenshot, and noise."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision_solver.errors import BoardInputError


class _DoesNotFit(BoardInputError):
    """The board (with its frame) does not fit on the requested canvas."""


def _place(
    rng: np.random.Generator,
    ext_w: int,
    ext_h: int,
    canvas: tuple[int, int] | None,
    origin: tuple[int, int] | None,
    lead: tuple[int, int],
) -> tuple[int, int, int, int]:
    """Choose the canvas size and the top-left of the board's extent on it.

    ``ext_w`` x ``ext_h`` is the board including its decoration; ``lead`` is the offset of the
    grid's top-left inside that extent, so ``origin`` (the grid's top-left) maps to
    ``origin - lead``.  Returns (width, height, ext_x, ext_y).
    """
    if canvas is None:
        side = int(rng.integers(30, 90))
        extra = int(rng.integers(0, 180))
        left, right = (side + extra, side) if rng.integers(2) else (side, side + extra)
        top, bottom = int(rng.integers(90, 130)), int(rng.integers(60, 110))
        if origin is None:
            ex, ey = left, top
        else:
            ex, ey = origin[0] - lead[0], origin[1] - lead[1]
            if ex < 1 or ey < 1:
                raise BoardInputError(f"origin {origin} leaves no room for the board's frame")
        width, height = ex + ext_w + right, ey + ext_h + bottom
        if max(width, height) > 10000:
            raise BoardInputError(f"board too large: the canvas would be {width}x{height}")
        return width, height, ex, ey
    width, height = int(canvas[0]), int(canvas[1])
    if origin is None:
        room_x, room_y = width - ext_w - 2, height - ext_h - 2
        if room_x < 1 or room_y < 1:
            raise _DoesNotFit(
                f"a board of {ext_w}x{ext_h} px (with frame) does not fit on a "
                f"{width}x{height} canvas"
            )
        return width, height, 1 + int(rng.integers(room_x)), 1 + int(rng.integers(room_y))
    ex, ey = origin[0] - lead[0], origin[1] - lead[1]
    if ex < 1 or ey < 1 or ex + ext_w > width - 1 or ey + ext_h > height - 1:
        raise _DoesNotFit(
            f"a board of {ext_w}x{ext_h} px (with frame) at origin {origin} does not fit on a "
            f"{width}x{height} canvas"
        )
    return width, height, ex, ey


def _quad_area(q: np.ndarray) -> float:
    """Area of a simple polygon (shoelace formula)."""
    x, y = q[:, 0], q[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def _tilt_homography(
    rng: np.random.Generator, corners: np.ndarray, tilt: float, size: tuple[int, int]
) -> np.ndarray:
    """A random perspective homography that tips the board's plane by up to ~120*tilt degrees.

    The board is rotated about its centre in 3-D and re-projected by a pinhole camera; the
    resulting quad is then moved (and if needed shrunk) so that it stays inside the canvas.
    """
    width, height = size
    centre = corners.mean(axis=0)
    rel = corners - centre
    ax, ay = rng.uniform(-1.0, 1.0, 2) * tilt * math.radians(120.0)
    az = rng.uniform(-1.0, 1.0) * tilt * math.radians(40.0)
    cx, sx, cy, sy, cz, sz = (
        math.cos(ax),
        math.sin(ax),
        math.cos(ay),
        math.sin(ay),
        math.cos(az),
        math.sin(az),
    )
    rot_x = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    rot_y = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rot_z = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    focal = 1.6 * float(np.ptp(corners, axis=0).max())
    pts3 = np.c_[rel, np.zeros(4)] @ (rot_z @ rot_y @ rot_x).T
    pts3[:, 2] += focal
    dst = focal * pts3[:, :2] / pts3[:, 2:3]
    # keep the quad's area close to the original one, then keep it on the canvas
    dst *= math.sqrt(_quad_area(rel) / max(_quad_area(dst), 1e-9))
    lo = np.array([1.0, 1.0])
    hi = np.array([width - 2.0, height - 2.0])
    span = np.ptp(dst, axis=0)
    shrink = min(1.0, *((hi - lo) / np.maximum(span, 1e-9)))
    dst *= shrink
    dst += centre
    dst += np.maximum(lo - dst.min(axis=0), 0) - np.maximum(dst.max(axis=0) - hi, 0)
    return cv2.getPerspectiveTransform(corners.astype(np.float32), dst.astype(np.float32))


def _degrade(img: np.ndarray, noise: float, rng: np.random.Generator) -> np.ndarray:
    """Slight blur and a JPEG round trip, then Gaussian pixel noise of std ``noise``."""
    if noise <= 0:
        return img
    img = cv2.GaussianBlur(img, (0, 0), min(1.4, 0.45 + 0.04 * noise))
    quality = int(np.clip(round(95 - 2.5 * noise), 35, 95))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if ok:
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    noisy = rng.standard_normal(img.shape, dtype=np.float32)
    noisy *= np.float32(noise)
    noisy += img
    return np.clip(np.rint(noisy), 0, 255).astype(np.uint8)
