"""The live session as a pure state machine: events in, effects and a view model out.

No I/O, no windows, no threads and no clock reads: time arrives inside the events, so a scripted sequence of
events replays exactly (tests, headless mode and the window loop all drive the same machine).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    import numpy as np

    from qbr.app.analysis import FrameAnalysis
    from qbr.cube.errors import QbrError
    from qbr.solve.i18n import Translator
    from qbr.solve.solver import Solution
    from qbr.vision.palette import Palette
    from qbr.vision.resolve import Resolution


class Mode(enum.Enum):
    """What the session is doing; decides which keys mean what and what the overlay shows."""

    SCANNING = "scanning"
    CONFIRM_REPLACE = "confirm_replace"
    CALIBRATING = "calibrating"
    RESOLVING = "resolving"
    INVALID = "invalid"
    SOLUTION = "solution"
    NO_FRAMES = "no_frames"


# ----------------------------------------------------------------------------------------------- events


@dataclass(frozen=True)
class FrameEvent:
    """One analysed frame; ``analysis`` None means no face was seen in it."""

    t: float
    analysis: FrameAnalysis | None


@dataclass(frozen=True)
class KeyEvent:
    """A key press: "space", "c", "l", "r", "backspace", "esc", "left", "right", "y", "n", "enter"."""

    t: float
    key: str


@dataclass(frozen=True)
class TickEvent:
    """Time passes without a frame (lets timers advance while the source is silent)."""

    t: float


@dataclass(frozen=True)
class SourceEvent:
    """Frames stopped arriving (ok=False) or came back (ok=True)."""

    t: float
    ok: bool


@dataclass(frozen=True)
class ResolvedEvent:
    """The answer to a ResolveCube effect."""

    t: float
    resolution: Resolution
    solution: Solution | None
    error: QbrError | None


Event = Union[FrameEvent, KeyEvent, TickEvent, SourceEvent, ResolvedEvent]  # noqa: UP007 (runtime alias)


# ---------------------------------------------------------------------------------------------- effects


@dataclass(frozen=True)
class ResolveCube:
    """Run resolve_cube + solve off the UI thread on these per-face (9,3) sRGB means; answer with ResolvedEvent."""

    rgb: Mapping[str, np.ndarray]
    palette: Palette


@dataclass(frozen=True)
class SavePalette:
    """Store this calibrated palette; None resets to the defaults (deletes the user file)."""

    palette: Palette | None


@dataclass(frozen=True)
class SaveLanguage:
    """Remember the chosen language for the next run."""

    lang: str


@dataclass(frozen=True)
class PrintText:
    """Print to the terminal (e.g. the full solution)."""

    text: str


@dataclass(frozen=True)
class Quit:
    """Leave the app."""


Effect = Union[ResolveCube, SavePalette, SaveLanguage, PrintText, Quit]  # noqa: UP007 (runtime alias)


# ------------------------------------------------------------------------------------------- view model


@dataclass(frozen=True)
class Guide:
    """How to hold the cube for the next face."""

    face: str
    """Face letter (U R F D L B) to show next."""
    front: str
    """Colour name of the centre that faces the camera."""
    top: str
    """Colour name of the centre on top."""
    right: str
    """Colour name of the centre on the right."""
    text: str
    """Translated, e.g. "Green centre towards you, white on top"."""


@dataclass(frozen=True)
class Preview:
    """The live detection to draw over the camera image."""

    stickers: np.ndarray | None
    """(9,4,2) sticker corners in image coordinates."""
    outline: np.ndarray | None
    """(4,2) face outline in image coordinates."""
    colours: tuple[str, ...] | None
    """Nine colour names as currently classified."""
    steady: float
    """0..1 progress towards auto-capture."""


@dataclass(frozen=True)
class Step:
    """One move of the solution, ready to show."""

    index: int
    """0-based."""
    total: int
    move: str
    """Notation, e.g. "R'"."""
    face: str
    turns: int
    """1, 2 or 3 quarter turns clockwise."""
    sentence: str
    """Translated plain words."""
    counter: str
    """Translated "Step 3 of 19"."""
    facelets_before: str
    """Cube state before this move (for the small rendered cube)."""


@dataclass(frozen=True)
class ViewModel:
    """Everything the overlay draws; every user-facing string is already translated."""

    mode: Mode
    language: str
    rtl: bool
    status: str
    prompt: str
    message: str | None
    guide: Guide | None
    preview: Preview | None
    captured: Mapping[str, tuple[str, ...]]
    highlight_face: str | None
    step: Step | None
    solution: tuple[str, ...]
    legend: tuple[tuple[str, str], ...]
    colour_rgb: Mapping[str, tuple[int, int, int]]
    scheme: Mapping[str, str]
    calibration: tuple[str, int, int] | None


@dataclass(frozen=True)
class SessionConfig:
    """Behaviour settings of a session (no state): pass explicitly, tests shorten the timings."""

    language: str = "en"
    languages: tuple[str, ...] = ("en", "zh-Hans", "zh-Hant", "nl", "de", "fr", "es", "hu", "ar", "ja")
    """Languages L cycles through, in order."""
    normalize: bool = False
    """Also print the solution as numbered sentences."""
    steady_seconds: float = 0.5
    """The same nine colours must be seen this long before a face is captured automatically."""
    auto_capture: bool = True
    calibration_seconds: float = 0.8
    """Each centre colour is sampled this long during calibration."""
    frame_gap_seconds: float = 0.3
    """A longer gap without a face restarts the steadiness timer."""
    warnings: tuple[str, ...] = field(default_factory=tuple)
    """Untranslated start-up warnings to show once (e.g. a corrupt calibration file was ignored)."""


class Session:
    """The state machine; ``handle`` each event in time order, draw ``view()``, carry out the returned effects."""

    def __init__(
        self, config: SessionConfig, translators: Mapping[str, Translator], palette: Palette, t0: float
    ) -> None:
        self._config = config
        self._translators = translators
        self._palette = palette
        self._t0 = t0

    def handle(self, event: Event) -> list[Effect]:
        """Advance on ``event``; return the effects for the loop to carry out, in order."""
        raise NotImplementedError

    def view(self) -> ViewModel:
        """What to draw now."""
        raise NotImplementedError
