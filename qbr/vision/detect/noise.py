"""Noise-limited planes (a dim, gained-up frame): their noise measured apart from scene texture, and a wider blur
and Canny thresholds above it."""

from __future__ import annotations

import cv2
import numpy as np

from qbr.vision.detect.kernel import odd
from qbr.vision.tunables import Tunables


def _neighbour_steps(blurred: np.ndarray) -> np.ndarray:
    """Grey-level steps between pixels two apart along every fourth row: on the many flat pixels, the noise's."""
    rows = blurred[::4]
    return cv2.absdiff(rows[:, 2:], rows[:, :-2])


def _median_step(steps: np.ndarray) -> float:
    """Median of whole-number steps, each histogram bin spread over its unit interval (a value between bins)."""
    counts = cv2.calcHist([steps], [0], None, [256], [0, 256]).ravel()
    cumulative = np.cumsum(counts)
    half = float(cumulative[-1]) / 2
    level = int(np.searchsorted(cumulative, half))
    below = float(cumulative[level - 1]) if level else 0.0
    return max(level - 0.5 + (half - below) / max(float(counts[level]), 1.0), 0.0)


def _untextured_step(plane: np.ndarray, step: float, t: Tunables) -> float:
    """The part of a plane's median step that is noise: texture's steps grow when the plane is seen coarser.

    Area-averaged ``m`` times smaller and blurred alike, a scene texture's step between pixels two apart grows ~m
    times (they lie m times further apart in the scene), a gained-up sensor's noise step does not grow (averaging
    cuts it). Taking noise as unchanged and adding the two in quadrature: noise^2 = (m^2 step^2 - coarse^2) / (m^2 - 1).
    """
    m = t.noise_texture_scale
    if m <= 1:
        return step
    size = (plane.shape[1] // m, plane.shape[0] // m)
    if min(size) < 3:
        return step
    coarse_plane = cv2.resize(plane, size, interpolation=cv2.INTER_AREA)
    k = odd(t.blur_size * size[0])
    coarse = _median_step(_neighbour_steps(cv2.GaussianBlur(coarse_plane, (k, k), 0)))
    # A step that does not grow at all is all noise: never more than the step itself.
    return min(step, float(np.sqrt(max(m * m * step * step - coarse * coarse, 0.0) / (m * m - 1))))


def _noise(plane: np.ndarray, blurred: np.ndarray, spread: float, t: Tunables) -> float | None:
    """The noise step of a noise-limited plane (``blurred`` by the light blur, ``spread`` its deviation), or None."""
    if t.noise_ratio <= 0:
        return None
    steps = _neighbour_steps(blurred)
    # Most steps above the bound is the median above it, without sorting (the common, clean frame pays little).
    if 2 * cv2.countNonZero(cv2.threshold(steps, t.noise_ratio * spread, 255, cv2.THRESH_BINARY)[1]) <= steps.size:
        return None
    noise = _untextured_step(plane, _median_step(steps), t)
    return noise if noise > t.noise_ratio * spread else None


def noise_limited(plane: np.ndarray, t: Tunables) -> bool:
    """Whether a plane's noise swamps its contrast (a dim room's gained-up frame), as the edges judge it."""
    k = odd(t.blur_size * plane.shape[1])
    blurred = cv2.GaussianBlur(plane, (k, k), 0)
    return _noise(plane, blurred, float(cv2.meanStdDev(blurred)[1][0, 0]), t) is not None


def above_noise(
    plane: np.ndarray, blurred: np.ndarray, spread: float, scale: float, low: float, high: float, t: Tunables
) -> tuple[np.ndarray, float, float]:
    """A noise-limited plane (a dim, gained-up frame) gets a wider blur and Canny thresholds above its noise."""
    noise = _noise(plane, blurred, spread, t)
    if noise is None:
        return blurred, low, high
    # Only a very noisy plane is smoothed more: a wider blur closes small stickers' thin gaps.
    if noise > t.noise_blur_ratio * spread:
        k = odd(t.noise_blur_size * plane.shape[1])
        # Edge-preserving first: steps of the noise's size are smoothed, an outline's (far larger) are not.
        src = plane if t.noise_bilateral_range <= 0 else cv2.bilateralFilter(
            plane, k, t.noise_bilateral_range * noise, k / 2.5)
        blurred = cv2.GaussianBlur(src, (k, k), 0)
        noise = _median_step(_neighbour_steps(blurred))
    noise *= scale
    return blurred, max(low, t.noise_canny_low * noise), max(high, t.noise_canny_high * noise)
