"""The real window under Xvfb on sources that end: a video that stops at 4 of 6 faces says so and exits cleanly.

Needs Xvfb, xdotool and xwd like test_e2e_window (skipped without them unless QBR_REQUIRE_XVFB=1).
"""
# ruff: noqa: F811 (the xvfb fixture is test_e2e_window's, imported by name)

from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2
import numpy as np

from qbr.cube.state import CubeState
from tests.app.test_e2e_window import ROOT, SCRAMBLE, _screenshot, _start, _window, xvfb  # noqa: F401

FPS = 15


def _video_of(faces: str, path: Path) -> None:
    """Each of ``faces`` of the scrambled cube held still for 1.4 s, then put down; the video stops there."""
    sys.path.insert(0, str(ROOT / "tests"))
    import synth

    params = synth.RenderParams(sticker_size=0.09, hand=True)
    facelets = CubeState.from_scramble(SCRAMBLE).facelets
    shots = {f: r.image for f, r in synth.render_cube(facelets, params, np.random.default_rng(3)).items()}
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (640, 480))
    empty = np.full((480, 640, 3), 90, np.uint8)
    for face in faces:
        for _ in range(21):
            writer.write(shots[face])
        for _ in range(8):
            writer.write(empty)
    writer.release()


def test_a_video_that_ends_at_4_of_6_says_what_is_missing_and_exits_cleanly(xvfb, tmp_path):
    video = tmp_path / "four.avi"
    _video_of("FRBL", video)
    length = 4 * 29 / FPS
    app = _start(xvfb, tmp_path, "--camera", str(video), "--lang", "en")
    try:
        window = _window(xvfb, app)
        started = time.monotonic()
        time.sleep(length + 1.5)  # the video has ended: the window now says what is missing
        assert app.poll() is None, "the window closed at once instead of saying what is missing"
        # A loaded machine may show a window not yet painted (all black): look again for a few seconds.
        for _ in range(12):
            shot = _screenshot(xvfb, window)
            bar = shot[: shot.shape[0] // 12]
            if bar.any() or app.poll() is not None:
                break
            time.sleep(0.25)
        assert bar.mean() < 110 and (bar > 200).all(axis=2).sum() > 100  # the dark prompt bar, with its words
        status = app.wait(20)
        elapsed = time.monotonic() - started
        err = app.stderr.read()
        assert status == 8, err  # documented: input ended before six faces were captured
        assert "four.avi: The video ended after 4 of 6 faces. Missing: white, yellow." in err, err
        assert "Traceback" not in err
        assert elapsed < length + 15  # by itself, a few seconds after the end: no key needed
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(5)
