"""Reshaping the reader changes no reading: every recorded image reads as it did.

The record (``tests/data/readings.json``, written by ``python tests/readings.py
record``) holds what the reader made of every capture in ../shared/real and of
240 seeded renderer scenes: puzzle kind, look, size, cells, confidence and
corners, or the reason no board was found.  A change that is meant to read
something differently records again, and says so in its commit.
"""

from __future__ import annotations

import json

import pytest
from readings import (
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


@pytest.mark.parametrize("scene", SCENES, ids=[scene_key(*s) for s in SCENES])
def test_scene_reads_as_recorded(scene, looks):
    want = RECORDED["scenes"][scene_key(*scene)]
    rendered = render_scene(*scene)
    assert pixels_hash(rendered.image) == want["pixels"], "the renderer draws another image"
    got = reading_of(rendered.image, looks)
    assert differences({k: v for k, v in want.items() if k != "pixels"}, got) == []
