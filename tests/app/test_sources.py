"""Frame sources, image reading and settings: bad input is a clear error naming the file, never a crash."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from qbr.app.errors import InputFileError, NoCameraError
from qbr.app.settings import Settings
from qbr.app.sources import CameraSource, ImageFolderSource, VideoSource, demo_path, open_source, read_image


def _frames(n: int, size=(64, 48)) -> list[np.ndarray]:
    return [np.full((size[1], size[0], 3), 20 * i, np.uint8) for i in range(n)]


def _video(path: Path, frames: list[np.ndarray], fps: float = 10.0) -> Path:
    h, w = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (w, h))
    for f in frames:
        writer.write(f)
    writer.release()
    return path


def test_video_source_gives_every_frame_with_deterministic_times(tmp_path: Path) -> None:
    path = _video(tmp_path / "v.avi", _frames(8))
    with VideoSource(path) as source:
        assert source.fps == pytest.approx(10.0) and not source.is_live
        frames = []
        while (f := source.read()) is not None:
            frames.append(f)
        assert source.ended and source.read() is None
    assert [f.t for f in frames] == pytest.approx([i / 10 for i in range(8)])
    assert [round(float(f.image.mean()) / 20) for f in frames] == list(range(8))


@pytest.mark.parametrize("content", [b"", b"this is not a video", b"RIFF\x00\x00\x00\x00AVI LIST"])
def test_unreadable_video_names_the_file(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "broken.avi"
    path.write_bytes(content)
    with pytest.raises(InputFileError, match=r"broken\.avi"):
        VideoSource(path)
    with pytest.raises(InputFileError, match=r"nothere\.avi"):
        VideoSource(tmp_path / "nothere.avi")


def test_image_folder_shows_each_photo_for_a_while(tmp_path: Path) -> None:
    for name, value in (("b.png", 200), ("a.jpg", 50)):
        cv2.imwrite(str(tmp_path / name), np.full((40, 60, 3), value, np.uint8))
    (tmp_path / "notes.txt").write_text("ignored")
    source = ImageFolderSource(tmp_path, seconds_per_image=0.5, fps=10)
    frames = []
    while (f := source.read()) is not None:
        frames.append(f)
    assert source.ended and len(frames) == 10
    assert [round(float(f.image.mean()), -1) for f in frames] == [50] * 5 + [200] * 5  # sorted by name
    assert frames[-1].t == pytest.approx(0.9)


def test_bad_image_folders(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="no photos"):
        ImageFolderSource(tmp_path)
    (tmp_path / "U.png").write_text("not a png")
    with pytest.raises(InputFileError, match=r"U\.png"):
        ImageFolderSource(tmp_path)
    with pytest.raises(InputFileError, match="not a directory"):
        ImageFolderSource(tmp_path / "U.png")


class FakeCapture:
    """A cv2.VideoCapture stand-in whose frames follow a script: True = a frame, False = a failed read."""

    def __init__(self, opened: bool, script: list[bool]) -> None:
        self.opened, self.script, self.released = opened, script, False

    def isOpened(self) -> bool:
        return self.opened

    def get(self, prop: int) -> float:
        return 30.0

    def read(self):
        ok = self.script.pop(0) if self.script else False
        return (True, np.zeros((48, 64, 3), np.uint8)) if ok else (False, None)

    def release(self) -> None:
        self.released = True


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.1
        return self.now


def test_camera_that_cannot_open_names_every_alternative() -> None:
    with pytest.raises(NoCameraError) as caught:
        CameraSource(3, capture=lambda i: FakeCapture(False, []), clock=Clock())
    message = str(caught.value)
    for hint in ("camera 3", "--camera N", "--camera FILE", "--images DIR", "--demo"):
        assert hint in message


def test_camera_without_frames_gives_up_after_the_timeout() -> None:
    clock = Clock()
    capture = FakeCapture(True, [False] * 1000)
    with pytest.raises(NoCameraError, match="no picture within 3 s"):
        CameraSource(0, timeout=3.0, capture=lambda i: capture, clock=clock)
    assert 3.0 <= clock.now < 3.5 and capture.released


def test_camera_fault_is_a_missing_frame_then_reopens() -> None:
    opened: list[FakeCapture] = []

    def open_capture(index: int) -> FakeCapture:
        opened.append(FakeCapture(True, [True, True] + [False] * 30 if not opened else [True] * 5))
        return opened[-1]

    camera = CameraSource(0, capture=open_capture, clock=Clock())
    assert camera.is_live and camera.read() is not None and camera.read() is not None
    results = [camera.read() for _ in range(15)]  # unplugged: None, never an exception
    assert results[0] is None
    assert len(opened) == 2 and opened[0].released  # reopened after about a second without frames
    assert any(r is not None for r in results[10:])  # and frames came back


def _png(path: Path, image: np.ndarray) -> Path:
    path.write_bytes(cv2.imencode(".png", image)[1].tobytes())
    return path


@pytest.mark.parametrize(("suffix", "side"), [(".jpg", 8000), (".png", 4100)])
def test_read_image_shrinks_huge_photos(tmp_path: Path, suffix: str, side: int) -> None:
    image = np.zeros((side, side, 3), np.uint8)
    image[:, side // 2 :] = 255
    path = tmp_path / f"huge{suffix}"
    path.write_bytes(cv2.imencode(suffix, image)[1].tobytes())
    shrunk = read_image(path)
    assert max(shrunk.shape[:2]) <= 2000 and shrunk.shape[2] == 3
    half = shrunk.shape[1] // 2
    assert shrunk[:, : half - 5].max() < 10 and shrunk[:, half + 5 :].min() > 245


def test_read_image_rejects_bad_files_by_name(tmp_path: Path) -> None:
    good = _png(tmp_path / "good.png", np.full((30, 40, 3), 9, np.uint8))
    assert read_image(good).shape == (30, 40, 3)
    cases = {
        "empty.png": b"",
        "text.jpg": b"hello, I am text",
        "truncated.png": good.read_bytes()[:40],
        "giant.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (100_000).to_bytes(4, "big") * 2 + b"\x08\x02\x00\x00",
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(InputFileError, match=re.escape(name)):
            read_image(tmp_path / name)
    with pytest.raises(InputFileError, match="no such file"):
        read_image(tmp_path / "missing.png")
    with pytest.raises(InputFileError, match="directory"):
        read_image(tmp_path)


def test_settings_check_the_camera(tmp_path: Path) -> None:
    video = _video(tmp_path / "v.avi", _frames(3))
    args = dict(images=None, demo=False, window=False, json=False, lang="en", lang_explicit=False, normalize=False,
                budget=0.0)
    assert Settings.from_args(camera=None, **args).camera == 0
    assert Settings.from_args(camera="2", **args).camera == 2
    assert Settings.from_args(camera=str(video), **args).camera == video
    with pytest.raises(InputFileError, match="no such file"):
        Settings.from_args(camera="cam.avi", **args)
    with pytest.raises(InputFileError, match="--images"):
        Settings.from_args(camera=str(tmp_path), **args)
    with pytest.raises(InputFileError, match="not a directory"):
        Settings.from_args(camera=None, **{**args, "images": video})
    assert isinstance(open_source(Settings(camera=video)), VideoSource)
    _png(tmp_path / "U.png", np.zeros((8, 8, 3), np.uint8))
    assert isinstance(open_source(Settings(images=tmp_path)), ImageFolderSource)


def test_demo_path_points_at_the_bundled_video() -> None:
    assert demo_path().name == "demo.avi"
