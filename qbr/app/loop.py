"""The one live loop: owns the frame source, the window and the keys; the session decides, the overlay draws.

read frame -> analyse -> FrameEvent -> draw -> imshow -> key -> KeyEvent (a click on the editable net ->
StickerClickEvent / ColourClickEvent), a TickEvent every turn, and the session's effects carried out (cube
resolution, or the solve of a cube fixed by hand, on a worker thread, answered with a ResolvedEvent).
"""

from __future__ import annotations

import concurrent.futures
import queue
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np

from qbr.app.commands.result import CommandResult
from qbr.app.edit_net import edit_net_geometry
from qbr.app.session import (
    ColourClickEvent,
    FrameEvent,
    KeyEvent,
    NoticeEvent,
    PrintText,
    Quit,
    ResolveCube,
    ResolvedEvent,
    SaveLanguage,
    SavePalette,
    SolveFacelets,
    SolvingEvent,
    SourceEvent,
    StickerClickEvent,
    TickEvent,
)

if TYPE_CHECKING:
    from qbr.app.analysis import FrameAnalysis
    from qbr.app.environment import Environment
    from qbr.app.session import Session
    from qbr.app.settings import Settings
    from qbr.app.sources import FrameSource
    from qbr.app.store import Store
    from qbr.vision.palette import Palette

WINDOW_TITLE = "qbr"

_KEYS: dict[int, str] = {
    32: "space", 13: "enter", 10: "enter", 8: "backspace", 127: "backspace", 27: "esc",
    # X11 keysyms (Qt and GTK builds of OpenCV on Linux)
    65361: "left", 65362: "up", 65363: "right", 65364: "down", 65293: "enter", 65421: "enter", 65288: "backspace",
    65307: "esc",
    # Qt key codes when passed through untranslated
    0x1000012: "left", 0x1000013: "up", 0x1000014: "right", 0x1000015: "down", 0x1000004: "enter",
    0x1000005: "enter", 0x1000003: "backspace", 0x1000000: "esc",
    # Windows virtual-key codes shifted by 16 (win32 backend)
    0x250000: "left", 0x260000: "up", 0x270000: "right", 0x280000: "down",
    # macOS Cocoa function keys
    63232: "up", 63233: "down", 63234: "left", 63235: "right",
}
_LETTERS = frozenset("clryne123456")  # letters and the colour keys of fixing by hand


def key_name(code: int) -> str | None:
    """The session's name for a ``cv2.waitKeyEx`` code, or None for keys qbr does not use."""
    if code < 0:
        return None
    if code in _KEYS:
        return _KEYS[code]
    low = code & 0xFF
    if code == low or (code & 0xFFFF) == low:  # some backends add modifier bits above the character
        ch = chr(low).lower()
        if ch in _LETTERS:
            return ch
        if low in _KEYS:
            return _KEYS[low]
    return None


Resolver = Callable[[ResolveCube], tuple[Any, Any, Any]]
Notice = tuple[str, Mapping[str, str]]
"""A UI string key and its parameters (as qbr.app.store reports a failure)."""


@dataclass
class LoopStats:
    """What one run did: frames shown, time spent analysing, the longest analysis (milliseconds)."""

    frames: int = 0
    analyse_ms_total: float = 0.0
    analyse_ms_max: float = 0.0
    draws: int = 0
    effects: list[str] = field(default_factory=list)


class Display:
    """The OpenCV window (kept behind a small interface so the loop runs in tests without one)."""

    def __init__(self, title: str = WINDOW_TITLE) -> None:
        import cv2

        self._cv2 = cv2
        self.title = title
        self._shown = False
        self._clicks: list[tuple[int, int]] = []
        # Free ratio: the picture fills the window, which the overlay draws at its real size (no scaling by Qt).
        cv2.namedWindow(title, cv2.WINDOW_GUI_NORMAL | cv2.WINDOW_FREERATIO)
        cv2.setMouseCallback(title, self._on_mouse)

    def _on_mouse(self, event: int, x: int, y: int, flags: int, param: object) -> None:
        # Called from waitKey with picture coordinates (the picture is drawn at the window's size).
        if event == self._cv2.EVENT_LBUTTONDOWN:
            self._clicks.append((x, y))

    def clicks(self) -> list[tuple[int, int]]:
        """Left clicks since the last call, in the shown picture's pixels."""
        clicks, self._clicks = self._clicks, []
        return clicks

    def show(self, image: np.ndarray) -> None:
        if not self._shown:
            # Qt opens a normal window small; the first picture is drawn at the size the window should open at.
            h, w = image.shape[:2]
            self._cv2.resizeWindow(self.title, w, h)
        self._cv2.imshow(self.title, image)
        self._shown = True

    def size(self) -> tuple[int, int] | None:
        """The window's picture area (width, height) in pixels, or None before it is shown or when minimised."""
        if not self._shown:
            return None
        try:
            _, _, w, h = self._cv2.getWindowImageRect(self.title)
        except self._cv2.error:
            return None
        return (int(w), int(h)) if w > 0 and h > 0 else None

    def key(self, wait_ms: int) -> int:
        return int(self._cv2.waitKeyEx(max(1, wait_ms)))

    def closed(self) -> bool:
        # Before the first imshow some backends report the window invisible.
        if not self._shown:
            return False
        try:
            return self._cv2.getWindowProperty(self.title, self._cv2.WND_PROP_VISIBLE) < 1
        except self._cv2.error:
            return True

    def close(self) -> None:
        try:
            self._cv2.destroyWindow(self.title)
            self._cv2.waitKey(1)
        except self._cv2.error:
            pass


class WindowLoop:
    """The live loop over injected parts (session, source, analysis, resolver, storage, display, clock)."""

    def __init__(
        self,
        session: Session,
        source: FrameSource,
        *,
        analyse: Callable[[np.ndarray], FrameAnalysis | None],
        resolve: Resolver,
        solve: Callable[[SolveFacelets], tuple[Any, Any, Any]] | None = None,
        save_palette: Callable[[Palette | None], Notice | None] = lambda palette: None,
        save_language: Callable[[str], Notice | None] = lambda lang: None,
        out: TextIO,
        display: Any,
        draw: Callable[[np.ndarray, Any], np.ndarray] | None = None,
        clock: Callable[[], float] = time.monotonic,
        idle_ms: int = 30,
        lost_after: float = 0.5,
        progress: queue.SimpleQueue[int] | None = None,
    ) -> None:
        self.session = session
        self.progress = progress  # lengths of shorter solutions, put by the resolver thread as it finds them
        self.source = source
        self.analyse = analyse
        self.resolve = resolve
        self.solve = solve
        self.save_palette = save_palette
        self.save_language = save_language
        self.out = out
        self.display = display
        self.clock = clock
        self.idle_ms = idle_ms
        self.lost_after = lost_after
        self.stats = LoopStats()
        if draw is None:
            from qbr.app.layout import RecentFaces, opening_size
            from qbr.app.overlay import draw as overlay_draw
            from qbr.app.text import Fonts

            fonts = Fonts()
            recent = RecentFaces()

            def draw_at_window_size(frame: np.ndarray, view: Any) -> np.ndarray:
                # Laid out again at the window's size every frame, so a resized window gets crisp, readable text.
                size = display.size() if hasattr(display, "size") else None
                if size is None:
                    size = opening_size(view, (frame.shape[1], frame.shape[0]), fonts.directed(view.rtl))
                return overlay_draw(frame, view, fonts, size=size, recent=recent.update(view, self.clock()))

            self._draw: Callable[[np.ndarray, Any], np.ndarray] = draw_at_window_size
        else:
            self._draw = draw
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._pending: concurrent.futures.Future | None = None
        self._quit = False
        self._last: np.ndarray | None = None
        self._lost = False
        self._silent_since: float | None = None
        self._ended = False
        self._pace: tuple[float, float] | None = None  # (wall clock, source time) of the first frame
        self._next_t = 0.0

    # ------------------------------------------------------------------------------------------ effects

    def _carry_out(self, effects: list) -> None:
        for effect in effects:
            self.stats.effects.append(type(effect).__name__)
            if isinstance(effect, ResolveCube):
                if self._executor is None:
                    self._executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="qbr-resolve")
                self._pending = self._executor.submit(self.resolve, effect)
            elif isinstance(effect, SolveFacelets) and self.solve is not None:
                if self._executor is None:
                    self._executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="qbr-resolve")
                self._pending = self._executor.submit(self.solve, effect)
            elif isinstance(effect, SavePalette):
                self._notice(self.save_palette(effect.palette))
            elif isinstance(effect, SaveLanguage):
                self._notice(self.save_language(effect.lang))
            elif isinstance(effect, PrintText):
                self.out.write(effect.text.rstrip("\n") + "\n")
                self.out.flush()
            elif isinstance(effect, Quit):
                self._quit = True

    def _notice(self, notice: Notice | None) -> None:
        # A setting that could not be saved is shown to the user; the session keeps it for this run.
        if notice is not None:
            key, params = notice
            self._handle(NoticeEvent(self.clock(), key, dict(params)))

    def _handle(self, event: Any) -> None:
        self._carry_out(self.session.handle(event))

    # ---------------------------------------------------------------------------------------------- run

    def _wait_for_due_frame(self) -> int:
        """Milliseconds until a video frame may be shown (a video plays at its own fps, never faster)."""
        if self.source.is_live or self._pace is None or not self.source.fps:
            return 0
        wall0, t0 = self._pace
        due = wall0 + (self._next_t - t0)
        return max(0, round((due - self.clock()) * 1000))

    def _read(self) -> None:
        frame = self.source.read()
        now = self.clock()
        if frame is None:
            if getattr(self.source, "ended", False):
                self._ended = True  # a video keeps showing its last frame until the user leaves
            elif self.source.is_live:
                # A camera that misses a frame or two is not lost; one silent for lost_after seconds is.
                self._silent_since = self._silent_since if self._silent_since is not None else now
                if not self._lost and now - self._silent_since >= self.lost_after:
                    self._lost = True
                    self._handle(SourceEvent(now, False))
            return
        self._silent_since = None
        if self._lost:
            self._lost = False
            self._handle(SourceEvent(now, True))
        if self._pace is None:
            self._pace = (now, frame.t)
        self._next_t = frame.t + 1.0 / self.source.fps if self.source.fps else frame.t
        self._last = frame.image
        start = time.perf_counter()
        analysis = self.analyse(frame.image)
        ms = (time.perf_counter() - start) * 1000
        self.stats.frames += 1
        self.stats.analyse_ms_total += ms
        self.stats.analyse_ms_max = max(self.stats.analyse_ms_max, ms)
        self._handle(FrameEvent(now, analysis))

    def step(self) -> None:
        """One turn of the loop."""
        wait = 0
        if not self._ended:
            wait = self._wait_for_due_frame()
            if wait == 0:
                self._read()
                wait = self._wait_for_due_frame() if not self._ended else 0
        self._handle(TickEvent(self.clock()))
        while self.progress is not None and not self.progress.empty():
            self._handle(SolvingEvent(self.clock(), self.progress.get_nowait()))
        if self._pending is not None and self._pending.done():
            resolution, solution, error = self._pending.result()
            self._pending = None
            self._handle(ResolvedEvent(self.clock(), resolution, solution, error))
        frame = self._last if self._last is not None else np.zeros((480, 640, 3), np.uint8)
        view = self.session.view()
        shown = self._draw(frame, view)
        self.display.show(shown)
        self.stats.draws += 1
        if self._ended or self._silent_since is not None:
            wait = max(wait, self.idle_ms)  # nothing new to read: don't spin
        name = key_name(self.display.key(max(1, min(wait, 100))))
        if name is not None:
            self._handle(KeyEvent(self.clock(), name))
        self._clicks(view, shown.shape)
        if self.display.closed():
            self._quit = True

    def _clicks(self, view: Any, shape: tuple[int, ...]) -> None:
        """Clicks on the editable net (as drawn on the image just shown) become sticker and colour picks."""
        clicks = getattr(self.display, "clicks", None)
        if clicks is None:
            return
        for x, y in clicks():
            if view.edit is None:
                continue
            geometry = edit_net_geometry(int(shape[1]), int(shape[0]), view.edit.size)
            sticker, slot = geometry.sticker_at(x, y), geometry.swatch_at(x, y)
            if sticker is not None:
                self._handle(StickerClickEvent(self.clock(), sticker))
            elif slot is not None:
                self._handle(ColourClickEvent(self.clock(), slot))

    def run(self) -> LoopStats:
        """Loop until the session quits or the window is closed."""
        try:
            while not self._quit:
                self.step()
        finally:
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
            self.display.close()
        return self.stats


def run_window(settings: Settings, env: Environment, source: FrameSource, *, store: Store | None = None,
               session: Session | None = None, title: str = WINDOW_TITLE) -> CommandResult:
    """Run the live window on ``source`` until ESC or the window is closed; closes ``source`` at the end."""
    from qbr.app.analysis import analyse_frame
    from qbr.app.headless import make_session
    from qbr.app.jobs import resolve_and_solve, solve_facelets
    from qbr.app.sources import ImageFolderSource
    from qbr.app.store import Store
    from qbr.vision.tunables import Tunables

    # Still photos get every fallback search; in a video the face comes round again in a moment.
    tunables = Tunables() if isinstance(source, ImageFolderSource) else Tunables().for_video()
    store = store or Store(env.config_dir)
    if session is None:
        session, _ = make_session(settings, store, t0=time.monotonic())
    warning = session.view().message
    if warning:
        env.stderr.write(f"qbr: {warning}\n")

    def analyse(image: np.ndarray) -> FrameAnalysis | None:
        return analyse_frame(image, tunables, session.palette)

    progress: queue.SimpleQueue[int] = queue.SimpleQueue()

    def resolve(effect: ResolveCube) -> tuple[Any, Any, Any]:
        return resolve_and_solve(effect.rgb, effect.palette, settings.budget, any_order=effect.any_order,
                                 on_progress=progress.put)

    def solve(effect: SolveFacelets) -> tuple[Any, Any, Any]:
        return solve_facelets(effect.facelets, effect.colour_names, effect.size, settings.budget,
                              on_progress=progress.put)

    # With --json stdout carries only the final JSON; what the session prints goes to stderr then.
    out = env.stderr if getattr(settings, "json", False) else env.stdout
    with source:
        loop = WindowLoop(session, source, analyse=analyse, resolve=resolve, solve=solve,
                          save_palette=store.save_palette, save_language=store.save_language, out=out,
                          display=Display(title), progress=progress)
        loop.run()
    return _outcome(session)


def _outcome(session: Session) -> CommandResult:
    """The solved cube for --json (its text was already printed while the window was open); quitting is no error."""
    resolution, solution = session.resolution, session.solution
    if resolution is None or solution is None:
        return CommandResult(payload={"faces_captured": sorted(session.view().captured), "solved": False})
    from qbr.app.headless import translator
    from qbr.app.report import cube_result

    result = cube_result(resolution, solution, None, translator(session.language))
    return CommandResult(payload=result.payload)
