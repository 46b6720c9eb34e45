"""boardsolve batch at scale: report file, workers, resume, Ctrl-C, output folders, videos."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest
from synth.video import played_board_video
from typer.testing import CliRunner

from vision_solver.cli import app
from vision_solver.vision import batch
from vision_solver.vision.batch import ROW_FIELDS, BatchOptions, process_input

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def _rows(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def _without_seconds(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


@pytest.fixture
def captures(tmp_path):
    """A folder tree: two boards, an unreadable file and a blank picture, in two folders."""
    root = tmp_path / "captures"
    (root / "day1").mkdir(parents=True)
    (root / "day2").mkdir()
    shutil.copy(FIXTURES / "screenshot_lights.png", root / "day1" / "shot.png")
    shutil.copy(FIXTURES / "screenshot_arrows.png", root / "day2" / "shot.png")
    (root / "day2" / "broken.png").write_text("not a picture")
    cv2.imwrite(str(root / "day1" / "blank.png"), np.full((90, 120, 3), 70, np.uint8))
    return root


def test_report_rows_are_the_printed_rows_in_input_order(captures, tmp_path):
    out, report = tmp_path / "out" / "nested", tmp_path / "report.jsonl"
    result = run("batch", captures, "--out-dir", out, "--report", report, "--json", "--quiet")
    assert result.exit_code == 2  # one input unreadable
    rows = _rows(result.stdout)
    assert _rows(report.read_text()) == rows
    assert [(Path(r["path"]).relative_to(captures).as_posix(), r["status"]) for r in rows] == [
        ("day1/blank.png", "no-board"),
        ("day1/shot.png", "solved"),
        ("day2/broken.png", "error"),
        ("day2/shot.png", "solved"),
    ]
    assert all(list(row) == list(ROW_FIELDS) for row in rows)
    assert (
        rows[0]["error"]
        == f"{rows[0]['path']}: no board found (" + rows[0]["error"].split("no board found (")[1]
    )
    assert [r["overlay"] for r in rows] == [
        None,
        str(out / "day1" / "shot.solved.png"),
        None,
        str(out / "day2" / "shot.solved.png"),
    ]
    assert rows[1]["board"]["cells"][0] == [1, 1, 0, 1, 1] and rows[1]["moves"] == 8
    assert result.stderr.startswith(
        "summary: 4 input(s), 2 solved, 0 unsolvable, 1 no-board, 1 error;"
    )


def test_csv_report_has_a_header_and_json_in_its_list_cells(captures, tmp_path):
    report = tmp_path / "report.csv"
    result = run("batch", captures / "day1", "--report", report, "--quiet")
    assert result.exit_code == 1  # a board not found
    with report.open(newline="") as handle:
        table = list(csv.DictReader(handle))
    assert list(table[0]) == list(ROW_FIELDS)
    assert [row["status"] for row in table] == ["no-board", "solved"]
    assert json.loads(table[1]["board"])["rows"] == 5 and table[1]["moves"] == "8"
    assert table[0]["overlay"] == "" and "no board found" in table[0]["error"]


def test_workers_give_the_rows_and_overlays_of_a_serial_run(captures, tmp_path):
    serial = run("batch", captures, "--out-dir", tmp_path / "one", "--json", "--workers", "1")
    parallel = run("batch", captures, "--out-dir", tmp_path / "two", "--json", "--workers", "2")
    assert serial.exit_code == parallel.exit_code == 2
    rows_one, rows_two = _rows(serial.stdout), _rows(parallel.stdout)
    for row in rows_two:
        if row["overlay"]:
            row["overlay"] = row["overlay"].replace(str(tmp_path / "two"), str(tmp_path / "one"))
    assert _without_seconds(rows_two) == _without_seconds(rows_one)
    for row in rows_one:
        if row["overlay"]:
            twin = Path(row["overlay"].replace(str(tmp_path / "one"), str(tmp_path / "two")))
            assert twin.read_bytes() == Path(row["overlay"]).read_bytes()


def test_resume_skips_the_inputs_in_the_report_and_drops_a_cut_last_line(captures, tmp_path):
    report = tmp_path / "report.jsonl"
    first = run("batch", captures, "--report", report, "--json", "--quiet")
    lines = report.read_text().splitlines(keepends=True)
    report.write_text("".join(lines[:2]) + lines[2][:30])  # stopped while writing row 3
    second = run("batch", captures, "--report", report, "--resume", "--json", "--quiet")
    assert second.exit_code == 2
    assert [r["path"] for r in _rows(second.stdout)] == [r["path"] for r in _rows(first.stdout)[2:]]
    assert _without_seconds(_rows(report.read_text())) == _without_seconds(_rows(first.stdout))
    assert "resume: 2 input(s) already in" in second.stderr


def test_ctrl_c_keeps_the_rows_done_prints_the_summary_and_exits_130(
    captures, tmp_path, monkeypatch
):
    real = batch.process_input
    calls = []

    def interrupted_on_the_third(item, options):
        calls.append(item)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(item, options)

    monkeypatch.setattr(batch, "process_input", interrupted_on_the_third)
    report = tmp_path / "report.jsonl"
    result = run("batch", captures, "--report", report, "--workers", "1", "--quiet")
    assert result.exit_code == 130
    assert len(report.read_text().splitlines()) == 2
    assert result.stderr.startswith(
        "summary: 2 input(s), 1 solved, 0 unsolvable, 1 no-board, 0 error;"
    )
    assert result.stderr.rstrip().endswith("(stopped by Ctrl-C; 2 not read)")
    assert not [p for p in captures.rglob("*") if p.name.endswith(".partial")]


def test_progress_never_reaches_stdout_and_paths_are_whole(tmp_path):
    deep = tmp_path / ("a-long-folder-name-" * 4) / "and-deeper"
    deep.mkdir(parents=True)
    shutil.copy(FIXTURES / "screenshot_lights.png", deep / "shot.png")
    result = run("batch", deep)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == (
        f"solved         5x5      8  {deep / 'shot.png'}  {deep / 'shot.solved.png'}"
    )
    assert "reading boards" not in result.output


def test_out_dir_is_refused_when_a_file_holds_its_name(captures, tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("a file")
    result = run("batch", captures, "--out-dir", taken, "--quiet")
    assert result.exit_code == 2
    assert result.stderr == f"Error: --out-dir {taken}: is a file, not a folder\n"


def test_the_per_input_function_is_plain_path_in_rows_out(tmp_path):
    shot = tmp_path / "shot.png"
    shutil.copy(FIXTURES / "screenshot_lights.png", shot)
    (row,) = process_input(shot, BatchOptions(models=str(tmp_path / "no-looks")))
    assert row["status"] == "solved" and row["overlay"] == str(tmp_path / "shot.solved.png")
    (bad,) = process_input(tmp_path / "nope.png", BatchOptions())
    assert (bad["status"], bad["error"]) == ("error", f"{tmp_path / 'nope.png'}: no such file")


def test_dask_bag_over_the_per_input_function_gives_the_rows_of_workers(captures, tmp_path):
    bag = pytest.importorskip("dask.bag")
    from vision_solver.vision.batch import collect_inputs, plan_inputs

    options = BatchOptions(models=str(tmp_path / "no-looks"))
    inputs = plan_inputs(collect_inputs([captures]).files, tmp_path / "out")
    rows = bag.from_sequence(inputs, npartitions=2).map(process_input, options).flatten()
    computed = rows.compute(scheduler="processes", num_workers=2)
    result = run(
        "batch",
        captures,
        "--out-dir",
        tmp_path / "out",
        "--json",
        "--workers",
        "2",
        "--models",
        tmp_path / "no-looks",
    )
    assert _without_seconds(computed) == _without_seconds(_rows(result.stdout))


# --- videos ---------------------------------------------------------------------------------


@pytest.fixture
def played(tmp_path):
    video = played_board_video(tmp_path / "played.avi", fps=10.0, clicks=3)
    if video is None:
        pytest.skip("no video encoder in this OpenCV build")
    return video


def test_each_board_of_a_played_video_is_solved_once_with_its_first_and_last_time(played):
    result = run("batch", played.path, "--json", "--quiet", "--every", "0.2")
    assert result.exit_code == 0, result.output
    rows = _rows(result.stdout)
    assert [row["board"]["cells"] for row in rows] == [b.tolist() for b in played.boards]
    for row, start in zip(rows, played.starts, strict=True):
        assert start <= row["time"] <= start + 0.5  # every change caught within half a second
    assert [row["last_time"] for row in rows] == [0.8, 1.8, 2.8, 3.8]
    moves = [row["moves"] for row in rows]
    assert moves == [moves[0] - i for i in range(4)]  # each click one fewer to go


def test_video_out_draws_the_answer_while_the_board_stays_and_never_when_it_changed(played):
    written = played.path.with_name("answered.mp4")
    result = run("batch", played.path, "--video-out", written, "--json", "--quiet")
    assert result.exit_code == 0, result.output
    assert not [p.name for p in played.path.parent.iterdir() if ".partial" in p.name]
    source, drawn = cv2.VideoCapture(str(played.path)), cv2.VideoCapture(str(written))
    changed = []
    for _ in range(played.frames):
        ok_a, a = source.read()
        ok_b, b = drawn.read()
        assert ok_a and ok_b
        changed.append(float(np.abs(a.astype(int) - b.astype(int)).mean()) > 3)
    assert not drawn.read()[0]  # as many frames as the capture
    per_board = played.frames // len(played.boards)
    for start in range(0, played.frames, per_board):
        # the first frame of a new board shows no answer (the old one is gone, the new one
        # is read once the picture settled); from the next one on, the answer is drawn
        assert changed[start + 2 : start + per_board] == [True] * (per_board - 2)
        if start:
            assert changed[start] is False


def test_video_out_names_one_file_for_one_video_only(played, tmp_path):
    second = tmp_path / "second.avi"
    shutil.copy(played.path, second)
    result = run("batch", played.path, second, "--video-out", tmp_path / "x.mp4", "--quiet")
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: --video-out {tmp_path / 'x.mp4'}: one file, but there are 2 videos; "
        "give a folder\n"
    )
    folder = tmp_path / "answered"
    result = run("batch", played.path, second, "--video-out", folder, "--quiet", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == ["played.solved.mp4", "second.solved.mp4"]


def test_a_video_with_no_board_gets_a_no_board_row(tmp_path):
    video = tmp_path / "menu.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5, (160, 120))
    if not writer.isOpened():
        pytest.skip("no video encoder in this OpenCV build")
    for shade in range(10):
        writer.write(np.full((120, 160, 3), 60 + shade, np.uint8))
    writer.release()
    result = run("batch", video, "--json", "--quiet")
    assert result.exit_code == 1
    (row,) = _rows(result.stdout)
    assert (row["path"], row["status"], row["overlay"]) == (str(video), "no-board", None)
    assert row["error"].startswith(f"{video}: no board found in any of its 10 frames")


def test_an_unexpected_failure_is_the_row_of_its_input_and_the_rest_are_read(captures, monkeypatch):
    real = batch.read_board

    def failing_on_arrows(image, *args, **kwargs):
        reading = real(image, *args, **kwargs)
        if reading.puzzle == "arrows":
            raise MemoryError
        return reading

    monkeypatch.setattr(batch, "read_board", failing_on_arrows)
    result = run("batch", captures, "--json", "--quiet", "--workers", "1")
    rows = _rows(result.stdout)
    assert [r["status"] for r in rows] == ["no-board", "solved", "error", "error"]
    assert rows[3]["error"] == (
        f"{rows[3]['path']}: out of memory (the input is too large to handle)"
    )
    assert result.exit_code == 2


@pytest.mark.parametrize("look", ["arrow-tiles", "chairs", "flat-dark"])
def test_a_turned_arrow_is_a_change_and_compression_noise_is_not(look):
    from synth import render_board

    from vision_solver.vision.batch import CELL_CHANGE, BoardTracker, cell_change
    from vision_solver.vision.pipeline import read_board

    states = 2 if look == "flat-dark" else 4
    board = np.random.default_rng(4).integers(0, states, (5, 5))
    clicked = board.copy()
    clicked[2, 2] = (clicked[2, 2] + 1) % states  # an arrow turned a quarter: same ink
    placed = {"seed": 4, "cell_px": 60, "canvas": (900, 700), "origin": (150, 100)}
    before = render_board(board, look, **placed).image
    after = render_board(clicked, look, **placed).image
    ok, encoded = cv2.imencode(".jpg", before, [cv2.IMWRITE_JPEG_QUALITY, 75])
    recompressed = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    grid = read_board(before).grid
    px = BoardTracker.CELL_PX
    seen = [grid.rectify(image, cell_px=px, gray=True) for image in (before, after, recompressed)]
    assert cell_change(seen[0], seen[1], 5, 5) > 2 * CELL_CHANGE
    assert cell_change(seen[0], seen[2], 5, 5) < CELL_CHANGE / 2
