"""The live window: the OpenCV window and its keys, over the one runtime (qbr.app.runtime) that headless uses too.

The session decides, the overlay draws; a video plays at its own pace and the cube is resolved off the UI thread.
"""

from __future__ import annotations

import dataclasses
import queue
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np

from qbr.app.commands.result import CommandResult
from qbr.app.picture import Picture
from qbr.app.runtime import Front, LoopStats, Resolver, Runtime, RuntimeTunables
from qbr.app.session import ResolveCube, SolveFacelets

if TYPE_CHECKING:
    from qbr.app.analysis import FrameAnalysis
    from qbr.app.environment import Environment
    from qbr.app.session import Session
    from qbr.app.settings import Settings
    from qbr.app.sources import FrameSource
    from qbr.app.store import Store

WINDOW_TITLE = "qbr"
__all__ = ["WINDOW_TITLE", "Display", "LoopStats", "WindowLoop", "key_name", "run_window"]

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
_LETTERS = frozenset("clrynme123456")  # letters, and the colour keys of fixing by hand


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


class WindowLoop(Runtime):
    """The runtime with a window: a video plays at its pace, the cube is resolved on a worker thread."""

    def __init__(
        self,
        session: Session,
        source: FrameSource,
        *,
        analyse: Callable[[np.ndarray], FrameAnalysis | None],
        resolve: Resolver,
        display: Front,
        out: TextIO,
        draw: Callable[[np.ndarray, Any], np.ndarray | Picture] | None = None,
        tunables: RuntimeTunables = RuntimeTunables(),  # noqa: B008 (frozen, shared safely)
        lost_after: float | None = None,
        **parts: Any,
    ) -> None:
        if draw is None:
            from qbr.app.layout import RecentFaces, opening_size
            from qbr.app.overlay import draw_picture
            from qbr.app.text import Fonts

            fonts = Fonts()
            recent = RecentFaces()

            def draw_at_window_size(frame: np.ndarray, view: Any) -> Picture:
                # Laid out again at the window's size every frame, so a resized window gets crisp, readable text.
                size = display.size() if hasattr(display, "size") else None
                if size is None:
                    size = opening_size(view, (frame.shape[1], frame.shape[0]), fonts.directed(view.rtl))
                return draw_picture(frame, view, fonts, size=size, recent=recent.update(view, self.clock()))

            draw = draw_at_window_size
        if lost_after is not None:
            tunables = dataclasses.replace(tunables, lost_after=lost_after)
        super().__init__(session, source, analyse=analyse, resolve=resolve, front=display, out=out, draw=draw,
                         paced=True, threaded=True, tunables=tunables, key_name=key_name, **parts)
        self.display = display


def run_window(settings: Settings, env: Environment, source: FrameSource, *, store: Store | None = None,
               session: Session | None = None, title: str = WINDOW_TITLE) -> CommandResult:
    """Run the live window on ``source`` until ESC or the window is closed; closes ``source`` at the end."""
    from qbr.app.analysis import frame_analyser
    from qbr.app.headless import make_session
    from qbr.app.jobs import resolve_effect, solve_facelets
    from qbr.app.sources import ImageFolderSource
    from qbr.app.store import Store
    from qbr.vision.tunables import Tunables

    # Still photos get every fallback search; in a video the face comes round again in a moment.
    photos = isinstance(source, ImageFolderSource)
    analyser = frame_analyser(Tunables() if photos else Tunables().for_video(), photos)
    store = store or Store(env.config_dir)
    if session is None:
        session, _ = make_session(settings, store, t0=env.clock(), live=source.is_live)
    warning = session.view().message
    if warning:
        env.stderr.write(f"qbr: {warning}\n")

    def analyse(image: np.ndarray) -> FrameAnalysis | None:
        return analyser(image, session.palette)

    progress: queue.SimpleQueue[int] = queue.SimpleQueue()

    def resolve(effect: ResolveCube) -> tuple[Any, Any, Any]:
        return resolve_effect(effect, settings.budget, on_progress=progress.put)

    def solve(effect: SolveFacelets) -> tuple[Any, Any, Any]:
        return solve_facelets(effect.facelets, effect.colour_names, effect.size, settings.budget,
                              on_progress=progress.put)

    # With --json stdout carries only the final JSON; what the session prints goes to stderr then.
    out = env.stderr if getattr(settings, "json", False) else env.stdout
    with source:
        loop = WindowLoop(session, source, analyse=analyse, resolve=resolve, solve=solve,
                          save_palette=store.save_palette,
                          save_language=store.save_language, save_mirror=store.save_mirror, mirror=session.mirror,
                          out=out, display=Display(title), progress=progress, clock=env.clock)
        loop.run()
    return _outcome(session, source)


def _outcome(session: Session, source: FrameSource) -> CommandResult:
    """The solved cube for --json (its text was already printed while the window was open); quitting is no error,
    a video or photos that ended before the cube was solved are (exit code 8, or 4 without any face)."""
    from qbr.app.headless import ended_error, translator
    from qbr.app.report import cube_result

    resolution, solution = session.resolution, session.solution
    if resolution is None or solution is None:
        payload = {"faces_captured": sorted(session.view().captured), "solved": False}
        return CommandResult(payload=payload, error=ended_error(session, source) if session.ended else None)

    result = cube_result(resolution, solution, None, translator(session.language))
    return CommandResult(payload=result.payload)
