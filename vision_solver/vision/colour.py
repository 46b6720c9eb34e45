"""Colour measures shared by the stages.

Colours are OpenCV's 8-bit Lab of the BGR image (L scaled to 0..255, a and b
with 128 for grey).  The chroma (a, b) of the two scales is the same.
"""

from __future__ import annotations

import cv2
import numpy as np


def far_from_chroma(lab: np.ndarray, reference: np.ndarray, *, thin: bool = False) -> np.ndarray:
    """0/1 mask of pixels whose chroma is far from ``reference`` (a, b).

    The distance is median-smoothed so that texture speckle (grass) drops out,
    and split by Otsu's threshold.  ``thin`` keeps lines two pixels wide (a
    frame's far side): lighter smoothing, and no opening after.
    """
    lab = lab.astype(np.float32, copy=False)
    da = lab[:, :, 1] - np.float32(reference[0])
    db = lab[:, :, 2] - np.float32(reference[1])
    distance = np.sqrt(da * da + db * db)
    smooth = cv2.medianBlur(np.clip(distance * 4, 0, 255).astype(np.uint8), 3 if thin else 5)
    _, mask = cv2.threshold(smooth, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if thin:
        return mask
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def commonest_chroma(lab: np.ndarray) -> np.ndarray:
    """The median chroma (a, b) of a Lab image: the colour of its backdrop (grass)."""
    h, w = lab.shape[:2]
    sample = lab.reshape(-1, 3)[:: max(1, h * w // 20000)]
    return np.median(sample[:, 1:], axis=0)


def chroma(lab: np.ndarray) -> np.ndarray:
    """How colourful each Lab colour ``(..., 3)`` is: its distance from grey in (a, b)."""
    return np.hypot(lab[..., 1] - 128.0, lab[..., 2] - 128.0)
