"""Size limits on uploads, checked before anything is decoded.

``check_upload`` reads an upload's width and height from its header
(``imageio.image_size``, without decoding its pixels), so that an upload over
``MAX_PIXELS`` (a small file that inflates to gigabytes) is refused before
OpenCV allocates it, and applies the byte limit too.
"""

from __future__ import annotations

from ..errors import BoardSolveError
from ..vision.imageio import image_size

#: Largest request body accepted (bytes): 25 MB, more than a 4K PNG screenshot.
MAX_BYTES = 25_000_000
#: Largest image accepted (width x height): 50 megapixels, above a phone's photo.
MAX_PIXELS = 50_000_000
#: The formats whose header ``header_dimensions`` reads.
FORMATS = "PNG, JPEG, GIF, BMP, WebP, TIFF or PNM"


class UploadTooLarge(BoardSolveError):
    """An upload over the byte or pixel limit (HTTP 413)."""


class UnknownImage(BoardSolveError):
    """Bytes that are not an image of a format whose size can be read before decoding."""


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
    size = image_size(data)
    if size is None:
        raise UnknownImage(f"{source}: not an image, or truncated (the server reads {FORMATS})")
    width, height = size
    if width * height > MAX_PIXELS:
        raise UploadTooLarge(
            f"{source}: {width}x{height} pixels is over the "
            f"{MAX_PIXELS // 1_000_000} megapixel limit"
        )
    return width, height
