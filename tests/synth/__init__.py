"""Synthetic puzzle screenshots with known ground truth.

The renderer draws a board of "Lights Out" cells (lit / dark) or of arrows (up, right, down,
left) in one of several *looks* that imitate how different games draw such boards, optionally
surrounded by unrelated user-interface clutter, warped by a perspective homography (as if the
screen had been photographed) and degraded by blur, JPEG artefacts and pixel noise.  Everything
is drawn procedurally with numpy and OpenCV from a seeded generator, so the same arguments always
give a byte-identical image.

Coordinates follow the OpenCV convention: the centre of pixel ``(x, y)`` sits at the integer
point ``(x, y)``, so a board whose cells cover pixel columns ``x0 .. x0 + w - 1`` has its outer
edge at ``x0 - 0.5`` and ``x0 + w - 0.5``.  ``Rendered.corners`` is given in this convention,
which is also the one ``cv2.warpPerspective`` uses, so corners stay exact under a warp.

``wild_scene(seed, family)`` (``wild.py``) draws a random board in a look made up from ``seed``
in one of the ``ALL_FAMILIES``, so that the reader can be scored on looks it was never tuned on.

This is test support, not part of the installed package: the tests, benchmarks and fixtures
import it as ``synth`` with the repository's ``tests/`` folder on ``sys.path``.
"""

from .scene import Rendered, random_scene, render_board
from .themes import LOOKS, PUZZLE_OF_LOOK
from .wild import ALL_FAMILIES, FAMILIES, PUZZLE_OF_FAMILY, wild_scene

__all__ = [
    "ALL_FAMILIES",
    "FAMILIES",
    "LOOKS",
    "PUZZLE_OF_FAMILY",
    "PUZZLE_OF_LOOK",
    "Rendered",
    "random_scene",
    "render_board",
    "wild_scene",
]
