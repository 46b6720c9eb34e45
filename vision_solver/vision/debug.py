"""``--debug-dir``: the reader's intermediate pictures, so that a user sees why a capture failed.

``write_debug`` writes, in order, into a folder (made if missing):

* ``01-candidates.png``: the lattices (and framed boards) the locate stage weighed, drawn on
  the image with their rank, size and score (the strongest in red, weaker ones bluer);
* ``02-outline.png``: the outline chosen (when a board was found);
* ``03-rectified.png``: the board warped square-on;
* ``04-grid.png``: the rectified board with its cell grid;
* ``05-cells.png``: every cell's reading and confidence (low ones in amber);
* ``index.json``: what each file shows, the distinct candidates strongest first (corners,
  size, score, source), the
  board chosen or the reason none was.

Every file is written whole or not at all (``write_image`` / ``write_atomic``), never over
the input image.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..errors import ImageError
from ..files import write_atomic
from .imageio import write_image
from .locate import Candidate
from .overlay import LOW_CONFIDENCE

#: Pictures drawn on the whole image are scaled down to this longest side.
MAX_SIDE = 1600

#: The rectified board's cell side in pixels (within RECTIFIED_SIDE for large boards).
CELL_PX = 64
RECTIFIED_SIDE = 1600

_GREEN, _AMBER, _WHITE, _BLACK = (60, 200, 60), (0, 170, 255), (255, 255, 255), (0, 0, 0)
_LETTERS = "URDL"


def _scaled(image: np.ndarray) -> tuple[np.ndarray, float]:
    side = max(image.shape[:2])
    scale = min(1.0, MAX_SIDE / side)
    if scale < 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return image.copy(), scale


def _label(img: np.ndarray, text: str, at: tuple[float, float], colour: tuple[int, int, int]):
    x, y = int(round(at[0])), int(round(at[1]))
    scale = max(0.4, min(1.2, max(img.shape[:2]) / 1600))
    thick = max(1, int(round(2 * scale)))
    cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, _BLACK, thick + 2, cv2.LINE_AA)
    cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)


def _quad(img: np.ndarray, corners: np.ndarray, colour: tuple[int, int, int], thick: int):
    pts = np.round(np.asarray(corners) * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.polylines(img, [pts], True, colour, thick, cv2.LINE_AA, 4)


#: Candidates drawn on 01-candidates.png (the strongest; index.json lists them all).
DRAWN = 12


def distinct(candidates: Sequence[Candidate]) -> list[Candidate]:
    """The candidates strongest first, each lattice once (one of the same size whose corners
    lie within 2% of its diagonal of a stronger one's is the same lattice found again)."""
    kept: list[Candidate] = []
    for cand in sorted(candidates, key=lambda c: c.score, reverse=True):
        diagonal = float(np.linalg.norm(cand.corners[2] - cand.corners[0])) or 1.0
        if not any(
            (k.rows, k.cols) == (cand.rows, cand.cols)
            and np.abs(k.corners - cand.corners).max() < 0.02 * diagonal
            for k in kept
        ):
            kept.append(cand)
    return kept


def _candidates_picture(image: np.ndarray, candidates: Sequence[Candidate]) -> np.ndarray:
    img, scale = _scaled(image)
    ranked = list(candidates)[:DRAWN]
    for rank, cand in reversed(list(enumerate(ranked))):
        # the strongest in bright red, weaker ones fading to dim blue
        t = rank / max(1, len(ranked) - 1)
        colour = (int(255 * t), int(60 * (1 - t)), int(255 * (1 - t)))
        corners = cand.corners * scale
        _quad(img, corners, colour, 3 if rank == 0 else 1)
        _label(
            img,
            f"#{rank + 1} {cand.rows}x{cand.cols} {cand.score:.2f}",
            corners[0] + np.array([2.0, -4.0]),
            colour,
        )
    return img


def _outline_picture(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    img, scale = _scaled(image)
    _quad(img, corners * scale, _GREEN, 3)
    for name, point in zip(("TL", "TR", "BR", "BL"), corners * scale, strict=True):
        _label(img, name, point, _GREEN)
    return img


def _rectified(image: np.ndarray, grid: Any) -> tuple[np.ndarray, int]:
    cell = max(8, min(CELL_PX, RECTIFIED_SIDE // max(grid.rows, grid.cols)))
    to_board = np.linalg.inv(grid.homography)
    to_pixels = np.array([[cell, 0, -0.5], [0, cell, -0.5], [0, 0, 1.0]]) @ to_board
    flat = cv2.warpPerspective(
        image, to_pixels, (grid.cols * cell, grid.rows * cell), flags=cv2.INTER_AREA
    )
    return flat, cell


def _grid_picture(flat: np.ndarray, rows: int, cols: int, cell: int) -> np.ndarray:
    img = flat.copy()
    for r in range(rows + 1):
        y = min(r * cell, rows * cell - 1)
        cv2.line(img, (0, y), (cols * cell - 1, y), _GREEN, 1)
    for c in range(cols + 1):
        x = min(c * cell, cols * cell - 1)
        cv2.line(img, (x, 0), (x, rows * cell - 1), _GREEN, 1)
    return img


def _cells_picture(flat: np.ndarray, reading: Any, cell: int) -> np.ndarray:
    img = (flat.astype(np.float32) * 0.55).astype(np.uint8)  # dimmed: the text reads on it
    arrows = str(reading.puzzle) in ("arrows", "PuzzleKind.arrows")
    scale = max(0.3, cell / 80)
    for (r, c), state in np.ndenumerate(reading.cells):
        conf = float(reading.confidence[r, c])
        colour = _AMBER if conf < LOW_CONFIDENCE else _WHITE
        shown = _LETTERS[int(state)] if arrows else str(int(state))
        x, y = c * cell, r * cell
        cv2.putText(
            img, shown, (x + cell // 3, y + cell // 2), cv2.FONT_HERSHEY_SIMPLEX, scale * 1.2,
            colour, max(1, int(2 * scale)), cv2.LINE_AA,
        )  # fmt: skip
        cv2.putText(
            img, f"{conf:.2f}", (x + 3, y + cell - 5), cv2.FONT_HERSHEY_SIMPLEX, scale * 0.6,
            colour, 1, cv2.LINE_AA,
        )  # fmt: skip
        if conf < LOW_CONFIDENCE:
            cv2.rectangle(img, (x + 1, y + 1), (x + cell - 2, y + cell - 2), _AMBER, 2)
    return img


def _candidate_entry(cand: Candidate) -> dict[str, Any]:
    return {
        "rows": cand.rows,
        "cols": cand.cols,
        "score": round(cand.score, 4),
        "source": cand.source,
        "corners": np.round(cand.corners, 2).tolist(),
    }


def write_debug(
    folder: str | Path,
    image: np.ndarray,
    candidates: Sequence[Candidate],
    reading: Any | None = None,
    *,
    source: str | Path | None = None,
    error: str | None = None,
) -> list[Path]:
    """Write the reader's intermediate pictures and ``index.json`` into ``folder``.

    ``candidates`` are what the locate stage weighed (``read_board(..., trace=[])``);
    ``reading`` the board read (a ``BoardReading``), or None when none was, with ``error``
    saying why.  ``source`` is the input image, never written over.  Returns the files
    written, in order.  Raises ``ImageError`` when the folder cannot be made or written.
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ImageError(f"--debug-dir {folder}: is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ImageError(f"--debug-dir {folder}: cannot make the folder ({exc.strerror})") from None
    ranked = distinct(candidates)
    pictures: list[tuple[str, np.ndarray, str]] = [
        (
            "01-candidates.png",
            _candidates_picture(image, ranked),
            f"the {min(DRAWN, len(ranked))} strongest of the {len(ranked)} distinct lattices "
            "the locate stage weighed: #rank rows x cols score",
        )
    ]
    if reading is not None:
        grid = reading.grid
        flat, cell = _rectified(image, grid)
        pictures += [
            ("02-outline.png", _outline_picture(image, grid.corners), "the outline chosen"),
            ("03-rectified.png", flat, "the board warped square-on"),
            (
                "04-grid.png",
                _grid_picture(flat, grid.rows, grid.cols, cell),
                "the rectified board with its cell grid",
            ),
            (
                "05-cells.png",
                _cells_picture(flat, reading, cell),
                f"every cell's reading and confidence (below {LOW_CONFIDENCE} in amber)",
            ),
        ]
    written: list[Path] = []
    for name, picture, _ in pictures:
        written.append(write_image(folder / name, picture, protect=source))
    index: dict[str, Any] = {
        "input": None if source is None else str(source),
        "found": reading is not None,
        "files": [{"name": name, "shows": shows} for name, _, shows in pictures],
        "candidates": [_candidate_entry(c) for c in ranked],
    }
    if reading is not None:
        index["board"] = reading.to_dict()
    if error is not None:
        index["error"] = error
    target = folder / "index.json"
    if source is not None and target.resolve() == Path(source).resolve():
        raise ImageError(f"{target}: refusing to overwrite the input image")
    try:
        write_atomic(target, (json.dumps(index, indent=1) + "\n").encode())
    except OSError as exc:
        raise ImageError(f"{target}: cannot write ({exc.strerror})") from None
    written.append(target)
    return written
