"""boardsolve serve's JSON API: the CLI's objects and messages, limits before decoding."""

from __future__ import annotations

import json
import re
import socket
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

pytest.importorskip("starlette", reason="the serve extra (starlette) is not installed")
pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2")

from starlette.testclient import TestClient  # noqa: E402

from vision_solver import Rule, apply_presses  # noqa: E402
from vision_solver.cli import app as cli_app  # noqa: E402
from vision_solver.serve.app import create_app  # noqa: E402
from vision_solver.serve.limits import MAX_BYTES  # noqa: E402
from vision_solver.vision.imageio import image_size  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SHOT = FIXTURES / "screenshot_lights.png"
PNG = {"content-type": "image/png"}
runner = CliRunner()


@pytest.fixture
def looks_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "looks"
    folder.mkdir()
    return folder


@pytest.fixture
def client(looks_dir: Path) -> TestClient:
    return TestClient(create_app(looks_dir))


def cli_json(*args: object) -> dict:
    result = runner.invoke(cli_app, [str(a) for a in args])
    return json.loads(result.stdout)


def corners_text(corners: list[list[float]]) -> str:
    return " ".join(f"{x},{y}" for x, y in corners)


def png_header(width: int, height: int) -> bytes:
    """A PNG's signature and IHDR chunk claiming ``width`` x ``height``, and no pixels."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", len(ihdr))
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
    )


def test_read_gives_the_detect_json_object(client: TestClient, looks_dir: Path):
    response = client.post("/api/read", content=SHOT.read_bytes(), headers=PNG)
    assert response.status_code == 200
    assert response.json() == cli_json("detect", SHOT, "--json", "--models", looks_dir)
    assert response.json()["cells"] == [
        [1, 1, 0, 1, 1],
        [1, 0, 1, 0, 0],
        [0, 1, 1, 1, 0],
        [0, 0, 1, 0, 1],
        [1, 1, 0, 1, 1],
    ]


def test_solve_gives_the_solve_json_object_and_follows_a_corrected_cell(
    client: TestClient, tmp_path: Path
):
    cells = client.post("/api/read", content=SHOT.read_bytes(), headers=PNG).json()["cells"]
    board = tmp_path / "board.txt"
    board.write_text("\n".join("".join(map(str, row)) for row in cells) + "\n")
    as_read = client.post("/api/solve", json={"cells": cells, "puzzle": "lights-out"}).json()
    assert as_read == cli_json("solve", board, "--json")
    assert as_read["moves"] == 8 and as_read["solutions"] == 4 and as_read["optimal"]

    # three cells corrected (as one click on the corner would change them: still solvable)
    for r, c in [(0, 0), (0, 1), (1, 0)]:
        cells[r][c] ^= 1
    corrected = client.post("/api/solve", json={"cells": cells, "puzzle": "lights-out"}).json()
    assert corrected["solvable"] and corrected["presses"] != as_read["presses"]
    rule = Rule.preset("lights-out")
    assert not apply_presses(np.array(cells), np.array(corrected["presses"]), rule).any()


def test_solve_names_the_likeliest_misread_of_an_unsolvable_board(client: TestClient):
    cells = client.post("/api/read", content=SHOT.read_bytes(), headers=PNG).json()["cells"]
    cells[2][3] ^= 1
    confidence = np.ones((5, 5))
    confidence[2, 3] = 0.3
    answer = client.post(
        "/api/solve",
        json={"cells": cells, "puzzle": "lights-out", "confidence": confidence.tolist()},
    ).json()
    assert answer["solvable"] is False and answer["presses"] is None
    assert answer["misreads"] == [{"row": 3, "col": 4, "value": cells[2][3] ^ 1}]
    # set by hand, the cell is not suspected
    fixed = client.post(
        "/api/solve",
        json={"cells": cells, "confidence": confidence.tolist(), "fixed": [[2, 3]]},
    ).json()
    assert {"row": 3, "col": 4, "value": cells[2][3] ^ 1} not in fixed["misreads"]


def test_solve_plays_moon_legend_with_four_states(client: TestClient):
    cells = [[3, 2, 0], [1, 3, 2]]  # fixtures/moon_legend_2x3.txt
    answer = client.post("/api/solve", json={"cells": cells, "puzzle": "moon-legend"}).json()
    assert answer["states"] == 4 and answer["solvable"]
    rule = Rule.preset("moon-legend")
    assert not apply_presses(np.array(cells), np.array(answer["presses"]), rule).any()


def test_overlay_is_the_cli_overlay_with_the_same_options(client: TestClient, tmp_path: Path):
    reading = client.post("/api/read", content=SHOT.read_bytes(), headers=PNG).json()
    corners = corners_text(reading["corners"])
    settings = ["1,1=0", "1,2=0", "2,1=0"]  # as a click on the corner would: still solvable
    params = {"size": "5x5", "corners": corners, "set": settings}
    response = client.post("/api/overlay", params=params, content=SHOT.read_bytes(), headers=PNG)
    assert response.status_code == 200 and response.headers["content-type"] == "image/png"
    served = cv2.imdecode(np.frombuffer(response.content, np.uint8), cv2.IMREAD_COLOR)
    out = tmp_path / "answer.png"
    args = ["--size", "5x5", "--corners", corners]
    args += [arg for setting in settings for arg in ("--set", setting)]
    result = runner.invoke(cli_app, [str(SHOT), "--out", str(out), *args])
    assert result.exit_code == 0, result.output
    assert np.array_equal(served, cv2.imread(str(out)))
    assert not np.array_equal(served, cv2.imread(str(SHOT)))


def test_read_with_corners_and_size_places_the_board_by_hand(client: TestClient):
    shot = SHOT.read_bytes()
    params = {"corners": "300,150 580,150 580,430 300,430", "size": "5x5"}
    reading = client.post("/api/read", params=params, content=shot, headers=PNG).json()
    assert (reading["rows"], reading["cols"]) == (5, 5)
    assert np.allclose(reading["corners"], [[300, 150], [580, 150], [580, 430], [300, 430]], atol=3)
    # a size of 4x4 on the same outline reads 16 cells
    params["size"] = "4x4"
    smaller = client.post("/api/read", params=params, content=shot, headers=PNG).json()
    assert np.array(smaller["cells"]).shape == (4, 4)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (
            {"corners": "1,2 3,4 5,6 7,8"},
            "--corners needs --size RxC too (the board's rows and columns)",
        ),
        (
            {"corners": "1,2 3,4", "size": "5x5"},
            "--corners '1,2 3,4': expected four x,y points (top-left, top-right, "
            "bottom-right, bottom-left), e.g. --corners '120,80 520,80 520,480 120,480'",
        ),
        ({"size": "5by5"}, "size must look like 5x5 (rows x cols), not '5by5'"),
        (
            {"puzzle": "chess"},
            "--puzzle 'chess': expected one of auto, lights-out, cross-flip, moon-legend",
        ),
        ({"lit": "dim"}, "--lit 'dim': expected one of light, dark"),
    ],
)
def test_bad_read_options_get_the_cli_sentence(client: TestClient, params: dict, message: str):
    response = client.post("/api/read", params=params, content=SHOT.read_bytes(), headers=PNG)
    assert response.status_code == 400
    assert response.json() == {"error": message}


def test_bad_overlay_setting_gets_the_cli_sentence(client: TestClient):
    params = {"set": "1,1"}
    response = client.post("/api/overlay", params=params, content=SHOT.read_bytes(), headers=PNG)
    assert response.status_code == 400
    assert response.json() == {"error": "--set '1,1': expected row,col=value, e.g. --set 2,3=1"}
    params = {"set": "9,1=1"}
    response = client.post("/api/overlay", params=params, content=SHOT.read_bytes(), headers=PNG)
    assert response.json() == {"error": "--set 9,1: no such cell on a 5x5 board"}


def test_every_bad_upload_kind_gets_its_status_and_message(client: TestClient):
    shot = SHOT.read_bytes()
    cases = [
        (b"", PNG, 400, "upload: empty file"),
        (
            b"not an image at all",
            PNG,
            400,
            "upload: not an image, or truncated"
            " (the server reads PNG, JPEG, GIF, BMP, WebP, TIFF or PNM)",
        ),
        (shot[: len(shot) // 2], PNG, 400, "upload: truncated image file"),
        (
            shot,
            {"content-type": "text/plain"},
            415,
            "upload: content type 'text/plain' is not an image; send the image's bytes as the "
            "body with its type (image/png, image/jpeg, image/gif, image/bmp, image/webp)",
        ),
        (
            shot,
            {"content-type": ""},
            415,
            "upload: content type 'none' is not an image; send the image's bytes as the "
            "body with its type (image/png, image/jpeg, image/gif, image/bmp, image/webp)",
        ),
        (b"\0" * (MAX_BYTES + 1), PNG, 413, "upload: 25.0 MB is over the 25 MB limit"),
        # a header claiming 400 megapixels and no pixels: refused before decoding
        (
            png_header(20000, 20000),
            PNG,
            413,
            "upload: 20000x20000 pixels is over the 50 megapixel limit",
        ),
    ]
    for body, headers, status, message in cases:
        for route in ("/api/read", "/api/overlay", "/api/look?name=x&cells=01,10"):
            response = client.post(route, content=body, headers=headers)
            assert (route, response.status_code, response.json()) == (
                route,
                status,
                {"error": message},
            )


def test_a_picture_without_a_board_says_how_to_place_it(client: TestClient):
    blank = cv2.imencode(".png", np.full((200, 300, 3), 90, np.uint8))[1].tobytes()
    response = client.post("/api/read", content=blank, headers=PNG)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error.startswith("upload: no board found (")
    assert error.endswith("); --size RxC with --corners places it by hand")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "{",
            "request: not valid JSON (Expecting property name enclosed in double quotes: "
            "line 1 column 2 (char 1))",
        ),
        ("[1, 2]", 'request: expected a JSON object with "cells"'),
        ('{"cells": [[1, 0], [1]]}', "board rows must all have the same length"),
        ('{"cells": [[1, 2], [0, 0]]}', "cell (1,2) holds 2, not a state of Z/2 (0..1)"),
        ('{"cells": [["1", "0"]]}', "board cells must be integers, not <U1"),
        ('{"cells": [1, 0]}', "board must be 2-D (rows x cols), not 1-D"),
        (
            '{"cells": [[1]], "puzzle": "go"}',
            "--puzzle 'go': expected one of lights-out, cross-flip, moon-legend",
        ),
        ('{"cells": [[1]], "turn": "left"}', "turn must be one of cw, ccw, both, not 'left'"),
        (
            '{"cells": [[1]], "fixed": [3]}',
            "fixed: expected [row, col] pairs (0-based), e.g. [[0, 2]]",
        ),
        (
            '{"cells": ' + json.dumps(np.zeros((201, 2), int).tolist()) + "}",
            "cells: a board is at most 200x200, not 201x2",
        ),
    ],
)
def test_bad_solve_requests_get_400_and_the_reason(client: TestClient, body: str, message: str):
    response = client.post("/api/solve", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"].startswith(message)


def test_solve_takes_json_only(client: TestClient):
    response = client.post("/api/solve", content=b"10\n01", headers={"content-type": "text/plain"})
    assert response.status_code == 415
    assert response.json() == {
        "error": "content type 'text/plain': /api/solve takes application/json"
    }


def test_saving_a_look_writes_it_to_the_looks_folder_only(
    client: TestClient, looks_dir: Path, tmp_path: Path
):
    shot = SHOT.read_bytes()
    reading = client.post("/api/read", content=shot, headers=PNG).json()
    assert list(looks_dir.iterdir()) == []  # reading writes nothing
    cells = ",".join("".join(map(str, row)) for row in reading["cells"])
    params = {
        "name": "../../evil name",
        "cells": cells,
        "corners": corners_text(reading["corners"]),
    }
    response = client.post("/api/look", params=params, content=shot, headers=PNG)
    assert response.status_code == 200, response.json()
    saved = response.json()
    assert (saved["cells"], saved["read_back"], saved["misread"]) == (25, 25, [])
    assert [p.name for p in looks_dir.iterdir()] == ["------evil-name.json"]
    assert Path(saved["path"]) == looks_dir / "------evil-name.json"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["looks"]
    # the saved look is used by the next read
    again = client.post("/api/read", content=shot, headers=PNG).json()
    assert again["cells"] == reading["cells"]


def test_saving_a_look_needs_a_name_and_cells(client: TestClient):
    shot = SHOT.read_bytes()
    response = client.post("/api/look", params={"cells": "01,10"}, content=shot, headers=PNG)
    assert response.status_code == 400
    assert response.json() == {"error": "--name '': give the look a name of 1 to 60 characters"}
    response = client.post("/api/look", params={"name": "a"}, content=shot, headers=PNG)
    assert response.json() == {"error": "--cells: the board's cells are needed, e.g. 010,111,010"}


def test_the_page_loads_only_its_own_files(client: TestClient):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    texts = [page.text]
    for name, kind in [("/page.js", "text/javascript"), ("/page.css", "text/css")]:
        response = client.get(name)
        assert response.status_code == 200 and response.headers["content-type"].startswith(kind)
        texts.append(response.text)
    # the only address in them is the name of SVG's namespace, which is never fetched
    addresses = re.findall(r"(?:https?:)?//[\w.-]+\.\w+[^\s\"'`)]*", "\n".join(texts))
    assert set(addresses) == {"http://www.w3.org/2000/svg"}


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp", ".webp"])
def test_header_dimensions_reads_width_and_height_without_decoding(suffix: str):
    image = np.zeros((23, 37, 3), np.uint8)
    ok, data = cv2.imencode(suffix, image)
    assert ok
    assert image_size(data.tobytes()) == (37, 23)


def test_header_dimensions_of_a_progressive_jpeg_and_of_junk():
    ok, data = cv2.imencode(
        ".jpg", np.zeros((480, 640, 3), np.uint8), [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]
    )
    assert image_size(data.tobytes()) == (640, 480)
    assert image_size(b"GIF89a" + struct.pack("<HH", 300, 200) + b"\0" * 8) == (300, 200)
    assert image_size(b"\x89PNG\r\n\x1a\n") is None
    assert image_size(b"\xff\xd8\xff") is None
    assert image_size(b"hello") is None


def test_serve_refuses_a_port_in_use_with_one_line():
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    port = busy.getsockname()[1]
    try:
        result = runner.invoke(cli_app, ["serve", "--port", str(port)])
    finally:
        busy.close()
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: cannot listen on 127.0.0.1:{port} (")
    assert result.output.endswith("); --port picks another\n")


class FakeServer:
    """Stands in for uvicorn: records the socket it was given instead of serving."""

    def __init__(self) -> None:
        self.sockets: list[socket.socket] = []

    def run(self, sockets: list[socket.socket]) -> None:
        self.sockets = sockets
        for sock in sockets:
            sock.close()


@pytest.mark.parametrize(
    ("host", "lines"),
    [
        ("127.0.0.1", ["boardsolve serve: http://127.0.0.1:{port}/ (Ctrl-C stops it)"]),
        (
            "0.0.0.0",
            [
                "boardsolve serve: http://127.0.0.1:{port}/ (Ctrl-C stops it)",
                "warning: listening on 0.0.0.0, so anyone on your network can use this page{lan}",
            ],
        ),
    ],
)
def test_serve_prints_its_address_and_warns_off_loopback(monkeypatch, host: str, lines: list):
    from vision_solver.serve import app as serve_app

    fake = FakeServer()
    monkeypatch.setattr(serve_app, "make_server", lambda models=None, allowed_hosts=None: fake)
    result = runner.invoke(cli_app, ["serve", "--host", host, "--port", "0"])
    assert result.exit_code == 0, result.output
    port = int(re.search(r"127\.0\.0\.1:(\d+)/", result.output)[1])  # the free port given
    assert port > 0
    lan = serve_app.lan_address()
    shown = f"; on a phone: http://{lan}:{port}/" if lan else ""
    assert result.output.splitlines() == [line.format(port=port, lan=shown) for line in lines]
    assert len(fake.sockets) == 1


def test_the_page_files_are_package_data():
    """A plain (not editable) install ships the page: pyproject's package data names it."""
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parents[1]
    config = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = config["package-data"]["vision_solver.serve"]
    for name in ("index.html", "page.js", "page.css"):
        assert (root / "vision_solver" / "serve" / name).is_file()
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name


def test_a_loopback_server_refuses_other_host_names(looks_dir: Path):
    """A site whose name was pointed at 127.0.0.1 (DNS rebinding) gets no answer."""
    app = create_app(looks_dir, allowed_hosts=["127.0.0.1", "localhost"])
    assert TestClient(app, base_url="http://127.0.0.1:8000").get("/api/about").status_code == 200
    assert TestClient(app, base_url="http://localhost:8000").get("/").status_code == 200
    evil = TestClient(app, base_url="http://rebound.example:8000")
    shot = SHOT.read_bytes()
    assert evil.post("/api/look?name=x&cells=01,10", content=shot, headers=PNG).status_code == 400
    assert list(looks_dir.iterdir()) == []


def test_cell_settings_parse_as_the_cli_takes_them():
    from vision_solver.boardtext import parse_cell_settings
    from vision_solver.errors import BoardInputError

    assert parse_cell_settings(["2,3=1", "1,1=r", "4,2= L"]) == [(1, 2, 1), (0, 0, 1), (3, 1, 3)]
    for bad in ["1,1=", "1,1=UR", "1=1", "a,b=1"]:
        with pytest.raises(BoardInputError) as error:
            parse_cell_settings([bad])
        assert str(error.value) == f"--set {bad!r}: expected row,col=value, e.g. --set 2,3=1"


def test_serve_without_the_extra_says_how_to_install_it(monkeypatch):
    import sys

    monkeypatch.delitem(sys.modules, "vision_solver.serve.app")
    monkeypatch.setitem(sys.modules, "starlette.applications", None)
    result = runner.invoke(cli_app, ["serve", "--port", "0"])
    assert result.exit_code == 2
    assert result.output == (
        "Error: boardsolve serve needs the serve extra (starlette.applications is missing): "
        "pip install '.[serve]' in the project's folder\n"
    )
