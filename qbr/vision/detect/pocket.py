"""The 2x2x2's face search: among the sticker candidates of earlier looks, a 2x2 grid that no bigger face
continues on any side."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from qbr.vision.detect.candidates import Candidates
from qbr.vision.detect.colours import colour_variety, exposure_gain, gap_colours
from qbr.vision.detect.fit import GridFit
from qbr.vision.detect.kernel import odd
from qbr.vision.detect.lattice import hypotheses
from qbr.vision.detect.plausible import crowded_pocket, dark_gaps, loose_fit, turned_away
from qbr.vision.detect.pocket_fit import fit_pocket
from qbr.vision.tunables import Tunables


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
    body, step = _gap_extremes(gap_colours(work, h, _POCKET_BODY).reshape(-1, len(_ACROSS), 3))
    return np.median(body, axis=0), float(np.median(step))


def _continued(work: np.ndarray, fit: GridFit, t: Tunables) -> bool:
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
    cells = gap_colours(work, h, _SIDE_CELLS.reshape(-1, 2)).reshape(4, 2, len(_CROSS_ARMS), 3)
    gaps, marks = _gap_extremes(gap_colours(work, h, _SIDE_GAPS.reshape(-1, 2)).reshape(-1, len(_ACROSS), 3))
    gap = np.median(gaps.reshape(4, 3, 3), axis=1)  # (4, 3): each side's gap colour, and how marked it is
    mark = np.median(marks.reshape(4, 3), axis=1)
    mean = cells.mean(axis=2)
    even = np.linalg.norm(cells - mean[:, :, None], axis=3).max(axis=2) < t.pocket_cell_even
    far = gap_colours(work, h, _SIDE_FAR.reshape(-1, 2)).reshape(4, 2, 3)
    ends = np.linalg.norm(far - mean, axis=2) > t.pocket_cell_end
    sticker_like = (even & ends).sum(axis=1) >= t.pocket_side_cells
    marked = mark > t.pocket_gap_depth * contrast
    like_body = np.linalg.norm(gap - body_colour, axis=1) < max(t.pocket_gap_match, t.pocket_gap_share * contrast)
    # A side reaching off the image tells nothing (comparisons with NaN are False): a 3x3 face cut there shows a
    # bigger lattice of candidates on its other sides.
    return bool((sticker_like & marked & like_body).any())


def search_pocket(work: np.ndarray, looks: list[Candidates], t: Tunables, solved: bool = False) -> GridFit | None:
    """The best 2x2x2 face among the sticker candidates of earlier looks (that found no 3x3 face), or None.

    ``solved``: four alike stickers between a body's dark gaps (or vivid ones) are taken too, below any
    many-coloured face: only when the cube is known to be a 2x2x2, as 2x2 tile panels and windows look the same.
    """
    dilation = odd(t.dilate_size * work.shape[1])
    gain: float | None = None  # the frame's exposure gain, once a grid needs it (most frames have none)
    best: GridFit | None = None
    for cands in looks:
        if len(cands.sizes) < t.pocket_min_found:
            continue
        tried = np.zeros(len(cands.sizes), dtype=bool)
        for anchor, members, cells_of in hypotheses(cands, t, size=2):
            if tried[anchor]:
                continue
            fit = fit_pocket(cands, *cells_of(), t, dilation)
            tried[members] = True
            if fit is None or loose_fit(fit, t, t.pocket_max_rms) or crowded_pocket(fit, t) or turned_away(fit, t):
                continue
            gain = exposure_gain(work, t) if gain is None else gain
            variety = colour_variety(work, cands.centres[fit.found], gain)
            alike = variety < t.grid_min_variety
            if alike and not (solved and len(fit.found) == 4 and dark_gaps(work, fit, t)):
                continue  # four alike squares: as likely a 2x2 tile panel or window (rendered rooms)
            fit = dataclasses.replace(fit, variety=variety, alike=alike)
            if _continued(work, fit, t):
                continue
            fit = dataclasses.replace(fit, gap_step=_body(work, fit.homography)[1])
            if best is None or (not fit.alike, fit.rank()) > (not best.alike, best.rank()):
                best = fit
    return best
