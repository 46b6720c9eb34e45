"""--debug-dir: the reader's intermediate pictures and their index, found or not."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
from typer.testing import CliRunner

from vision_solver.cli import app

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
runner = CliRunner()

FOUND_FILES = [
    "01-candidates.png",
    "02-outline.png",
    "03-rectified.png",
    "04-grid.png",
    "05-cells.png",
    "index.json",
]


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_detect_writes_every_stage_of_a_found_board(tmp_path):
    folder = tmp_path / "debug" / "lights"  # made, parents too
    result = run("detect", FIXTURES / "screenshot_lights.png", "--debug-dir", folder)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == FOUND_FILES
    index = json.loads((folder / "index.json").read_text())
    assert index["found"] is True
    assert [f["name"] for f in index["files"]] == FOUND_FILES[:-1]
    assert index["board"]["rows"] == 5 and index["board"]["cols"] == 5
    best = index["candidates"][0]
    assert (best["rows"], best["cols"]) == (5, 5)
    assert np.abs(np.array(best["corners"]) - np.array(index["board"]["corners"])).max() < 3
    scores = [c["score"] for c in index["candidates"]]
    assert scores == sorted(scores, reverse=True)
    rectified = cv2.imread(str(folder / "03-rectified.png"))
    assert rectified.shape[0] == rectified.shape[1]  # 5x5 cells, square-on
    # the rectified board's cells are the reading: lit cells are the lighter ones
    cells = np.array(index["board"]["cells"])
    grey = cv2.cvtColor(rectified, cv2.COLOR_BGR2GRAY).astype(float)
    side = rectified.shape[0] // 5
    means = grey.reshape(5, side, 5, side).mean(axis=(1, 3))
    assert means[cells == 1].min() > means[cells == 0].max()


def test_the_image_command_writes_the_debug_pictures_beside_its_overlay(tmp_path):
    out = tmp_path / "answer.png"
    folder = tmp_path / "dbg"
    result = run(FIXTURES / "screenshot_lights.png", "--out", out, "--debug-dir", folder)
    assert result.exit_code == 0, result.output
    assert out.exists()
    assert sorted(p.name for p in folder.iterdir()) == FOUND_FILES


def test_no_board_found_still_writes_the_candidates_and_one_error_line(tmp_path):
    noise = np.random.default_rng(0).integers(0, 256, (300, 400, 3)).astype(np.uint8)
    path = tmp_path / "noise.png"
    cv2.imwrite(str(path), noise)
    folder = tmp_path / "dbg"
    result = run("detect", path, "--debug-dir", folder)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"Error: {path}: no board found (the only grid found runs ")
    assert result.stderr.endswith("; --size RxC with --corners places it by hand\n")
    assert sorted(p.name for p in folder.iterdir()) == ["01-candidates.png", "index.json"]
    index = json.loads((folder / "index.json").read_text())
    assert index["found"] is False and "no board found" in index["error"]
    assert len(index["candidates"]) > 0


def test_a_debug_dir_that_is_a_file_is_one_error_line(tmp_path):
    folder = tmp_path / "taken"
    folder.write_text("not a folder")
    result = run("detect", FIXTURES / "screenshot_lights.png", "--debug-dir", folder)
    assert result.exit_code == 2
    assert result.stderr == f"Error: --debug-dir {folder}: is a file, not a folder\n"
    assert folder.read_text() == "not a folder"


def test_the_search_reads_the_same_with_or_without_a_trace():
    from vision_solver.vision.imageio import read_image
    from vision_solver.vision.locate import locate_board

    image = read_image(FIXTURES / "screenshot_lights.png")
    trace: list = []
    plain, traced = locate_board(image), locate_board(image, trace)
    assert np.array_equal(plain.corners, traced.corners)
    assert (plain.rows, plain.cols) == (traced.rows, traced.cols)
    assert trace and all(c.rows > 0 and c.corners.shape == (4, 2) for c in trace)
