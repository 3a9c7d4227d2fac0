"""What the overlay draws of the live session, every user-facing string already translated."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from qbr.app.session.hand_edit import EditView
from qbr.app.session.mode import Mode


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
    unsure: tuple[bool, ...] | None = None
    """Per sticker: its colour name is in doubt (glare, a washed-out colour); drawn dashed."""


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
    hold: str | None = None
    """How to hold the cube (translated), on the steps where that is to be said: the small cube marks the front
    and top centres then."""


@dataclass(frozen=True)
class ReviewRow:
    """One calibrated colour, shown beside the face it was taken from before it is saved."""

    name: str
    label: str
    """The colour's translated name."""
    new: tuple[int, int, int]
    """The new palette colour (sRGB)."""
    old: tuple[int, int, int]
    """The colour it replaces (sRGB)."""
    face: tuple[tuple[int, int, int], ...]
    """The face's stickers as measured while it was taken (nine sRGB, four on a 2x2x2)."""


@dataclass(frozen=True)
class CalibrationReview:
    """The new palette beside the faces, awaiting Y (save) or N (discard)."""

    rows: tuple[ReviewRow, ...]
    title: str
    new_label: str
    old_label: str


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
    """Colour name -> display sRGB (from the palette)."""
    scheme: Mapping[str, str]
    """Face letter -> colour name of its centre."""
    calibration: tuple[str, int, int] | None
    """(colour being calibrated, 0-based index, total) in CALIBRATING mode."""
    size: int = 3
    """The cube being scanned: 3 (3x3x3) or 2 (2x2x2, nets and faces of four stickers)."""
    legend_item: str = "{key} {action}"
    """How one legend entry reads in this language (Arabic puts a colon after the key's name)."""
    calibration_review: CalibrationReview | None = None
    """In CONFIRM_CALIBRATION mode: the new colours to confirm."""
    edit: EditView | None = None
    """The cube being fixed by hand (EDITING mode)."""
    review: tuple[int, ...] = ()
    """Stickers (facelet indices) the colour resolution is least sure of, ringed on the net (INVALID mode)."""
