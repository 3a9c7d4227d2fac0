"""The ``FaceDetection`` a search returns, placed in the pixels of the frame it was given."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from qbr.vision.detect.fit import GridFit
from qbr.vision.detect.geometry import CELLS, OUTLINE, POCKET_OUTLINE, apply_homography, turned_upright


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
        return apply_homography(self.homography, CELLS[self.size])

    def pitch(self) -> float:
        """Mean distance (pixels) between neighbouring sticker centres, across and down."""
        grid = self.sticker_centres().reshape(self.size, self.size, 2)
        steps = np.concatenate((np.diff(grid, axis=1).reshape(-1, 2), np.diff(grid, axis=0).reshape(-1, 2)))
        return float(np.linalg.norm(steps, axis=1).mean())


# Each sticker's corners (clockwise from top-left, stickers row-major) as cell corner + sign * margin.
_QUAD = ((0, 0), (1, 0), (1, 1), (0, 1))


_CORNER_BASE = np.array([(c + dx, r + dy) for r in range(3) for c in range(3) for dx, dy in _QUAD], dtype=np.float64)


_CORNER_SIGN = np.array([(1 - 2 * dx, 1 - 2 * dy) for _ in range(9) for dx, dy in _QUAD], dtype=np.float64)


_POCKET_CORNER_BASE = np.array([(c + dx, r + dy) for r in range(2) for c in range(2) for dx, dy in _QUAD],
                               dtype=np.float64)


_POCKET_CORNER_SIGN = _CORNER_SIGN[:16]


def to_detection(best: GridFit, work: np.ndarray, width: int) -> FaceDetection:
    """The face of grid ``best`` (fitted in ``work``) in the pixels of the original frame, ``width`` wide."""
    n = best.size
    scale = work.shape[1] / width
    h_work = turned_upright(best.homography, n)
    # Work pixels -> original pixels (pixel centres line up under INTER_AREA resizing).
    to_orig = np.array([[1 / scale, 0, 0.5 / scale - 0.5], [0, 1 / scale, 0.5 / scale - 0.5], [0, 0, 1]])
    h = to_orig @ h_work
    h = h / h[2, 2]
    margin = min(max((1.0 - best.fill) / 2.0, 0.02), 0.3)
    # Sticker corners and the outline in one transform (each point is mapped on its own: same values).
    base, sign, edge = (_CORNER_BASE, _CORNER_SIGN, OUTLINE) if n == 3 else (_POCKET_CORNER_BASE,
                                                                              _POCKET_CORNER_SIGN, POCKET_OUTLINE)
    mapped = apply_homography(h, np.concatenate((base + sign * margin, edge)))
    stickers = mapped[:4 * n * n].reshape(n * n, 4, 2).astype(np.float32)
    outline = mapped[4 * n * n:].astype(np.float32)
    confidence = len(best.found) / float(n * n) * float(np.exp(-best.rms / 0.15))
    return FaceDetection(stickers=stickers, outline=outline, confidence=confidence, homography=h, size=n)
