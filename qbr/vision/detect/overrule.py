"""Whether a 2x2x2's face is taken rather than the 3x3 grid found in the same frame."""

from __future__ import annotations

import cv2
import numpy as np

from qbr.vision.detect.fit import GridFit
from qbr.vision.detect.geometry import POCKET_CELLS, apply_homography
from qbr.vision.tunables import Tunables


def _within(inner: GridFit, outer: GridFit, scale: float = 1.0) -> bool:
    """Whether ``inner``'s centre lies inside ``outer``'s outline: the two grids are fitted to one object.

    ``scale``: ``outer``'s work width over ``inner``'s (pixel centres line up under INTER_AREA resizing).
    """
    centre = apply_homography(inner.homography, np.array([[inner.size / 2, inner.size / 2]]))[0]
    centre = (centre + 0.5) * scale - 0.5
    to_grid = cv2.invert(outer.homography, flags=cv2.DECOMP_LU)[1]
    x, y = apply_homography(to_grid, centre[None])[0]
    return bool(0.0 <= x <= outer.size and 0.0 <= y <= outer.size)


def overrules(pocket: GridFit, grid: GridFit | None, t: Tunables, scale: float = 1.0) -> bool:
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


def _beyond_corner_block(pocket: GridFit, grid: GridFit, t: Tunables, scale: float = 1.0) -> int | None:
    """When a 2x2 grid is four cells of a 3x3 grid's lattice (a corner block), how many of the 3x3's found stickers
    lie beyond it; when it is not, but two or more of its cells are the 3x3's found stickers (a 2x2 straddling the
    face's edge, a square beyond it taken in), how many of the 3x3's found stickers it leaves out; None otherwise
    (another object, or the same one at another pitch).

    ``scale``: ``grid``'s work width over ``pocket``'s (pixel centres line up under INTER_AREA resizing).
    """
    centres = (apply_homography(pocket.homography, POCKET_CELLS) + 0.5) * scale - 0.5
    cells = apply_homography(cv2.invert(grid.homography, flags=cv2.DECOMP_LU)[1], centres) - 0.5
    nearest = np.rint(cells)
    low = nearest.min(axis=0)
    on = np.abs(cells - nearest).max(axis=1) <= t.pocket_block_residual
    if not on.all() or (nearest.max(axis=0) - low != 1).any():
        seen = {(c, r) for c, r in grid.cells.tolist()}
        shared = {(int(c), int(r)) for c, r in nearest[on].tolist()} & seen
        return len(seen) - len(shared) if len(shared) >= 2 else None
    return int(((grid.cells < low) | (grid.cells > low + 1)).any(axis=1).sum())
