"""The "chairs" look: wooden benches on grass seen by a tilted pinhole camera.

World frame: the ground is z = 0, one cell is one unit, x runs east (to the right of the
board) and y runs north (towards the top of the board); the grid covers [0, cols] x [0, rows]
and row r occupies y in [rows - r - 1, rows - r].  The camera stands south of the board,
above it, and looks north and down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .canvas import _DoesNotFit, _place
from .clutter import _draw_clutter
from .draw import _AA, _ONE, _SHIFT, _jitter
from .themes import _theme


@dataclass(frozen=True)
class _Camera:
    rot: np.ndarray  # 3x3, world -> camera (rows: image right, image down, viewing direction)
    centre: np.ndarray  # camera position in the world
    focal: float
    u0: float
    v0: float

    def project(self, pts: np.ndarray) -> np.ndarray:
        cam = (np.asarray(pts, dtype=np.float64) - self.centre) @ self.rot.T
        return np.stack(
            [
                self.focal * cam[..., 0] / cam[..., 2] + self.u0,
                self.focal * cam[..., 1] / cam[..., 2] + self.v0,
            ],
            axis=-1,
        )

    def ground_homography(self) -> np.ndarray:
        """3x3 map from ground points (x, y, 1) to image points."""
        k = np.array([[self.focal, 0, self.u0], [0, self.focal, self.v0], [0, 0, 1.0]])
        t = -self.rot @ self.centre
        return k @ np.c_[self.rot[:, 0], self.rot[:, 1], t]


def _make_camera(
    rows: int,
    cols: int,
    dist: float,
    pitch: float,
    yaw: float,
    focal: float,
    u0: float = 0.0,
    v0: float = 0.0,
) -> _Camera:
    fwd = np.array(
        [math.sin(yaw) * math.cos(pitch), math.cos(yaw) * math.cos(pitch), -math.sin(pitch)]
    )
    right = np.array([math.cos(yaw), -math.sin(yaw), 0.0])
    down = np.cross(fwd, right)
    target = np.array([cols / 2, rows / 2, 0.15])
    return _Camera(np.stack([right, down, fwd]), target - dist * fwd, focal, u0, v0)


# The bench model in its own frame: long axis along x, the sitter faces +y, z up; units are
# cells.  Each part is an axis-aligned box (lo, hi, kind).  kind: 0 seat plank, 1 leg,
# 2 backrest plank, 3 batten on the back of the backrest.
def _bench_parts() -> list[tuple[tuple[float, float, float], tuple[float, float, float], int]]:
    half_len, half_depth = 0.30, 0.10
    seat_lo, seat_hi = 0.15, 0.19
    back_t, back_top = 0.035, 0.46
    parts: list[tuple[tuple[float, float, float], tuple[float, float, float], int]] = []
    n_seat, gap = 3, 0.012
    width = (2 * half_depth - (n_seat - 1) * gap) / n_seat
    for i in range(n_seat):
        y = -half_depth + i * (width + gap)
        parts.append(((-half_len, y, seat_lo), (half_len, y + width, seat_hi), 0))
    leg = 0.035
    for sx in (-1, 1):
        for sy in (-1, 1):
            x = sx * (half_len - 0.045)
            y = sy * (half_depth - 0.03)
            parts.append(((x - leg / 2, y - leg / 2, 0.0), (x + leg / 2, y + leg / 2, seat_lo), 1))
    y_back = -half_depth - back_t
    for z1, z2 in ((seat_lo, 0.25), (0.262, 0.355), (0.367, back_top)):
        parts.append(((-half_len, y_back, z1), (half_len, -half_depth, z2), 2))
    for sx in (-1, 1):
        x = sx * 0.2
        parts.append(
            ((x - 0.022, y_back - 0.022, seat_lo - 0.02), (x + 0.022, y_back, back_top - 0.01), 3)
        )
    return parts


_BENCH = _bench_parts()
_BENCH_LO = np.array([p[0] for p in _BENCH])
_BENCH_HI = np.array([p[1] for p in _BENCH])
_BENCH_KIND = np.array([p[2] for p in _BENCH])
_KIND_TONE = np.array([1.0, 0.78, 0.96, 0.85])

# local (x, y) -> world (x, y) for the four facings: 0 up (north), 1 right (east), 2 down,
# 3 left.  The sitter faces local +y, so the backrest (local -y) ends up behind them.
_FACING = [
    np.array([[1.0, 0.0], [0.0, 1.0]]),
    np.array([[0.0, 1.0], [-1.0, 0.0]]),
    np.array([[-1.0, 0.0], [0.0, -1.0]]),
    np.array([[0.0, -1.0], [1.0, 0.0]]),
]

# box faces: vertex indices (bit 0 = x, bit 1 = y, bit 2 = z) in cyclic order, and normals
_FACES = np.array(
    [[0, 2, 6, 4], [1, 5, 7, 3], [0, 4, 5, 1], [2, 3, 7, 6], [0, 1, 3, 2], [4, 5, 7, 6]]
)
_NORMALS = np.array(
    [[-1, 0, 0], [1, 0, 0], [0, -1, 0], [0, 1, 0], [0, 0, -1], [0, 0, 1]], dtype=np.float64
)
_CORNER_BITS = np.array([[i & 1, (i >> 1) & 1, (i >> 2) & 1] for i in range(8)], dtype=bool)
_SUN = np.array([-0.35, -0.4, 0.85]) / np.linalg.norm([-0.35, -0.4, 0.85])


def _world_boxes(direction: int, cx: float, cy: float) -> tuple[np.ndarray, np.ndarray]:
    """World-space (lo, hi) of every bench part for a bench centred on (cx, cy)."""
    m = _FACING[direction]
    a = _BENCH_LO[:, :2] @ m.T
    b = _BENCH_HI[:, :2] @ m.T
    lo = np.c_[np.minimum(a, b) + (cx, cy), _BENCH_LO[:, 2]]
    hi = np.c_[np.maximum(a, b) + (cx, cy), _BENCH_HI[:, 2]]
    return lo, hi


def _paint_order(lo: np.ndarray, hi: np.ndarray, eye: np.ndarray) -> list[int]:
    """Back-to-front order of disjoint boxes, from separating planes.

    If a plane separates boxes A and B and the eye is on B's side, A cannot hide B.  When two
    separating planes disagree, neither box can hide the other and no constraint is needed;
    otherwise the box that cannot hide the other is painted first.  A topological sort of
    these constraints gives the painter's order.
    """
    n = len(lo)
    after: list[list[int]] = [[] for _ in range(n)]
    indeg = [0] * n
    for i in range(n):
        for j in range(i + 1, n):
            votes = set()
            for k in range(3):
                if hi[i, k] <= lo[j, k] + 1e-9:  # i below j along axis k
                    votes.add((i, j) if eye[k] > hi[i, k] else (j, i))
                elif hi[j, k] <= lo[i, k] + 1e-9:
                    votes.add((j, i) if eye[k] > hi[j, k] else (i, j))
            if len(votes) == 1:
                first, second = votes.pop()
                after[first].append(second)
                indeg[second] += 1
    dist = np.linalg.norm((lo + hi) / 2 - eye, axis=1)
    ready = sorted((i for i in range(n) if indeg[i] == 0), key=lambda i: -dist[i])
    order: list[int] = []
    while ready:
        i = ready.pop(0)
        order.append(i)
        for j in after[i]:
            indeg[j] -= 1
            if indeg[j] == 0:
                ready.append(j)
        ready.sort(key=lambda i: -dist[i])
    if len(order) < n:  # a cycle cannot happen for this model, but stay total anyway
        order += sorted(set(range(n)) - set(order), key=lambda i: -dist[i])
    return order


def _smoothstep(e0: float, e1: float, x: np.ndarray) -> np.ndarray:
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def _ground_coords(
    hinv: np.ndarray, us: np.ndarray, vs: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ground (x, y) under image points, and 1 / depth there (float32 grids)."""
    h = hinv.astype(np.float32)
    inv_depth = h[2, 0] * us + h[2, 1] * vs + h[2, 2]
    gx = (h[0, 0] * us + h[0, 1] * vs + h[0, 2]) / inv_depth
    gy = (h[1, 0] * us + h[1, 1] * vs + h[1, 2]) / inv_depth
    return gx, gy, inv_depth


def _grass(
    cam: _Camera, size: tuple[int, int], rows: int, cols: int, rng: np.random.Generator
) -> np.ndarray:
    """Perspective grass: value noise looked up at each pixel's point on the ground.

    Smooth layers (colour, blotches, stones) are evaluated on a grid three times coarser than
    the image and scaled up; fine grass grain, the grid seams and the paving are done at full
    resolution.
    """
    width, height = size
    # the exact inverse (no rescaling) maps (u, v, 1) to (x, y, 1) / depth
    hinv = np.linalg.inv(cam.ground_homography())

    def octave(
        gx: np.ndarray,
        gy: np.ndarray,
        samples_per_unit: np.ndarray,
        scale: float,
        cubic: bool = True,
    ) -> np.ndarray:
        """Value noise with features ``scale`` ground units wide, faded out where they would
        be narrower than a few samples (which would alias into streaks in the distance)."""
        grid = rng.standard_normal((64, 64)).astype(np.float32)
        off = rng.uniform(0, 64, 2).astype(np.float32)
        interp = cv2.INTER_CUBIC if cubic else cv2.INTER_LINEAR
        noise = cv2.remap(
            grid,
            gx / np.float32(scale) + off[0],
            gy / np.float32(scale) + off[1],
            interp,
            borderMode=cv2.BORDER_WRAP,
        )
        fade = np.clip((samples_per_unit * np.float32(scale) - 2.5) / 2.5, 0, 1)
        return noise * fade

    # --- coarse layers
    step = 3
    wl, hl = -(-width // step), -(-height // step)
    us = (np.arange(wl, dtype=np.float32) * step + 1)[None, :]
    vs = (np.arange(hl, dtype=np.float32) * step + 1)[:, None]
    gx, gy, inv_depth = _ground_coords(hinv, us, vs)
    spu = np.float32(cam.focal / step) * inv_depth  # coarse samples per ground unit
    blotch = octave(gx, gy, spu, 2.2)
    low = octave(gx, gy, spu, 0.9)
    mid = octave(gx, gy, spu, 0.3)
    tint = octave(gx, gy, spu, 3.0)
    bright = (1.0 + 0.07 * low + 0.07 * mid) * (1.0 - 0.22 * _smoothstep(0.55, 1.3, blotch))
    green = np.array([38, 118, 62], np.float32)
    yellowish = np.array([48, 132, 98], np.float32)
    t = _smoothstep(-1.2, 1.2, tint)[..., None]
    coarse = (green + (yellowish - green) * t) * bright[..., None]

    # a few grey stone patches around (never on) the board
    stone_grid = rng.standard_normal((32, 32)).astype(np.float32)
    for _ in range(int(rng.integers(2, 6))):
        rad = rng.uniform(0.25, 0.6)
        reach = rad * 1.4
        while True:
            sx = rng.uniform(-5, cols + 5)
            sy = rng.uniform(-4, rows + 5)
            clear = reach + 0.2
            if not (-clear < sx < cols + clear and -clear < sy < rows + clear):
                break
        ph = rng.uniform(0, 2 * math.pi, 2)
        square = np.array([[sx + a * reach, sy + b * reach, 0.0] for a in (-1, 1) for b in (-1, 1)])
        if np.any(((square - cam.centre) @ cam.rot[2]) <= 0.1):
            continue  # behind or too close to the camera
        box = cam.project(square) / step
        x1, y1 = np.maximum(np.floor(box.min(axis=0)).astype(int), 0)
        x2, y2 = np.minimum(np.ceil(box.max(axis=0)).astype(int) + 1, (wl, hl))
        if x1 >= x2 or y1 >= y2:
            continue
        dx, dy = gx[y1:y2, x1:x2] - sx, gy[y1:y2, x1:x2] - sy
        ang = np.arctan2(dy, dx)
        wobble = 1 + 0.22 * np.sin(3 * ang + ph[0]) + 0.12 * np.sin(5 * ang + ph[1])
        d = np.sqrt(dx * dx + dy * dy) / (rad * wobble)
        mask = (1 - _smoothstep(0.85, 1.0, d))[..., None]
        grain = cv2.remap(
            stone_grid,
            gx[y1:y2, x1:x2] / 0.08,
            gy[y1:y2, x1:x2] / 0.08,
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_WRAP,
        )
        stone = np.array([118, 124, 126], np.float32) * (1 + 0.1 * grain)[..., None]
        stone *= (1 - 0.3 * _smoothstep(0.55, 1.0, d))[..., None]  # darker rim
        roi = coarse[y1:y2, x1:x2]
        roi += (stone - roi) * mask
    img = cv2.resize(coarse, (width, height), interpolation=cv2.INTER_LINEAR)

    # --- full resolution: grass grain everywhere, finer noise only where it would not alias
    grain = rng.standard_normal((height, width), dtype=np.float32)
    shade = 1.0 + 0.035 * grain
    us = np.arange(width, dtype=np.float32)[None, :]
    vs = np.arange(height, dtype=np.float32)[:, None]
    sharp_rows = np.flatnonzero(spu.max(axis=1) * (step * 0.16) > 2.5)
    top = max(0, int(sharp_rows[0]) * step - step) if sharp_rows.size else height
    if top < height:
        gx, gy, inv_depth = _ground_coords(hinv, us, vs[top:])
        ppu = np.float32(cam.focal) * inv_depth  # pixels per ground unit
        detail = octave(gx, gy, ppu, 0.16, cubic=False)
        fine = octave(gx, gy, ppu, 0.06, cubic=False)
        shade[top:] += 0.07 * detail + 0.10 * fine
    img *= shade[..., None]

    # --- faint seams between cells and a paved border just outside the grid (board area only)
    band = 0.14
    corners = cam.project(
        np.array(
            [
                [x, y, 0.0]
                for x in (-band - 0.1, cols + band + 0.1)
                for y in (-band - 0.1, rows + band + 0.1)
            ]
        )
    )
    x1, y1 = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
    x2, y2 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 1, (width, height))
    if x1 < x2 and y1 < y2:
        bx, by, inv_depth = _ground_coords(hinv, us[:, x1:x2], vs[y1:y2])
        bp = np.float32(cam.focal) * inv_depth
        inside = (bx > 0) & (bx < cols) & (by > 0) & (by < rows)
        half_w = np.maximum(np.float32(0.012), 0.6 / bp)
        seam = np.maximum(
            1 - np.abs(bx - np.round(bx)) / half_w, 1 - np.abs(by - np.round(by)) / half_w
        )
        seam = np.clip(seam, 0, 1) * (0.012 / half_w) * inside
        depth_tone = np.float32(rng.uniform(0.10, 0.18))
        roi = img[y1:y2, x1:x2]
        roi *= (1 - depth_tone * seam)[..., None]
        edge = np.maximum(np.maximum(-bx, bx - cols), np.maximum(-by, by - rows))
        soft = 0.5 / bp
        pave = (_smoothstep(-soft, soft, edge) * (1 - _smoothstep(band - soft, band + soft, edge)))[
            ..., None
        ]
        paving = np.array([110, 122, 130], np.float32)
        pave_col = paving * (1 + 0.05 * grain[y1:y2, x1:x2])[..., None]
        roi += (pave_col - roi) * pave
    return cv2.convertScaleAbs(img)  # rounds and saturates to uint8


def _draw_benches(
    img: np.ndarray, cells: np.ndarray, cam: _Camera, cp: int, rng: np.random.Generator
) -> None:
    rows, cols = cells.shape
    eye = cam.centre
    wood = np.array(_jitter(rng, (34, 60, 98), 5), np.float64)
    nparts = len(_BENCH)
    tones = rng.uniform(0.86, 1.12, size=(rows, cols, nparts)) * _KIND_TONE[_BENCH_KIND]
    # draw far rows first; within a row, from the sides towards the camera
    order = sorted(
        ((r, c) for r in range(rows) for c in range(cols)),
        key=lambda rc: (rc[0], -abs(rc[1] + 0.5 - eye[0])),
    )
    rr = np.array([o[0] for o in order])
    cc = np.array([o[1] for o in order])
    dirs = cells[rr, cc]
    centres = np.c_[cc + 0.5, rows - rr - 0.5, np.zeros(len(order))]
    lo = np.empty((len(order), nparts, 3))
    hi = np.empty_like(lo)
    for d in range(4):
        sel = dirs == d
        dlo, dhi = _world_boxes(d, 0.0, 0.0)
        lo[sel] = dlo + centres[sel, None, :]
        hi[sel] = dhi + centres[sel, None, :]
    verts = np.where(_CORNER_BITS[None, None], hi[:, :, None, :], lo[:, :, None, :])
    pix = cam.project(verts)  # (benches, parts, 8, 2)

    # soft shadows: each bench's outline cast along the sun onto the ground
    ground = verts - (verts[..., 2:3] / _SUN[2]) * _SUN
    gpix = np.round(cam.project(ground).reshape(len(order), -1, 2) * _ONE).astype(np.int32)
    shadow = np.zeros(img.shape[:2], np.uint8)
    for pts in gpix:
        cv2.fillConvexPoly(shadow, cv2.convexHull(pts), 255, _AA, _SHIFT)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.8, cp * 0.03))
    dark = 1.0 - 0.5 * shadow.astype(np.float32)[..., None] / 255.0
    img[:] = np.clip(img * dark, 0, 255).astype(np.uint8)

    # faces: back-face culling, lambertian shading, painter's order within each bench
    first_vertex = verts[:, :, _FACES[:, 0], :]  # (benches, parts, 6, 3)
    visible = np.einsum("fk,bpfk->bpf", _NORMALS, eye - first_vertex) > 0
    lambert = 0.32 + 0.8 * np.clip(_NORMALS @ _SUN, 0, None)  # (6,)
    shade = tones[rr, cc][:, :, None, None] * lambert[None, None, :, None] * wood
    fill = np.clip(shade, 0, 255).astype(np.int32).tolist()
    edge = np.clip(shade * 0.55, 0, 255).astype(np.int32).tolist()
    polys = np.ascontiguousarray(np.round(pix[:, :, _FACES, :] * _ONE), dtype=np.int32)
    # polys: (benches, parts, 6 faces, 4 corners, 2)
    vis = visible.tolist()
    outline = cp >= 36
    # the painter's order within a bench only depends on its facing and on which side of each
    # of its vertical x-planes the eye is (the eye is always above and south of every bench)
    planes = [
        np.unique(np.r_[dlo[:, 0], dhi[:, 0]])
        for dlo, dhi in (_world_boxes(d, 0.0, 0.0) for d in range(4))
    ]
    order_cache: dict[tuple, list[int]] = {}
    for b in range(len(order)):
        d = int(dirs[b])
        rel_x = eye[0] - centres[b, 0]
        key = (d, tuple((rel_x > planes[d]).tolist()))
        if key not in order_cache:
            order_cache[key] = _paint_order(lo[b], hi[b], eye)
        for p in order_cache[key]:
            vis_p, fill_p, edge_p, poly_p = vis[b][p], fill[b][p], edge[b][p], polys[b, p]
            for f in range(6):
                if not vis_p[f]:
                    continue
                cv2.fillConvexPoly(img, poly_p[f], fill_p[f], _AA, _SHIFT)
                if outline:
                    cv2.polylines(img, [poly_p[f, :, None, :]], True, edge_p[f], 1, _AA, _SHIFT)


def _render_chairs(
    cells: np.ndarray,
    cp: int,
    canvas: tuple[int, int] | None,
    origin: tuple[int, int] | None,
    clutter: bool,
    tilt: float,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    rows, cols = cells.shape
    pitch = math.radians(55.0 + rng.uniform(-3.0, 3.0))
    yaw = math.radians(rng.uniform(-1.0, 1.0) * (2.0 + 40.0 * tilt))
    dist = max(1.6 * max(rows, cols), 4.5)
    fx, fy = rng.random(2)
    th = _theme("chairs", rng)
    clutter_rng = np.random.default_rng(rng.integers(2**63))
    # the extent to place: the paved grid plus the height of the benches
    b = 0.2
    ext3 = np.array([[x, y, z] for x in (-b, cols + b) for y in (-b, rows + b) for z in (0, 0.5)])
    for _ in range(8):
        cam = _make_camera(rows, cols, dist, pitch, yaw, cp * dist)
        pts = cam.project(ext3)
        umin, vmin = np.floor(pts.min(axis=0))
        umax, vmax = np.ceil(pts.max(axis=0))
        ext_w, ext_h = int(umax - umin) + 1, int(vmax - vmin) + 1
        if canvas is not None and origin is None:
            width, height = int(canvas[0]), int(canvas[1])
            room_x, room_y = width - ext_w - 2, height - ext_h - 2
            if room_x < 1 or room_y < 1:
                raise _DoesNotFit(
                    f"a chairs board of {ext_w}x{ext_h} px does not fit on a "
                    f"{width}x{height} canvas"
                )
            ex, ey = 1 + int(fx * room_x), 1 + int(fy * room_y)
        else:
            # here ``origin`` is the top-left of the bounding box of the paved board and benches
            width, height, ex, ey = _place(
                np.random.default_rng(int(fx * 2**31)), ext_w, ext_h, canvas, origin, (0, 0)
            )
        u0, v0 = ex - umin, ey - vmin
        # keep the horizon well above the canvas: the top row of pixels must look at least
        # 15 degrees below the horizontal
        need = v0 / math.tan(pitch - math.radians(15.0))
        if cam.focal >= need:
            break
        dist *= need / cam.focal * 1.05
    cam = _make_camera(rows, cols, dist, pitch, yaw, cp * dist, u0, v0)
    img = _grass(cam, (width, height), rows, cols, rng)
    _draw_benches(img, cells, cam, cp, rng)
    if clutter:
        keep = (ex, ey, ex + ext_w - 1, ey + ext_h - 1)
        _draw_clutter(img, keep, th, "arrows", clutter_rng)
    corners = cam.project(
        np.array([[0.0, rows, 0.0], [cols, rows, 0.0], [cols, 0.0, 0.0], [0.0, 0.0, 0.0]])
    )
    return img, corners
