"""Decoder chatter (libpng and FFmpeg warnings, OpenCV's log) kept off the user's terminal.

The C libraries write to file descriptor 2 directly, so ``sys.stderr`` cannot catch them: while a decoder
runs, descriptor 2 points at the null device. qbr's own messages say what failed, in the user's language.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator

_lock = threading.Lock()
_depth = 0
_saved_fd: int | None = None
_FFMPEG_QUIET = "-8"  # AV_LOG_QUIET; OpenCV reads OPENCV_FFMPEG_LOGLEVEL when it first loads FFmpeg


def _redirect() -> int | None:
    with contextlib.suppress(AttributeError, OSError, ValueError):  # no stderr, or a closed one
        sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:
        return None  # no descriptor 2 at all (e.g. a GUI launcher): nothing to protect
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
    finally:
        os.close(null)
    return saved


@contextlib.contextmanager
def decoders_quiet() -> Iterator[None]:
    """Run the block with C-level stderr silenced and OpenCV's log off (re-entrant, thread-safe)."""
    global _depth, _saved_fd
    import cv2

    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", _FFMPEG_QUIET)
    with _lock:
        if _depth == 0:
            _saved_fd = _redirect()
        _depth += 1
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        yield
    finally:
        cv2.utils.logging.setLogLevel(level)
        with _lock:
            _depth -= 1
            if _depth == 0 and _saved_fd is not None:
                os.dup2(_saved_fd, 2)
                os.close(_saved_fd)
                _saved_fd = None
