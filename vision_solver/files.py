"""Writing files safely: whole or not at all, and never through a planted link."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_atomic(path: str | Path, data: bytes, mode: int = 0o644) -> Path:
    """Write ``data`` to ``path`` through a temporary file and a rename.

    The temporary file is created exclusively (``tempfile.mkstemp``, an
    unpredictable name) in the target folder, so a link planted there is
    never written through, and renamed over ``path`` (``os.replace``), so a
    reader never sees half a file.  Raises ``OSError`` when the folder cannot
    be written; the temporary file is then removed.
    """
    path = Path(path)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp_name, mode)  # mkstemp makes it owner-only
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    return path


def read_regular_file(
    path: str | Path, *, limit: int, what: str, error: type[Exception] = OSError
) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; ``error(message)`` otherwise.

    A FIFO, a device (``/dev/zero``, ``/dev/stdin``) or a socket is refused
    unread, whatever its name (a link is followed first), and so is a file
    that grows past ``limit`` while read.  ``what`` names the kind of file
    expected in messages ("image", "board file").
    """
    path = Path(path)
    try:
        info = os.stat(path)  # follows links: a link to a device is a device
    except (FileNotFoundError, NotADirectoryError):
        raise error(f"{path}: no such file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read ({exc.strerror})") from None
    if stat.S_ISDIR(info.st_mode):
        raise error(f"{path}: is a directory, not {what}")
    not_regular = f"{path}: not a regular file (a device, pipe or socket), not read"
    if not stat.S_ISREG(info.st_mode):
        raise error(not_regular)
    if info.st_size > limit:
        raise error(f"{path}: {size_text(info.st_size)}, over the {size_text(limit)} limit")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):  # swapped since the stat
                raise error(not_regular)
            data = handle.read(limit + 1)
    except OSError as exc:
        raise error(f"{path}: cannot read ({exc.strerror})") from None
    if len(data) > limit:
        raise error(f"{path}: over the {size_text(limit)} limit")
    return data


def size_text(size: int) -> str:
    """A byte count as people read it: ``812 bytes``, ``3.4 MiB``."""
    return f"{size / 2**20:.1f} MiB" if size >= 2**20 else f"{size} bytes"
