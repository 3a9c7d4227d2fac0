"""Settings of one live run, built from the command line and checked before anything opens."""

from __future__ import annotations

import os
import re
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from qbr.app.errors import BadArgumentError, InputFileError
from qbr.files.limited_json import shown


@dataclass(frozen=True)
class Settings:
    """Where frames come from and how the live app behaves; ``camera`` is an index or a video file."""

    camera: int | Path = 0
    images: Path | None = None
    demo: bool = False
    window: bool = True
    json: bool = False
    lang: str = "en"
    lang_explicit: bool = False
    """True when --lang was given: it then wins over the language remembered from an earlier run."""
    normalize: bool = False
    budget: float = 1.0
    """Seconds the solver looks for shorter solutions (off the UI thread): about 1.3 moves fewer than the first."""
    seconds_per_image: float = 2.0
    """With --images, each photo is shown this long (long enough to be auto-captured)."""
    camera_timeout: float = 3.0
    """A camera that gives no frame within this many seconds is reported as missing."""
    mirror: bool = False
    """--mirror: frames are flipped left to right before anything else (a webcam that shows a mirror image)."""

    @classmethod
    def from_args(
        cls,
        camera: str | int | None,
        images: Path | None,
        demo: bool,
        window: bool,
        json: bool,
        lang: str,
        lang_explicit: bool,
        normalize: bool,
        budget: float | None,
        mirror: bool = False,
    ) -> Settings:
        """Check the command-line values; a camera that is neither an index nor an existing file is an error."""
        return cls(
            camera=_camera(camera),
            images=_images(images),
            demo=bool(demo),
            window=bool(window),
            json=bool(json),
            lang=lang,
            lang_explicit=bool(lang_explicit),
            normalize=bool(normalize),
            budget=cls.budget if budget is None else float(budget),
            mirror=bool(mirror),
        )


MAX_CAMERA_INDEX: Final = 99
"""OpenCV reads an index of 100 or more as a backend choice plus a camera number (200 = V4L2 camera 0)."""
_V4L_MAJOR: Final = 81  # Linux's device number for video4linux: /dev/video* are these, /dev/zero is not
_NUMBER = re.compile(r"[+-]?[0-9]+", re.ASCII)  # "²" and "٣" are digits to str.isdigit(), not camera numbers


def _arg(text: str) -> str:
    """A command-line value quoted for a message, undecodable bytes escaped, cut only when absurdly long."""
    return shown(text, limit=1000)


def _camera_device(path: Path, value: str) -> Path:
    """``path`` if it is a camera device; InputFileError for any other device."""
    if sys.platform.startswith("linux") and os.major(path.stat().st_rdev) != _V4L_MAJOR:
        raise InputFileError(f"--camera {_arg(value)}: is a device but not a camera (a camera is /dev/video0, ...)")
    return path


def _camera(value: str | int | None) -> int | Path:
    if value is None:
        return 0
    text = value if isinstance(value, str) else str(value)
    if _NUMBER.fullmatch(text.strip()):
        number = text.strip()
        digits = number.lstrip("+-").lstrip("0") or "0"
        # int() of 5,000 digits raises: anything longer than the largest index is out of range anyway.
        index = -1 if len(digits) > len(str(MAX_CAMERA_INDEX)) else int(digits) * (-1 if number[0] == "-" else 1)
        if not 0 <= index <= MAX_CAMERA_INDEX:
            raise BadArgumentError(f"--camera {shown(text)}: a camera number is from 0 to {MAX_CAMERA_INDEX}")
        return index
    path = Path(text).expanduser()
    try:
        mode = path.stat().st_mode  # follows links: a link to a camera is that camera
    except (OSError, ValueError):  # ValueError: a NUL byte in the name
        raise InputFileError(
            f"--camera {_arg(text)}: no such file, nor a camera number; give a camera number (0 to "
            f"{MAX_CAMERA_INDEX}) or an existing video file"
        ) from None
    if stat.S_ISDIR(mode):
        raise InputFileError(f"--camera {_arg(text)}: is a directory; to step through photos use --images {text}")
    if stat.S_ISCHR(mode):
        return _camera_device(path, text)
    if not stat.S_ISREG(mode):
        raise InputFileError(f"--camera {_arg(text)}: is not a regular file (a FIFO or socket), so not a video file")
    return path


def _images(value: Path | None) -> Path | None:
    if value is None:
        return None
    path = Path(value).expanduser()
    try:
        is_dir = stat.S_ISDIR(path.stat().st_mode)
    except (OSError, ValueError):  # no such file, a name too long for the system, a NUL byte
        is_dir = False
    if not is_dir:
        raise InputFileError(f"--images {_arg(str(value))}: not a directory; give a folder of photos of the cube's "
                             "faces")
    return path
