"""A window that could slide (stickers seen in two adjacent lines only), placed by the body's gaps or the face's
outline."""

from __future__ import annotations

import dataclasses

import numpy as np

from qbr.vision.detect.colours import gap_colours
from qbr.vision.detect.fit import GridFit
from qbr.vision.detect.plausible import dark_body
from qbr.vision.tunables import Tunables

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
        colours = gap_colours(work, h, pts if axis == 1 else pts[:, ::-1]).reshape(2, -1, 3)
        steps.append(np.linalg.norm(colours[1] - colours[0], axis=1))
    step = np.max(np.stack(steps), axis=0)
    return float(np.nanmedian(step)) if np.isfinite(step).any() else 0.0


def settle_window(work: np.ndarray, fit: GridFit, t: Tunables) -> GridFit | None:
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

    seen_gaps = gap_colours(work, fit.homography, np.concatenate([gap_points(r) for r in seen]))
    body = np.nanmedian(seen_gaps, axis=0)
    scores = []
    for extra in (seen[0] - 1, seen[1] + 1):
        colours = gap_colours(work, fit.homography, gap_points(extra))
        scores.append(float(np.mean(np.linalg.norm(colours - body, axis=1))))  # NaN when off the image
    scores = [np.inf if not np.isfinite(s) else s for s in scores]
    pick = int(np.argmin(scores))
    best, other = scores[pick], scores[1 - pick]
    gaps_decide = best < t.slide_gap_match and other > t.slide_gap_ratio * best + t.slide_gap_match / 2
    if dark_body(seen_gaps, gap_colours(work, fit.homography, fit.cells + 0.5), t):
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
