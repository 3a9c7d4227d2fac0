"""Colours sampled at grid points of the work image: the stickers' variety and the gaps between them."""

from __future__ import annotations

import math

import numpy as np

from qbr.vision.detect.geometry import apply_homography

_CROSS = np.array([(0, 0), (2, 0), (-2, 0), (0, 2), (0, -2)], dtype=np.intp)


def colour_variety(work: np.ndarray, points: np.ndarray) -> float:
    """RMS spread (grey levels) of the colours at ``points``, each a 5-pixel cross average."""
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
    return math.sqrt(float((spread**2).sum() / len(colours)))


def gap_colours(work: np.ndarray, h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(n, 3) colours at grid ``points`` (work image, nearest pixel); points outside the image give NaN."""
    xy = np.rint(apply_homography(h, points)).astype(int)
    height, width = work.shape[:2]
    inside = (xy[:, 0] >= 0) & (xy[:, 0] < width) & (xy[:, 1] >= 0) & (xy[:, 1] < height)
    colours = np.full((len(xy), 3), np.nan)
    colours[inside] = work[xy[inside, 1], xy[inside, 0]]
    return colours
