"""The one runtime under the window and headless mode: the same lost-camera rule, the end of a source said once."""

from __future__ import annotations

import io

import pytest

from qbr.app.runtime import Runtime, RuntimeTunables, Unattended
from qbr.app.session import EndedEvent, FrameEvent, SourceEvent
from tests.app.test_overlay_loop import FakeClock, FakeDisplay, FakeSession, FakeSource, _frames


def _runtime(session, source, clock, paced: bool, keys=None) -> Runtime:
    if paced:
        front = FakeDisplay(clock, keys or {})
    else:
        front = Unattended(lambda seconds: setattr(clock, "now", clock.now + seconds))
    return Runtime(session, source, analyse=lambda image: None, resolve=lambda effect: (None, None, None),
                   front=front, out=io.StringIO(), draw=(lambda frame, view: frame) if paced else None, clock=clock,
                   paced=paced, threaded=paced)


@pytest.mark.parametrize("paced", [True, False], ids=["window", "headless"])
@pytest.mark.parametrize(("silent_s", "lost"), [(0.8, False), (1.3, True)])
def test_window_and_headless_call_a_camera_lost_after_the_same_silence(paced: bool, silent_s: float,
                                                                      lost: bool) -> None:
    clock = FakeClock()
    idle = RuntimeTunables().idle_seconds
    frames = [*_frames(3), *[None] * round(silent_s / idle), *_frames(3)]
    session = FakeSession()
    runtime = _runtime(session, FakeSource(frames, live=True), clock, paced)
    for _ in range(len(frames)):
        runtime.step()
    assert [e.ok for e in session.of(SourceEvent)] == ([False, True] if lost else [])
    assert len(session.of(FrameEvent)) == 6


@pytest.mark.parametrize("paced", [True, False], ids=["window", "headless"])
def test_the_end_of_a_video_is_said_once_and_is_not_a_lost_camera(paced: bool) -> None:
    clock = FakeClock()
    session = FakeSession()
    runtime = _runtime(session, FakeSource(_frames(4), live=False), clock, paced)
    for _ in range(40):
        runtime.step()
    assert len(session.of(EndedEvent)) == 1 and not session.of(SourceEvent)
    ended = session.of(EndedEvent)[0]
    assert ended.source == "video" and ended.t >= session.of(FrameEvent)[-1].t


def test_headless_events_carry_the_video_time_and_never_wait_for_it() -> None:
    # Headless reads as fast as frames come; the session sees the video's own times, so a run is the same anywhere.
    clock = FakeClock()
    session = FakeSession()
    runtime = _runtime(session, FakeSource(_frames(20), live=False), clock, paced=False)
    for _ in range(20):
        runtime.step()
    assert [round(e.t, 6) for e in session.of(FrameEvent)] == [round(i / 10, 6) for i in range(20)]
    assert clock.now == 100.0  # no sleep while frames were there
