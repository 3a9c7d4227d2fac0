"""Grid geometry: the cells, gaps and outline in grid units, least-squares homographies between the grid and
the image, the turn that sets a grid upright, and how squarely a grid faces the camera."""

from __future__ import annotations

import math

import cv2
import numpy as np

_GRID_CELLS = np.array([(c + 0.5, r + 0.5) for r in range(3) for c in range(3)], dtype=np.float64)


# Midpoints of the twelve inner gaps between neighbouring cells, in grid units.
INNER_GAPS = np.array(
    [(c + 1.0, r + 0.5) for r in range(3) for c in range(2)] + [(c + 0.5, r + 1.0) for r in range(2) for c in range(3)],
    dtype=np.float64,
)


# The same for a 2x2x2's face: its four cells and the four arms of the cross of gaps between them.
POCKET_CELLS = np.array([(c + 0.5, r + 0.5) for r in range(2) for c in range(2)], dtype=np.float64)


POCKET_GAPS = np.array([(1.0, 0.5), (1.0, 1.5), (0.5, 1.0), (1.5, 1.0)], dtype=np.float64)


CELLS = {3: _GRID_CELLS, 2: POCKET_CELLS}


# Five spots in each cell (its centre and four around it, a fifth of a cell away), cell by cell: a cell's colour
# taken over more than one pixel.
_SPOTS = np.array([(0.0, 0.0), (0.2, 0.0), (-0.2, 0.0), (0.0, 0.2), (0.0, -0.2)], dtype=np.float64)


CELL_SPOTS = {n: (cells[:, None, :] + _SPOTS[None]).reshape(-1, 2) for n, cells in CELLS.items()}


def apply_homography(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Map (n, 2) points through a 3x3 homography."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, np.asarray(homography, dtype=np.float64)).reshape(-1, 2)


def facing(homography: np.ndarray, size: int = 3) -> float:
    """How squarely a face grid faces the camera: its smaller stretch over its larger at the grid's centre (the
    singular values of the homography's Jacobian there), the cosine of its tilt; 1 seen square on."""
    h = np.asarray(homography, dtype=np.float64).tolist()
    c = size / 2
    x, y, w = (row[0] * c + row[1] * c + row[2] for row in h)
    if w == 0:
        return 0.0
    # The Jacobian d(x/w, y/w)/d(col, row), its scale (1/w^2) dropped: the ratio does not depend on it.
    j = [[h[i][k] * w - p * h[2][k] for k in range(2)] for i, p in ((0, x), (1, y))]
    squares = j[0][0] ** 2 + j[0][1] ** 2 + j[1][0] ** 2 + j[1][1] ** 2  # s1^2 + s2^2
    det = abs(j[0][0] * j[1][1] - j[0][1] * j[1][0])  # s1 * s2
    if det == 0:
        return 0.0
    ratio_sum = squares / det  # s1 / s2 + s2 / s1
    return (ratio_sum - math.sqrt(max(ratio_sum * ratio_sum - 4.0, 0.0))) / 2.0


AFFINE_TAIL = np.array([0.0, 0.0, 1.0])


_PERSPECTIVE_TAIL = np.array([1.0])


def fit_homography(src: np.ndarray, dst: np.ndarray, affine: bool = False) -> np.ndarray | None:
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
    h = np.concatenate((sol.ravel(), AFFINE_TAIL if affine else _PERSPECTIVE_TAIL)).reshape(3, 3)
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


OUTLINE = np.array([(0, 0), (3, 0), (3, 3), (0, 3)], dtype=np.float64)


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


def turned_upright(homography: np.ndarray, size: int = 3) -> np.ndarray:
    """Rotate grid coordinates by a multiple of 90 degrees so row 0 is the row nearest the image top."""
    rotations, probes = (_ROTATIONS, _UPRIGHT_PROBES) if size == 3 else (_POCKET_ROTATIONS, _POCKET_UPRIGHT_PROBES)
    ends = apply_homography(homography, probes).reshape(4, 2, 2)
    down = ends[:, 1] - ends[:, 0]
    angle = np.degrees(np.arctan2(-down[:, 0], down[:, 1]))  # 0 when grid rows run straight down the image
    upright = np.flatnonzero((angle > -45.0) & (angle <= 45.0))
    best = homography @ rotations[upright[0]] if len(upright) else homography
    return best / best[2, 2]


POCKET_OUTLINE = np.array([(0, 0), (2, 0), (2, 2), (0, 2)], dtype=np.float64)
