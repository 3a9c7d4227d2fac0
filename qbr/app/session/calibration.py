"""Colour calibration in the live session: each centre colour sampled in turn from the face held up."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

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

    @property
    def colour(self) -> str:
        """The colour being sampled now."""
        return self.names[self.index]

    def add(self, t: float, rgb: np.ndarray, cfg: SessionConfig) -> bool:
        """Sample a face's stickers (9 or 4, sRGB) seen at ``t``; True once the last colour has been sampled."""
        centre = rgb[4] if len(rgb) == 9 else np.median(rgb, axis=0)  # a 2x2x2 has no centre: a solved face
        for name in self.names[: self.index]:
            if np.linalg.norm(np.mean(self.samples[name], axis=0) - centre) < cfg.separation:
                return False  # still the face of a colour already sampled
        near = rgb[np.linalg.norm(rgb - centre, axis=1) < cfg.near_centre]
        self.samples.setdefault(self.colour, []).extend(near)
        self.frames += 1
        if self.started is None:
            self.started = t
        if t - self.started >= cfg.calibration_seconds and self.frames >= cfg.calibration_min_frames:
            self.index += 1
            self.started = None
            self.frames = 0
        return self.index == len(self.names)

    def palette(self, base: Palette) -> Palette:
        """``base`` with each sampled colour replaced by the median of its samples (robust to a stray sticker)."""
        colours = dict(base.colours)
        for name, values in self.samples.items():
            colours[name] = tuple(float(v) for v in np.median(np.asarray(values), axis=0))
        return dataclasses.replace(base, colours=colours, name="calibrated")
