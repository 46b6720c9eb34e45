"""The looks: their names, the puzzle each draws, and the colours of the screen around the board."""

from __future__ import annotations

from dataclasses import dataclass, replace

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

PUZZLE_OF_LOOK: dict[str, str] = {
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
    """The colours and font of the screen around a board (BGR colours).

    ``_THEMES`` holds one per look; ``_theme`` draws a screenshot's own copy from it, with the
    background and the panel moved by up to their ``*_jitter`` per channel (0: kept as is).
    """

    background: Color
    bar: Color  # menu bar along the top edge
    bar_text: Color
    text: Color  # title and score line
    button: Color
    button_text: Color
    font: int
    button_style: str = "round"  # "round", "box" (outlined, terminal) or "gold" (game HUD)
    panel: Color | None = None  # colour of a panel behind the board, None for none
    background_jitter: int = 0
    panel_jitter: int = 0


_THEMES: dict[str, _Theme] = {
    "flat-dark": _Theme(
        background=(24, 22, 20),
        background_jitter=6,
        bar=(48, 46, 44),
        bar_text=(200, 200, 200),
        text=(225, 225, 225),
        button=(70, 68, 66),
        button_text=(235, 235, 235),
        font=cv2.FONT_HERSHEY_SIMPLEX,
        panel=(34, 32, 30),
        panel_jitter=4,
    ),
    "flat-light": _Theme(
        background=(246, 246, 246),
        background_jitter=4,
        bar=(228, 228, 228),
        bar_text=(60, 60, 60),
        text=(50, 50, 50),
        button=(225, 160, 90),
        button_text=(255, 255, 255),
        font=cv2.FONT_HERSHEY_SIMPLEX,
    ),
    "bevel": _Theme(
        background=(72, 36, 18),
        background_jitter=6,
        bar=(120, 110, 105),
        bar_text=(20, 20, 20),
        text=(235, 225, 215),
        button=(150, 140, 135),
        button_text=(20, 20, 20),
        font=cv2.FONT_HERSHEY_DUPLEX,
        panel=(90, 48, 26),
        panel_jitter=5,
    ),
    "round": _Theme(
        background=(22, 24, 22),
        background_jitter=4,
        bar=(40, 44, 40),
        bar_text=(150, 220, 150),
        text=(140, 230, 150),
        button=(45, 70, 45),
        button_text=(200, 255, 200),
        font=cv2.FONT_HERSHEY_SIMPLEX,
    ),
    "gridlines": _Theme(
        background=(222, 232, 238),
        background_jitter=5,
        bar=(200, 200, 200),
        bar_text=(30, 30, 30),
        text=(30, 30, 30),
        button=(190, 190, 190),
        button_text=(20, 20, 20),
        font=cv2.FONT_HERSHEY_COMPLEX,
    ),
    "terminal": _Theme(
        background=(10, 12, 10),
        bar=(10, 12, 10),
        bar_text=(60, 200, 80),
        text=(60, 200, 80),
        button=(10, 12, 10),
        button_text=(60, 200, 80),
        font=cv2.FONT_HERSHEY_PLAIN,
        button_style="box",
    ),
    "numbered": _Theme(
        background=(205, 198, 192),
        background_jitter=6,
        bar=(150, 60, 130),
        bar_text=(255, 255, 255),
        text=(70, 40, 70),
        button=(150, 60, 130),
        button_text=(255, 255, 255),
        font=cv2.FONT_HERSHEY_SIMPLEX,
        panel=(175, 168, 160),
        panel_jitter=5,
    ),
    "arrow-tiles": _Theme(
        background=(52, 52, 52),
        background_jitter=5,
        bar=(34, 34, 34),
        bar_text=(210, 210, 210),
        text=(230, 230, 230),
        button=(90, 90, 90),
        button_text=(240, 240, 240),
        font=cv2.FONT_HERSHEY_SIMPLEX,
    ),
    "arrow-squares": _Theme(
        background=(150, 140, 128),
        background_jitter=8,
        bar=(235, 235, 235),
        bar_text=(40, 40, 40),
        text=(30, 30, 30),
        button=(80, 70, 60),
        button_text=(245, 245, 245),
        font=cv2.FONT_HERSHEY_DUPLEX,
        panel=(120, 110, 100),
        panel_jitter=6,
    ),
    "chairs": _Theme(
        background=(60, 120, 70),
        bar=(22, 26, 30),
        bar_text=(60, 200, 235),
        text=(70, 215, 245),
        button=(30, 38, 46),
        button_text=(70, 215, 245),
        font=cv2.FONT_HERSHEY_TRIPLEX,
        button_style="gold",
    ),
}


def _theme(look: str, rng: np.random.Generator) -> _Theme:
    """``look``'s theme for one screenshot: its background drawn first, then its panel."""
    base = _THEMES[look]
    background, panel = base.background, base.panel
    if base.background_jitter:
        background = _jitter(rng, background, base.background_jitter)
    if panel is not None and base.panel_jitter:
        panel = _jitter(rng, panel, base.panel_jitter)
    return replace(base, background=background, panel=panel)
