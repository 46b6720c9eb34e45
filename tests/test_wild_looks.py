"""Boards in looks made up at random (tests/synth/wild.py) read as what they show."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from synth import render_board
from synth.wild import FAMILIES, wild_scene

from vision_solver.vision.pipeline import read_board


@pytest.mark.parametrize("family", FAMILIES)
def test_a_made_up_look_is_drawn_the_same_from_the_same_seed(family):
    first, again = wild_scene(5, family), wild_scene(5, family)
    assert np.array_equal(first.image, again.image)
    assert not np.array_equal(first.image, wild_scene(6, family).image)
    assert first.cells.shape == (first.cells.shape[0], first.cells.shape[1])


@pytest.mark.parametrize(
    "family",
    [
        pytest.param(
            "lights-tiles",
            marks=pytest.mark.xfail(
                strict=True,
                reason="not read yet: in seed 2 the page's grid has the board's own pitch and "
                "its cells join the board's lattice (8x10 for 6x7)",
            ),
        ),
        "arrow-tiles",
        pytest.param(
            "arrow-glyph-any",
            marks=pytest.mark.xfail(
                strict=True,
                reason="not read yet: seed 1 is miscounted (4x7 for 6x7), and in seed 2 the "
                "page's grid crosses the round tiles' corners and garbles their turns",
            ),
        ),
    ],
)
def test_a_boards_cells_read_the_same_whichever_seed_draws_its_look(family):
    """One board in three looks it was not tuned on (seeds off the tuning side)."""
    states = 4 if family.startswith("arrow") else 2
    cells = np.random.default_rng(3).integers(0, states, (6, 7))
    for seed in (1, 2, 3):
        reading = read_board(wild_scene(seed, family, cells=cells).image, looks=[])
        assert reading.cells.tolist() == cells.tolist(), seed


def _faint_grid(image: np.ndarray, step: int, keep: tuple[int, int, int, int]) -> np.ndarray:
    """The image with a faint grid of ``step`` pixels drawn on its page, outside ``keep``."""
    out = image.copy()
    shade = tuple(int(v) for v in np.clip(out[5, 5].astype(int) + 14, 0, 255))
    for x in range(0, out.shape[1], step):
        cv2.line(out, (x, 0), (x, out.shape[0] - 1), shade, 1)
    for y in range(0, out.shape[0], step):
        cv2.line(out, (0, y), (out.shape[1] - 1, y), shade, 1)
    x0, y0, x1, y1 = keep
    out[y0:y1, x0:x1] = image[y0:y1, x0:x1]
    return out


@pytest.mark.parametrize(
    ("look", "step"),
    [
        ("flat-dark", 24),
        pytest.param(
            "round",
            31,
            marks=pytest.mark.xfail(
                strict=True, reason="not read yet: the page's grid lines join as two more rows"
            ),
        ),
        ("arrow-tiles", 20),
        ("numbered", 36),
    ],
)
def test_a_faint_grid_on_the_page_around_a_board_does_not_change_what_is_read(look, step):
    states = 4 if look.startswith("arrow") else 2
    cells = np.random.default_rng(step).integers(0, states, (5, 6))
    scene = render_board(cells, look, seed=step, cell_px=48, canvas=(1280, 720), clutter=False)
    x0, y0 = np.floor(scene.corners.min(axis=0)).astype(int) - 8
    x1, y1 = np.ceil(scene.corners.max(axis=0)).astype(int) + 8
    plain = read_board(scene.image, looks=[])
    gridded = read_board(_faint_grid(scene.image, step, (x0, y0, x1, y1)), looks=[])
    assert (gridded.rows, gridded.cols) == (plain.rows, plain.cols) == cells.shape
    assert gridded.cells.tolist() == plain.cells.tolist() == cells.tolist()
