"""Colours sampled at grid points of the work image: the stickers' variety and the gaps between them."""

from __future__ import annotations

import math

import cv2
import numpy as np

from qbr.vision.detect.geometry import apply_homography
from qbr.vision.tunables import Tunables

_CROSS = np.array([(0, 0), (2, 0), (-2, 0), (0, 2), (0, -2)], dtype=np.intp)


def exposure_gain(work: np.ndarray, t: Tunables) -> float:
    """How much an under-exposed frame's colour differences are scaled up: its bright end (a high percentile of the
    pixels' largest channel) brought to ``variety_exposure``; 1 for a frame exposed at least that brightly."""
    if work.ndim != 3 or t.variety_exposure <= 0:
        return 1.0
    b, g, r = cv2.split(work)
    brightest = cv2.max(cv2.max(b, g), r)
    counts = np.cumsum(cv2.calcHist([brightest], [0], None, [256], [0, 256]).ravel())
    level = int(np.searchsorted(counts, t.variety_exposure_share * counts[-1]))
    return max(1.0, t.variety_exposure / max(level, 1))


def colour_variety(work: np.ndarray, points: np.ndarray, gain: float = 1.0) -> float:
    """RMS spread (grey levels) of the colours at ``points``, each a 5-pixel cross average, times ``gain``."""
    if work.ndim != 3:
        return 0.0
    h, w = work.shape[:2]
    xy = np.rint(points).astype(np.intp)[:, None, :] + _CROSS
    xs, ys = xy[..., 0], xy[..., 1]
    np.minimum(np.maximum(xs, 0, out=xs), w - 1, out=xs)
    np.minimum(np.maximum(ys, 0, out=ys), h - 1, out=ys)
    # One flat take (cheaper than 2-D fancy indexing); sums divided by counts, as ndarray.mean computes them (in
    # float64 for integer pixels), with less overhead.
    pixels = np.ascontiguousarray(work).reshape(-1, 3).take(ys * w + xs, axis=0)
    colours = np.add.reduce(pixels, axis=1, dtype=np.float64) / _CROSS.shape[0]
    spread = colours - colours.sum(axis=0) / len(colours)
    return math.sqrt(float((spread**2).sum() / len(colours))) * gain


def gap_colours(work: np.ndarray, h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(n, 3) colours at grid ``points`` (work image, nearest pixel); points outside the image give NaN."""
    xy = np.rint(apply_homography(h, points)).astype(int)
    height, width = work.shape[:2]
    inside = (xy[:, 0] >= 0) & (xy[:, 0] < width) & (xy[:, 1] >= 0) & (xy[:, 1] < height)
    colours = np.full((len(xy), 3), np.nan)
    colours[inside] = work[xy[inside, 1], xy[inside, 0]]
    return colours
