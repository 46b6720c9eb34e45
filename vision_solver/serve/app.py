"""The web application of ``boardsolve serve``: the page and its JSON API.

Routes (the image is the raw request body, ``Content-Type: image/png`` etc.;
the other options are query parameters spelled as the CLI's options):

- ``GET /``: the correction page (``index.html``, ``page.js``, ``page.css`` beside this module).
- ``GET /api/about``: the limits and choices the page needs.
- ``POST /api/read?puzzle=&size=&corners=&lit=``: the ``boardsolve detect --json`` object.
- ``POST /api/solve`` (JSON ``{"cells", "puzzle", "turn", "confidence", "fixed"}``):
  the ``boardsolve solve --json`` object (with ``misreads`` when unsolvable and
  ``confidence`` was given).
- ``POST /api/overlay?puzzle=&size=&corners=&lit=&set=&turn=``: the overlay PNG
  that ``boardsolve IMAGE`` with those options writes.
- ``POST /api/look?name=&cells=&corners=``: learn a look, as ``boardsolve learn``
  does, and save it to the server's looks folder.

Errors are ``{"error": "<the sentence the CLI prints after Error: >"}`` with
status 400 (bad input), 413 (over ``limits.MAX_BYTES`` or ``limits.MAX_PIXELS``,
checked before decoding), 415 (not an image content type) or 422 (no board
found).  The server writes nothing except a look the user saves, and never
reads a path the client names.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import BoardInputError, BoardNotFound, BoardSolveError
from ..rules import PRESETS, Rule
from .limits import MAX_BYTES, MAX_PIXELS, UploadTooLarge, check_upload

#: The name uploads go by in messages (the client's file name is never used).
UPLOAD = "upload"
#: Largest board /api/solve takes, as ``--size`` does.
MAX_SIDE = 200
#: Boards up to this many cells are solved in the server's own loop (mostly a few ms; the
#: misread search of an unsolvable one up to ~150 ms); larger ones in a thread, so that a
#: slow solve holds up no other request.
SOLVE_INLINE_CELLS = 20 * 20
#: Image reads at once; the others wait without holding a thread or their decoded pixels.
READ_SLOTS = max(1, min(4, os.cpu_count() or 1))
IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/bmp", "image/webp")
PUZZLES = ("auto", *PRESETS)
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/page.js": ("page.js", "text/javascript; charset=utf-8"),
    "/page.css": ("page.css", "text/css; charset=utf-8"),
}
#: Nothing from elsewhere: the page loads only its own files and the user's image.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' blob: data:; "
    "style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


class UnsupportedType(BoardSolveError):
    """A request body whose content type the route does not take (HTTP 415)."""


STATUS: list[tuple[type[BaseException], int]] = [
    (UploadTooLarge, 413),
    (UnsupportedType, 415),
    (BoardNotFound, 422),
    (BoardSolveError, 400),
]


def _error(exc: BoardSolveError) -> JSONResponse:
    status = next(code for kind, code in STATUS if isinstance(exc, kind))
    return JSONResponse({"error": str(exc)}, status_code=status, headers=SECURITY_HEADERS)


def _api(
    handler: Callable[[Request], Awaitable[Response | dict[str, Any]]],
) -> Callable[[Request], Awaitable[Response]]:
    """A route whose library errors become ``{"error": ...}`` with their status."""

    async def route(request: Request) -> Response:
        try:
            result = await handler(request)
        except BoardSolveError as exc:
            return _error(exc)
        if isinstance(result, Response):
            return result
        return JSONResponse(result, headers=SECURITY_HEADERS)

    return route


async def _body(request: Request, what: str = UPLOAD) -> bytes:
    """The request body, refused past ``MAX_BYTES`` before it is all received."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BYTES:
        raise UploadTooLarge(
            f"{what}: {int(declared) / 1e6:.1f} MB is over the {MAX_BYTES // 1_000_000} MB limit"
        )
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BYTES:
            raise UploadTooLarge(
                f"{what}: more than {MAX_BYTES // 1_000_000} MB, over the "
                f"{MAX_BYTES // 1_000_000} MB limit"
            )
        chunks.append(chunk)
    return b"".join(chunks)


async def _image_body(request: Request) -> bytes:
    """An uploaded image's bytes, after the content type, byte and pixel checks."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if not kind.startswith("image/"):
        raise UnsupportedType(
            f"{UPLOAD}: content type {kind or 'none'!r} is not an image; send the image's "
            f"bytes as the body with its type ({', '.join(IMAGE_TYPES)})"
        )
    data = await _body(request)
    check_upload(data, UPLOAD)
    return data


def _option(request: Request, name: str, choices: tuple[str, ...] | None = None) -> str | None:
    """A query parameter (None when absent or empty), checked against ``choices``."""
    value = request.query_params.get(name) or None
    if value is not None and choices is not None and value not in choices:
        raise BoardInputError(f"--{name} {value!r}: expected one of {', '.join(choices)}")
    return value


class Api:
    """The routes, sharing the looks folder and the read slots."""

    def __init__(self, models: Path | None = None):
        self.models = models
        self.read_slots = asyncio.Semaphore(READ_SLOTS)

    def _looks(self) -> list[Any]:
        from ..vision.looks import load_looks

        return load_looks(self.models)

    async def _read(self, request: Request, work: Callable[[np.ndarray], Any]) -> Any:
        """Decode the uploaded image and run ``work`` on it, a few uploads at a time."""
        data = await _image_body(request)
        async with self.read_slots:

            def decode_and_work() -> Any:
                from ..vision.imageio import decode_image

                return work(decode_image(data, UPLOAD))

            return await run_in_threadpool(decode_and_work)

    def _read_options(self, request: Request) -> dict[str, Any]:
        return {
            "puzzle": _option(request, "puzzle", PUZZLES) or "auto",
            "size": _option(request, "size"),
            "corners": _option(request, "corners"),
            "lit": _option(request, "lit", ("light", "dark")),
        }

    async def about(self, request: Request) -> dict[str, Any]:
        from .. import __version__
        from ..vision.overlay import LOW_CONFIDENCE

        return {
            "version": __version__,
            "max_bytes": MAX_BYTES,
            "max_pixels": MAX_PIXELS,
            "low_confidence": LOW_CONFIDENCE,
            "puzzles": list(PUZZLES),
            "image_types": list(IMAGE_TYPES),
        }

    async def read(self, request: Request) -> dict[str, Any]:
        from ..vision.pipeline import read_as_told

        options = self._read_options(request)
        looks = self._looks()

        def work(image: np.ndarray) -> dict[str, Any]:
            return read_as_told(image, UPLOAD, looks=looks, **options).to_dict()

        return await self._read(request, work)

    async def solve(self, request: Request) -> dict[str, Any]:
        from ..solve import answer_dict

        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise UnsupportedType(
                f"content type {kind or 'none'!r}: /api/solve takes application/json"
            )
        try:
            query = json.loads(await _body(request, "request"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise BoardInputError(f"request: not valid JSON ({exc})") from None
        if not isinstance(query, dict) or "cells" not in query:
            raise BoardInputError('request: expected a JSON object with "cells"')
        cells = query["cells"]
        puzzle = query.get("puzzle") or "lights-out"
        if puzzle not in PRESETS:
            raise BoardInputError(f"--puzzle {puzzle!r}: expected one of {', '.join(PRESETS)}")
        rule = Rule.preset(puzzle, turn=query.get("turn") or "cw")
        try:
            shape = np.shape(cells)
        except ValueError:  # ragged rows: the solver names them
            shape = ()
        if len(shape) == 2 and max(shape) > MAX_SIDE:
            raise BoardInputError(
                f"cells: a board is at most {MAX_SIDE}x{MAX_SIDE}, not {shape[0]}x{shape[1]}"
            )
        try:
            fixed = [(int(r), int(c)) for r, c in query.get("fixed") or []]
        except (TypeError, ValueError):
            raise BoardInputError(
                "fixed: expected [row, col] pairs (0-based), e.g. [[0, 2]]"
            ) from None
        confidence = query.get("confidence")
        if confidence is not None:
            try:
                confidence = np.asarray(confidence, dtype=np.float64)
            except (TypeError, ValueError):
                raise BoardInputError("confidence: expected rows of numbers") from None

        def work() -> dict[str, Any]:
            return answer_dict(cells, rule, confidence=confidence, fixed=fixed)

        if len(shape) == 2 and shape[0] * shape[1] <= SOLVE_INLINE_CELLS:
            return work()  # milliseconds: no hand-over to a thread, which waits on the reads
        return await run_in_threadpool(work)

    async def overlay(self, request: Request) -> Response:
        from ..vision.imageio import encode_image
        from ..vision.pipeline import read_as_told, rule_for, solve_image

        options = self._read_options(request)
        settings = request.query_params.getlist("set")
        turn = _option(request, "turn", ("cw", "ccw", "both")) or "cw"
        looks = self._looks()

        def work(image: np.ndarray) -> bytes:
            reading = read_as_told(image, UPLOAD, looks=looks, settings=settings, **options)
            answer = solve_image(image, reading, rule_for(reading, options["puzzle"], turn=turn))
            return encode_image(answer.overlay, ".png", UPLOAD)

        png = await self._read(request, work)
        return Response(png, media_type="image/png", headers=SECURITY_HEADERS)

    async def look(self, request: Request) -> dict[str, Any]:
        from ..boardtext import parse_board
        from ..rules import PuzzleKind
        from ..vision.geometry import parse_corners
        from ..vision.looks import save_look
        from ..vision.pipeline import learn_board

        name = (_option(request, "name") or "").strip()
        if not name or len(name) > 60:
            raise BoardInputError(f"--name {name!r}: give the look a name of 1 to 60 characters")
        cells_text = _option(request, "cells")
        if cells_text is None:
            raise BoardInputError("--cells: the board's cells are needed, e.g. 010,111,010")
        parsed = parse_board(cells_text.replace(",", "\n"))
        if parsed.kind == PuzzleKind.lights and parsed.cells.max() > 1:
            raise BoardInputError("--cells: a lights board holds 0 and 1 only")
        corners_text = _option(request, "corners")
        points = parse_corners(corners_text) if corners_text is not None else None

        def work(image: np.ndarray) -> tuple[Any, np.ndarray]:
            try:
                return learn_board(image, parsed.cells, name, parsed.kind, points)
            except BoardNotFound as exc:
                raise BoardNotFound(
                    f"{UPLOAD}: no board found ({exc}); --corners places it by hand"
                ) from None

        look, read_back = await self._read(request, work)
        path = save_look(look, self.models)
        wrong = np.argwhere(read_back != parsed.cells)
        return {
            "name": name,
            "puzzle": parsed.kind,
            "reader": look.reader,
            "path": str(path),
            "cells": int(parsed.cells.size),
            "read_back": int(parsed.cells.size - len(wrong)),
            "misread": [[int(r) + 1, int(c) + 1] for r, c in wrong.tolist()],
        }


def _static(filename: str, media_type: str) -> Callable[[Request], Awaitable[Response]]:
    async def page(request: Request) -> Response:
        text = resources.files("vision_solver.serve").joinpath(filename).read_bytes()
        return Response(text, media_type=media_type, headers=SECURITY_HEADERS)

    return page


#: The names a server on the loopback interface answers to: a page of another site whose
#: name was made to point at 127.0.0.1 (DNS rebinding) is refused.
LOOPBACK_NAMES = ["127.0.0.1", "localhost"]


def create_app(models: Path | None = None, allowed_hosts: list[str] | None = None) -> Starlette:
    """The page and the API; learned looks are loaded from and saved to ``models``
    (default: the user's looks folder, as ``boardsolve learn``).  With ``allowed_hosts``,
    a request naming another host (its ``Host`` header) is refused."""
    api = Api(models)
    routes = [Route(path, _static(*file), methods=["GET"]) for path, file in STATIC.items()]
    routes += [
        Route("/api/about", _api(api.about), methods=["GET"]),
        Route("/api/read", _api(api.read), methods=["POST"]),
        Route("/api/solve", _api(api.solve), methods=["POST"]),
        Route("/api/overlay", _api(api.overlay), methods=["POST"]),
        Route("/api/look", _api(api.look), methods=["POST"]),
    ]
    middleware = []
    if allowed_hosts is not None:
        from starlette.middleware import Middleware
        from starlette.middleware.trustedhost import TrustedHostMiddleware

        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    return Starlette(routes=routes, middleware=middleware)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: any free port), or BoardInputError."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise BoardInputError(
            f"cannot listen on {host}:{port} ({exc.strerror}); --port picks another"
        ) from None
    sock.set_inheritable(True)
    return sock


def lan_address() -> str | None:
    """This machine's address on its local network (no packet is sent), or None."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()


def make_server(models: Path | None = None, allowed_hosts: list[str] | None = None) -> Any:
    """A uvicorn server of ``create_app(models, allowed_hosts)``: run it with
    ``.run(sockets=[bind(...)])``."""
    import uvicorn

    app = create_app(models, allowed_hosts)
    config = uvicorn.Config(app, log_level="warning", lifespan="off")
    return uvicorn.Server(config)
