"""Following one face held up to the camera until its colours are steady enough to capture it by itself."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from qbr.app.session.identity import CapturedFace, another_ring, identity, size_of

if TYPE_CHECKING:
    from qbr.app.session.config import SessionConfig


@dataclass
class SteadyTrack:
    """The frames of one face held up (same centre colour and outer stickers, no long gap); names voted per sticker."""

    centre: str | tuple[str, ...]
    """What identifies the face held: its centre's colour (3x3x3), or all four colours (a 2x2x2 has no centre)."""
    since: float
    last_t: float
    frames: list[tuple[float, CapturedFace]] = field(default_factory=list)
    """(time, the face as read then) of the recent frames."""
    size: int = 3  # stickers along the face's side
    foreign: int = 0  # consecutive frames whose centre reads differently
    done: bool = False  # this holding of the face has been captured (or the question about it answered)

    def add(self, t: float, read: CapturedFace, window: float) -> None:
        self.last_t = t
        self.frames.append((t, read))
        while self.frames and self.frames[0][0] < t - window:
            self.frames.pop(0)

    def consensus(self, agreement: float) -> CapturedFace | None:
        """The per-sticker majority names of the recent frames with their mean sRGB and spot shares, or None if
        they disagree."""
        names: list[str] = []
        for k in range(len(self.frames[0][1].colours)):
            votes: dict[str, int] = {}
            for _, read in self.frames:
                votes[read.colours[k]] = votes.get(read.colours[k], 0) + 1
            name, count = max(votes.items(), key=lambda item: item[1])
            if count < agreement * len(self.frames):
                return None
            names.append(name)
        agreed = tuple(names)
        # Frames that read a sticker or two differently still measured the same stickers; a turned face did not.
        alike = [r for _, r in self.frames if sum(a != b for a, b in zip(r.colours, agreed, strict=True)) <= 2]
        return CapturedFace(agreed, np.mean([r.rgb for r in alike], axis=0), spot=_mean_of([r.spot for r in alike]),
                            own=_mean_of([r.own for r in alike]), spread=_mean_of([r.spread for r in alike]))

    def held(self, steady_seconds: float) -> float:
        """How long the face has been held, as a fraction of the time that makes it steady."""
        if steady_seconds <= 0:
            return 1.0
        return min(1.0, (self.last_t - self.since) / steady_seconds)

    def agreed(self, cfg: SessionConfig) -> CapturedFace | None:
        """The face as agreed (names, mean sRGB and spot shares), once held long enough and reading consistently."""
        if self.held(cfg.steady_seconds) < 1.0 or len(self.frames) < cfg.steady_min_frames:
            return None
        return self.consensus(cfg.steady_agreement)


def _mean_of(values: list[np.ndarray | None]) -> np.ndarray | None:
    """The mean of the frames' per-sticker values (spot shares, own colours); None when a frame had none."""
    if any(v is None for v in values):
        return None
    return np.mean(values, axis=0)


def follow(track: SteadyTrack | None, t: float, read: CapturedFace, cfg: SessionConfig) -> tuple[SteadyTrack, bool]:
    """The track after a frame with a face: (track, True) if the frame was added to it (the same face still held
    or a new one begun), (the old track, False) if it was one odd reading of the face held, set aside."""
    colours = read.colours
    if track is not None and t - track.last_t > cfg.frame_gap_seconds:
        track = None
    if track is not None and (identity(colours) != track.centre
                              or another_ring(colours, track.frames[-1][1].colours, cfg.identity)):
        track.foreign += 1
        if track.foreign < cfg.foreign_frames:
            return track, False  # one odd reading of the centre is noise; a few in a row mean another face
        track = None
    if track is None:
        track = SteadyTrack(identity(colours), t, t, size=size_of(colours))
    track.foreign = 0
    track.add(t, read, cfg.steady_seconds)
    return track, True
