"""boardsolve IMAGE / detect / batch / learn: exit codes, outputs, bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest
from scenes import BLACK_AND_WHITE, black_and_white_grid, haiku_board
from synth import render_board
from typer.testing import CliRunner

from vision_solver import Rule, apply_presses
from vision_solver.cli import app
from vision_solver.vision.batch import ROW_FIELDS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
runner = CliRunner()

#: The keys of a lights board's reading, in order.
READING_KEYS = ["puzzle", "states", "rows", "cols", "cells", "confidence", "corners", "lit_by"]
#: The keys of a lights board's JSON object, in order: the reading's, then the answer's.
READING_AND_ANSWER_KEYS = [
    *READING_KEYS,
    "solvable",
    "presses",
    "moves",
    "optimal",
    "solutions",
]
#: The answer's keys and values of a board with no solution.
NO_ANSWER = {"solvable": False, "presses": None, "moves": None, "optimal": None, "solutions": 0}


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def shot(tmp_path):
    path = tmp_path / "shot.png"
    shutil.copy(FIXTURES / "screenshot_lights.png", path)
    return path


def test_main_job_writes_overlay_beside_input(shot):
    before = shot.read_bytes()
    result = run(shot)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "board (5x5 lights):"
    assert lines[1:6] == ["11011", "10100", "01110", "00101", "11011"]
    assert lines[-2] == "8 clicks (optimal), 4 solutions"
    overlay = shot.with_name("shot.solved.png")
    assert lines[-1] == f"overlay: {overlay}"
    assert cv2.imread(str(overlay)).shape == cv2.imread(str(shot)).shape
    assert shot.read_bytes() == before


def test_main_job_json_has_reading_solution_and_overlay(shot, tmp_path):
    out = tmp_path / "answer.png"
    result = run(shot, "--json", "--out", out)
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert list(obj) == [*READING_AND_ANSWER_KEYS, "overlay"]
    assert obj["overlay"] == str(out) and out.exists()
    board = np.array(obj["cells"])
    replay = apply_presses(board, np.array(obj["presses"]), Rule.preset("lights-out"))
    assert not replay.any()


def test_detect_json_object(shot):
    result = run("detect", shot, "--json")
    assert result.exit_code == 0
    obj = json.loads(result.stdout)
    assert list(obj) == READING_KEYS
    assert obj["puzzle"] == "lights" and obj["states"] == 2
    assert obj["lit_by"] == "colour"
    assert len(obj["corners"]) == 4
    # corners clockwise from the top-left
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = obj["corners"]
    assert x1 > x0 and y2 > y1 and x2 > x3 and y3 > y0


def test_arrows_fixture_is_read_and_solved(tmp_path):
    result = run(FIXTURES / "screenshot_arrows.png", "--out", tmp_path / "a.png", "--json")
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["puzzle"] == "arrows" and obj["states"] == 4
    assert "lit_by" not in obj  # which state is lit is a lights board's question
    replay = apply_presses(
        np.array(obj["cells"]), np.array(obj["presses"]), Rule.preset("moon-legend")
    )
    assert not replay.any()


def test_set_corrects_a_cell(shot, tmp_path):
    # the centre of a 5x5 board lies outside both quiet patterns: still solvable
    result = run(shot, "--set", "3,3=0", "--json", "--out", tmp_path / "o.png")
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["cells"][2][2] == 0 and obj["confidence"][2][2] == 1.0


def test_set_rejects_a_cell_off_the_board(shot):
    result = run(shot, "--set", "9,9=1")
    assert result.exit_code == 2
    assert result.stderr == "Error: --set 9,9: no such cell on a 5x5 board\n"


def _unsolvable_capture(tmp_path):
    cells = np.zeros((5, 5), dtype=np.int64)
    cells[0, 0] = 1  # no solution on 5x5
    path = tmp_path / "u.png"
    cv2.imwrite(str(path), render_board(cells, "flat-dark", seed=2, cell_px=50).image)
    return path


def test_unsolvable_read_names_the_likeliest_misread(tmp_path):
    path = _unsolvable_capture(tmp_path)
    result = run(path)
    assert result.exit_code == 1
    assert "Unsolvable as read" in result.stdout
    assert "likeliest misread: cell (" in result.stdout
    assert (tmp_path / "u.solved.png").exists()


def test_unsolvable_read_json_has_no_answer_and_the_misreads(tmp_path):
    path = _unsolvable_capture(tmp_path)
    result = run(path, "--json")
    assert result.exit_code == 1
    obj = json.loads(result.stdout)
    assert list(obj) == [*READING_AND_ANSWER_KEYS, "misreads", "overlay"]
    assert {key: obj[key] for key in NO_ANSWER} == NO_ANSWER
    assert obj["misreads"]
    assert obj["overlay"] == str(tmp_path / "u.solved.png")


def test_batch_row_of_an_unsolvable_board_has_the_unsolvable_keys(tmp_path):
    path = _unsolvable_capture(tmp_path)
    result = run("batch", path, "--json", "--quiet")
    assert result.exit_code == 1
    (row,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert list(row) == list(ROW_FIELDS)
    assert row["status"] == "unsolvable" and row["error"] is None
    assert list(row["board"]) == READING_KEYS
    assert (row["presses"], row["moves"], row["optimal"]) == (None, None, None)
    assert row["overlay"] == str(tmp_path / "u.solved.png")


def _bad_inputs(tmp_path):
    text = tmp_path / "notes.png"
    text.write_text("not an image")
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    data = (FIXTURES / "screenshot_lights.png").read_bytes()
    truncated = tmp_path / "cut.png"
    truncated.write_bytes(data[: len(data) // 2])
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((200, 300, 3), 90, dtype=np.uint8))
    return {
        "missing": (tmp_path / "nope.png", "no such file"),
        "text": (text, "not an image"),
        "empty": (empty, "empty file"),
        "truncated": (truncated, "truncated"),
        "blank": (blank, "no board found"),
    }


@pytest.mark.parametrize("case", ["missing", "text", "empty", "truncated", "blank"])
def test_bad_image_one_error_line_exit_2_nothing_written(tmp_path, case):
    path, message = _bad_inputs(tmp_path)[case]
    before = sorted(p.name for p in tmp_path.iterdir())
    result = run(path)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("Error: ") and message in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_refuses_to_overwrite_the_input(shot):
    before = shot.read_bytes()
    result = run(shot, "--out", shot)
    assert result.exit_code == 2
    assert "refusing to overwrite" in result.stderr
    assert shot.read_bytes() == before


def test_batch_folder_json_lines(tmp_path):
    for name in ("screenshot_lights.png", "screenshot_arrows.png"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    (tmp_path / "readme.txt").write_text("left out, with a note")
    result = run("batch", tmp_path, "--json", "--quiet")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["status"] for r in rows] == ["solved", "solved"]
    assert all(Path(r["overlay"]).exists() for r in rows)
    assert result.stderr.splitlines()[0] == (
        f"note: left out 1 file(s) that are not images or videos: {tmp_path / 'readme.txt'}"
    )


def _capture_video(tmp_path):
    """8 frames at 4 per second, all the lights screenshot."""
    frame = cv2.imread(str(FIXTURES / "screenshot_lights.png"))
    video = tmp_path / "capture.avi"
    writer = cv2.VideoWriter(
        str(video), cv2.VideoWriter_fourcc(*"MJPG"), 4, (frame.shape[1], frame.shape[0])
    )
    if not writer.isOpened():
        pytest.skip("no video encoder in this OpenCV build")
    for _ in range(8):
        writer.write(frame)
    writer.release()
    return video


def test_batch_reads_a_video_capture(tmp_path):
    video = _capture_video(tmp_path)
    result = run("batch", video, "--json", "--quiet", "--every", "0.5")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 1  # the same board in every frame is solved once
    assert rows[0]["status"] == "solved" and rows[0]["moves"] == 8
    assert (rows[0]["path"], rows[0]["frame"], rows[0]["time"]) == (str(video), 0, 0.0)
    assert rows[0]["last_time"] == 1.5  # frame 6 of 8 at 4 per second, the last one looked at
    assert rows[0]["overlay"] == str(tmp_path / "capture.t00000.0.solved.png")


def test_batch_locates_an_unchanging_video_board_once(tmp_path, monkeypatch):
    from vision_solver.vision import batch

    video = _capture_video(tmp_path)
    read = []

    def counting(image, *args, **kwargs):
        read.append(image.shape)
        return real(image, *args, **kwargs)

    real = batch.read_board
    monkeypatch.setattr(batch, "read_board", counting)
    result = run("batch", video, "--json", "--quiet", "--every", "0.25")
    assert result.exit_code == 0, result.output
    assert len(read) == 1  # the later frames are compared through the same grid


def test_batch_folder_one_row_per_input_exit_2_when_one_is_unreadable(tmp_path, monkeypatch):
    shutil.copy(FIXTURES / "screenshot_lights.png", tmp_path / "shot.png")
    (tmp_path / "notes.png").write_text("not an image")
    (tmp_path / "readme.txt").write_text("not an input: left out")
    monkeypatch.chdir(tmp_path)
    result = run("batch", ".", "--quiet", "--workers", "1")
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    assert lines[:2] == [
        "error            -      -  notes.png  not an image, or truncated",
        "solved         5x5      8  shot.png  shot.solved.png",
    ]
    assert lines[2].startswith("summary: 2 input(s), 1 solved, 0 unsolvable, 0 no-board, 1 error;")
    assert result.stderr == "note: left out 1 file(s) that are not images or videos: readme.txt\n"
    json_rows = [json.loads(line) for line in run("batch", ".", "--json").stdout.splitlines()]
    assert {key: json_rows[0][key] for key in ("path", "status", "error")} == {
        "path": "notes.png",
        "status": "error",
        "error": "notes.png: not an image, or truncated",
    }
    assert len(json_rows) == 2 and json_rows[1]["status"] == "solved"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda tmp: tmp / "nope", "{tmp}/nope: no such file or folder"),
        (lambda tmp: tmp, "no images or videos to read"),
    ],
    ids=["missing path", "empty folder"],
)
def test_batch_with_nothing_to_read_one_error_line_exit_2(tmp_path, make, message):
    result = run("batch", make(tmp_path), "--quiet")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"Error: {message.format(tmp=tmp_path)}\n"


def test_learn_writes_a_look_to_the_models_folder(tmp_path):
    scene = render_board(np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]]), "bevel", seed=3, cell_px=50)
    path = tmp_path / "game.png"
    cv2.imwrite(str(path), scene.image)
    models = tmp_path / "looks"
    result = run("learn", path, "--cells", "101,010,110", "--name", "my game", "--models", models)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"learned look 'my game' (lights read by colours, 3x3): {models / 'my-game.json'}",
        "it reads 9 of 9 cells back",
    ]
    saved = json.loads((models / "my-game.json").read_text())
    assert saved["name"] == "my game" and set(saved["prototypes"]) == {"0", "1"}
    detect = run("detect", path, "--json", "--models", models)
    assert json.loads(detect.stdout)["cells"] == [[1, 0, 1], [0, 1, 0], [1, 1, 0]]


def _chairs_capture(tmp_path):
    """A rendered chairs board under a steep camera."""
    rng = np.random.default_rng(3)
    cells = rng.integers(0, 4, (int(rng.integers(3, 6)), int(rng.integers(3, 7))))
    scene = render_board(cells, "chairs", seed=3, cell_px=int(rng.integers(80, 120)))
    path = tmp_path / "chairs.png"
    cv2.imwrite(str(path), scene.image)
    corners = " ".join(f"{x:.0f},{y:.0f}" for x, y in scene.corners)
    return path, cells, scene.corners, corners


def test_board_placed_by_hand_with_corners_is_read_and_solved(tmp_path):
    path, cells, true_corners, corners = _chairs_capture(tmp_path)
    rows, cols = cells.shape
    size = f"{rows}x{cols}"
    result = run("detect", path, "--puzzle", "moon-legend", "--size", size, "--corners", corners)
    assert result.exit_code == 0, result.output
    result = run(
        "detect", path, "-p", "moon-legend", "--size", size, "--corners", corners, "--json"
    )
    board = json.loads(result.stdout)
    assert (board["rows"], board["cols"]) == (rows, cols)
    pitch = np.linalg.norm(true_corners[1] - true_corners[0]) / cols
    assert np.abs(np.array(board["corners"]) - true_corners).max() < 0.2 * pitch
    assert (np.array(board["cells"]) == cells).sum() >= cells.size - 2


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--corners", "1,2 3,4 5,6"], "expected four x,y points"),
        (["--corners", "10,10 90,10 90,90 10,90"], "needs --size"),
        (["--corners", "10,10 10,90 90,90 90,10", "--size", "2x2"], "clockwise"),
    ],
)
def test_bad_corners_one_error_line(shot, extra, message):
    result = run(shot, *extra)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("Error: ") and message in result.stderr
    assert not (shot.parent / "shot.solved.png").exists()


def _blank(tmp_path):
    path = tmp_path / "blank.png"
    cv2.imwrite(str(path), np.full((200, 300, 3), 90, dtype=np.uint8))
    return path


def test_no_board_found_says_how_to_place_it_by_hand(tmp_path):
    path = _blank(tmp_path)
    result = run(path)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"Error: {path}: no board found (no grid of similar cells found in the image); "
        "--size RxC with --corners places it by hand\n"
    )


def test_learn_with_no_board_found_says_corners_place_it(tmp_path):
    path = _blank(tmp_path)
    result = run("learn", path, "--cells", "01,10", "--name", "x", "--models", tmp_path / "m")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"Error: {path}: no board found (no grid of similar cells found in the image); "
        "--corners places it by hand\n"
    )
    assert not (tmp_path / "m").exists()


def test_cells_read_below_low_confidence_are_listed(shot, monkeypatch):
    from vision_solver.vision import pipeline

    real = pipeline.read_board

    def doubting(*args, **kwargs):
        reading = real(*args, **kwargs)
        reading.confidence[0, 1] = 0.42
        reading.confidence[3, 4] = pipeline.LOW_CONFIDENCE  # not below: not listed
        return reading

    monkeypatch.setattr(pipeline, "read_board", doubting)
    result = run(shot)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:7] == [
        "board (5x5 lights):",
        "11011",
        "10100",
        "01110",
        "00101",
        "11011",
        "low confidence: (1,2) 0.42",
    ]


def test_learn_with_corners_places_the_board_by_hand(tmp_path):
    scene = render_board(np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]]), "bevel", seed=3, cell_px=50)
    path = tmp_path / "game.png"
    cv2.imwrite(str(path), scene.image)
    corners = " ".join(f"{x:.0f},{y:.0f}" for x, y in scene.corners)
    models = tmp_path / "looks"
    result = run(
        "learn",
        path,
        "--cells",
        "101,010,110",
        "--name",
        "hand",
        "--corners",
        corners,
        "--models",
        models,
    )
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"learned look 'hand' (lights read by colours, 3x3): {models / 'hand.json'}\n"
        "it reads 9 of 9 cells back\n"
    )


def test_learn_with_corners_not_clockwise_one_error_line(shot, tmp_path):
    result = run(
        "learn",
        shot,
        "--cells",
        "01,10",
        "--name",
        "x",
        "--models",
        tmp_path / "m",
        "--corners",
        "10,10 10,90 90,90 90,10",
    )
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        "Error: corners must go clockwise round the board from its top-left "
        "(top-left, top-right, bottom-right, bottom-left), as a convex outline\n"
    )
    assert not (tmp_path / "m").exists()


# --- --lit: which shade is on ---------------------------------------------------------------

#: The line under a board whose lit cells lightness alone told.
LIT_BY_LIGHTNESS = "lit: the lighter cells (no colour tells; --lit dark if the darker ones are on)"


def _digits(cells) -> list[str]:
    return ["".join(str(v) for v in row) for row in np.asarray(cells).tolist()]


@pytest.fixture
def black_and_white(tmp_path):
    image, lit = black_and_white_grid()
    path = tmp_path / "bw.png"
    cv2.imwrite(str(path), image)
    return path, lit


def test_detect_black_and_white_grid_says_the_lighter_cells_are_taken_as_lit(black_and_white):
    path, lit = black_and_white
    result = run("detect", path)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:6] == [
        "board (4x4 lights, look generic):",
        *_digits(1 - lit),
        LIT_BY_LIGHTNESS,
    ]
    assert lines[6].startswith("lowest confidence: ") and lines[7].startswith("corners: ")


def test_detect_lit_dark_prints_the_black_and_white_grid_inverted_without_the_lit_line(
    black_and_white,
):
    path, lit = black_and_white
    light = run("detect", path).stdout.splitlines()
    result = run("detect", path, "--lit", "dark")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "board (4x4 lights, look generic):",
        *_digits(lit),
        *light[6:],
    ]


def test_lit_light_given_leaves_out_the_lit_line(black_and_white):
    path, lit = black_and_white
    result = run("detect", path, "--lit", "light")
    assert result.exit_code == 0, result.output
    assert LIT_BY_LIGHTNESS not in result.stdout.splitlines()
    assert result.stdout.splitlines()[1:5] == _digits(1 - lit)


def test_image_of_a_black_and_white_grid_names_the_lit_cells_under_the_board(
    black_and_white, tmp_path
):
    path, lit = black_and_white
    result = run(path, "--out", tmp_path / "o.png")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:7] == [
        "board (4x4 lights):",
        *_digits(1 - lit),
        LIT_BY_LIGHTNESS,
        "clicks:",
    ]
    dark = run(path, "--lit", "dark", "--out", tmp_path / "o.png", "--json")
    assert dark.exit_code == 0, dark.output
    obj = json.loads(dark.stdout)
    assert obj["cells"] == lit.tolist() and obj["lit_by"] == "user"


def test_grid_of_cells_all_alike_says_no_colour_tells_if_they_are_on(tmp_path):
    scene = render_board(np.zeros((4, 4), np.int64), "gridlines", seed=1, cell_px=50)
    path = tmp_path / "blank.png"
    cv2.imwrite(str(path), cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY))
    result = run("detect", path)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:6] == [
        "board (4x4 lights, look generic):",
        *["0000"] * 4,
        "lit: all cells alike; no colour tells if they are on (--lit dark flips them)",
    ]
    obj = json.loads(run("detect", path, "--json").stdout)
    assert obj["lit_by"] == "one-state"
    dark = json.loads(run("detect", path, "--json", "--lit", "dark").stdout)
    assert dark["cells"] == [[1] * 4] * 4 and dark["lit_by"] == "user"


def test_no_lit_line_where_colour_told(shot):
    result = run("detect", shot)
    assert result.exit_code == 0, result.output
    assert not any(line.startswith("lit:") for line in result.stdout.splitlines())


def test_json_carries_what_decided_the_lit_cells(black_and_white, shot):
    path, _ = black_and_white
    assert json.loads(run("detect", path, "--json").stdout)["lit_by"] == "lightness"
    assert json.loads(run("detect", path, "--json", "--lit", "dark").stdout)["lit_by"] == "user"
    assert json.loads(run("detect", shot, "--json").stdout)["lit_by"] == "colour"


def test_batch_lit_dark_reads_every_board_inverted(black_and_white):
    path, lit = black_and_white
    result = run("batch", path, "--json", "--quiet", "--lit", "dark")
    assert result.exit_code == 0, result.output
    (row,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert row["board"]["cells"] == lit.tolist() and row["board"]["lit_by"] == "user"


def test_a_reading_by_a_shipped_look_is_not_inverted_by_lit_dark(tmp_path):
    path = tmp_path / "haiku.png"
    cv2.imwrite(str(path), haiku_board(BLACK_AND_WHITE))
    result = run("detect", path, "--lit", "dark", "--models", tmp_path / "none")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:5] == [
        "board (4x4 lights, look haiku-lights-off):",
        *_digits(BLACK_AND_WHITE),
    ]
    obj = json.loads(run("detect", path, "--lit", "dark", "--json", "--models", tmp_path).stdout)
    assert obj["cells"] == BLACK_AND_WHITE.tolist() and obj["lit_by"] == "look"


def test_lit_takes_light_or_dark_only(shot):
    result = run("detect", shot, "--lit", "bright")
    assert result.exit_code == 2
    assert result.stdout == ""
