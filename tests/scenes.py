"""What the image-stage tests share about synthetic scenes (see ``synth``)."""

from __future__ import annotations

import numpy as np
from synth import LOOKS

#: The renderer's looks that the reader takes in without a learned look: all
#: but "bevel" (read backwards by the rule alone) and "chairs" (3-D benches).
GENERIC_LOOKS = [look for look in LOOKS if look not in ("bevel", "chairs")]


def pitch(scene) -> float:
    """A scene's cell width (pixels) along the top edge of its board."""
    return float(np.linalg.norm(scene.corners[1] - scene.corners[0]) / scene.cells.shape[1])
