"""Batch reading: many screenshots, and the frames of video captures.

``collect_inputs`` turns files and folders into the list of inputs.  A video
is sampled every ``every`` seconds; consecutive frames showing the same board
are solved once.  Every input gets a row of results whatever happens to it,
so one unreadable file does not stop the batch.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..errors import BoardInputError, BoardSolveError
from .classify import Lit
from .imageio import read_image, to_bgr8, write_image
from .looks import load_looks
from .pipeline import BoardReading, read_board, rule_for, solve_image

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".gif", ".webp", ".tif", ".tiff"}
VIDEO_SUFFIXES = {".mp4", ".avi", ".mov", ".mkv", ".webm", ".m4v"}


def collect_inputs(paths: list[Path]) -> list[Path]:
    """The files to read: each file given, and the images and videos in each folder given.

    A folder's files are taken in name order, leaving out other files and
    overlays (``*.solved.*``).  Raises ``BoardInputError`` for a path that
    does not exist, or when there is nothing to read.
    """
    files: list[Path] = []
    for item in paths:
        if item.is_dir():
            files += sorted(
                p
                for p in item.iterdir()
                if p.suffix.lower() in IMAGE_SUFFIXES | VIDEO_SUFFIXES and ".solved." not in p.name
            )
        elif item.exists():
            files.append(item)
        else:
            raise BoardInputError(f"{item}: no such file or folder")
    if not files:
        raise BoardInputError("no images or videos to read")
    return files


def video_frames(path: Path, every: float) -> Iterator[tuple[float, np.ndarray]]:
    """(seconds, frame) every ``every`` seconds of a video (or animated GIF)."""
    capture = cv2.VideoCapture(str(path))
    if not capture.isOpened():
        raise BoardSolveError(f"{path}: cannot open as a video")
    fps = capture.get(cv2.CAP_PROP_FPS) or 25.0
    step = max(1, int(round(every * fps)))
    index = 0
    try:
        while True:
            ok, frame = capture.read()
            if not ok:
                break
            if index % step == 0:
                yield index / fps, to_bgr8(frame)
            index += 1
    finally:
        capture.release()


def _solve_one(
    image: np.ndarray, reading: BoardReading, label: str, target: Path, puzzle: str, protect: Path
) -> dict[str, Any]:
    """The result row of a board read from ``image``: solved, and its overlay written."""
    try:
        answer = solve_image(image, reading, rule_for(reading, puzzle))
        write_image(target, answer.overlay, protect=protect)
    except BoardSolveError as exc:
        return {"input": label, "status": f"error: {exc}"}
    status = "solved" if answer.solution is not None else "unsolvable"
    return {"input": label, **answer.to_dict(), "status": status, "overlay": str(target)}


def run_batch(
    files: list[Path],
    *,
    out_dir: Path | None,
    every: float,
    puzzle: str,
    models: Path | None,
    progress: bool,
    lit: Lit = "light",
) -> list[dict[str, Any]]:
    """Read, solve and draw every input; one result row per image or distinct video board.

    ``files`` are images, and videos (told by ``VIDEO_SUFFIXES``); ``lit`` is
    as for ``read_board``.
    """
    looks = load_looks(models)
    rows: list[dict[str, Any]] = []

    def target_for(path: Path, suffix: str) -> Path:
        folder = out_dir if out_dir is not None else path.parent
        return folder / f"{path.stem}{suffix}.solved.png"

    def work() -> Iterator[None]:
        for path in files:
            if path.suffix.lower() in VIDEO_SUFFIXES:
                previous = None
                try:
                    for seconds, frame in video_frames(path, every):
                        label = f"{path.name}@{seconds:.1f}s"
                        try:
                            reading = read_board(frame, puzzle, looks=looks, lit=lit)
                        except BoardSolveError:
                            continue
                        key = (reading.cells.shape, reading.cells.tobytes())
                        if key == previous:
                            continue
                        previous = key
                        target = target_for(path, f".t{seconds:07.1f}")
                        rows.append(_solve_one(frame, reading, label, target, puzzle, path))
                except BoardSolveError as exc:
                    rows.append({"input": path.name, "status": f"error: {exc}"})
            else:
                try:
                    image = read_image(path)
                    reading = read_board(image, puzzle, looks=looks, lit=lit)
                except BoardSolveError as exc:
                    rows.append({"input": str(path), "status": f"error: {exc}"})
                else:
                    target = target_for(path, "")
                    rows.append(_solve_one(image, reading, str(path), target, puzzle, path))
            yield

    if progress:
        from rich.progress import track

        for _ in track(work(), total=len(files), description="reading boards"):
            pass
    else:
        for _ in work():
            pass
    return rows
