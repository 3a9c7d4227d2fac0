"""Sticker candidates from colour regions that stay whole over a range of merging (MSCR), not from edges.

On a dim, gained-up frame the noise breaks and the blur closes a sticker's outline in every edge map, but the
sticker is still an area of one colour: OpenCV's maximally stable colour regions (MSER on a colour image) grow
regions by merging neighbouring pixels in order of colour difference and keep those that stay the same over a
range of differences, which averages the noise over the whole region rather than judging it at the outline.
"""

from __future__ import annotations

import cv2
import numpy as np

from qbr.vision.detect.candidates import Candidates, candidate_row, from_rows
from qbr.vision.detect.kernel import odd
from qbr.vision.tunables import Tunables


def region_candidates(work: np.ndarray, t: Tunables) -> Candidates:
    """Sticker-like quads among the stable colour regions of ``work`` (BGR), smoothed by each of ``region_blurs``."""
    height, width = work.shape[:2]
    if work.ndim != 3 or min(height, width) < 3:
        return from_rows([])
    side_min = max(4.0, t.sticker_min * width)
    side_max = t.sticker_max * width
    mscr = cv2.MSER_create(
        min_area=int(0.6 * side_min * side_min), max_area=int(1.3 * side_max * side_max),
        max_evolution=t.region_evolution, area_threshold=t.region_area_threshold, min_margin=t.region_min_margin,
        edge_blur_size=odd(t.region_edge_blur * width))
    found = [mscr.detectRegions(cv2.GaussianBlur(work, (odd(blur * width),) * 2, 0)) for blur in t.region_blurs]
    rows = []
    for points, (x, y, w, h) in ((p, b) for regions, boxes in found for p, b in zip(regions, boxes, strict=True)):
        big, small = max(w, h), min(w, h)
        # Cut by the frame edge, of no sticker's size or far from square: not a sticker.
        if x <= 0 or y <= 0 or x + w >= width or y + h >= height or not side_min <= big <= 1.5 * side_max:
            continue
        if big > t.quad_max_aspect * small:
            continue
        row = candidate_row(cv2.convexHull(points.reshape(-1, 1, 2)), float(len(points)), t)
        if row is not None:
            rows.append(row)
    # Nested regions of one sticker, and one sticker's at every blur, all stay: the lattice fit takes one per cell.
    return from_rows(rows)
