"""Made-up 3-D chair boards for ``wild_scene``: objects built from boxes, seen by a camera.

Two families (``CHAIR_FAMILIES``), the moon-legend puzzle in models and maps nobody tuned for:

* ``chairs-3d``: chairs seen from above under a tilted camera (10..40 degrees from vertical,
  any small yaw): each a seat (a box with height, on legs or solid), a backrest bar raised
  along one side, sometimes armrests and a cushion, in shapes, colours and proportions made up
  per look; on stone tiles (one a cell, grout between) inside a brick, slab or plain border.
* ``benches-grass``: benches of a made-up model (planks on legs or end slabs, a backrest of
  planks, sometimes armrests) seen by a strategy game's perspective camera (30..50 degrees from
  vertical), standing on grass with no tiles or grid lines, a resource bar above and a console
  with a minimap below.

Both are real 3-D: every part is a box projected through a pinhole camera, so raised parts
show parallax (shifted towards the far side) and their side faces; faces are shaded from a
light direction made up per look, and objects cast soft shadows.  World frame as in
``chairs.py``: ground z = 0, one cell one unit, x east, y north; row r covers y in
[rows - r - 1, rows - r].  Direction d (0 up, 1 right, 2 down, 3 left) is the way the sitter
faces, the backrest behind them; 0 -> 1 is a quarter turn clockwise on screen.  The truth
corners are the floor-plane outer corners of the cell grid, projected.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .chairs import _CORNER_BITS, _FACES, _FACING, _NORMALS, _Camera, _make_camera, _paint_order
from .draw import _AA, _ONE, _SHIFT, Color
from .wild_board import _hsv

CHAIR_FAMILIES = ("chairs-3d", "benches-grass")

_CANVASES = [(1024, 768), (1280, 720), (1366, 768), (1440, 900), (1600, 900), (1920, 1080)]

Box = tuple[tuple[float, float, float], tuple[float, float, float], int]  # lo, hi, material


@dataclass(frozen=True)
class _Model:
    """One object in its own frame (sitter faces +y, backrest at -y, z up), and its paint."""

    parts: list[Box]
    materials: list[np.ndarray]  # BGR float per material index
    outline: float  # edge darkening, 0 for no outlines


# --- models -----------------------------------------------------------------------------------


def _colour(rng: np.random.Generator, kind: str) -> np.ndarray:
    if kind == "wood":
        c = _hsv(rng.uniform(15, 40), rng.uniform(0.45, 0.8), rng.uniform(0.35, 0.75))
    elif kind == "metal":
        c = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.15), rng.uniform(0.2, 0.6))
    else:  # painted
        c = _hsv(rng.uniform(0, 360), rng.uniform(0.35, 0.95), rng.uniform(0.45, 0.95))
    return np.array(c, np.float64)


def _chair_model(rng: np.random.Generator) -> _Model:
    """A chair seen from above: a seat box, a raised backrest bar, maybe legs and armrests."""
    seat_kind = str(rng.choice(["wood", "painted", "painted", "metal"]))
    mats = [_colour(rng, seat_kind)]
    back_mat = 0
    if rng.random() < 0.4:
        mats.append(_colour(rng, str(rng.choice(["wood", "painted", "metal"]))))
        back_mat = len(mats) - 1
    sx = float(rng.uniform(0.2, 0.31))  # half width (across x)
    sy = float(rng.uniform(0.17, 0.29))  # half depth (along y)
    top = float(rng.uniform(0.08, 0.26))  # seat top
    parts: list[Box] = []
    if rng.random() < 0.5:  # a seat board on legs
        thick = float(rng.uniform(0.03, 0.07))
        leg = float(rng.uniform(0.035, 0.07))
        mats.append(mats[0] * rng.uniform(0.55, 0.85))
        leg_mat = len(mats) - 1
        for ax in (-1, 1):
            for ay in (-1, 1):
                x, y = ax * (sx - leg / 2 - 0.01), ay * (sy - leg / 2 - 0.01)
                parts.append(
                    (
                        (x - leg / 2, y - leg / 2, 0.0),
                        (x + leg / 2, y + leg / 2, top - thick),
                        leg_mat,
                    )
                )
        parts.append(((-sx, -sy, top - thick), (sx, sy, top), 0))
    else:
        parts.append(((-sx, -sy, 0.0), (sx, sy, top), 0))
    bt = float(rng.uniform(0.05, 0.12))  # backrest thickness
    back_top = top + float(rng.uniform(0.22, 0.4))  # well above any armrest
    bw = sx * float(rng.uniform(0.75, 1.0))
    behind = rng.random() < 0.4  # standing behind the seat, from the ground up
    y1, y2 = (-sy - bt, -sy) if behind else (-sy, -sy + bt)
    z0 = 0.0 if behind else top
    arms = rng.random() < 0.35
    if rng.random() < 0.3:  # two posts and a top rail
        post = min(bt * 1.2, 0.08)
        rail = float(rng.uniform(0.05, 0.1))
        parts.append(((-bw, y1, z0), (-bw + post, y2, back_top - rail), back_mat))
        parts.append(((bw - post, y1, z0), (bw, y2, back_top - rail), back_mat))
        parts.append(((-bw, y1, back_top - rail), (bw, y2, back_top), back_mat))
    else:
        parts.append(((-bw, y1, z0), (bw, y2, back_top), back_mat))
    if arms:
        at = float(rng.uniform(0.035, 0.06))
        arm_top = top + float(rng.uniform(0.05, 0.1))
        front = sy * float(rng.uniform(0.5, 1.0))
        start = y2 if not behind else -sy
        for ax in (-1, 1):
            x_in, x_out = sorted((ax * sx, ax * (sx - at)))
            parts.append(((x_in, start, top), (x_out, front, arm_top), back_mat))
    elif rng.random() < 0.4:  # a cushion on the seat
        mats.append(_colour(rng, "painted"))
        inset = float(rng.uniform(0.02, 0.05))
        y_lo = (-sy if behind else y2) + inset
        parts.append(
            (
                (-sx + inset, y_lo, top),
                (sx - inset, sy - inset, top + rng.uniform(0.02, 0.05)),
                len(mats) - 1,
            )
        )
    return _Model(parts, mats, float(rng.choice([0.0, 0.0, 0.45, 0.7])))


def _bench_model(rng: np.random.Generator) -> _Model:
    """A bench seen from the side: planks on legs, a backrest of planks, maybe armrests."""
    wood = _colour(rng, str(rng.choice(["wood", "wood", "painted"])))
    frame = _colour(rng, "metal") if rng.random() < 0.5 else wood * rng.uniform(0.6, 0.85)
    mats = [wood, frame]
    hl = float(rng.uniform(0.27, 0.39))  # half length (x)
    hd = float(rng.uniform(0.08, 0.14))  # half depth of the seat (y)
    top = float(rng.uniform(0.12, 0.22))
    thick = float(rng.uniform(0.025, 0.05))
    parts: list[Box] = []
    planks = int(rng.integers(1, 4))
    gap = 0.012 if planks > 1 else 0.0
    width = (2 * hd - (planks - 1) * gap) / planks
    for i in range(planks):
        y = -hd + i * (width + gap)
        parts.append(((-hl, y, top - thick), (hl, y + width, top), 0))
    legs = str(rng.choice(["posts", "slabs"]))
    inset = float(rng.uniform(0.02, 0.08))
    if legs == "posts":
        leg = float(rng.uniform(0.03, 0.05))
        for ax in (-1, 1):
            for ay in (-1, 1):
                x = ax * (hl - inset - leg / 2)
                y = ay * (hd - leg / 2 - 0.005)
                parts.append(
                    ((x - leg / 2, y - leg / 2, 0.0), (x + leg / 2, y + leg / 2, top - thick), 1)
                )
    else:
        slab = float(rng.uniform(0.025, 0.05))
        for ax in (-1, 1):
            x = ax * (hl - inset - slab / 2)
            parts.append(((x - slab / 2, -hd, 0.0), (x + slab / 2, hd, top - thick), 1))
    bt = float(rng.uniform(0.025, 0.045))
    back_top = top + float(rng.uniform(0.16, 0.3))
    rails = int(rng.integers(1, 4))
    low = top + float(rng.uniform(0.02, 0.06))
    span = back_top - low
    rail_gap = 0.015 if rails > 1 else 0.0
    rail_h = (span - (rails - 1) * rail_gap) / rails
    post = float(rng.uniform(0.03, 0.045))
    posts = rng.random() < 0.6
    rail_x = hl - post - inset if posts else hl
    for i in range(rails):
        z = low + i * (rail_h + rail_gap)
        parts.append(((-rail_x, -hd - bt, z), (rail_x, -hd, z + rail_h), 0))
    if posts:  # from the ground to the top of the backrest, at its ends
        for ax in (-1, 1):
            x_in, x_out = sorted((ax * rail_x, ax * (rail_x + post)))
            parts.append(((x_in, -hd - bt, 0.0), (x_out, -hd, back_top + 0.01), 1))
    if rng.random() < 0.4:  # armrests on posts at both ends
        at = float(rng.uniform(0.025, 0.04))
        arm_top = top + float(rng.uniform(0.08, 0.14))
        for ax in (-1, 1):
            x_in, x_out = sorted((ax * (hl + 0.002), ax * (hl + 0.002 + at)))
            parts.append(((x_in, -hd, 0.0), (x_out, hd, arm_top), 1))
    return _Model(parts, mats, float(rng.choice([0.0, 0.5, 0.6])))


# --- the camera -------------------------------------------------------------------------------


def _camera(
    rows: int,
    cols: int,
    tilt: float,
    yaw: float,
    reach: float,
    height: float,
    room: tuple[int, int, int, int],
    fill: float,
    rng: np.random.Generator,
) -> _Camera:
    """A camera ``tilt`` radians from vertical that shows the board plus ``reach`` units around
    it (and ``height`` above it) inside ``room`` (x1, y1, x2, y2), filling ``fill`` of it."""
    pitch = math.pi / 2 - tilt
    dist = max(rows, cols) * float(rng.uniform(1.3, 2.6))
    ext = np.array(
        [
            [x, y, z]
            for x in (-reach, cols + reach)
            for y in (-reach, rows + reach)
            for z in (0.0, height)
        ]
    )
    x1, y1, x2, y2 = room
    for _ in range(12):
        unit = _make_camera(rows, cols, dist, pitch, yaw, 1.0)
        pts = unit.project(ext)
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        focal = fill * min((x2 - x1) / (hi[0] - lo[0]), (y2 - y1) / (hi[1] - lo[1]))
        free = np.array([x2 - x1, y2 - y1]) - focal * (hi - lo)
        where = rng.uniform(0.2, 0.8, 2) * free
        u0 = x1 + where[0] - focal * lo[0]
        v0 = y1 + where[1] - focal * lo[1]
        # the top row of pixels must look at least 12 degrees below the horizon
        if pitch - math.atan(max(v0, 0.0) / focal) >= math.radians(12.0):
            break
        dist *= 1.4
    return _make_camera(rows, cols, dist, pitch, yaw, focal, u0, v0)


def _ground_coords(cam: _Camera, width: int, height: int):
    """Ground (x, y) under every pixel and pixels per ground unit there (float32 grids)."""
    hinv = np.linalg.inv(cam.ground_homography()).astype(np.float32)
    us = np.arange(width, dtype=np.float32)[None, :]
    vs = np.arange(height, dtype=np.float32)[:, None]
    w = hinv[2, 0] * us + hinv[2, 1] * vs + hinv[2, 2]
    w = np.where(w > 1e-6, w, np.float32(1e-6))
    gx = (hinv[0, 0] * us + hinv[0, 1] * vs + hinv[0, 2]) / w
    gy = (hinv[1, 0] * us + hinv[1, 1] * vs + hinv[1, 2]) / w
    return gx, gy, np.float32(cam.focal) * w


def _noise(gx, gy, ppu, scale: float, rng: np.random.Generator) -> np.ndarray:
    """Value noise with features ``scale`` units wide, faded where they would alias."""
    grid = rng.standard_normal((64, 64)).astype(np.float32)
    off = rng.uniform(0, 64, 2).astype(np.float32)
    noise = cv2.remap(
        grid,
        gx / np.float32(scale) + off[0],
        gy / np.float32(scale) + off[1],
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_WRAP,
    )
    return noise * np.clip((ppu * np.float32(scale) - 3.0) / 3.0, 0, 1)


def _soft(edge: np.ndarray, ppu: np.ndarray) -> np.ndarray:
    """0..1 coverage of the side ``edge > 0``, anti-aliased over one pixel."""
    return np.clip(edge * ppu + 0.5, 0, 1)


# --- floors ------------------------------------------------------------------------------------


def _paint(base: Color | np.ndarray, shade: np.ndarray) -> np.ndarray:
    return np.asarray(base, np.float32)[None, None, :] * shade[..., None]


def _stone_floor(gx, gy, ppu, rows, cols, rng) -> tuple[np.ndarray, float]:
    """Stone tiles, one a cell, inside a border; and the ground beyond.  Returns the image
    (float32) and the border's width in cells."""
    h, w = gx.shape
    # the ground beyond the border
    ground_kind = str(rng.choice(["grass", "dirt", "dark", "water", "sand"]))
    base = {
        "grass": _hsv(rng.uniform(75, 140), rng.uniform(0.4, 0.7), rng.uniform(0.3, 0.55)),
        "dirt": _hsv(rng.uniform(20, 40), rng.uniform(0.3, 0.6), rng.uniform(0.25, 0.5)),
        "dark": _hsv(rng.uniform(0, 360), rng.uniform(0, 0.3), rng.uniform(0.05, 0.18)),
        "water": _hsv(rng.uniform(180, 220), rng.uniform(0.5, 0.8), rng.uniform(0.35, 0.6)),
        "sand": _hsv(rng.uniform(35, 50), rng.uniform(0.25, 0.45), rng.uniform(0.6, 0.8)),
    }[ground_kind]
    shade = 1 + 0.1 * _noise(gx, gy, ppu, 0.9, rng) + 0.08 * _noise(gx, gy, ppu, 0.2, rng)
    img = _paint(base, shade)

    # the tiles
    stone = np.array(
        _hsv(rng.uniform(0, 360), rng.uniform(0.0, 0.22), rng.uniform(0.4, 0.8)), np.float32
    )
    tile_var = rng.uniform(0.03, 0.1)
    per_tile = (1 + tile_var * rng.standard_normal((rows + 2, cols + 2))).astype(np.float32)
    tint = rng.uniform(-1, 1, (rows + 2, cols + 2, 3)).astype(np.float32) * rng.uniform(0, 8)
    ix = np.clip(np.floor(gx).astype(np.int32) + 1, 0, cols + 1)
    iy = np.clip(np.floor(gy).astype(np.int32) + 1, 0, rows + 1)
    grain = (
        1
        + 0.09 * _noise(gx, gy, ppu, 0.3, rng)
        + 0.06 * _noise(gx, gy, ppu, 0.08, rng)
        + 0.04 * _noise(gx, gy, ppu, 0.03, rng)
    )
    tiles = stone[None, None, :] * (per_tile[iy, ix] * grain)[..., None] + tint[iy, ix]
    fx, fy = gx - np.floor(gx), gy - np.floor(gy)
    edge = np.minimum(np.minimum(fx, 1 - fx), np.minimum(fy, 1 - fy))  # to the tile's edge
    grout_w = float(rng.uniform(0.012, 0.045))
    bevel = float(rng.uniform(0.0, 0.08))
    if bevel > 0:
        tiles *= (1 - 0.18 * np.clip(1 - (edge - grout_w) / bevel, 0, 1))[..., None]
    grout = np.array(stone * rng.uniform(0.35, 0.7), np.float32)
    if rng.random() < 0.25:
        grout = np.minimum(stone * rng.uniform(1.15, 1.4), 255).astype(np.float32)
    is_tile = _soft(edge - grout_w, ppu)[..., None]
    tiles = grout[None, None, :] + (tiles - grout[None, None, :]) * is_tile

    # the border: bricks, big slabs or a plain curb
    band = float(rng.uniform(0.3, 0.9))
    kind = str(rng.choice(["brick", "brick", "slab", "plain"]))
    out_x = np.maximum(-gx, gx - cols)
    out_y = np.maximum(-gy, gy - rows)
    outside = np.maximum(out_x, out_y)  # > 0 off the grid
    if kind == "plain":
        curb = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.35), rng.uniform(0.2, 0.7))
        border = _paint(curb, 1 + 0.06 * _noise(gx, gy, ppu, 0.15, rng))
    else:
        if kind == "brick":
            colour = _hsv(rng.uniform(0, 28), rng.uniform(0.4, 0.75), rng.uniform(0.3, 0.62))
            if rng.random() < 0.3:
                colour = _hsv(rng.uniform(0, 360), rng.uniform(0.1, 0.5), rng.uniform(0.3, 0.7))
            length = float(rng.uniform(0.22, 0.45))
            course = length * float(rng.uniform(0.35, 0.55))
        else:
            colour = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.2), rng.uniform(0.25, 0.55))
            length, course = float(rng.uniform(0.6, 1.2)), band / int(rng.integers(1, 3))
        # along the band: x on the top and bottom sides, y on the left and right ones
        across_x = out_x > out_y
        along = np.where(across_x, gy, gx)
        depth = np.where(across_x, out_x, out_y)
        k = np.floor(depth / course)
        along = along + (k % 2) * (length / 2)
        i = np.floor(along / length)
        seed_grid = rng.uniform(0.82, 1.15, 4096).astype(np.float32)
        which = ((i * 31 + k * 17 + across_x * 7).astype(np.int64)) % 4096
        fa = along / length - i
        fk = depth / course - k
        mortar_w = float(rng.uniform(0.03, 0.08))
        mortar_edge = np.minimum(np.minimum(fa, 1 - fa) * length, np.minimum(fk, 1 - fk) * course)
        brick = _paint(colour, seed_grid[which] * (1 + 0.07 * _noise(gx, gy, ppu, 0.06, rng)))
        mortar = np.array(
            _hsv(rng.uniform(0, 60), rng.uniform(0, 0.2), rng.uniform(0.25, 0.75)), np.float32
        )
        cover = _soft(mortar_edge - mortar_w / 2, ppu)[..., None]
        border = mortar[None, None, :] + (brick - mortar[None, None, :]) * cover
    in_border = (_soft(outside, ppu) * _soft(band - outside, ppu))[..., None]
    on_grid = _soft(-outside, ppu)[..., None]
    img = img * (1 - in_border - on_grid) + border * in_border + tiles * on_grid
    return img, band


def _grass_floor(gx, gy, ppu, rng) -> np.ndarray:
    """Grass with blotches and a few dirt patches: no tiles, no grid lines."""
    green = np.array(
        _hsv(rng.uniform(70, 135), rng.uniform(0.4, 0.75), rng.uniform(0.3, 0.55)), np.float32
    )
    other = np.array(
        _hsv(rng.uniform(45, 100), rng.uniform(0.35, 0.7), rng.uniform(0.3, 0.6)), np.float32
    )
    t = np.clip(0.5 + 0.4 * _noise(gx, gy, ppu, 2.5, rng), 0, 1)[..., None]
    base = green[None, None] + (other - green)[None, None] * t
    shade = (
        1
        + 0.08 * _noise(gx, gy, ppu, 0.8, rng)
        + 0.07 * _noise(gx, gy, ppu, 0.25, rng)
        + 0.08 * _noise(gx, gy, ppu, 0.05, rng)
    )
    img = base * shade[..., None]
    dirt = np.array(
        _hsv(rng.uniform(20, 40), rng.uniform(0.3, 0.55), rng.uniform(0.3, 0.5)), np.float32
    )
    patch = np.clip((_noise(gx, gy, ppu, 1.6, rng) - 1.3) * 3, 0, 1)[..., None]
    return img + (dirt[None, None] - img) * patch * float(rng.uniform(0.3, 0.9))


# --- objects -----------------------------------------------------------------------------------


def _draw_objects(
    img: np.ndarray,
    cells: np.ndarray,
    model: _Model,
    cam: _Camera,
    light: np.ndarray,
    ambient: float,
    shadow: float,
    jitter: float,
    rng: np.random.Generator,
) -> None:
    rows, cols = cells.shape
    eye = cam.centre
    lo0 = np.array([p[0] for p in model.parts])
    hi0 = np.array([p[1] for p in model.parts])
    mat = np.array([p[2] for p in model.parts])
    colours = np.array(model.materials)[mat]  # (parts, 3)

    def cell_gap(lo: float, hi: float, at: float) -> float:
        return max(lo - at, at - hi, 0.0)

    order = sorted(
        ((r, c) for r in range(rows) for c in range(cols)),
        key=lambda rc: (
            -cell_gap(rows - rc[0] - 1, rows - rc[0], eye[1]),
            -cell_gap(rc[1], rc[1] + 1, eye[0]),
        ),
    )
    boxes = []
    for r, c in order:
        m = _FACING[int(cells[r, c])]
        a, b = lo0[:, :2] @ m.T, hi0[:, :2] @ m.T
        dx, dy = rng.uniform(-jitter, jitter, 2)
        centre = np.array([c + 0.5 + dx, rows - r - 0.5 + dy])
        lo = np.c_[np.minimum(a, b) + centre, lo0[:, 2]]
        hi = np.c_[np.maximum(a, b) + centre, hi0[:, 2]]
        boxes.append((lo, hi))

    # soft shadows cast along the light onto the ground
    height, width = img.shape[:2]
    mask = np.zeros((height, width), np.uint8)
    for lo, hi in boxes:
        verts = np.where(_CORNER_BITS[None], hi[:, None, :], lo[:, None, :]).reshape(-1, 3)
        ground = verts - (verts[:, 2:3] / light[2]) * light
        pts = np.round(cam.project(ground) * _ONE).astype(np.int32)
        for part in pts.reshape(len(lo), 8, 2):
            cv2.fillConvexPoly(mask, cv2.convexHull(part), 255, _AA, _SHIFT)
    scale = cam.focal / max(np.linalg.norm(eye - [cols / 2, rows / 2, 0]), 1e-6)
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.8, 0.03 * scale))
    dark = img * (1.0 - shadow * mask.astype(np.float32) / 255.0)[..., None]
    img[:] = np.clip(dark + 0.5, 0, 255).astype(np.uint8)

    lambert = ambient + (1 - ambient) * np.clip(_NORMALS @ light, 0, None)  # (6,)
    tone = rng.uniform(0.95, 1.05, (len(boxes), len(mat)))
    for (lo, hi), t in zip(boxes, tone, strict=True):
        verts = np.where(_CORNER_BITS[None], hi[:, None, :], lo[:, None, :])  # (parts, 8, 3)
        pix = np.round(cam.project(verts) * _ONE).astype(np.int32)
        visible = np.einsum("fk,pfk->pf", _NORMALS, eye - verts[:, _FACES[:, 0], :]) > 0
        for p in _paint_order(lo, hi, eye):
            for f in range(6):
                if not visible[p, f]:
                    continue
                colour = np.clip(colours[p] * lambert[f] * t[p], 0, 255)
                poly = np.ascontiguousarray(pix[p, _FACES[f]])
                cv2.fillConvexPoly(img, poly, colour.tolist(), _AA, _SHIFT)
                if model.outline:
                    edge = (colour * (1 - model.outline)).tolist()
                    cv2.polylines(img, [poly[:, None, :]], True, edge, 1, _AA, _SHIFT)


# --- the HUD of a strategy game ----------------------------------------------------------------


def _strategy_hud(img: np.ndarray, rng: np.random.Generator) -> tuple[int, int, int, int]:
    """A resource bar on top and a console with a minimap below; returns the free view."""
    height, width = img.shape[:2]
    panel = np.array(_hsv(rng.uniform(0, 360), rng.uniform(0.1, 0.5), rng.uniform(0.1, 0.3)))
    trim = np.array(_hsv(rng.uniform(30, 55), rng.uniform(0.4, 0.8), rng.uniform(0.5, 0.85)))
    font = cv2.FONT_HERSHEY_SIMPLEX
    top = int(rng.integers(22, 38))
    img[:top] = panel
    img[top - 2 : top] = trim
    x = int(width * rng.uniform(0.45, 0.6))
    for _ in range(int(rng.integers(3, 5))):
        icon = _hsv(rng.uniform(0, 360), 0.8, 0.9)
        cv2.rectangle(img, (x, top // 4), (x + top // 2, top - top // 4), icon, -1)
        text = str(int(rng.integers(0, 5000)))
        cv2.putText(
            img, text, (x + top // 2 + 6, int(top * 0.72)), font, 0.5, (230, 230, 230), 1, _AA
        )
        x += int(rng.integers(90, 140))
    for i, word in enumerate(["Menu", "Allies", "Log"]):
        cv2.putText(img, word, (12 + 70 * i, int(top * 0.72)), font, 0.45, trim.tolist(), 1, _AA)
    console = int(height * rng.uniform(0.18, 0.27))
    y0 = height - console
    img[y0:] = panel
    img[y0 : y0 + 3] = trim
    side = console - 16
    mx = 8
    cv2.rectangle(img, (mx, y0 + 10), (mx + side, y0 + 10 + side), (20, 20, 20), -1)
    inner = img[y0 + 12 : y0 + 8 + side, mx + 2 : mx + side - 2]
    inner[:] = _hsv(rng.uniform(80, 130), 0.5, 0.35)
    for _ in range(int(rng.integers(5, 20))):
        p = (int(rng.integers(0, inner.shape[1])), int(rng.integers(0, inner.shape[0])))
        cv2.circle(inner, p, 2, _hsv(rng.choice([0, 60, 120, 240]), 0.9, 0.95), -1)
    vx, vy = int(rng.integers(0, inner.shape[1] // 2)), int(rng.integers(0, inner.shape[0] // 2))
    cv2.rectangle(
        inner, (vx, vy), (vx + inner.shape[1] // 3, vy + inner.shape[0] // 4), (240, 240, 240), 1
    )
    px = mx + side + 30
    cv2.rectangle(img, (px, y0 + 14), (px + side * 3 // 4, y0 + console - 14), trim.tolist(), 2)
    cv2.putText(img, "Peasant", (px + side, y0 + 40), font, 0.6, (230, 230, 230), 1, _AA)
    cv2.putText(img, "HP 220/220", (px + side, y0 + 70), font, 0.45, (120, 230, 120), 1, _AA)
    bs = max(18, (console - 24) // 3)
    gx0 = width - 4 * (bs + 4) - 10
    for r in range(3):
        for c in range(4):
            colour = _hsv(rng.uniform(0, 360), rng.uniform(0.2, 0.7), rng.uniform(0.3, 0.7))
            x1, y1 = gx0 + c * (bs + 4), y0 + 10 + r * (bs + 4)
            cv2.rectangle(img, (x1, y1), (x1 + bs, y1 + bs), colour, -1)
            cv2.rectangle(img, (x1, y1), (x1 + bs, y1 + bs), trim.tolist(), 1)
    return 0, top, width, y0


# --- the scene ---------------------------------------------------------------------------------


def render_3d(
    family: str, cells: np.ndarray, stream, jitter: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``cells`` as a 3-D board of ``family``; returns (BGR image, the grid's corners).

    ``stream(k)`` gives the k-th random stream of the scene (0 size, 1 layout, 2 look, 3 paint,
    4 HUD): the look comes from its own streams, so other cells change only the objects.
    """
    rows, cols = cells.shape
    layout_rng, look_rng, paint_rng, hud_rng = stream(1), stream(2), stream(3), stream(4)
    width, height = _CANVASES[int(layout_rng.integers(len(_CANVASES)))]
    img = np.zeros((height, width, 3), np.uint8)
    if family == "benches-grass":
        model = _bench_model(look_rng)
        room = _strategy_hud(img, hud_rng)
        tilt = math.radians(layout_rng.uniform(30, 50))
        yaw = math.radians(layout_rng.uniform(-10, 10))
        reach, tall = 0.3, 0.6
    else:
        model = _chair_model(look_rng)
        room = (0, 0, width, height)
        tilt = math.radians(layout_rng.uniform(10, 40))
        yaw = math.radians(layout_rng.uniform(-15, 15))
        reach, tall = 1.0, 0.7
    x1, y1, x2, y2 = room
    margin = 12
    room = (x1 + margin, y1 + margin, x2 - margin, y2 - margin)
    fill = float(layout_rng.uniform(0.55, 0.95))
    cam = _camera(rows, cols, tilt, yaw, reach, tall, room, fill, layout_rng)
    gx, gy, ppu = _ground_coords(cam, width, height)
    if family == "benches-grass":
        floor = _grass_floor(gx, gy, ppu, look_rng)
    else:
        floor, _ = _stone_floor(gx, gy, ppu, rows, cols, look_rng)
    azimuth = look_rng.uniform(0, 2 * math.pi)
    elevation = look_rng.uniform(math.radians(35), math.radians(70))
    light = np.array(
        [
            math.cos(elevation) * math.cos(azimuth),
            math.cos(elevation) * math.sin(azimuth),
            math.sin(elevation),
        ]
    )
    ambient = float(look_rng.uniform(0.3, 0.55))
    shadow = float(look_rng.uniform(0.2, 0.5))
    view = np.clip(floor + 0.5, 0, 255).astype(np.uint8)
    _draw_objects(
        view, cells, model, cam, light, ambient, shadow, 0.03 if jitter else 0.0, paint_rng
    )
    img[y1:y2, x1:x2] = view[y1:y2, x1:x2]
    corners = cam.project(
        np.array([[0.0, rows, 0.0], [cols, rows, 0.0], [cols, 0.0, 0.0], [0.0, 0.0, 0.0]])
    )
    return img, corners.astype(np.float64)
