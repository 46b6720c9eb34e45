"""The readings of a fixed set of images, recorded so that a change can be checked against them.

``python tests/readings.py record`` reads every capture in ../shared/real and
every seeded renderer scene of ``SCENES`` and writes what was read to
``tests/data/readings.json``; ``test_readings_unchanged.py`` reads them again
and compares (half the scenes, ``CHECKED``, unless ``READINGS=all``).  A reading is
the puzzle kind, the size, the cells, the confidence (to 3 decimals) and the corners
(to 2), or the reason no board was found.  Each scene also keeps a hash of its pixels,
so a change of the renderer is told apart from a change of the reader.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
from synth import LOOKS, PUZZLE_OF_LOOK, random_scene

HERE = Path(__file__).resolve().parent
RECORD = HERE / "data" / "readings.json"

#: (look, seed, tilt) of every recorded renderer scene: each look of the
#: renderer, flat and tilted, at sizes and places its seed draws.
SCENES = [(look, seed, tilt) for look in LOOKS for seed in range(12) for tilt in (0.0, 0.2)]

#: The recorded scenes the test suite reads again by default: each look flat at its even
#: seeds and tilted at its odd ones, half of ``SCENES`` (reading all of them took over half
#: of CI's ten minutes, its 3-D chairs scenes 5 to 13 s each).  ``READINGS=all`` reads all,
#: as a change that is meant to read nothing differently should before it is committed.
CHECKED = [scene for scene in SCENES if scene[1] % 2 == (scene[2] > 0)]


def scene_key(look: str, seed: int, tilt: float) -> str:
    return f"{look}/{seed}/{tilt:.1f}"


def render_scene(look: str, seed: int, tilt: float):
    """The seeded renderer scene of ``SCENES``."""
    return random_scene(seed, puzzle=PUZZLE_OF_LOOK[look], look=look, tilt=tilt)


def pixels_hash(image: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(image).tobytes()).hexdigest()[:16]


def reading_of(image: Any, looks: list) -> dict[str, Any]:
    """What ``read_board`` makes of an image, as plain data."""
    from vision_solver.errors import BoardNotFound
    from vision_solver.vision.pipeline import read_board

    try:
        reading = read_board(image, looks=looks)
    except BoardNotFound as exc:
        return {"not_found": str(exc)}
    return {**reading.to_dict(), "look": reading.look}


def differences(want: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """What differs between two readings: exact but for confidence and corners (rounding)."""
    if "not_found" in want or "not_found" in got:
        return [] if want == got else [f"{want} != {got}"]
    out = [
        f"{key}: {want[key]} != {got[key]}"
        for key in ("puzzle", "look", "rows", "cols", "cells")
        if want[key] != got[key]
    ]
    if out:
        return out
    confidence = np.abs(np.array(want["confidence"]) - np.array(got["confidence"])).max()
    corners = np.abs(np.array(want["corners"]) - np.array(got["corners"])).max()
    # OpenCV picks its SIMD code by the CPU it runs on (this build dispatches up to
    # AVX512_SKX), and rounds otherwise on each: one recorded scene's confidence moved by
    # 0.009 with no cell changed, a later opencv-python 5 build moved another's by 0.0100,
    # and on a machine whose CPU has AVX2 but no AVX-512 (the record was made on another)
    # a 3-D chairs scene's confidence moved by 0.065 and its corners by 0.11 px.  The record
    # allows 0.1 and 0.25 px: a reading that changes shows in its cells, size or look,
    # checked exactly above.
    if confidence > 0.1:
        out.append(f"confidence differs by {confidence:.4f}")
    if corners > 0.25:
        out.append(f"corners differ by {corners:.3f} px")
    return out


def shipped_only() -> list:
    """The shipped looks alone (no user folder)."""
    import tempfile

    from vision_solver.vision.looks import load_looks

    with tempfile.TemporaryDirectory() as empty:
        return load_looks(empty)


def record() -> None:
    from realdata import REAL, real_entries

    looks = shipped_only()
    captures = {}
    for entry in real_entries():
        captures[entry["file"]] = reading_of(REAL / entry["file"], looks)
        print(entry["file"], flush=True)
    scenes = {}
    for look, seed, tilt in SCENES:
        scene = render_scene(look, seed, tilt)
        scenes[scene_key(look, seed, tilt)] = {
            "pixels": pixels_hash(scene.image),
            **reading_of(scene.image, looks),
        }
        print(scene_key(look, seed, tilt), flush=True)
    RECORD.parent.mkdir(exist_ok=True)
    RECORD.write_text(
        json.dumps({"captures": captures, "scenes": scenes}, separators=(",", ":")) + "\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    if sys.argv[1:] != ["record"]:
        sys.exit("usage: python tests/readings.py record")
    record()
