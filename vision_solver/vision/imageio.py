"""Reading and writing images: every failure is an ``ImageError`` with a reason.

Images come back as 8-bit BGR whatever the file held: 16-bit channels are
scaled down, grey is expanded, and an alpha channel is composited over black
(what most games draw behind transparent parts of their icons).  A JPEG is
turned upright by its EXIF orientation.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from ..errors import ImageError


def to_bgr8(image: np.ndarray) -> np.ndarray:
    """Any decoded image as H x W x 3 uint8 BGR."""
    if image.dtype == np.uint16:
        image = (image >> 8).astype(np.uint8)
    elif image.dtype != np.uint8:
        scaled = np.clip(image.astype(np.float64), 0, None)
        peak = float(scaled.max()) or 1.0
        image = (scaled * (255.0 / peak)).astype(np.uint8)
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim != 3:
        raise ImageError(f"image must be 2-D or 3-D, not {image.ndim}-D")
    channels = image.shape[2]
    if channels == 1:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if channels == 4:
        alpha = image[:, :, 3:4].astype(np.float32) / 255.0
        return (image[:, :, :3].astype(np.float32) * alpha + 0.5).astype(np.uint8)
    if channels == 3:
        return np.ascontiguousarray(image)
    raise ImageError(f"image has {channels} channels, expected 1, 3 or 4")


def read_image(path: str | Path) -> np.ndarray:
    """Decode an image file (PNG, JPEG, GIF first frame, ...) as 8-bit BGR."""
    path = Path(path)
    if not path.exists():
        raise ImageError(f"{path}: no such file")
    if path.is_dir():
        raise ImageError(f"{path}: is a directory, not an image")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImageError(f"{path}: cannot read ({exc.strerror})") from None
    return decode_image(data, str(path))


def decode_image(data: bytes, source: str = "image") -> np.ndarray:
    """Decode an image held in memory (an upload, a file's bytes) as 8-bit BGR.

    ``source`` names the image in error messages (a path, an upload's name).
    """
    if not data:
        raise ImageError(f"{source}: empty file")
    # A JPEG (a phone's photo) may be stored sideways with an EXIF orientation
    # tag: decode it upright, as a viewer shows it.  Other files keep their
    # depth and alpha (IMREAD_UNCHANGED reads no orientation).
    flags = cv2.IMREAD_COLOR if data.startswith(b"\xff\xd8") else cv2.IMREAD_UNCHANGED
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flags)
    if image is None or image.size == 0:
        raise ImageError(f"{source}: not an image, or truncated")
    if _truncated(data):
        raise ImageError(f"{source}: truncated image file")
    return to_bgr8(image)


def _truncated(data: bytes) -> bool:
    """PNG without its IEND chunk, or JPEG without its end marker."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return b"IEND" not in data[-64:]
    if data.startswith(b"\xff\xd8"):
        return b"\xff\xd9" not in data[-64:]
    return False


def write_image(path: str | Path, image: np.ndarray, *, protect: str | Path | None = None) -> Path:
    """Encode ``image`` to ``path`` atomically; never overwrite ``protect`` (the input)."""
    path = Path(path)
    if protect is not None and path.resolve() == Path(protect).resolve():
        raise ImageError(f"{path}: refusing to overwrite the input image")
    encoded = encode_image(image, path.suffix.lower() or ".png", str(path))
    tmp = path.with_name(f".{path.name}.partial")
    try:
        tmp.write_bytes(encoded)
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise ImageError(f"{path}: cannot write ({exc.strerror})") from None
    return path


def encode_image(image: np.ndarray, suffix: str = ".png", source: str = "image") -> bytes:
    """``image`` encoded as a file of type ``suffix`` (``.png``, ``.jpg``), in memory."""
    ok, encoded = cv2.imencode(suffix, image)
    if not ok:
        raise ImageError(f"{source}: cannot encode an image as {suffix!r}")
    return encoded.tobytes()
