"""Looks made up at random: boards drawn the way no fixed look of the renderer draws them.

``wild_scene(seed, family)`` draws a random board in a look invented from
``seed``: its palette, tile shape and bevel, gap, glyph shape and placement,
page background (with a faint grid of its own, sometimes) and the UI around.
It exists so that the reader can be tuned on some looks and scored on
others it never met (``benchmarks/unseen_looks.py`` keeps the split: seeds
divisible by four are the tuning side).

Families:

* ``lights-tiles``: lit and unlit tiles of any hues; lit is the one that
  emits (lighter, and more saturated or glowing).
* ``lights-grey``: the same seen in grey (a single-channel capture).
* ``arrow-tiles``: light arrows on tiles of several colours, each tile's
  colour drawn from a small palette; arrow, chevron or triangle glyphs of
  random proportions, drawn a little off-centre.
* ``arrow-glyph-any``: any glyph colour on any plain tile colour, sometimes
  with a small dot in a corner of every tile (a marker, no state).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision_solver.errors import BoardInputError

from .scene import Rendered

FAMILIES = ("lights-tiles", "lights-grey", "arrow-tiles", "arrow-glyph-any")

_SHIFT = 4
_ONE = 1 << _SHIFT


def _hsv(hue: float, saturation: float, value: float) -> tuple[int, int, int]:
    """A BGR colour from hue (degrees), saturation and value (0..1)."""
    pixel = np.uint8([[[int(hue / 2) % 180, int(255 * saturation), int(255 * value)]]])
    b, g, r = cv2.cvtColor(pixel, cv2.COLOR_HSV2BGR)[0, 0].tolist()
    return int(b), int(g), int(r)


def _grey(colour: tuple[int, int, int]) -> int:
    """The grey level (0..255) a BGR colour turns into."""
    return int(cv2.cvtColor(np.uint8([[colour]]), cv2.COLOR_BGR2GRAY)[0, 0])


def _fill(image: np.ndarray, points: np.ndarray, colour: tuple[int, int, int]) -> None:
    cv2.fillPoly(image, [np.round(points * _ONE).astype(np.int32)], colour, cv2.LINE_AA, _SHIFT)


def _rounded(x0: float, y0: float, x1: float, y1: float, radius: float) -> np.ndarray:
    """The outline of a rounded rectangle as points."""
    radius = max(0.0, min(radius, (x1 - x0) / 2, (y1 - y0) / 2))
    corners = [(x1 - radius, y0 + radius, -90), (x1 - radius, y1 - radius, 0)]
    corners += [(x0 + radius, y1 - radius, 90), (x0 + radius, y0 + radius, 180)]
    points = []
    for cx, cy, start in corners:
        for t in np.radians(np.linspace(start, start + 90, 6)):
            points.append((cx + radius * np.cos(t), cy + radius * np.sin(t)))
    return np.array(points)


def _glyph(rng: np.random.Generator) -> np.ndarray:
    """A random glyph pointing up, as a polygon in a unit cell centred on (0, 0)."""
    kind = rng.choice(["arrow", "chevron", "triangle"])
    if kind == "triangle":
        half, top, bottom = (
            rng.uniform(0.2, 0.32),
            rng.uniform(-0.34, -0.22),
            rng.uniform(0.1, 0.26),
        )
        return np.array([(0.0, top), (half, bottom), (-half, bottom)])
    if kind == "chevron":
        half, top = rng.uniform(0.22, 0.32), rng.uniform(-0.3, -0.16)
        thick, drop = rng.uniform(0.08, 0.14), rng.uniform(0.22, 0.36)
        return np.array(
            [
                (0, top),
                (half, top + drop),
                (half, top + drop + thick),
                (0, top + thick),
                (-half, top + drop + thick),
                (-half, top + drop),
            ]
        )
    shaft, head = rng.uniform(0.05, 0.1), rng.uniform(0.2, 0.3)
    top, neck, bottom = rng.uniform(-0.36, -0.26), rng.uniform(-0.1, 0.02), rng.uniform(0.24, 0.36)
    return np.array(
        [
            (0, top),
            (head, neck),
            (shaft, neck),
            (shaft, bottom),
            (-shaft, bottom),
            (-shaft, neck),
            (-head, neck),
        ]
    )


def _turn(points: np.ndarray, direction: int) -> np.ndarray:
    """Points turned clockwise (on screen) by ``direction`` quarters: up -> right -> ..."""
    for _ in range(direction % 4):
        points = np.column_stack([-points[:, 1], points[:, 0]])
    return points


def _page(rng: np.random.Generator, size: tuple[int, int], dark: bool) -> np.ndarray:
    """A page: a flat or graded background, a faint grid of its own sometimes, a title bar."""
    width, height = size
    base = np.array(
        _hsv(
            rng.uniform(0, 360),
            rng.uniform(0, 0.4),
            rng.uniform(0.05, 0.2) if dark else rng.uniform(0.8, 0.97),
        ),
        np.float32,
    )
    other = base * rng.uniform(0.85, 1.15)
    t = np.linspace(0, 1, height, dtype=np.float32)[:, None, None]
    page = np.clip(base * (1 - t) + other * t, 0, 255).repeat(width, axis=1).astype(np.uint8)
    if rng.random() < 0.4:  # a faint grid of the page's own
        step = int(rng.integers(18, 60))
        shade = tuple(int(v) for v in np.clip(base + (12 if dark else -12), 0, 255))
        for x in range(0, width, step):
            cv2.line(page, (x, 0), (x, height - 1), shade, 1)
        for y in range(0, height, step):
            cv2.line(page, (0, y), (width - 1, y), shade, 1)
    bar = tuple(int(v) for v in np.clip(base + (25 if dark else -25), 0, 255))
    cv2.rectangle(page, (0, 0), (width - 1, 28), bar, -1)
    ink = (230, 230, 230) if dark else (30, 30, 30)
    for i, word in enumerate(["Game", "Options", "Help"]):
        cv2.putText(
            page, word, (12 + 90 * i, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.55, ink, 1, cv2.LINE_AA
        )
    return page


def wild_scene(seed: int, family: str, *, cells: np.ndarray | None = None) -> Rendered:
    """A random board in a look made up from ``seed`` (the same arguments, the same pixels).

    ``cells`` draws those cells instead of random ones, in the same look.
    """
    if family not in FAMILIES:
        raise BoardInputError(f"family must be one of {', '.join(FAMILIES)}, not {family!r}")
    rng = np.random.default_rng([seed, FAMILIES.index(family)])
    rows, cols = int(rng.integers(3, 16)), int(rng.integers(3, 16))
    arrows = family.startswith("arrow")
    drawn = rng.integers(0, 4 if arrows else 2, (rows, cols))
    if cells is None:
        cells = drawn
    cells = np.asarray(cells)
    if cells.ndim != 2 or cells.min() < 0 or cells.max() >= (4 if arrows else 2):
        raise BoardInputError(f"cells must be a 2-D board of {family} states, not {cells!r}")
    rows, cols = cells.shape
    size = (int(rng.choice([1280, 1366, 1600, 1920])), int(rng.choice([720, 768, 900, 1080])))
    pitch = int(
        np.clip(rng.integers(26, 72), 18, min((size[0] - 120) / cols, (size[1] - 150) / rows))
    )
    dark = bool(rng.random() < 0.5)
    image = _page(rng, size, dark)
    x0 = int(rng.integers(40, max(41, size[0] - cols * pitch - 40)))
    y0 = int(rng.integers(60, max(61, size[1] - rows * pitch - 40)))
    gap = rng.uniform(0.06, 0.22) * pitch
    radius = rng.choice([0.0, rng.uniform(0.05, 0.3), 0.5]) * (pitch - gap)
    if arrows:
        _draw_arrows(image, cells, x0, y0, pitch, gap, radius, family, rng)
    else:
        _draw_lights(image, cells, x0, y0, pitch, gap, radius, dark, rng)
    if family == "lights-grey":
        image = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    corners = (
        np.array(
            [
                [x0, y0],
                [x0 + cols * pitch, y0],
                [x0 + cols * pitch, y0 + rows * pitch],
                [x0, y0 + rows * pitch],
            ],
            np.float64,
        )
        - 0.5
    )
    return Rendered(
        image, cells.astype(np.int64), corners, "arrows" if arrows else "lights", f"{family}#{seed}"
    )


def _tile(x: float, y: float, pitch: float, gap: float, radius: float) -> np.ndarray:
    return _rounded(x + gap / 2, y + gap / 2, x + pitch - gap / 2, y + pitch - gap / 2, radius)


def _draw_lights(image, cells, x0, y0, pitch, gap, radius, dark, rng) -> None:
    hue = rng.uniform(0, 360)
    lit = _hsv(hue, rng.uniform(0.5, 1.0), rng.uniform(0.85, 1.0))
    off_hue = hue + rng.choice([0.0, rng.uniform(-180, 180)])
    unlit = _hsv(
        off_hue, rng.uniform(0.0, 0.45), rng.uniform(0.2, 0.5) if dark else rng.uniform(0.45, 0.65)
    )
    # Lit emits light: it is the lighter of the two, in grey too (a saturated
    # blue is darker in grey than a pale grey: then the unlit tile is dimmed).
    while _grey(lit) < _grey(unlit) + 40:
        unlit = tuple(int(v * 0.8) for v in unlit)
    glow = rng.random() < 0.4
    for (r, c), state in np.ndenumerate(cells):
        x, y = x0 + c * pitch, y0 + r * pitch
        if state and glow:
            halo = (
                np.array(lit, np.float32) * 0.45
                + np.array(image[int(y), int(x)], np.float32) * 0.55
            )
            _fill(image, _tile(x, y, pitch, gap / 3, radius), tuple(int(v) for v in halo))
        _fill(image, _tile(x, y, pitch, gap, radius), lit if state else unlit)


def _draw_arrows(image, cells, x0, y0, pitch, gap, radius, family, rng) -> None:
    glyph = _glyph(rng)
    offset = rng.uniform(-0.05, 0.05, 2)
    if family == "arrow-tiles":
        palette = [
            _hsv(rng.uniform(0, 360), rng.uniform(0.4, 0.9), rng.uniform(0.35, 0.75))
            for _ in range(int(rng.integers(2, 6)))
        ]
        ink = _hsv(0, 0, rng.uniform(0.92, 1.0))
        bevel = rng.random() < 0.6
        marker = False
    else:
        palette = [_hsv(rng.uniform(0, 360), rng.uniform(0, 0.9), rng.uniform(0.2, 0.95))]
        tile_value = cv2.cvtColor(np.uint8([[palette[0]]]), cv2.COLOR_BGR2GRAY)[0, 0] / 255
        ink = _hsv(rng.uniform(0, 360), rng.uniform(0, 1), 0.1 if tile_value > 0.55 else 0.95)
        bevel = False
        marker = rng.random() < 0.5
    for (r, c), direction in np.ndenumerate(cells):
        x, y = x0 + c * pitch, y0 + r * pitch
        colour = palette[int(rng.integers(len(palette)))]
        if bevel:
            shade = tuple(int(v * 0.6) for v in colour)
            _fill(image, _tile(x, y + 0.06 * pitch, pitch, gap, radius), shade)
        _fill(image, _tile(x, y, pitch, gap, radius), colour)
        centre = np.array([x + pitch / 2, y + pitch / 2]) + offset * pitch
        _fill(image, centre + _turn(glyph, int(direction)) * (pitch - gap), ink)
        if marker:
            dot = (int(x + gap / 2 + 0.14 * pitch), int(y + gap / 2 + 0.14 * pitch))
            cv2.circle(image, dot, max(1, int(0.05 * pitch)), ink, -1, cv2.LINE_AA)
