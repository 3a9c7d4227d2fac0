"""The palette of one scanning session: every captured face's centre is a labelled sample of this cube in this light.

Each captured face's light (exposure and cast) is removed by the same fit the preview uses, against the base
palette; each centre gets its colour from the session (the face it was assigned) or, unnamed, jointly with the
others (distinct colours: a washed-out yellow centre cannot take white once the white one is in), and becomes a
sample of that colour, which naming compares with as it does with calibration samples. A centre farther from its
colour than a bound teaches nothing (a misread capture), so a sample cannot drag a colour onto another; the base
colours stay, so the light fit is not moved. When a face is lit very differently from the faces sampled so far
(another room, a lamp switched on), the samples start again from it.

Measured by bench/live_colours.py (sessions); the live session does not use it: it helps real webcam scans only
with every centre's colour known, and costs rendered faces with the colours the session's assignment gives them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import linear_sum_assignment

from qbr.vision.classify import adapt_to_palette
from qbr.vision.colour import delta_e, linear_to_lab, srgb_decode, srgb_encode
from qbr.vision.palette import COLOUR_NAMES, Palette
from qbr.vision.tunables import Tunables

_NEVER = 1e6  # assignment cost of a colour a named centre cannot take


@dataclass(frozen=True, eq=False)
class _Sample:
    centre: NDArray[np.float64]  # the centre's linear sRGB with its face's light removed
    cast: NDArray[np.float64]  # the face's fitted light: log channel gains, exposure removed
    name: str | None = None  # the centre's colour as the session knows it (None: assigned here, jointly)


def face_cast(measured: NDArray[np.float64], fitted: NDArray[np.float64]) -> NDArray[np.float64]:
    """A face's colour cast as the light fit saw it: log per-channel gains (measured -> fitted), mean removed."""
    gains = (fitted * measured).sum(axis=0) / np.maximum((measured * measured).sum(axis=0), 1e-12)
    log = np.log(np.maximum(gains, 1e-6))
    return log - log.mean()


@dataclass(frozen=True)
class SessionPalette:
    """A base palette and the centres captured so far in this light; ``palette`` is what to name faces with."""

    base: Palette
    tunables: Tunables = Tunables()  # noqa: RUF009 (frozen and hashable: a shared default is safe)
    samples: tuple[_Sample, ...] = ()
    palette: Palette = field(init=False, compare=False)
    """The base with each captured centre as a sample of its colour."""

    def __post_init__(self) -> None:
        # Computed once per capture, not per frame: naming runs every frame against the same palette.
        adapted = _adapted(self.base, self.samples, self.tunables) if self.samples else self.base
        object.__setattr__(self, "palette", adapted)

    def with_face(self, rgb: ArrayLike, centre: str | None = None) -> SessionPalette:
        """This session after capturing a 3x3 face (nine sRGB stickers, row-major); other sizes change nothing.

        ``centre`` is the centre's colour when the session knows it (the face it was assigned); None lets the
        captured centres be given distinct colours jointly, nearest first.

        A face whose cast differs from the mean cast of the faces sampled so far by more than
        ``session_palette_light_reset`` (in any channel) starts the samples again from itself.
        """
        stickers = np.asarray(rgb, dtype=np.float64)
        if stickers.shape != (9, 3) or not np.isfinite(stickers).all():
            return self
        measured = srgb_decode(np.clip(stickers, 0.0, 255.0))
        if float(np.hypot(*linear_to_lab(measured[4])[1:])) < self.tunables.classify_logo_chroma:
            return self  # a grey centre is a logo: it shows no colour of the cube
        fitted = adapt_to_palette(measured, self.base, self.tunables)
        sample = _Sample(centre=fitted[4], cast=face_cast(measured, fitted), name=centre)
        kept = self.samples
        if kept:
            mean_cast = np.mean([s.cast for s in kept], axis=0)
            if float(np.abs(sample.cast - mean_cast).max()) > self.tunables.session_palette_light_reset:
                kept = ()
        return SessionPalette(self.base, self.tunables, (*kept, sample))

    def without_last(self) -> SessionPalette:
        """This session with its last sample dropped (an undone capture)."""
        return SessionPalette(self.base, self.tunables, self.samples[:-1])


def _adapted(base: Palette, samples: tuple[_Sample, ...], tunables: Tunables) -> Palette:
    centres = np.array([s.centre for s in samples])
    cost = delta_e(linear_to_lab(centres)[:, None, :], base.lab()[None, :, :])
    for k, sample in enumerate(samples):
        if sample.name in COLOUR_NAMES:  # named by the session: only that colour
            cost[k] = np.where(np.arange(len(COLOUR_NAMES)) == COLOUR_NAMES.index(sample.name), cost[k], _NEVER)
    rows, cols = linear_sum_assignment(cost)  # distinct colours, jointly
    taught: dict[str, list[tuple[float, float, float]]] = {}
    for row, col in zip(rows.tolist(), cols.tolist(), strict=True):
        if cost[row, col] > tunables.session_palette_max_sample_de:  # also two centres named alike: one is wrong
            continue  # nothing like the colour it would get: a misread capture teaches nothing
        r, g, b = (float(v) for v in np.clip(srgb_encode(centres[row]), 0.0, 255.0))
        taught.setdefault(COLOUR_NAMES[col], []).append((r, g, b))
    # A colour without samples gets its main colour as one (the format wants all six; nearest-of is unchanged).
    merged = {n: (*base.samples.get(n, ()), *taught.get(n, ())) or (base.colours[n],) for n in COLOUR_NAMES}
    # The red/orange boundary stays the base's: the midpoint of this cube's two centres' hues named worse
    # (one centre is no measure of its colour's spread: 165 vs 166 of 180 synth tuning faces).
    return Palette(colours=base.colours, name=f"{base.name} (this session)", samples=merged,
                   red_orange_hue=base.red_orange_hue)
