"""One robust colour per sticker of a detected face, from the sticker's inner area."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from qbr.vision.colour import luminance, srgb_decode, srgb_encode
from qbr.vision.detect import FaceDetection
from qbr.vision.spot_light import spot_share, without_spot
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
    washed: np.ndarray
    """(9,) float64: share of samples dropped as glare (far paler than the sticker's most coloured samples): a
    specular highlight adds the lamp's light, which carries nothing of the sticker's colour."""
    clipped: np.ndarray
    """(9,) float64: share of samples with every channel at the sensor's top: white whatever the sticker's colour,
    so a sticker mostly clipped may be any light colour (naming treats it as unsure, see ``classify_face``)."""
    paled: np.ndarray
    """(9,) bool: a smooth highlight lies over the sticker, below clipping (a camera's auto-exposure keeps a lamp's
    spot there): its brightest quarter is lifted above its dimmer part and of another chromaticity, as the lamp's
    light added to a colour moves it towards the lamp's, while a white lit by that lamp keeps its own. Every sample
    then carries lamp light."""

    spot: np.ndarray
    """(9,) float64 in [0, 1]: share of each sticker's light that a glare spot adds, as the body's gaps around it
    show (``spot_light.spot_share``): on the spot's flat top nothing inside the sticker tells it."""
    lamp: np.ndarray
    """(3,) float64: the spot's chromaticity (linear R, G, B shares of the lit gaps' light, ``spot_light``), NaN
    without a spot: the light ``own`` takes off each sticker in its ``spot`` share."""
    own: np.ndarray
    """(9, 3) float64 sRGB 0-255: ``rgb`` with the spot's light taken off (``spot_light.without_spot``), the sticker's
    own colour in the face's light: what whole-cube resolution reads (the preview names ``rgb``, with its glare
    rules)."""
    glare: np.ndarray
    """(9,) float64: share of each sticker lost to glare (what ``classify_face`` takes): washed; clipped once most of
    it is (a white's unclipped rest still shows it white, and a colour's clipped samples are washed too); all of it
    when paled."""


@lru_cache(maxsize=8)
def _bilinear_weights(inner: float, n: int) -> np.ndarray:
    """(n*n, 4) read-only weights of the corners tl, tr, br, bl for the sample grid: the same for every frame."""
    s = np.linspace(0.5 - inner / 2, 0.5 + inner / 2, n)
    u, v = np.meshgrid(s, s)
    u, v = u.ravel(), v.ravel()
    weights = np.stack(((1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v), axis=1)
    weights.flags.writeable = False
    return weights


def _sample_points(stickers: np.ndarray, inner: float, n: int) -> np.ndarray:
    """(9, n*n, 2) points spread over the central ``inner`` part of each sticker quad (bilinear in the quad)."""
    # Bilinear weights of the corners tl, tr, br, bl (clockwise from top-left): one small matrix product.
    corners = stickers.astype(np.float64).transpose(1, 0, 2).reshape(4, -1)  # (4, 9 * 2)
    return (_bilinear_weights(inner, n) @ corners).reshape(n * n, -1, 2).transpose(1, 0, 2)


def measure_stickers_with_spread(
    image_bgr: np.ndarray,
    detection: FaceDetection,
    tunables: Tunables = Tunables(),  # noqa: B008
) -> StickerColours:
    """Colour of each sticker with how spread its samples were; see ``measure_stickers``."""
    planes, weight, count, mean, glare = _kept_samples(image_bgr, detection, tunables)
    spread = np.sqrt((weight * ((planes - mean[:, :, None]) ** 2).sum(axis=0)).sum(axis=1) / count)
    m = planes.shape[2]
    clipped = (planes.min(axis=0) >= tunables.clip_level * 255.0).sum(axis=1) / m
    washed = glare.sum(axis=1) / m
    paled = _paled(planes, tunables)
    lost = np.maximum(np.maximum(washed, np.where(clipped > tunables.glare_clipped_share, clipped, 0.0)),
                      paled.astype(np.float64))
    linear = srgb_decode(mean.T)
    spot, lamp = spot_share(image_bgr, detection, luminance(linear), tunables)
    own = srgb_encode(without_spot(linear, spot, lamp)) if (spot > 0).any() else mean.T.copy()
    return StickerColours(rgb=mean.T.copy(), spread=spread, kept=count / m, washed=washed, clipped=clipped,
                          paled=paled, spot=spot, lamp=lamp, own=own, glare=lost)


_LINEAR_OF_SRGB = srgb_decode(np.arange(256))


def _paled(planes: np.ndarray, t: Tunables) -> np.ndarray:
    """(9,) bool: stickers under a smooth highlight (see ``StickerColours.paled``), from the (3, 9, m) samples."""
    # Linear light: added lamp light adds to each channel there. Samples are whole 0-255 values: a table look-up.
    linear = _LINEAR_OF_SRGB[planes.astype(np.intp).transpose(1, 2, 0)]  # (9, m, 3)
    m = linear.shape[1]
    quarter = max(m // 4, 1)
    # The dimmer part just above the dark share trimmed anyway (edge shadows, gaps), and the brightest quarter.
    start = min(int(t.trim_dark * m), m - quarter)
    # Only which samples fall in each part matters, not their order within it: a partition, not a sort.
    order = np.argpartition(luminance(linear), sorted({start, start + quarter - 1, m - quarter}), axis=1)
    rows = np.arange(len(linear))[:, None]
    dim = linear[rows, order[:, start : start + quarter]].mean(axis=1)  # (9, 3)
    bright = linear[rows, order[:, m - quarter :]].mean(axis=1)
    # Chromaticity (each channel's share of the sum): a white keeps its own as its light grows, a colour's moves.
    shift = np.linalg.norm(dim / np.maximum(dim.sum(axis=1, keepdims=True), 1e-9)
                           - bright / np.maximum(bright.sum(axis=1, keepdims=True), 1e-9), axis=1)
    lift = luminance(bright) / np.maximum(luminance(dim), 1e-9)
    return (shift > t.paled_chroma_shift) & (lift > t.paled_lift) & (lift < t.paled_print_lift)


_RGB_OF_BGR = np.array([2, 1, 0], dtype=np.intp)[:, None, None]  # offsets of R, G, B within a BGR pixel


def _kept_samples(
    image_bgr: np.ndarray, detection: FaceDetection, t: Tunables
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Samples as (R, G, B) planes (3, 9, m), the kept ones' 0/1 weights (9, m), their count and mean (3, 9), and
    which samples were dropped as glare (9, m)."""
    height, width = image_bgr.shape[:2]
    pts = _sample_points(np.asarray(detection.stickers), t.measure_inner, t.measure_samples)
    xy = np.rint(pts).astype(np.intp)
    # np.minimum/np.maximum in place rather than np.clip: same values, less per-call overhead.
    xs, ys = xy[..., 0], xy[..., 1]
    np.minimum(np.maximum(xs, 0, out=xs), width - 1, out=xs)
    np.minimum(np.maximum(ys, 0, out=ys), height - 1, out=ys)
    # Channel planes (R, G, B), each (9, m): reductions over a length-3 axis are slow in numpy. One flat take is
    # much cheaper than 2-D fancy indexing of the whole frame (a strided view of a frame is indexed as it is).
    if image_bgr.flags.c_contiguous:
        flat = (ys * width + xs) * image_bgr.shape[2]
        planes = image_bgr.reshape(-1).take(flat + _RGB_OF_BGR).astype(np.float64)
    else:
        planes = np.moveaxis(image_bgr[ys, xs], 2, 0)[::-1].astype(np.float64)
    red, green, blue = planes
    m = red.shape[1]
    value = np.maximum(np.maximum(red, green), blue)
    chroma = value - np.minimum(np.minimum(red, green), blue)
    # The sticker's own colour shows where the highlight is weakest: its most coloured samples (a high quantile,
    # not the median, which a highlight over half the sticker pulls pale too).
    q = min(int(t.glare_reference * m), m - 1)
    ref_chroma = np.partition(chroma, q, axis=1)[:, q : q + 1]
    # Specular glare: bright and much paler than that (a white sticker is pale throughout: nothing is dropped).
    glare = (value > t.glare_value * 255.0) & (chroma < t.glare_chroma * ref_chroma)
    glare &= ref_chroma >= t.glare_min_chroma * 255.0  # a white's chroma is noise: it has no colour to lose
    luma = 0.299 * red + 0.587 * green + 0.114 * blue
    luma[glare] = np.inf  # sorts the glare to the end, where it is cut
    # Each sample's rank by brightness (stable, so ties keep their order as a sort would).
    rank = np.empty(luma.shape, dtype=np.intp)
    rank[np.arange(len(luma))[:, None], np.argsort(luma, axis=1, kind="stable")] = np.arange(m)
    usable = m - glare.sum(axis=1)
    # Drop the darkest share (edge shadows, gap pixels) and a tenth of the brightest (residual highlights).
    lo = (usable * t.trim_dark).astype(int)
    hi = np.maximum(usable - (usable * 0.1).astype(int), lo + 1)
    sel = (rank >= lo[:, None]) & (rank < hi[:, None])
    count = sel.sum(axis=1)
    weight = sel.astype(np.float64)
    mean = (weight[None] * planes).sum(axis=2) / count  # (3, 9)
    return planes, weight, count, mean, glare


def measure_stickers(
    image_bgr: np.ndarray,
    detection: FaceDetection,
    tunables: Tunables = Tunables(),  # noqa: B008
) -> np.ndarray:
    """(9, 3) float64 sRGB 0-255 (RGB order): a glare- and shadow-robust mean of each sticker's inner area."""
    return _kept_samples(image_bgr, detection, tunables)[3].T.copy()
