"""Find one cube face (a 3x3 grid of stickers) in a camera frame.

Pipeline: grey and blue-yellow planes, blur, Canny, dilate, contours, quadrilateral fits give sticker
candidates; every candidate proposes the lattice spanned by its own axes, the best 3x3 window of each
proposal is fitted with a homography that then collects every candidate agreeing with it in position,
size and shape, and the homography places all nine stickers, so missed or merged stickers are
recovered. Lattices larger than 3x3, loose fits, lattices at twice the real pitch and nine alike squares
(tile walls) are refused; a grid seen in two lines only could slide, and goes where its unseen line shows
body-coloured gaps or, where no dark body shows (stickerless, white bodies), where the face's outline runs
past the unseen line (else it is refused). Among the rest the big, fully seen grid wins.
Frames where nothing is found get one more search on stricter edges (noise-broken outlines), one without the short
edge pieces that noise, JPEG blocks and glare leave inside small stickers, and, when
small candidates were seen, one at a higher work width (small stickers' gaps run together at 320 px); when
still nothing is found among a few candidates, blurred outlines get one search on contrast-equalised planes
and one on weaker edges, and last ones on contrast-equalised planes at the higher width (small, dim faces).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from qbr.vision.tunables import Tunables

_GRID_CELLS = np.array([(c + 0.5, r + 0.5) for r in range(3) for c in range(3)], dtype=np.float64)
# Midpoints of the twelve inner gaps between neighbouring cells, in grid units.
_INNER_GAPS = np.array(
    [(c + 1.0, r + 0.5) for r in range(3) for c in range(2)] + [(c + 0.5, r + 1.0) for r in range(2) for c in range(3)],
    dtype=np.float64,
)


# The same for a 2x2x2's face: its four cells and the four arms of the cross of gaps between them.
_POCKET_CELLS = np.array([(c + 0.5, r + 0.5) for r in range(2) for c in range(2)], dtype=np.float64)
_POCKET_GAPS = np.array([(1.0, 0.5), (1.0, 1.5), (0.5, 1.0), (1.5, 1.0)], dtype=np.float64)
_CELLS = {3: _GRID_CELLS, 2: _POCKET_CELLS}


@dataclass(frozen=True, eq=False)
class FaceDetection:
    """One detected face; all coordinates are pixels of the image given to ``detect_face``."""

    stickers: np.ndarray
    """(size * size, 4, 2) float32: each sticker's quad, corners clockwise from top-left, stickers row-major as
    seen (nine for a 3x3x3, four for a 2x2x2)."""
    outline: np.ndarray
    """(4, 2) float32: the face outline, clockwise from top-left."""
    confidence: float
    """0..1: share of stickers seen directly, lowered by how badly they fit the grid."""
    homography: np.ndarray
    """3x3 float64 mapping grid coordinates (x = column 0..size, y = row 0..size) to image pixels."""
    size: int = 3
    """Stickers along the face's side: 3 (a 3x3x3) or 2 (a 2x2x2, only when no 3x3 grid fits)."""

    def sticker_centres(self) -> np.ndarray:
        """(size * size, 2) float64 centre of each sticker, row-major."""
        return apply_homography(self.homography, _CELLS[self.size])


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
    extras: int  # lattice-aligned squares just outside the face (tiles, not stickers)
    area: float  # face outline area, work pixels
    fill: float  # sticker side / cell side: far below 1 means the lattice skips a row of stickers
    variety: float = 0.0  # spread of the found stickers' colours (grey levels): tiles are all alike
    alike: bool = False  # all stickers one colour (a solved face): taken only when no many-coloured grid is found
    size: int = 3  # cells along a side: 3, or 2 for a 2x2x2's face
    gap_step: float = 0.0  # 2x2x2 only: colour step (0-255) from its stickers to the gaps between them (blur: low)
    conflicts: int = 0  # 2x2x2 only: sticker-sized squares inside it that sit between cells (a bigger lattice)

    def rank(self) -> tuple[int, float]:
        # Seven or more stickers make a sure grid (all four on a 2x2); among sure grids the cube held up to the
        # camera is big and has its stickers all seen.
        sure = min(len(self.found), 7 if self.size == 3 else 4) - 2 * self.extras
        return sure, self.area * (len(self.found) / float(self.size**2)) ** 2

    def spans_face(self) -> bool:
        """A sticker seen in every row and every column, so the window cannot slide."""
        n = self.size
        return len(set(self.cells[:, 0].tolist())) == n and len(set(self.cells[:, 1].tolist())) == n


def apply_homography(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Map (n, 2) points through a 3x3 homography."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, np.asarray(homography, dtype=np.float64)).reshape(-1, 2)


def _odd(value: float, minimum: int = 3) -> int:
    n = max(minimum, round(value))
    return n if n % 2 else n + 1


def _edge_map(planes: list[np.ndarray], t: Tunables, factor: float = 1.0, min_piece: float = 0.0) -> np.ndarray:
    """Canny edges of every plane, combined (pieces of fewer pixels than ``min_piece`` of the width dropped) and
    dilated so sticker outlines close."""
    width = planes[0].shape[1]
    k = _odd(t.blur_size * width)
    edges = None
    for i, plane in enumerate(planes):
        blurred = cv2.GaussianBlur(plane, (k, k), 0)
        # Thresholds follow the frame's contrast so dim and bright scenes both keep sticker outlines.
        _, std = cv2.meanStdDev(blurred)
        low = max(t.canny_floor, t.canny_low * float(std[0, 0])) * (t.canny_extra_factor if i else 1.0) * factor
        scale = (t.canny_extra_factor if i else 1.0) * factor
        high = low * t.canny_high / t.canny_low
        blurred, low, high = _above_noise(plane, blurred, float(std[0, 0]), scale, low, high, t)
        found = cv2.Canny(blurred, low, high)
        edges = found if edges is None else cv2.bitwise_or(edges, found)
    if min_piece > 0:
        edges = _without_short_pieces(edges, min_piece * width)
    d = _odd(t.dilate_size * width)
    return cv2.dilate(edges, cv2.getStructuringElement(cv2.MORPH_RECT, (d, d)))


def _without_short_pieces(edges: np.ndarray, least: float) -> np.ndarray:
    """Edges without their connected pieces of fewer than ``least`` pixels: specks and squiggles of noise, JPEG
    blocks and glare inside stickers, which cut a small sticker's region apart; an outline is one long piece."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(edges, connectivity=8)
    keep = (stats[:, cv2.CC_STAT_AREA] >= least).astype(np.uint8) * 255
    keep[0] = 0  # the background label
    return keep[labels]


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
    k = _odd(t.blur_size * size[0])
    coarse = _median_step(_neighbour_steps(cv2.GaussianBlur(coarse_plane, (k, k), 0)))
    # A step that does not grow at all is all noise: never more than the step itself.
    return min(step, float(np.sqrt(max(m * m * step * step - coarse * coarse, 0.0) / (m * m - 1))))


def _above_noise(
    plane: np.ndarray, blurred: np.ndarray, spread: float, scale: float, low: float, high: float, t: Tunables
) -> tuple[np.ndarray, float, float]:
    """A noise-limited plane (a dim, gained-up frame) gets a wider blur and Canny thresholds above its noise."""
    if t.noise_ratio <= 0:
        return blurred, low, high
    steps = _neighbour_steps(blurred)
    # Most steps above the bound is the median above it, without sorting (the common, clean frame pays little).
    if 2 * cv2.countNonZero(cv2.threshold(steps, t.noise_ratio * spread, 255, cv2.THRESH_BINARY)[1]) <= steps.size:
        return blurred, low, high
    noise = _untextured_step(plane, _median_step(steps), t)
    if noise <= t.noise_ratio * spread:
        return blurred, low, high
    # Only a very noisy plane is smoothed more: a wider blur closes small stickers' thin gaps.
    if noise > t.noise_blur_ratio * spread:
        k = _odd(t.noise_blur_size * plane.shape[1])
        # Edge-preserving first: steps of the noise's size are smoothed, an outline's (far larger) are not.
        src = plane if t.noise_bilateral_range <= 0 else cv2.bilateralFilter(
            plane, k, t.noise_bilateral_range * noise, k / 2.5)
        blurred = cv2.GaussianBlur(src, (k, k), 0)
        noise = _median_step(_neighbour_steps(blurred))
    noise *= scale
    return blurred, max(low, t.noise_canny_low * noise), max(high, t.noise_canny_high * noise)


def _planes(work_bgr: np.ndarray) -> list[np.ndarray]:
    """Grey for contrast between colours and the body; blue-yellow tells yellow from white, which grey cannot."""
    if work_bgr.ndim == 2:
        return [work_bgr]
    return [cv2.cvtColor(work_bgr, cv2.COLOR_BGR2GRAY), _blue_yellow(work_bgr)]


def _blue_yellow(work_bgr: np.ndarray) -> np.ndarray:
    """Blue minus the mean of green and red, at half resolution: what JPEG and webcams keep of colour (4:2:0).

    The opponent difference cancels the light's brightness steps shared by all channels, and the half-size
    plane drops the blocky, noisy chroma detail finer than that, which broke and merged sticker outlines.
    """
    height, width = work_bgr.shape[:2]
    small = cv2.resize(work_bgr, (max(1, width // 2), max(1, height // 2)), interpolation=cv2.INTER_AREA)
    # 0.5 b - 0.25 g - 0.25 r + 128: yellow (low blue) dark, white and blue light, grey in the middle.
    opponent = cv2.transform(small, np.array([[0.5, -0.25, -0.25, 128.0]]))
    return cv2.resize(opponent, (width, height), interpolation=cv2.INTER_LINEAR)


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


def _empty_candidates() -> _Candidates:
    return _Candidates(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0))


def _find_candidates(
    planes: list[np.ndarray], t: Tunables, dilation: int, factor: float = 1.0, min_piece: float = 0.0
) -> _Candidates:
    """Sticker-like quads: regions enclosed by edges, convex, four-sided, of a plausible size."""
    height, width = planes[0].shape[:2]
    side_min = max(4.0, t.sticker_min * width - dilation)
    side_max = t.sticker_max * width
    edges = _edge_map(planes, t, factor, min_piece)
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
    solidity, max_aspect = t.quad_solidity, t.quad_max_aspect
    for k in np.flatnonzero(keep).tolist():
        contour = contours[k]
        area = cv2.contourArea(contour)
        if not min_area <= area <= max_area:
            continue
        hull = cv2.convexHull(contour)
        hull_area = cv2.contourArea(hull)
        if area < solidity * hull_area:
            continue
        quad = _quad_for(hull, hull_area, t)
        if quad is None:
            continue
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad
        ax, ay = (x1 + x2 - x0 - x3) / 2, (y1 + y2 - y0 - y3) / 2
        bx, by = (x2 + x3 - x0 - x1) / 2, (y2 + y3 - y0 - y1) / 2
        la, lb = math.hypot(ax, ay), math.hypot(bx, by)
        shorter = la if la < lb else lb
        if shorter <= 0 or (lb if la < lb else la) > max_aspect * shorter:
            continue
        rows.append(((x0 + x1 + x2 + x3) / 4, (y0 + y1 + y2 + y3) / 4, ax, ay, bx, by, math.sqrt(hull_area)))
    if not rows:
        return _empty_candidates()
    table = np.array(rows)
    # Contiguous copies: numpy may pick another (differently rounding) matmul loop for strided views.
    return _Candidates(table[:, 0:2].copy(), table[:, 2:4].copy(), table[:, 4:6].copy(), table[:, 6].copy())


_WINDOWS = np.array([(ox, oy) for oy in (-2, -1, 0) for ox in (-2, -1, 0)], dtype=np.float64)
_POCKET_WINDOWS = np.array([(ox, oy) for oy in (-1, 0) for ox in (-1, 0)], dtype=np.float64)
# Rows (by, -bx, -ay, ax) of the 2x2 adjugate from (bx, by, ax, ay).
_ADJUGATE_ORDER = np.array([1, 0, 3, 2])
_ADJUGATE_SIGN = np.array([1.0, -1.0, -1.0, 1.0])
_WINDOW_LO = np.array([-2.0, -1.0, 0.0])[:, None, None]  # a window's first column (or row)
_POCKET_WINDOW_LO = np.array([-1.0, 0.0])[:, None, None]


def _hypotheses(
    cands: _Candidates, t: Tunables, size: int = 3
) -> Iterator[tuple[int, np.ndarray, Callable[[], tuple[np.ndarray, np.ndarray]]]]:
    """Every candidate proposes the lattice spanned by its own axes; yields the proposals, best first.

    Each proposal is (anchor, candidate indices, a function giving one candidate per cell and its (col, row) in
    a ``size`` x ``size`` window: computed only when asked, as most proposals repeat an earlier one). All anchors
    are evaluated at once on (anchor, other) arrays, which is far cheaper than one pass per anchor.
    """
    offsets, window_lo = (_WINDOWS, _WINDOW_LO) if size == 3 else (_POCKET_WINDOWS, _POCKET_WINDOW_LO)
    least = 4 if size == 3 else t.pocket_min_found - 0.5  # a score is its count less a hundredth per residual
    n = len(cands.sizes)
    centres, axis_a, axis_b = cands.centres, cands.axis_a, cands.axis_b
    # Inverse of each anchor's basis (columns: its two axes), in closed form: far cheaper than stacked linalg.
    ax, ay, bx, by = axis_a[:, 0], axis_a[:, 1], axis_b[:, 0], axis_b[:, 1]
    det = ax * by - bx * ay
    valid = np.abs(det) > 1e-6
    det = np.where(valid, det, 1.0)
    adjugate = np.concatenate((axis_b, axis_a), axis=1)[:, _ADJUGATE_ORDER] * _ADJUGATE_SIGN
    inv = (adjugate / det[:, None]).reshape(n, 2, 2)
    # Everything below is (anchor, other): others' offsets and axes in the anchor's sticker-side units, as
    # separate planes per lattice axis (numpy's per-call overhead dominates at these sizes).
    ok = valid[:, None] & valid[None, :]
    a_side = None
    for axes in (axis_a, axis_b):
        v = np.abs(inv @ axes.T)
        v0, v1 = v[:, 0], v[:, 1]
        big = np.maximum(v0, v1)
        ok &= (big > 1.0 / t.grid_size_ratio) & (big < t.grid_size_ratio) & (np.minimum(v0, v1) < 0.4 * big)
        a_side = v0 > v1 if a_side is None else a_side ^ (v0 > v1)
    ok &= a_side  # the other's two axes land on different lattice axes
    d = inv @ (centres.T[None] - centres[:, :, None])
    d0, d1 = d[:, 0], d[:, 1]
    abs0, abs1 = np.abs(d0), np.abs(d1)
    big = np.maximum(abs0, abs1)
    near = ok & (big > 0.95) & (big < 2.2) & (np.minimum(abs0, abs1) < 0.25 * big)
    first = np.where(near, big, np.inf).min(axis=1)
    close = near & (big < 1.2 * first[:, None])
    # An anchor with a neighbour has at least one close one (the nearest): the guard only spares the others a 0 / 0.
    pitch = np.where(close, big, 0.0).sum(axis=1) / np.maximum(close.sum(axis=1), 1)
    has_pitch = np.isfinite(first)
    pitch[~has_pitch] = 1.0
    g0, g1 = d0 / pitch[:, None], d1 / pitch[:, None]
    cell0, cell1 = np.rint(g0), np.rint(g1)
    resid = np.hypot(g0 - cell0, g1 - cell1)
    inlier = ok & (resid < t.grid_residual) & has_pitch[:, None]
    # Count inliers in each of the nine 3x3 windows that contain the anchor's own cell (window 3 * row + column;
    # four 2x2 windows on a 2x2x2).
    cols = (cell0[None] >= window_lo) & (cell0[None] <= window_lo + (size - 1))  # (size, n, n) per window column
    rows = (cell1[None] >= window_lo) & (cell1[None] <= window_lo + (size - 1))
    inside = (rows[:, None] & (cols & inlier)[None]).reshape(size * size, n, n)
    score = inside.sum(axis=2) - 0.01 * np.where(inside, resid[None], 0.0).sum(axis=2)
    best_window = score.argmax(axis=0)
    best_score = score[best_window, np.arange(n)]
    # Every anchor's members at once: one nonzero over (anchor, other), sliced per anchor.
    anchors, others = np.nonzero(inside[best_window, np.arange(n)])
    bounds = np.searchsorted(anchors, np.arange(n + 1)).tolist()
    scores, windows = best_score.tolist(), best_window.tolist()
    for anchor in np.argsort(-best_score).tolist():
        if scores[anchor] < least:
            return
        members = others[bounds[anchor]:bounds[anchor + 1]]

        def cells_of(anchor: int = anchor, members: np.ndarray = members) -> tuple[np.ndarray, np.ndarray]:
            wx, wy = offsets[windows[anchor]]
            cells = np.stack((cell0[anchor, members] - wx, cell1[anchor, members] - wy), axis=1)
            return _one_per_cell(members, cells, resid[anchor, members])

        yield anchor, members, cells_of


def _median(values: np.ndarray) -> float:
    """Middle value (upper middle for even counts): np.median's overhead matters at this size."""
    return sorted(values.tolist())[len(values) // 2]


def _one_per_cell(indices: np.ndarray, cells: np.ndarray, resid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    keep: dict[tuple[int, int], int] = {}
    res = resid.tolist()
    for k, (cx, cy) in enumerate(cells.tolist()):
        key = (int(cx), int(cy))
        if key not in keep or res[k] < res[keep[key]]:
            keep[key] = k
    order = sorted(keep.values())
    return indices[order], cells[order].astype(int)


def _spans_plane(cells: np.ndarray) -> bool:
    count, columns, rows = _lines(cells)
    return count >= 4 and columns > 1 and rows > 1


def _lines(cells: np.ndarray) -> tuple[int, int, int]:
    """How many cells, and how many different columns and rows they use (plain Python: a handful of cells)."""
    pairs = cells.tolist()
    return len(pairs), len({c for c, _ in pairs}), len({r for _, r in pairs})


_AFFINE_TAIL = np.array([0.0, 0.0, 1.0])
_PERSPECTIVE_TAIL = np.array([1.0])


def _homography(src: np.ndarray, dst: np.ndarray, affine: bool = False) -> np.ndarray | None:
    """Least-squares homography src -> dst (direct linear transform with h33 = 1, destination normalised).

    ``affine`` drops the perspective terms: steadier when the points cover only part of the face.
    """
    k = len(src)
    # Sums divided by counts are what ndarray.mean computes, without its Python-level overhead.
    mean = dst.sum(axis=0) / k
    centred = dst - mean
    scale = float(np.abs(centred).sum() / (2 * k)) or 1.0
    uv = centred / scale
    unknowns = 6 if affine else 8
    rows = np.zeros((2 * k, unknowns))
    rows[:k, 0:2] = src
    rows[:k, 2] = 1.0
    rows[k:, 3:5] = src
    rows[k:, 5] = 1.0
    if not affine:
        rows[:k, 6:8] = -uv[:, :1] * src
        rows[k:, 6:8] = -uv[:, 1:] * src
    rhs = uv.T.reshape(-1, 1)
    # Normal equations of a tiny, well conditioned system, solved by OpenCV: numpy's LAPACK wakes OpenBLAS's
    # thread pool on every call, which costs ~0.1 ms each between frames' other work (12 us back to back).
    solved, sol = cv2.solve(rows, rhs, flags=cv2.DECOMP_CHOLESKY | cv2.DECOMP_NORMAL)
    if not solved:
        return None
    h = np.concatenate((sol.ravel(), _AFFINE_TAIL if affine else _PERSPECTIVE_TAIL)).reshape(3, 3)
    m0, m1 = mean.tolist()
    h = np.array([[scale, 0.0, m0], [0.0, scale, m1], [0.0, 0.0, 1.0]]) @ h
    if not np.isfinite(h).all():
        return None
    (a, b, c), (d, e, f), (g, i, j) = h.tolist()
    # Only a degenerate fit comes near this bound (real ones are ~pitch squared): the closed-form 3x3 determinant
    # may differ from LAPACK's in the last bit, never in the outcome, and costs a fraction of np.linalg.det.
    if abs(a * (e * j - f * i) - b * (d * j - f * g) + c * (d * i - e * g)) < 1e-9:
        return None
    return h


def _probes(cands: _Candidates) -> np.ndarray:
    """(5n, 2): every candidate's centre, then the middles of its left, right, top and bottom edges."""
    c, a, b = cands.centres, cands.axis_a / 2, cands.axis_b / 2
    return np.concatenate((c, c - a, c + a, c - b, c + b))


def _assign(
    cands: _Candidates, h: np.ndarray, ref_size: float, t: Tunables, probes: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each candidate's grid cell under ``h``, its distance from the cell centre, and whether it fits there.

    ``probes`` is ``_probes(cands)`` when the caller already has it.
    """
    n = len(cands.sizes)
    pts = apply_homography(cv2.invert(h, flags=cv2.DECOMP_LU)[1], _probes(cands) if probes is None else probes)
    g = pts[:n]
    cell = np.floor(g)
    off = g - cell - 0.5
    resid = np.hypot(off[:, 0], off[:, 1])
    sizes = cands.sizes
    # Size agreement with the found stickers' median (perspective changes sizes little across one face).
    ok = (sizes < ref_size * t.grid_size_ratio) & (sizes > ref_size / t.grid_size_ratio) & (resid < t.grid_residual)
    # Shape agreement: seen through the grid a sticker is an upright square; a neighbouring face's is squashed.
    ga, gb = np.abs(pts[2 * n:3 * n] - pts[n:2 * n]), np.abs(pts[4 * n:] - pts[3 * n:4 * n])
    ga0, ga1, gb0, gb1 = ga[:, 0], ga[:, 1], gb[:, 0], gb[:, 1]
    la, lb = np.maximum(ga0, ga1), np.maximum(gb0, gb1)
    ok &= (np.minimum(ga0, ga1) < 0.35 * la) & (np.minimum(gb0, gb1) < 0.35 * lb)
    ok &= (ga0 > ga1) != (gb0 > gb1)
    # Small stickers are only a few pixels across: allow their shape a pixel or two of slack.
    slack = t.grid_square + 1.0 / np.maximum(sizes, 1.0)
    both = la + lb
    ok &= (la < slack * lb) & (lb < slack * la) & (both > 0.8) & (both < 2.4)
    return cell, resid, ok


_OUTLINE = np.array([(0, 0), (3, 0), (3, 3), (0, 3)], dtype=np.float64)


def _fit(cands: _Candidates, found: np.ndarray, cells: np.ndarray, t: Tunables, dilation: int) -> _GridFit | None:
    """Fit the grid to the found cells, re-collect every candidate that agrees with it, refit, check."""
    ref_size = _median(cands.sizes[found])
    probes = _probes(cands)
    settled = False
    for _ in range(3):
        count, columns, rows = _lines(cells)
        if count < 4 or columns < 2 or rows < 2:
            return None
        # Perspective is only trustworthy when the stickers cover the whole face.
        full = count >= 6 and columns == 3 and rows == 3
        h = _homography(cells + 0.5, cands.centres[found], affine=not full)
        if h is None:
            return None
        cell, resid, ok = _assign(cands, h, ref_size, t, probes)
        inside = ((cell >= 0) & (cell <= 2)).all(axis=1)
        in_face = ok & inside
        new_found, new_cells = _one_per_cell(np.flatnonzero(in_face), cell[in_face], resid[in_face])
        if full and new_found.tolist() == found.tolist():
            settled = True  # h already is the full homography of exactly these stickers
            break
        found, cells = new_found, new_cells
    if not settled:
        if not _spans_plane(cells):
            return None
        h = _homography(cells + 0.5, cands.centres[found])
        if h is None:
            return None
        cell, resid, ok = _assign(cands, h, ref_size, t, probes)
        inside = ((cell >= 0) & (cell <= 2)).all(axis=1)
    in_ring = ((cell >= -1) & (cell <= 3)).all(axis=1) & ~inside
    # Squares just outside the face that sit tightly on its lattice with the same size are tiles, not a cube.
    same_size = np.abs(np.log(cands.sizes / ref_size)) < np.log(1.3)
    extras = int((ok & in_ring & same_size & (resid < 0.6 * t.grid_residual)).sum())
    if extras > max(t.grid_max_extra, t.grid_max_extra_seen):
        return None  # a lattice larger than 3x3: tiles, a keyboard, a bigger puzzle
    kept = resid[found]
    rms = math.sqrt(float((kept**2).sum() / len(kept)))
    outline = apply_homography(h, _OUTLINE).astype(np.float32)
    area = abs(float(cv2.contourArea(outline)))
    # Found regions are shrunk by the edge dilation: add it back before comparing with the cell.
    fill = (_median(cands.sizes[found]) + dilation) / max(math.sqrt(area) / 3.0, 1e-6)
    return _GridFit(h, found, cells, rms, extras, area, fill)


def _rotation(k: int, mid: float = 1.5) -> np.ndarray:
    """New grid coordinates -> old ones: a turn by k quarters about the face centre (mid, mid)."""
    c, s = round(np.cos(k * np.pi / 2)), round(np.sin(k * np.pi / 2))
    return np.array([[c, -s, mid - mid * c + mid * s], [s, c, mid - mid * s - mid * c], [0, 0, 1]], dtype=np.float64)


_ROTATIONS = [_rotation(k) for k in range(4)]
# The middle column's top and bottom ends in each rotation's grid, mapped once for all four turns.
_UPRIGHT_PROBES = np.concatenate([r[:2, :2] @ np.array([[1.5, 1.5], [1.0, 2.0]]) + r[:2, 2:]
                                  for r in _ROTATIONS], axis=1).T
# The same for a 2x2x2's face (centre (1, 1)): the middle line's ends half a pitch either side of the centre.
_POCKET_ROTATIONS = [_rotation(k, 1.0) for k in range(4)]
_POCKET_UPRIGHT_PROBES = np.concatenate([r[:2, :2] @ np.array([[1.0, 1.0], [0.5, 1.5]]) + r[:2, 2:]
                                         for r in _POCKET_ROTATIONS], axis=1).T


def _upright(homography: np.ndarray, size: int = 3) -> np.ndarray:
    """Rotate grid coordinates by a multiple of 90 degrees so row 0 is the row nearest the image top."""
    rotations, probes = (_ROTATIONS, _UPRIGHT_PROBES) if size == 3 else (_POCKET_ROTATIONS, _POCKET_UPRIGHT_PROBES)
    ends = apply_homography(homography, probes).reshape(4, 2, 2)
    down = ends[:, 1] - ends[:, 0]
    angle = np.degrees(np.arctan2(-down[:, 0], down[:, 1]))  # 0 when grid rows run straight down the image
    upright = np.flatnonzero((angle > -45.0) & (angle <= 45.0))
    best = homography @ rotations[upright[0]] if len(upright) else homography
    return best / best[2, 2]


_CROSS = np.array([(0, 0), (2, 0), (-2, 0), (0, 2), (0, -2)], dtype=np.intp)


# Each sticker's corners (clockwise from top-left, stickers row-major) as cell corner + sign * margin.
_QUAD = ((0, 0), (1, 0), (1, 1), (0, 1))
_CORNER_BASE = np.array([(c + dx, r + dy) for r in range(3) for c in range(3) for dx, dy in _QUAD], dtype=np.float64)
_CORNER_SIGN = np.array([(1 - 2 * dx, 1 - 2 * dy) for _ in range(9) for dx, dy in _QUAD], dtype=np.float64)
_POCKET_CORNER_BASE = np.array([(c + dx, r + dy) for r in range(2) for c in range(2) for dx, dy in _QUAD],
                               dtype=np.float64)
_POCKET_CORNER_SIGN = _CORNER_SIGN[:16]
_POCKET_OUTLINE = np.array([(0, 0), (2, 0), (2, 2), (0, 2)], dtype=np.float64)


def _exposure_gain(work: np.ndarray, t: Tunables) -> float:
    """How much an under-exposed frame's colour differences are scaled up: its bright end (a high percentile of the
    pixels' largest channel) brought to ``variety_exposure``; 1 for a frame exposed at least that brightly."""
    if work.ndim != 3 or t.variety_exposure <= 0:
        return 1.0
    b, g, r = cv2.split(work)
    brightest = cv2.max(cv2.max(b, g), r)
    counts = np.cumsum(cv2.calcHist([brightest], [0], None, [256], [0, 256]).ravel())
    level = int(np.searchsorted(counts, t.variety_exposure_share * counts[-1]))
    return max(1.0, t.variety_exposure / max(level, 1))


def _colour_variety(work: np.ndarray, points: np.ndarray, gain: float = 1.0) -> float:
    """RMS spread (grey levels) of the colours at ``points``, each a 5-pixel cross average, times ``gain``."""
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
    return math.sqrt(float((spread**2).sum() / len(colours))) * gain


def _gap_colours(work: np.ndarray, h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(n, 3) colours at grid ``points`` (work image, nearest pixel); points outside the image give NaN."""
    xy = np.rint(apply_homography(h, points)).astype(int)
    height, width = work.shape[:2]
    inside = (xy[:, 0] >= 0) & (xy[:, 0] < width) & (xy[:, 1] >= 0) & (xy[:, 1] < height)
    colours = np.full((len(xy), 3), np.nan)
    colours[inside] = work[xy[inside, 1], xy[inside, 0]]
    return colours


def _dark_body(gaps: np.ndarray, cells: np.ndarray, t: Tunables) -> bool:
    """Whether the colours between stickers are much darker than the stickers: a cube body, not grout or a white
    body (NaN rows, off the image, are left out)."""
    gap_level, cell_level = np.nanmedian(gaps.mean(axis=1)), np.nanmedian(cells.mean(axis=1))
    return bool(np.isfinite(gap_level) and gap_level < t.solved_gap_ratio * cell_level)


def _dark_gaps(work: np.ndarray, fit: _GridFit, t: Tunables) -> bool:
    """Whether nine alike cells are a solved face: dark joints (a cube body, not grout) or vivid sticker colours."""
    if work.ndim != 3:
        return False
    cells = _gap_colours(work, fit.homography, _CELLS[fit.size])
    if _dark_body(_gap_colours(work, fit.homography, _INNER_GAPS if fit.size == 3 else _POCKET_GAPS), cells, t):
        return True
    # A white-bodied cube has light gaps too, but its stickers are vivid where tiles are greyish.
    vivid = (cells.max(axis=1) - cells.min(axis=1)) / np.maximum(cells.max(axis=1), 1.0)
    return bool(np.nanmedian(vivid) > t.solved_min_saturation)


_BORDER_ALONG = np.linspace(0.2, 2.8, 14)
_BORDER_OFFSETS = (-0.12, 0.0, 0.12)


def _border_strength(work: np.ndarray, h: np.ndarray, axis: int, border: float) -> float:
    """How sharply colour changes across the grid line ``border`` (a row line if ``axis`` is 1, else a column line).

    Median along the line of the colour step between points a sixth of a pitch either side of it (the largest of a
    few offsets, as the fit is only so exact): a face's outline gives a step all along, background seldom does.
    """
    steps = []
    for offset in _BORDER_OFFSETS:
        across = border + offset + np.array([-1.0, 1.0])[:, None] / 6.0
        pts = np.stack(np.broadcast_arrays(_BORDER_ALONG[None, :], across), axis=2).reshape(-1, 2)
        colours = _gap_colours(work, h, pts if axis == 1 else pts[:, ::-1]).reshape(2, -1, 3)
        steps.append(np.linalg.norm(colours[1] - colours[0], axis=1))
    step = np.max(np.stack(steps), axis=0)
    return float(np.nanmedian(step)) if np.isfinite(step).any() else 0.0


def _settle_window(work: np.ndarray, fit: _GridFit, t: Tunables) -> _GridFit | None:
    """Place a window that could slide (stickers seen in two adjacent lines only) by the cube body's gaps.

    Between two stickers of a real line the body shows through, coloured like the gaps between the stickers
    found; past the face's edge lies background. The window goes where its unseen line has body-coloured
    gaps, clearly more so than the other side. Where the body is not dark, the face's outline also counts (see
    ``_border_strength``). Otherwise the grid is refused.
    """
    # Two lines of alike squares are as likely a strip of tiles: only a many-coloured pair is trusted.
    if work.ndim != 3 or len(fit.found) < t.grid_min_found or fit.variety < t.slide_min_variety:
        return None
    lines = [sorted(set(fit.cells[:, k].tolist())) for k in (0, 1)]
    if len(lines[0]) == 3 and len(lines[1]) == 3:
        return fit
    axis = 1 if len(lines[0]) == 3 and len(lines[1]) == 2 else 0 if len(lines[1]) == 3 and len(lines[0]) == 2 else -1
    if axis < 0:
        return None
    seen = lines[axis]
    if seen[1] - seen[0] == 2:
        return fit  # only the middle line unseen: the window cannot slide
    along = np.array([(g, f) for g in (1.0, 2.0) for f in (0.3, 0.5, 0.7)])  # two gaps, three points each

    def gap_points(line: int) -> np.ndarray:
        pts = along.copy()
        pts[:, 1] += line
        return pts if axis == 1 else pts[:, ::-1]

    seen_gaps = _gap_colours(work, fit.homography, np.concatenate([gap_points(r) for r in seen]))
    body = np.nanmedian(seen_gaps, axis=0)
    scores = []
    for extra in (seen[0] - 1, seen[1] + 1):
        colours = _gap_colours(work, fit.homography, gap_points(extra))
        scores.append(float(np.mean(np.linalg.norm(colours - body, axis=1))))  # NaN when off the image
    scores = [np.inf if not np.isfinite(s) else s for s in scores]
    pick = int(np.argmin(scores))
    best, other = scores[pick], scores[1 - pick]
    gaps_decide = best < t.slide_gap_match and other > t.slide_gap_ratio * best + t.slide_gap_match / 2
    if _dark_body(seen_gaps, _gap_colours(work, fit.homography, fit.cells + 0.5), t):
        # A dark body's gaps are a sure sign; a sharp line past such a face is more likely clutter than its outline.
        if not gaps_decide:
            return None
    else:
        # No dark body shows between the stickers (stickerless, a white body): the face's own outline runs along
        # the far side of its unseen line, the other window's far side lies in the background. A very clear
        # outline overrules the gaps (a hand or a neighbouring face can pass for a light body past the face).
        edges = [_border_strength(work, fit.homography, axis, border) for border in (seen[0] - 1, seen[1] + 2)]
        sharp = int(np.argmax(edges))
        ratio = edges[sharp] / max(edges[1 - sharp], 1e-9)
        if edges[sharp] >= t.slide_edge_min and ratio >= t.slide_edge_sure:
            pick = sharp
        elif not gaps_decide:
            # Gaps that point the other way leave a less clear outline undecided.
            if edges[sharp] < t.slide_edge_min or ratio < t.slide_edge_ratio or scores[sharp] > scores[1 - sharp]:
                return None
            pick = sharp
    shift = seen[0] - 1 if pick == 0 else seen[0]  # new window starts at this line
    move = np.eye(3)
    move[axis, 2] = shift
    h = fit.homography @ move
    cells = fit.cells.copy()
    cells[:, axis] -= shift
    return dataclasses.replace(fit, homography=h, cells=cells)


def _fit_pocket(
    cands: _Candidates, found: np.ndarray, cells: np.ndarray, t: Tunables, dilation: int
) -> _GridFit | None:
    """Fit a 2x2x2's grid to the found cells, re-collect every candidate that agrees with it, refit, check.

    The fit is affine, so that four stickers leave a residual to judge it by (a homography fits any four points);
    the stickers are then placed by the homography of all four when all four were seen.
    """
    ref_size = _median(cands.sizes[found])
    probes = _probes(cands)
    for _ in range(3):
        count, columns, rows = _lines(cells)
        if count < t.pocket_min_found or columns < 2 or rows < 2:
            return None
        if count == 3:  # exactly determined: least squares' normal equations are too ill-conditioned
            src, dst = (cells + 0.5).astype(np.float32), cands.centres[found].astype(np.float32)
            h = np.vstack((cv2.getAffineTransform(src, dst), _AFFINE_TAIL))
        else:
            h = _homography(cells + 0.5, cands.centres[found], affine=True)
        if h is None or not np.isfinite(h).all() or abs(float(np.linalg.det(h))) < 1e-9:
            return None
        cell, resid, ok = _assign(cands, h, ref_size, t, probes)
        inside = ((cell >= 0) & (cell <= 1)).all(axis=1)
        in_face = ok & inside
        new_found, new_cells = _one_per_cell(np.flatnonzero(in_face), cell[in_face], resid[in_face])
        if new_found.tolist() == found.tolist():
            break
        found, cells = new_found, new_cells
    else:
        return None  # the stickers it collects keep changing: no steady grid
    # Squares just outside the face on its lattice, or between its cells: part of a bigger lattice, not a 2x2x2.
    in_ring = ((cell >= -1) & (cell <= 2)).all(axis=1) & ~inside
    same_size = np.abs(np.log(cands.sizes / ref_size)) < np.log(1.3)
    extras = int((ok & in_ring & same_size & (resid < 0.6 * t.grid_residual)).sum())
    conflicts = int((inside & same_size & (resid >= t.grid_residual)).sum())
    kept = resid[found]
    rms = math.sqrt(float((kept**2).sum() / len(kept)))
    if len(found) == 4:
        # Four points determine the homography exactly (least squares' normal equations are too ill-conditioned).
        exact = cv2.getPerspectiveTransform((cells + 0.5).astype(np.float32), cands.centres[found].astype(np.float32))
        if not np.isfinite(exact).all() or abs(float(np.linalg.det(exact))) < 1e-9:
            return None
        h = exact
    outline = apply_homography(h, _POCKET_OUTLINE).astype(np.float32)
    area = abs(float(cv2.contourArea(outline)))
    fill = (_median(cands.sizes[found]) + dilation) / max(math.sqrt(area) / 2.0, 1e-6)
    return _GridFit(h, found, cells, rms, extras, area, fill, size=2, conflicts=conflicts)


def _side_points(points: list[tuple[float, float]]) -> np.ndarray:
    """(4, k, 2): points given beyond a 2x2 grid's right side, turned to lie beyond each side (right, bottom, left,
    top) by quarter turns about the face centre (1, 1)."""
    base = np.array(points, dtype=np.float64) - 1.0
    quarter = np.array([[0.0, -1.0], [1.0, 0.0]])
    turns = [np.linalg.matrix_power(quarter, k) for k in range(4)]
    return np.stack([base @ m.T + 1.0 for m in turns])


# Beyond each side of a 2x2 grid: the two cells a bigger face would continue with (a 5-point cross each), and
# profiles across the gap between them (at three points along it), from inside one cell to inside the other.
_CROSS_ARMS = [(0.0, 0.0), (-0.25, 0.0), (0.25, 0.0), (0.0, -0.25), (0.0, 0.25)]
_ACROSS = (-0.35, -0.05, 0.0, 0.05, 0.35)  # the ends lie inside the stickers, the rest on the gap
_SIDE_CELLS = _side_points([(2.5 + dx, cy + dy) for cy in (0.5, 1.5) for dx, dy in _CROSS_ARMS])
_SIDE_GAPS = _side_points([(x, 1.0 + d) for x in (2.3, 2.5, 2.7) for d in _ACROSS])
_SIDE_FAR = _side_points([(3.2, 0.5), (3.2, 1.5)])  # past where such a cell would end: the face's outline
# The same profiles across the four arms of the cross of gaps between the grid's own stickers, clear of its middle
# (where many 2x2x2s carry a logo).
_POCKET_BODY = np.concatenate([_side_points([(1.0 + d, 0.5) for d in _ACROSS]),
                               _side_points([(1.0 + d, 1.5) for d in _ACROSS])], axis=1).reshape(-1, 2)


def _gap_extremes(colours: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per profile (rows of ``_ACROSS`` colours, (k, m, 3)): the gap's colour, the point on it farthest from any
    blend of the two ends' colours (blur blends a gap into its stickers, but it stays the extreme), and how far."""
    start, step = colours[:, :1], colours[:, -1:] - colours[:, :1]
    rel = colours[:, 1:-1] - start
    blend = np.clip((rel * step).sum(axis=2) / np.maximum((step * step).sum(axis=2), 1e-9), 0.0, 1.0)
    distance = np.linalg.norm(rel - blend[:, :, None] * step, axis=2)
    pick = np.argmax(np.nan_to_num(distance, nan=-1.0), axis=1)
    rows = np.arange(len(colours))
    return colours[rows, 1 + pick], distance[rows, pick]


def _body(work: np.ndarray, h: np.ndarray) -> tuple[np.ndarray, float]:
    """A 2x2 grid's body colour (between its stickers) and how clearly it steps away from them (0-255; NaN when
    off the image)."""
    body, step = _gap_extremes(_gap_colours(work, h, _POCKET_BODY).reshape(-1, len(_ACROSS), 3))
    return np.median(body, axis=0), float(np.median(step))


def _continued(work: np.ndarray, fit: _GridFit, t: Tunables) -> bool:
    """Whether a bigger face continues a 2x2 grid on some side: then it is part of a 3x3 face (or of a wall of
    tiles), not a 2x2x2's face.

    A face continues where, beyond a side, lies a sticker-like cell (of one even colour, and another past where
    it ends: a sticker, not a finger reaching on) beside a gap as marked as the grid's own gaps and coloured like
    them; past a 2x2x2's face lies background, one region with no gap in it, a hand, or (tilted) its squashed
    side face, whose cells are not even.
    """
    if work.ndim != 3:
        return True
    h = fit.homography
    body_colour, contrast = _body(work, h)
    if not (np.isfinite(body_colour).all() and math.isfinite(contrast)):
        return True
    cells = _gap_colours(work, h, _SIDE_CELLS.reshape(-1, 2)).reshape(4, 2, len(_CROSS_ARMS), 3)
    gaps, marks = _gap_extremes(_gap_colours(work, h, _SIDE_GAPS.reshape(-1, 2)).reshape(-1, len(_ACROSS), 3))
    gap = np.median(gaps.reshape(4, 3, 3), axis=1)  # (4, 3): each side's gap colour, and how marked it is
    mark = np.median(marks.reshape(4, 3), axis=1)
    mean = cells.mean(axis=2)
    even = np.linalg.norm(cells - mean[:, :, None], axis=3).max(axis=2) < t.pocket_cell_even
    far = _gap_colours(work, h, _SIDE_FAR.reshape(-1, 2)).reshape(4, 2, 3)
    ends = np.linalg.norm(far - mean, axis=2) > t.pocket_cell_end
    sticker_like = (even & ends).sum(axis=1) >= t.pocket_side_cells
    marked = mark > t.pocket_gap_depth * contrast
    like_body = np.linalg.norm(gap - body_colour, axis=1) < max(t.pocket_gap_match, t.pocket_gap_share * contrast)
    # A side reaching off the image tells nothing (comparisons with NaN are False): a 3x3 face cut there shows a
    # bigger lattice of candidates on its other sides.
    return bool((sticker_like & marked & like_body).any())


def _within(inner: _GridFit, outer: _GridFit, scale: float = 1.0) -> bool:
    """Whether ``inner``'s centre lies inside ``outer``'s outline: the two grids are fitted to one object.

    ``scale``: ``outer``'s work width over ``inner``'s (pixel centres line up under INTER_AREA resizing).
    """
    centre = apply_homography(inner.homography, np.array([[inner.size / 2, inner.size / 2]]))[0]
    centre = (centre + 0.5) * scale - 0.5
    to_grid = cv2.invert(outer.homography, flags=cv2.DECOMP_LU)[1]
    x, y = apply_homography(to_grid, centre[None])[0]
    return bool(0.0 <= x <= outer.size and 0.0 <= y <= outer.size)


def _overrules(pocket: _GridFit, grid: _GridFit | None, t: Tunables, scale: float = 1.0) -> bool:
    """Whether a 2x2x2's face is taken rather than ``grid``: nothing, a one-coloured grid (tiles), a thin grid
    elsewhere (tiles, post-its), or a thin grid around it (its own stickers and a side face's or a neighbour's) when
    its gaps are clear enough to show that no 3x3 face continues it (``scale``: ``grid``'s work width over
    ``pocket``'s)."""
    if grid is None:
        return True
    if grid.alike:
        return True
    if len(grid.found) > t.pocket_overrule_found:
        return False
    beyond = _beyond_corner_block(pocket, grid, t, scale)
    if beyond is not None and beyond >= t.pocket_block_beyond:
        return False  # a 2x2x2's face and a stray sticker beside it make one; the rest of a 3x3 face, several
    return not _within(pocket, grid, scale) or pocket.gap_step >= t.pocket_overrule_step


def _beyond_corner_block(pocket: _GridFit, grid: _GridFit, t: Tunables, scale: float = 1.0) -> int | None:
    """When a 2x2 grid is four cells of a 3x3 grid's lattice (a corner block), how many of the 3x3's found stickers
    lie beyond it; None when it is not on that lattice (another object, or the same one at another pitch).

    ``scale``: ``grid``'s work width over ``pocket``'s (pixel centres line up under INTER_AREA resizing).
    """
    centres = (apply_homography(pocket.homography, _POCKET_CELLS) + 0.5) * scale - 0.5
    cells = apply_homography(cv2.invert(grid.homography, flags=cv2.DECOMP_LU)[1], centres) - 0.5
    nearest = np.rint(cells)
    low = nearest.min(axis=0)
    if np.abs(cells - nearest).max() > t.pocket_block_residual or (nearest.max(axis=0) - low != 1).any():
        return None
    return int(((grid.cells < low) | (grid.cells > low + 1)).any(axis=1).sum())


def _search_pocket(work: np.ndarray, looks: list[_Candidates], t: Tunables, solved: bool = False) -> _GridFit | None:
    """The best 2x2x2 face among the sticker candidates of earlier looks (that found no 3x3 face), or None.

    ``solved``: four alike stickers between a body's dark gaps (or vivid ones) are taken too, below any
    many-coloured face: only when the cube is known to be a 2x2x2, as 2x2 tile panels and windows look the same.
    """
    dilation = _odd(t.dilate_size * work.shape[1])
    gain: float | None = None  # the frame's exposure gain, once a grid needs it (most frames have none)
    best: _GridFit | None = None
    for cands in looks:
        if len(cands.sizes) < t.pocket_min_found:
            continue
        tried = np.zeros(len(cands.sizes), dtype=bool)
        for anchor, members, cells_of in _hypotheses(cands, t, size=2):
            if tried[anchor]:
                continue
            fit = _fit_pocket(cands, *cells_of(), t, dilation)
            tried[members] = True
            if fit is None or fit.rms > t.pocket_max_rms or fit.fill < t.grid_min_fill:
                continue
            if fit.extras > t.pocket_max_extra or fit.conflicts:
                continue  # lattice-aligned squares around or inside it: a bigger face or a wall of tiles
            gain = _exposure_gain(work, t) if gain is None else gain
            variety = _colour_variety(work, cands.centres[fit.found], gain)
            alike = variety < t.grid_min_variety
            if alike and not (solved and len(fit.found) == 4 and _dark_gaps(work, fit, t)):
                continue  # four alike squares: as likely a 2x2 tile panel or window (rendered rooms)
            fit = dataclasses.replace(fit, variety=variety, alike=alike)
            if _continued(work, fit, t):
                continue
            fit = dataclasses.replace(fit, gap_step=_body(work, fit.homography)[1])
            if best is None or (not fit.alike, fit.rank()) > (not best.alike, best.rank()):
                best = fit
    return best


def _search(
    work: np.ndarray, planes: list[np.ndarray], t: Tunables, dilation: int, factor: float,
    looks: list[_Candidates] | None = None, min_piece: float = 0.0,
) -> tuple[_GridFit | None, int, int]:
    """The best face grid among the sticker candidates of one edge map (or None), how many were small, and all.

    The candidates are added to ``looks`` when given (a 2x2x2's face is searched among them if no 3x3 is found);
    ``min_piece``: edge pieces shorter than this share of the width are dropped first.
    """
    cands = _find_candidates(planes, t, dilation, factor, min_piece)
    if looks is not None:
        looks.append(cands)
    n = len(cands.sizes)
    small = int((cands.sizes < t.retry_small_size * work.shape[1]).sum())
    if n < t.grid_min_found:
        return None, small, n
    best: _GridFit | None = None
    gain: float | None = None  # the frame's exposure gain, once a grid needs it (most frames have none)
    tried = np.zeros(n, dtype=bool)
    for anchor, members, cells_of in _hypotheses(cands, t):
        if best is not None and not best.alike and best.rank()[0] >= 7 and len(members) < 5:
            break  # proposals come best first: none of the rest can make a sure grid
        if tried[anchor]:
            continue
        fit = _fit(cands, *cells_of(), t, dilation)
        tried[members] = True  # these would propose the same grid again
        if fit is None:
            continue
        if fit.rms > t.grid_max_rms or fit.fill < t.grid_min_fill:
            continue
        gain = _exposure_gain(work, t) if gain is None else gain
        variety = _colour_variety(work, cands.centres[fit.found], gain)
        fit = dataclasses.replace(fit, variety=variety, alike=variety < t.grid_min_variety)
        if fit.alike and (fit.extras or not _dark_gaps(work, fit, t)):
            continue  # nine alike squares in a bigger lattice or between light joints: tiles, not a solved face
        seen_whole = len(fit.found) >= t.grid_seen_found and fit.variety >= t.grid_seen_variety
        if fit.extras > (t.grid_max_extra_seen if seen_whole else t.grid_max_extra):
            continue  # a lattice larger than 3x3, unless the face is plainly seen beside a few chance tiles
        if not fit.spans_face():
            fit = _settle_window(work, fit, t)
            if fit is None:
                continue
        if best is None or (not fit.alike, fit.rank()) > (not best.alike, best.rank()):
            best = fit
    if best is None or len(best.found) < t.grid_min_found:
        return None, small, n
    return best, small, n


def _downscale(image: np.ndarray, target_width: int) -> np.ndarray:
    height, width = image.shape[:2]
    scale = min(1.0, target_width / width)
    if scale >= 1.0:
        return image
    size = (round(width * scale), round(height * scale))
    if scale < 0.5:
        # Area averaging straight from a big frame is slow; thin it out cheaply to twice the work size first.
        image = cv2.resize(image, (2 * size[0], 2 * size[1]), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def _stretched(planes: list[np.ndarray], t: Tunables) -> list[np.ndarray]:
    """Planes with local contrast equalised: a blurred or dim face's sticker outlines rise above Canny's thresholds."""
    clahe = cv2.createCLAHE(clipLimit=t.retry_clahe_clip, tileGridSize=(t.retry_clahe_tiles, t.retry_clahe_tiles))
    return [clahe.apply(plane) for plane in planes]


def _search_all(
    work: np.ndarray, t: Tunables, *factors: float, retry: bool = False, stretch: bool = False,
    looks: list[_Candidates] | None = None, min_piece: float = 0.0,
) -> tuple[_GridFit | None, int, int]:
    """Search with each Canny factor in turn; later (retry) factors must see ``retry_min_found`` stickers.

    ``retry`` holds the first factor to that too; ``stretch`` searches contrast-equalised planes; ``min_piece``
    drops shorter edge pieces (share of the width); each search's candidates are added to ``looks`` when given.
    Also returns how many small sticker candidates the first search saw, and how many candidates in all.
    """
    dilation = _odd(t.dilate_size * work.shape[1])
    planes = _stretched(_planes(work), t) if stretch else _planes(work)
    small = seen_all = 0
    fallback = None  # a one-coloured grid: kept only if no search finds a many-coloured one
    for i, factor in enumerate(dict.fromkeys(factors)):
        found, seen, count = _search(work, planes, t, dilation, factor, looks, min_piece)
        small, seen_all = (seen, count) if i == 0 else (small, seen_all)
        # A retry's sparser edges also thin out decoys: only trust a well-filled or many-coloured grid from it.
        if found is not None and (
            (i == 0 and not retry) or len(found.found) >= t.retry_min_found or found.variety >= t.retry_min_variety
        ):
            if not found.alike:
                return found, small, seen_all
            fallback = fallback or found
    return fallback, small, seen_all


def _plain_face(fit: _GridFit | None) -> _GridFit | None:
    """A last-resort search's grid, unless it is one-coloured or has squares on its lattice outside: tile walls."""
    return None if fit is None or fit.alike or fit.extras else fit


def detect_face(
    image_bgr: np.ndarray, tunables: Tunables = Tunables(), size: int | None = None  # noqa: B008
) -> FaceDetection | None:
    """Find the cube face in a BGR frame; None when no face is visible.

    ``size`` 3 or 2 looks for that cube's faces only (the user said which cube it is); None decides by the grid.

    When the first look finds no sure 3x3 face, a 2x2x2's face is looked for among the same sticker candidates
    (``FaceDetection.size`` says which was found): a 2x2 grid spanning a whole face, which no square on its lattice
    and no sticker-like cell beyond its sides continues; only then do the 3x3 fallback searches give way to it.
    """
    t = tunables if size != 3 else dataclasses.replace(tunables, pocket_min_found=0)
    if size not in (None, 2, 3):
        raise ValueError(f"size must be 2, 3 or None, not {size!r}")
    if image_bgr is None or image_bgr.ndim < 2 or image_bgr.size == 0:
        return None
    width = image_bgr.shape[1]
    work = _downscale(image_bgr, t.work_width)
    first_looks: list[_Candidates] = []
    found, small, seen_all = _search_all(work, t, 1.0, t.retry_canny_factor, looks=first_looks)
    if size == 2:
        if t.pocket_min_found <= 0:
            return None
        pocket = _search_pocket(work, first_looks, t, t.pocket_solved_faces)
        if pocket is None and t.pocket_stretch_look and t.retry_clahe_clip > 0:
            # Light stickers on a light body (white on white, faded, glare): their edges rise only once equalised.
            stretch_looks: list[_Candidates] = []
            _search_all(work, t, 1.0, retry=True, stretch=True, looks=stretch_looks)
            pocket = _search_pocket(work, stretch_looks, t, t.pocket_solved_faces)
        return None if pocket is None else _detection(pocket, work, width)
    pocket, pocket_work = None, work
    if t.pocket_min_found > 0 and (found is None or found.alike or len(found.found) <= t.pocket_overrule_found):
        # No sure 3x3 face: a 2x2x2's face (seen whole, continued by no sticker) may take the place of the grid.
        pocket = _search_pocket(work, first_looks, t)
        if pocket is not None and found is not None and _overrules(pocket, found, t):
            found = pocket
    if (found is None or found.alike) and t.retry_edge_piece > 0:
        # Noise, JPEG blocks and glare leave short edge pieces inside small stickers that cut them apart.
        kept, _, _ = _search_all(work, t, 1.0, t.retry_canny_factor, retry=True, min_piece=t.retry_edge_piece)
        if kept is not None and (found is None or not kept.alike):
            found = kept
    closer = t.retry_work_width > work.shape[1] and width > work.shape[1]
    closer_work: np.ndarray | None = None  # made once, for whichever closer look needs it first
    if (found is None or found.alike) and closer and small >= t.retry_small_min:
        # Small stickers with thin gaps run together at the work size: look once more, closer.
        closer_work = _downscale(image_bgr, t.retry_work_width)
        closer_found, _, _ = _search_all(closer_work, t, 1.0, t.retry_canny_factor, retry=True)
        if closer_found is not None and (
            len(closer_found.found) >= t.retry_min_found or closer_found.variety >= t.retry_min_variety
        ) and (found is None or not closer_found.alike):
            found, work = closer_found, closer_work
    stretch_looks: list[_Candidates] = []  # candidates on contrast-equalised planes, for a 2x2x2's face
    if found is None and t.retry_clahe_clip > 0 and t.retry_weak_min <= seen_all <= t.retry_weak_max:
        # Blurred or dim stickers: equalise local contrast, and let weaker edges through, before giving up.
        found = _plain_face(_search_all(work, t, 1.0, retry=True, stretch=True, looks=stretch_looks)[0])
        if found is None and t.retry_low_canny_factor > 0:
            found = _plain_face(_search_all(work, t, t.retry_low_canny_factor, retry=True)[0])
    if found is None and closer and t.retry_clahe_clip > 0:
        # Small and blurred or dim: contrast-equalised planes, closer (a tiny stickerless face's tiles only part there).
        closer_work = _downscale(image_bgr, t.retry_work_width) if closer_work is None else closer_work
        factors = [1.0, t.retry_canny_factor] + ([t.retry_low_canny_factor] if t.retry_low_canny_factor > 0 else [])
        found = _plain_face(_search_all(closer_work, t, *factors, retry=True, stretch=True)[0])
        if found is not None:
            work = closer_work
    if pocket is None and found is None and t.pocket_min_found > 0 and t.pocket_stretch_look and t.retry_clahe_clip > 0:
        # Light stickers on a light body (white on white, faded, glare): their edges rise only once equalised.
        if not stretch_looks:
            _search_all(pocket_work, t, 1.0, retry=True, stretch=True, looks=stretch_looks)
        pocket = _search_pocket(pocket_work, stretch_looks, t)
    if pocket is not None and found is not pocket and _overrules(pocket, found, t,
                                                                 work.shape[1] / pocket_work.shape[1]):
        found, work = pocket, pocket_work  # the 3x3 searches that followed found no sure face either
    return None if found is None else _detection(found, work, width)


def _detection(best: _GridFit, work: np.ndarray, width: int) -> FaceDetection:
    """The face of grid ``best`` (fitted in ``work``) in the pixels of the original frame, ``width`` wide."""
    n = best.size
    scale = work.shape[1] / width
    h_work = _upright(best.homography, n)
    # Work pixels -> original pixels (pixel centres line up under INTER_AREA resizing).
    to_orig = np.array([[1 / scale, 0, 0.5 / scale - 0.5], [0, 1 / scale, 0.5 / scale - 0.5], [0, 0, 1]])
    h = to_orig @ h_work
    h = h / h[2, 2]
    margin = min(max((1.0 - best.fill) / 2.0, 0.02), 0.3)
    # Sticker corners and the outline in one transform (each point is mapped on its own: same values).
    base, sign, edge = (_CORNER_BASE, _CORNER_SIGN, _OUTLINE) if n == 3 else (_POCKET_CORNER_BASE,
                                                                              _POCKET_CORNER_SIGN, _POCKET_OUTLINE)
    mapped = apply_homography(h, np.concatenate((base + sign * margin, edge)))
    stickers = mapped[:4 * n * n].reshape(n * n, 4, 2).astype(np.float32)
    outline = mapped[4 * n * n:].astype(np.float32)
    confidence = len(best.found) / float(n * n) * float(np.exp(-best.rms / 0.15))
    return FaceDetection(stickers=stickers, outline=outline, confidence=confidence, homography=h, size=n)
