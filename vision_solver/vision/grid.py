"""The grid stage: rows, columns and the place of every cell.

The locate stage already counted the lattice it found; here that count is
settled (or replaced by the user's ``--size RxC``, in which case the board's
corners are simply divided evenly), and the cells' geometry is laid out:
centre and outline of each cell in image pixels, and a rectified view of the
board (one square of ``cell_px`` pixels per cell) for the classify stage.
The grid is centred on the tiles, and on a tilted board each cell is
placed by its own tile (``align_cells``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..errors import BoardInputError
from .colour import lab_on_scale
from .geometry import BoardLocation, apply_homography, cell_size, outline

#: A board is seen obliquely when two opposite edges of it differ in length by this factor
#: or more (as a log): the far edge of a tilted board is the shorter.  Measured: the
#: made-up chairs under a tilted camera (10 to 40 degrees) 0.057 and more; screenshots of
#: arrow boards as located 0.014 at most.
OBLIQUE = 0.03
#: Half tiles (``joined_halves``): cells this tall for their width (the least, the most),
#: pairs of them shaded alike in this share of the pairs, by SHADE (Delta E L*) or more,
#: seen at JOIN_PX pixels a cell.  Measured: fresh tuning boards of tiles lit over their
#: top half, found as half tiles, 0.5 tall and 1.00 of their pairs alike; the tuning looks
#: (seeds 0 to 400, seven flat families, as located) have no lattice of cells 0.35 to 0.7
#: as tall as wide but one in a scene (its pairs 0.33 alike).  A pale highlight on a bright
#: green tile is lighter than the rest of the tile by only 2.0 (tuning lights-tiles 2076,
#: 12 rows read as 24 when SHADE was 3.0); a board's own cells shade a pair alike by
#: chance in half the pairs, noise or not.
HALF_CELLS = (0.35, 0.7)
SHADED_ALIKE = 0.9
SHADE = 1.5
JOIN_PX = 16


@dataclass
class Grid:
    """The board's cells: ``homography`` maps board (u, v) to image (x, y).

    Cell (r, c) covers u in [c, c+1] and v in [r, r+1].
    """

    rows: int
    cols: int
    homography: np.ndarray
    corners: np.ndarray  # (4, 2) TL, TR, BR, BL
    tile: float = 0.8  # a tile's width as a fraction of the cell pitch

    def to_image(self, uv: np.ndarray) -> np.ndarray:
        """Board coordinates ``(..., 2)`` to image pixels."""
        return apply_homography(self.homography, uv)

    def centres(self) -> np.ndarray:
        """``(rows, cols, 2)`` cell centres in image pixels (x, y)."""
        v, u = np.mgrid[0 : self.rows, 0 : self.cols] + 0.5
        return self.to_image(np.stack([u, v], axis=-1))

    def cell_quad(self, row: int, col: int, inset: float = 0.0) -> np.ndarray:
        """The outline of cell (row, col) in image pixels, shrunk by ``inset`` (cell units)."""
        a, b = inset, 1 - inset
        uv = np.array(
            [[col + a, row + a], [col + b, row + a], [col + b, row + b], [col + a, row + b]]
        )
        return self.to_image(uv)

    def with_homography(self, homography: np.ndarray, tile: float | None = None) -> Grid:
        """The same rows and columns placed by another homography (corners follow)."""
        homography = homography / homography[2, 2]
        corners = apply_homography(homography, outline(self.rows, self.cols))
        return Grid(self.rows, self.cols, homography, corners, self.tile if tile is None else tile)

    def moved(self, shift: np.ndarray, tile: float | None = None) -> Grid:
        """The same rows and columns moved by ``shift`` (u, v), in cells, on the board."""
        move = np.array([[1.0, 0, shift[0]], [0, 1.0, shift[1]], [0, 0, 1.0]])
        return self.with_homography(self.homography @ move, tile)

    def block(self, rows: tuple[int, int], cols: tuple[int, int]) -> Grid:
        """The cells of rows ``rows[0]`` to ``rows[1] - 1`` and columns ``cols[0]`` to
        ``cols[1] - 1`` as a grid of their own (the same homography, moved)."""
        (r0, r1), (c0, c1) = rows, cols
        if not (0 <= r0 < r1 <= self.rows and 0 <= c0 < c1 <= self.cols):
            raise ValueError(f"block {rows} x {cols} lies outside a {self.rows}x{self.cols} grid")
        move = np.array([[1.0, 0, c0], [0, 1.0, r0], [0, 0, 1.0]])
        homography = self.homography @ move
        homography = homography / homography[2, 2]
        corners = apply_homography(homography, outline(r1 - r0, c1 - c0))
        return Grid(r1 - r0, c1 - c0, homography, corners, self.tile)

    def widened(self, lines: int) -> Grid:
        """The grid with ``lines`` more rows and columns on every side (the same homography,
        moved), as far as they reach: beyond the board, or past the image."""
        rows, cols = self.rows + 2 * lines, self.cols + 2 * lines
        wider = Grid(rows, cols, self.homography, self.corners, self.tile)
        return wider.moved(np.array([-float(lines), -float(lines)]))

    def pitch(self) -> float:
        """Typical cell size in image pixels."""
        return cell_size(self.corners, self.rows, self.cols)

    def rectify(
        self, image: np.ndarray, cell_px: int = 32, margin: float = 0.0, gray: bool = False
    ) -> np.ndarray:
        """The board seen square-on: ``cell_px`` pixels per cell (plus a margin in cells).

        Only the part of ``image`` under the board is read (and, with
        ``gray``, turned grey first, a third of the pixels to warp).
        """
        out_w = int(round((self.cols + 2 * margin) * cell_px))
        out_h = int(round((self.rows + 2 * margin) * cell_px))
        # The image box under the output, two pixels wider all round (bilinear
        # reads one pixel beyond a sample); outside the image edges repeat.
        under = self.to_image(
            np.array([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]], np.float64) / cell_px
            - margin
        )
        h, w = image.shape[:2]
        x0, y0 = np.clip(np.floor(under.min(axis=0)).astype(int) - 2, 0, [w - 1, h - 1])
        x1, y1 = np.clip(np.ceil(under.max(axis=0)).astype(int) + 3, [x0 + 1, y0 + 1], [w, h])
        source = image[y0:y1, x0:x1]
        if gray and source.ndim == 3:
            source = cv2.cvtColor(source, cv2.COLOR_BGR2GRAY)
        to_source = np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1.0]]) @ self.homography
        scale = np.diag([cell_px, cell_px, 1.0])
        shift = np.array([[1.0, 0, margin * cell_px], [0, 1.0, margin * cell_px], [0, 0, 1.0]])
        to_rect = shift @ scale @ np.linalg.inv(to_source)
        return cv2.warpPerspective(
            source, to_rect, (out_w, out_h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )


def parse_size(text: str) -> tuple[int, int]:
    """``"5x7"`` -> (5, 7); BoardInputError naming the text otherwise."""
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise BoardInputError(f"size must look like 5x5 (rows x cols), not {text!r}")
    rows, cols = (int(p) for p in parts)
    if not (1 <= rows <= 200 and 1 <= cols <= 200):
        raise BoardInputError(f"size must be between 1x1 and 200x200, not {rows}x{cols}")
    return rows, cols


def edge_strength(image: np.ndarray, grid: Grid, cell_px: int, margin: float = 0.0) -> np.ndarray:
    """Edge strength (gradient magnitude, grey) of the rectified board."""
    return _gradient(grid.rectify(image, cell_px, margin, gray=True))


def _gradient(grey: np.ndarray) -> np.ndarray:
    """The gradient magnitude of a grey image."""
    board = grey.astype(np.float32)
    gx = cv2.Sobel(board, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(board, cv2.CV_32F, 0, 1, ksize=3)
    # (numpy, not cv2.magnitude: its result depends on where the array lies in memory)
    return np.sqrt(gx * gx + gy * gy)


def fit_tiles(image: np.ndarray, grid: Grid, cell_px: int | None = None) -> Grid:
    """Centre the grid on its tiles and measure how much of a cell a tile covers.

    All cells are overlaid (mean edge strength); the tile's outline is what
    every cell shares.  Its bounding box gives the tile size, and its centre
    the small shift (from blob centroids biased by marks) to put right.
    ``cell_px`` is the size each cell is sampled at: 48 pixels, 32 on boards
    of more than 144 cells and 16 on boards of more than 256 (there are then
    enough of them to average, and their cells are small on screen anyway).
    """
    if cell_px is None:
        count = grid.rows * grid.cols
        cell_px = 48 if count <= 144 else 32 if count <= 256 else 16
    grey = grid.rectify(image, cell_px, gray=True)
    magnitude = _gradient(grey).reshape(grid.rows, cell_px, grid.cols, cell_px)
    mean_cell = magnitude.mean(axis=(0, 2))
    strong = (mean_cell > 0.4 * mean_cell.max()).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(strong, connectivity=8)
    if count < 2:
        return grid
    # the outline: the component with the largest bounding box
    areas = stats[1:, cv2.CC_STAT_WIDTH] * stats[1:, cv2.CC_STAT_HEIGHT]
    x, y, w, h, _ = stats[1 + int(np.argmax(areas))]
    tile = float(np.clip(max(w, h) / cell_px, 0.2, 1.0))
    shift = np.array([x + w / 2, y + h / 2]) / cell_px - 0.5
    if tile < 0.95 and np.all(np.abs(shift) < 0.25):
        if not _holds_what_differs(grey, grid, cell_px, (x, y, w, h)):
            return grid  # an outline finer than the board's (a floor's tiles under it)
        return grid.moved(shift, tile)
    return Grid(grid.rows, grid.cols, grid.homography, grid.corners, tile)


#: A tile's outline places the grid only when it holds what differs from cell to cell (the
#: board's states): their centre, weighed by how much the cells differ at each place, lies
#: within the middle TILE_HOLDS of the tile's box one way or the other.  A floor's tile a
#: quarter cell off a lamp has the lamp at its corner (the centre half its box from its
#: middle both ways); the outline of glyphs on bevelled tiles holds what differs at 0.3 of
#: its box from its middle, the highlight over a bevelled tile's top half at 0.46 down but
#: 0.09 across.
TILE_HOLDS = 0.8


def _holds_what_differs(
    grey: np.ndarray, grid: Grid, cell_px: int, box: tuple[int, int, int, int]
) -> bool:
    """Whether the tile outlined by ``box`` (x, y, width, height, in a cell of ``cell_px``)
    holds the centre of what differs between the cells of ``grey`` (the board rectified at
    ``cell_px``, grey), along one axis at least (TILE_HOLDS).

    A floor of small tiles under a board of lamps shows its tiles' outlines in
    every cell as a tile would: one of them, off the lamp, is no tile of the
    board."""
    cells = grey.astype(np.float32).reshape(grid.rows, cell_px, grid.cols, cell_px)
    cells = cells.transpose(0, 2, 1, 3)
    spread = cells.reshape(-1, cell_px, cell_px).std(axis=0)
    weight = np.clip(spread - np.quantile(spread, 0.1), 0.0, None)  # over the gaps' level
    if weight.sum() <= 1e-6:
        return True  # the cells all alike: nothing to hold
    ys, xs = np.mgrid[0:cell_px, 0:cell_px] + 0.5
    centre = np.array([(weight * xs).sum(), (weight * ys).sum()]) / weight.sum()
    x, y, w, h = box
    middle = np.array([x + w / 2, y + h / 2])
    return bool(np.any(np.abs(centre - middle) <= TILE_HOLDS / 2 * np.array([w, h])))


#: The gaps between tiles are where every cell shows the same colour: the middle of the
#: positions in the cell (along each axis) where the cells' colours differ less than GAP_DIP
#: of what they do at the GAP_ABOVE quantile of the positions (a clear dip: tiles of
#: several colours or states, one gap colour), each weighed by how far under it.  (Not the
#: median: a bare floor round lamps may fill half the cell, and the median then falls
#: between the floor's level and the lamps'.)  Measured on arrow tiles whose lattice was
#: found on their faces or highlights, a quarter cell off: 0.09 to 0.3 of the median (the
#: tuning looks read as before against the quantile); photographed, blurred wider than the
#: gaps, 0.5 of the quantile (fresh tuning monitor 6200, its lattice found on the tiles'
#: highlights a fifth of a cell up, its arrows cut and read as lights: 0.4 once).  A grid
#: is moved onto its gaps only when they lie GAP_MOVE or more (cells) from its cells' edges,
#: and only when no tile's outline placed it (``fit_tiles``): round tiles all of one colour
#: show a dip (0.0) where no glyph reaches, off their gaps.
GAP_DIP = 0.55
GAP_ABOVE = 0.75
GAP_MOVE = 0.1
#: Those positions lie together (the length of their weighed mean round the cell, as a
#: circle, at least this share of their weight): cells that agree at two places across
#: from each other tell no one gap.
GAP_TOGETHER = 0.5
GAP_PX = 32  # pixels a cell (half on boards of more than 144 cells)
#: ... and only on boards whose tiles differ in colour: their cells' mean colours spread
#: this far (Delta E, the norm of the standard deviations) or more.  Measured: arrow tiles of
#: several colours 11.6 to 41.1; glyphs on tiles all of one colour 0.0, where the rule
#: moved a lattice found right.
TILES_APART = 6.0
#: ... on boards of this many cells or more (enough cells to tell a gap by).
GAP_CELLS = 9


def gaps_shift(image: np.ndarray, grid: Grid) -> np.ndarray:
    """``(2,)``: how far (u, v, in cells, -0.5 to 0.5) the grid's cell edges lie from its
    tiles' gaps, each axis 0 where the gaps show no clear dip (GAP_DIP) or no one place
    (GAP_TOGETHER), both 0 where the tiles are all of one colour (TILES_APART)."""
    px = GAP_PX if grid.rows * grid.cols <= 144 else GAP_PX // 2  # (many cells: enough)
    board = lab_on_scale(grid.rectify(image, px))
    cells = board.reshape(grid.rows, px, grid.cols, px, 3).transpose(0, 2, 1, 3, 4)
    cells = cells.reshape(-1, px, px, 3)
    shift = np.zeros(2)
    faces = cells.reshape(len(cells), -1, 3).mean(axis=1)
    if np.linalg.norm(faces.std(axis=0)) < TILES_APART:
        return shift  # tiles all of one colour: their faces agree as well as their gaps
    spread = np.linalg.norm(cells.std(axis=0), axis=2)
    angles = 2 * np.pi * (np.arange(px) + 0.5) / px  # each position round the cell
    for axis, profile in enumerate((spread.mean(axis=0), spread.mean(axis=1))):
        level = GAP_DIP * float(np.quantile(profile, GAP_ABOVE))
        if profile.min() >= level:
            continue
        # The gap runs through the middle of where the cells agree (each position weighed
        # by how far under the level it lies, round the cell as a circle): a narrow gap is
        # its lowest point, and a floor left bare between a board's lamps is no gap at its
        # lowest point but about the cell's edge, where it is centred.
        weights = np.clip(level - profile, 0.0, None)
        resultant = np.sum(weights * np.exp(1j * angles))
        if abs(resultant) < GAP_TOGETHER * float(weights.sum()):
            continue
        at = (np.angle(resultant) / (2 * np.pi)) % 1.0  # where the gap runs, in the cell
        shift[axis] = at - 1.0 if at >= 0.5 else at
    return shift


def _tilt(grid: Grid) -> float:
    """How far (in cells) the grid's fourth corner is from where an affine map puts it."""
    tl, tr, br, bl = grid.corners
    return float(np.linalg.norm(br - (tr + bl - tl)) / max(grid.pitch(), 1e-9))


def _parabola_peak(before: np.ndarray, at: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Sub-pixel offset of a peak from its value and its two neighbours'."""
    bend = before - 2 * at + after
    safe = np.where(np.abs(bend) > 1e-9, bend, -1.0)
    return np.clip(np.where(np.abs(bend) > 1e-9, 0.5 * (before - after) / safe, 0.0), -0.5, 0.5)


def align_cells(image: np.ndarray, grid: Grid, cell_px: int = 32, rounds: int = 2) -> Grid:
    """Refit the grid's homography to where each cell's tile actually is.

    A lattice fitted to blob centroids drifts on a tilted board (centroids
    are biased by marks, and few blobs may hold a large board).  Every tile
    shares an outline, so the mean edge map of all cells is a template;
    matched against each cell (within a quarter cell), it tells how far the
    cell's tile sits from where the grid puts it.  A homography through the
    corrected cell centres (RANSAC, a tenth of a cell) replaces the old one.
    Cells that match weakly (no edges, a cursor) are left out.
    """
    reach = 0.25
    margin = int(round(reach * cell_px))
    span = 2 * margin + 1
    for _ in range(rounds):
        edges = edge_strength(image, grid, cell_px, reach)
        inner = edges[margin : margin + grid.rows * cell_px, margin : margin + grid.cols * cell_px]
        template = inner.reshape(grid.rows, cell_px, grid.cols, cell_px).mean(axis=(0, 2))
        match = cv2.matchTemplate(edges, np.ascontiguousarray(template), cv2.TM_CCOEFF_NORMED)
        # match[y, x]: the template placed at (x, y); cell (r, c) sits at (c, r) * cell_px + margin.
        rows, cols = np.indices((grid.rows, grid.cols))
        ys = rows[..., None, None] * cell_px + np.arange(span)[:, None]
        xs = cols[..., None, None] * cell_px + np.arange(span)[None, :]
        windows = match[ys, xs]  # (rows, cols, span, span)
        flat = windows.reshape(grid.rows, grid.cols, -1)
        best = flat.argmax(axis=2)
        score = flat.max(axis=2)
        y, x = np.divmod(best, span)
        inside = (x > 0) & (x < span - 1) & (y > 0) & (y < span - 1)
        x1, y1 = np.clip(x, 1, span - 2), np.clip(y, 1, span - 2)
        at = windows[rows, cols, y1, x1]
        dx = x1 + _parabola_peak(
            windows[rows, cols, y1, x1 - 1], at, windows[rows, cols, y1, x1 + 1]
        )
        dy = y1 + _parabola_peak(
            windows[rows, cols, y1 - 1, x1], at, windows[rows, cols, y1 + 1, x1]
        )
        good = inside & (score > 0.3)
        if np.count_nonzero(good) < 6:
            return grid
        planned = np.column_stack([cols[good] + 0.5, rows[good] + 0.5])
        seen = planned + np.column_stack([dx[good] - margin, dy[good] - margin]) / cell_px
        homography, _ = cv2.findHomography(
            planned, grid.to_image(seen), cv2.RANSAC, 0.1 * grid.pitch()
        )
        if homography is None or not np.all(np.isfinite(homography)):
            return grid
        grid = grid.with_homography(homography)
    return grid


def find_grid(
    image: np.ndarray, location: BoardLocation, size: tuple[int, int] | None = None
) -> Grid:
    """The cell grid of a located board; ``size`` (rows, cols) overrides the count (without
    it, tiles lit over one half that the lattice took for two cells each are counted once:
    ``joined_halves``)."""
    grid = Grid(location.rows, location.cols, location.homography, location.corners)
    if size is None:
        size = joined_halves(image, grid)
    if size is not None:
        rows, cols = size
        # Keep the located outline and divide it evenly into the requested cells.
        to_old = np.diag([location.cols / cols, location.rows / rows, 1.0])
        homography = location.homography @ to_old
        grid = Grid(rows, cols, homography / homography[2, 2], location.corners)
    if location.framed:
        return grid  # the frame's edge is the board's: no tiles to place it by
    placed = fit_tiles(image, grid)
    moved = not np.allclose(placed.homography, grid.homography)
    grid = placed
    if not moved and grid.rows * grid.cols >= GAP_CELLS:
        # No tile's outline placed the lattice (its strongest edges are the glyphs', or
        # span the cell): one found on its tiles' faces or highlights is moved onto their gaps.
        shift = gaps_shift(image, grid)
        shift[np.abs(shift) < GAP_MOVE] = 0.0
        if shift.any():
            grid = grid.moved(shift)
    if _tilt(grid) > 0.05:  # a tilted board: place every cell by its own tile
        grid = align_cells(image, grid)
    return grid


def joined_halves(image: np.ndarray, grid: Grid) -> tuple[int, int] | None:
    """The board's size when its lattice cut every tile in two, or None.

    A tile lit from one side (a highlight over its top half) shows an edge
    across its middle, and a lattice found by edges may take each half for a
    cell: then the cells are about half as tall as wide (HALF_CELLS), their
    count that way is even, and along it every pair of cells (from the
    board's edge) is shaded alike, the first lighter than the second or the
    second than the first in nearly every pair (SHADED_ALIKE, by SHADE Delta
    E or more), as no board's cells are.  The size has those pairs joined.
    """
    top, right, bottom, left = _sides(grid)
    cell_height = (left + right) / 2 / grid.rows
    cell_width = (top + bottom) / 2 / grid.cols
    halved = [
        axis
        for axis, count, aspect in (
            (0, grid.rows, cell_height / cell_width),
            (1, grid.cols, cell_width / cell_height),
        )
        if count % 2 == 0 and count >= 4 and HALF_CELLS[0] <= aspect <= HALF_CELLS[1]
    ]
    if not halved:
        return None  # (most boards: their cells are near square)
    px, inset = JOIN_PX, JOIN_PX // 4
    lightness = lab_on_scale(grid.rectify(image, px))[..., 0]
    cells = lightness.reshape(grid.rows, px, grid.cols, px)[:, inset:-inset, :, inset:-inset]
    lightness = np.median(cells.transpose(0, 2, 1, 3).reshape(grid.rows, grid.cols, -1), axis=2)
    for axis in halved:
        count = grid.rows if axis == 0 else grid.cols
        along = lightness if axis == 0 else lightness.T
        shade = along[0::2] - along[1::2]
        if max(np.mean(shade >= SHADE), np.mean(shade <= -SHADE)) >= SHADED_ALIKE:
            return (count // 2, grid.cols) if axis == 0 else (grid.rows, count // 2)
    return None


def _sides(grid: Grid) -> tuple[float, float, float, float]:
    """The lengths (image pixels) of the board's top, right, bottom and left edges."""
    corners = grid.corners
    top, right, bottom, left = (
        float(np.linalg.norm(corners[(i + 1) % 4] - corners[i])) for i in range(4)
    )
    return top, right, bottom, left


def seen_obliquely(grid: Grid) -> bool:
    """The board is seen by a tilted camera: opposite edges differ in length (OBLIQUE)."""
    top, right, bottom, left = _sides(grid)
    return max(abs(np.log(top / bottom)), abs(np.log(left / right))) >= OBLIQUE
