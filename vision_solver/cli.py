"""The ``boardsolve`` command: parse, call the library, print.

Library errors become one ``Error: ...`` line on stderr and an exit status
here and nowhere else: 0 solved, 1 unsolvable, 2 bad input.  Image commands
import OpenCV lazily, so ``boardsolve solve`` starts without it.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from .errors import BoardSolveError, Unsolvable
from .rules import PRESETS, Rule

EXIT_SOLVED, EXIT_UNSOLVABLE, EXIT_BAD_INPUT = 0, 1, 2


class _ImageByDefault(TyperGroup):
    """``boardsolve IMAGE ...`` means ``boardsolve image IMAGE ...``."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if (
            args
            and "image" in self.commands
            and args[0] not in self.commands
            and not args[0].startswith("-")
        ):
            args = ["image", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(
    cls=_ImageByDefault,
    help="Read a puzzle board from a screenshot, solve it exactly, draw the answer.\n\n"
    "Example: boardsolve screenshot.png",
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
    add_completion=False,
)


class OutputFormat(StrEnum):
    text = "text"
    list = "list"
    json = "json"


class Puzzle(StrEnum):
    lights_out = "lights-out"
    cross_flip = "cross-flip"
    moon_legend = "moon-legend"


class Pattern(StrEnum):
    plus = "plus"
    rowcol = "rowcol"
    square = "square"
    x = "x"


class Turn(StrEnum):
    cw = "cw"
    ccw = "ccw"
    both = "both"


# Output options shared by every command that prints a result.
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
FormatOption = Annotated[
    OutputFormat,
    typer.Option(
        "--format", "-f", help="text (default), list (click count then row col lines) or json."
    ),
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")]
# Rule options shared by solve and the image commands.
PuzzleOption = Annotated[
    Puzzle | None,
    typer.Option(
        "--puzzle",
        "-p",
        help="Preset game. Default: lights-out, or moon-legend for boards typed as arrows/URDL.",
    ),
]
StatesOption = Annotated[
    int | None, typer.Option("--states", "-m", help="Number of cell states m (Z/m).", min=2)
]
PatternOption = Annotated[Pattern | None, typer.Option("--pattern", help="Cells a click changes.")]
WrapOption = Annotated[bool, typer.Option("--wrap", help="Join opposite edges (torus).")]
TurnOption = Annotated[
    Turn,
    typer.Option(
        "--turn",
        help="cw: a click adds 1; ccw: subtracts 1; both: either, "
        "chosen per cell (negative = counter-clockwise).",
    ),
]
GoalOption = Annotated[int, typer.Option("--goal", help="State every cell must reach.", min=0)]


def _version(value: bool) -> None:
    if value:
        from . import __version__

        typer.echo(f"boardsolve {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Read a puzzle board from a screenshot, solve it exactly, draw the answer.

    Example: boardsolve solve fixtures/lights_out_5x5.txt
    """


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print one ``Error: ...`` line and exit."""
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(code)


def build_rule(
    puzzle: Puzzle | None,
    states: int | None,
    pattern: Pattern | None,
    wrap: bool,
    turn: Turn,
    goal: int,
    default: str = "lights-out",
) -> Rule:
    """The rule from the shared options (a preset, then explicit changes)."""
    name = puzzle.value if puzzle else default
    if puzzle is None and states is not None:
        base_states, base_pattern = states, "plus"
    else:
        base_states, base_pattern, _ = PRESETS[name]
    try:
        return Rule(
            states=states if states is not None else base_states,
            pattern=pattern.value if pattern else base_pattern,
            wrap=wrap,
            turn=turn.value,
            goal=goal,
        )
    except BoardSolveError as exc:
        fail(str(exc))


def _read_text(board: str) -> str:
    if board == "-":
        return sys.stdin.read()
    path = Path(board)
    if not path.exists():
        fail(f"{board}: no such file")
    if path.is_dir():
        fail(f"{board}: is a directory, not a board file")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        fail(f"{board}: not a text file (not UTF-8)")
    except OSError as exc:
        fail(f"{board}: cannot read ({exc.strerror})")


def _chosen_format(json_flag: bool, fmt: OutputFormat) -> OutputFormat:
    return OutputFormat.json if json_flag else fmt


def print_solution(board: Any, solution: Any, notation: str, fmt: OutputFormat) -> None:
    """Print a solved board in the chosen format."""
    from .boardtext import format_grid, format_presses

    if fmt is OutputFormat.json:
        typer.echo(json.dumps(solution.to_dict()))
        return
    if fmt is OutputFormat.list:
        lines = [str(solution.moves)]
        for r, c, count in solution.clicks():
            line = f"{r + 1} {c + 1}" + (" ccw" if count < 0 else "")
            lines.extend([line] * abs(count))
        typer.echo("\n".join(lines))
        return
    typer.echo("board:")
    typer.echo(format_grid(board, notation))
    typer.echo("clicks:")
    typer.echo(format_presses(solution.presses, notation))
    typer.echo(summary_line(solution))


def summary_line(solution: Any) -> str:
    """``7 clicks (optimal), 8 solutions``."""
    clicks = "click" if solution.moves == 1 else "clicks"
    proof = "optimal" if solution.optimal else "best found, not proven optimal"
    count = "solution" if solution.solutions == 1 else "solutions"
    return f"{solution.moves} {clicks} ({proof}), {solution.solutions} {count}"


def print_unsolvable(
    board: Any, rule: Rule, error: Unsolvable, notation: str, fmt: OutputFormat
) -> None:
    from .boardtext import format_grid

    if fmt is OutputFormat.json:
        rows, cols = board.shape
        typer.echo(json.dumps(unsolvable_dict(rows, cols, rule.states)))
        return
    if fmt is OutputFormat.text:
        typer.echo("board:")
        typer.echo(format_grid(board, notation))
    typer.echo(f"Unsolvable: {error.certificate.describe()}")


def unsolvable_dict(rows: int, cols: int, states: int) -> dict[str, Any]:
    return {
        "rows": rows,
        "cols": cols,
        "states": states,
        "solvable": False,
        "presses": None,
        "moves": None,
        "optimal": None,
        "solutions": 0,
    }


@app.command()
def solve(
    board: Annotated[str, typer.Argument(help="Board text file, or - for stdin.")],
    puzzle: PuzzleOption = None,
    states: StatesOption = None,
    pattern: PatternOption = None,
    wrap: WrapOption = False,
    turn: TurnOption = Turn.cw,
    goal: GoalOption = 0,
    json_output: JsonOption = False,
    output_format: FormatOption = OutputFormat.text,
) -> None:
    """Solve a typed board (one row per line, e.g. 10110 or 3 2 0).

    Cells are digits, # and . , + and - , arrows ↑→↓← or letters URDL (one
    character each), or whitespace-separated integers.  Prints the board, the
    clicks and the count; exit 0 solved, 1 unsolvable, 2 bad input.

    Example: boardsolve solve fixtures/moon_legend_2x3.txt --puzzle moon-legend --json
    """
    from .boardtext import parse_board
    from .solve import solve as solve_board

    text = _read_text(board)
    where = "<stdin>" if board == "-" else board
    try:
        parsed = parse_board(text)
    except BoardSolveError as exc:
        fail(f"{where}: {exc}")
    default = "moon-legend" if parsed.notation in ("arrows", "letters") else "lights-out"
    rule = build_rule(puzzle, states, pattern, wrap, turn, goal, default=default)
    if parsed.cells.max() >= rule.states:
        try:  # parse again, bounded, for the exact line and column of the bad value
            parse_board(text, rule.states)
        except BoardSolveError as exc:
            fail(f"{where}: {exc}")
    fmt = _chosen_format(json_output, output_format)
    try:
        solution = solve_board(parsed.cells, rule)
    except Unsolvable as exc:
        print_unsolvable(parsed.cells, rule, exc, parsed.notation, fmt)
        raise typer.Exit(EXIT_UNSOLVABLE) from None
    except BoardSolveError as exc:
        fail(f"{where}: {exc}")
    print_solution(parsed.cells, solution, parsed.notation, fmt)


def main() -> None:
    """Console-script entry point."""
    app()
