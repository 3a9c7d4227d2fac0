"""The one runtime of the live session, for the window and for headless mode alike.

read frame -> analyse -> FrameEvent -> (draw -> show) -> key -> KeyEvent (a click on the editable net ->
StickerClickEvent / ColourClickEvent), a TickEvent every turn, the session's effects carried out (cube
resolution, or the solve of a cube fixed by hand, inline or on a worker thread, answered with a ResolvedEvent), a silent
camera reported as lost and back, a finite source's end reported once. The front (a window, or nothing when
headless), the clock and the sleep are injected: tests run it on fakes, headless runs it on the Environment's.
"""

from __future__ import annotations

import concurrent.futures
import queue
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TextIO

import numpy as np

from qbr.app.edit_net import EditNetGeometry, edit_net_geometry
from qbr.app.picture import Picture
from qbr.app.session import (
    ColourClickEvent,
    EndedEvent,
    FrameEvent,
    KeyEvent,
    NoticeEvent,
    PrintText,
    Quit,
    ResolveCube,
    ResolvedEvent,
    SaveLanguage,
    SavePalette,
    SetMirror,
    SolveFacelets,
    SolvingEvent,
    SourceEvent,
    StickerClickEvent,
    TickEvent,
)

if TYPE_CHECKING:
    from qbr.app.analysis import FrameAnalysis
    from qbr.app.session import Session
    from qbr.app.sources import FrameSource
    from qbr.vision.palette import Palette

Resolver = Callable[[ResolveCube], tuple[Any, Any, Any]]
Solver = Callable[[SolveFacelets], tuple[Any, Any, Any]]
Notice = tuple[str, Mapping[str, str]]
"""A UI string key and its parameters (as qbr.app.store reports a failure)."""


@dataclass(frozen=True)
class RuntimeTunables:
    """Timing of the runtime, the same for the window and headless mode."""

    lost_after: float = 1.0
    """A live source silent this long is reported lost (a camera missing a frame or two is not; it reopens at 1 s)."""
    idle_seconds: float = 0.03
    """With nothing new to read (a silent camera, an ended video), wait this long a turn instead of spinning."""
    max_wait_seconds: float = 0.1
    """The longest wait for a key in one turn: timers and the resolver's answer are looked at this often."""


@dataclass
class LoopStats:
    """What one run did: frames shown, time spent analysing, the longest analysis (milliseconds)."""

    frames: int = 0
    analyse_ms_total: float = 0.0
    analyse_ms_max: float = 0.0
    draws: int = 0
    effects: list[str] = field(default_factory=list)


class Front(Protocol):
    """Where the runtime shows frames and gets keys: the OpenCV window, or nothing (headless)."""

    def show(self, image: np.ndarray) -> None: ...

    def key(self, wait_ms: int) -> int:
        """Wait up to ``wait_ms`` for a key; its backend code, or -1."""
        ...

    def closed(self) -> bool: ...

    def close(self) -> None: ...


class Unattended:
    """The front of headless mode: nothing shown, no keys; waiting is sleeping."""

    def __init__(self, sleep: Callable[[float], None]) -> None:
        self._sleep = sleep

    def show(self, image: np.ndarray) -> None:
        pass

    def key(self, wait_ms: int) -> int:
        if wait_ms > 0:
            self._sleep(wait_ms / 1000)
        return -1

    def closed(self) -> bool:
        return False

    def close(self) -> None:
        pass


class Runtime:
    """Drives a session on a frame source until the session quits, the front is closed or ``done`` says so.

    ``paced``: a video plays at its own frame rate and events carry the clock's time (the window); otherwise
    frames are read as fast as they come and events carry the source's time, so a run is the same on any
    machine (headless). ``threaded``: the cube is resolved on a worker thread while frames go on; otherwise
    inline. ``draw`` None: nothing is drawn.
    """

    def __init__(
        self,
        session: Session,
        source: FrameSource,
        *,
        analyse: Callable[[np.ndarray], FrameAnalysis | None],
        resolve: Resolver,
        front: Front,
        solve: Solver | None = None,
        out: TextIO,
        save_palette: Callable[[Palette | None], Notice | None] = lambda palette: None,
        save_language: Callable[[str], Notice | None] = lambda lang: None,
        save_mirror: Callable[[bool], Notice | None] = lambda on: None,
        mirror: bool = False,
        draw: Callable[[np.ndarray, Any], np.ndarray | Picture] | None = None,
        clock: Callable[[], float] = time.monotonic,
        paced: bool = True,
        threaded: bool = True,
        tunables: RuntimeTunables = RuntimeTunables(),
        progress: queue.SimpleQueue[int] | None = None,
        on_source: Callable[[bool], None] = lambda ok: None,
        on_resolved: Callable[[ResolvedEvent], bool] = lambda event: False,
        key_name: Callable[[int], str | None] = lambda code: None,
    ) -> None:
        self.session = session
        self.source = source
        self.analyse = analyse
        self.resolve = resolve
        self.solve = solve  # a cube fixed by hand: validated and solved like a resolved one
        self.front = front
        self.out = out
        self.save_palette = save_palette
        self.save_language = save_language
        self.save_mirror = save_mirror
        self.mirror = mirror  # frames are flipped left to right before anything looks at them
        self.clock = clock
        self.paced = paced
        self.threaded = threaded
        self.tunables = tunables
        self.progress = progress  # lengths of shorter solutions, put by the resolver thread as it finds them
        self.on_source = on_source  # told when a live source is lost (False) and back (True)
        self.on_resolved = on_resolved  # True from it ends the run (headless stops at the first solution)
        self.key_name = key_name
        self._draw = draw
        self.shown_net: EditNetGeometry | None = None  # where the picture shown last drew the editable net
        self.stats = LoopStats()
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._pending: concurrent.futures.Future | None = None
        self._quit = False
        self._last: np.ndarray | None = None
        self._lost = False
        self._silent_since: float | None = None
        self._ended = False
        self._pace: tuple[float, float] | None = None  # (wall clock, source time) of the first frame
        self._next_t = 0.0
        self._source_t: tuple[float, float] | None = None  # (source time, wall clock) of the last frame

    # ------------------------------------------------------------------------------------------ time

    def now(self) -> float:
        """The time events carry: the clock's (paced), else the last frame's plus the wall time since it."""
        wall = self.clock()
        if self.paced or self._source_t is None:
            return wall if self.paced else 0.0
        t, at = self._source_t
        return t + max(0.0, wall - at)

    # ------------------------------------------------------------------------------------------ effects

    def _carry_out(self, effects: list) -> None:
        while effects:
            effect, effects = effects[0], effects[1:]
            self.stats.effects.append(type(effect).__name__)
            job = self.resolve if isinstance(effect, ResolveCube) else None
            if isinstance(effect, SolveFacelets):
                job = self.solve
            if job is not None:
                if not self.threaded:
                    event = ResolvedEvent(self.now(), *job(effect))
                    if self.on_resolved(event):
                        self._quit = True
                    effects += self.session.handle(event)
                    continue
                if self._executor is None:
                    self._executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="qbr-resolve")
                self._pending = self._executor.submit(job, effect)
            elif isinstance(effect, SavePalette):
                effects += self._notice(self.save_palette(effect.palette))
            elif isinstance(effect, SaveLanguage):
                effects += self._notice(self.save_language(effect.lang))
            elif isinstance(effect, SetMirror):
                self.mirror = effect.on
                effects += self._notice(self.save_mirror(effect.on))
            elif isinstance(effect, PrintText):
                self.out.write(effect.text.rstrip("\n") + "\n")
                self.out.flush()
            elif isinstance(effect, Quit):
                self._quit = True

    def _notice(self, notice: Notice | None) -> list:
        # A setting that could not be saved is shown to the user; the session keeps it for this run.
        if notice is None:
            return []
        key, params = notice
        return self.session.handle(NoticeEvent(self.now(), key, dict(params)))

    def _handle(self, event: Any) -> None:
        self._carry_out(self.session.handle(event))

    # ---------------------------------------------------------------------------------------------- run

    def _wait_for_due_frame(self) -> int:
        """Milliseconds until a video frame may be shown (paced: a video plays at its own fps, never faster)."""
        if not self.paced or self.source.is_live or self._pace is None or not self.source.fps:
            return 0
        wall0, t0 = self._pace
        due = wall0 + (self._next_t - t0)
        return max(0, round((due - self.clock()) * 1000))

    def _read(self) -> None:
        frame = self.source.read()
        wall = self.clock()
        if frame is None:
            if self.source.ended:
                self._ended = True  # said once; a window keeps showing the last frame
                self._handle(EndedEvent(self.now(), _kind(self.source)))
            elif self.source.is_live:
                # A camera that misses a frame or two is not lost; one silent for lost_after seconds is.
                self._silent_since = self._silent_since if self._silent_since is not None else wall
                if not self._lost and wall - self._silent_since >= self.tunables.lost_after:
                    self._lost = True
                    self.on_source(False)
                    self._handle(SourceEvent(self.now(), False))
            return
        self._silent_since = None
        self._source_t = (frame.t, wall)
        if self._lost:
            self._lost = False
            self.on_source(True)
            self._handle(SourceEvent(self.now(), True))
        if self._pace is None:
            self._pace = (wall, frame.t)
        self._next_t = frame.t + 1.0 / self.source.fps if self.source.fps else frame.t
        image = _mirrored(frame.image) if self.mirror else frame.image
        self._last = image
        start = time.perf_counter()
        analysis = self.analyse(image)
        ms = (time.perf_counter() - start) * 1000
        self.stats.frames += 1
        self.stats.analyse_ms_total += ms
        self.stats.analyse_ms_max = max(self.stats.analyse_ms_max, ms)
        self._handle(FrameEvent(self.now(), analysis, getattr(frame, "face", None)))

    def step(self) -> None:
        """One turn of the loop."""
        wait = 0
        if not self._ended:
            wait = self._wait_for_due_frame()
            if wait == 0:
                self._read()
                wait = self._wait_for_due_frame() if not self._ended else 0
        if self._quit:
            return
        self._handle(TickEvent(self.now()))
        while self.progress is not None and not self.progress.empty():
            self._handle(SolvingEvent(self.now(), self.progress.get_nowait()))
        if self._pending is not None and self._pending.done():
            resolution, solution, error = self._pending.result()
            self._pending = None
            event = ResolvedEvent(self.now(), resolution, solution, error)
            if self.on_resolved(event):
                self._quit = True
            self._handle(event)
        shown: tuple[Any, tuple[int, ...]] | None = None  # the view drawn and the picture's shape
        if self._draw is not None:
            frame = self._last if self._last is not None else np.zeros((480, 640, 3), np.uint8)
            view = self.session.view()
            drawn = self._draw(frame, view)
            picture = drawn.image if isinstance(drawn, Picture) else drawn
            self.shown_net = drawn.net if isinstance(drawn, Picture) else None
            self.front.show(picture)
            self.stats.draws += 1
            shown = (view, picture.shape)
        if self._ended or self._silent_since is not None:
            wait = max(wait, round(self.tunables.idle_seconds * 1000))  # nothing new to read: don't spin
        wait = min(wait, round(self.tunables.max_wait_seconds * 1000))
        # A window's event loop needs a turn every time; headless waits only when there is nothing to read.
        name = self.key_name(self.front.key(max(1, wait) if self.paced else wait))
        if name is not None:
            self._handle(KeyEvent(self.now(), name))
        if shown is not None:
            self._clicks(*shown)
        if self.front.closed():
            self._quit = True

    def _clicks(self, view: Any, shape: tuple[int, ...]) -> None:
        """Clicks on the editable net, as drawn on the picture just shown, become sticker and colour picks."""
        clicks = getattr(self.front, "clicks", None)
        if clicks is None:
            return
        for x, y in clicks():
            if getattr(view, "edit", None) is None:
                continue
            # Where the drawing put the net; a bare picture (a test's drawer) has it where the sizes alone say.
            geometry = self.shown_net or edit_net_geometry(int(shape[1]), int(shape[0]), view.edit.size)
            sticker, slot = geometry.sticker_at(x, y), geometry.swatch_at(x, y)
            if sticker is not None:
                self._handle(StickerClickEvent(self.now(), sticker))
            elif slot is not None:
                self._handle(ColourClickEvent(self.now(), slot))

    def run(self) -> LoopStats:
        """Loop until the session quits, ``on_resolved`` ends the run, or the front is closed."""
        try:
            while not self._quit:
                self.step()
        finally:
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
            self.front.close()
        return self.stats


def _mirrored(image: np.ndarray) -> np.ndarray:
    """``image`` flipped left to right (OpenCV's flip: ~0.1 ms at 640x480, numpy's copy of a reversed view ~4 ms)."""
    import cv2

    return cv2.flip(image, 1)


def _kind(source: FrameSource) -> str:
    """What kind of finite source ended, for the message: "photos" or "video"."""
    return "photos" if getattr(source, "kind", "video") == "photos" else "video"
