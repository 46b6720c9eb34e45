"""Batch reading: many screenshots, and the frames of video captures.

A video is sampled every ``every`` seconds; consecutive frames showing the
same board are solved once.  Every input gets a row of results whatever
happens to it, so one unreadable file does not stop the batch.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..errors import BoardSolveError
from .imageio import read_image, to_bgr8, write_image
from .looks import load_looks
from .pipeline import read_board, rule_for, solve_image


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
    image: np.ndarray, label: str, target: Path, puzzle: str, looks: list, protect: Path
) -> dict[str, Any]:
    row: dict[str, Any] = {"input": label}
    try:
        reading = read_board(image, puzzle, looks=looks)
        answer = solve_image(image, reading, rule_for(reading, puzzle))
        write_image(target, answer.overlay, protect=protect)
    except BoardSolveError as exc:
        row["status"] = f"error: {exc}"
        return row
    row.update(answer.to_dict())
    row["status"] = "solved" if answer.solution is not None else "unsolvable"
    row["overlay"] = str(target)
    return row


def run_batch(
    files: list[Path],
    *,
    out_dir: Path | None,
    every: float,
    puzzle: str,
    models: Path | None,
    progress: bool,
    video_suffixes: set[str],
) -> list[dict[str, Any]]:
    """Read, solve and draw every input; one result row per image or distinct video board."""
    looks = load_looks(models)
    rows: list[dict[str, Any]] = []

    def target_for(path: Path, suffix: str) -> Path:
        folder = out_dir if out_dir is not None else path.parent
        return folder / f"{path.stem}{suffix}.solved.png"

    def work() -> Iterator[None]:
        for path in files:
            if path.suffix.lower() in video_suffixes:
                previous = None
                try:
                    for seconds, frame in video_frames(path, every):
                        label = f"{path.name}@{seconds:.1f}s"
                        try:
                            reading = read_board(frame, puzzle, looks=looks)
                        except BoardSolveError:
                            continue
                        key = (reading.cells.shape, reading.cells.tobytes())
                        if key == previous:
                            continue
                        previous = key
                        rows.append(
                            _solve_one(
                                frame,
                                label,
                                target_for(path, f".t{seconds:07.1f}"),
                                puzzle,
                                looks,
                                path,
                            )
                        )
                except BoardSolveError as exc:
                    rows.append({"input": path.name, "status": f"error: {exc}"})
            else:
                try:
                    image = read_image(path)
                except BoardSolveError as exc:
                    rows.append({"input": str(path), "status": f"error: {exc}"})
                else:
                    rows.append(
                        _solve_one(image, str(path), target_for(path, ""), puzzle, looks, path)
                    )
            yield

    if progress:
        from rich.progress import track

        for _ in track(work(), total=len(files), description="reading boards"):
            pass
    else:
        for _ in work():
            pass
    return rows
