"""How a live session behaves (languages, scanning order, timings of auto-capture and calibration): no state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from qbr.app.session.identity import IdentityTunables
from qbr.cube.conventions import STANDARD_SCHEME
from qbr.vision.calibration_check import CalibrationCheck


@dataclass(frozen=True)
class SessionConfig:
    """Behaviour settings of a session (no state); pass explicitly, tests shorten the timings."""

    language: str = "en"
    languages: tuple[str, ...] = ("en", "zh-Hans", "zh-Hant", "nl", "de", "fr", "es", "hu", "ar", "ja")
    """Languages L cycles through, in this order (those with a translator)."""
    normalize: bool = False
    """Also print the solution as numbered sentences."""
    scheme: Mapping[str, str] = field(default_factory=lambda: dict(STANDARD_SCHEME))
    """Expected centre colours; with the standard scheme faces are recognised by centre in any order."""
    order: tuple[str, ...] = ("F", "R", "B", "L", "U", "D")
    """Guided scanning order: the four sides turning the cube to the left, then top, then bottom."""
    auto_capture: bool = True
    interactive: bool = True
    """Someone can answer questions (False in headless mode: a face already captured is then never replaced)."""
    steady_seconds: float = 0.5
    """The same nine colour names must be seen this long before a face is captured automatically."""
    steady_agreement: float = 0.6
    """Each sticker's name must be the same in this share of the last steady_seconds of frames (flicker allowed)."""
    frame_gap_seconds: float = 0.5
    """A longer gap between frames with a face restarts the steadiness timer (shorter ones are detection misses)."""
    steady_min_frames: int = 3
    """The colour vote needs at least this many frames in the last steady_seconds."""
    foreign_frames: int = 3
    """This many frames in a row with another centre colour start a new face (fewer are one odd reading)."""
    reread_stickers: int = 2
    """Auto-capture of a face already captured asks to replace it only if more stickers than this differ."""
    unsure_below: float = 0.5
    """A sticker named with less confidence than this is shown as in doubt (glare-washed ones get 0.2)."""
    turned_evidence: int = 2
    """Pieces a face held turned must make impossible before it is turned back: one may be a misnamed sticker."""
    identity: IdentityTunables = field(default_factory=IdentityTunables)
    """When a reading is a face already captured, and how centres are given faces (qbr.app.session.identity)."""
    message_seconds: float = 3.0
    """Transient messages (captured, language changed) fade after this long."""
    size_switch_seconds: float = 1.5
    """Once faces are captured, a cube of the other size (2x2x2 or 3x3x3) must be held steady this long to switch."""
    calibration_seconds: float = 1.0
    """Each centre colour is sampled over this long (frames with a face only)."""
    calibration_min_frames: int = 5
    near_centre: float = 3.0
    """Calibration also samples stickers this close (CIEDE2000) to the centre: its colour on a scrambled face, not
    the red beside an orange centre (5.9 apart on a real cube; 60 sRGB, as before, took those in)."""
    check: CalibrationCheck = field(default_factory=CalibrationCheck)
    """When a held face is taken as the colour asked for (qbr.vision.calibration_check)."""
    mirror: bool = False
    """Frames arrive flipped left to right (M toggles it): a webcam that shows a mirror image, turned back."""
    ask_again: bool = True
    """Faces can be shown again (a camera); False for a video or photos: a face in doubt is then taken as read."""
    ended_seconds: float = 5.0
    """After the source ended without a solution, what is missing is shown this long, then the session quits."""
    notices: tuple[tuple[str, Mapping[str, str]], ...] = ()
    """Start-up warnings to show (UI string key, parameters), e.g. a corrupt calibration file was ignored."""
