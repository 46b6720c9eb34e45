"""A lights board set into a top-down game's floor, for ``wild_scene`` (``lights-in-scene``).

The board is a block of lamps let into a floor of stone tiles that covers the whole view and
runs off every edge of it: the floor is a lattice of look-alike cells too, far larger than the
board, and the board is only the block of tiles that carry lamps.  Made up per look:

* the floor: tile size, stone hue and shade, each tile a little lighter or darker, grout
  lines of some width and shade, speckle and cracks, a lighting gradient over the view;
* the lamps: one per board cell, a cell one floor tile or a block of two by two; a round or
  square lamp of some size, in a socket ring or none; lit any hue, bright, maybe glowing onto
  the floor around it; unlit the same glass dark, or dim grey;
* sometimes a rim around the board's block (a metal or carpet frame);
* the game around it: walls along some edges, crates, barrels and a hero standing on floor
  tiles outside the board, a health bar, a minimap and a line of score text.

The truth corners are the outer edge of the board's block of tiles (its cells).
"""

from __future__ import annotations

import cv2
import numpy as np

from .draw import _AA, Color, _mix, _scale
from .wild_board import Geo, _add_glow, _hsv, _round_box, _shift_value

SCENE_FAMILIES = ("lights-in-scene",)

_CANVASES = [(1280, 720), (1366, 768), (1440, 900), (1600, 900), (1920, 1080)]
_WHITE: Color = (255, 255, 255)


def render_floor(cells: np.ndarray, stream) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``cells`` (0 unlit, 1 lit) as lamps in a game's tiled floor: (BGR image, corners).

    ``stream(k)`` gives the k-th random stream of the scene (1 layout, 2 look, 3 paint,
    4 HUD): the look comes from its own streams, so other cells change only the lamps.
    """
    rows, cols = cells.shape
    layout_rng, look_rng, paint_rng, hud_rng = stream(1), stream(2), stream(3), stream(4)
    width, height = _CANVASES[int(layout_rng.integers(len(_CANVASES)))]
    per_cell = 1 if layout_rng.random() < 0.6 else 2  # floor tiles a board cell spans
    most = min((width - 160) / (cols * per_cell + 2), (height - 160) / (rows * per_cell + 2))
    tile = float(np.floor(min(most, layout_rng.uniform(26, 64))))
    if tile < 12:
        raise ValueError(f"a {rows}x{cols} board does not fit on the floor")
    ox, oy = float(layout_rng.uniform(0, tile)), float(layout_rng.uniform(0, tile))
    tiles_x = int((width - ox) // tile)
    tiles_y = int((height - oy) // tile)
    # the board's block of tiles, at least one tile in from every edge of the view
    span_x, span_y = cols * per_cell, rows * per_cell
    first_x = int(layout_rng.integers(1, max(2, tiles_x - span_x - 1)))
    first_y = int(layout_rng.integers(1, max(2, tiles_y - span_y - 1)))
    pitch = tile * per_cell
    geo = Geo(ox + first_x * tile - 0.5, oy + first_y * tile - 0.5, pitch, rows, cols)

    image = _floor(width, height, tile, ox - 0.5, oy - 0.5, look_rng, paint_rng)
    if look_rng.random() < 0.4:
        _rim(image, geo, look_rng)
    taken = {(first_y + r, first_x + c) for r in range(span_y) for c in range(span_x)}
    _props(image, tile, ox - 0.5, oy - 0.5, taken, hud_rng)
    _lamps(image, cells, geo, look_rng)
    _walls(image, hud_rng, look_rng)
    _game_hud(image, hud_rng)
    return image, geo.corners()


def _floor(
    width: int,
    height: int,
    tile: float,
    ox: float,
    oy: float,
    look_rng: np.random.Generator,
    paint_rng: np.random.Generator,
) -> np.ndarray:
    """Stone tiles over the whole view: grout, per-tile shade, speckle, cracks, lighting."""
    stone = np.array(
        _hsv(look_rng.uniform(0, 360), look_rng.uniform(0.0, 0.35), look_rng.uniform(0.25, 0.7)),
        np.float32,
    )
    second = None
    if look_rng.random() < 0.3:  # a checker of two stones
        second = np.array(_shift_value(tuple(int(v) for v in stone), look_rng.uniform(-0.25, 0.2)))
    grout = np.array(_scale(tuple(int(v) for v in stone), look_rng.uniform(0.45, 0.8)), np.float32)
    grout_w = float(look_rng.uniform(1.0, max(1.5, 0.08 * tile)))
    vary = float(look_rng.uniform(0.02, 0.1))
    speckle = float(look_rng.uniform(2, 9))
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    u, v = (xs - ox) / tile, (ys - oy) / tile
    tu, tv = np.floor(u).astype(np.int32), np.floor(v).astype(np.int32)
    shades = 1 + paint_rng.uniform(-vary, vary, (int(tv.max()) + 3, int(tu.max()) + 3))
    shade = shades[tv + 1, tu + 1][..., None]
    base = np.broadcast_to(stone, (height, width, 3)).copy()
    if second is not None:
        base[((tu + tv) % 2 == 1)] = second
    image = base * shade
    # grout: distance to the nearest tile edge under half its width
    edge = np.minimum(np.minimum(u - tu, 1 - (u - tu)), np.minimum(v - tv, 1 - (v - tv))) * tile
    cover = np.clip(grout_w / 2 + 0.5 - edge, 0, 1)[..., None]
    image += (grout - image) * cover
    image += paint_rng.normal(0, speckle, (height, width, 1)).astype(np.float32)
    light = float(look_rng.uniform(0.0, 0.25))  # a lighting gradient over the view
    angle = look_rng.uniform(0, 2 * np.pi)
    ramp = ((xs / width - 0.5) * np.cos(angle) + (ys / height - 0.5) * np.sin(angle))[..., None]
    image *= 1 + light * ramp
    image = np.clip(image, 0, 255).astype(np.uint8)
    for _ in range(int(paint_rng.integers(0, 12))):  # cracks
        x, y = paint_rng.uniform(0, width), paint_rng.uniform(0, height)
        a = paint_rng.uniform(0, np.pi)
        length = paint_rng.uniform(0.3, 1.0) * tile
        end = (x + length * np.cos(a), y + length * np.sin(a))
        crack = tuple(int(v) for v in grout)
        cv2.line(image, (int(x), int(y)), (int(end[0]), int(end[1])), crack, 1, _AA)
    return image


def _rim(image: np.ndarray, geo: Geo, rng: np.random.Generator) -> None:
    """A metal or carpet frame round the board's block of tiles, its inside left as it was."""
    x1, y1, x2, y2 = geo.gx, geo.gy, *geo.corners()[2]
    width = float(rng.uniform(0.12, 0.35)) * geo.pitch
    colour = _hsv(rng.uniform(0, 360), rng.uniform(0.0, 0.7), rng.uniform(0.15, 0.75))
    inside = image.copy()
    _round_box(image, (x1 - width, y1 - width, x2 + width, y2 + width), 0.0, colour)
    ya, yb, xa, xb = (
        int(np.ceil(y1)),
        int(np.floor(y2)) + 1,
        int(np.ceil(x1)),
        int(np.floor(x2)) + 1,
    )
    image[ya:yb, xa:xb] = inside[ya:yb, xa:xb]


def _lamps(image: np.ndarray, cells: np.ndarray, geo: Geo, rng: np.random.Generator) -> None:
    """One lamp a cell, lit or not: glass in a socket, lit ones maybe glowing."""
    size = float(rng.uniform(0.3, 0.7)) * geo.pitch
    round_lamp = rng.random() < 0.6
    radius = size / 2 if round_lamp else float(rng.uniform(0, 0.25)) * size
    hue = rng.uniform(0, 360)
    lit = _hsv(hue, rng.uniform(0.45, 1.0), rng.uniform(0.85, 1.0))
    if rng.random() < 0.6:
        unlit = _hsv(hue, rng.uniform(0.2, 0.8), rng.uniform(0.15, 0.4))
    else:
        unlit = _hsv(rng.uniform(0, 360), rng.uniform(0.0, 0.1), rng.uniform(0.1, 0.35))
    socket = None
    if rng.random() < 0.6:
        socket = _hsv(rng.uniform(0, 360), rng.uniform(0.0, 0.2), rng.uniform(0.1, 0.6))
    ring = float(rng.uniform(0.08, 0.2)) * size
    glow = float(rng.uniform(0.4, 0.9)) if rng.random() < 0.6 else 0.0
    core = rng.random() < 0.5

    def box(r: int, c: int, grow: float = 0.0) -> tuple[float, float, float, float]:
        x, y = geo.centre(r, c)
        half = size / 2 + grow
        return x - half, y - half, x + half, y + half

    lit_boxes = [box(r, c) for (r, c), state in np.ndenumerate(cells) if state]
    if glow:
        _add_glow(image, lit_boxes, radius, lit, float(rng.uniform(0.1, 0.25)) * geo.pitch, glow)
    for (r, c), state in np.ndenumerate(cells):
        if socket is not None:
            _round_box(image, box(r, c, ring), radius + ring, socket)
        face = lit if state else unlit
        _round_box(image, box(r, c), radius, face)
        if state and core:
            _round_box(image, box(r, c, -0.3 * size), radius * 0.4, _mix(face, _WHITE, 0.5))


def _props(
    image: np.ndarray,
    tile: float,
    ox: float,
    oy: float,
    taken: set[tuple[int, int]],
    rng: np.random.Generator,
) -> None:
    """Crates, barrels and a hero standing on floor tiles away from the board."""
    height, width = image.shape[:2]
    tiles_y, tiles_x = int((height - oy) // tile), int((width - ox) // tile)
    for _ in range(int(rng.integers(0, 9))):
        ty, tx = int(rng.integers(0, tiles_y)), int(rng.integers(0, tiles_x))
        if any((ty + dy, tx + dx) in taken for dy in (-1, 0, 1) for dx in (-1, 0, 1)):
            continue
        x1, y1 = ox + tx * tile, oy + ty * tile
        kind = rng.choice(["crate", "barrel", "hero"])
        if kind == "crate":
            wood = _hsv(rng.uniform(20, 40), rng.uniform(0.4, 0.8), rng.uniform(0.3, 0.7))
            _round_box(
                image, (x1 + 2, y1 + 2, x1 + tile - 2, y1 + tile - 2), 1.0, _scale(wood, 0.6)
            )
            _round_box(image, (x1 + 5, y1 + 5, x1 + tile - 5, y1 + tile - 5), 0.0, wood)
        elif kind == "barrel":
            colour = _hsv(rng.uniform(0, 60), rng.uniform(0.3, 0.8), rng.uniform(0.3, 0.6))
            centre = (int(x1 + tile / 2), int(y1 + tile / 2))
            cv2.circle(image, centre, int(tile * 0.42), _scale(colour, 0.6), -1, _AA)
            cv2.circle(image, centre, int(tile * 0.34), colour, -1, _AA)
        else:
            body = _hsv(rng.uniform(0, 360), rng.uniform(0.5, 1.0), rng.uniform(0.4, 0.9))
            centre = (int(x1 + tile / 2), int(y1 + tile / 2))
            cv2.ellipse(image, centre, (int(tile * 0.4), int(tile * 0.25)), 0, 0, 360, body, -1)
            cv2.circle(image, centre, int(tile * 0.18), (150, 180, 220), -1, _AA)


def _walls(image: np.ndarray, hud_rng: np.random.Generator, look_rng: np.random.Generator) -> None:
    """Brick walls along some edges of the view."""
    height, width = image.shape[:2]
    brick = _hsv(look_rng.uniform(0, 40), look_rng.uniform(0.3, 0.7), look_rng.uniform(0.25, 0.6))
    mortar = _scale(brick, 0.55)
    thick = int(hud_rng.integers(20, 50))
    for side in ("top", "left", "right"):
        if hud_rng.random() < 0.5:
            continue
        if side == "top":
            region = image[:thick]
        elif side == "left":
            region = image[:, :thick]
        else:
            region = image[:, width - thick :]
        region[:] = mortar
        h, w = region.shape[:2]
        for y in range(0, h, 12):
            shift = 0 if (y // 12) % 2 == 0 else 12
            for x in range(-shift, w, 24):
                cv2.rectangle(region, (x + 1, y + 1), (x + 22, y + 10), brick, -1)


def _game_hud(image: np.ndarray, rng: np.random.Generator) -> None:
    """A health bar, a minimap and a line of score text."""
    height, width = image.shape[:2]
    x, y = int(rng.integers(10, 40)), int(rng.integers(10, 40))
    cv2.rectangle(image, (x, y), (x + 220, y + 18), (30, 30, 30), -1)
    cv2.rectangle(
        image, (x + 2, y + 2), (x + 2 + int(rng.integers(40, 216)), y + 16), (40, 40, 200), -1
    )
    cv2.rectangle(image, (x, y + 24), (x + 160, y + 36), (30, 30, 30), -1)
    cv2.rectangle(
        image, (x + 2, y + 26), (x + 2 + int(rng.integers(20, 156)), y + 34), (200, 120, 40), -1
    )
    if rng.random() < 0.7:
        side = int(rng.integers(120, 200))
        mx, my = width - side - 16, height - side - 16
        cv2.rectangle(image, (mx - 3, my - 3), (mx + side + 3, my + side + 3), (200, 200, 200), 2)
        small = rng.integers(20, 90, (side // 8, side // 8, 3)).astype(np.uint8)
        image[my : my + side, mx : mx + side] = cv2.resize(
            small, (side, side), interpolation=cv2.INTER_NEAREST
        )
        cv2.circle(image, (mx + side // 2, my + side // 2), 3, (0, 255, 255), -1)
    text = f"Room {int(rng.integers(1, 40))}  Gold {int(rng.integers(0, 9999))}"
    cv2.putText(image, text, (x, y + 62), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (230, 230, 230), 1, _AA)
