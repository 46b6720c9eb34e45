"""A capture of a board being played: the same scene, one click at a time, as a video."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision_solver.rules import Rule, apply_presses
from vision_solver.solve import solve

from .scene import render_board


@dataclass
class PlayedVideo:
    path: Path
    fps: float
    boards: list[np.ndarray]  # the board shown in each stretch, in order
    starts: list[float]  # the second each board first shows
    frames: int


def played_board_video(
    path: Path,
    *,
    shape: tuple[int, int] = (5, 5),
    look: str = "flat-dark",
    canvas: tuple[int, int] = (640, 480),
    cell_px: int = 40,
    fps: float = 10.0,
    seconds_per_board: float = 1.0,
    clicks: int = 3,
    seed: int = 1,
    fourcc: str = "MJPG",
) -> PlayedVideo | None:
    """Render a lights board, then the boards after each of ``clicks`` clicks of its answer.

    Each board is shown for ``seconds_per_board``; the scene (clutter, placement) stays
    the same, only the cells change.  Returns None when OpenCV has no encoder for it.
    """
    rule = Rule.preset("lights-out")
    rng = np.random.default_rng(seed)
    board = rng.integers(0, 2, shape)
    presses = solve(board, rule).presses
    order = [tuple(rc) for rc in np.argwhere(presses > 0)]
    if len(order) < clicks:
        raise ValueError(f"the board of seed {seed} needs only {len(order)} clicks")
    boards = [board]
    for r, c in order[:clicks]:
        one = np.zeros(shape, dtype=np.int64)
        one[r, c] = 1
        boards.append(apply_presses(boards[-1], one, rule))
    per_board = int(round(seconds_per_board * fps))
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), fps, canvas)
    if not writer.isOpened():
        return None
    origin = ((canvas[0] - shape[1] * cell_px) // 2, (canvas[1] - shape[0] * cell_px) // 2)
    frames = 0
    for shown in boards:
        image = render_board(
            shown, look, seed=seed, cell_px=cell_px, canvas=canvas, origin=origin
        ).image
        for _ in range(per_board):
            writer.write(image)
            frames += 1
    writer.release()
    starts = [i * per_board / fps for i in range(len(boards))]
    return PlayedVideo(path, fps, boards, starts, frames)
