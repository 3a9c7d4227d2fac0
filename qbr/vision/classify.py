"""Live per-face preview: name each of a face's nine stickers against a palette (CIEDE2000).

This is only the preview shown while scanning; the cube itself is decided by ``resolve.resolve_cube`` once all
six faces are in, which also uses the centres and the pieces.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from qbr.vision.colour import delta_e, srgb_to_lab
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
    return np.where(np.isfinite(stickers), np.clip(stickers, 0.0, 255.0), np.nan)


def colour_distances(rgb: ArrayLike, palette: Palette) -> NDArray[np.float64]:
    """CIEDE2000 from each sticker to each of the six colours, ``(n, 6)`` in ``COLOUR_NAMES`` order.

    A colour with calibration samples counts as near as its nearest sample.
    """
    names, references = palette.references()
    lab = srgb_to_lab(_as_stickers(rgb))
    to_refs = delta_e(lab[:, None, :], references[None, :, :])
    index = np.array([COLOUR_NAMES.index(n) for n in names])
    out = np.full((lab.shape[0], len(COLOUR_NAMES)), np.inf)
    for k in range(len(COLOUR_NAMES)):
        out[:, k] = to_refs[:, index == k].min(axis=1)
    return out


def classify_face(rgb: ArrayLike, palette: Palette, tunables: Tunables = Tunables()) -> FaceColours:  # noqa: B008
    """Name each sticker by its nearest palette colour; confidence grows with the margin to the runner-up.

    Confidence is ``1 - exp(-margin / classify_margin_scale)``: 0 for a tie, near 1 for a clear winner.
    A sticker with a non-finite measurement is named by its best guess with confidence 0.
    """
    distances = colour_distances(rgb, palette)
    finite = np.isfinite(distances).all(axis=1)
    distances = np.where(finite[:, None], distances, 0.0)
    order = np.argsort(distances, axis=1)
    rows = np.arange(distances.shape[0])
    best = distances[rows, order[:, 0]]
    margin = distances[rows, order[:, 1]] - best
    confidence = np.where(finite, 1.0 - np.exp(-margin / tunables.classify_margin_scale), 0.0)
    names = tuple(COLOUR_NAMES[k] for k in order[:, 0])
    return FaceColours(names=names, distances=np.where(finite, best, np.nan), confidence=confidence)


def naive_classify(rgb9: ArrayLike, palette: Palette) -> tuple[str, ...]:
    """The old app's method, kept as a benchmark baseline: nearest palette colour by RGB distance, per sticker."""
    stickers = np.asarray(rgb9, dtype=np.float64)
    references = np.array([palette.colours[n] for n in COLOUR_NAMES])
    nearest = np.argmin(((stickers[:, None, :] - references[None, :, :]) ** 2).sum(axis=2), axis=1)
    return tuple(COLOUR_NAMES[k] for k in nearest)
