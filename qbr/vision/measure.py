"""One robust colour per sticker of a detected face, from the sticker's inner area."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from qbr.vision.detect import FaceDetection
from qbr.vision.tunables import Tunables


@dataclass(frozen=True, eq=False)
class StickerColours:
    """Measured colours of the nine stickers of a face, row-major."""

    rgb: np.ndarray
    """(9, 3) float64 sRGB 0-255, RGB order."""
    spread: np.ndarray
    """(9,) float64: RMS distance (0-255 units) of the kept samples from the sticker's colour; high = unsure."""
    kept: np.ndarray
    """(9,) float64: share of samples kept after dropping glare and shadow."""


def _sample_points(stickers: np.ndarray, inner: float, n: int) -> np.ndarray:
    """(9, n*n, 2) points spread over the central ``inner`` part of each sticker quad (bilinear in the quad)."""
    s = np.linspace(0.5 - inner / 2, 0.5 + inner / 2, n)
    u, v = np.meshgrid(s, s)
    u, v = u.ravel()[None, :, None], v.ravel()[None, :, None]
    q = stickers.astype(np.float64)  # corners clockwise from top-left: tl, tr, br, bl
    top = q[:, None, 0] * (1 - u) + q[:, None, 1] * u
    bottom = q[:, None, 3] * (1 - u) + q[:, None, 2] * u
    return top * (1 - v) + bottom * v


def measure_stickers_with_spread(
    image_bgr: np.ndarray,
    detection: FaceDetection,
    tunables: Tunables = Tunables(),  # noqa: B008
) -> StickerColours:
    """Colour of each sticker with how spread its samples were; see ``measure_stickers``."""
    t = tunables
    height, width = image_bgr.shape[:2]
    pts = _sample_points(np.asarray(detection.stickers), t.measure_inner, t.measure_samples)
    xs = np.clip(np.rint(pts[..., 0]).astype(np.intp), 0, width - 1)
    ys = np.clip(np.rint(pts[..., 1]).astype(np.intp), 0, height - 1)
    samples = image_bgr[ys, xs][..., ::-1].astype(np.float64)  # (9, m, 3) RGB
    value = samples.max(axis=2)
    chroma = value - samples.min(axis=2)
    med_chroma = np.median(chroma, axis=1, keepdims=True)
    # Specular glare: near-saturated and much paler than the sticker itself (a white sticker is pale throughout).
    glare = (value > t.glare_value * 255.0) & (chroma < t.glare_chroma * med_chroma)
    m = samples.shape[1]
    # Glare everywhere on a sticker means the sticker is simply that bright: keep it all then.
    glare &= (glare.sum(axis=1, keepdims=True) <= m - m // 4)
    luma = samples @ np.array([0.299, 0.587, 0.114])
    luma[glare] = np.inf  # sorts the glare to the end, where it is cut
    order = np.argsort(luma, axis=1)
    usable = m - glare.sum(axis=1)  # (9,)
    # Drop the darkest share (edge shadows, gap pixels) and a tenth of the brightest (residual highlights).
    lo = (usable * t.trim_dark).astype(int)
    hi = np.maximum(usable - (usable * 0.1).astype(int), lo + 1)
    rank = np.arange(m)[None, :]
    sel = (rank >= lo[:, None]) & (rank < hi[:, None])  # (9, m) over the sorted order
    ordered = np.take_along_axis(samples, order[..., None], axis=1)
    weight = sel[..., None].astype(np.float64)
    count = sel.sum(axis=1)
    rgb = (ordered * weight).sum(axis=1) / count[:, None]
    spread = np.sqrt((((ordered - rgb[:, None, :]) ** 2).sum(axis=2) * sel).sum(axis=1) / count)
    kept = count / m
    return StickerColours(rgb=rgb, spread=spread, kept=kept)


def measure_stickers(
    image_bgr: np.ndarray,
    detection: FaceDetection,
    tunables: Tunables = Tunables(),  # noqa: B008
) -> np.ndarray:
    """(9, 3) float64 sRGB 0-255 (RGB order): a glare- and shadow-robust mean of each sticker's inner area."""
    return measure_stickers_with_spread(image_bgr, detection, tunables).rgb
