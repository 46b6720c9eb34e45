"""Photographed boards: a phone pointed at a monitor, a toy on a table, a competing grid.

``photo_scene(seed, kind)`` takes a flat board and photographs it, with the truth carried
through exactly:

* ``monitor``: a screenshot (``wild_scene`` of a random family, or one of the renderer's own
  looks) shown on a monitor (its pixels a visible sub-pixel grid, so that resampling makes
  moire), with a bezel, in a room above a desk, photographed at up to ~35 degrees of tilt and
  +-20 degrees of roll; a glare spot, colour cast, raised black level, vignette, blur, noise,
  JPEG 60..90; photos from 1280x960 up to 12 MP (4000x3000), landscape or portrait.
* ``toy``: a handheld toy or button box on a table (wood or cloth): round buttons or square
  keys with gaps on a plastic case, lit keys glowing onto their neighbours; about one in six
  is all unlit (every cell 0: lit means emitting light).
* ``competing``: either of the above with a second grid in view: a 2x8 seven-segment display
  above the toy's keys, a keyboard in front of the monitor, or a tiled floor under the toy.

``PhotoScene.homography`` maps board coordinates (x = column, y = row, the grid's outer edge
at 0..cols and 0..rows) to photo pixels; ``corners`` are that homography applied to the
outline, in the package's pixel-centre convention.  The split is the one of the unseen looks:
seeds divisible by four are the tuning side, all others the scored side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision_solver.errors import BoardInputError

from .draw import _AA, _fill_poly, _round_rect_pts
from .scene import Rendered, random_scene
from .wild import FAMILIES, wild_scene

KINDS = ("monitor", "toy", "competing")

_SIZES = [(4000, 3000), (3264, 2448), (2016, 1512), (1600, 1200), (1280, 960)]


@dataclass(frozen=True)
class PhotoScene(Rendered):
    """A photographed board: ``Rendered`` plus how it was taken."""

    homography: np.ndarray | None = None  # board (col, row) coordinates -> photo pixels
    kind: str = ""
    competitor: str = ""  # "display", "keyboard", "floor" or "" (none)
    shows: str = ""  # the look of the screenshot a monitor shows ("chairs-3d#12"); "" for a toy


def is_tuning(seed: int) -> bool:
    """The split: seeds divisible by four are tuned on, the rest are scored."""
    return seed % 4 == 0


def photo_scene(seed: int, kind: str, *, light_unlit: bool = False) -> PhotoScene:
    """A seeded photo of a board of ``kind`` (one of KINDS), with its exact truth.

    ``light_unlit``: a toy drawn with every key unlit is drawn with every key lit instead,
    the photo otherwise the same (the same draws of the seed)."""
    if kind not in KINDS:
        raise BoardInputError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if not isinstance(seed, int | np.integer) or seed < 0:
        raise BoardInputError(f"seed must be a whole number >= 0, not {seed!r}")
    rng = np.random.default_rng([int(seed), KINDS.index(kind), 12])
    size = _SIZES[int(rng.integers(len(_SIZES)))]
    if rng.random() < 0.3:
        size = (size[1], size[0])
    base = kind
    competitor = ""
    shows = ""
    if kind == "competing":
        competitor = str(rng.choice(["display", "keyboard", "floor"]))
        base = "monitor" if competitor == "keyboard" else "toy"
    if base == "monitor":
        screen = _screen(seed, rng)
        shows = screen.look
        shot = _photograph_monitor(screen, size, rng, keyboard=competitor == "keyboard")
    else:
        shot = _photograph_toy(
            size,
            rng,
            display=competitor == "display",
            floor=competitor == "floor",
            light_unlit=light_unlit,
        )
    return PhotoScene(
        shot.image,
        shot.cells,
        shot.corners,
        shot.puzzle,
        f"photo-{kind}#{seed}",
        homography=shot.homography,
        kind=kind,
        competitor=competitor,
        shows=shows,
    )


# --- geometry -----------------------------------------------------------------------------------


def outline(rows: int, cols: int) -> np.ndarray:
    """The board's outer edge in board coordinates: TL, TR, BR, BL as (x, y)."""
    return np.array([[0.0, 0.0], [cols, 0.0], [cols, rows], [0.0, rows]])


def apply(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(1, -1, 2), hom).reshape(
        -1, 2
    )


def _view(
    rng: np.random.Generator,
    plane: tuple[float, float],
    box: tuple[float, float, float, float],
    fill: float,
    tilt_deg: float = 35.0,
    roll_deg: float = 20.0,
) -> np.ndarray:
    """A camera's homography from a plane of ``plane`` (w, h) px into ``box`` of the photo.

    The plane is tipped by up to ``tilt_deg`` about an axis in it, turned by up to
    ``roll_deg`` and projected by a pinhole camera; the picture is scaled to span ``fill`` of
    the box (the larger side) and put at a random place inside it.
    """
    w, h = plane
    rel = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    tilt = math.radians(float(rng.uniform(0, tilt_deg)))
    axis = float(rng.uniform(0, 2 * math.pi))
    roll = math.radians(float(rng.uniform(-roll_deg, roll_deg)))
    ax, ay = tilt * math.cos(axis), tilt * math.sin(axis)
    rot_x = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
    rot_y = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
    rot_z = np.array(
        [[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]]
    )
    focal = float(rng.uniform(1.0, 2.0)) * max(w, h)
    pts = np.c_[rel, np.zeros(4)] @ (rot_z @ rot_y @ rot_x).T
    pts[:, 2] += focal
    dst = focal * pts[:, :2] / pts[:, 2:3]
    x0, y0, x1, y1 = box
    span = np.ptp(dst, axis=0)
    k = fill * min((x1 - x0) / span[0], (y1 - y0) / span[1])
    dst = (dst - dst.min(axis=0)) * k
    room = np.array([x1 - x0, y1 - y0]) - np.ptp(dst, axis=0)
    dst += np.array([x0, y0]) + rng.uniform(0, 1, 2) * np.maximum(room, 0)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) - 0.5
    return cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32)).astype(
        np.float64
    )


@dataclass(frozen=True)
class _Shot:
    image: np.ndarray
    cells: np.ndarray
    corners: np.ndarray
    homography: np.ndarray
    puzzle: str


def _board_homography(to_photo: np.ndarray, plane_corners: np.ndarray, rows: int, cols: int):
    """Board coordinates -> photo, given the board's outer corners on the plane."""
    to_plane = cv2.getPerspectiveTransform(
        outline(rows, cols).astype(np.float32), plane_corners.astype(np.float32)
    ).astype(np.float64)
    hom = to_photo @ to_plane
    return hom / hom[2, 2]


def _paste(photo: np.ndarray, plane: np.ndarray, hom: np.ndarray) -> None:
    """Warp ``plane`` into ``photo`` in place (no resampling filter: a screen's grid aliases)."""
    h, w = photo.shape[:2]
    warped = cv2.warpPerspective(plane, hom, (w, h), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(
        np.full(plane.shape[:2], 255, np.uint8), hom, (w, h), flags=cv2.INTER_LINEAR
    )
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    photo[:] = np.clip(photo * (1 - alpha) + warped * alpha, 0, 255).astype(np.uint8)


# --- backgrounds -------------------------------------------------------------------------------


def _smooth_noise(rng: np.random.Generator, size: tuple[int, int], cells: tuple[int, int]):
    w, h = size
    small = rng.standard_normal((max(2, cells[1]), max(2, cells[0]))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _wood(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    grain = _smooth_noise(rng, size, (4, 40))
    ys = np.arange(h, dtype=np.float32)[:, None]
    rings = np.sin(ys * float(rng.uniform(0.02, 0.08)) + 6 * grain)
    fine = _smooth_noise(rng, size, (w // 6, h // 2)) * 0.3
    base = np.array([rng.uniform(40, 90), rng.uniform(80, 130), rng.uniform(120, 190)], np.float32)
    shade = 1 + 0.12 * rings + 0.06 * fine
    img = base[None, None, :] * shade[..., None]
    if rng.random() < 0.5:
        img = np.ascontiguousarray(np.transpose(img, (1, 0, 2)))
        img = cv2.resize(img, (w, h))
    return np.clip(img, 0, 255).astype(np.uint8)


def _cloth(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    period = int(rng.integers(3, 9))
    ys, xs = np.mgrid[0:h, 0:w]
    weave = (((xs // period) + (ys // period)) % 2).astype(np.float32)
    colour = np.array(rng.uniform(30, 200, 3), np.float32)
    img = colour[None, None, :] * (0.85 + 0.15 * weave[..., None])
    img *= (1 + 0.1 * _smooth_noise(rng, size, (8, 8)))[..., None]
    img = cv2.GaussianBlur(img, (0, 0), 0.8)
    return np.clip(img, 0, 255).astype(np.uint8)


def _floor(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A tiled floor seen at a slant: square tiles with grout lines."""
    w, h = size
    tile = int(rng.integers(60, 160))
    big = (w * 2, h * 2)
    plane = np.empty((big[1], big[0], 3), np.uint8)
    a = np.array(rng.uniform(90, 230, 3))
    b = a * rng.uniform(0.75, 1.0)
    grout = tuple(float(v) for v in rng.uniform(40, 200, 3))
    plane[:] = grout
    line = max(2, tile // 15)
    for r in range(big[1] // tile + 1):
        for c in range(big[0] // tile + 1):
            colour = a if (r + c) % 2 and rng.random() < 0.5 else b
            colour = tuple(float(v) for v in np.clip(colour + rng.normal(0, 6, 3), 0, 255))
            cv2.rectangle(
                plane,
                (c * tile + line, r * tile + line),
                ((c + 1) * tile - 1, (r + 1) * tile - 1),
                colour,
                -1,
            )
    hom = _view(rng, big, (-0.3 * w, -0.3 * h, 1.3 * w, 1.3 * h), 1.0, 30, 20)
    return cv2.warpPerspective(
        plane, hom, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT
    )


def _room(rng: np.random.Generator, size: tuple[int, int], desk_from: float) -> np.ndarray:
    """A wall with a few dim objects and a desk (wood) from ``desk_from`` of the height down."""
    w, h = size
    wall = np.array(rng.uniform(30, 170, 3), np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = wall
    img *= (1 + 0.25 * _smooth_noise(rng, size, (3, 3)))[..., None]
    for _ in range(int(rng.integers(0, 5))):
        x, y = rng.uniform(0, w), rng.uniform(0, h * desk_from)
        bw, bh = rng.uniform(0.05, 0.25) * w, rng.uniform(0.05, 0.3) * h
        colour = tuple(float(v) for v in rng.uniform(0, 255, 3))
        cv2.rectangle(img, (int(x), int(y)), (int(x + bw), int(y + bh)), colour, -1)
    top = int(h * desk_from)
    if top < h:
        img[top:] = _wood(rng, (w, h - top))
    return np.clip(img, 0, 255).astype(np.uint8)


# --- a monitor ---------------------------------------------------------------------------------


def _screen(seed: int, rng: np.random.Generator) -> Rendered:
    """The screenshot the monitor shows: a made-up look (4 in 5) or one of the renderer's."""
    if rng.random() < 0.8:
        family = FAMILIES[int(rng.integers(len(FAMILIES)))]
        return wild_scene(int(seed), family)
    puzzle = "arrows" if rng.random() < 0.3 else "lights"
    return random_scene(
        int(seed), puzzle=puzzle, rows=int(rng.integers(3, 11)), cols=int(rng.integers(3, 11))
    )


#: Each screen pixel is drawn as SUB x SUB photo-plane pixels: three coloured stripes and a dark
#: line between rows, which a camera's resampling turns into moire.
SUB = 3


def _subpixels(screen: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    up = cv2.resize(screen, None, fx=SUB, fy=SUB, interpolation=cv2.INTER_NEAREST).astype(
        np.float32
    )
    mask = np.full((SUB, SUB, 3), 0.35, np.float32)
    for k in range(3):  # stripes B, G, R left to right (BGR channel order)
        mask[:, k, k] = 1.0
    mask[SUB - 1, :, :] *= float(rng.uniform(0.5, 0.9))  # the dark line between pixel rows
    strength = float(rng.uniform(0.2, 0.7))
    mask = 1 - strength + strength * mask / mask.mean(axis=(0, 1))
    h, w = up.shape[:2]
    up *= np.tile(mask, (h // SUB, w // SUB, 1))
    return np.clip(up, 0, 255).astype(np.uint8)


def _screen_to_plane(bezel: float) -> np.ndarray:
    """Screen pixel centres -> monitor-plane pixel centres (SUB-fold, inside the bezel)."""
    return np.array([[SUB, 0, (SUB - 1) / 2 + bezel], [0, SUB, (SUB - 1) / 2 + bezel], [0, 0, 1]])


def _photograph_monitor(
    screen: Rendered,
    size: tuple[int, int],
    rng: np.random.Generator,
    keyboard: bool = False,
    clean: bool = False,
) -> _Shot:
    sh, sw = screen.image.shape[:2]
    bezel = int(rng.uniform(0.01, 0.05) * max(sw, sh) * SUB)
    plane_w, plane_h = sw * SUB + 2 * bezel, sh * SUB + 2 * bezel
    plane = np.empty((plane_h, plane_w, 3), np.uint8)
    plane[:] = (
        tuple(float(v) for v in rng.uniform(10, 60, 3))
        if rng.random() < 0.8
        else (tuple(float(v) for v in rng.uniform(150, 200, 3)))
    )
    plane[bezel : bezel + sh * SUB, bezel : bezel + sw * SUB] = (
        cv2.resize(screen.image, None, fx=SUB, fy=SUB, interpolation=cv2.INTER_NEAREST)
        if clean
        else _subpixels(screen.image, rng)
    )
    w, h = size
    bottom = 0.68 if keyboard else 1.0
    photo = (
        _room(rng, size, float(rng.uniform(0.55, 0.9)))
        if not clean
        else np.zeros((h, w, 3), np.uint8)
    )
    box = (0.02 * w, 0.02 * h, 0.98 * w, bottom * h)
    to_photo = _view(rng, (plane_w, plane_h), box, float(rng.uniform(0.6, 1.0)))
    if keyboard:
        _keyboard(photo, rng, (0.05 * w, 0.7 * h, 0.95 * w, 0.99 * h))
    _paste(photo, plane, to_photo)
    screen_hom = to_photo @ _screen_to_plane(bezel)
    rows, cols = screen.cells.shape
    hom = _board_homography(screen_hom, screen.corners, rows, cols)
    if not clean:
        photo = _camera(photo, rng, screen_hom, (sw, sh))
    corners = apply(hom, outline(rows, cols))
    return _Shot(photo, screen.cells, corners, hom, screen.puzzle)


def _keyboard(photo: np.ndarray, rng: np.random.Generator, box) -> None:
    """A keyboard: rows of light or dark keys on a plate, in perspective."""
    key = 60
    cols, rows = int(rng.integers(12, 16)), int(rng.integers(4, 7))
    pw, ph = cols * key + 40, rows * key + 40
    plane = np.empty((ph, pw, 3), np.uint8)
    dark = rng.random() < 0.5
    plane[:] = (25, 25, 28) if dark else (200, 200, 205)
    face = (55, 55, 60) if dark else (240, 240, 242)
    for r in range(rows):
        for c in range(cols):
            x, y = 20 + c * key + 4, 20 + r * key + 4
            _fill_poly(plane, _round_rect_pts(x, y, x + key - 9, y + key - 9, 8), face)
            cv2.putText(
                plane,
                "QWERTYUIOPASDFGHJKLZXCVBNM"[(r * cols + c) % 26],
                (x + 10, y + 30),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.8,
                (200, 200, 200) if dark else (40, 40, 40),
                2,
                _AA,
            )
    hom = _view(rng, (pw, ph), box, float(rng.uniform(0.7, 1.0)), 20, 8)
    _paste(photo, plane, hom)


# --- a toy on a table --------------------------------------------------------------------------

_LIT = [
    (40, 40, 255),
    (40, 220, 255),
    (60, 255, 90),
    (255, 240, 240),
    (255, 160, 60),
    (200, 80, 255),
]


def _photograph_toy(
    size: tuple[int, int],
    rng: np.random.Generator,
    display: bool = False,
    floor: bool = False,
    light_unlit: bool = False,
) -> _Shot:
    rows, cols = int(rng.integers(3, 8)), int(rng.integers(3, 8))
    if rng.random() < 0.5:
        rows = cols = int(rng.integers(4, 7))
    unlit = rng.random() < 1 / 6
    cells = (
        np.full((rows, cols), int(light_unlit), np.int64)
        if unlit
        else rng.integers(0, 2, (rows, cols))
    )
    pitch = 100
    margin = int(rng.uniform(0.4, 1.2) * pitch)
    top = margin + (int(1.6 * pitch) if display else 0)
    pw, ph = cols * pitch + 2 * margin, rows * pitch + top + margin
    case = np.array(rng.uniform(20, 230, 3), np.float32)
    plane = np.empty((ph, pw, 3), np.float32)
    plane[:] = case
    gx, gy = float(margin), float(top)
    round_keys = rng.random() < 0.5
    gap = float(rng.uniform(0.12, 0.35)) * pitch
    lit = np.array(_LIT[int(rng.integers(len(_LIT)))], np.float32)
    off = lit * float(rng.uniform(0.15, 0.4)) + case * float(rng.uniform(0.1, 0.4))
    glow = np.zeros((ph, pw), np.float32)
    for (r, c), state in np.ndenumerate(cells):
        x1, y1 = gx + c * pitch + gap / 2, gy + r * pitch + gap / 2
        x2, y2 = gx + (c + 1) * pitch - gap / 2 - 1, gy + (r + 1) * pitch - gap / 2 - 1
        colour = tuple(float(v) for v in (lit if state else off))
        if round_keys:
            centre = (int(round((x1 + x2) / 2 * 16)), int(round((y1 + y2) / 2 * 16)))
            radius = int(round((x2 - x1) / 2 * 16))
            cv2.circle(plane, centre, radius + 48, tuple(float(v) * 0.6 for v in case), -1, _AA, 4)
            cv2.circle(plane, centre, radius, colour, -1, _AA, 4)
            if state:
                cv2.circle(glow, centre, radius, 1.0, -1, _AA, 4)
        else:
            pts = _round_rect_pts(x1, y1, x2, y2, 0.15 * pitch)
            shadow = pts + np.array([4.0, 5.0])
            _fill_poly(plane, shadow, tuple(float(v) * 0.6 for v in case))
            _fill_poly(plane, pts, colour)
            if state:
                _fill_poly(glow, pts, 1.0)
    if glow.any():
        halo = cv2.GaussianBlur(glow, (0, 0), float(rng.uniform(0.15, 0.35)) * pitch)
        plane += halo[..., None] * lit[None, None, :] * float(rng.uniform(0.3, 0.8))
    if display:
        _segment_display(plane, rng, (gx, margin * 0.6, gx + cols * pitch, top - 0.3 * pitch))
    plane = np.clip(plane, 0, 255).astype(np.uint8)
    w, h = size
    photo = (
        _floor(rng, size)
        if floor
        else (_wood(rng, size) if rng.random() < 0.6 else _cloth(rng, size))
    )
    to_photo = _view(
        rng, (pw, ph), (0.03 * w, 0.03 * h, 0.97 * w, 0.97 * h), float(rng.uniform(0.45, 0.95))
    )
    shadow_hom = to_photo.copy()
    shadow_hom[:2, 2] += rng.uniform(0.01, 0.03, 2) * max(w, h)
    shade = cv2.warpPerspective(np.full((ph, pw), 1.0, np.float32), shadow_hom, (w, h))
    shade = cv2.GaussianBlur(shade, (0, 0), 0.01 * max(w, h))  # a soft shadow under it
    photo[:] = (photo * (1 - 0.5 * shade[..., None])).astype(np.uint8)
    _paste(photo, plane, to_photo)
    plane_corners = (
        np.array(
            [
                [gx, gy],
                [gx + cols * pitch, gy],
                [gx + cols * pitch, gy + rows * pitch],
                [gx, gy + rows * pitch],
            ]
        )
        - 0.5
    )
    hom = _board_homography(to_photo, plane_corners, rows, cols)
    photo = _camera(photo, rng, None, None)
    corners = apply(hom, outline(rows, cols))
    return _Shot(photo, cells, corners, hom, "lights")


_SEGMENTS = {  # a..g lit per digit
    "0": "abcdef",
    "1": "bc",
    "2": "abdeg",
    "3": "abcdg",
    "4": "bcfg",
    "5": "acdfg",
    "6": "acdefg",
    "7": "abc",
    "8": "abcdefg",
    "9": "abcdfg",
    " ": "",
}


def _segment_display(plane: np.ndarray, rng: np.random.Generator, box) -> None:
    """A 2x8 seven-segment display: a dark window of 16 digits, some lit."""
    x0, y0, x1, y1 = box
    cv2.rectangle(plane, (int(x0), int(y0)), (int(x1), int(y1)), (15, 15, 15), -1)
    on = np.array(rng.choice([(40, 40, 255), (60, 255, 60), (255, 200, 80)]), np.float32)
    dim = on * 0.12
    cw, ch = (x1 - x0) / 8, (y1 - y0) / 2
    for r in range(2):
        for c in range(8):
            digit = str(rng.choice(list(_SEGMENTS)))
            cx, cy = x0 + c * cw + 0.2 * cw, y0 + r * ch + 0.12 * ch
            dw, dh = 0.6 * cw, 0.76 * ch
            t = max(2, int(0.12 * dw))
            segs = {
                "a": ((cx, cy), (cx + dw, cy)),
                "g": ((cx, cy + dh / 2), (cx + dw, cy + dh / 2)),
                "d": ((cx, cy + dh), (cx + dw, cy + dh)),
                "f": ((cx, cy), (cx, cy + dh / 2)),
                "b": ((cx + dw, cy), (cx + dw, cy + dh / 2)),
                "e": ((cx, cy + dh / 2), (cx, cy + dh)),
                "c": ((cx + dw, cy + dh / 2), (cx + dw, cy + dh)),
            }
            for name, (p, q) in segs.items():
                colour = on if name in _SEGMENTS[digit] else dim
                cv2.line(
                    plane,
                    (int(p[0]), int(p[1])),
                    (int(q[0]), int(q[1])),
                    tuple(float(v) for v in colour),
                    t,
                    _AA,
                )


# --- the camera --------------------------------------------------------------------------------


def _camera(photo: np.ndarray, rng: np.random.Generator, screen_hom, screen_size) -> np.ndarray:
    """Light and lens: glare, colour cast, black level, vignette, blur, noise, JPEG."""
    h, w = photo.shape[:2]
    img = photo.astype(np.float32)
    # uneven light: a smooth gradient
    img *= (1 + 0.15 * _smooth_noise(rng, (w, h), (2, 2)))[..., None]
    if screen_hom is not None and rng.random() < 0.8:  # a glare spot on the screen
        sw, sh = screen_size
        at = apply(screen_hom, np.array([[rng.uniform(0, sw), rng.uniform(0, sh)]]))[0]
        radius = float(rng.uniform(0.03, 0.12)) * max(w, h)
        small = 8
        ys, xs = np.mgrid[0 : h // small + 1, 0 : w // small + 1].astype(np.float32) * small
        d2 = ((xs - at[0]) ** 2 + ((ys - at[1]) * rng.uniform(1, 2)) ** 2) / radius**2
        spot = cv2.resize(np.exp(-d2), (w, h))
        img += spot[..., None] * float(rng.uniform(50, 150))
    img *= rng.uniform(0.88, 1.12, 3).astype(np.float32)[None, None, :]  # colour cast
    black = float(rng.uniform(5, 45))
    img = black + img * (1 - black / 255)
    ys, xs = np.ogrid[0:h, 0:w]
    r2 = ((xs - w / 2) / (w / 2)) ** 2 + ((ys - h / 2) / (h / 2)) ** 2
    img *= (1 - float(rng.uniform(0.1, 0.4)) * r2 / 2).astype(np.float32)[..., None]
    sigma = float(rng.uniform(0.4, 1.5)) * max(w, h) / 2000
    img = cv2.GaussianBlur(img, (0, 0), sigma)
    img += rng.standard_normal(img.shape, dtype=np.float32) * np.float32(rng.uniform(2, 8))
    img8 = np.clip(np.rint(img), 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 91))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else img8
