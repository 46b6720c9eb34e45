"""Size limits on uploads, checked before anything is decoded.

``header_dimensions`` reads an image's width and height from the first bytes
of a PNG, JPEG, GIF, BMP or WebP file, without decoding its pixels, so that
an upload over ``MAX_PIXELS`` (a small file that inflates to gigabytes) is
refused before OpenCV allocates it.  ``check_upload`` applies both limits.
"""

from __future__ import annotations

import struct

from ..errors import BoardSolveError

#: Largest request body accepted (bytes): 25 MB, more than a 4K PNG screenshot.
MAX_BYTES = 25_000_000
#: Largest image accepted (width x height): 50 megapixels, above a phone's photo.
MAX_PIXELS = 50_000_000
#: The formats whose header ``header_dimensions`` reads.
FORMATS = "PNG, JPEG, GIF, BMP or WebP"


class UploadTooLarge(BoardSolveError):
    """An upload over the byte or pixel limit (HTTP 413)."""


class UnknownImage(BoardSolveError):
    """Bytes that are not an image of a format whose size can be read before decoding."""


def header_dimensions(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` from an image file's header, or None for an unknown format.

    Reads PNG (IHDR), JPEG (the first start-of-frame marker), GIF (logical
    screen), BMP (info header) and WebP (VP8, VP8L, VP8X) headers; a header
    cut short gives None.
    """
    try:
        if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
            width, height = struct.unpack(">II", data[16:24])
            return width, height
        if data.startswith(b"\xff\xd8"):
            return _jpeg_dimensions(data)
        if data[:6] in (b"GIF87a", b"GIF89a"):
            width, height = struct.unpack("<HH", data[6:10])
            return width, height
        if data.startswith(b"BM"):
            width, height = struct.unpack("<ii", data[18:26])
            return abs(width), abs(height)
        if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
            return _webp_dimensions(data)
    except struct.error:
        return None
    return None


#: JPEG start-of-frame markers (baseline, progressive, lossless, ...): not DHT, JPG, DAC.
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_dimensions(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
            at += 2
            continue
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        if marker in _SOF:
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        at += 2 + length
    return None


def _webp_dimensions(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 ":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    return None


def check_upload(data: bytes, source: str = "upload") -> tuple[int, int]:
    """The upload's ``(width, height)``, after checking the byte and pixel limits.

    Raises ``UploadTooLarge`` over ``MAX_BYTES`` or ``MAX_PIXELS`` and
    ``UnknownImage`` when the header is not one of ``FORMATS``; nothing is
    decoded.
    """
    if len(data) > MAX_BYTES:
        raise UploadTooLarge(
            f"{source}: {len(data) / 1e6:.1f} MB is over the {MAX_BYTES // 1_000_000} MB limit"
        )
    if not data:
        raise UnknownImage(f"{source}: empty file")
    size = header_dimensions(data)
    if size is None:
        raise UnknownImage(f"{source}: not an image, or truncated (the server reads {FORMATS})")
    width, height = size
    if width * height > MAX_PIXELS:
        raise UploadTooLarge(
            f"{source}: {width}x{height} pixels is over the "
            f"{MAX_PIXELS // 1_000_000} megapixel limit"
        )
    return width, height
