"""Live per-face preview: name each of a face's nine stickers against a palette (CIEDE2000).

This is only the preview shown while scanning; the cube itself is decided by ``resolve.resolve_cube`` once all
six faces are in, which also uses the centres and the pieces.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from qbr.vision.colour import delta_e, linear_to_lab, luminance, srgb_decode, srgb_to_lab
from qbr.vision.palette import COLOUR_NAMES, Palette
from qbr.vision.tunables import Tunables


@dataclass(frozen=True)
class FaceColours:
    """Colour name, CIEDE2000 distance to that colour, and confidence in [0, 1] for each of nine stickers."""

    names: tuple[str, ...]
    distances: NDArray[np.float64]
    confidence: NDArray[np.float64]


def _as_stickers(rgb: ArrayLike) -> NDArray[np.float64]:
    stickers = np.asarray(rgb, dtype=np.float64)
    if stickers.ndim != 2 or stickers.shape[1] != 3:
        raise ValueError(f"expected sticker colours of shape (n, 3), got {stickers.shape}")
    # Measured means can overshoot slightly after white balance or interpolation; non-finite values become NaN.
    # np.minimum/np.maximum rather than np.clip: same values, less per-call overhead on nine stickers.
    return np.where(np.isfinite(stickers), np.minimum(np.maximum(stickers, 0.0), 255.0), np.nan)


def _lab_distances(lab: NDArray[np.float64], palette: Palette) -> NDArray[np.float64]:
    _, references = palette.references()
    to_refs = delta_e(lab[:, None, :], references[None, :, :])
    if to_refs.shape[1] == len(COLOUR_NAMES):
        return to_refs
    index = palette.reference_index()
    return np.stack([to_refs[:, index == k].min(axis=1) for k in range(len(COLOUR_NAMES))], axis=1)


def colour_distances(rgb: ArrayLike, palette: Palette) -> NDArray[np.float64]:
    """CIEDE2000 from each sticker to each of the six colours, ``(n, 6)`` in ``COLOUR_NAMES`` order.

    A colour with calibration samples counts as near as its nearest sample.
    """
    return _lab_distances(srgb_to_lab(_as_stickers(rgb)), palette)


def adapt_to_palette(linear: NDArray[np.float64], palette: Palette, tunables: Tunables) -> NDArray[np.float64]:
    """Remove one face's exposure and colour cast (linear sRGB rows in, rows out) by fitting it to the palette.

    The brightest sticker is first brought to the luminance of the palette colour nearest it in chromaticity;
    then, a few times, each sticker is matched to its nearest palette colour and per-channel gains (von Kries)
    are fitted to those matches, each round's change limited so a face without white cannot be dragged far. On
    the real scans this cuts per-sticker errors against a fixed palette by about a third (202 -> 131 of 756);
    anchoring on the centre sticker alone made things worse (217).
    """
    if linear.shape[0] == 0 or tunables.classify_calibration_rounds <= 0:
        return linear
    targets, chroma, main_lab = palette.fit_tables
    # Exposure: bring the brightest sticker to the brightness of the palette colour of the nearest chromaticity
    # (a white one to white; on a face of reds, a red one to red, so it does not turn orange).
    brightest = linear[int(luminance(linear).argmax())]
    like = int(((chroma - brightest / max(float(brightest.sum()), 1e-9)) ** 2).sum(axis=1).argmin())
    adapted = linear * (luminance(targets[like]) / max(float(luminance(brightest)), 1e-6))
    step = tunables.classify_gain_step
    for _ in range(tunables.classify_calibration_rounds):
        # Plain Lab distance for the intermediate matches: CIEDE2000 costs more and changed nothing measured here.
        nearest = ((linear_to_lab(adapted)[:, None, :] - main_lab[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
        target = targets[nearest]
        gains = (adapted * target).sum(axis=0) / np.maximum((adapted * adapted).sum(axis=0), 1e-9)
        adapted = adapted * np.minimum(np.maximum(gains, 1 / step), step)
    return adapted


def classify_face(rgb: ArrayLike, palette: Palette, tunables: Tunables = Tunables()) -> FaceColours:  # noqa: B008
    """Name each sticker by its nearest palette colour after removing the face's light (see :func:`adapt_to_palette`).

    ``distances`` are CIEDE2000 to the chosen colour after that correction. Confidence is
    ``1 - exp(-margin / classify_margin_scale)`` with margin the gap to the runner-up colour: 0 for a tie, near 1
    for a clear winner. A sticker with a non-finite measurement gets confidence 0 and distance NaN.
    """
    raw = np.asarray(rgb, dtype=np.float64)
    finite: NDArray[np.bool_] | None = None  # None: every sticker finite, the usual live frame
    if raw.ndim == 2 and raw.shape[1] == 3 and np.isfinite(raw).all():
        # No masks or masked copies then: numpy's per-call overhead dominates at nine stickers.
        stickers = np.minimum(np.maximum(raw, 0.0), 255.0)
        measured = srgb_decode(stickers)
    else:
        stickers = _as_stickers(rgb)
        finite = np.isfinite(stickers).all(axis=1)
        measured = np.zeros_like(stickers)
        measured[finite] = srgb_decode(stickers[finite])
    logo = False
    if len(stickers) == 9 and (finite is None or finite[4]):
        # A printed logo makes the white centre read dark grey (nearest blue); it would also mislead the light fit.
        lab = linear_to_lab(measured[4])
        logo = math.hypot(lab[1], lab[2]) < tunables.classify_logo_chroma
    if finite is None and not logo:
        linear = adapt_to_palette(measured, palette, tunables)
    else:
        fitted = np.ones(len(stickers), dtype=bool) if finite is None else finite.copy()
        if logo:
            fitted[4] = False
        linear = np.zeros_like(stickers)
        linear[fitted] = adapt_to_palette(measured[fitted], palette, tunables)
        if logo:
            gains = linear[fitted].sum(axis=0) / np.maximum(measured[fitted].sum(axis=0), 1e-9)
            linear[4] = measured[4] * gains
    distances = _lab_distances(linear_to_lab(linear), palette)
    order = np.argsort(distances, axis=1)
    rows = np.arange(len(distances))
    best = distances[rows, order[:, 0]]
    margin = distances[rows, order[:, 1]] - best
    confidence = 1.0 - np.exp(-margin / tunables.classify_margin_scale)
    if finite is not None:
        confidence = np.where(finite, confidence, 0.0)
        best = np.where(finite, best, np.nan)
    names = [COLOUR_NAMES[k] for k in order[:, 0].tolist()]
    if logo:
        names[4], best[4] = "white", distances[4, _WHITE]
        confidence[4] = 0.5  # a grey centre is white on every cube, but it was not seen as white: worth a look
    return FaceColours(names=tuple(names), distances=best, confidence=confidence)


_WHITE = COLOUR_NAMES.index("white")


def naive_classify(rgb9: ArrayLike, palette: Palette) -> tuple[str, ...]:
    """The old app's method, kept as a benchmark baseline: nearest palette colour by RGB distance, per sticker."""
    stickers = np.asarray(rgb9, dtype=np.float64)
    references = np.array([palette.colours[n] for n in COLOUR_NAMES])
    nearest = np.argmin(((stickers[:, None, :] - references[None, :, :]) ** 2).sum(axis=2), axis=1)
    return tuple(COLOUR_NAMES[k] for k in nearest)
