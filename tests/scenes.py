"""What the image-stage tests share about synthetic scenes (see ``synth``)."""

from __future__ import annotations

import cv2
import numpy as np
from synth import LOOKS, Rendered, random_scene, render_board

from vision_solver.vision.geometry import board_at
from vision_solver.vision.grid import Grid
from vision_solver.vision.pipeline import BoardReading, read_board

#: The renderer's looks that the reader takes in without a learned look: all
#: but "chairs" (3-D benches).
GENERIC_LOOKS = [look for look in LOOKS if look != "chairs"]


def pitch(scene: Rendered) -> float:
    """A scene's cell width (pixels) along the top edge of its board."""
    return float(np.linalg.norm(scene.corners[1] - scene.corners[0]) / scene.cells.shape[1])


def generic_scene(look: str, seed: int, tilt: float = 0.0) -> Rendered:
    """``random_scene`` of one of the ``GENERIC_LOOKS``, of the puzzle that look draws."""
    puzzle = "arrows" if look.startswith("arrow") else "lights"
    return random_scene(seed, puzzle=puzzle, look=look, tilt=tilt)


def assert_read_exactly(
    scene: Rendered, *, within: float = 0.2, puzzle: bool = False
) -> BoardReading:
    """Read ``scene`` with no learned look and check the reading against its truth.

    Its size, its corners (each within ``within`` of a cell of the true one),
    with ``puzzle`` its puzzle kind, and every cell.  Returns the reading.
    (Plain asserts: pytest does not rewrite them here, so each says what it saw.)
    """
    reading = read_board(scene.image, looks=[])
    size = (reading.rows, reading.cols)
    assert size == scene.cells.shape, f"read a {size} board, not {scene.cells.shape}"
    off = np.abs(reading.grid.corners - scene.corners).max()
    assert off < within * pitch(scene), f"corners off by {off / pitch(scene):.3f} of a cell"
    if puzzle:
        assert reading.puzzle == scene.puzzle, f"read as {reading.puzzle}, not {scene.puzzle}"
    wrong = np.argwhere(reading.cells != scene.cells).tolist()
    assert reading.cells.tolist() == scene.cells.tolist(), f"cells (row, col) misread: {wrong}"
    return reading


def square_grid(at: np.ndarray, pitch: float, rows: tuple[int, int], cols: tuple[int, int]) -> Grid:
    """The grid of rows ``rows[0]`` to ``rows[1] - 1`` and likewise columns of a board drawn
    square to the picture, its cell (0, 0) at ``at`` (x, y) and ``pitch`` pixels a cell
    (negative rows or columns, or past the board's: what lies round it)."""
    (r0, r1), (c0, c1) = rows, cols
    x0, y0 = at + np.array([c0, r0]) * pitch
    x1, y1 = at + np.array([c1, r1]) * pitch
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    location = board_at(corners, r1 - r0, c1 - c0)
    return Grid(location.rows, location.cols, location.homography, location.corners)


#: A 4x4 lights board with both states in every row and column, solvable either way round.
BLACK_AND_WHITE = np.array([[1, 1, 0, 1], [0, 0, 0, 1], [1, 0, 0, 1], [1, 1, 1, 0]])


def black_and_white_grid(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``BLACK_AND_WHITE`` as white and dark grey squares between black lines, no colour
    anywhere: the 'gridlines' look in grey, whose lit cells are the dark ones.
    (image, lit cells)"""
    scene = render_board(BLACK_AND_WHITE, "gridlines", seed=seed, cell_px=50)
    grey = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), scene.cells


def haiku_board(cells: np.ndarray) -> np.ndarray:
    """Square buttons in the shipped 'haiku-lights-off' look's colours (lit pale grey,
    dark saturated blue) on navy."""

    def bgr(lightness: float, a: int, b: int) -> tuple[int, ...]:
        lab = np.uint8([[[round(lightness * 2.55), a, b]]])
        return tuple(int(v) for v in cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)[0, 0])

    image = np.full((400, 400, 3), (60, 20, 10), np.uint8)
    for (r, c), v in np.ndenumerate(cells):
        x, y = 60 + c * 70, 60 + r * 70
        colour = bgr(81, 131, 122) if v else bgr(25, 170, 63)
        cv2.rectangle(image, (x, y), (x + 62, y + 62), colour, -1)
    return image
