"""Every real lights/arrows screenshot is read exactly (kind, size, cells), on a grid whose
corners enclose its cells; a look learned from one capture reads another of its game.

The captures live in ../shared/real (not in the project).  Where that folder
is absent, as in a user's clone, these tests skip; under CI=true its absence
is a failure.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from realdata import IN_CI, REAL, expected_cells, real_entries

from vision_solver.vision.geometry import clockwise_convex
from vision_solver.vision.looks import load_looks
from vision_solver.vision.pipeline import read_board

ENTRIES = real_entries()


def test_real_captures_are_present():
    if not (REAL / "labels.json").exists():
        if IN_CI:
            pytest.fail(f"CI needs the real captures at {REAL}")
        pytest.skip(f"no real captures at {REAL}")
    assert len(ENTRIES) >= 20


@pytest.fixture(scope="module")
def shipped_looks(tmp_path_factory):
    # only the looks shipped with the package: no user folder
    return load_looks(tmp_path_factory.mktemp("no-user-looks"))


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_real_capture_is_read_exactly(entry, shipped_looks):
    reading = read_board(REAL / entry["file"], looks=shipped_looks)
    want = np.array(expected_cells(entry))
    assert reading.puzzle == entry["kind"]
    assert (reading.rows, reading.cols) == (entry["rows"], entry["cols"])
    known = want >= 0
    assert reading.cells[known].tolist() == want[known].tolist()
    assert reading.confidence.shape == want.shape
    assert np.all((reading.confidence >= 0) & (reading.confidence <= 1))
    # the corners go clockwise round a convex outline that encloses every cell centre
    corners = reading.grid.corners
    h, w = reading.grid.rows, reading.grid.cols
    centres = reading.grid.centres().reshape(-1, 2)
    assert corners.shape == (4, 2)
    assert centres.shape == (h * w, 2)
    assert clockwise_convex(corners), corners.tolist()
    outline = corners.astype(np.float32).reshape(-1, 1, 2)
    inside = [cv2.pointPolygonTest(outline, (float(x), float(y)), False) for x, y in centres]
    assert all(side > 0 for side in inside), corners.tolist()


def test_learned_look_reads_another_capture_of_the_same_game(tmp_path):
    """boardsolve learn on one Haiku capture reads another one (no shipped look used)."""
    from typer.testing import CliRunner

    from vision_solver.cli import app

    by_file = {e["file"]: e for e in ENTRIES}
    teach = by_file.get("HaikuArchives__LightsOff/4x4.png")
    check = by_file.get("HaikuArchives__LightsOff/7x7.png")
    if teach is None or check is None:
        pytest.skip("Haiku captures not available")
    result = CliRunner().invoke(
        app,
        [
            "learn",
            str(REAL / teach["file"]),
            "--cells",
            ",".join(teach["cells"]),
            "--name",
            "haiku-again",
            "--models",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    learned = [look for look in load_looks(tmp_path) if look.name == "haiku-again"]
    reading = read_board(REAL / check["file"], looks=learned)
    assert reading.look == "haiku-again"
    assert reading.cells.tolist() == expected_cells(check)


def test_learn_a_chair_look_from_the_moon_legend_capture(tmp_path):
    """boardsolve learn on the chair capture makes a bench look that reads it alone."""
    from typer.testing import CliRunner

    from vision_solver.cli import app

    entry = next((e for e in ENTRIES if e["file"].startswith("AlanXue1997__")), None)
    if entry is None:
        pytest.skip("the moon legend capture is not available")
    image = str(REAL / entry["file"])
    cells = ",".join(entry["cells"])
    args = ["learn", image, "--cells", cells, "--name", "my-chairs", "--models", str(tmp_path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "(arrows read by benches, 3x6)" in result.stdout
    assert "it reads 18 of 18 cells back" in result.stdout
    learned = [look for look in load_looks(tmp_path) if look.name == "my-chairs"]
    assert learned[0].object_colour is not None
    reading = read_board(REAL / entry["file"], looks=learned)
    assert reading.look == "my-chairs"
    assert reading.cells.tolist() == expected_cells(entry)


def test_looks_match_only_their_own_game(shipped_looks):
    """Each shipped look is picked for its own game's captures and for no other."""
    own = {"haiku-lights-off": "HaikuArchives__", "moon-legend": "AlanXue1997__"}
    for entry in ENTRIES:
        reading = read_board(REAL / entry["file"], looks=shipped_looks)
        expected = next(
            (name for name, prefix in own.items() if entry["file"].startswith(prefix)), "generic"
        )
        assert reading.look == expected, entry["file"]
