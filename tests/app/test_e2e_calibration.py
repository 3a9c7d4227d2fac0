"""The real window under Xvfb: calibration refuses a face of the wrong colour and leaves the stored colours as they
were; after a solved cube's Done screen, N scans a second cube without restarting.

Needs Xvfb, xdotool and xwd (see tests/app/test_e2e_window.py, whose helpers these tests use).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np
import synth

from qbr.cube.errors import MoveSyntaxError
from qbr.cube.moves import parse_moves
from qbr.cube.state import CubeState
from tests.app.test_e2e_window import Output, _screenshot, _start, _window, _xdotool, xvfb  # noqa: F401 (fixture)

FPS = 15
WARN_BG = (20, 40, 150)  # the overlay's background (BGR) behind a warning: here the reason a face is refused


def _faces(facelets: str, seed: int) -> dict[str, np.ndarray]:
    params = synth.RenderParams(sticker_size=0.09, hand=True)
    return {f: r.image for f, r in synth.render_cube(facelets, params, np.random.default_rng(seed)).items()}


def _write(path: Path, shots: list[tuple[np.ndarray, int]]) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (640, 480))
    for image, frames in shots:
        for _ in range(frames):
            writer.write(image)
    writer.release()


def _solution_lines(text: str) -> list[str]:
    found = []
    for line in text.splitlines(keepends=True):
        if not line.endswith("\n"):
            break
        try:
            if parse_moves(line.strip()):
                found.append(line.strip())
        except MoveSyntaxError:
            continue
    return found


def _warning(shot: np.ndarray) -> int:
    return int(np.all(np.abs(shot.astype(int) - WARN_BG) < 25, axis=2).sum())


def _wait_for_picture(display: str, window: str, ok, timeout: float = 20) -> np.ndarray:
    """The window's picture once ``ok`` says so (or the last one at the timeout)."""
    deadline = time.monotonic() + timeout
    shot = _screenshot(display, window)
    while not ok(shot) and time.monotonic() < deadline:
        time.sleep(0.3)
        shot = _screenshot(display, window)
    return shot


def _stop(app) -> None:
    if app.poll() is None:
        app.kill()
        app.wait(5)


def test_calibration_refuses_a_wrong_face_and_keeps_the_old_colours(xvfb, tmp_path: Path) -> None:  # noqa: F811
    facelets = CubeState.from_scramble("R U2 F' L D2 B").facelets
    green = _faces(facelets, 3)["F"]
    video = tmp_path / "green.avi"
    _write(video, [(green, 25 * FPS)])  # the green face held up for 25 s while white is asked for
    config = tmp_path / "home" / ".config" / "qbr"
    config.mkdir(parents=True)
    stored = {"format": "qbr-palette", "version": 1, "name": "calibrated",
              "colours": {"white": [230, 230, 225], "yellow": [225, 210, 60], "red": [190, 35, 40],
                          "orange": [240, 125, 30], "green": [35, 150, 85], "blue": [40, 80, 165]}}
    (config / "palette.json").write_text(json.dumps(stored, indent=1))
    before = (config / "palette.json").read_bytes()
    app = _start(xvfb, tmp_path, "--camera", str(video), "--lang", "en")
    try:
        window = _window(xvfb, app)
        _wait_for_picture(xvfb, window, lambda shot: shot.mean() > 20)  # drawing frames: keys are read now
        _xdotool(xvfb, "key", "--window", window, "c")
        # One colour takes a second to sample: the refusal must stand for longer than that, on a loaded machine too.
        shot = _wait_for_picture(xvfb, window, lambda shot: _warning(shot) > 2000, timeout=15)
        cv2.imwrite(str(tmp_path / "refused.png"), shot)
        assert _warning(shot) > 2000, "no refusal shown while the green face is held for white"
        time.sleep(2.0)
        assert _warning(_screenshot(xvfb, window)) > 2000, "the refusal did not stay while the face is held"
        _xdotool(xvfb, "key", "--window", window, "Escape")
        assert app.wait(10) == 0
    finally:
        _stop(app)
    assert (config / "palette.json").read_bytes() == before


def test_n_after_done_scans_a_second_cube(xvfb, tmp_path: Path) -> None:  # noqa: F811
    # The first cube is a solved one: its Done screen comes at once, with nothing a misread could put in doubt.
    first = CubeState.from_scramble("").facelets
    second = CubeState.from_scramble("F2 L' U B2 R D' F").facelets
    empty = np.full((480, 640, 3), 90, np.uint8)
    shots: list[tuple[np.ndarray, int]] = []
    one, two = _faces(first, 3), _faces(second, 5)
    for face in "FRBLUD":
        shots += [(one[face], 21), (empty, 8)]
    shots.append((empty, 2 * FPS))
    for _ in range(2):  # the second cube twice: whenever N is pressed, all its faces still come round
        for face in "FRBLUD":
            shots += [(two[face], 21), (empty, 8)]
    video = tmp_path / "two.avi"
    _write(video, shots)
    app = _start(xvfb, tmp_path, "--camera", str(video), "--lang", "en")
    out = Output(app.stdout)
    try:
        window = _window(xvfb, app)
        text = out.wait_for(lambda t: "already solved" in t, timeout=40)
        assert "already solved" in text, f"the solved cube was not read as solved; stdout: {text!r}"
        assert not _solution_lines(text)
        _xdotool(xvfb, "key", "--window", window, "n")
        text = out.wait_for(lambda t: len(_solution_lines(t)) >= 1, timeout=60)
        lines = _solution_lines(text)
        assert lines, f"no solution of the second cube after N; stdout: {text!r}"
        assert CubeState(second).apply(parse_moves(lines[0])).is_solved, lines[0]
        _xdotool(xvfb, "key", "--window", window, "Escape")
        assert app.wait(10) == 0
    finally:
        _stop(app)
