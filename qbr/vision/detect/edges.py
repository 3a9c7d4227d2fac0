"""The edge map sticker candidates are cut from: Canny on every plane, combined, short pieces dropped, dilated."""

from __future__ import annotations

import cv2
import numpy as np

from qbr.vision.detect.kernel import odd
from qbr.vision.detect.noise import above_noise
from qbr.vision.tunables import Tunables


def edge_map(planes: list[np.ndarray], t: Tunables, factor: float = 1.0, min_piece: float = 0.0,
             made: dict[float, np.ndarray] | None = None) -> np.ndarray:
    """Canny edges of every plane, combined (pieces of fewer pixels than ``min_piece`` of the width dropped) and
    dilated so sticker outlines close.

    ``made``: the combined Canny edges of these planes by factor, filled as they are made (a later look that only
    drops short pieces reuses them)."""
    width = planes[0].shape[1]
    edges = made.get(factor) if made is not None else None
    if edges is None:
        edges = _canny(planes, t, factor)
        if made is not None:
            made[factor] = edges
    if min_piece > 0:
        edges = _without_short_pieces(edges, min_piece * width)
    d = odd(t.dilate_size * width)
    return cv2.dilate(edges, cv2.getStructuringElement(cv2.MORPH_RECT, (d, d)))


def _canny(planes: list[np.ndarray], t: Tunables, factor: float) -> np.ndarray:
    """Canny edges of every plane at thresholds times ``factor``, combined."""
    width = planes[0].shape[1]
    k = odd(t.blur_size * width)
    edges = None
    for i, plane in enumerate(planes):
        blurred = cv2.GaussianBlur(plane, (k, k), 0)
        # Thresholds follow the frame's contrast so dim and bright scenes both keep sticker outlines.
        _, std = cv2.meanStdDev(blurred)
        low = max(t.canny_floor, t.canny_low * float(std[0, 0])) * (t.canny_extra_factor if i else 1.0) * factor
        scale = (t.canny_extra_factor if i else 1.0) * factor
        high = low * t.canny_high / t.canny_low
        blurred, low, high = above_noise(plane, blurred, float(std[0, 0]), scale, low, high, t)
        found = cv2.Canny(blurred, low, high)
        edges = found if edges is None else cv2.bitwise_or(edges, found)
    assert edges is not None  # there is always a plane
    return edges


def _without_short_pieces(edges: np.ndarray, least: float) -> np.ndarray:
    """Edges without their connected pieces of fewer than ``least`` pixels: specks and squiggles of noise, JPEG
    blocks and glare inside stickers, which cut a small sticker's region apart; an outline is one long piece."""
    # 16-bit labels halve the labelling's time; they hold every piece while at most one pixel in four can start one.
    height, width = edges.shape[:2]
    depth = cv2.CV_16U if ((height + 1) // 2) * ((width + 1) // 2) < 65535 else cv2.CV_32S
    _, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(edges, 8, depth, cv2.CCL_DEFAULT)
    keep = (stats[:, cv2.CC_STAT_AREA] >= least).astype(np.uint8) * 255
    keep[0] = 0  # the background label
    return keep[labels]
