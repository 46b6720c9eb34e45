"""The ``boardsolve`` command: parse, call the library, print.

Library errors become one ``Error: ...`` line on stderr and an exit status
here and nowhere else: 0 solved, 1 unsolvable, 2 bad input.  Image commands
import OpenCV lazily, so ``boardsolve solve`` starts without it.
"""

from __future__ import annotations

import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from .boardtext import NOTATIONS
from .errors import BoardInputError, BoardNotFound, BoardSolveError, Unsolvable
from .rules import PRESETS, PuzzleKind, Rule

EXIT_SOLVED, EXIT_UNSOLVABLE, EXIT_BAD_INPUT = 0, 1, 2
#: Exit status after Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130
#: The largest board file ``solve`` reads (a 3000 x 3000 board is 9 MB).
MAX_BOARD_BYTES = 64 * 1024 * 1024


def unexpected_message(exc: BaseException) -> str:
    """One line for an error no check caught (out of memory, a library's own failure)."""
    if isinstance(exc, MemoryError):
        return "out of memory (the input is too large to handle)"
    detail = " ".join(str(exc).split()) or "no details"
    if len(detail) > 200:
        detail = detail[:199] + "…"
    return f"unexpected {type(exc).__name__}: {detail}"


class _ImageByDefault(TyperGroup):
    """``boardsolve IMAGE ...`` means ``boardsolve image IMAGE ...``.

    It is also the last resort for errors nobody expected: one ``Error:``
    line and exit 2, never a traceback (``BOARDSOLVE_DEBUG=1`` shows it).
    """

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            typer.echo("Error: interrupted", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except Exception as exc:  # noqa: BLE001  (the last resort: one line, no traceback)
            # typer's (and click's) own exits and usage errors pass through as they are
            if type(exc).__module__.split(".")[0] in ("typer", "click"):
                raise
            if os.environ.get("BOARDSOLVE_DEBUG"):
                raise
            typer.echo(f"Error: {unexpected_message(exc)}", err=True)
            raise typer.Exit(EXIT_BAD_INPUT) from None

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


class ImagePuzzle(StrEnum):
    auto = "auto"
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


class Lit(StrEnum):
    light = "light"
    dark = "dark"


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


def _read_text(board: str, what: str = "a board file") -> str:
    """A text file's contents (``-``: stdin), or one Error line."""
    from .files import read_regular_file

    if board == "-":
        return sys.stdin.read().removeprefix("\ufeff")
    try:
        data = read_regular_file(board, limit=MAX_BOARD_BYTES, what=what, error=BoardInputError)
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        fail(f"{board}: not a text file (not UTF-8)")
    except BoardInputError as exc:
        fail(str(exc))


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
    typer.echo(solution.summary())


def print_unsolvable(
    board: Any, rule: Rule, error: Unsolvable, notation: str, fmt: OutputFormat
) -> None:
    from .boardtext import format_grid
    from .solve import unsolvable_dict

    if fmt is OutputFormat.json:
        rows, cols = board.shape
        typer.echo(json.dumps(unsolvable_dict(rows, cols, rule.states)))
        return
    if fmt is OutputFormat.text:
        typer.echo("board:")
        typer.echo(format_grid(board, notation))
    typer.echo(f"Unsolvable: {error.certificate.describe()}")


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
    """Solve a board typed as text, one row per line.

    A row is like 10110 or 3 2 0. Cells are digits, # and . , + and - ,
    arrows ↑→↓← or letters URDL (one character each), or whitespace-separated
    integers. Prints the board, the clicks and the count; exit 0 solved,
    1 unsolvable, 2 bad input.

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
    rule = build_rule(puzzle, states, pattern, wrap, turn, goal, default=parsed.kind.preset)
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


# --- image commands (OpenCV is imported inside them) ---------------------------------------

ImagePuzzleOption = Annotated[
    ImagePuzzle,
    typer.Option("--puzzle", "-p", help="Game on the image; auto tells lights from arrows."),
]
SizeOption = Annotated[
    str | None, typer.Option("--size", help="Board size RxC, if detection miscounts (e.g. 5x5).")
]
DebugDirOption = Annotated[
    Path | None,
    typer.Option(
        "--debug-dir",
        help="Write the reader's intermediate pictures into DIR (made if missing): the "
        "candidate grids with their scores, the outline chosen, the rectified board, its "
        "grid, every cell's reading and confidence, and index.json; also when no board is "
        "found.",
    ),
]
CornersOption = Annotated[
    str | None,
    typer.Option(
        "--corners",
        help="The board's outer corners by hand, if it is not found: 'x,y x,y x,y x,y' "
        "(top-left, top-right, bottom-right, bottom-left, image pixels), with the "
        "board's size.",
    ),
]
ModelsOption = Annotated[
    Path | None,
    typer.Option("--models", help="Folder of learned looks (default: the user data folder)."),
]
LitOption = Annotated[
    Lit | None,
    typer.Option(
        "--lit",
        help="Which cells of a lights board are on: light (the default) or dark, for games "
        "whose picture does not tell (a black-and-white grid). dark turns round every "
        "reading by the generic rule, never one by a game look. "
        "Example: boardsolve shot.png --lit dark",
    ),
]
SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", help="Correct a misread cell: row,col=value (1-based; repeatable)."),
]

LETTERS = NOTATIONS["letters"]  # U R D L = 0 1 2 3, as on typed boards


def _parse_corners(text: str | None) -> Any:
    """``"x,y x,y x,y x,y"`` -> a 4 x 2 array of [x, y] points; one Error line otherwise."""
    from .vision.geometry import parse_corners

    if text is None:
        return None
    try:
        return parse_corners(text)
    except BoardSolveError as exc:
        fail(str(exc))


def load_models(models: Path | None) -> Any:
    """The looks, with a warning line for each learned look file left out."""
    from .vision.looks import load_looks

    skipped: list[str] = []
    looks = load_looks(models, skipped)
    for message in skipped:
        typer.echo(f"warning: look skipped: {message}", err=True)
    return looks


def _format_cells(cells: Any, puzzle: PuzzleKind) -> str:
    from .boardtext import format_grid

    return format_grid(cells, "letters" if puzzle == PuzzleKind.arrows else "digits")


def _read(
    image_path: str,
    puzzle: str,
    size: str | None,
    models: Path | None,
    corrections: list[str] | None,
    corners: str | None = None,
    lit: Lit | None = None,
    debug_dir: Path | None = None,
) -> tuple[Any, Any]:
    """Image and board reading, or one Error line; ``debug_dir`` gets the intermediate pictures
    (also when no board is found)."""
    from .vision.imageio import read_image
    from .vision.pipeline import read_as_told

    _check_image_path(image_path)
    points = _parse_corners(corners)
    if points is not None and size is None:
        fail("--corners needs --size RxC too (the board's rows and columns)")
    trace: list[Any] | None = [] if debug_dir is not None else None
    image = None
    try:
        looks = load_models(models)
        image = read_image(image_path)
        reading = read_as_told(
            image,
            image_path,
            puzzle,
            size=size,
            corners=corners,
            settings=corrections,
            lit=(lit or Lit.light).value,
            looks=looks,
            trace=trace,
        )
    except BoardSolveError as exc:
        message = str(exc)
        if isinstance(exc, BoardNotFound) and debug_dir is not None and image is not None:
            _write_debug(debug_dir, image, trace or [], None, image_path, message)
        fail(message)
    if debug_dir is not None:
        _write_debug(debug_dir, image, trace or [], reading, image_path)
    return image, reading


def _write_debug(
    folder: Path, image: Any, trace: list[Any], reading: Any, source: str, error: str | None = None
) -> None:
    """``--debug-dir``: the intermediate pictures, or one Error line."""
    from .vision.debug import write_debug

    try:
        write_debug(folder, image, trace, reading, source=source, error=error)
    except BoardSolveError as exc:
        fail(str(exc))


#: The line under a lights board whose lit cells lightness alone told, by its ``lit_by``
#: (printed unless --lit was given).
LIT_NOTES = {
    "lightness": "lit: the lighter cells (no colour tells; --lit dark if the darker ones are on)",
    "one-state": "lit: all cells alike; no colour tells if they are on (--lit dark flips them)",
}


def _lit_note(reading: Any, lit: Lit | None) -> str | None:
    """Which cells were taken as lit, where only lightness told and --lit was not given."""
    return None if lit is not None else LIT_NOTES.get(reading.lit_by)


def _check_image_path(image_path: str) -> None:
    """One Error line for an input that is missing or a folder, before anything else."""
    source = Path(image_path)
    if source.is_dir():
        fail(f"{image_path}: is a directory, not an image (boardsolve batch reads folders)")
    if not source.exists():
        fail(f"{image_path}: no such file")


def _overlay_path(image_path: str, out: Path | None) -> Path:
    from .vision.imageio import can_write_image

    _check_image_path(image_path)
    source = Path(image_path)
    target = out if out is not None else source.with_name(f"{source.stem}.solved.png")
    if target.exists() and target.resolve() == source.resolve():
        fail(f"{target}: refusing to overwrite the input image")
    if target.is_dir():
        fail(f"{target}: is a directory; --out names the overlay file")
    if not target.parent.exists():
        fail(f"{target.parent}: no such folder for the overlay")
    if not can_write_image(target):
        fail(
            f"{target}: cannot write an image as {target.suffix or 'no extension'!r}; "
            "name it .png, .jpg, .webp, .bmp or .tif"
        )
    return target


@app.command("image")
def image_command(
    image: Annotated[str, typer.Argument(help="Screenshot (PNG, JPEG, GIF first frame, ...).")],
    puzzle: ImagePuzzleOption = ImagePuzzle.auto,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Where to write the overlay (default: <stem>.solved.png beside the input).",
        ),
    ] = None,
    size: SizeOption = None,
    corners: CornersOption = None,
    set_cells: SetOption = None,
    models: ModelsOption = None,
    turn: TurnOption = Turn.cw,
    lit: LitOption = None,
    json_output: JsonOption = False,
    debug_dir: DebugDirOption = None,
) -> None:
    """Read a screenshot, solve the board and draw the answer (the default command).

    Finds the board among the game's UI, reads every cell (lit/dark, or the
    direction of each arrow or chair), solves it with the fewest clicks and
    writes an annotated copy of the image. Exit 0 solved, 1 unsolvable as
    read (the likeliest misreads are named), 2 bad input or no board found.

    Example: boardsolve fixtures/screenshot_lights.png --out answer.png
    """
    from .vision.imageio import write_image
    from .vision.pipeline import rule_for, solve_image

    target = _overlay_path(image, out)
    picture, reading = _read(image, puzzle.value, size, models, set_cells, corners, lit, debug_dir)
    try:
        rule = rule_for(reading, puzzle.value, turn=turn.value)
        answer = solve_image(picture, reading, rule)
        write_image(target, answer.overlay, protect=image)
    except BoardSolveError as exc:
        fail(str(exc))
    if json_output:
        from .solve import misread_dicts

        obj = answer.to_dict()
        if answer.solution is None:
            obj["misreads"] = misread_dicts(answer.suspects)
        obj["overlay"] = str(target)
        typer.echo(json.dumps(obj))
    else:
        _print_image_answer(reading, answer, target, _lit_note(reading, lit))
    if answer.solution is None:
        raise typer.Exit(EXIT_UNSOLVABLE)


def _print_image_answer(reading: Any, answer: Any, target: Path, lit_note: str | None) -> None:
    from .boardtext import format_presses

    look = "" if reading.look == "generic" else f", look {reading.look}"
    typer.echo(f"board ({reading.rows}x{reading.cols} {reading.puzzle}{look}):")
    typer.echo(_format_cells(reading.cells, reading.puzzle))
    if lit_note:
        typer.echo(lit_note)
    doubtful = reading.doubtful()
    if doubtful:
        listed = ", ".join(
            f"({r + 1},{c + 1}) {reading.confidence[r, c]:.2f}" for r, c in doubtful[:10]
        )
        typer.echo(f"low confidence: {listed}")
    if answer.solution is not None:
        typer.echo("clicks:")
        typer.echo(format_presses(answer.solution.presses, "digits"))
        typer.echo(answer.solution.summary())
    else:
        typer.echo(f"Unsolvable as read: {answer.unsolvable.certificate.describe()}")
        for r, c, v in answer.suspects:
            shown = LETTERS[v] if reading.puzzle == PuzzleKind.arrows else str(v)
            typer.echo(
                f"likeliest misread: cell ({r + 1},{c + 1}), confidence "
                f"{reading.confidence[r, c]:.2f}; if it is {shown}, fix with --set "
                f"{r + 1},{c + 1}={shown}"
            )
    typer.echo(f"overlay: {target}")


@app.command()
def detect(
    image: Annotated[str, typer.Argument(help="Screenshot to read.")],
    puzzle: ImagePuzzleOption = ImagePuzzle.auto,
    size: SizeOption = None,
    corners: CornersOption = None,
    models: ModelsOption = None,
    lit: LitOption = None,
    json_output: JsonOption = False,
    debug_dir: DebugDirOption = None,
) -> None:
    """Read the board only: cells, confidence and corners, no solving.

    Example: boardsolve detect fixtures/screenshot_lights.png --json
    """
    _, reading = _read(image, puzzle.value, size, models, None, corners, lit, debug_dir)
    if json_output:
        typer.echo(json.dumps(reading.to_dict()))
        return
    typer.echo(f"board ({reading.rows}x{reading.cols} {reading.puzzle}, look {reading.look}):")
    typer.echo(_format_cells(reading.cells, reading.puzzle))
    note = _lit_note(reading, lit)
    if note:
        typer.echo(note)
    typer.echo(f"lowest confidence: {reading.confidence.min():.2f}")
    corners = " ".join(f"({x:.1f},{y:.1f})" for x, y in reading.grid.corners)
    typer.echo(f"corners: {corners}")


def _make_folder(folder: Path, option: str) -> None:
    """Make ``folder`` (and its parents) for ``option``, or one Error line saying why not."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        fail(f"{option} {folder}: is a file, not a folder")
    except OSError as exc:
        fail(f"{option} {folder}: cannot make the folder ({exc.strerror})")


@app.command()
def batch(
    inputs: Annotated[
        list[str], typer.Argument(help="Images, videos, folders (searched recursively) or globs.")
    ],
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out-dir",
            help="Folder for the overlays, made if missing, with the inputs' folders mirrored "
            "in it (default: beside each input).",
        ),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report",
            help="Write every row to FILE as it comes: .jsonl (one JSON object a line) or .csv.",
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", "-j", help="Processes reading inputs (default: the cores).", min=1
        ),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option("--resume", help="Skip the inputs already in --report and add to it."),
    ] = False,
    every: Annotated[
        float, typer.Option("--every", help="Seconds between video frames looked at.", min=0.01)
    ] = 0.2,
    video_out: Annotated[
        Path | None,
        typer.Option(
            "--video-out",
            help="Write the capture again with the answer drawn on the board while it stays "
            "the same: FILE.mp4 for one video, or a folder (made if missing) for several "
            "(<stem>.solved.mp4 in it).",
        ),
    ] = None,
    puzzle: ImagePuzzleOption = ImagePuzzle.auto,
    models: ModelsOption = None,
    lit: LitOption = None,
    json_output: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print JSON lines: one object per row (per image, per video board), "
            "errors included; the summary goes to stderr.",
        ),
    ] = False,
    quiet: QuietOption = False,
) -> None:
    """Solve every board in folders of screenshots and in video captures.

    Each image gets an overlay <stem>.solved.png; a video gets one overlay per
    distinct board it shows (<stem>.t<seconds>.solved.png).  Every input gets
    a row (status solved, unsolvable, no-board or error), printed as it comes,
    then a summary.  Exit 0 when every board was solved, 1 when some board was
    unsolvable or not found, 2 when some input could not be read, 130 when
    stopped with Ctrl-C (what was done is kept; --resume goes on from there).

    Example: boardsolve batch captures/ gameplay.mp4 --out-dir solved/ --report solved/report.csv
    """
    import time

    from .vision.batch import (
        BatchOptions,
        Report,
        collect_inputs,
        plan_inputs,
        run_inputs,
        with_video_out,
    )

    if resume and report is None:
        fail("--resume needs --report FILE (the report of the batch to go on with)")
    try:
        collected = collect_inputs(inputs, [p for p in (out_dir, report) if p is not None])
    except BoardSolveError as exc:
        fail(str(exc))
    if out_dir is not None:
        _make_folder(out_dir, "--out-dir")
    if collected.left_out:
        shown = ", ".join(str(p) for p in collected.left_out[:5])
        more = f" and {len(collected.left_out) - 5} more" if len(collected.left_out) > 5 else ""
        typer.echo(
            f"note: left out {len(collected.left_out)} file(s) that are not images or videos: "
            f"{shown}{more}",
            err=True,
        )
    load_models(models)  # a warning line for each bad look file, once
    options = BatchOptions(
        puzzle=puzzle.value,
        lit=(lit or Lit.light).value,
        models=None if models is None else str(models),
        every=every,
    )
    try:
        sink = Report(report, resume) if report is not None else None
    except BoardSolveError as exc:
        fail(str(exc))
    items = plan_inputs(collected.files, out_dir)
    if video_out is not None:
        if not any(item.is_video for item in items):
            typer.echo(f"note: --video-out {video_out}: no videos among the inputs", err=True)
        elif not video_out.suffix:
            _make_folder(video_out, "--video-out")
        try:
            items = with_video_out(items, video_out)
        except BoardSolveError as exc:
            fail(str(exc))
    if sink is not None and sink.done:
        skipped = sum(item.path in sink.done for item in items)
        items = [item for item in items if item.path not in sink.done]
        typer.echo(f"resume: {skipped} input(s) already in {report}, skipped", err=True)
    counts = dict.fromkeys(("solved", "unsolvable", "no-board", "error"), 0)
    started = time.perf_counter()
    done = 0
    interrupted = False
    progress = _batch_progress(len(items), quiet)
    if workers is None:  # the cores, but a process only for every two inputs (start-up)
        workers = max(1, min(os.cpu_count() or 1, len(items) // 2))
    results = run_inputs(items, options, workers)
    try:
        for rows in results:
            done += 1
            for row in rows:
                counts[row["status"]] = counts.get(row["status"], 0) + 1
                if sink is not None:
                    sink.write(row)
                typer.echo(json.dumps(row) if json_output else _row_line(row))
            if progress is not None:
                progress.update(progress.task_ids[0], advance=1)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        results.close()
        if progress is not None:
            progress.stop()
        if sink is not None:
            sink.close()
    elapsed = time.perf_counter() - started
    listed = ", ".join(f"{n} {status}" for status, n in counts.items())
    rate = done / elapsed if elapsed > 0 else 0.0
    stopped = f" (stopped by Ctrl-C; {len(items) - done} not read)" if interrupted else ""
    typer.echo(
        f"summary: {done} input(s), {listed}; {elapsed:.1f} s, {rate:.2f} images/s{stopped}",
        err=json_output or interrupted,
    )
    if interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)
    if counts["error"]:
        raise typer.Exit(EXIT_BAD_INPUT)
    if counts["unsolvable"] or counts["no-board"]:
        raise typer.Exit(EXIT_UNSOLVABLE)


def _batch_progress(total: int, quiet: bool) -> Any:
    """A progress bar on stderr, only when stderr is a terminal (never in a pipe or file)."""
    if quiet or not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import Progress

    progress = Progress(console=Console(stderr=True), transient=True)
    progress.add_task("reading boards", total=total)
    progress.start()
    return progress


def _row_line(row: dict[str, Any]) -> str:
    """One batch row as a line of text: status, board, clicks, the full path, the overlay."""
    where = row["path"] if row["time"] is None else f"{row['path']}@{row['time']:.1f}s"
    board = row["board"]
    size = f"{board['rows']}x{board['cols']}" if board else "-"
    clicks = "-" if row["moves"] is None else str(row["moves"])
    tail = row["overlay"] or (row["error"] or "").removeprefix(f"{row['path']}: ")
    return f"{row['status']:<10} {size:>7} {clicks:>6}  {where}  {tail}"


@app.command()
def learn(
    image: Annotated[str, typer.Argument(help="A screenshot of the game, correctly labelled.")],
    cells: Annotated[
        str,
        typer.Option(
            "--cells",
            help="Its cells: rows separated by commas "
            "(e.g. 010,111,010; URDL for arrows) or a board file.",
        ),
    ],
    name: Annotated[str, typer.Option("--name", help="Name of the new look.")],
    corners: CornersOption = None,
    models: ModelsOption = None,
) -> None:
    """Learn a new game look from one screenshot and its correct cells.

    The look (cell colours per state; for arrow boards whether the cells
    carry glyphs or stand benches on grass, and the benches' colour) is saved
    to the user folder (or --models DIR) and used from then on whenever a
    screenshot matches it.  It then reads the screenshot back and says how
    many cells it reads right.

    Example: boardsolve learn mygame.png --cells 0110,1001,1001,0110 --name mygame
    """
    import numpy as np

    from .boardtext import parse_board
    from .vision.imageio import read_image
    from .vision.looks import save_look
    from .vision.pipeline import learn_board

    _check_image_path(image)
    text = (
        _read_text(cells, "a board file").replace("\r", "")
        if Path(cells).exists()
        else cells.replace(",", "\n")
    )
    try:
        parsed = parse_board(text)
    except BoardSolveError as exc:
        fail(f"--cells: {exc}")
    try:
        picture = read_image(image)
    except BoardSolveError as exc:
        fail(str(exc))
    puzzle = parsed.kind
    if puzzle == PuzzleKind.lights and parsed.cells.max() > 1:
        fail("--cells: a lights board holds 0 and 1 only")
    points = _parse_corners(corners)
    try:
        look, read_back = learn_board(picture, parsed.cells, name, puzzle, points)
    except BoardNotFound as exc:
        fail(f"{image}: no board found ({exc}); --corners places it by hand")
    except BoardSolveError as exc:
        fail(str(exc))
    try:
        path = save_look(look, models)
    except BoardSolveError as exc:
        fail(str(exc))
    rows, cols = parsed.cells.shape
    typer.echo(f"learned look {name!r} ({puzzle} read by {look.reader}, {rows}x{cols}): {path}")
    wrong = np.argwhere(read_back != parsed.cells)
    typer.echo(f"it reads {parsed.cells.size - len(wrong)} of {parsed.cells.size} cells back")
    if len(wrong):
        listed = ", ".join(f"({r},{c})" for r, c in wrong[:10].tolist())
        more = f" and {len(wrong) - 10} more" if len(wrong) > 10 else ""
        typer.echo(f"warning: it misreads cells {listed}{more} (row, col from 0)")


@app.command()
def serve(
    host: Annotated[
        str,
        typer.Option(
            "--host", help="Address to listen on; 0.0.0.0 lets a phone on your network in."
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", help="Port to listen on (0: any free one).", min=0, max=65535)
    ] = 8000,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the page in the default browser.")
    ] = False,
    models: ModelsOption = None,
) -> None:
    """Serve a local page to read a screenshot, fix cells with a click and see the answer.

    Drop, paste or choose an image (or take a photo on a phone); click a cell
    to change its reading, drag the board's corners, and the answer redraws.
    Needs the serve extra: pip install '.[serve]' in the project's folder.
    Ctrl-C stops it.

    Example: boardsolve serve --open
    """
    try:
        from .serve.app import LOOPBACK_NAMES, bind, lan_address, make_server
    except ImportError as exc:
        fail(
            f"boardsolve serve needs the serve extra ({exc.name} is missing): "
            "pip install '.[serve]' in the project's folder"
        )
    try:
        sock = bind(host, port)
    except BoardSolveError as exc:
        fail(str(exc))
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{port}/"
    typer.echo(f"boardsolve serve: {url} (Ctrl-C stops it)")
    if host not in ("127.0.0.1", "localhost", "::1"):
        lan = lan_address()
        typer.echo(
            f"warning: listening on {host}, so anyone on your network can use this page"
            + (f"; on a phone: http://{lan}:{port}/" if lan and host in ("0.0.0.0", "::") else "")
        )
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    loopback = host in ("127.0.0.1", "localhost")
    make_server(models, LOOPBACK_NAMES if loopback else None).run(sockets=[sock])


def quiet_native_stderr() -> None:
    """Send what C libraries print on file descriptor 2 to the null device.

    libpng ("PNG input buffer is incomplete"), libjpeg ("Corrupt JPEG data"),
    ffmpeg ("moov atom not found") and OpenCV's log write straight to the
    process's stderr beside our one ``Error:`` line; Python's ``sys.stderr``
    (our lines, progress, warnings) keeps the real stderr on a copy of the
    descriptor.  Child processes (batch workers) inherit the quiet one.
    ``BOARDSOLVE_DEBUG=1`` leaves stderr alone.
    """
    if os.environ.get("BOARDSOLVE_DEBUG"):
        return
    try:
        sys.stderr.flush()
        real = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        os.close(null)
    except (OSError, ValueError, AttributeError):
        return
    encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
    sys.stderr = os.fdopen(real, "w", buffering=1, encoding=encoding, errors="backslashreplace")


def main() -> None:
    """Console-script entry point."""
    quiet_native_stderr()
    try:
        app()
    except KeyboardInterrupt:
        print("Error: interrupted", file=sys.stderr)
        sys.exit(EXIT_INTERRUPTED)
    except Exception as exc:  # noqa: BLE001  (anything the group's handler did not see)
        if os.environ.get("BOARDSOLVE_DEBUG"):
            raise
        print(f"Error: {unexpected_message(exc)}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)
