"""Settings of one live run, built from the command line and checked before anything opens."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from qbr.app.errors import InputFileError


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


def _camera(value: str | int | None) -> int | Path:
    if value is None:
        return 0
    if isinstance(value, int):
        index = value
    elif value.strip().isdigit():
        index = int(value.strip())
    else:
        path = Path(value).expanduser()
        if path.is_dir():
            raise InputFileError(f"--camera {value}: is a directory; to step through photos use --images {value}")
        if path.exists() and path.is_char_device():
            return path  # a camera device such as /dev/video2
        if not path.is_file():
            raise InputFileError(
                f"--camera {value}: no such file; give a camera number (0, 1, ...) or an existing video file"
            )
        return path
    if index < 0:
        raise InputFileError(f"--camera {value}: a camera number is 0 or more")
    return index


def _images(value: Path | None) -> Path | None:
    if value is None:
        return None
    path = Path(value).expanduser()
    if not path.is_dir():
        raise InputFileError(f"--images {value}: not a directory; give a folder of photos of the cube's faces")
    return path
