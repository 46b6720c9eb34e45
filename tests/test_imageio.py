"""Reading images: every file comes back as upright 8-bit BGR."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision_solver.errors import ImageError
from vision_solver.vision.imageio import read_image, write_image


def _with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """``jpeg`` with an EXIF segment holding only an Orientation tag (big-endian TIFF)."""
    entry = bytes.fromhex("0112") + (3).to_bytes(2, "big") + (1).to_bytes(4, "big")
    entry += orientation.to_bytes(2, "big") + b"\x00\x00"
    tiff = b"MM\x00*" + (8).to_bytes(4, "big") + (1).to_bytes(2, "big") + entry + bytes(4)
    app1 = b"\xff\xe1" + (2 + 6 + len(tiff)).to_bytes(2, "big") + b"Exif\x00\x00" + tiff
    return jpeg[:2] + app1 + jpeg[2:]


def test_phone_jpeg_is_read_upright_by_its_exif_orientation(tmp_path):
    """Orientation 6: stored sideways, shown turned a quarter clockwise."""
    stored = np.zeros((100, 200, 3), np.uint8)
    stored[:, :50] = (0, 0, 255)  # red down the stored image's left edge
    ok, encoded = cv2.imencode(".jpg", stored)
    assert ok
    path = tmp_path / "photo.jpg"
    path.write_bytes(_with_exif_orientation(encoded.tobytes(), 6))
    image = read_image(path)
    assert image.shape == (200, 100, 3)
    # turned clockwise, the stored left edge is the top edge
    assert image[:40, :, 2].min() > 200 and image[60:, :, 2].max() < 60


def test_alpha_grey_and_16_bit_images_come_back_as_bgr8(tmp_path):
    rgba = np.zeros((4, 4, 4), np.uint8)
    rgba[..., :3] = 200
    rgba[:2, :, 3] = 255  # the top half opaque, the rest transparent (over black)
    grey16 = np.full((4, 4), 40000, np.uint16)
    for name, picture in (("rgba.png", rgba), ("grey16.png", grey16)):
        cv2.imwrite(str(tmp_path / name), picture)
    rgba_read = read_image(tmp_path / "rgba.png")
    assert rgba_read.dtype == np.uint8 and rgba_read.shape == (4, 4, 3)
    assert rgba_read[0, 0].tolist() == [200, 200, 200] and rgba_read[3, 0].tolist() == [0, 0, 0]
    grey_read = read_image(tmp_path / "grey16.png")
    assert grey_read.shape == (4, 4, 3) and grey_read[0, 0].tolist() == [156, 156, 156]


def test_write_image_never_overwrites_the_input(tmp_path):
    path = tmp_path / "shot.png"
    cv2.imwrite(str(path), np.zeros((4, 4, 3), np.uint8))
    before = path.read_bytes()
    with pytest.raises(ImageError, match="refusing to overwrite"):
        write_image(path, np.full((4, 4, 3), 255, np.uint8), protect=path)
    assert path.read_bytes() == before
