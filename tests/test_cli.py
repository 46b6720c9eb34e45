"""The boardsolve command: exit codes and exact output."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from vision_solver.cli import app

runner = CliRunner()


def run(*args, stdin=None):
    return runner.invoke(app, list(args), input=stdin)


def test_solve_moon_legend_text(tmp_path):
    board = tmp_path / "b.txt"
    board.write_text("3 2 0\n1 3 2\n")
    result = run("solve", str(board), "--puzzle", "moon-legend")
    assert result.exit_code == 0
    assert result.stdout == (
        "board:\n3 2 0\n1 3 2\nclicks:\n1 3 1\n1 1 0\n7 clicks (optimal), 8 solutions\n"
    )


def test_solve_cross_flip_list_format():
    result = run(
        "solve", "-", "--puzzle", "cross-flip", "--format", "list", stdin="+++-\n+--+\n+--+\n-+++\n"
    )
    assert result.exit_code == 0
    assert result.stdout == "2\n1 1\n4 4\n"


def test_solve_json_keys_and_values():
    result = run("solve", "-", "--json", stdin="#####\n" * 5)
    assert result.exit_code == 0
    obj = json.loads(result.stdout)
    assert set(obj) == {
        "rows",
        "cols",
        "states",
        "solvable",
        "presses",
        "moves",
        "optimal",
        "solutions",
    }
    assert (obj["rows"], obj["cols"], obj["states"]) == (5, 5, 2)
    assert obj["solvable"] is True
    assert obj["moves"] == 15 == sum(map(sum, obj["presses"]))
    assert obj["solutions"] == 4
    assert obj["optimal"] is True


def test_letters_default_to_moon_legend_and_turn_both():
    result = run("solve", "-", "--json", "--turn", "both", stdin="LDU\nRLD\n")
    assert result.exit_code == 0
    obj = json.loads(result.stdout)
    assert obj["states"] == 4
    assert obj["moves"] == sum(abs(v) for row in obj["presses"] for v in row)
    assert any(v < 0 for row in obj["presses"] for v in row)


def test_list_format_marks_counter_clockwise():
    result = run(
        "solve", "-", "-f", "list", "--turn", "both", "-p", "moon-legend", stdin="3 2 0\n1 3 2\n"
    )
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert int(lines[0]) == len(lines) - 1
    assert any(line.endswith(" ccw") for line in lines[1:])


def test_unsolvable_exit_1_text_and_json():
    board = "10000\n" + "00000\n" * 4
    result = run("solve", "-", stdin=board)
    assert result.exit_code == 1
    assert "Unsolvable: the 12 cells" in result.stdout
    result = run("solve", "-", "--json", stdin=board)
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {
        "rows": 5,
        "cols": 5,
        "states": 2,
        "solvable": False,
        "presses": None,
        "moves": None,
        "optimal": None,
        "solutions": 0,
    }


@pytest.mark.parametrize(
    ("text", "args", "message"),
    [
        ("101\n10\n", (), "Error: <stdin>: line 2: 2 cells, but line 1 has 3\n"),
        (
            "101\n1x1\n",
            (),
            "Error: <stdin>: line 2, column 2: unknown character 'x' "
            "(expected one of 0 1 2 3 4 5 6 7 8 9)\n",
        ),
        (
            "102\n",
            (),
            "Error: <stdin>: line 1, column 3: value 2 is not a state of this "
            "2-state board (0..1)\n",
        ),
        (
            "1 2\n0 4\n",
            ("--states", "4"),
            "Error: <stdin>: line 2, column 3: value 4 is not "
            "a state of this 4-state board (0..3)\n",
        ),
        ("\n\n", (), "Error: <stdin>: the board is empty: no rows\n"),
        ("10\n\n01\n", (), "Error: <stdin>: line 2: empty line inside the board\n"),
    ],
)
def test_bad_input_one_line_exit_2(text, args, message):
    result = run("solve", "-", *args, stdin=text)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == message


def test_missing_file_exit_2(tmp_path):
    result = run("solve", str(tmp_path / "nope.txt"))
    assert result.exit_code == 2
    assert result.stderr == f"Error: {tmp_path / 'nope.txt'}: no such file\n"


def test_every_command_has_help_with_example():
    from typer.main import get_command

    group = get_command(app)
    for name, command in group.commands.items():
        result = run(name, "--help")
        assert result.exit_code == 0, name
        assert "Example: boardsolve" in result.stdout, name
        assert command.help


def test_solve_does_not_import_opencv(tmp_path):
    board = tmp_path / "b.txt"
    board.write_text("11\n10\n")
    code = (
        "import sys\n"
        "from vision_solver.cli import main\n"
        f"sys.argv = ['boardsolve', 'solve', {str(board)!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('cv2' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip().endswith("False")


def test_every_subpackage_of_the_library_is_installed():
    """pyproject's package list names every folder of the library: a plain (not
    editable) install of the reader's subpackages would otherwise lack them."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    listed = set(
        tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    folders = {
        ".".join(path.parent.relative_to(root).parts)
        for path in (root / "vision_solver").rglob("__init__.py")
    }
    assert folders <= listed
