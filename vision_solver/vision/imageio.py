"""Reading and writing images: every failure is an ``ImageError`` with a reason.

Images come back as 8-bit BGR whatever the file held: 16-bit channels are
scaled down, grey is expanded, and an alpha channel is composited over black
(what most games draw behind transparent parts of their icons).  A JPEG is
turned upright by its EXIF orientation.

Hostile input is refused before it costs memory: only regular files are
read (never a FIFO or a device such as ``/dev/zero``), files over
``MAX_IMAGE_BYTES`` are not read, and the picture's size is taken from the
file's header (PNG, JPEG, GIF, BMP, WebP, TIFF, PNM) and refused above
``MAX_IMAGE_PIXELS`` before anything is decoded.  Overlays are written to a
temporary file created exclusively beside the target, then renamed over it,
so a crash leaves no half-written file and a link planted at a predictable
name is never followed.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

import numpy as np

from ..errors import ImageError
from ..files import read_regular_file, size_text, write_atomic

#: The most pixels (width x height) an image may have: Pillow's own warning
#: threshold (about 89.5 million, 2**30 // 12; e.g. 12000 x 7450), far above
#: any screen (8K is 33 million) yet below what costs gigabytes to decode.
#: A 20000 x 20000 PNG of a few hundred kilobytes is refused by its header.
MAX_IMAGE_PIXELS = 89_478_485
#: The largest image file read, in bytes (256 MiB).  Screenshots are a few
#: megabytes; an uncompressed BMP at the pixel limit is refused by this first.
MAX_IMAGE_BYTES = 256 * 1024 * 1024
#: The largest width or height, whatever the pixel count (a 1 x 10**9 strip).
MAX_IMAGE_SIDE = 65_535

# OpenCV's own ceiling as a backstop for formats whose header is not read here;
# it is read when cv2 first decodes, so it is set before cv2 is imported.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_IMAGE_PIXELS))

import cv2  # noqa: E402  (after the pixel ceiling above)


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
    """Decode an image file (PNG, JPEG, GIF first frame, ...) as 8-bit BGR.

    Only a regular file (or a link to one) is read, and only up to
    ``MAX_IMAGE_BYTES``; the pixel limit is checked as by ``decode_image``.
    """
    data = read_regular_file(path, limit=MAX_IMAGE_BYTES, what="an image", error=ImageError)
    return decode_image(data, str(path))


def decode_image(data: bytes, source: str = "image") -> np.ndarray:
    """Decode an image held in memory (an upload, a file's bytes) as 8-bit BGR.

    ``source`` names the image in error messages (a path, an upload's name).
    Refuses (``ImageError``), before decoding anything, more than
    ``MAX_IMAGE_BYTES`` of data, and a picture whose header claims more than
    ``MAX_IMAGE_PIXELS`` pixels or a side over ``MAX_IMAGE_SIDE``.
    """
    if not data:
        raise ImageError(f"{source}: empty file")
    if len(data) > MAX_IMAGE_BYTES:
        raise ImageError(
            f"{source}: {size_text(len(data))}, over the {size_text(MAX_IMAGE_BYTES)} limit"
        )
    check_pixel_limit(image_size(data), source)
    if _truncated(data):
        raise ImageError(f"{source}: truncated image file")
    # A JPEG (a phone's photo) may be stored sideways with an EXIF orientation
    # tag: decode it upright, as a viewer shows it.  Other files keep their
    # depth and alpha (IMREAD_UNCHANGED reads no orientation).
    flags = cv2.IMREAD_COLOR if data.startswith(b"\xff\xd8") else cv2.IMREAD_UNCHANGED
    try:
        image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flags)
    except cv2.error:  # OpenCV's own limits (formats whose header is not read here)
        image = None
    if image is None or image.size == 0:
        raise ImageError(f"{source}: not an image, or truncated")
    check_pixel_limit((image.shape[1], image.shape[0]), source)
    return to_bgr8(image)


def check_pixel_limit(size: tuple[int, int] | None, source: str) -> None:
    """``ImageError`` when a (width, height) is empty or over the limits; None passes."""
    if size is None:
        return
    width, height = size
    if width <= 0 or height <= 0:
        raise ImageError(f"{source}: not an image ({width} x {height} pixels)")
    if width * height > MAX_IMAGE_PIXELS or max(width, height) > MAX_IMAGE_SIDE:
        raise ImageError(
            f"{source}: {width} x {height} pixels, over the limit of "
            f"{MAX_IMAGE_PIXELS / 1e6:.1f} million pixels ({MAX_IMAGE_SIDE} a side); not decoded"
        )


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from the header of a PNG, JPEG, GIF, BMP, WebP, TIFF or PNM file.

    None when the format is not one of these (OpenCV's own ceiling then
    applies) or the header cannot be read (the decoder then says why).
    """
    try:
        if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
            return struct.unpack(">II", data[16:24])
        if data.startswith(b"\xff\xd8"):
            return _jpeg_size(data)
        if data[:6] in (b"GIF87a", b"GIF89a"):
            return struct.unpack("<HH", data[6:10])
        if data.startswith(b"BM"):
            (header,) = struct.unpack("<I", data[14:18])
            if header == 12:  # OS/2 bitmap
                return struct.unpack("<HH", data[18:22])
            width, height = struct.unpack("<ii", data[18:26])
            return width, abs(height)
        if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
            return _webp_size(data)
        if data[:4] in (b"II*\x00", b"MM\x00*"):
            return _tiff_size(data)
        if data[:1] == b"P" and data[1:2] in b"123456" and len(data) > 2:
            return _pnm_size(data)
    except struct.error:  # a header cut short: the decoder names it
        return None
    return None


#: JPEG start-of-frame markers (baseline, progressive, lossless, arithmetic...).
_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    index = 2
    while index + 4 <= len(data):
        if data[index] != 0xFF:
            return None
        marker = data[index + 1]
        if marker == 0xFF:  # fill byte
            index += 1
            continue
        if marker in _JPEG_SOF:
            height, width = struct.unpack(">HH", data[index + 5 : index + 9])
            return width, height
        if marker == 0xDA:  # scan data before any frame header
            return None
        if marker == 0x01 or 0xD0 <= marker <= 0xD8:
            index += 2
            continue
        (length,) = struct.unpack(">H", data[index + 2 : index + 4])
        index += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 ":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":
        (bits,) = struct.unpack("<I", data[21:25])
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    order = "<" if data.startswith(b"II") else ">"
    (offset,) = struct.unpack(order + "I", data[4:8])
    (count,) = struct.unpack(order + "H", data[offset : offset + 2])
    found: dict[int, int] = {}
    for entry in range(min(count, 512)):
        at = offset + 2 + 12 * entry
        tag, kind = struct.unpack(order + "HH", data[at : at + 4])
        if tag in (256, 257):
            fmt = "H" if kind == 3 else "I"
            (found[tag],) = struct.unpack(order + fmt, data[at + 8 : at + 8 + struct.calcsize(fmt)])
    if 256 in found and 257 in found:
        return found[256], found[257]
    return None


def _pnm_size(data: bytes) -> tuple[int, int] | None:
    numbers: list[int] = []
    for line in data[2:4096].split(b"\n"):
        for token in line.split(b"#")[0].split():
            if not token.isdigit():
                return None
            numbers.append(int(token))
            if len(numbers) == 2:
                return numbers[0], numbers[1]
    return None


def _truncated(data: bytes) -> bool:
    """PNG without its IEND chunk, or JPEG without its end marker."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return b"IEND" not in data[-64:]
    if data.startswith(b"\xff\xd8"):
        return b"\xff\xd9" not in data[-64:]
    return False


def can_write_image(path: str | Path) -> bool:
    """Whether an image can be encoded in the format its name's extension says."""
    try:
        return bool(cv2.haveImageWriter(str(path)))
    except cv2.error:
        return False


def write_image(path: str | Path, image: np.ndarray, *, protect: str | Path | None = None) -> Path:
    """Encode ``image`` to ``path`` atomically; never overwrite ``protect`` (the input).

    The bytes go to a temporary file created exclusively (``mkstemp``) in the
    target folder, then renamed over ``path``: never a half-written file, and
    never a write through a link planted in the folder.
    """
    path = Path(path)
    if protect is not None and path.resolve() == Path(protect).resolve():
        raise ImageError(f"{path}: refusing to overwrite the input image")
    encoded = encode_image(image, path.suffix.lower() or ".png", str(path))
    try:
        write_atomic(path, encoded)
    except OSError as exc:
        raise ImageError(f"{path}: cannot write ({exc.strerror})") from None
    return path


def encode_image(image: np.ndarray, suffix: str = ".png", source: str = "image") -> bytes:
    """``image`` encoded as a file of type ``suffix`` (``.png``, ``.jpg``), in memory."""
    try:
        ok, encoded = cv2.imencode(suffix, image)
    except cv2.error:
        ok = False
    if not ok:
        raise ImageError(
            f"{source}: cannot write an image as {suffix!r} (use .png, .jpg, .webp, .bmp or .tif)"
        )
    return encoded.tobytes()
