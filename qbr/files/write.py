"""Writing a file so that readers (and a crash) see either the old file or the whole new one, never a part."""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from pathlib import Path

_STALE_SECONDS = 600.0  # a temporary file this old was left by a write that was killed (the solver tables take seconds)


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data``: a temporary file beside it, flushed to disk, renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable where the platform allows it
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    for stale in path.parent.glob(f".{path.name}.*.tmp"):  # left by a write that was killed mid-way
        with contextlib.suppress(OSError):
            if time.time() - stale.stat().st_mtime > _STALE_SECONDS:
                stale.unlink()
