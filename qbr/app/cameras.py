"""Which cameras there are: index, resolution and (where the OS tells) name, for ``qbr --list-cameras``.

Each candidate is opened once with OpenCV's chatter silenced and released at once; nothing is opened at import.
On Linux the candidates are the /dev/videoN devices and their names come from sysfs; elsewhere indices are
tried in turn until a few in a row fail (OpenCV gives no names there).
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from qbr.app.sources import _quiet

_PROBE_INDICES = 10  # without a device list, indices 0..9 are tried
_GIVE_UP_AFTER = 2  # ... stopping after this many in a row fail to open
_NAME_BYTES = 256  # a sysfs name is one short line; never read more than this
_DEVICE = re.compile(r"video(\d+)")


@dataclass(frozen=True)
class CameraInfo:
    """One camera that opened: its --camera index, the resolution it opened at, its name if the OS gives one."""

    index: int
    width: int
    height: int
    name: str | None = None


def _linux_devices(dev: Path) -> list[int] | None:
    """The N of each /dev/videoN, sorted; None where there is no such directory (not Linux)."""
    if not dev.is_dir():
        return None
    found = (_DEVICE.fullmatch(p.name) for p in dev.iterdir())
    return sorted(int(m.group(1)) for m in found if m is not None)


def _sysfs_name(index: int, sysfs: Path) -> str | None:
    """The driver's name of /dev/video``index`` (Linux), read bounded; None if there is none."""
    path = sysfs / f"video{index}" / "name"
    try:
        if not path.is_file():
            return None
        with path.open("rb") as f:
            raw = f.read(_NAME_BYTES)
    except OSError:
        return None
    name = raw.decode("utf-8", "replace").strip()
    return name or None


def _probe(opener: Callable[[int], Any], index: int) -> tuple[int, int] | None:
    """The (width, height) camera ``index`` opens at, or None if it does not open; released either way."""
    import cv2

    cap = None
    try:
        cap = opener(index)
        if cap is None or not cap.isOpened():
            return None
        return int(cap.get(cv2.CAP_PROP_FRAME_WIDTH) or 0), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0)
    except Exception:  # a driver that fails while probing is a camera that is not there
        return None
    finally:
        if cap is not None:
            with contextlib.suppress(Exception):
                cap.release()


def list_cameras(
    open_capture: Callable[[int], Any] | None = None,
    candidates: Iterable[int] | None = None,
    sysfs: Path = Path("/sys/class/video4linux"),
    dev: Path = Path("/dev"),
) -> list[CameraInfo]:
    """Every camera that opens, in index order (an empty list when there is none)."""
    import cv2

    opener = open_capture or _quiet(cv2.VideoCapture)
    linux = sys.platform.startswith("linux")
    indices = list(candidates) if candidates is not None else (_linux_devices(dev) if linux else None)
    probing = indices is None
    cameras: list[CameraInfo] = []
    failures = 0
    for index in indices if indices is not None else range(_PROBE_INDICES):
        size = _probe(opener, index)
        if size is None:
            failures += 1
            if probing and failures >= _GIVE_UP_AFTER:
                break
            continue
        failures = 0
        cameras.append(CameraInfo(index, size[0], size[1], _sysfs_name(index, sysfs) if linux else None))
    return cameras
