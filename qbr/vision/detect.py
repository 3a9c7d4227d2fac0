"""Find one cube face (a 3x3 grid of stickers) in a camera frame.

Pipeline: grey, blur, Canny, dilate, contours, quadrilateral fits give sticker candidates; one grid
hypothesis per candidate (its own axes define a lattice) collects the candidates that sit on the
lattice, the best 3x3 window is fitted with a homography, and the homography places all nine
stickers, so missed or merged stickers are recovered and layouts that are not a 3x3 face are refused.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from qbr.vision.tunables import Tunables

_GRID_CELLS = np.array([(c + 0.5, r + 0.5) for r in range(3) for c in range(3)], dtype=np.float64)


@dataclass(frozen=True, eq=False)
class FaceDetection:
    """One detected face; all coordinates are pixels of the image given to ``detect_face``."""

    stickers: np.ndarray
    """(9, 4, 2) float32: each sticker's quad, corners clockwise from top-left, stickers row-major as seen."""
    outline: np.ndarray
    """(4, 2) float32: the face outline, clockwise from top-left."""
    confidence: float
    """0..1: share of stickers seen directly, lowered by how badly they fit the grid."""
    homography: np.ndarray
    """3x3 float64 mapping grid coordinates (x = column 0..3, y = row 0..3) to image pixels."""

    def sticker_centres(self) -> np.ndarray:
        """(9, 2) float64 centre of each sticker, row-major."""
        return apply_homography(self.homography, _GRID_CELLS)


@dataclass(frozen=True)
class _Candidates:
    centres: np.ndarray  # (n, 2) float64, work pixels
    axis_a: np.ndarray  # (n, 2): vector from the left edge's middle to the right edge's middle
    axis_b: np.ndarray  # (n, 2): vector from the top edge's middle to the bottom edge's middle
    sizes: np.ndarray  # (n,): square root of the quad area


@dataclass(frozen=True)
class _GridFit:
    homography: np.ndarray  # grid -> work pixels
    found: np.ndarray  # indices of candidates used, one per found cell
    cells: np.ndarray  # (k, 2) int cell (col, row) of each found candidate
    rms: float  # rms residual of found centres, in grid units


def apply_homography(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Map (n, 2) points through a 3x3 homography."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, np.asarray(homography, dtype=np.float64)).reshape(-1, 2)


def _odd(value: float, minimum: int = 3) -> int:
    n = max(minimum, round(value))
    return n if n % 2 else n + 1


def _edge_map(gray: np.ndarray, t: Tunables) -> np.ndarray:
    width = gray.shape[1]
    k = _odd(t.blur_size * width)
    blurred = cv2.GaussianBlur(gray, (k, k), 0)
    # Thresholds follow the frame's contrast so dim and bright scenes both keep sticker outlines.
    _, std = cv2.meanStdDev(blurred)
    low = max(t.canny_floor, t.canny_low * float(std[0, 0]))
    edges = cv2.Canny(blurred, low, low * t.canny_high / t.canny_low)
    d = _odd(t.dilate_size * width)
    return cv2.dilate(edges, cv2.getStructuringElement(cv2.MORPH_RECT, (d, d)))


def _order_clockwise(quad: np.ndarray) -> np.ndarray:
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    return quad[np.argsort(angles)]


def _find_candidates(gray: np.ndarray, t: Tunables, dilation: int) -> _Candidates:
    width = gray.shape[1]
    side_min = max(4.0, t.sticker_min * width - dilation)
    side_max = t.sticker_max * width
    edges = _edge_map(gray, t)
    contours, hierarchy = cv2.findContours(255 - edges, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    centres, axes_a, axes_b, sizes = [], [], [], []
    if hierarchy is None:
        return _Candidates(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0))
    for contour, link in zip(contours, hierarchy[0], strict=True):
        if link[3] != -1:  # a hole inside a region: not a region bounded by edges itself
            continue
        _, _, bw, bh = cv2.boundingRect(contour)
        if max(bw, bh) < side_min or min(bw, bh) < side_min * 0.4 or max(bw, bh) > side_max * 1.5:
            continue
        area = cv2.contourArea(contour)
        if area < 0.5 * side_min * side_min or area > 1.3 * side_max * side_max:
            continue
        hull = cv2.convexHull(contour)
        hull_area = cv2.contourArea(hull)
        if hull_area <= 0 or area < t.quad_solidity * hull_area:
            continue
        quad = cv2.approxPolyDP(hull, 0.05 * cv2.arcLength(hull, True), True).reshape(-1, 2)
        if len(quad) != 4:
            # Rounded or chipped stickers: the minimum-area rectangle is a good enough quad.
            quad = cv2.boxPoints(cv2.minAreaRect(hull))
        quad = _order_clockwise(quad.astype(np.float64))
        quad_area = abs(cv2.contourArea(quad.astype(np.float32)))
        if quad_area <= 0 or not (t.quad_fill <= area / quad_area <= 1.0 / t.quad_fill):
            continue
        a = (quad[1] + quad[2] - quad[0] - quad[3]) / 2
        b = (quad[2] + quad[3] - quad[0] - quad[1]) / 2
        la, lb = float(np.hypot(*a)), float(np.hypot(*b))
        if min(la, lb) <= 0 or max(la, lb) / min(la, lb) > t.quad_max_aspect:
            continue
        if abs(float(a @ b)) > 0.55 * la * lb:  # corner angles outside ~57..123 degrees
            continue
        centres.append(quad.mean(axis=0))
        axes_a.append(a)
        axes_b.append(b)
        sizes.append(np.sqrt(quad_area))
    if not centres:
        return _Candidates(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0))
    return _Candidates(np.array(centres), np.array(axes_a), np.array(axes_b), np.array(sizes))


def _shape_ok(cands: _Candidates, basis_inv: np.ndarray, ratio: float) -> np.ndarray:
    """Candidates whose own axes, seen in the anchor's frame, are unit axis vectors (any order or sign)."""
    a = cands.axis_a @ basis_inv.T
    b = cands.axis_b @ basis_inv.T
    ok = np.ones(len(a), dtype=bool)
    for v in (a, b):
        big = np.abs(v).max(axis=1)
        small = np.abs(v).min(axis=1)
        ok &= (big > 1.0 / ratio) & (big < ratio) & (small < 0.4 * big)
    # The two axes must land on different grid axes.
    ok &= (np.abs(a[:, 0]) > np.abs(a[:, 1])) != (np.abs(b[:, 0]) > np.abs(b[:, 1]))
    return ok


def _hypothesis(cands: _Candidates, anchor: int, t: Tunables) -> _GridFit | None:
    basis = np.column_stack((cands.axis_a[anchor], cands.axis_b[anchor]))
    if abs(np.linalg.det(basis)) < 1e-6:
        return None
    basis_inv = np.linalg.inv(basis)
    shape_ok = _shape_ok(cands, basis_inv, t.grid_size_ratio)
    d = (cands.centres - cands.centres[anchor]) @ basis_inv.T  # offsets in anchor sticker sides
    big = np.abs(d).max(axis=1)
    small = np.abs(d).min(axis=1)
    # Pitch in sticker sides: distance to the nearest neighbour along an axis.
    near = shape_ok & (big > 0.95) & (big < 2.2) & (small < 0.25 * big)
    if not near.any():
        return None
    pitch = float(big[near].min())
    pitch = float(np.median(big[near & (big < pitch * 1.2)]))
    g = d / pitch
    n = np.rint(g)
    resid = np.hypot(*(g - n).T)
    inlier = shape_ok & (resid < t.grid_residual)
    cells = n[inlier].astype(int)
    idx = np.flatnonzero(inlier)
    best = None
    for ox in (-2, -1, 0):
        for oy in (-2, -1, 0):
            inside = (cells[:, 0] >= ox) & (cells[:, 0] <= ox + 2) & (cells[:, 1] >= oy) & (cells[:, 1] <= oy + 2)
            count = len({(int(x), int(y)) for x, y in cells[inside]})
            score = (count, -float(resid[idx[inside]].sum()))
            if best is None or score > best[0]:
                best = (score, ox, oy, inside)
    assert best is not None
    _, ox, oy, inside = best
    chosen = _one_per_cell(idx[inside], cells[inside] - (ox, oy), resid[idx[inside]])
    if len(chosen[0]) < 4:
        return None
    return _fit(cands, chosen[0], chosen[1], t)


def _one_per_cell(indices: np.ndarray, cells: np.ndarray, resid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    keep: dict[tuple[int, int], int] = {}
    for k, (cx, cy) in enumerate(cells):
        key = (int(cx), int(cy))
        if key not in keep or resid[k] < resid[keep[key]]:
            keep[key] = k
    order = sorted(keep.values())
    return indices[order], cells[order].astype(int)


def _spans_plane(cells: np.ndarray) -> bool:
    return len(np.unique(cells[:, 0])) >= 2 and len(np.unique(cells[:, 1])) >= 2


def _fit(cands: _Candidates, found: np.ndarray, cells: np.ndarray, t: Tunables) -> _GridFit | None:
    """Fit a homography to the found cells, then re-collect every candidate that agrees with it."""
    for _ in range(2):
        if len(found) < 4 or not _spans_plane(cells):
            return None
        h, _ = cv2.findHomography(cells + 0.5, cands.centres[found], 0)
        if h is None:
            return None
        try:
            h_inv = np.linalg.inv(h)
        except np.linalg.LinAlgError:
            return None
        g = apply_homography(h_inv, cands.centres)
        cell = np.floor(g)
        resid = np.hypot(*(g - cell - 0.5).T)
        # Size agreement: each candidate against the median of the found ones (perspective changes it little).
        ref = float(np.median(cands.sizes[found]))
        size_ok = (cands.sizes < ref * t.grid_size_ratio) & (cands.sizes > ref / t.grid_size_ratio)
        ok = size_ok & (resid < t.grid_residual)
        in_face = ok & (cell[:, 0] >= 0) & (cell[:, 0] <= 2) & (cell[:, 1] >= 0) & (cell[:, 1] <= 2)
        found, cells = _one_per_cell(np.flatnonzero(in_face), cell[in_face], resid[in_face])
    if len(found) < 4 or not _spans_plane(cells):
        return None
    h, _ = cv2.findHomography(cells + 0.5, cands.centres[found], 0)
    if h is None:
        return None
    h_inv = np.linalg.inv(h)
    g = apply_homography(h_inv, cands.centres)
    cell = np.floor(g)
    resid = np.hypot(*(g - cell - 0.5).T)
    outside = ok & ~((cell[:, 0] >= 0) & (cell[:, 0] <= 2) & (cell[:, 1] >= 0) & (cell[:, 1] <= 2))
    near_ring = outside & (cell[:, 0] >= -1) & (cell[:, 0] <= 3) & (cell[:, 1] >= -1) & (cell[:, 1] <= 3)
    if int(near_ring.sum()) > t.grid_max_extra:
        return None  # a lattice larger than 3x3: tiles, a keyboard, a bigger puzzle
    rms = float(np.sqrt(np.mean(resid[found] ** 2)))
    return _GridFit(h, found, cells, rms)


def _upright(homography: np.ndarray) -> np.ndarray:
    """Rotate grid coordinates by a multiple of 90 degrees so row 0 is the row nearest the image top."""
    best = homography
    for k in range(4):
        c, s = np.round(np.cos(k * np.pi / 2)), np.round(np.sin(k * np.pi / 2))
        # new grid coords -> old grid coords: rotation about the face centre (1.5, 1.5).
        rot = np.array([[c, -s, 1.5 - 1.5 * c + 1.5 * s], [s, c, 1.5 - 1.5 * s - 1.5 * c], [0, 0, 1]])
        h = homography @ rot
        top, bottom = apply_homography(h, np.array([[1.5, 1.0], [1.5, 2.0]]))
        down = bottom - top
        angle = np.degrees(np.arctan2(-down[0], down[1]))  # 0 when grid rows run straight down the image
        if -45.0 < angle <= 45.0:
            best = h
            break
    return best / best[2, 2]


def detect_face(image_bgr: np.ndarray, tunables: Tunables = Tunables()) -> FaceDetection | None:  # noqa: B008
    """Find the cube face in a BGR frame; None when no 3x3 face is visible."""
    t = tunables
    if image_bgr is None or image_bgr.ndim < 2 or image_bgr.size == 0:
        return None
    height, width = image_bgr.shape[:2]
    scale = min(1.0, t.work_width / width)
    work = image_bgr
    if scale < 1.0:
        work = cv2.resize(image_bgr, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
        scale = work.shape[1] / width
    gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY) if work.ndim == 3 else work
    dilation = _odd(t.dilate_size * gray.shape[1])
    cands = _find_candidates(gray, t, dilation)
    n = len(cands.sizes)
    if n < t.grid_min_found:
        return None
    best: _GridFit | None = None
    tried = np.zeros(n, dtype=bool)
    for anchor in np.argsort(-cands.sizes):
        if tried[anchor]:
            continue
        tried[anchor] = True
        fit = _hypothesis(cands, int(anchor), t)
        if fit is None:
            continue
        tried[fit.found] = True  # its members would propose the same grid
        if best is None or (len(fit.found), -fit.rms) > (len(best.found), -best.rms):
            best = fit
        if len(best.found) == 9 and best.rms < 0.05:
            break
    if best is None or len(best.found) < t.grid_min_found:
        return None
    h_work = _upright(best.homography)
    # Work pixels -> original pixels (pixel centres line up under INTER_AREA resizing).
    to_orig = np.array([[1 / scale, 0, 0.5 / scale - 0.5], [0, 1 / scale, 0.5 / scale - 0.5], [0, 0, 1]])
    h = to_orig @ h_work
    h = h / h[2, 2]
    margin = _sticker_margin(cands, best, h_work, dilation)
    corners = []
    for r in range(3):
        for c in range(3):
            corners += [(c + margin, r + margin), (c + 1 - margin, r + margin)]
            corners += [(c + 1 - margin, r + 1 - margin), (c + margin, r + 1 - margin)]
    stickers = apply_homography(h, np.array(corners)).reshape(9, 4, 2).astype(np.float32)
    outline = apply_homography(h, np.array([(0, 0), (3, 0), (3, 3), (0, 3)], dtype=np.float64)).astype(np.float32)
    confidence = len(best.found) / 9.0 * float(np.exp(-best.rms / 0.15))
    return FaceDetection(stickers=stickers, outline=outline, confidence=confidence, homography=h)


def _sticker_margin(cands: _Candidates, fit: _GridFit, h_work: np.ndarray, dilation: int) -> float:
    """Half the gap between stickers, in grid units, from the found stickers' sizes."""
    cell_px = np.sqrt(abs(cv2.contourArea(
        apply_homography(h_work, np.array([(0, 0), (3, 0), (3, 3), (0, 3)], dtype=np.float64)).astype(np.float32)
    ))) / 3.0
    side = (float(np.median(cands.sizes[fit.found])) + dilation) / max(cell_px, 1e-6)
    return float(np.clip((1.0 - side) / 2.0, 0.02, 0.3))
