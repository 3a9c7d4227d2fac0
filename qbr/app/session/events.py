"""What happens to the live session: frames, keys, time passing, the source, answers from work off the UI thread.

Time arrives inside the events (the session never reads a clock), so a scripted sequence replays exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    from qbr.app.analysis import FrameAnalysis
    from qbr.cube.errors import QbrError
    from qbr.solve.solver import Solution
    from qbr.vision.resolve import Resolution


@dataclass(frozen=True)
class FrameEvent:
    """One analysed frame; ``analysis`` None means no face was seen in it."""

    t: float
    analysis: FrameAnalysis | None
    face: str | None = None
    """The face the frame is named for (a photo U.jpg is the U face, as ``qbr scan`` takes it); None: by centre."""


@dataclass(frozen=True)
class KeyEvent:
    """A key press: "space", "c", "l", "m", "r", "e", "backspace", "esc", "left", "right", "up", "down", "y", "n",
    "enter", or a colour key "1".."6"."""

    t: float
    key: str


@dataclass(frozen=True)
class StickerClickEvent:
    """A click on sticker ``index`` (facelet index) of the editable net."""

    t: float
    index: int


@dataclass(frozen=True)
class ColourClickEvent:
    """A click on colour swatch ``slot`` (0-5, the colour keys' order) under the editable net."""

    t: float
    slot: int


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
class EndedEvent:
    """A finite source gave its last frame: nothing more will come (``source``: "video" or "photos")."""

    t: float
    source: str = "video"


@dataclass(frozen=True)
class ResolvedEvent:
    """The answer to a ResolveCube effect."""

    t: float
    resolution: Resolution
    solution: Solution | None
    error: QbrError | None


@dataclass(frozen=True)
class SolvingEvent:
    """A budgeted solve found a shorter verified solution while the cube is being solved (``moves`` long)."""

    t: float
    moves: int


@dataclass(frozen=True)
class NoticeEvent:
    """Something outside the session the user should see (e.g. a setting could not be saved): a UI string key."""

    t: float
    key: str
    params: Mapping[str, str] = field(default_factory=dict)


Event = Union[  # noqa: UP007 (runtime alias)
    FrameEvent, KeyEvent, TickEvent, SourceEvent, EndedEvent, ResolvedEvent, SolvingEvent, NoticeEvent,
    StickerClickEvent, ColourClickEvent,
]
