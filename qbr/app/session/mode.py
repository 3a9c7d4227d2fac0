"""What the live session is doing: the mode decides which keys mean what and what the overlay shows."""

from __future__ import annotations

import enum


class Mode(enum.Enum):
    """What the session is doing; decides which keys mean what and what the overlay shows."""

    SCANNING = "scanning"
    CONFIRM_REPLACE = "confirm_replace"
    CALIBRATING = "calibrating"
    CONFIRM_CALIBRATION = "confirm_calibration"
    RESOLVING = "resolving"
    INVALID = "invalid"
    SOLUTION = "solution"
    EDITING = "editing"
    NO_FRAMES = "no_frames"
    ENDED = "ended"
    """A finite source (video, photos) ended before the cube was solved: said what is missing, then quit."""
