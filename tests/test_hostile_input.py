"""Broken and hostile input to every image command: one clean line (or row), the right exit,
nothing written but what was asked, no input or other file touched."""

from __future__ import annotations

import functools
import json
import os
import shutil
import struct
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from synth import render_board
from typer.testing import CliRunner

from vision_solver.cli import app
from vision_solver.vision.imageio import MAX_IMAGE_PIXELS, decode_image, image_size

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
runner = CliRunner()
POSIX = sys.platform != "win32"


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bomb(side: int) -> bytes:
    """A few hundred bytes claiming a ``side`` x ``side`` grey picture (all zeros)."""
    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    body = zlib.compress(b"\0" * 65536, 9)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", body)
        + _png_chunk(b"IEND", b"")
    )


def jpeg_bomb(width: int, height: int) -> bytes:
    """A JPEG's start and frame header claiming ``width`` x ``height``, then its end."""
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return (
        b"\xff\xd8"
        + b"\xff\xe0"
        + struct.pack(">H", 16)
        + b"JFIF\x00"
        + bytes(9)
        + sof
        + b"\xff\xd9"
    )


def _screenshot() -> np.ndarray:
    return cv2.imread(str(FIXTURES / "screenshot_lights.png"))


@functools.cache
def _animated_gif() -> bytes:
    """An animated GIF of a small board, then a blank frame (the first frame is read)."""
    board = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    picture = render_board(board, "flat-dark", seed=1, cell_px=40, clutter=False).image
    animation = cv2.Animation()
    animation.frames = [picture, np.full_like(picture, 90)]
    animation.durations = [100, 100]
    try:
        ok, data = cv2.imencodeanimation(".gif", animation)
    except (AttributeError, cv2.error):
        ok = False
    if not ok:
        pytest.skip("no GIF encoder in this OpenCV build")
    return bytes(data)


def _make(kind: str, folder: Path) -> Path:
    """The input of one broken ``kind`` in ``folder`` (a path that may not exist)."""
    shot = (FIXTURES / "screenshot_lights.png").read_bytes()
    path = folder / "input.png"
    if kind == "missing":
        return folder / "nope.png"
    if kind == "directory":
        path = folder / "pictures"
        path.mkdir()
        return path
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "truncated":
        path.write_bytes(shot[: len(shot) // 2])
    elif kind == "random bytes":
        path.write_bytes(np.random.default_rng(0).integers(0, 256, 5000, np.uint8).tobytes())
    elif kind == "text named .png":
        path.write_text("this is not a picture\n")
    elif kind == "1x1":
        cv2.imwrite(str(path), np.zeros((1, 1, 3), np.uint8))
    elif kind == "grey":
        cv2.imwrite(str(path), np.full((120, 160), 90, np.uint8))
    elif kind == "16-bit":
        cv2.imwrite(str(path), _screenshot().astype(np.uint16) * 257)
    elif kind == "alpha":
        picture = _screenshot()
        alpha = np.full(picture.shape[:2] + (1,), 255, np.uint8)
        cv2.imwrite(str(path), np.concatenate([picture, alpha], axis=2))
    elif kind == "animated gif":
        path = folder / "input.gif"
        path.write_bytes(_animated_gif())
    elif kind == "png bomb":
        path.write_bytes(png_bomb(40000))
    elif kind == "jpeg bomb":
        path = folder / "input.jpg"
        path.write_bytes(jpeg_bomb(30000, 30000))
    elif kind == "device file":
        if not POSIX:
            pytest.skip("no /dev/zero")
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs")
        os.mkfifo(path)
    elif kind == "unreadable video":
        path = folder / "input.mp4"
        path.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(200))  # no moov atom
    return path


#: kind -> (exit of IMAGE/detect/learn, words of their Error line, the batch row's status
#: or None where the batch itself refuses with an Error line, the batch's exit)
#: (the batch's words differ from the others' for these kinds)
BATCH_WORDS = {
    "directory": "no images or videos to read",
    "unreadable video": "cannot open as a video",
}
KINDS = {
    "missing": (2, "no such file", None, 2),
    "directory": (2, "is a directory", None, 2),
    "empty": (2, "empty file", "error", 2),
    "truncated": (2, "truncated", "error", 2),
    "random bytes": (2, "not an image", "error", 2),
    "text named .png": (2, "not an image", "error", 2),
    "1x1": (2, "no board found", "no-board", 1),
    "grey": (2, "no board found", "no-board", 1),
    "16-bit": (0, "", "solved", 0),
    "alpha": (0, "", "solved", 0),
    "animated gif": (0, "", "solved", 0),
    "png bomb": (2, "40000 x 40000 pixels, over the limit", "error", 2),
    "jpeg bomb": (2, "30000 x 30000 pixels, over the limit", "error", 2),
    "device file": (2, "not a regular file", "error", 2),
    "fifo": (2, "not a regular file", "error", 2),
    "unreadable video": (2, "not an image", "error", 2),
}


def _snapshot(folder: Path) -> dict[str, object]:
    """Every entry under ``folder``: a file's bytes, a link's target, a folder's mark."""
    seen: dict[str, object] = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.is_symlink():
            seen[name] = ("link", os.readlink(path))
        elif path.is_dir():
            seen[name] = "dir"
        elif path.is_file():
            seen[name] = path.read_bytes()
        else:
            seen[name] = "special"
    return seen


def _invoke(args: list[str]):
    return runner.invoke(app, [str(a) for a in args])


def _one_error_line(result, words: str) -> None:
    assert result.stdout == "", result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert words in lines[0], lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", ["image", "detect", "learn"])
@pytest.mark.parametrize("kind", list(KINDS))
def test_broken_input_gives_one_clean_line_and_writes_nothing_unasked(
    tmp_path, monkeypatch, kind, command
):
    code, words, _, _ = KINDS[kind]
    path = _make(kind, tmp_path)
    monkeypatch.chdir(tmp_path)
    models = tmp_path / "looks"
    before = _snapshot(tmp_path)
    if command == "image":
        result = _invoke([path])
    elif command == "detect":
        result = _invoke(["detect", path])
    else:
        result = _invoke(
            [
                "learn",
                path,
                "--cells",
                "101,010,110" if kind == "animated gif" else "11011,10100,01110,00101,11011",
                "--name",
                "t",
                "--models",
                models,
            ]
        )
    after = _snapshot(tmp_path)
    if code == 0:
        assert result.exit_code == 0, result.output
        asked = {
            "image": {f"{path.stem}.solved.png"},
            "detect": set(),
            "learn": {"looks", "looks/t.json"},
        }[command]
        assert set(after) - set(before) == asked
    else:
        assert result.exit_code == code, result.output
        _one_error_line(result, words)
        assert after == before
    assert {name: after[name] for name in before} == before  # no input touched


@pytest.mark.parametrize("kind", list(KINDS))
def test_broken_input_in_a_batch_gives_its_row_and_the_rest_are_read(tmp_path, kind):
    _, words, status, code = KINDS[kind]
    words = BATCH_WORDS.get(kind, words)
    folder = tmp_path / "in"
    folder.mkdir()
    path = _make(kind, folder)
    before = _snapshot(tmp_path)
    out = tmp_path / "out"
    report = tmp_path / "report.jsonl"
    result = _invoke(["batch", path, "--out-dir", out, "--report", report, "--json", "--quiet"])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    if status is None:  # nothing to read: the batch refuses it with one line
        _one_error_line(result, words)
        assert _snapshot(tmp_path) == before
        return
    (row,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert row["path"] == str(path) and row["status"] == status
    if status in ("error", "no-board"):
        assert words in row["error"] and row["overlay"] is None
        assert str(path) in row["error"]
    assert [json.loads(line) for line in report.read_text().splitlines()] == [row]
    written = set(_snapshot(tmp_path)) - set(before)
    expected = {"out", "report.jsonl"}
    if status in ("solved", "unsolvable"):
        expected.add(f"out/{path.stem}.solved.png")
    assert written == expected
    assert {name: value for name, value in _snapshot(tmp_path).items() if name in before} == before


def test_batch_reads_every_file_after_a_bomb(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a_bomb.png").write_bytes(png_bomb(40000))
    shutil.copy(FIXTURES / "screenshot_lights.png", folder / "b_shot.png")
    result = _invoke(["batch", folder, "--json", "--quiet", "--workers", "1"])
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["status"] for row in rows] == ["error", "solved"]
    assert result.exit_code == 2


@pytest.mark.skipif(not POSIX, reason="symbolic links")
@pytest.mark.parametrize("planted", ["shot.solved.png", ".shot.solved.png.partial"])
def test_overlay_is_never_written_through_a_planted_link(tmp_path, planted):
    shutil.copy(FIXTURES / "screenshot_lights.png", tmp_path / "shot.png")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (tmp_path / planted).symlink_to(victim)
    result = _invoke([tmp_path / "shot.png"])
    assert result.exit_code == 0, result.output
    assert victim.read_text() == "precious"
    overlay = tmp_path / "shot.solved.png"
    assert not overlay.is_symlink() and cv2.imread(str(overlay)) is not None
    assert not [
        p.name for p in tmp_path.iterdir() if p.name.endswith(".partial") and p.name != planted
    ]


@pytest.mark.skipif(not POSIX, reason="symbolic links")
def test_learned_look_is_never_written_through_a_planted_link(tmp_path):
    from vision_solver.vision.looks import Look, save_look

    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    models = tmp_path / "looks"
    models.mkdir()
    (models / "mine.json.partial").symlink_to(victim)
    look = Look(
        "mine", "lights", "colours", {0: [[10.0, 0.0, 0.0, 0.0]], 1: [[90.0, 0.0, 0.0, 0.0]]}
    )
    path = save_look(look, models)
    assert victim.read_text() == "precious"
    assert json.loads(path.read_text())["name"] == "mine"


def test_colliding_names_in_a_batch_never_overwrite_each_other(tmp_path):
    shot = _screenshot()
    for name in ("a/shot.png", "a/shot.jpg", "b/shot.png"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        cv2.imwrite(str(tmp_path / name), shot)
    out = tmp_path / "out"
    result = _invoke(
        ["batch", tmp_path / "a", tmp_path / "b", "--out-dir", out, "--json", "--quiet"]
    )
    assert result.exit_code == 0, result.output
    overlays = [json.loads(line)["overlay"] for line in result.stdout.splitlines()]
    assert overlays == [
        str(out / "a" / "shot.jpg.solved.png"),
        str(out / "a" / "shot.png.solved.png"),
        str(out / "b" / "shot.solved.png"),
    ]
    assert all(Path(p).is_file() for p in overlays)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["."], "is a directory, not an image"),
        (["{shot}", "--out", "result.txt"], "cannot write an image as '.txt'"),
        (
            ["{shot}", "--corners", "-1e9,-1e9 1e9,-1e9 1e9,1e9 -1e9,1e9", "--size", "5x5"],
            "lies outside the 960x640 image",
        ),
        (
            ["learn", "{shot}", "--cells", "{shot}", "--name", "x", "--models", "m"],
            "not a text file",
        ),
        (["learn", "{shot}", "--cells", "101,010", "--name", "x", "--models", "m"], "2x3"),
    ],
    ids=["dot", "out-txt", "huge-corners", "cells-image", "cells-wrong-size"],
)
def test_misuse_reported_in_the_issue_gives_one_error_line(tmp_path, monkeypatch, args, words):
    shot = tmp_path / "shot.png"
    shutil.copy(FIXTURES / "screenshot_lights.png", shot)
    monkeypatch.chdir(tmp_path)
    before = _snapshot(tmp_path)
    result = _invoke([a.format(shot=shot) for a in args])
    assert result.exit_code == 2
    _one_error_line(result, words)
    assert _snapshot(tmp_path) == before


def test_typed_board_with_a_23_digit_number_is_refused_with_its_place(tmp_path):
    board = tmp_path / "big.txt"
    board.write_text("12345678901234567890123 0\n0 0\n")
    result = _invoke(["solve", board])
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: {board}: line 1, column 1: 12345678901234567890123 is too large for a cell "
        "(a board has at most 2**31 states)\n"
    )


def test_typed_board_with_a_byte_order_mark_is_read(tmp_path):
    board = tmp_path / "bom.txt"
    board.write_bytes("\ufeff101\n010\n101\n".encode())
    result = _invoke(["solve", board, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["moves"] == 9


def test_corrupt_look_file_is_skipped_with_a_warning_naming_it(tmp_path):
    models = tmp_path / "looks"
    models.mkdir()
    (models / "broken.json").write_text("{ not json")
    shot = tmp_path / "shot.png"
    shutil.copy(FIXTURES / "screenshot_lights.png", shot)
    result = _invoke(["detect", shot, "--models", models])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(
        f"warning: look skipped: {models / 'broken.json'}: not a valid look"
    )
    assert result.stdout.startswith("board (5x5 lights")


def test_unexpected_error_is_one_line_exit_2(tmp_path, monkeypatch):
    from vision_solver.vision import pipeline

    def broken(*args, **kwargs):
        raise RuntimeError("something\nnobody expected")

    monkeypatch.setattr(pipeline, "place_grid", broken)
    shot = tmp_path / "shot.png"
    shutil.copy(FIXTURES / "screenshot_lights.png", shot)
    result = _invoke(["detect", shot])
    assert result.exit_code == 2
    assert result.stderr == "Error: unexpected RuntimeError: something nobody expected\n"


@pytest.mark.parametrize(
    ("data", "size"),
    [
        (png_bomb(40000), (40000, 40000)),
        (jpeg_bomb(30000, 20000), (30000, 20000)),
        (b"GIF89a" + struct.pack("<HH", 65535, 65535) + bytes(10), (65535, 65535)),
        (b"BM" + bytes(12) + struct.pack("<Iii", 40, 20000, -20000) + bytes(30), (20000, 20000)),
        (b"P5\n# comment\n30000 30000\n255\n" + bytes(10), (30000, 30000)),
    ],
    ids=["png", "jpeg", "gif", "bmp", "pnm"],
)
def test_pixel_limit_is_read_from_the_header_and_refused_before_decoding(data, size):
    assert image_size(data) == size
    assert size[0] * size[1] > MAX_IMAGE_PIXELS
    with pytest.raises(Exception, match=f"{size[0]} x {size[1]} pixels, over the limit"):
        decode_image(data, "upload")


def test_header_sizes_of_real_encodings_match_their_pictures():
    picture = np.zeros((37, 53, 3), np.uint8)
    for suffix in (".png", ".jpg", ".bmp", ".webp", ".tif", ".gif", ".ppm"):
        ok, encoded = cv2.imencode(suffix, picture)
        if ok:
            assert image_size(encoded.tobytes()) == (53, 37), suffix


@pytest.mark.skipif(not POSIX, reason="file descriptors")
def test_decoder_noise_never_reaches_stderr_beside_our_lines(tmp_path):
    """libpng's and ffmpeg's own messages go nowhere; only our rows and summary show."""
    import subprocess

    _make("truncated", tmp_path)
    _make("unreadable video", tmp_path)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    env.pop("BOARDSOLVE_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-m", "vision_solver", "batch", tmp_path, "--quiet", "--workers", "1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr == "", done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()] == ["error", "error", "summary:"]
