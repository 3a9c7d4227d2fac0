"""`qbr --list-cameras` and `--mirror` / M: the cameras there are (or none), and a mirrored webcam read right."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest
import synth

from qbr.app.cameras import CameraInfo, list_cameras
from qbr.app.headless import make_session
from qbr.app.runtime import Runtime, Unattended
from qbr.app.session import FrameEvent, SetMirror
from qbr.app.settings import Settings
from qbr.app.store import Store
from qbr.cli import ExitStatus
from qbr.cube.generate import random_state
from tests.app.test_overlay_loop import FakeClock, FakeSession, FakeSource, Frame

FPS = 15


def test_list_cameras_with_none_says_so(qbr_cli) -> None:
    status, out, err = qbr_cli(["--list-cameras"], cameras=lambda: [])
    assert status is ExitStatus.OK and out.startswith("No camera found.") and "--demo" in out and not err
    status, out, _ = qbr_cli(["--list-cameras", "--json"], cameras=lambda: [])
    assert json.loads(out) == {"cameras": []}


def test_list_cameras_gives_index_resolution_and_name(qbr_cli) -> None:
    found = [CameraInfo(0, 1280, 720, "Integrated Camera"), CameraInfo(2, 640, 480)]
    status, out, _ = qbr_cli(["--list-cameras"], cameras=lambda: found)
    assert status is ExitStatus.OK
    assert out.splitlines() == ["Cameras (use --camera N):", "  0: 1280x720  Integrated Camera", "  2: 640x480"]
    _, out, _ = qbr_cli(["--list-cameras", "--json"], cameras=lambda: found)
    assert json.loads(out)["cameras"][1] == {"index": 2, "width": 640, "height": 480, "name": None}


class _Capture:
    def __init__(self, opened: bool, size: tuple[int, int] = (640, 480)) -> None:
        self.opened, self.size, self.released = opened, size, False

    def isOpened(self) -> bool:  # OpenCV's name
        return self.opened

    def get(self, prop: int) -> float:
        import cv2

        return float(self.size[0] if prop == cv2.CAP_PROP_FRAME_WIDTH else self.size[1])

    def release(self) -> None:
        self.released = True


def test_list_cameras_opens_each_device_once_and_names_it(tmp_path: Path) -> None:
    dev, sysfs = tmp_path / "dev", tmp_path / "sys"
    dev.mkdir()
    for n in (0, 1, 2):  # a webcam has a capture node and a metadata node that does not open
        (dev / f"video{n}").touch()
        (sysfs / f"video{n}").mkdir(parents=True)
        (sysfs / f"video{n}" / "name").write_text(f"Cam {n}\n")
    (dev / "videodev").touch()  # not a videoN node
    caps: dict[int, _Capture] = {}

    def opener(index: int) -> _Capture:
        caps[index] = _Capture(index != 1, (1280, 720) if index == 2 else (640, 480))
        return caps[index]

    found = list_cameras(opener, dev=dev, sysfs=sysfs)
    if sys.platform.startswith("linux"):
        assert found == [CameraInfo(0, 640, 480, "Cam 0"), CameraInfo(2, 1280, 720, "Cam 2")]
        assert sorted(caps) == [0, 1, 2] and all(c.released for c in caps.values())
    else:  # elsewhere indices are probed and the OS gives no names
        assert [(c.index, c.name) for c in found] == [(0, None)]


def test_without_a_device_list_indices_are_probed_until_two_fail(tmp_path: Path) -> None:
    tried: list[int] = []

    def opener(index: int):
        tried.append(index)
        if index == 1:
            raise RuntimeError("driver fault")  # a failing driver is a camera that is not there
        return _Capture(index in (0, 2))

    found = list_cameras(opener, dev=tmp_path / "no-dev")
    assert [c.index for c in found] == [0, 2] and tried == [0, 1, 2, 3, 4]


def test_m_after_a_mirror_effect_flips_every_later_frame() -> None:
    clock = FakeClock()
    session = FakeSession({FrameEvent: [SetMirror(True)]})
    frames = [Frame(np.arange(12, dtype=np.uint8).reshape(1, 4, 3), i / 10) for i in range(3)]
    seen: list[np.ndarray] = []
    saved: list[bool] = []
    runtime = Runtime(session, FakeSource(frames, live=False), analyse=lambda image: seen.append(image),
                      resolve=lambda effect: (None, None, None), front=Unattended(lambda s: None), out=io.StringIO(),
                      clock=clock, paced=False, threaded=False, save_mirror=lambda on: saved.append(on))
    for _ in range(3):
        runtime.step()
    assert np.array_equal(seen[0], frames[0].image)  # the frame that asked for it was read as it came
    assert np.array_equal(seen[1], frames[1].image[:, ::-1]) and np.array_equal(seen[2], frames[2].image[:, ::-1])
    assert saved == [True]


def test_the_mirror_is_remembered_for_cameras_only(tmp_path: Path) -> None:
    store = Store(tmp_path)
    assert store.save_mirror(True) is None
    assert make_session(Settings(), store, 0.0, all_languages=False, live=True)[0].mirror is True
    assert make_session(Settings(), store, 0.0, all_languages=False, live=False)[0].mirror is False  # a video file
    assert make_session(Settings(mirror=True), store, 0.0, all_languages=False, live=False)[0].mirror is True
    (tmp_path / "settings.json").write_text(json.dumps({"format": "qbr-settings", "version": 1, "mirror": "yes"}))
    session = make_session(Settings(lang_explicit=True), store, 0.0, all_languages=False, live=True)[0]
    assert session.mirror is False and "mirror" in (session.view().message or "")  # reported, then ignored


@pytest.fixture(scope="module")
def mirrored_video(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    facelets = random_state(random.Random(11)).facelets
    frames = synth.render_session_frames(facelets, np.random.default_rng(11), fps=FPS, seconds_per_face=0.9,
                                         transition_seconds=0.4, width=320, height=240)
    path = tmp_path_factory.mktemp("video") / "mirrored.avi"
    synth.write_video((np.ascontiguousarray(f[:, ::-1]) for f in frames), path, FPS)  # as a mirroring webcam
    return facelets, path


def test_a_mirrored_video_is_read_right_with_mirror_only(mirrored_video, qbr_cli) -> None:
    facelets, video = mirrored_video
    status, out, err = qbr_cli(["--camera", str(video), "--no-window", "--mirror", "--json"])
    assert status is ExitStatus.OK and json.loads(out)["facelets"] == facelets, err
    status, out, _ = qbr_cli(["--camera", str(video), "--no-window", "--json"])
    assert json.loads(out).get("facelets") != facelets  # read as it comes, every face is its mirror image


def test_m_toggles_mirroring_says_so_and_is_offered_before_the_first_face() -> None:
    from qbr.app.session import Session, SessionConfig
    from qbr.solve.i18n import Translator
    from qbr.vision.palette import DEFAULT_PALETTE
    from tests.app.test_session import LOCALES, analysis, face_colours

    session = Session(SessionConfig(), {"en": Translator("en", extra_dirs=[LOCALES])}, DEFAULT_PALETTE, 0.0)
    assert ("M", "mirror") in session.view().legend
    from qbr.app.session import KeyEvent

    assert session.handle(KeyEvent(0.1, "m")) == [SetMirror(True)]
    assert session.mirror and session.view().message == "Mirroring on: the picture is flipped left to right."
    assert session.handle(KeyEvent(0.2, "m")) == [SetMirror(False)]
    assert not session.mirror and session.view().message == "Mirroring off."
    for i in range(12):
        session.handle(FrameEvent(1 + i / 15, analysis(face_colours("F"))))
    assert session.captured_count == 1 and ("M", "mirror") not in session.view().legend
