"""Lattice proposals: every candidate proposes the lattice spanned by its own axes, with its best window of cells."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from qbr.vision.detect.candidates import Candidates
from qbr.vision.tunables import Tunables

_WINDOWS = np.array([(ox, oy) for oy in (-2, -1, 0) for ox in (-2, -1, 0)], dtype=np.float64)


_POCKET_WINDOWS = np.array([(ox, oy) for oy in (-1, 0) for ox in (-1, 0)], dtype=np.float64)


# Rows (by, -bx, -ay, ax) of the 2x2 adjugate from (bx, by, ax, ay).
_ADJUGATE_ORDER = np.array([1, 0, 3, 2])


_ADJUGATE_SIGN = np.array([1.0, -1.0, -1.0, 1.0])


_WINDOW_LO = np.array([-2.0, -1.0, 0.0])[:, None, None]  # a window's first column (or row)


_POCKET_WINDOW_LO = np.array([-1.0, 0.0])[:, None, None]


def hypotheses(
    cands: Candidates, t: Tunables, size: int = 3
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
            return one_per_cell(members, cells, resid[anchor, members])

        yield anchor, members, cells_of


def median(values: np.ndarray) -> float:
    """Middle value (upper middle for even counts): np.median's overhead matters at this size."""
    return sorted(values.tolist())[len(values) // 2]


def one_per_cell(indices: np.ndarray, cells: np.ndarray, resid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    keep: dict[tuple[int, int], int] = {}
    res = resid.tolist()
    for k, (cx, cy) in enumerate(cells.tolist()):
        key = (int(cx), int(cy))
        if key not in keep or res[k] < res[keep[key]]:
            keep[key] = k
    order = sorted(keep.values())
    return indices[order], cells[order].astype(int)
