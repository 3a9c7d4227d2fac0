"""Sticker candidates: the regions between edges that are convex, four-sided and of a sticker's size."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from qbr.vision.detect.edges import edge_map
from qbr.vision.tunables import Tunables


@dataclass(frozen=True)
class Candidates:
    centres: np.ndarray  # (n, 2) float64, work pixels
    axis_a: np.ndarray  # (n, 2): vector from the left edge's middle to the right edge's middle
    axis_b: np.ndarray  # (n, 2): vector from the top edge's middle to the bottom edge's middle
    sizes: np.ndarray  # (n,): square root of the quad area


def _quad_for(hull: np.ndarray, hull_area: float, t: Tunables) -> list[list[float]] | None:
    """Four corners (any start, clockwise on screen) that fit a convex region, or None when it is not four-sided."""
    quad = cv2.approxPolyDP(hull, 0.05 * cv2.arcLength(hull, True), True)
    if len(quad) == 4:
        q = _clockwise_if_fits(quad.reshape(4, 2).tolist(), hull_area, t)
        if q is not None:
            return q
    # Rounded corners pull approxPolyDP's corners inwards; the minimum-area rectangle then fits better.
    return _clockwise_if_fits(cv2.boxPoints(cv2.minAreaRect(hull)).tolist(), hull_area, t)


def _clockwise_if_fits(q: list[list[float]], hull_area: float, t: Tunables) -> list[list[float]] | None:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = q
    # The shoelace sum, term by term in the same order as a loop over the corners would add them.
    twice_area = (x0 * y1 - x1 * y0) + (x1 * y2 - x2 * y1) + (x2 * y3 - x3 * y2) + (x3 * y0 - x0 * y3)
    area = abs(twice_area) / 2
    if area > 0 and t.quad_fill <= hull_area / area <= 2.0 - t.quad_fill:
        return q if twice_area > 0 else q[::-1]  # positive shoelace sum = clockwise with y pointing down
    return None


def _empty_candidates() -> Candidates:
    return Candidates(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0))


def find_candidates(
    planes: list[np.ndarray], t: Tunables, dilation: int, factor: float = 1.0, min_piece: float = 0.0,
    made: dict[float, np.ndarray] | None = None,
) -> Candidates:
    """Sticker-like quads: regions enclosed by edges, convex, four-sided, of a plausible size (``made``: the
    planes' Canny edges by factor, kept for later looks; see ``edge_map``)."""
    height, width = planes[0].shape[:2]
    side_min = max(4.0, t.sticker_min * width - dilation)
    side_max = t.sticker_max * width
    edges = edge_map(planes, t, factor, min_piece, made)
    # Regions between edges are the outer contours of the inverted edge map (holes are edge blobs inside them).
    contours, hierarchy = cv2.findContours(cv2.bitwise_not(edges), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return _empty_candidates()
    boxes = np.array([cv2.boundingRect(c) for c in contours]).reshape(-1, 4)
    x, y, w, h = boxes.T
    big, small = np.maximum(w, h), np.minimum(w, h)
    keep = (hierarchy[0][:, 3] == -1) & (big >= side_min) & (big <= 1.5 * side_max)
    keep &= big <= t.quad_max_aspect * small
    # Stickers cut by the frame edge are useless (and the background region always touches it).
    keep &= (x > 0) & (y > 0) & (x + w < width) & (y + h < height)
    rows = []
    min_area, max_area = 0.6 * side_min * side_min, 1.3 * side_max * side_max
    for k in np.flatnonzero(keep).tolist():
        contour = contours[k]
        area = cv2.contourArea(contour)
        if not min_area <= area <= max_area:
            continue
        row = candidate_row(cv2.convexHull(contour), area, t)
        if row is not None:
            rows.append(row)
    return from_rows(rows)


def candidate_row(hull: np.ndarray, area: float, t: Tunables) -> tuple[float, ...] | None:
    """(centre x, y, axis a, axis b, size) of a region of ``area`` pixels with this convex hull, or None when it is
    not solid, four-sided and of a sticker's proportions."""
    hull_area = cv2.contourArea(hull)
    if area < t.quad_solidity * hull_area:
        return None
    quad = _quad_for(hull, hull_area, t)
    if quad is None:
        return None
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad
    ax, ay = (x1 + x2 - x0 - x3) / 2, (y1 + y2 - y0 - y3) / 2
    bx, by = (x2 + x3 - x0 - x1) / 2, (y2 + y3 - y0 - y1) / 2
    la, lb = math.hypot(ax, ay), math.hypot(bx, by)
    shorter = la if la < lb else lb
    if shorter <= 0 or (lb if la < lb else la) > t.quad_max_aspect * shorter:
        return None
    return ((x0 + x1 + x2 + x3) / 4, (y0 + y1 + y2 + y3) / 4, ax, ay, bx, by, math.sqrt(hull_area))


def from_rows(rows: list[tuple[float, ...]]) -> Candidates:
    """Candidates from ``candidate_row`` rows, in order."""
    if not rows:
        return _empty_candidates()
    table = np.array(rows)
    # Contiguous copies: numpy may pick another (differently rounding) matmul loop for strided views.
    return Candidates(table[:, 0:2].copy(), table[:, 2:4].copy(), table[:, 4:6].copy(), table[:, 6].copy())


def probe_points(cands: Candidates) -> np.ndarray:
    """(5n, 2): every candidate's centre, then the middles of its left, right, top and bottom edges."""
    c, a, b = cands.centres, cands.axis_a / 2, cands.axis_b / 2
    return np.concatenate((c, c - a, c + a, c - b, c + b))


def pooled(looks: list[tuple[Candidates, float]], same: float) -> Candidates:
    """Every look's candidates (each with its scale to a common frame) in one set, a sticker found by several once.

    A candidate whose centre lies within ``same`` of its size from an earlier look's is the same sticker: it is
    dropped, so a sticker counts once however many edge maps closed its outline.
    """
    parts = [(c, s) for c, s in looks if len(c.sizes)]
    if not parts:
        return _empty_candidates()
    # Pixel centres line up under area resizing: x -> (x + 0.5) s - 0.5.
    centres = np.concatenate([(c.centres + 0.5) * s - 0.5 for c, s in parts])
    axis_a = np.concatenate([c.axis_a * s for c, s in parts])
    axis_b = np.concatenate([c.axis_b * s for c, s in parts])
    sizes = np.concatenate([c.sizes * s for c, s in parts])
    keep: list[int] = []
    for i in range(len(sizes)):
        if keep:
            d = np.hypot(*(centres[keep] - centres[i]).T)
            if (d < same * sizes[i]).any():
                continue
        keep.append(i)
    k = np.array(keep)
    return Candidates(centres[k].copy(), axis_a[k].copy(), axis_b[k].copy(), sizes[k].copy())
