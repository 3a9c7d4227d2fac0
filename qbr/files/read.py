"""One way to read a file: refuse anything but a regular file before opening it, never block, stop at a size.

``st_size`` is 0 for devices and pipes, so the size is counted while reading; a FIFO is refused before the open
(and the open is non-blocking besides, so one swapped in between cannot hang it either).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

_CHUNK = 1 << 16  # bytes per read call: small enough that the cap overshoots by little


class UnreadableFile(Exception):
    """``path`` cannot be used as an input file; ``reason`` says why without repeating the path."""

    def __init__(self, path: Path, reason: str, missing: bool = False) -> None:
        self.path = Path(path)
        self.reason = reason
        self.missing = missing
        """True when there is no file at all (callers may treat that as "nothing stored")."""
        super().__init__(f"{path}: {reason}")


def _kind(mode: int) -> str | None:
    """What a non-regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _refused(path: Path, mode: int) -> UnreadableFile | None:
    kind = _kind(mode)
    if kind is None:
        return None
    via = " (through a link)" if path.is_symlink() else ""
    return UnreadableFile(path, f"is {kind}{via}, not a regular file")


def _too_large(path: Path, max_bytes: int, what: str) -> UnreadableFile:
    return UnreadableFile(path, f"too large for {what} (over {max_bytes:,} bytes)")


def read_bytes(path: Path | str, max_bytes: int, what: str = "this file") -> bytes:
    """The bytes of the regular file ``path``, at most ``max_bytes``; :class:`UnreadableFile` saying why not.

    ``what`` names the expected content in the size message ("too large for a colour scan").
    """
    path = Path(path)
    try:
        refused = _refused(path, os.stat(path).st_mode)  # follows links: a link to /dev/zero is a device
        if refused is not None:
            raise refused
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):
        raise UnreadableFile(path, "no such file", missing=True) from None
    except OSError as error:
        raise UnreadableFile(path, f"cannot be read ({error.strerror or error})") from None
    try:
        status = os.fstat(fd)
        refused = _refused(path, status.st_mode)  # replaced between the check and the open
        if refused is not None:
            raise refused
        if status.st_size > max_bytes:  # a size stated too large is refused unread; a small one is not trusted
            raise _too_large(path, max_bytes, what)
        chunks: list[bytes] = []
        total = 0
        while total <= max_bytes:
            chunk = os.read(fd, min(_CHUNK, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as error:
        raise UnreadableFile(path, f"cannot be read ({error.strerror or error})") from None
    finally:
        os.close(fd)
    if total > max_bytes:
        raise _too_large(path, max_bytes, what)
    return b"".join(chunks)
