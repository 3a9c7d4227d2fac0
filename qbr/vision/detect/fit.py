"""The 3x3 grid fit: a homography fitted to a window's stickers, re-collecting every candidate that agrees with it
in position, size and shape, and the checks of the fit (residual, fill, squares on its lattice outside)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from qbr.vision.detect.candidates import Candidates, probe_points
from qbr.vision.detect.geometry import OUTLINE, apply_homography, fit_homography
from qbr.vision.detect.lattice import median, one_per_cell
from qbr.vision.tunables import Tunables


@dataclass(frozen=True)
class GridFit:
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


def _spans_plane(cells: np.ndarray) -> bool:
    count, columns, rows = cell_lines(cells)
    return count >= 4 and columns > 1 and rows > 1


def cell_lines(cells: np.ndarray) -> tuple[int, int, int]:
    """How many cells, and how many different columns and rows they use (plain Python: a handful of cells)."""
    pairs = cells.tolist()
    return len(pairs), len({c for c, _ in pairs}), len({r for _, r in pairs})


def assign(
    cands: Candidates, h: np.ndarray, ref_size: float, t: Tunables, probes: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each candidate's grid cell under ``h``, its distance from the cell centre, and whether it fits there.

    ``probes`` is ``probe_points(cands)`` when the caller already has it.
    """
    n = len(cands.sizes)
    pts = apply_homography(cv2.invert(h, flags=cv2.DECOMP_LU)[1], probe_points(cands) if probes is None else probes)
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


def plausible_perspective(h: np.ndarray, width: int, t: Tunables) -> bool:
    """Whether a face grid's perspective is one a camera can show: a face spanning ``s`` of the frame's width is
    foreshortened at most to opposite sides 1 + ``grid_max_perspective`` * s apart in length (far side over near)."""
    outline = apply_homography(h, OUTLINE)
    sides = np.linalg.norm(np.roll(outline, -1, axis=0) - outline, axis=1)
    ratio = max(max(sides[0], sides[2]) / max(min(sides[0], sides[2]), 1e-9),
                max(sides[1], sides[3]) / max(min(sides[1], sides[3]), 1e-9))
    span = math.sqrt(abs(float(cv2.contourArea(outline.astype(np.float32))))) / width
    return ratio - 1.0 <= t.grid_max_perspective * span


def fit_grid(cands: Candidates, found: np.ndarray, cells: np.ndarray, t: Tunables, dilation: int,
             width: int) -> GridFit | None:
    """Fit the grid to the found cells, re-collect every candidate that agrees with it, refit, check.

    ``width``: the work image's; a perspective no camera shows over a face of its size (``grid_max_perspective``)
    is noise fitted to few stickers: the grid is fitted affinely instead."""
    ref_size = median(cands.sizes[found])
    probes = probe_points(cands)
    settled = False
    affine = False  # the final fit is affine: perspective fitted to its stickers was implausible
    for _ in range(3):
        count, columns, rows = cell_lines(cells)
        if count < 4 or columns < 2 or rows < 2:
            return None
        # Perspective is only trustworthy when the stickers cover the whole face.
        full = count >= 6 and columns == 3 and rows == 3
        h = fit_homography(cells + 0.5, cands.centres[found], affine=not full)
        if full and h is not None and t.grid_max_perspective and not plausible_perspective(h, width, t):
            full = False
            h = fit_homography(cells + 0.5, cands.centres[found], affine=True)
        if h is None:
            return None
        cell, resid, ok = assign(cands, h, ref_size, t, probes)
        inside = ((cell >= 0) & (cell <= 2)).all(axis=1)
        in_face = ok & inside
        if not full and count >= 5 and columns == 3 and rows == 3 and t.grid_max_perspective:
            # Five stickers spanning the face fix its perspective too: where a plausible one keeps more stickers
            # than the affine fit (a big face seen tilted: its far stickers look skewed to an affine grid), it is.
            h2 = fit_homography(cells + 0.5, cands.centres[found])
            if h2 is not None and plausible_perspective(h2, width, t):
                cell2, resid2, ok2 = assign(cands, h2, ref_size, t, probes)
                in_face2 = ok2 & ((cell2 >= 0) & (cell2 <= 2)).all(axis=1)
                if in_face2.sum() > in_face.sum():
                    h, cell, resid, ok, in_face, full = h2, cell2, resid2, ok2, in_face2, True
        new_found, new_cells = one_per_cell(np.flatnonzero(in_face), cell[in_face], resid[in_face])
        if full and new_found.tolist() == found.tolist():
            settled = True  # h already is the full homography of exactly these stickers
            break
        found, cells = new_found, new_cells
    if not settled:
        if not _spans_plane(cells):
            return None
        h = fit_homography(cells + 0.5, cands.centres[found])
        if h is not None and t.grid_max_perspective and not plausible_perspective(h, width, t):
            affine = True
            h = fit_homography(cells + 0.5, cands.centres[found], affine=True)
        if h is None:
            return None
        cell, resid, ok = assign(cands, h, ref_size, t, probes)
        inside = ((cell >= 0) & (cell <= 2)).all(axis=1)
    in_ring = ((cell >= -1) & (cell <= 3)).all(axis=1) & ~inside
    # Squares just outside the face that sit tightly on its lattice with the same size are tiles, not a cube.
    same_size = np.abs(np.log(cands.sizes / ref_size)) < np.log(1.3)
    extras = int((ok & in_ring & same_size & (resid < 0.6 * t.grid_residual)).sum())
    if extras > t.grid_max_extra:
        return None  # a lattice larger than 3x3: tiles, a keyboard, a bigger puzzle
    kept = resid[found]
    rms = math.sqrt(float((kept**2).sum() / len(kept)))
    if affine:
        # Judged as a homography's residual of the same noise: it fits two more terms, so leaves less.
        rms *= math.sqrt(max(2 * len(kept) - 8, 1) / (2 * len(kept) - 6))
    outline = apply_homography(h, OUTLINE).astype(np.float32)
    area = abs(float(cv2.contourArea(outline)))
    # Found regions are shrunk by the edge dilation: add it back before comparing with the cell.
    fill = (median(cands.sizes[found]) + dilation) / max(math.sqrt(area) / 3.0, 1e-6)
    return GridFit(h, found, cells, rms, extras, area, fill)
