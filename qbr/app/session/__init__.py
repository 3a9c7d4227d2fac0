"""The live session: a pure state machine (events in, effects and a view model out) and the concepts it ties.

No I/O, no windows, no threads and no clock reads; callers import what they need from here.
"""

from qbr.app.session.config import SessionConfig
from qbr.app.session.effects import (
    Effect,
    PrintText,
    Quit,
    ResolveCube,
    SaveLanguage,
    SavePalette,
    SetMirror,
    SolveFacelets,
)
from qbr.app.session.events import (
    ColourClickEvent,
    EndedEvent,
    Event,
    FrameEvent,
    KeyEvent,
    NoticeEvent,
    ResolvedEvent,
    SolvingEvent,
    SourceEvent,
    StickerClickEvent,
    TickEvent,
)
from qbr.app.session.machine import Session
from qbr.app.session.mode import Mode
from qbr.app.session.view_model import CalibrationReview, Guide, Preview, ReviewRow, Step, ViewModel

__all__ = [
    "CalibrationReview",
    "ColourClickEvent",
    "Effect",
    "EndedEvent",
    "Event",
    "FrameEvent",
    "Guide",
    "KeyEvent",
    "Mode",
    "NoticeEvent",
    "Preview",
    "PrintText",
    "Quit",
    "ResolveCube",
    "ResolvedEvent",
    "ReviewRow",
    "SaveLanguage",
    "SavePalette",
    "Session",
    "SessionConfig",
    "SetMirror",
    "SolveFacelets",
    "SolvingEvent",
    "SourceEvent",
    "Step",
    "StickerClickEvent",
    "TickEvent",
    "ViewModel",
]
