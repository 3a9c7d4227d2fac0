"""Whether a face held up during calibration plausibly shows the colour asked for, and whether a palette is usable.

Calibration asks for the six colours in turn (white first). A face is taken as colour X only if X is, within a
margin, the best name for its centre when the centres taken so far and this one are named together, distinct
names, against the default palette. Exposure does not decide (before white is taken each centre is compared at
the brightness of each colour; after, at the white's exposure give or take a range) and the white taken removes
the light's cast, so a camera that renders every colour its own way still calibrates; a face of another colour
(the demo's green face when white is asked, a red face when yellow is asked) does not. A face as close as
``min_separation`` to a colour already taken is refused too: two calibrated colours that close could not be told
apart."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike, NDArray

from qbr.vision.colour import delta_e, linear_to_lab, luminance, srgb_decode, srgb_to_lab
from qbr.vision.palette import COLOUR_NAMES, DEFAULT_PALETTE, Palette


@dataclass(frozen=True)
class CalibrationCheck:
    """Tunables of the calibration check (bench/calibration_check.py measures them: tuning and validation)."""

    min_separation: float = 3.0
    """CIEDE2000 two calibrated colours must be apart: real red/orange centres come 5.9 apart, darker ones closer."""
    margin: float = 15.0
    """CIEDE2000 the asked colour may cost more than the best naming: cameras render colours unlike the palette
    (teal greens, reddish oranges); 10 refused 4% of right faces on the tuning data, 20 accepted 20% of wrong ones."""
    exposure_range: float = 1.3
    """How much brighter or darker than the white a face may be exposed (auto-exposure): 1.3-2.0 measure alike, but
    from 1.6 on the demo's orange face passes for red (orange is red made brighter)."""
    first_margin: float = 20.0
    """The same while white is asked (no white yet to remove the cast with): 8 refused warm-lit whites (solved
    cubes calibrated 33% on validation), 20 keeps tuning and validation alike (92% / 93%)."""


@dataclass(frozen=True)
class FaceVerdict:
    """The answer for one held face: accepted, or why not."""

    accepted: bool
    reason: str | None = None
    """None when accepted; "looks_like": its centre looks like ``other``; "too_close": too close to ``other``
    already calibrated."""
    other: str | None = None
    """The colour it looks like, or the calibrated colour it is too close to."""


def face_centre(rgb: ArrayLike) -> NDArray[np.float64]:
    """The colour a held face is calibrated from: its centre (3x3), or the median sticker of a 2x2x2 face."""
    stickers = np.asarray(rgb, dtype=np.float64).reshape(-1, 3)
    return stickers[4] if len(stickers) == 9 else np.median(stickers, axis=0)


def _naming_costs(centres: NDArray[np.float64], white: NDArray[np.float64] | None, reference: Palette,
                  exposure_range: float) -> NDArray[np.float64]:
    """CIEDE2000 from each sRGB centre to each reference colour: (n, 6) in COLOUR_NAMES order.

    With a ``white`` taken, the centres are seen in that white's light (its cast removed, its exposure made the
    reference white's), each then brought towards a colour's brightness by at most ``exposure_range`` (a face's
    own exposure), so brightness still tells red from orange; before, each centre is compared at each colour's own
    brightness (the exposure is unknown then).
    """
    linear = srgb_decode(np.clip(centres, 0.0, 255.0))
    targets = reference.linear()
    scale = luminance(targets)[None, :] / np.maximum(luminance(linear), 1e-6)[:, None]
    if white is not None:
        white_linear = np.maximum(srgb_decode(np.clip(white, 0.0, 255.0)), 1e-6)
        linear = linear * (luminance(targets[COLOUR_NAMES.index("white")]) / white_linear)
        scale = np.clip(luminance(targets)[None, :] / np.maximum(luminance(linear), 1e-6)[:, None],
                        1 / exposure_range, exposure_range)
    seen = linear_to_lab(np.maximum(linear[:, None, :] * scale[:, :, None], 0.0))  # not clipped: no desaturation
    return delta_e(seen, reference.lab()[None, :, :])


@lru_cache(maxsize=len(COLOUR_NAMES))
def _namings(count: int) -> NDArray[np.intp]:
    """Every way to give ``count`` centres distinct colours: (ways, count) colour indices, computed once."""
    return np.array(list(itertools.permutations(range(len(COLOUR_NAMES)), count)), dtype=np.intp)


def check_face(asked: str, rgb: ArrayLike, taken: Mapping[str, ArrayLike],
               check: CalibrationCheck = CalibrationCheck(), reference: Palette = DEFAULT_PALETTE) -> FaceVerdict:
    """Whether the face ``rgb`` (its stickers' sRGB) may be calibrated as ``asked``, given the centres already
    ``taken`` (colour name -> sRGB)."""
    centre = face_centre(rgb)
    names = list(taken)
    if names:
        gaps = delta_e(srgb_to_lab(centre[None, :]), srgb_to_lab(np.array([taken[n] for n in names], float)))
        closest = int(np.argmin(gaps))
        if gaps[closest] < check.min_separation:
            return FaceVerdict(False, "too_close", names[closest])
    white = np.asarray(taken["white"], float) if "white" in taken else None
    centres = np.array([*(np.asarray(taken[n], float) for n in names), centre])
    cost = _naming_costs(centres, white, reference, check.exposure_range)
    # The best naming of all centres together, distinct colours, with the held face named asked and otherwise.
    perms = _namings(len(centres))
    totals = cost[np.arange(len(centres)), perms].sum(axis=1)
    best = {int(k): float(totals[perms[:, -1] == k].min()) for k in range(len(COLOUR_NAMES))}
    want = COLOUR_NAMES.index(asked)
    margin = check.margin if white is not None else check.first_margin
    rival = min(best, key=lambda k: best[k] if k != want else np.inf)
    if best[want] > best[rival] + margin:
        return FaceVerdict(False, "looks_like", COLOUR_NAMES[rival])
    return FaceVerdict(True)


def closest_pair(colours: Mapping[str, ArrayLike]) -> tuple[str, str, float]:
    """The two colours of a palette closest to each other (CIEDE2000) and their distance."""
    names = list(colours)
    lab = srgb_to_lab(np.array([colours[n] for n in names], float))
    gaps = delta_e(lab[:, None, :], lab[None, :, :])
    np.fill_diagonal(gaps, np.inf)
    i, j = np.unravel_index(int(np.argmin(gaps)), gaps.shape)
    return names[int(i)], names[int(j)], float(gaps[i, j])
