"""Batch reading: many screenshots, and the boards shown in video captures.

The pieces, each usable on its own:

* ``collect_inputs`` turns files, folders (recursively) and globs into the
  list of inputs, and says which files it left out;
* ``plan_inputs`` names every input's overlays: beside it, or mirrored under
  an output folder, never two inputs on one name;
* ``process_input`` is the plain per-input function (an input in, its rows
  out; no global state), what ``--workers`` maps over processes and what a
  user maps with Dask or Ray;
* ``run_inputs`` maps it over worker processes, rows in input order.

Every input gets at least one row whatever happens to it: an image one, a
video one per distinct board it shows (or one saying none was found).  A
row's ``status`` is one word of ``STATUSES``; what went wrong is in its own
``error`` field.

A video is located once; later frames are read through the same grid and
compared with the board first seen, cell by cell on a small square-on
picture of the board, and the board is located and read again only when
the picture changes (a click, a cut, a camera move, a new board) and has
settled for one more look.
"""

from __future__ import annotations

import csv
import glob
import io
import json
import multiprocessing
import os
import signal
import stat
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..errors import BoardInputError, BoardNotFound, BoardSolveError, ImageError
from .imageio import MAX_IMAGE_PIXELS, read_image, to_bgr8, write_image
from .looks import Look, load_looks
from .pipeline import BoardReading, ImageAnswer, read_board, rule_for, solve_image

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".gif", ".webp", ".tif", ".tiff"}
VIDEO_SUFFIXES = {".mp4", ".avi", ".mov", ".mkv", ".webm", ".m4v"}
#: A row's status: read and solved, read but no solution, no board found, input unreadable.
STATUSES = ("solved", "unsolvable", "no-board", "error")
#: Every row's fields, in order (``frame``, ``time`` and ``last_time`` are for video boards).
ROW_FIELDS = (
    "path",
    "frame",
    "time",
    "last_time",
    "status",
    "error",
    "board",
    "presses",
    "moves",
    "optimal",
    "overlay",
    "seconds",
)
#: The largest video file read (bytes); frames are bounded by ``MAX_IMAGE_PIXELS``.
MAX_VIDEO_BYTES = 64 * 2**30
#: A cell of the square-on board picture counts as changed when its pixels move by more
#: than this on average (grey levels out of 255): a click, not compression noise.
CELL_CHANGE = 8.0
#: The whole picture (a small grey thumbnail) counts as changed past this mean difference;
#: used only while no board is in view, to try locating again.
PICTURE_CHANGE = 6.0
#: While no board is in view, locate again at least this often (seconds), in case one
#: appeared in too small a part of the picture to change it much.
RETRY_LOCATE = 2.0


@dataclass(frozen=True)
class BatchOptions:
    """How every input is read: the same for all of them, and picklable for workers."""

    puzzle: str = "auto"
    lit: str = "light"
    models: str | None = None
    every: float = 0.2  # seconds between video frames looked at
    video_out: bool = False  # write each video again, answer drawn, as <base>.solved.mp4


@dataclass(frozen=True)
class BatchInput:
    """An input and where its outputs go: ``<overlay_base>.solved.png`` (images),
    ``<overlay_base>.t<seconds>.solved.png`` and ``<overlay_base>.solved.mp4`` (videos)."""

    path: str
    overlay_base: str
    video_out: str | None = None  # a video written again with the answer drawn, here

    @property
    def is_video(self) -> bool:
        return Path(self.path).suffix.lower() in VIDEO_SUFFIXES

    def video_target(self, options: BatchOptions) -> Path | None:
        """Where this video is written again with the answer drawn, if it is."""
        if self.video_out is not None:
            return Path(self.video_out)
        return Path(f"{self.overlay_base}.solved.mp4") if options.video_out else None


@dataclass
class Collected:
    """The inputs found, and the files inside folders left out (not images or videos)."""

    files: list[Path]
    left_out: list[Path] = field(default_factory=list)


def _is_input(path: Path) -> bool:
    return path.suffix.lower() in IMAGE_SUFFIXES | VIDEO_SUFFIXES


def _walk(folder: Path, collected: Collected, skip: set[str]) -> None:
    """The images and videos under ``folder``, by path; hidden files, overlays and the
    folders and files in ``skip`` (real paths: the output folder, the report) left out."""
    found: list[Path] = []
    for root, dirs, names in os.walk(folder):  # links to folders are not followed (no loops)
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".") and os.path.realpath(os.path.join(root, d)) not in skip
        )
        for name in sorted(names):
            if name.startswith(".") or ".solved." in name:
                continue
            if os.path.realpath(os.path.join(root, name)) in skip:
                continue  # hidden files (our own temporary files) and our overlays
            path = Path(root) / name
            (found if _is_input(path) else collected.left_out).append(path)
    collected.files += sorted(found, key=lambda p: p.parts)


def collect_inputs(paths: list[str | Path], skip: Sequence[str | Path] = ()) -> Collected:
    """The inputs to read: files as given, folders searched recursively, globs expanded.

    A folder's images and videos are taken in path order, leaving out hidden
    files and overlays (``*.solved.*``); its other files are listed in
    ``left_out``; so are the folders and files in ``skip`` (the output
    folder, the report).  A file named on its own is always read (it gets a row
    even when it is not an image).  The same file twice is read once.
    Raises ``BoardInputError`` for a path that does not exist and matches
    nothing, or when there is nothing to read.
    """
    collected = Collected([])
    skipped = {os.path.realpath(p) for p in skip}
    for item in paths:
        path = Path(item)
        if path.is_dir():
            _walk(path, collected, skipped)
        elif path.exists() or path.is_symlink():
            collected.files.append(path)
        elif glob.has_magic(str(item)):
            matches = sorted(glob.glob(str(item), recursive=True))
            if not matches:
                raise BoardInputError(f"{item}: matches no file")
            for match in map(Path, matches):
                if match.is_dir():
                    _walk(match, collected, skipped)
                elif _is_input(match) and ".solved." not in match.name:
                    collected.files.append(match)
        else:
            raise BoardInputError(f"{item}: no such file or folder")
    unique: dict[str, Path] = {}
    for path in collected.files:
        unique.setdefault(os.path.realpath(path), path)
    collected.files = list(unique.values())
    if not collected.files:
        raise BoardInputError("no images or videos to read")
    return collected


def plan_inputs(files: list[Path], out_dir: Path | None = None) -> list[BatchInput]:
    """Each input with the base name of its outputs.

    Overlays go beside each input, or under ``out_dir`` in the same folders
    relative to the inputs' common folder (``a/shot.png`` and ``b/shot.png``
    become ``out/a/shot.solved.png`` and ``out/b/shot.solved.png``).  Inputs
    that would share a name in one folder keep their extension in it
    (``shot.png.solved.png``, ``shot.jpg.solved.png``), then a number.
    """
    if out_dir is not None and files:
        root = os.path.commonpath([os.path.dirname(os.path.abspath(p)) for p in files])
    folders = [
        path.parent
        if out_dir is None
        else out_dir / os.path.relpath(os.path.dirname(os.path.abspath(path)), root)
        for path in files
    ]
    stems: dict[tuple[str, str], int] = {}
    for path, folder in zip(files, folders, strict=True):
        key = (os.path.normpath(folder).lower(), path.stem.lower())
        stems[key] = stems.get(key, 0) + 1
    taken: set[str] = set()
    planned = []
    for path, folder in zip(files, folders, strict=True):
        key = (os.path.normpath(folder).lower(), path.stem.lower())
        name = path.name if stems[key] > 1 else path.stem
        base = os.path.normpath(folder / name)
        number = 1
        while base.lower() in taken:
            number += 1
            base = os.path.normpath(folder / f"{name}-{number}")
        taken.add(base.lower())
        planned.append(BatchInput(str(path), base))
    return planned


def with_video_out(items: list[BatchInput], video_out: Path) -> list[BatchInput]:
    """The inputs with where each video is written again with its answer (``--video-out``).

    ``video_out`` is a ``.mp4`` file (one video among the inputs) or an
    existing folder (``<stem>.solved.mp4`` for each video, numbered where two
    share a name).  Raises ``BoardInputError`` for a file given for several
    videos, a file in a missing folder, or another suffix.
    """
    videos = [index for index, item in enumerate(items) if item.is_video]
    if not videos:
        return items
    items = list(items)
    if video_out.suffix.lower() == ".mp4":
        if len(videos) > 1:
            raise BoardInputError(
                f"--video-out {video_out}: one file, but there are {len(videos)} videos; "
                "give a folder"
            )
        if not video_out.parent.is_dir():
            raise BoardInputError(f"{video_out.parent}: no such folder for --video-out")
        items[videos[0]] = replace(items[videos[0]], video_out=str(video_out))
        return items
    if video_out.suffix:
        raise BoardInputError(f"--video-out {video_out}: name a .mp4 file, or a folder")
    taken: set[str] = set()
    for index in videos:
        name = Path(items[index].overlay_base).name
        target, number = f"{name}.solved.mp4", 1
        while target.lower() in taken:
            number += 1
            target = f"{name}-{number}.solved.mp4"
        taken.add(target.lower())
        items[index] = replace(items[index], video_out=str(video_out / target))
    return items


def empty_row(path: str) -> dict[str, Any]:
    """A row with every field of ``ROW_FIELDS``, all None but the path."""
    row: dict[str, Any] = dict.fromkeys(ROW_FIELDS)
    row["path"] = path
    return row


def _answer_fields(answer: ImageAnswer, overlay: Path | None) -> dict[str, Any]:
    solution = answer.solution
    return {
        "status": "solved" if solution is not None else "unsolvable",
        "board": answer.reading.to_dict(),
        "presses": None if solution is None else solution.presses.tolist(),
        "moves": None if solution is None else solution.moves,
        "optimal": None if solution is None else solution.optimal,
        "overlay": None if overlay is None else str(overlay),
    }


def _error_fields(exc: BaseException, path: str) -> dict[str, Any]:
    """status and error of a row for an exception (the message names the input)."""
    if isinstance(exc, BoardNotFound):
        return {"status": "no-board", "error": f"{path}: no board found ({exc})"}
    if isinstance(exc, BoardSolveError):
        message = str(exc)
    elif isinstance(exc, MemoryError):
        message = "out of memory (the input is too large to handle)"
    else:
        detail = " ".join(str(exc).split())[:200] or "no details"
        message = f"unexpected {type(exc).__name__}: {detail}"
    if path not in message:
        message = f"{path}: {message}"
    return {"status": "error", "error": message}


def _looks_for(options: BatchOptions) -> list[Look]:
    return load_looks(options.models)


def process_input(item: BatchInput | str | Path, options: BatchOptions) -> list[dict[str, Any]]:
    """Read, solve and draw one input: its rows (one for an image, one per video board).

    ``item`` is a ``BatchInput`` (from ``plan_inputs``) or a plain path, whose
    overlays then go beside it.  Never raises for a bad input: what went
    wrong is the row's ``status`` and ``error``.  Uses nothing but its
    arguments and the files they name, so it can run in any process.
    """
    if not isinstance(item, BatchInput):
        path = Path(item)
        item = BatchInput(str(path), str(path.parent / path.stem))
    started = time.perf_counter()
    try:
        looks = _looks_for(options)
        if item.is_video:
            return _process_video(item, options, looks)
        return [_process_image(item, options, looks, started)]
    except Exception as exc:  # noqa: BLE001  (one bad input never stops the batch)
        row = empty_row(item.path)
        row.update(_error_fields(exc, item.path))
        row["seconds"] = round(time.perf_counter() - started, 3)
        return [row]


def _process_image(
    item: BatchInput, options: BatchOptions, looks: list[Look], started: float
) -> dict[str, Any]:
    row = empty_row(item.path)
    try:
        image = read_image(item.path)
        reading = read_board(image, options.puzzle, looks=looks, lit=options.lit)  # type: ignore[arg-type]
        answer = solve_image(image, reading, rule_for(reading, options.puzzle))
        target = Path(f"{item.overlay_base}.solved.png")
        target.parent.mkdir(parents=True, exist_ok=True)
        write_image(target, answer.overlay, protect=item.path)
        row.update(_answer_fields(answer, target))
    except Exception as exc:  # noqa: BLE001
        row.update(_error_fields(exc, item.path))
    row["seconds"] = round(time.perf_counter() - started, 3)
    return row


# --- videos ---------------------------------------------------------------------------------


def _open_video(path: str) -> cv2.VideoCapture:
    """An opened capture of a regular video file within the limits; ``ImageError`` otherwise."""
    try:
        info = os.stat(path)
    except OSError:
        raise ImageError(f"{path}: no such file") from None
    if not stat.S_ISREG(info.st_mode):
        raise ImageError(f"{path}: not a regular file (a device, pipe or socket), not read")
    if info.st_size == 0:
        raise ImageError(f"{path}: empty file")
    if info.st_size > MAX_VIDEO_BYTES:
        raise ImageError(f"{path}: over the {MAX_VIDEO_BYTES // 2**30} GiB limit for a video")
    capture = cv2.VideoCapture(path)
    if not capture.isOpened():
        raise ImageError(f"{path}: cannot open as a video (not a video, or damaged)")
    width = int(capture.get(cv2.CAP_PROP_FRAME_WIDTH))
    height = int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
    if width * height > MAX_IMAGE_PIXELS:
        capture.release()
        raise ImageError(
            f"{path}: frames of {width} x {height} pixels, over the limit of "
            f"{MAX_IMAGE_PIXELS / 1e6:.1f} million"
        )
    return capture


def _thumbnail(frame: np.ndarray) -> np.ndarray:
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return cv2.resize(grey, (64, 36), interpolation=cv2.INTER_AREA).astype(np.float32)


def cell_change(before: np.ndarray, after: np.ndarray, rows: int, cols: int) -> float:
    """The most any cell changed between two square-on board pictures (grey, same grid):
    the mean absolute difference over the cell's middle, of the cell that changed most.

    Pixel by pixel, so an arrow turned in its cell counts (its mean grey stays the same).
    """
    size = before.shape[0] // rows
    diff = np.abs(before.astype(np.float32) - after.astype(np.float32))
    cells = diff.reshape(rows, size, cols, size)[:, 1 : size - 1, :, 1 : size - 1]
    return float(cells.mean(axis=(1, 3)).max())


@dataclass
class _Seen:
    """A board in view: its reading, answer, and how it looked when read."""

    reading: BoardReading
    answer: ImageAnswer
    cells: np.ndarray  # the square-on grey picture of the board when read (the reference)
    frame: int
    first: float
    last: float
    seconds: float
    overlay_path: Path | None
    mask: np.ndarray | None = None  # where the answer is drawn, for --video-out
    visible: bool = True
    box: tuple[int, int, int, int] | None = None  # top, bottom, left, right of the mask


class BoardTracker:
    """Follows the board of a video frame by frame; ``finished`` rows come out as boards end.

    ``look(frame, index, seconds)`` returns the rows of boards that ended.
    ``draw(frame)`` puts the current answer on a frame while its board is
    unchanged (nothing once a change is seen).
    """

    CELL_PX = 16

    def __init__(
        self, item: BatchInput, options: BatchOptions, looks: list[Look], drawing: bool = False
    ):
        self.item = item
        self.options = options
        self.drawing = drawing  # keep what the answer covers, for draw()
        self.looks = looks
        self.current: _Seen | None = None
        self.pending: np.ndarray | None = None  # the changed board's picture, to settle
        self.pending_at: tuple[int, float] = (0, 0.0)  # the frame and second it changed
        self.failed_thumb: np.ndarray | None = None  # the picture where no board was found
        self.failed_at = 0.0  # and when
        self.last_error: BaseException | None = None
        self.locates = 0

    def look(self, frame: np.ndarray, index: int, seconds: float) -> list[dict[str, Any]]:
        if self.current is None:
            thumb = _thumbnail(frame)
            if (
                self.failed_thumb is not None
                and seconds - self.failed_at < RETRY_LOCATE
                and float(np.abs(thumb - self.failed_thumb).mean()) <= PICTURE_CHANGE
            ):
                return []
            return self._locate(frame, index, seconds, thumb)
        seen = self.current
        grid = seen.reading.grid
        cells = self._cells(frame, grid)
        if cell_change(cells, seen.cells, grid.rows, grid.cols) <= CELL_CHANGE:
            seen.last = seconds
            seen.visible = True
            self.pending = None
            return []
        seen.visible = False  # the answer goes as soon as the board changes
        settled = self.pending is not None and (
            cell_change(cells, self.pending, grid.rows, grid.cols) <= CELL_CHANGE
        )
        if self.pending is None:
            self.pending_at = (index, seconds)
        self.pending = cells
        if not settled:
            return []
        self.pending = None
        return self._locate(frame, *self.pending_at, _thumbnail(frame))

    def _cells(self, frame: np.ndarray, grid: Any) -> np.ndarray:
        """The board seen square-on, grey, ``CELL_PX`` pixels a cell."""
        return grid.rectify(frame, cell_px=self.CELL_PX, gray=True)

    def _locate(
        self, frame: np.ndarray, index: int, seconds: float, thumb: np.ndarray
    ) -> list[dict[str, Any]]:
        started = time.perf_counter()
        self.locates += 1
        previous = self.current
        try:
            reading = read_board(frame, self.options.puzzle, looks=self.looks, lit=self.options.lit)  # type: ignore[arg-type]
        except BoardSolveError as exc:
            self.current, self.failed_thumb, self.last_error = None, thumb, exc
            self.failed_at = seconds
            return [self.finish(previous)] if previous is not None else []
        self.failed_thumb = None
        if (
            previous is not None
            and previous.reading.cells.shape == reading.cells.shape
            and np.array_equal(previous.reading.cells, reading.cells)
        ):  # the same board, moved: follow it, no new row
            answer = solve_image(frame, reading, previous.answer.rule)
            previous.reading, previous.answer = reading, answer
            previous.cells = self._cells(frame, reading.grid)
            previous.mask, previous.box = self._mask(frame, answer)
            previous.last, previous.visible = seconds, True
            return []
        answer = solve_image(frame, reading, rule_for(reading, self.options.puzzle))
        target = Path(f"{self.item.overlay_base}.t{seconds:07.1f}.solved.png")
        target.parent.mkdir(parents=True, exist_ok=True)
        write_image(target, answer.overlay, protect=self.item.path)
        self.current = _Seen(
            reading,
            answer,
            self._cells(frame, reading.grid),
            index,
            seconds,
            seconds,
            time.perf_counter() - started,
            target,
        )
        self.current.mask, self.current.box = self._mask(frame, answer)
        return [self.finish(previous)] if previous is not None else []

    def _mask(
        self, frame: np.ndarray, answer: ImageAnswer
    ) -> tuple[np.ndarray | None, tuple[int, int, int, int] | None]:
        """Where the answer's drawing differs from the frame, and the box around it."""
        if not self.drawing:
            return None, None
        mask = np.any(answer.overlay != frame, axis=2)
        rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
        if not len(rows):
            return mask, None
        return mask, (int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1)

    def draw(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` with the current answer drawn on it (in place) while its board is unchanged."""
        seen = self.current
        if seen is None or not seen.visible or seen.mask is None or seen.box is None:
            return frame
        top, bottom, left, right = seen.box
        np.copyto(
            frame[top:bottom, left:right],
            seen.answer.overlay[top:bottom, left:right],
            where=seen.mask[top:bottom, left:right, None],
        )
        return frame

    def finish(self, seen: _Seen) -> dict[str, Any]:
        row = empty_row(self.item.path)
        row.update(_answer_fields(seen.answer, seen.overlay_path))
        row.update(
            frame=seen.frame,
            time=round(seen.first, 3),
            last_time=round(seen.last, 3),
            seconds=round(seen.seconds, 3),
        )
        return row


def _process_video(
    item: BatchInput, options: BatchOptions, looks: list[Look]
) -> list[dict[str, Any]]:
    started = time.perf_counter()
    capture = _open_video(item.path)
    video_target = item.video_target(options)
    if video_target is not None and os.path.realpath(video_target) == os.path.realpath(item.path):
        raise ImageError(f"{video_target}: refusing to overwrite the input video")
    tracker = BoardTracker(item, options, looks, drawing=video_target is not None)
    rows: list[dict[str, Any]] = []
    writer: cv2.VideoWriter | None = None
    writer_tmp: str | None = None
    try:
        fps = capture.get(cv2.CAP_PROP_FPS)
        fps = fps if 0 < fps < 1000 else 25.0
        step = max(1, int(round(options.every * fps)))
        index = -1
        while True:
            index += 1
            if video_target is not None or index % step == 0:
                ok, frame = capture.read()
            else:
                ok, frame = capture.grab(), None
            if not ok:
                break
            if frame is None:
                continue
            frame = to_bgr8(frame)
            if frame.shape[0] * frame.shape[1] > MAX_IMAGE_PIXELS:
                raise ImageError(f"{item.path}: a frame over {MAX_IMAGE_PIXELS} pixels")
            rows += tracker.look(frame, index, index / fps)
            if video_target is not None:
                if writer is None:
                    writer, writer_tmp = _open_writer(video_target, frame, fps)
                writer.write(tracker.draw(frame))
        if index == 0:
            raise ImageError(f"{item.path}: no frame could be read (not a video, or damaged)")
        if tracker.current is not None:
            rows.append(tracker.finish(tracker.current))
        if writer is not None and writer_tmp is not None:
            writer.release()
            writer = None
            os.chmod(writer_tmp, 0o644)  # mkstemp made it owner-only
            os.replace(writer_tmp, video_target)
            writer_tmp = None
    finally:
        capture.release()
        if writer is not None:
            writer.release()
        if writer_tmp is not None:
            Path(writer_tmp).unlink(missing_ok=True)
    if not rows:
        row = empty_row(item.path)
        reason = f" ({tracker.last_error})" if tracker.last_error else ""
        row.update(
            status="no-board",
            error=f"{item.path}: no board found in any of its {index} frames{reason}",
            seconds=round(time.perf_counter() - started, 3),
        )
        rows.append(row)
    return rows


def _open_writer(target: Path, frame: np.ndarray, fps: float) -> tuple[cv2.VideoWriter, str]:
    """A video writer on an exclusively created temporary file beside ``target``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=f".partial{target.suffix}", dir=target.parent
    )
    os.close(fd)
    height, width = frame.shape[:2]
    writer = cv2.VideoWriter(tmp, cv2.VideoWriter_fourcc(*"mp4v"), fps, (width, height))
    if not writer.isOpened():
        Path(tmp).unlink(missing_ok=True)
        raise ImageError(f"{target}: no video encoder for .mp4 in this OpenCV build")
    return writer, tmp


# --- many inputs ----------------------------------------------------------------------------


def _worker_start() -> None:
    """In each worker: Ctrl-C is the parent's to handle; a stop request unwinds cleanly
    (temporary files removed); one OpenCV thread per process (the workers are the threads)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_worker)
    cv2.setNumThreads(1)


def _stop_worker(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


#: The thread pools of the numerical libraries under numpy and OpenCV: a worker
#: process is one thread of the batch, so each is started with one (unless the
#: user set them).
_THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@contextmanager
def _one_thread_each() -> Iterator[None]:
    """While worker processes start: their numerical libraries take one thread each."""
    unset = [name for name in _THREAD_VARIABLES if name not in os.environ]
    for name in unset:
        os.environ[name] = "1"
    try:
        yield
    finally:
        for name in unset:
            os.environ.pop(name, None)


def run_inputs(
    items: list[BatchInput], options: BatchOptions, workers: int = 1
) -> Iterator[list[dict[str, Any]]]:
    """The rows of each input, in input order, read by ``workers`` processes.

    Workers take one input at a time (only paths travel to them, only rows
    come back), so memory stays bounded by one image or frame per worker.
    Closing the iterator early (Ctrl-C) stops the workers; no partial file
    is left, since every write is atomic.
    """
    if workers <= 1 or len(items) <= 1:
        for item in items:
            yield process_input(item, options)
        return
    # A fork server imports the reader once and forks each worker from it
    # (cheaper than a fresh interpreter a worker, and safer than forking this
    # process, whose OpenCV may hold threads); where there is none, spawn.
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["vision_solver.vision.batch"])
    else:
        context = multiprocessing.get_context("spawn")
    with _one_thread_each():
        pool = context.Pool(min(workers, len(items)), initializer=_worker_start)
    try:
        yield from pool.imap(partial(process_input, options=options), items, chunksize=1)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


# --- the report file ------------------------------------------------------------------------

REPORT_SUFFIXES = (".jsonl", ".csv")


class Report:
    """The ``--report`` file: JSON lines or CSV, one row a line, flushed as each comes.

    CSV cells holding lists or objects (``board``, ``presses``) are JSON.
    With ``resume``, an existing report is kept and added to: a last line
    cut short by an interruption is dropped first.
    """

    def __init__(self, path: Path, resume: bool = False):
        self.path = path
        self.csv = path.suffix.lower() == ".csv"
        if path.suffix.lower() not in REPORT_SUFFIXES:
            raise BoardInputError(f"--report {path}: name it .jsonl (JSON lines) or .csv")
        self.done: set[str] = set()
        if resume and path.exists():
            self.done = _read_done(path, self.csv)
        mode = "a" if resume else "w"
        try:
            self.handle = open(path, mode, encoding="utf-8", newline="")  # noqa: SIM115
        except OSError as exc:
            raise BoardInputError(f"--report {path}: cannot write ({exc.strerror})") from None
        self.writer = csv.DictWriter(self.handle, ROW_FIELDS) if self.csv else None
        if self.writer is not None and self.handle.tell() == 0:
            self.writer.writeheader()
            self.handle.flush()

    def write(self, row: dict[str, Any]) -> None:
        if self.writer is not None:
            self.writer.writerow(
                {
                    key: json.dumps(value)
                    if isinstance(value, list | dict)
                    else ("" if value is None else value)
                    for key, value in row.items()
                }
            )
        else:
            self.handle.write(json.dumps(row) + "\n")
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()


def _read_done(path: Path, as_csv: bool) -> set[str]:
    """The paths of the rows in a report; a last line cut short is cut off the file."""
    data = path.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]
    if len(complete) != len(data):
        with open(path, "r+b") as handle:
            handle.truncate(len(complete))
    text = complete.decode("utf-8", errors="replace")
    if as_csv:
        return {row["path"] for row in csv.DictReader(io.StringIO(text)) if row.get("path")}
    done = set()
    for line in text.splitlines():
        try:
            done.add(json.loads(line)["path"])
        except (ValueError, KeyError, TypeError):
            continue
    return done
