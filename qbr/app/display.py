"""Is there an X server where DISPLAY points? Asked before Qt is touched, which aborts the process (exit 134)
when it finds none; a socket connect answers in milliseconds and cannot abort."""

from __future__ import annotations

import os
import re
import socket
import sys
from collections.abc import Mapping
from typing import Final

CONNECT_SECONDS: Final = 1.0
"""A display on another host that has not answered in a second will not serve a live camera window either."""
_X_TCP_BASE: Final = 6000  # X display N listens on TCP port 6000 + N
_X_DISPLAY = re.compile(r"(?P<host>[^:]*):(?P<number>[0-9]+)(?:\.[0-9]+)?")


def _connects(family: int, address: str | bytes | tuple[str, int]) -> str | None:
    """None if a stream socket connects to ``address``, else the reason it did not."""
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.settimeout(CONNECT_SECONDS)
            sock.connect(address)
    except OSError as error:
        return error.strerror or type(error).__name__
    return None


def _x_problem(display: str) -> str | None:
    match = _X_DISPLAY.fullmatch(display.strip())
    if match is None:
        return f"DISPLAY={display!r} is not of the form [host]:N"
    host, number = match["host"], int(match["number"])
    if host in ("", "unix") and hasattr(socket, "AF_UNIX"):
        path = f"/tmp/.X11-unix/X{number}"
        reason = _connects(socket.AF_UNIX, path)
        if reason is not None and sys.platform.startswith("linux"):
            reason = _connects(socket.AF_UNIX, b"\0" + path.encode())  # the abstract socket X servers also open
        if reason is None or host == "unix":
            return None if reason is None else f"no X server answers on DISPLAY={display} ({reason})"
        host = "localhost"
    reason = _connects(socket.AF_INET, (host, _X_TCP_BASE + number))
    return None if reason is None else f"no X server answers on DISPLAY={display} ({reason})"


def display_problem(environ: Mapping[str, str] | None = None) -> str | None:
    """Why no window can open on this system's display, or None when one can (or the platform has its own)."""
    environ = os.environ if environ is None else environ
    if not sys.platform.startswith("linux"):
        return None  # Windows and macOS always have a window system for a logged-in user
    if environ.get("DISPLAY"):
        return _x_problem(environ["DISPLAY"])
    if environ.get("WAYLAND_DISPLAY"):
        # OpenCV's window is Qt with only its X11 (xcb) plugin: on Wayland it needs XWayland, which sets DISPLAY.
        wayland = environ["WAYLAND_DISPLAY"]
        return f"WAYLAND_DISPLAY={wayland} is set but DISPLAY is not; the window needs X11 (XWayland)"
    return "DISPLAY is not set"
