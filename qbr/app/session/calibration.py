"""Colour calibration in the live session: each centre colour sampled in turn from the face held up, a face that
is not plausibly the colour asked for refused with the reason (qbr.vision.calibration_check), the new palette
kept aside until the user confirms it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from qbr.vision.calibration_check import FaceVerdict, check_face, closest_pair, face_centre
from qbr.vision.colour import delta_e, srgb_to_lab

if TYPE_CHECKING:
    from qbr.app.session.config import SessionConfig
    from qbr.vision.palette import Palette


@dataclass
class Calibration:
    """The colours still to sample (``names[index:]``) and the sRGB samples taken of each so far."""

    names: tuple[str, ...]
    index: int = 0
    samples: dict[str, list[np.ndarray]] = field(default_factory=dict)
    started: float | None = None
    frames: int = 0
    centres: dict[str, np.ndarray] = field(default_factory=dict)
    """Each colour taken: the median centre of its frames (what later faces are judged against)."""
    faces: dict[str, np.ndarray] = field(default_factory=dict)
    """Each colour taken: the mean sRGB of its face's stickers (shown beside the new colour for review)."""
    refusal: FaceVerdict | None = None
    """Why the face held now is not taken (None while a face is being taken or none is held)."""
    _centres_now: list[np.ndarray] = field(default_factory=list)
    _faces_now: list[np.ndarray] = field(default_factory=list)

    @property
    def colour(self) -> str:
        """The colour being sampled now (the last one once all are sampled)."""
        return self.names[min(self.index, len(self.names) - 1)]

    @property
    def done(self) -> bool:
        """Every colour has been sampled: the new palette awaits confirmation."""
        return self.index == len(self.names)

    def _restart(self) -> None:
        self.samples.pop(self.colour, None)
        self.started, self.frames = None, 0
        self._centres_now, self._faces_now = [], []

    def add(self, t: float, rgb: np.ndarray, cfg: SessionConfig) -> bool:
        """Sample a face's stickers (9 or 4, sRGB) seen at ``t``; True once the last colour has been sampled."""
        if self.done:
            return True
        verdict = check_face(self.colour, rgb, self.centres, cfg.check)
        if not verdict.accepted:
            if self.frames:
                self._restart()  # a face of another colour came in: what was sampled may be half of each
            self.refusal = verdict
            return False
        self.refusal = None
        centre = face_centre(rgb)
        near = rgb[delta_e(srgb_to_lab(rgb), srgb_to_lab(centre)) < cfg.near_centre]  # the centre itself: 0
        self.samples.setdefault(self.colour, []).extend(near)
        self._centres_now.append(centre)
        self._faces_now.append(rgb)
        self.frames += 1
        if self.started is None:
            self.started = t
        if t - self.started >= cfg.calibration_seconds and self.frames >= cfg.calibration_min_frames:
            self.centres[self.colour] = np.median(np.asarray(self._centres_now), axis=0)
            self.faces[self.colour] = np.mean(np.asarray(self._faces_now), axis=0)
            self.index += 1
            self.started, self.frames = None, 0
            self._centres_now, self._faces_now = [], []
        return self.done

    def lost(self) -> None:
        """No face in this frame: the reason for the last refusal no longer applies."""
        self.refusal = None

    def palette(self, base: Palette) -> Palette:
        """``base`` with each sampled colour replaced by the median of its samples (robust to a stray sticker)."""
        colours = dict(base.colours)
        for name, values in self.samples.items():
            colours[name] = tuple(float(v) for v in np.median(np.asarray(values), axis=0))
        # A calibrated red or orange also drops the default's measured red/orange boundary: this cube's is midway.
        return base.with_colours(colours, "calibrated")

    def too_alike(self, palette: Palette, cfg: SessionConfig) -> tuple[str, str] | None:
        """Two colours of the new ``palette`` closer than the check allows (they could not be told apart), if any."""
        a, b, gap = closest_pair(palette.colours)
        return (a, b) if gap < cfg.check.min_separation else None
