"""The window loop over fake parts: keys, pacing of a video, lost frames, effects, the resolver thread."""

from __future__ import annotations

import io
import time
from dataclasses import dataclass

import numpy as np
import pytest

from qbr.app.loop import WindowLoop, key_name
from qbr.app.session import (
    FrameEvent,
    KeyEvent,
    NoticeEvent,
    PrintText,
    Quit,
    ResolveCube,
    ResolvedEvent,
    SaveLanguage,
    SolvingEvent,
    SourceEvent,
    TickEvent,
)


@pytest.mark.parametrize(("code", "name"), [
    (32, "space"), (27, "esc"), (13, "enter"), (8, "backspace"), (ord("c"), "c"), (ord("L"), "l"),
    (65361, "left"), (65363, "right"), (0x1000012, "left"), (0x1000014, "right"), (2424832, "left"),
    (2555904, "right"), (65288, "backspace"), (ord("y"), "y"), (ord("n"), "n"), (ord("r"), "r"),
    (65362, "up"), (65364, "down"), (0x1000013, "up"), (0x1000015, "down"), (0x260000, "up"), (0x280000, "down"),
    (ord("E"), "e"), (ord("1"), "1"), (ord("6"), "6"),
])
def test_key_codes_of_every_backend(code, name):
    assert key_name(code) == name


@pytest.mark.parametrize("code", [-1, ord("x"), 65360, 0x1000016, ord("0"), ord("7")])
def test_unused_keys_are_ignored(code):
    assert key_name(code) is None


@dataclass
class Frame:
    image: np.ndarray
    t: float


class FakeSource:
    def __init__(self, frames: list, live: bool, fps: float = 10.0) -> None:
        self.frames = list(frames)
        self.is_live = live
        self.fps = fps
        self.reads = 0

    def read(self):
        self.reads += 1
        return self.frames.pop(0) if self.frames else None

    @property
    def ended(self) -> bool:
        return not self.is_live and not self.frames


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class FakeDisplay:
    """Returns scripted keys; each wait advances the fake clock by the time asked for."""

    def __init__(self, clock: FakeClock, keys: dict[int, int]) -> None:
        self.clock = clock
        self.keys = keys
        self.shown: list[np.ndarray] = []
        self.waits: list[int] = []
        self.closed_after: int | None = None

    def show(self, image):
        self.shown.append(image)

    def key(self, wait_ms):
        self.waits.append(wait_ms)
        self.clock.now += wait_ms / 1000
        return self.keys.get(len(self.shown), -1)

    def closed(self):
        return self.closed_after is not None and len(self.shown) >= self.closed_after

    def close(self):
        pass


class FakeSession:
    def __init__(self, script: dict | None = None) -> None:
        self.events: list = []
        self.script = script or {}

    def handle(self, event):
        self.events.append(event)
        for kind, effects in self.script.items():
            if isinstance(event, kind) and effects:
                return [effects.pop(0)]
        if isinstance(event, KeyEvent) and event.key == "esc":
            return [Quit()]
        return []

    def view(self):
        return len(self.events)

    def of(self, kind):
        return [e for e in self.events if isinstance(e, kind)]


def _frames(n: int, fps: float = 10.0) -> list[Frame]:
    return [Frame(np.full((48, 64, 3), i % 256, np.uint8), i / fps) for i in range(n)]


def _loop(session, source, display, clock, **kw) -> WindowLoop:
    return WindowLoop(session, source, analyse=lambda img: None, resolve=kw.pop("resolve", lambda e: (1, 2, None)),
                      out=kw.pop("out", io.StringIO()), display=display, draw=lambda frame, view: frame,
                      clock=clock, **kw)


def test_video_plays_at_its_fps_then_holds_the_last_frame_until_esc():
    clock = FakeClock()
    display = FakeDisplay(clock, {60: 27})
    session = FakeSession()
    source = FakeSource(_frames(5), live=False)
    _loop(session, source, display, clock).run()
    frames = session.of(FrameEvent)
    assert len(frames) == 5
    gaps = np.diff([e.t for e in frames])
    assert (gaps >= 0.099).all()  # never faster than 10 fps
    assert not session.of(SourceEvent)  # the end of a video is not a lost camera
    assert int(display.shown[-1][0, 0, 0]) == 4 and len(display.shown) == 60
    assert len(session.of(TickEvent)) == 60 and session.of(KeyEvent)[-1].key == "esc"


def test_lost_camera_reports_and_resumes():
    clock = FakeClock()
    display = FakeDisplay(clock, {13: 27})
    # One missed frame is not a lost camera; three in a row (90 ms of silence here) are.
    frames = [*_frames(2), None, *_frames(1), None, None, None, None, *_frames(2)]
    session = FakeSession()
    _loop(session, FakeSource(frames, live=True), display, clock, lost_after=0.06).run()
    # (after the last frame the source goes silent again: lost once more)
    assert [e.ok for e in session.of(SourceEvent)] == [False, True, False]
    kinds = [type(e).__name__ for e in session.events if isinstance(e, FrameEvent | SourceEvent)]
    assert kinds == ["FrameEvent"] * 3 + ["SourceEvent", "SourceEvent"] + ["FrameEvent"] * 2 + ["SourceEvent"]
    # While lost the last frame stays on screen.
    assert int(display.shown[6][0, 0, 0]) == 0


def test_closing_the_window_quits():
    clock = FakeClock()
    display = FakeDisplay(clock, {})
    display.closed_after = 4
    session = FakeSession()
    _loop(session, FakeSource(_frames(100), live=True), display, clock).run()
    assert len(display.shown) == 4


def test_effects_are_carried_out_and_the_resolver_answers_on_another_thread():
    clock = FakeClock()
    display = FakeDisplay(clock, {})
    threads = []

    def resolve(effect):
        import threading

        threads.append(threading.current_thread().name)
        time.sleep(0.05)
        return "resolution", "solution", None

    out = io.StringIO()
    saved = []
    session = FakeSession({
        FrameEvent: [ResolveCube({}, None), PrintText("R U R' U'"), SaveLanguage("ar")],
        ResolvedEvent: [Quit()],
    })
    loop = _loop(session, FakeSource(_frames(1000), live=True), display, clock, resolve=resolve, out=out,
                 save_language=lambda lang: saved.append(lang) or ("app.warn.cannot_save", {"path": "x"}))
    loop.run()
    resolved = session.of(ResolvedEvent)
    assert len(resolved) == 1 and resolved[0].resolution == "resolution" and resolved[0].solution == "solution"
    assert threads and threads[0] != "MainThread"
    assert out.getvalue() == "R U R' U'\n"
    assert saved == ["ar"]
    assert session.of(NoticeEvent)[0].key == "app.warn.cannot_save"


def test_shorter_solutions_found_while_solving_reach_the_session_in_order():
    import queue

    clock = FakeClock()
    display = FakeDisplay(clock, {})
    progress: queue.SimpleQueue[int] = queue.SimpleQueue()

    def resolve(effect):
        for moves in (21, 20, 19):  # what a budgeted search reports as it improves
            progress.put(moves)
        time.sleep(0.05)
        return "resolution", "solution", None

    session = FakeSession({FrameEvent: [ResolveCube({}, None)], ResolvedEvent: [Quit()]})
    _loop(session, FakeSource(_frames(1000), live=True), display, clock, resolve=resolve, progress=progress).run()
    assert [e.moves for e in session.of(SolvingEvent)] == [21, 20, 19]
    last_progress = max(i for i, e in enumerate(session.events) if isinstance(e, SolvingEvent))
    assert last_progress < session.events.index(session.of(ResolvedEvent)[0])


class SizedDisplay(FakeDisplay):
    """A window the user resizes: its picture area is ``sizes[k]`` after the k-th picture."""

    def __init__(self, clock: FakeClock, keys: dict[int, int], sizes: list) -> None:
        super().__init__(clock, keys)
        self.sizes = sizes

    def size(self):
        return self.sizes[min(len(self.shown), len(self.sizes) - 1)]


def test_the_overlay_is_drawn_at_the_window_size_opening_with_the_video_at_least_960_wide():
    from pathlib import Path

    from qbr.app.session import Session, SessionConfig
    from qbr.solve.i18n import Translator
    from qbr.vision.palette import DEFAULT_PALETTE

    locales = Path(__file__).resolve().parents[2] / "qbr" / "app" / "locales"
    session = Session(SessionConfig(), {"en": Translator("en", extra_dirs=[locales])}, DEFAULT_PALETTE, 0.0)
    clock = FakeClock()
    display = SizedDisplay(clock, {4: 27}, [None, (320, 240), (2560, 1440), (1000, 700)])
    source = FakeSource([Frame(np.full((480, 640, 3), 90, np.uint8), i / 10) for i in range(10)], live=True)
    WindowLoop(session, source, analyse=lambda img: None, resolve=lambda e: (1, 2, None), out=io.StringIO(),
               display=display, clock=clock).run()
    shapes = [image.shape[:2] for image in display.shown]
    first_h, first_w = shapes[0]
    assert 960 <= first_w <= 1280 and first_h > first_w * 0.75  # the video at 960 wide, the bands above and below
    assert shapes[1:4] == [(240, 320), (1440, 2560), (700, 1000)]
