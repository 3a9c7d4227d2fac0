"""`qbr --camera VIDEO --no-window`: the live session end to end on rendered videos of known cubes."""

from __future__ import annotations

import io
import json
import random
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest
import synth
from cli_runner import run_cli as run

from qbr.app import headless
from qbr.app.environment import Environment
from qbr.app.settings import Settings
from qbr.app.sources import Frame, FrameSource
from qbr.cli import ExitStatus
from qbr.cube.conventions import FACES
from qbr.cube.generate import random_state
from qbr.cube.state import CubeState

FPS = 15
DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture(scope="module")
def session_video(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[np.ndarray], Path]:
    facelets = random_state(random.Random(2)).facelets
    # Small frames and short holds keep the test quick; the session's timing is the real one (0.5 s steady).
    frames = list(synth.render_session_frames(facelets, np.random.default_rng(2), fps=FPS, seconds_per_face=0.9,
                                              transition_seconds=0.4, width=320, height=240))
    path = tmp_path_factory.mktemp("video") / "session.avi"
    synth.write_video(frames, path, FPS)
    return facelets, frames, path


def test_headless_reads_and_solves_a_known_cube(session_video, tmp_path: Path) -> None:
    facelets, _, video = session_video
    status, out, err = run(["--camera", str(video), "--no-window", "--json"], tmp_path)
    payload = json.loads(out)
    assert status is ExitStatus.OK, (payload, err)
    assert payload["facelets"] == facelets and payload["valid"] is True
    assert CubeState(facelets).apply(" ".join(payload["moves"])).is_solved
    assert {"steps", "orientation", "confidence", "uncertain", "colours", "language"} <= set(payload)


def test_headless_text_in_the_remembered_language_despite_a_corrupt_palette(session_video, tmp_path: Path) -> None:
    facelets, _, video = session_video
    (tmp_path / "settings.json").write_text(json.dumps({"format": "qbr-settings", "version": 1, "language": "ja"}))
    (tmp_path / "palette.json").write_text("{ this is not json")
    status, out, err = run(["--camera", str(video), "--no-window", "-n"], tmp_path)
    assert status is ExitStatus.OK
    assert facelets in out and "1. " in out and "キューブ" in out
    assert "palette.json" in err and "not valid JSON" in err  # a warning, in the remembered language
    assert (tmp_path / "palette.json").read_text() == "{ this is not json"  # left for the user to look at


def test_explicit_language_wins_over_the_remembered_one(tmp_path: Path) -> None:
    from qbr.app.headless import start
    from qbr.app.settings import Settings
    from qbr.app.store import Store

    store = Store(tmp_path)
    store.save_language("hu")
    assert start(Settings(lang="fr", lang_explicit=True), store)[0] == "fr"
    assert start(Settings(lang="fr", lang_explicit=False), store)[0] == "hu"


def test_video_ending_early_is_incomplete(session_video, tmp_path: Path) -> None:
    _, frames, _ = session_video
    video = tmp_path / "short.avi"
    synth.write_video(frames[: len(frames) // 2], video, FPS)
    status, out, _ = run(["--camera", str(video), "--no-window", "--json"], tmp_path)
    payload = json.loads(out)
    assert status == 8 and payload["error"]["kind"] == "incomplete"
    assert 1 <= len(payload["faces_captured"]) < 6 and set(payload["faces_captured"]) <= set(FACES)
    n = len(payload["faces_captured"])
    # Says so, and which faces are missing (by their centres' colours).
    assert f"short.avi: The video ended after {n} of 6 faces. Missing: " in payload["error"]["message"]


def test_video_without_a_cube(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    video = tmp_path / "wall.avi"
    synth.write_video((rng.integers(90, 110, (240, 320, 3), dtype=np.uint8) for _ in range(20)), video, FPS)
    status, out, _ = run(["--camera", str(video), "--no-window", "--json"], tmp_path)
    assert status is ExitStatus.NO_FACE_FOUND and "wall.avi" in json.loads(out)["error"]["message"]


def test_photo_folder_headless(tmp_path: Path) -> None:
    source = DATA / "photos" / "3x3x3-random-01__2018-02-22"
    folder = tmp_path / "photos"
    folder.mkdir()
    for i, face in enumerate(FACES):  # any order works with the standard colour scheme: shuffle the names
        shutil.copy(source / f"{face}.png", folder / f"{(i * 5) % 6}_{face}.png")
    status, out, err = run(["--images", str(folder), "--no-window", "--json"], tmp_path)
    payload = json.loads(out)
    assert payload["facelets"] == json.loads((source / "truth.json").read_text())["expected_facelets"], err
    assert status is ExitStatus.OK


def test_photo_folder_headless_with_a_face_not_found(tmp_path: Path) -> None:
    source = DATA / "photos" / "3x3x3-random-01__2018-02-22"
    folder = tmp_path / "photos"
    folder.mkdir()
    for face in "URFLB":
        shutil.copy(source / f"{face}.png", folder / f"{face}.png")
    cv2.imwrite(str(folder / "D.png"), np.full((480, 640, 3), 200, np.uint8))  # the yellow face not in its photo
    status, out, err = run(["--images", str(folder), "--no-window", "--json"], tmp_path)
    payload = json.loads(out)
    assert status is ExitStatus.OK, err
    assert payload["facelets"] == json.loads((source / "truth.json").read_text())["expected_facelets"]
    assert payload["deduced"] == list(range(27, 36))
    assert any(n.startswith("The D face (yellow centre) was not found") for n in payload["notices"])


def test_window_without_display(session_video, tmp_path: Path) -> None:
    _, _, video = session_video
    status, _, err = run(["--camera", str(video)], tmp_path)
    assert status is ExitStatus.NO_DISPLAY and "--no-window" in err


def test_missing_camera_file_and_bad_video(tmp_path: Path) -> None:
    status, _, err = run(["--camera", str(tmp_path / "none.avi"), "--no-window"], tmp_path)
    assert status is ExitStatus.BAD_INPUT_FILE and "none.avi" in err
    (tmp_path / "bad.avi").write_text("nope")
    status, _, err = run(["--camera", str(tmp_path / "bad.avi"), "--no-window"], tmp_path)
    assert status is ExitStatus.BAD_INPUT_FILE and "bad.avi" in err


def test_demo_without_display_falls_back_to_headless(tmp_path: Path) -> None:
    from qbr.app.sources import demo_path

    if not demo_path().is_file():
        pytest.skip("assets/demo.avi not generated yet")
    status, out, err = run(["--demo", "--json"], tmp_path)
    assert "without a window" in err
    assert status is ExitStatus.OK and json.loads(out)["valid"] is True


def test_dark_frames_between_do_not_disturb(tmp_path: Path, session_video) -> None:
    # Every seventh frame black (a flicker, a dropped frame): the steadiness timer bridges short gaps.
    facelets, frames, _ = session_video
    broken = [f if i % 7 else np.zeros_like(f) for i, f in enumerate(frames)]
    video = tmp_path / "dark.avi"
    synth.write_video(broken, video, FPS)
    status, out, _ = run(["--camera", str(video), "--no-window", "--json"], tmp_path)
    assert status is ExitStatus.OK and json.loads(out)["facelets"] == facelets


class _SilentSpell(FrameSource):
    """A live source that gives the session video's frames but falls silent for a while halfway."""

    is_live = True
    name = "camera 0"

    def __init__(self, frames: list[np.ndarray], silent_reads: int) -> None:
        self._frames, self._silent, self._i = frames, silent_reads, 0

    def read(self) -> Frame | None:
        if self._i == len(self._frames) // 2 and self._silent > 0:
            self._silent -= 1
            return None
        if self._i >= len(self._frames):
            return None
        self._i += 1
        return Frame(self._frames[self._i - 1], self._i / FPS)

    @property
    def ended(self) -> bool:
        return self._i >= len(self._frames)


def test_a_camera_that_falls_silent_is_reported_once_and_the_scan_goes_on(session_video, tmp_path: Path) -> None:
    facelets, frames, _ = session_video
    clock = [0.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:  # the Environment's sleep: time passes only for the runtime's clock
        slept.append(seconds)
        clock[0] += seconds

    err = io.StringIO()
    env = Environment(stdout=io.StringIO(), stderr=err, stdout_isatty=False, config_dir=tmp_path,
                      system_language="en", has_display=False, clock=lambda: clock[0], sleep=sleep)
    # 60 silent reads, each followed by the runtime's idle wait (30 ms): 1.8 s of silence, past the 1 s threshold.
    result = headless.run_headless(Settings(lang="en", window=False), env, _SilentSpell(frames, silent_reads=60))
    assert len(slept) == 60 and 1.0 < sum(slept) < 2.0
    assert result.error is None and result.payload["facelets"] == facelets
    lines = err.getvalue().splitlines()
    assert lines == ["qbr: camera 0: No picture from the camera. Check that it is connected and not used by "
                     "another program; everything scanned is kept.", "qbr: camera 0: The camera is back."]


def test_a_video_is_read_through_the_held_face_and_photos_each_alone(session_video, tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from qbr.app.analysis import StreamAnalyser

    facelets, frames, _ = session_video
    streamed: list[bool] = []
    call = StreamAnalyser.__call__

    def spy(self: StreamAnalyser, image: np.ndarray, palette, size: int | None = None):
        analysis = call(self, image, palette, size)
        streamed.append(analysis is not None)
        return analysis

    monkeypatch.setattr(StreamAnalyser, "__call__", spy)
    env = Environment(stdout=io.StringIO(), stderr=io.StringIO(), stdout_isatty=False, config_dir=tmp_path,
                      system_language="en", has_display=False, clock=lambda: 0.0, sleep=lambda s: None)
    result = headless.run_headless(Settings(lang="en", window=False), env, _SilentSpell(frames, silent_reads=0))
    assert result.payload["facelets"] == facelets
    assert sum(streamed) >= 6  # a video's frames go through the held face, in turn
    streamed.clear()
    _, out, _ = run(["--images", str(DATA / "photos" / "3x3x3-random-01"), "--no-window", "--json"], tmp_path)
    assert len(json.loads(out)["facelets"] or "") == 54
    assert streamed == []  # a photo shows another face: read alone


def test_a_washed_out_centre_like_another_does_not_stall_the_scan(tmp_path: Path) -> None:
    # In this rig's photos two centres (the white and the washed-out yellow) measure alike and both read white;
    # shown one after the other, their outer stickers tell them apart, so all six faces are captured (issue 13).
    _, out, err = run(["--images", str(DATA / "photos" / "3x3x3-random-01"), "--no-window", "--json"], tmp_path)
    payload = json.loads(out)
    # Six faces went to resolution (main stopped at 5 of 6 here); the cube itself is left in doubt by this rig.
    assert len(payload.get("faces_captured") or FACES) == 6 and len(payload["facelets"] or "") == 54, err
    assert "input ended" not in err


def test_a_run_whose_calibrated_colours_name_centres_for_each_other_says_calibration_may_be_the_cause(
        session_video, tmp_path: Path) -> None:
    from qbr.vision.palette import DEFAULT_PALETTE

    # The palette, stored by calibrating on the wrong faces: its "yellow" is red and its "red" teal. The
    # session places the red-centred face as yellow's (D); the pieces it shows place it back (R), so the cube is
    # read right, and the run says which centre was read as which, and that the calibration may be the cause.
    colours = {**DEFAULT_PALETTE.colours, "yellow": DEFAULT_PALETTE.colours["red"], "red": (0.0, 128.0, 128.0)}
    bad = {"format": "qbr-palette", "version": 1, "name": "calibrated", "colours": {k: list(v) for k, v in
                                                                                     colours.items()}}
    (tmp_path / "palette.json").write_text(json.dumps(bad))
    facelets, _, video = session_video
    status, out, err = run(["--camera", str(video), "--no-window", "--json"], tmp_path)
    payload = json.loads(out)
    assert status is ExitStatus.OK and payload["facelets"] == facelets
    assert any("the cube's pieces place that face there" in line for line in payload["notices"])
    assert "The colour calibration may be the cause: press R in the qbr window to reset it, or delete" in err
    assert str(tmp_path / "palette.json") in err
    status, _, err = run(["--camera", str(video), "--no-window"], tmp_path / "defaults")
    assert status is ExitStatus.OK and "calibration" not in err
