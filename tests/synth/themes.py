"""The looks: their names, the puzzle each draws, and the colours of the screen around the board."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .draw import Color, _jitter

LOOKS: dict[str, str] = {
    "flat-dark": "square flat tiles with gaps on a dark background; lit = bright colour, "
    "dark = mid grey",
    "flat-light": "light theme; off = light grey rounded tiles, lit = saturated blue and "
    "slightly larger",
    "bevel": "bevelled 3-D buttons on navy; lit = pale grey button, off = blue button",
    "round": "round buttons on a dark background; lit = glowing green, off = dark green",
    "gridlines": "cells separated by thick black grid lines; lit = a colour (the darker "
    "state), off = white",
    "terminal": "dark terminal screen; lit = gold blocks that merge with lit neighbours, "
    "off = near-black, a dot in every cell, thin grey frame",
    "numbered": "flat tiles showing their index number; lit = purple, off = white",
    "arrow-tiles": "arrows: dark round tiles on dark grey, each with a white chevron",
    "arrow-squares": "arrows: light square tiles, each with a dark filled arrow",
    "chairs": "arrows: wooden benches on perspective grass seen by a tilted camera; a "
    "bench faces the way its sitter looks",
}

_PUZZLE_OF_LOOK: dict[str, str] = {
    "flat-dark": "lights",
    "flat-light": "lights",
    "bevel": "lights",
    "round": "lights",
    "gridlines": "lights",
    "terminal": "lights",
    "numbered": "lights",
    "arrow-tiles": "arrows",
    "arrow-squares": "arrows",
    "chairs": "arrows",
}

_MAX_STATE: dict[str, int] = {"lights": 1, "arrows": 3}


@dataclass(frozen=True)
class _Theme:
    background: Color
    bar: Color
    bar_text: Color
    text: Color
    button: Color
    button_text: Color
    font: int
    button_style: str = "round"  # "round", "box" (outlined, terminal) or "gold" (game HUD)
    panel: Color | None = None  # colour of a panel behind the board, None for none


def _theme(look: str, rng: np.random.Generator) -> _Theme:
    simplex = cv2.FONT_HERSHEY_SIMPLEX
    if look == "flat-dark":
        return _Theme(
            _jitter(rng, (24, 22, 20), 6),
            (48, 46, 44),
            (200, 200, 200),
            (225, 225, 225),
            (70, 68, 66),
            (235, 235, 235),
            simplex,
            panel=_jitter(rng, (34, 32, 30), 4),
        )
    if look == "flat-light":
        return _Theme(
            _jitter(rng, (246, 246, 246), 4),
            (228, 228, 228),
            (60, 60, 60),
            (50, 50, 50),
            (225, 160, 90),
            (255, 255, 255),
            simplex,
        )
    if look == "bevel":
        return _Theme(
            _jitter(rng, (72, 36, 18), 6),
            (120, 110, 105),
            (20, 20, 20),
            (235, 225, 215),
            (150, 140, 135),
            (20, 20, 20),
            cv2.FONT_HERSHEY_DUPLEX,
            panel=_jitter(rng, (90, 48, 26), 5),
        )
    if look == "round":
        return _Theme(
            _jitter(rng, (22, 24, 22), 4),
            (40, 44, 40),
            (150, 220, 150),
            (140, 230, 150),
            (45, 70, 45),
            (200, 255, 200),
            simplex,
        )
    if look == "gridlines":
        return _Theme(
            _jitter(rng, (222, 232, 238), 5),
            (200, 200, 200),
            (30, 30, 30),
            (30, 30, 30),
            (190, 190, 190),
            (20, 20, 20),
            cv2.FONT_HERSHEY_COMPLEX,
        )
    if look == "terminal":
        return _Theme(
            (10, 12, 10),
            (10, 12, 10),
            (60, 200, 80),
            (60, 200, 80),
            (10, 12, 10),
            (60, 200, 80),
            cv2.FONT_HERSHEY_PLAIN,
            button_style="box",
        )
    if look == "numbered":
        return _Theme(
            _jitter(rng, (205, 198, 192), 6),
            (150, 60, 130),
            (255, 255, 255),
            (70, 40, 70),
            (150, 60, 130),
            (255, 255, 255),
            simplex,
            panel=_jitter(rng, (175, 168, 160), 5),
        )
    if look == "arrow-tiles":
        return _Theme(
            _jitter(rng, (52, 52, 52), 5),
            (34, 34, 34),
            (210, 210, 210),
            (230, 230, 230),
            (90, 90, 90),
            (240, 240, 240),
            simplex,
        )
    if look == "arrow-squares":
        return _Theme(
            _jitter(rng, (150, 140, 128), 8),
            (235, 235, 235),
            (40, 40, 40),
            (30, 30, 30),
            (80, 70, 60),
            (245, 245, 245),
            cv2.FONT_HERSHEY_DUPLEX,
            panel=_jitter(rng, (120, 110, 100), 6),
        )
    if look == "chairs":
        return _Theme(
            (60, 120, 70),
            (22, 26, 30),
            (60, 200, 235),
            (70, 215, 245),
            (30, 38, 46),
            (70, 215, 245),
            cv2.FONT_HERSHEY_TRIPLEX,
            button_style="gold",
        )
    raise AssertionError(look)
