"""The 2x2x2 grid fit: affine first (four stickers leave a residual to judge it by), then a homography of all four."""

from __future__ import annotations

import math

import cv2
import numpy as np

from qbr.vision.detect.candidates import Candidates, probe_points
from qbr.vision.detect.fit import GridFit, assign, cell_lines
from qbr.vision.detect.geometry import AFFINE_TAIL, POCKET_OUTLINE, apply_homography, fit_homography
from qbr.vision.detect.lattice import median, one_per_cell
from qbr.vision.tunables import Tunables


def fit_pocket(
    cands: Candidates, found: np.ndarray, cells: np.ndarray, t: Tunables, dilation: int
) -> GridFit | None:
    """Fit a 2x2x2's grid to the found cells, re-collect every candidate that agrees with it, refit, check.

    The fit is affine, so that four stickers leave a residual to judge it by (a homography fits any four points);
    the stickers are then placed by the homography of all four when all four were seen.
    """
    ref_size = median(cands.sizes[found])
    probes = probe_points(cands)
    for _ in range(3):
        count, columns, rows = cell_lines(cells)
        if count < t.pocket_min_found or columns < 2 or rows < 2:
            return None
        if count == 3:  # exactly determined: least squares' normal equations are too ill-conditioned
            src, dst = (cells + 0.5).astype(np.float32), cands.centres[found].astype(np.float32)
            h = np.vstack((cv2.getAffineTransform(src, dst), AFFINE_TAIL))
        else:
            h = fit_homography(cells + 0.5, cands.centres[found], affine=True)
        if h is None or not np.isfinite(h).all() or abs(float(np.linalg.det(h))) < 1e-9:
            return None
        cell, resid, ok = assign(cands, h, ref_size, t, probes)
        inside = ((cell >= 0) & (cell <= 1)).all(axis=1)
        in_face = ok & inside
        new_found, new_cells = one_per_cell(np.flatnonzero(in_face), cell[in_face], resid[in_face])
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
    outline = apply_homography(h, POCKET_OUTLINE).astype(np.float32)
    area = abs(float(cv2.contourArea(outline)))
    fill = (median(cands.sizes[found]) + dilation) / max(math.sqrt(area) / 2.0, 1e-6)
    return GridFit(h, found, cells, rms, extras, area, fill, size=2, conflicts=conflicts)
