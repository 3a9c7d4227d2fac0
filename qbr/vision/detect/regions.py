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
from qbr.vision.detect.planes import downscale
from qbr.vision.tunables import Tunables


def region_candidates(work: np.ndarray, t: Tunables) -> Candidates:
    """Sticker-like quads among the stable colour regions of ``work`` (BGR), seen at each of ``region_views``."""
    if work.ndim != 3 or min(work.shape[:2]) < 3:
        return from_rows([])
    rows = [row for share, blur in t.region_views for row in _regions(work, share, blur, t)]
    # Nested regions of one sticker, and one sticker's in every view, all stay: the lattice fit takes one per cell.
    return from_rows(rows)


def _regions(work: np.ndarray, share: float, blur: float, t: Tunables) -> list[tuple[float, ...]]:
    """Candidate rows (in ``work`` pixels) of the stable colour regions of ``work`` seen at ``share`` of its width
    and blurred by ``blur`` of that width."""
    view = downscale(work, round(share * work.shape[1]))
    height, width = view.shape[:2]
    scale = work.shape[1] / width
    side_min = max(4.0, t.sticker_min * width)
    side_max = t.sticker_max * width
    mscr = cv2.MSER_create(
        min_area=int(0.6 * side_min * side_min), max_area=int(1.3 * side_max * side_max),
        max_evolution=t.region_evolution, area_threshold=t.region_area_threshold, min_margin=t.region_min_margin,
        edge_blur_size=odd(t.region_edge_blur * width))
    regions, boxes = mscr.detectRegions(cv2.GaussianBlur(view, (odd(blur * width),) * 2, 0))
    rows = []
    for points, (x, y, w, h) in zip(regions, boxes, strict=True):
        big, small = max(w, h), min(w, h)
        # Cut by the frame edge, of no sticker's size or far from square: not a sticker.
        if x <= 0 or y <= 0 or x + w >= width or y + h >= height or not side_min <= big <= 1.5 * side_max:
            continue
        if big > t.quad_max_aspect * small:
            continue
        row = candidate_row(cv2.convexHull(points.reshape(-1, 1, 2)), float(len(points)), t)
        if row is not None:
            # Pixel centres line up under area resizing: x -> (x + 0.5) s - 0.5.
            cx, cy, *axes, size = row
            rows.append(((cx + 0.5) * scale - 0.5, (cy + 0.5) * scale - 0.5, *(v * scale for v in axes), size * scale))
    return rows
