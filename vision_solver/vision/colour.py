"""The reader's one colour scale, and the colour measures the stages share.

Every colour the reader measures, keeps or compares is CIE L*a*b*: L* from
0 (black) to 100 (white), a* and b* as OpenCV stores them in 8 bits, 128
for grey (so a distance between two colours is the CIE 1976 colour
difference, Delta E, in whichever units the colours are written).  Images are
*processed* in OpenCV's 8-bit Lab for speed (masks, gradients, integral
sums), where L* is stored scaled to 0..255; a colour read off such an image
goes through ``on_scale`` before it is compared with anything.

One idea has one threshold: two colours nearer than ``SAME_COLOUR`` are one
colour (a state's cells, a tile and the row beside it, a board and its
surround).
"""

from __future__ import annotations

import cv2
import numpy as np

#: L* as stored in an 8-bit Lab image, per unit of the reader's scale.
L_STORED = 255.0 / 100.0
#: Two colours nearer than this (Delta E) are one colour: the cells of one
#: state, a block beside a board and its tiles, a line of a board and the
#: rest.  The locate stage compared 8-bit Lab with 14, 15 and 20 for these;
#: on this scale 10 and 12 lose a row of a real capture
#: (almostsurelyape's 6x6 read as 5x6), and 8 keeps every recorded reading.
SAME_COLOUR = 8.0
#: A board's cells nearer than this (Delta E) to the colour around the board
#: are the backdrop itself, seen through (the gaps between round tiles).  Was
#: 12 in 8-bit Lab, where a difference of lightness alone reads 2.55 times
#: larger: 4.7 on this scale, and 5 keeps every recorded reading.
SAME_PAINT = 5.0


def lab_on_scale(bgr: np.ndarray) -> np.ndarray:
    """A BGR image (8-bit) in L*a*b* on the reader's scale, float32 (L* on 0..100)."""
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 0] /= L_STORED
    return lab


def on_scale(lab8: np.ndarray) -> np.ndarray:
    """Colours ``(..., 3)`` read off an 8-bit Lab image, on the reader's scale (float64)."""
    colours = np.array(lab8, dtype=np.float64)
    colours[..., 0] /= L_STORED
    return colours


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
