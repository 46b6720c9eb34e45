"""A learned namer for 3-D objects: each cell's window read as the four directions' odds.

The object reader (``objects3d``) groups a board's cells by look; naming those
groups from geometry alone (heights, mirrors, quarter turns seen from above) is
where it fails most.  A small convolutional network, trained on made-up boards
of random chair and bench models under random cameras (``tools/train_object_namer.py``;
the seeds it is scored on are never trained on), gives every cell the odds of
each direction; the board's groups are then named by the votes of all their
cells, one direction each.

The network ships as ONNX (``models/object_namer.onnx``) and runs in OpenCV's
dnn module; without the file every caller falls back to the geometry.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from ..grid import Grid
from .cells import CellStack

#: A cell's window for the network: this many cell widths either side of the
#: centre, this many above it (a bench seen end-on runs up the screen), the
#: rest of NAMER_PX below.
NAMER_SIDE = 0.7
NAMER_ABOVE = 0.95
#: The window's size in pixels (across, down): 1.4 cell widths either way.
NAMER_PX = (32, 32)
#: The windows are scaled by this quantile of their pixels' distance from the
#: floor's colour over the whole board (the board's own contrast), no less than
#: LEAST_SCALE (Delta E).
SCALE_QUANTILE = 0.9
LEAST_SCALE = 5.0
#: The network's classes: the four directions, then no object (a flat look).
CLASSES = 5
NO_OBJECT = 4
#: Each class seen in a mirror: right and left swap.
MIRRORED = (0, 3, 2, 1, NO_OBJECT)
#: A cell whose likeliest direction has odds under SURE_CELL is named again with the votes
#: of the LOOK_ALIKES cells most like it (``objects3d.cell_similarities``) among those
#: named surely, weighed VOTES_WEIGHT against its own odds' logarithm.  Measured on tuning
#: boards it was not trained on (30 a family, as located): chairs 20 of 26 boards of the
#: right size exact by the odds alone, 23 to 25 with the votes of 2 to 4 look-alikes at a
#: weight of 3 to 6; benches 24 of 26 either way.
SURE_CELL = 0.85
LOOK_ALIKES = 3
VOTES_WEIGHT = 4.0
#: The shipped network: in the installed package (``vision_solver.models``), else in the
#: checkout's models/ folder beside the package.
MODEL_NAME = "object_namer.onnx"


def _shipped_model() -> Path:
    try:
        return Path(str(resources.files("vision_solver.models") / MODEL_NAME))
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[3] / "models" / MODEL_NAME


MODEL = _shipped_model()


def board_windows(image: np.ndarray, grid: Grid, floor: np.ndarray | None = None) -> np.ndarray:
    """``(cells, 3, down, across)`` float32: every cell's window (``objects3d.object_windows``)
    as the network takes it, L*, a and b less the floor's, over the board's own contrast."""
    from .objects3d import floor_colour, object_windows

    if floor is None:
        floor = floor_colour(CellStack(image, grid))
    windows = object_windows(image, grid, floor, NAMER_SIDE, NAMER_ABOVE, NAMER_PX)
    scale = max(float(np.quantile(np.linalg.norm(windows, axis=3), SCALE_QUANTILE)), LEAST_SCALE)
    return np.ascontiguousarray((windows / scale).transpose(0, 3, 1, 2))


@cache
def _network(path: Path) -> cv2.dnn.Net | None:
    """The shipped network, or None without its file."""
    if not path.is_file():
        return None
    return cv2.dnn.readNetFromONNX(str(path))


def direction_odds(
    image: np.ndarray, grid: Grid, floor: np.ndarray | None = None, model: Path | None = None
) -> np.ndarray | None:
    """``(cells, 5)``: each cell's probabilities of holding an object facing up, right, down
    or left, and of holding none (NO_OBJECT), row-major; None without the network's file."""
    network = _network(MODEL if model is None else model)
    if network is None:
        return None
    windows = board_windows(image, grid, floor)
    # Every window is read as it stands and mirrored (right and left swapped back): the
    # two readings' odds averaged.
    count = len(windows)
    network.setInput(np.concatenate([windows, np.ascontiguousarray(windows[..., ::-1])]))
    logits = network.forward().reshape(2 * count, CLASSES).astype(np.float64)
    logits -= logits.max(axis=1, keepdims=True)
    odds = np.exp(logits)
    odds /= odds.sum(axis=1, keepdims=True)
    return 0.5 * (odds[:count] + odds[count:][:, list(MIRRORED)])


def name_cells(
    odds: np.ndarray, similar: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's direction and confidence, row-major, from its ``odds`` of the four
    directions (``(cells, 4)``) and, for the cells not surely named (SURE_CELL), the votes of
    their look-alikes (``similar``: ``(cells, cells)``, how alike every two cells are).

    A cell the namer hesitates over is usually one whose telling part (a thin
    backrest, an armrest) is hidden or blurred; the cells that look most like
    it, and were named surely, most likely face its way."""
    if odds.ndim != 2 or odds.shape[1] != 4:
        raise ValueError(f"odds must be (cells, 4), not {odds.shape}")
    directions = odds.argmax(axis=1)
    confidence = odds.max(axis=1)
    sure = np.nonzero(confidence >= SURE_CELL)[0]
    unsure = np.nonzero(confidence < SURE_CELL)[0]
    if similar is None or not len(sure) or not len(unsure):
        return directions, confidence
    named = directions.copy()
    for cell in unsure:
        alike = sure[np.argsort(-similar[cell, sure], kind="stable")[:LOOK_ALIKES]]
        votes = np.bincount(directions[alike], minlength=4) / len(alike)
        named[cell] = int(np.argmax(np.log(odds[cell] + 1e-6) + VOTES_WEIGHT * votes))
    return named, confidence
