"""The public entry points: draw a given board (render_board) or a random one (random_scene)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision_solver.errors import BoardInputError

from .canvas import _degrade, _DoesNotFit, _place, _tilt_homography
from .chairs import _render_chairs
from .clutter import _draw_clutter
from .draw import _jitter
from .flat import _FLAT_LOOKS, _frame_pad, _paint_background
from .themes import _MAX_STATE, LOOKS, PUZZLE_OF_LOOK, _theme


@dataclass(frozen=True)
class Rendered:
    """One synthetic screenshot and its ground truth."""

    image: np.ndarray  # H x W x 3 uint8, BGR
    cells: np.ndarray  # (rows, cols) int64 states
    corners: np.ndarray  # (4, 2) float64 outer edge of the cell grid: TL, TR, BR, BL as (x, y)
    puzzle: str  # "lights" or "arrows"
    look: str  # key of LOOKS


def _check_cells(cells: np.ndarray, puzzle: str) -> np.ndarray:
    arr = np.asarray(cells)
    if arr.ndim != 2:
        raise BoardInputError(f"cells must be 2-D, not {arr.ndim}-D (shape {arr.shape})")
    if arr.size == 0:
        raise BoardInputError(f"cells must not be empty, got shape {arr.shape}")
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
            bad = arr[~(np.isfinite(arr) & (arr == np.round(arr)))].flat[0]
            raise BoardInputError(f"cells must hold whole numbers, found {bad!r}")
    elif arr.dtype.kind not in "biu":
        raise BoardInputError(f"cells must hold integers, got dtype {arr.dtype}")
    top = _MAX_STATE[puzzle]
    out = arr.astype(np.int64)
    bad_mask = (out < 0) | (out > top)
    if bad_mask.any():
        idx = tuple(int(i) for i in np.argwhere(bad_mask)[0])
        raise BoardInputError(
            f"cells for {puzzle!r} must be in 0..{top}, found {out[idx]} at {idx}"
        )
    return out


def render_board(
    cells: np.ndarray,
    look: str,
    *,
    seed: int = 0,
    cell_px: int = 40,
    canvas: tuple[int, int] | None = None,
    origin: tuple[int, int] | None = None,
    clutter: bool = True,
    tilt: float = 0.0,
    noise: float = 0.0,
) -> Rendered:
    """Draw ``cells`` in ``look`` and return the screenshot with its ground truth.

    ``canvas`` is (width, height), by default the board plus a margin for the clutter.
    ``origin`` is the top-left pixel of the cell grid (for "chairs": of the projected board's
    bounding box, benches included), random when None.  ``tilt`` in 0..0.3 warps the whole
    screenshot by a random perspective homography of that strength; ``noise`` is the std of
    Gaussian pixel noise (added after a slight blur and a JPEG round trip).  Raises
    BoardInputError (a ValueError) on bad cells or arguments, and when the board does not fit
    on the canvas.
    """
    if look not in LOOKS:
        raise BoardInputError(f"unknown look {look!r}; choose one of {sorted(LOOKS)}")
    puzzle = PUZZLE_OF_LOOK[look]
    grid = _check_cells(cells, puzzle)
    if not 8 <= cell_px <= 400:
        raise BoardInputError(f"cell_px must be in 8..400, got {cell_px}")
    if not 0.0 <= tilt <= 0.5:
        raise BoardInputError(f"tilt must be in 0..0.5 (0..0.3 is the useful range), got {tilt}")
    if noise < 0:
        raise BoardInputError(f"noise must be >= 0, got {noise}")
    if canvas is not None and (len(canvas) != 2 or min(canvas) < 16):
        raise BoardInputError(f"canvas must be (width, height) of at least 16 px, got {canvas}")
    rng = np.random.default_rng(seed)
    rows, cols = grid.shape
    cp = int(cell_px)

    if look == "chairs":
        img, corners = _render_chairs(grid, cp, canvas, origin, clutter, tilt, rng)
        img = _degrade(img, noise, rng)
        return Rendered(img, grid, corners.astype(np.float64), puzzle, look)

    th = _theme(look, rng)
    pad = _frame_pad(look, cp)
    bw, bh = cols * cp, rows * cp
    width, height, ex, ey = _place(rng, bw + 2 * pad, bh + 2 * pad, canvas, origin, (pad, pad))
    x0, y0 = ex + pad, ey + pad
    img = np.empty((height, width, 3), np.uint8)
    _paint_background(img, look, th, rng)
    look_rng = np.random.default_rng(rng.integers(2**63))
    clutter_rng = np.random.default_rng(rng.integers(2**63))  # drawn even when unused
    _FLAT_LOOKS[look](img, grid, x0, y0, cp, look_rng, th)
    if clutter:
        keep = (ex, ey, ex + bw + 2 * pad - 1, ey + bh + 2 * pad - 1)
        _draw_clutter(img, keep, th, puzzle, clutter_rng)
    corners = np.array(
        [
            [x0 - 0.5, y0 - 0.5],
            [x0 + bw - 0.5, y0 - 0.5],
            [x0 + bw - 0.5, y0 + bh - 0.5],
            [x0 - 0.5, y0 + bh - 0.5],
        ]
    )
    if tilt > 0:
        hom = _tilt_homography(rng, corners, tilt, (width, height))
        surround = _jitter(rng, (40, 40, 44), 10)
        img = cv2.warpPerspective(
            img,
            hom,
            (width, height),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=surround,
        )
        corners = cv2.perspectiveTransform(corners.reshape(1, 4, 2), hom).reshape(4, 2)
    img = _degrade(img, noise, rng)
    return Rendered(img, grid, corners.astype(np.float64), puzzle, look)


_SCREENS = [(1024, 768), (1280, 720), (1366, 768), (1600, 900), (1920, 1080)]


def random_scene(
    seed: int,
    *,
    puzzle: str = "lights",
    rows: int | None = None,
    cols: int | None = None,
    look: str | None = None,
    canvas: tuple[int, int] | None = None,
    tilt: float = 0.0,
) -> Rendered:
    """A random board (size 2..20 per side unless given), look, cell size and position.

    Everything is drawn from ``seed``.  Without ``canvas`` the board is put on a common screen
    size that holds it.  The cell size shrinks when needed so the board fits.
    """
    if puzzle not in _MAX_STATE:
        raise BoardInputError(f"unknown puzzle {puzzle!r}; choose one of {sorted(_MAX_STATE)}")
    rng = np.random.default_rng(seed)
    choices = [name for name, p in PUZZLE_OF_LOOK.items() if p == puzzle]
    if look is None:
        look = choices[int(rng.integers(len(choices)))]
    elif look not in LOOKS:
        raise BoardInputError(f"unknown look {look!r}; choose one of {sorted(LOOKS)}")
    elif PUZZLE_OF_LOOK[look] != puzzle:
        raise BoardInputError(f"look {look!r} draws {PUZZLE_OF_LOOK[look]!r}, not {puzzle!r}")
    rows = int(rng.integers(2, 21)) if rows is None else int(rows)
    cols = int(rng.integers(2, 21)) if cols is None else int(cols)
    if rows < 1 or cols < 1:
        raise BoardInputError(f"rows and cols must be positive, got {rows}x{cols}")
    cells = rng.integers(0, _MAX_STATE[puzzle] + 1, size=(rows, cols))
    cp = int(rng.integers(18, 53))
    if canvas is None:
        # screen sizes that hold the board with room to spare; the largest if none does
        room = 1.5 if look == "chairs" else 1.0
        fits = [
            s for s in _SCREENS if cols * cp * room + 160 <= s[0] and rows * cp * room + 220 <= s[1]
        ]
        screen = fits[int(rng.integers(len(fits)))] if fits else _SCREENS[-1]
    else:
        screen = (int(canvas[0]), int(canvas[1]))
    render_seed = int(rng.integers(2**31))
    while True:
        try:
            return render_board(cells, look, seed=render_seed, cell_px=cp, canvas=screen, tilt=tilt)
        except _DoesNotFit:
            if cp <= 8:
                raise
            cp = max(8, int(cp * 0.85))
