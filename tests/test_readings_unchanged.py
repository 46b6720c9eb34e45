"""Reshaping the reader changes no reading: every recorded image reads as it did.

The record (``tests/data/readings.json``, written by ``python tests/readings.py
record``) holds what the reader made of every capture in ../shared/real and of
240 seeded renderer scenes: puzzle kind, look, size, cells, confidence and
corners, or the reason no board was found.  A change that is meant to read
something differently records again, and says so in its commit.  The suite reads half
the scenes again (``readings.CHECKED``); ``READINGS=all pytest
tests/test_readings_unchanged.py`` reads every one.
"""

from __future__ import annotations

import json
import os

import pytest
from readings import (
    CHECKED,
    RECORD,
    SCENES,
    differences,
    pixels_hash,
    reading_of,
    render_scene,
    scene_key,
    shipped_only,
)
from realdata import REAL, real_entries

RECORDED = json.loads(RECORD.read_text(encoding="utf-8"))
ENTRIES = real_entries()
READ_AGAIN = SCENES if os.environ.get("READINGS") == "all" else CHECKED


@pytest.fixture(scope="module")
def looks():
    return shipped_only()


def test_every_scene_and_capture_is_recorded():
    assert sorted(RECORDED["scenes"]) == sorted(scene_key(*scene) for scene in SCENES)
    if ENTRIES:
        assert sorted(RECORDED["captures"]) == sorted(e["file"] for e in ENTRIES)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_capture_reads_as_recorded(entry, looks):
    want = RECORDED["captures"][entry["file"]]
    assert differences(want, reading_of(REAL / entry["file"], looks)) == []


@pytest.mark.parametrize("scene", READ_AGAIN, ids=[scene_key(*s) for s in READ_AGAIN])
def test_scene_reads_as_recorded(scene, looks):
    want = RECORDED["scenes"][scene_key(*scene)]
    rendered = render_scene(*scene)
    assert pixels_hash(rendered.image) == want["pixels"], "the renderer draws another image"
    got = reading_of(rendered.image, looks)
    assert differences({k: v for k, v in want.items() if k != "pixels"}, got) == []
