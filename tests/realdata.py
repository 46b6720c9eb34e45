"""Where the real captures live: ../shared/real beside the project root."""

from __future__ import annotations

import json
import os
from pathlib import Path

REAL = Path(__file__).resolve().parents[2] / "shared" / "real"
IN_CI = os.environ.get("CI", "").lower() == "true"

STATE = {"0": 0, "1": 1, "U": 0, "R": 1, "D": 2, "L": 3, "?": -1}


def real_entries(kinds=("lights", "arrows"), captures=("screenshot", "rendered-icon")):
    """Labelled captures (empty when ../shared/real is absent)."""
    if not (REAL / "labels.json").exists():
        return []
    entries = json.loads((REAL / "labels.json").read_text(encoding="utf-8"))
    return [e for e in entries if e["kind"] in kinds and e["capture"] in captures]


def expected_cells(entry):
    return [[STATE[ch] for ch in row] for row in entry["cells"]]
