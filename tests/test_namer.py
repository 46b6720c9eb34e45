"""The learned namer of 3-D objects (classify/namer.py): its odds, its look-alike votes, and
the readers it stands beside when it is not sure or not shipped."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from synth.wild import wild_scene

from vision_solver.vision.classify import SURE_NAMER, namer
from vision_solver.vision.classify.cells import CellStack
from vision_solver.vision.classify.namer import NO_OBJECT, direction_odds, name_cells
from vision_solver.vision.classify.objects3d import cell_similarities
from vision_solver.vision.pipeline import place_grid, read_board

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

#: Tuning-side seeds past those the network was trained on (tools/train_object_namer.py
#: trains on the first 1,500 multiples of four); the scored side stays unseen.
UNTRAINED = [10800, 10804]


def _true_grid(scene):
    return place_grid(scene.image, scene.cells.shape, scene.corners)


@pytest.mark.parametrize("family", ["chairs-3d", "benches-grass"])
@pytest.mark.parametrize("seed", UNTRAINED)
def test_the_namer_names_objects_on_boards_it_never_saw(family, seed):
    scene = wild_scene(seed, family)
    odds = direction_odds(scene.image, _true_grid(scene))
    assert odds is not None and odds.shape == (scene.cells.size, 5)
    np.testing.assert_allclose(odds.sum(axis=1), 1.0, atol=1e-6)
    grid = _true_grid(scene)
    directions, confidence = name_cells(
        odds[:, :4], cell_similarities(CellStack(scene.image, grid))
    )
    assert directions.reshape(scene.cells.shape).tolist() == scene.cells.tolist()
    assert confidence.mean() >= SURE_NAMER


def test_a_flat_lights_board_shows_the_namer_no_objects():
    image = cv2.imread(str(FIXTURES / "screenshot_lights.png"))
    odds = direction_odds(image, place_grid(image))
    assert odds is not None
    assert np.mean(odds.argmax(axis=1) == NO_OBJECT) == 1.0
    assert odds[:, :4].max(axis=1).mean() < SURE_NAMER


def test_a_mirrored_board_of_chairs_reads_as_the_board_mirrored():
    scene = wild_scene(UNTRAINED[0], "chairs-3d")
    width = scene.image.shape[1]
    mirrored = np.ascontiguousarray(scene.image[:, ::-1])
    corners = scene.corners[[1, 0, 3, 2]] * [-1, 1] + [width - 1, 0]
    as_seen = read_board(scene.image, looks=[], corners=scene.corners, size=scene.cells.shape)
    in_mirror = read_board(mirrored, looks=[], corners=corners, size=scene.cells.shape)
    swap = np.array([0, 3, 2, 1])  # right and left change places in a mirror
    assert in_mirror.cells.tolist() == swap[as_seen.cells[:, ::-1]].tolist()
    assert as_seen.cells.tolist() == scene.cells.tolist()


def test_an_unsure_cell_takes_the_direction_of_the_cells_most_like_it():
    odds = np.array(
        [
            [0.95, 0.02, 0.02, 0.01],
            [0.96, 0.02, 0.01, 0.01],
            [0.01, 0.95, 0.02, 0.02],
            [0.01, 0.96, 0.02, 0.01],
            [0.02, 0.02, 0.95, 0.01],
            [0.40, 0.45, 0.10, 0.05],  # leans right, looks like the two facing up
        ]
    )
    similar = np.full((6, 6), 0.1)
    similar[5, [0, 1]] = similar[[0, 1], 5] = 0.9
    alone, _ = name_cells(odds)
    voted, confidence = name_cells(odds, similar)
    assert alone.tolist() == [0, 0, 1, 1, 2, 1]
    assert voted.tolist() == [0, 0, 1, 1, 2, 0]
    assert confidence[5] == pytest.approx(0.45)  # still flagged as doubtful


def test_odds_of_another_shape_are_refused_with_their_shape():
    with pytest.raises(ValueError, match=r"\(3, 5\)"):
        name_cells(np.full((3, 5), 0.2))


def test_without_the_network_chairs_are_named_by_their_geometry(monkeypatch, tmp_path):
    scene = wild_scene(UNTRAINED[0], "chairs-3d")
    monkeypatch.setattr(namer, "MODEL", tmp_path / "absent.onnx")
    assert direction_odds(scene.image, _true_grid(scene)) is None
    reading = read_board(scene.image, looks=[], corners=scene.corners, size=scene.cells.shape)
    assert reading.puzzle == "arrows"
    assert reading.cells.shape == scene.cells.shape
