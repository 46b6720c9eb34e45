"""A board whose cells all look alike is lit only when it glows against its surroundings."""

from __future__ import annotations

import warnings

import cv2
import numpy as np
import pytest
from synth.photo import photo_scene
from synth.wild import wild_scene

from vision_solver.vision.classify import read_cells
from vision_solver.vision.geometry import board_at
from vision_solver.vision.grid import find_grid
from vision_solver.vision.pipeline import read_board


def _keys(case: int, key: tuple[int, int, int]) -> np.ndarray:
    """A 4x4 box of round coloured keys, all alike, on a grey case."""
    image = np.full((360, 420, 3), case, np.uint8)
    for r in range(4):
        for c in range(4):
            cv2.circle(image, (90 + 60 * c, 90 + 60 * r), 22, key, -1, cv2.LINE_AA)
    return image


@pytest.mark.parametrize(
    ("case", "key", "lit"),
    [(40, (30, 30, 235), 1), (170, (40, 40, 110), 0)],
    ids=["bright-red-keys-on-a-dark-case-are-lit", "dim-red-keys-on-a-light-case-are-unlit"],
)
def test_keys_all_alike_are_lit_when_lighter_than_the_case(case, key, lit):
    reading = read_board(_keys(case, key), looks=[])
    assert (reading.rows, reading.cols) == (4, 4)
    assert reading.lit_by == "one-state"
    assert (reading.cells == lit).all()


def test_an_unlit_photographed_toy_reads_all_off():
    scene = photo_scene(12, "toy")  # a tuning seed: a 3x7 toy with every key off
    assert not scene.cells.any()
    reading = read_board(scene.image, looks=[])
    assert reading.cells.shape == scene.cells.shape
    assert not reading.cells.any()


@pytest.mark.parametrize(
    ("kind", "seed", "lit"),
    [
        ("competing", 6244, False),  # olive keys on a pale case, a little lighter than it
        ("toy", 6296, False),  # keys lighter than the case round them, far short of white
        ("competing", 6200, True),  # red lamps on a white case: darker than it to the eye
        ("competing", 6132, True),  # lamps washed toward white by their glow: no colour
        ("toy", 6072, True),
        ("toy", 6348, True),
    ],
    ids=lambda value: str(value),
)
def test_photographed_keys_all_alike_are_lit_when_they_emit_light(kind, seed, lit):
    # Tuning photos drawn with every key unlit, and the same photos with every key lit.
    scene = photo_scene(seed, kind, light_unlit=lit)
    assert (scene.cells == int(lit)).all()
    reading = read_board(scene.image, looks=[])
    assert reading.cells.shape == scene.cells.shape
    assert reading.lit_by == "one-state"
    assert (reading.cells == int(lit)).all()


def test_lit_dark_still_turns_an_unlit_board_round():
    reading = read_board(_keys(170, (40, 40, 110)), looks=[], lit="dark")
    assert reading.lit_by == "user" and reading.cells.all()


def test_cells_that_all_fall_to_one_look_are_read_as_one_state_without_nan():
    # A lattice over a 3-D scene whose cells split in two looks until the few far from both
    # (taken for a cursor's) are given to one of them, leaving the other empty: the board is
    # one state, named by the one-state rule, not by the means of an empty group (which came
    # out NaN and named whichever group numpy's argmax met first).
    # The lattice is a border's 22x2 bricks beside a board of chairs (tuning scene 2092,
    # where the locate stage once took it for the board), read as it was placed then.
    scene = wild_scene(2092, "chairs-3d")
    strip = np.array([[511.45, 262.18], [551.10, 255.85], [581.01, 705.71], [527.03, 717.54]])
    grid = find_grid(scene.image, board_at(strip, 22, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        reading = read_cells(scene.image, grid, "auto", looks=[])
    assert reading.puzzle == "lights"
    assert reading.cells.shape == (22, 2)
