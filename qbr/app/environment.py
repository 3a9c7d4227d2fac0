"""Everything a run needs from the outside world, passed explicitly so tests can simulate all of it."""

from __future__ import annotations

import locale
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import platformdirs

from qbr.app.display import display_problem

if TYPE_CHECKING:
    from qbr.app.cameras import CameraInfo
    from qbr.app.settings import Settings
    from qbr.app.sources import FrameSource


def _system_language() -> str:
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var)
        if value and value not in ("C", "POSIX", "C.UTF-8"):
            return value.split(":")[0].split(".")[0]
    lang, _ = locale.getlocale()
    return lang or "en"


def _has_display() -> bool:
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def _open_source(settings: Settings) -> FrameSource:
    from qbr.app.sources import open_source  # OpenCV loads only when frames are wanted

    return open_source(settings)


def _list_cameras() -> list[CameraInfo]:
    from qbr.app.cameras import list_cameras

    return list_cameras()


@dataclass
class Environment:
    """Streams, terminal abilities, config location, language, display, clock and frame source of one run."""

    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)
    stdout_isatty: bool = field(default_factory=lambda: sys.stdout.isatty())
    config_dir: Path = field(default_factory=lambda: Path(platformdirs.user_config_dir("qbr")))
    system_language: str = field(default_factory=_system_language)
    has_display: bool = field(default_factory=_has_display)
    display_problem: Callable[[], str | None] = display_problem
    """Why the display named cannot be reached (asked before a window opens), None if it can."""
    clock: Callable[[], float] = time.monotonic
    """Seconds, for the live runtime's timers (a video's pace, a silent camera)."""
    sleep: Callable[[float], None] = time.sleep
    """How the headless runtime waits while a camera is silent."""
    open_source: Callable[[Settings], FrameSource] = _open_source
    """The frame source the settings ask for (camera, video, photos, demo)."""
    cameras: Callable[[], list[CameraInfo]] = _list_cameras
    """The cameras there are (``qbr --list-cameras``)."""
