"""How much of each sticker's light a glare spot adds, read from the cube body's gaps around the sticker.

A lamp's specular spot is a smooth blob larger than a sticker: it lifts the body's gaps beside a sticker as much as
the sticker itself, while the gaps elsewhere on the face stay as dark as the body is. So a gap's light above the
face's darkest gap is the spot's there (linear light adds), and that over the sticker's own light is the share of
what was measured that is the lamp's, not the sticker's. On the spot's flat top nothing inside a sticker falls off
(``measure``'s ``paled`` sees no change), but its gaps still show the spot.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from qbr.vision.colour import luminance, srgb_decode
from qbr.vision.detect import FaceDetection
from qbr.vision.detect.geometry import apply_homography
from qbr.vision.tunables import Tunables

_LUMINANCE_OF_SRGB = srgb_decode(np.arange(256)[:, None].repeat(3, axis=1))  # (256, 3) linear of each 0-255 value


@lru_cache(maxsize=8)
def _gap_grid(size: int, reach: float, span: float, along: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Grid points on the face's inner gaps, (gaps * along * 3, 2), each sticker's gaps (stickers, 4) and how many
    it has (stickers,), all read-only: each gap is the middle ``span`` of one sticker side, sampled on the line and
    ``reach`` either side (the grid may be off by a pixel or two: the darkest of the three is the gap)."""
    across, s = np.meshgrid(np.array([-reach, 0.0, reach]), np.linspace(0.5 - span / 2, 0.5 + span / 2, along))
    points, sides = [], []
    for line in range(1, size):
        for cell in range(size):
            # The gap between columns line-1 and line in row ``cell``, then the one between rows in column ``cell``.
            points.append(np.stack([line + across, cell + s], axis=2))
            sides.append((cell * size + line - 1, cell * size + line))
            points.append(np.stack([cell + s, line + across], axis=2))
            sides.append(((line - 1) * size + cell, line * size + cell))
    grid = np.concatenate([p.reshape(-1, 2) for p in points])
    grid.flags.writeable = False
    borders = np.zeros((size * size, len(sides)), dtype=bool)
    for g, (a, b) in enumerate(sides):
        borders[a, g] = borders[b, g] = True
    # Each sticker's gaps as indices, padded with the last gap (sorted last, as its lift is taken as infinite there).
    count = borders.sum(axis=1)
    index = np.full((size * size, int(count.max())), len(sides), dtype=np.intp)
    for k, row in enumerate(borders):
        index[k, : count[k]] = np.flatnonzero(row)
    index.flags.writeable = False
    count.flags.writeable = False
    return grid, index, count


def spot_share(image_bgr: np.ndarray, detection: FaceDetection, sticker_luminance: np.ndarray,
               t: Tunables) -> tuple[np.ndarray, np.ndarray]:
    """(stickers,) float64 in [0, 1]: the share of each sticker's light (linear luminance as measured) that a spot
    adds, by the median of its gaps' light above what the face's unlit gaps would show in other light; and the
    spot's chromaticity (3,): the lit gaps' linear R, G, B shares (NaN without a spot), the lamp's own colour on a
    body that reflects little of its own."""
    size = detection.size
    if size < 2:
        return np.zeros(len(sticker_luminance)), np.full(3, np.nan)
    along = t.spot_gap_samples
    grid, index, count = _gap_grid(size, t.spot_gap_reach, t.spot_gap_span, along)
    height, width = image_bgr.shape[:2]
    xy = np.rint(apply_homography(detection.homography, grid)).astype(np.intp)
    xs = np.minimum(np.maximum(xy[:, 0], 0), width - 1)
    ys = np.minimum(np.maximum(xy[:, 1], 0), height - 1)
    # Whole 0-255 values (a float image is rounded): a table look-up per channel, BGR to RGB.
    values = np.minimum(np.maximum(np.rint(image_bgr[ys, xs]), 0), 255).astype(np.intp)
    linear = _LUMINANCE_OF_SRGB[values[:, ::-1], np.arange(3)]
    brightness = luminance(linear).reshape(-1, along, 3)
    across = brightness.argmin(axis=2)  # (gaps, along): the darkest across each gap
    light = np.take_along_axis(brightness, across[:, :, None], axis=2)[:, :, 0]
    middle = np.argpartition(light, along // 2, axis=1)[:, along // 2]  # the median along it
    rows = np.arange(len(light))
    gaps = light[rows, middle]
    rank = min(t.spot_floor_rank, len(gaps) - 1)
    floor = float(np.partition(gaps, rank)[rank])
    # Shading scales the body's light, a spot adds to it: a gap only a little brighter than the unlit is shading;
    # a lamp's spot adds light like a white sticker's, a gap lifted far less is a light body's bleed or shadow.
    brightest = float(sticker_luminance.max())
    lifted = (gaps > t.spot_floor_shading * floor) & (gaps - floor > t.spot_min_light * brightest)
    lift = np.append(np.where(lifted, gaps - floor, 0.0), np.inf)
    # Each sticker's gaps: the median of the 2-4 it borders (one bright neighbour's bleed does not lift it alone).
    around = np.sort(lift[index], axis=1)
    stickers = np.arange(len(index))
    median = (around[stickers, (count - 1) // 2] + around[stickers, count // 2]) / 2
    share = np.minimum(median / np.maximum(sticker_luminance, 1e-6), 1.0)
    # The spot's colour: the lit gaps' light, each the sample its luminance was read from (mostly the lamp's there).
    lit = linear.reshape(-1, along, 3, 3)[rows, middle, across[rows, middle]][lifted].sum(axis=0)
    total = float(lit.sum())
    return share, (lit / total if total > 0 else np.full(3, np.nan))


def without_spot(linear: np.ndarray, share: np.ndarray, lamp: np.ndarray) -> np.ndarray:
    """(stickers, 3) linear colours with the spot's light taken off: ``share`` of each sticker's luminance in the
    lamp's chromaticity ``lamp`` (what ``spot_share`` gives), at most as much as leaves every channel at or above 0.

    A spot adds the lamp's light to a sticker's (linear light adds): a red under a warm lamp's spot reads orange or
    pink, a glare-hit yellow near white; what is left is the sticker's own colour in the face's light. No sticker
    can hold more of the lamp's light than its weakest channel allows: a larger share read from the gaps (a dark
    sticker beside lit gaps, a spot on the gap rather than the sticker) is taken only that far, never recolouring it.
    """
    if not np.isfinite(lamp).all() or not (share > 0).any():
        return linear
    tint = np.maximum(lamp / max(float(luminance(lamp)), 1e-9), 1e-9)  # the lamp's light per unit of luminance
    added = np.minimum(share * luminance(linear), (linear / tint[None, :]).min(axis=1))
    return np.maximum(linear - added[:, None] * tint[None, :], 0.0)
