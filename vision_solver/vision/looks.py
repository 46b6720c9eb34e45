"""Game looks: what the recogniser knows about one game's drawing, as data.

A look is a JSON file.  It names the puzzle kind, how its cells are read
(``reader``: ``colours`` for lights, ``glyphs`` for arrow tiles, ``benches``
for the moon-legend chairs), and prototypes of its cells in the feature
space of the classify stage (median L, a, b of a cell's inner part and
100 x its ink), grouped by state.  A look is used when the cells of an image
lie close to its prototypes (within ``tolerance``); then each cell takes the
state of its nearest prototype.

Shipped looks live in the package (``vision_solver.models``, the project's
``models/`` folder); learned ones go to a user folder: ``--models DIR``,
``$BOARDSOLVE_MODELS``, or the platform's user data folder.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import BoardInputError
from ..files import read_regular_file, write_atomic
from ..rules import PuzzleKind

FEATURES = "lab-median-ink-v1"
#: How much each feature counts when comparing cells with prototypes: the ink
#: of a cell moves with small shifts of the grid, so it counts less than colour.
WEIGHTS = np.array([1.0, 1.0, 1.0, 0.4])
READERS = ("colours", "glyphs", "benches")
#: The largest look file read (a look is a few kilobytes).
MAX_LOOK_BYTES = 1024 * 1024


@dataclass
class Look:
    name: str
    puzzle: PuzzleKind
    reader: str
    prototypes: dict[int, list[list[float]]]
    tolerance: float = 12.0
    description: str = ""
    source: str = ""
    object_colour: np.ndarray | None = None  # Lab of the objects a "benches" reader looks for

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "puzzle": self.puzzle,
            "reader": self.reader,
            "features": FEATURES,
            "tolerance": self.tolerance,
            "description": self.description,
            "prototypes": {str(k): v for k, v in sorted(self.prototypes.items())},
            **(
                {"object_colour": self.object_colour.tolist()}
                if self.object_colour is not None
                else {}
            ),
        }


def parse_look(data: dict[str, Any], source: str) -> Look:
    """A Look from its JSON object; BoardInputError naming the file otherwise."""
    try:
        if data.get("features", FEATURES) != FEATURES:
            raise ValueError(f"features {data.get('features')!r} is not {FEATURES!r}")
        reader = data.get("reader", "colours")
        if reader not in READERS:
            raise ValueError(f"reader must be one of {', '.join(READERS)}, not {reader!r}")
        puzzle = data["puzzle"]
        if puzzle not in list(PuzzleKind):
            raise ValueError(f"puzzle must be lights or arrows, not {puzzle!r}")
        prototypes = {
            int(state): [[float(x) for x in p] for p in protos]
            for state, protos in data["prototypes"].items()
        }
        for protos in prototypes.values():
            if not protos or any(len(p) != 4 for p in protos):
                raise ValueError("each prototype must be [L, a, b, ink]")
        obj = data.get("object_colour")
        if obj is not None and len(obj) != 3:
            raise ValueError("object_colour must be [L, a, b]")
        return Look(
            name=str(data["name"]),
            puzzle=PuzzleKind(puzzle),
            reader=reader,
            prototypes=prototypes,
            tolerance=float(data.get("tolerance", 12.0)),
            description=str(data.get("description", "")),
            source=source,
            object_colour=None if obj is None else np.array(obj, dtype=np.float32),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise BoardInputError(f"{source}: not a valid look ({exc})") from None


def user_models_dir() -> Path:
    """Where learned looks go unless ``--models`` says otherwise."""
    if os.environ.get("BOARDSOLVE_MODELS"):
        return Path(os.environ["BOARDSOLVE_MODELS"])
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
    return base / "boardsolve" / "looks"


def _shipped_files() -> list[tuple[str, str]]:
    """(name, text) of every shipped look: from the installed package, else the checkout."""
    try:
        folder = resources.files("vision_solver.models")
        entries = [(e.name, e) for e in folder.iterdir() if e.name.endswith(".json")]
        return [(name, e.read_text(encoding="utf-8")) for name, e in sorted(entries)]
    except ModuleNotFoundError:
        # running from a source checkout: the looks sit in models/ beside the package
        folder = Path(__file__).resolve().parents[2] / "models"
        return [(p.name, p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]


def shipped_looks() -> list[Look]:
    """The looks installed with the package."""
    return [
        parse_look(json.loads(text), f"vision_solver.models/{name}")
        for name, text in _shipped_files()
    ]


def load_looks(
    models_dir: str | Path | None = None, skipped: list[str] | None = None
) -> list[Look]:
    """Shipped looks plus the learned ones (a learned look wins over a shipped namesake).

    A learned look file that cannot be read or is not a valid look is left
    out (one bad file must not stop every image command); the reason,
    naming the file, is appended to ``skipped`` when a list is given.
    """
    by_name = {look.name: look for look in shipped_looks()}
    folder = Path(models_dir) if models_dir else user_models_dir()
    if folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            try:
                text = read_regular_file(path, limit=MAX_LOOK_BYTES, what="a look file")
                look = parse_look(json.loads(text.decode("utf-8")), str(path))
            except (OSError, BoardInputError) as exc:  # the message names the file
                if skipped is not None:
                    skipped.append(str(exc))
                continue
            except ValueError as exc:  # not JSON, not UTF-8
                if skipped is not None:
                    skipped.append(f"{path}: not a valid look ({exc})")
                continue
            by_name[look.name] = look
    return list(by_name.values())


def state_distances(points: np.ndarray, look: Look) -> np.ndarray:
    """(n_cells, n_states): distance of each cell to each state's nearest prototype."""
    return np.stack(
        [
            np.min(
                np.linalg.norm((points[:, None, :] - np.asarray(protos)[None]) * WEIGHTS, axis=2),
                axis=1,
            )
            for _, protos in sorted(look.prototypes.items())
        ],
        axis=1,
    )


def match_look(
    features: np.ndarray, looks: list[Look], puzzle: PuzzleKind | str = "auto"
) -> Look | None:
    """The look whose prototypes explain every cell best, or None.

    A look fits when nearly every cell lies within its tolerance of some
    prototype; of the fitting looks the closest on average wins.
    """
    points = features.reshape(-1, 4).astype(np.float64)
    best: tuple[float, Look] | None = None
    for look in looks:
        if puzzle not in ("auto", look.puzzle):
            continue
        nearest = state_distances(points, look).min(axis=1)
        if np.quantile(nearest, 0.9) > look.tolerance:
            continue
        score = float(nearest.mean())
        if best is None or score < best[0]:
            best = (score, look)
    return best[1] if best else None


def learn_look(
    features: np.ndarray, cells: np.ndarray, name: str, puzzle: PuzzleKind, reader: str
) -> Look:
    """A look from one labelled board: up to three prototypes per state (k-means)."""
    import cv2

    points = features.reshape(-1, 4).astype(np.float32)
    labels = np.asarray(cells).reshape(-1)
    prototypes: dict[int, list[list[float]]] = {}
    for state in sorted(set(labels.tolist())):
        group = points[labels == state]
        k = min(3, len(group))
        if k > 1 and float(np.ptp(group, axis=0).max()) > 10:
            criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.5)
            cv2.setRNGSeed(0)
            _, _, centres = cv2.kmeans(group, k, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
        else:
            centres = np.median(group, axis=0, keepdims=True)
        prototypes[int(state)] = [[round(float(x), 1) for x in c] for c in centres]
    spread = [
        float(
            np.min(
                np.linalg.norm(
                    (points[labels == s][:, None] - np.asarray(p)[None]) * WEIGHTS, axis=2
                ),
                axis=1,
            ).max()
        )
        for s, p in prototypes.items()
    ]
    tolerance = float(np.clip(2.0 * max(spread, default=0.0) + 8.0, 12.0, 25.0))
    return Look(
        name,
        puzzle,
        reader,
        prototypes,
        round(tolerance, 1),
        description=f"learned from one labelled {puzzle} board",
    )


def save_look(look: Look, models_dir: str | Path | None = None) -> Path:
    """Write a look to the user folder (or ``models_dir``); returns its path."""
    folder = Path(models_dir) if models_dir else user_models_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BoardInputError(f"{folder}: cannot make the looks folder ({exc.strerror})") from None
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in look.name)
    path = folder / f"{safe}.json"
    try:
        write_atomic(path, (json.dumps(look.to_json(), indent=2) + "\n").encode("utf-8"))
    except OSError as exc:
        raise BoardInputError(f"{path}: cannot write the look ({exc.strerror})") from None
    return path
