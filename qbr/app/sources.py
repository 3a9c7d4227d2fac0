"""Where frames come from: a camera, a video file, a folder of photos, or the bundled demo video.

Nothing opens at import time. Opening a camera that gives no picture raises NoCameraError naming the other
ways to run; once running, a camera fault is a missing frame (None), never an exception, and the camera is
reopened. Video and photo sources are deterministic: a frame's time is its index divided by the frame rate.
"""

from __future__ import annotations

import contextlib
import re
import struct
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

import numpy as np

from qbr.app.errors import InputFileError, NoCameraError
from qbr.app.quiet import decoders_quiet
from qbr.files.read import UnreadableFile, read_bytes

if TYPE_CHECKING:
    from qbr.app.settings import Settings

MAX_SIDE = 2000  # photos are shrunk to this before detection (which works at a few hundred pixels anyway)
MAX_PIXELS = 1 << 28  # refuse anything bigger than this before decoding it
MAX_IMAGE_BYTES = 200_000_000  # a 50-megapixel PNG is about 150 MB; a bigger file is no photo of a cube
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})
_DEFAULT_FPS = 15.0
_REOPEN_AFTER = 1.0  # seconds without a frame before the camera is closed and opened again


@dataclass(frozen=True)
class Frame:
    """One BGR image and its time in seconds (the source's own clock)."""

    image: np.ndarray
    t: float
    face: str | None = None
    """The face a photo is named for (U.jpg, 3_U.png: the U face), as ``qbr scan`` takes it; None otherwise."""


class FrameSource(ABC):
    """A stream of frames; ``read`` returns None when no frame is available (yet, or any more: see ``ended``)."""

    is_live: bool = False
    fps: float = _DEFAULT_FPS
    name: str = ""
    kind: str = "camera"
    """What the frames come from, for messages: "camera", "video" or "photos"."""

    @abstractmethod
    def read(self) -> Frame | None:
        """The next frame, or None."""

    @property
    def ended(self) -> bool:
        """True once a finite source has given its last frame (a camera never ends)."""
        return False

    def close(self) -> None:  # noqa: B027 (sources without resources need nothing)
        """Release the device or file."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def _quiet(call: Callable[..., Any]) -> Callable[..., Any]:
    """``call`` (opening or reading a capture) without decoder chatter on the terminal (our message says why)."""

    def quietly(*args: Any) -> Any:
        with decoders_quiet():
            return call(*args)

    return quietly


def _no_camera(index: int | str, why: str) -> NoCameraError:
    return NoCameraError(
        f"camera {index} {why}. Try another camera with --camera N (e.g. --camera 1), read a video with "
        "--camera FILE, step through photos with --images DIR, or watch the demo with --demo"
    )


class CameraSource(FrameSource):
    """A webcam by index or device path; NoCameraError if it cannot be opened or is silent for ``timeout``."""

    is_live = True

    def __init__(
        self,
        index: int | str = 0,
        timeout: float = 3.0,
        clock: Callable[[], float] = time.monotonic,
        capture: Callable[[int | str], Any] | None = None,
    ) -> None:
        import cv2

        self.index = index
        self.name = f"camera {index}"
        self._clock = clock
        self._open = capture or _quiet(cv2.VideoCapture)
        self._cap = self._open(index)
        if self._cap is None or not self._cap.isOpened():
            raise _no_camera(index, "could not be opened (is it connected, and not used by another program?)")
        fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps if 1.0 <= fps <= 240.0 else 30.0
        deadline = clock() + timeout
        self._first: Frame | None = None
        while self._first is None:
            self._first = self._grab()
            if self._first is None and clock() >= deadline:
                self.close()
                raise _no_camera(index, f"opened but sent no picture within {timeout:g} s")
        self._last_ok = self._first.t

    def _grab(self) -> Frame | None:
        try:
            ok, image = _quiet(self._cap.read)()
        except Exception:  # a driver error mid-read is a missing frame, never a crash
            return None
        if not ok or image is None or image.size == 0:
            return None
        return Frame(image, self._clock())

    def read(self) -> Frame | None:
        if self._first is not None:
            frame, self._first = self._first, None
            return frame
        frame = self._grab()
        if frame is not None:
            self._last_ok = frame.t
            return frame
        now = self._clock()
        if now - self._last_ok >= _REOPEN_AFTER:
            self._last_ok = now  # try again after another interval, not on every call
            self._reopen()
        return None

    def _reopen(self) -> None:
        with contextlib.suppress(Exception):  # still unplugged: keep trying later
            self._cap.release()
            self._cap = self._open(self.index)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._cap.release()


class VideoSource(FrameSource):
    """A video file read as if it were a camera; frame times are index / fps, so runs are repeatable."""

    kind = "video"

    def __init__(self, path: Path) -> None:
        import cv2

        self.path = Path(path)
        self.name = str(self.path)
        if not self.path.is_file():
            raise InputFileError(f"{self.path}: no such video file")
        self._cap = _quiet(cv2.VideoCapture)(str(self.path))
        ok, image = _quiet(self._cap.read)() if self._cap.isOpened() else (False, None)
        if not ok or image is None:
            self._cap.release()
            raise InputFileError(f"{self.path}: cannot be read as a video (unsupported or damaged file)")
        fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps if 1.0 <= fps <= 240.0 else _DEFAULT_FPS
        self._pending: np.ndarray | None = image
        self._index = 0
        self._ended = False

    def read(self) -> Frame | None:
        if self._ended:
            return None
        if self._pending is not None:
            image, self._pending = self._pending, None
        else:
            ok, image = _quiet(self._cap.read)()
            if not ok or image is None:
                self._ended = True
                return None
        frame = Frame(image, self._index / self.fps)
        self._index += 1
        return frame

    @property
    def ended(self) -> bool:
        return self._ended

    def close(self) -> None:
        self._cap.release()


_FACE_NAME = re.compile(r"(?:.*[^A-Za-z0-9])?([URFDLB])", re.IGNORECASE)  # "U", "u", "3_U", "cube-U"


def named_faces(paths: list[Path]) -> list[str] | None:
    """The face each photo is named for, if the photos are exactly the six faces named by their letters; else None."""
    found = [_FACE_NAME.fullmatch(p.stem) for p in paths]
    faces = [m.group(1).upper() for m in found if m is not None]
    return faces if len(faces) == len(paths) == 6 and len(set(faces)) == 6 else None


def image_files(directory: Path) -> list[Path]:
    """The photos in ``directory``, sorted by name."""
    return sorted(p for p in Path(directory).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())


class ImageFolderSource(FrameSource):
    """Still photos, sorted by name, each repeated for ``seconds_per_image`` at ``fps`` frames a second."""

    kind = "photos"

    def __init__(self, directory: Path, seconds_per_image: float = 2.0, fps: float = 10.0) -> None:
        import cv2

        self.directory = Path(directory)
        self.name = str(self.directory)
        if not self.directory.is_dir():
            raise InputFileError(f"{self.directory}: not a directory of photos")
        try:
            self.paths = image_files(self.directory)
        except OSError as error:
            raise InputFileError(f"{self.directory}: cannot be listed ({error.strerror or error})") from None
        if not self.paths:
            raise InputFileError(
                f"{self.directory}: no photos found (looked for {', '.join(sorted(IMAGE_SUFFIXES))})"
            )
        for path in self.paths:
            if not _quiet(cv2.haveImageReader)(str(path)):
                raise InputFileError(f"{path}: not an image OpenCV can read")
        self.faces = named_faces(self.paths)
        """The face of each photo when they are named U R F D L B (any order, any prefix); None: found by centre."""
        self.fps = fps
        self._per_image = max(1, round(seconds_per_image * fps))
        self._index = 0
        self._cached: tuple[int, np.ndarray] | None = None

    def read(self) -> Frame | None:
        which = self._index // self._per_image
        if which >= len(self.paths):
            return None
        if self._cached is None or self._cached[0] != which:
            self._cached = (which, read_image(self.paths[which]))
        frame = Frame(self._cached[1], self._index / self.fps, self.faces[which] if self.faces else None)
        self._index += 1
        return frame

    @property
    def ended(self) -> bool:
        return self._index // self._per_image >= len(self.paths)


def _header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG or JPEG header without decoding the pixels, or None if not found."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                return None
            marker, length = data[i + 1], struct.unpack(">H", data[i + 2 : i + 4])[0]
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
                height, width = struct.unpack(">HH", data[i + 5 : i + 9])
                return width, height
            i += 2 + length
    return None


def read_image(path: Path, max_side: int = MAX_SIDE) -> np.ndarray:
    """A photo as BGR, shrunk so its longer side is at most ``max_side``; InputFileError naming the file if unusable."""
    import cv2

    path = Path(path)
    try:
        data = read_bytes(path, MAX_IMAGE_BYTES, "a photo")
    except UnreadableFile as error:
        raise InputFileError(str(error)) from None
    if not data:
        raise InputFileError(f"{path}: the file is empty")
    size = _header_size(data)
    flags = cv2.IMREAD_COLOR
    if size is not None:
        width, height = size
        if width * height > MAX_PIXELS:
            raise InputFileError(f"{path}: the image is too large ({width}x{height} pixels)")
        # Let the decoder shrink big photos itself (JPEG decodes at 1/2, 1/4, 1/8 directly: fast, little memory).
        for factor, reduced in ((8, cv2.IMREAD_REDUCED_COLOR_8), (4, cv2.IMREAD_REDUCED_COLOR_4),
                                (2, cv2.IMREAD_REDUCED_COLOR_2)):
            if max(width, height) // factor >= max_side:
                flags = reduced
                break
    try:
        with decoders_quiet():
            image = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    except cv2.error:
        image = None
    if image is None or image.size == 0:
        raise InputFileError(f"{path}: not an image, or a damaged one (expected PNG, JPEG, BMP, TIFF or WebP)")
    scale = max_side / max(image.shape[:2])
    if scale < 1:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return image


def demo_path() -> Path:
    """The bundled demo video (package data ``qbr._assets``, or the source tree's assets/ when run from a checkout)."""
    try:
        from importlib.resources import files

        packaged = Path(str(files("qbr._assets") / "demo.avi"))
        if packaged.is_file():
            return packaged
    except (ModuleNotFoundError, TypeError):
        pass
    return Path(__file__).resolve().parents[2] / "assets" / "demo.avi"


def open_source(settings: Settings) -> FrameSource:
    """The frame source the settings ask for (demo, photos, video file or camera)."""
    if settings.demo:
        path = demo_path()
        if not path.is_file():
            raise InputFileError(f"the demo video is missing ({path}); reinstall qbr")
        return VideoSource(path)
    if settings.images is not None:
        return ImageFolderSource(settings.images, settings.seconds_per_image)
    if isinstance(settings.camera, Path):
        if settings.camera.is_char_device():
            return CameraSource(str(settings.camera), timeout=settings.camera_timeout)
        return VideoSource(settings.camera)
    return CameraSource(settings.camera, timeout=settings.camera_timeout)
