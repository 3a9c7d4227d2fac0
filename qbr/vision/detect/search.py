"""One search: the best face grid among the sticker candidates of one edge map, over a pass's Canny factors."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from qbr.vision.detect.candidates import Candidates, find_candidates
from qbr.vision.detect.colours import colour_variety, exposure_gain
from qbr.vision.detect.fit import GridFit, fit_grid
from qbr.vision.detect.kernel import odd
from qbr.vision.detect.lattice import hypotheses
from qbr.vision.detect.plausible import alike_tiles, loose_fit, preferred, trusted_retry, turned_away
from qbr.vision.detect.window import settle_window
from qbr.vision.tunables import Tunables


def search_one(
    work: np.ndarray, planes: list[np.ndarray], t: Tunables, dilation: int, factor: float,
    looks: list[Candidates] | None = None, min_piece: float = 0.0, made: dict[float, np.ndarray] | None = None,
    grids: bool = True,
) -> tuple[GridFit | None, int, int]:
    """The best face grid among the sticker candidates of one edge map (or None), how many were small, and all.

    The candidates are added to ``looks`` when given (a 2x2x2's face is searched among them if no 3x3 is found);
    ``min_piece``: edge pieces shorter than this share of the width are dropped first; ``made``: the planes' Canny
    edges by factor, reused and filled (``edge_map``); ``grids`` False: the candidates only, no grid fitted (the
    cube is known to be a 2x2x2).
    """
    cands = find_candidates(planes, t, dilation, factor, min_piece, made)
    if looks is not None:
        looks.append(cands)
    n = len(cands.sizes)
    small = int((cands.sizes < t.retry_small_size * work.shape[1]).sum())
    return best_grid(work, cands, t, dilation) if grids else None, small, n


def best_grid(work: np.ndarray, cands: Candidates, t: Tunables, dilation: int) -> GridFit | None:
    """The best face grid among sticker candidates (``dilation``: the edge dilation they were cut with), or None."""
    n = len(cands.sizes)
    if n < t.grid_min_found:
        return None
    best: GridFit | None = None
    gain: float | None = None  # the frame's exposure gain, once a grid needs it (most frames have none)
    tried = np.zeros(n, dtype=bool)
    for anchor, members, cells_of in hypotheses(cands, t):
        if best is not None and not best.alike and best.rank()[0] >= 7 and len(members) < 5:
            break  # proposals come best first: none of the rest can make a sure grid
        if tried[anchor]:
            continue
        fit = fit_grid(cands, *cells_of(), t, dilation, work.shape[1])
        tried[members] = True  # these would propose the same grid again
        if fit is None:
            continue
        if loose_fit(fit, t, t.grid_max_rms) or turned_away(fit, t):
            continue
        gain = exposure_gain(work, t) if gain is None else gain
        variety = colour_variety(work, cands.centres[fit.found], gain)
        fit = dataclasses.replace(fit, variety=variety, alike=variety < t.grid_min_variety)
        if alike_tiles(work, fit, t):
            continue
        if not fit.spans_face():
            fit = settle_window(work, fit, t)
            if fit is None or turned_away(fit, t):
                continue
        if preferred(fit, best):
            best = fit
    if best is None or len(best.found) < t.grid_min_found:
        return None
    return best


def search_all(
    work: np.ndarray, planes: list[np.ndarray], t: Tunables, factors: Sequence[float], trusted: bool = False,
    looks: list[Candidates] | None = None, min_piece: float = 0.0, made: dict[float, np.ndarray] | None = None,
    grids: bool = True,
) -> tuple[GridFit | None, int, int]:
    """Search ``planes`` with each Canny factor in turn; a grid from a search after a ``trusted`` first one must
    see ``retry_min_found`` stickers (or ``retry_min_variety``).

    ``min_piece`` drops shorter edge pieces (share of the width); each search's candidates are added to ``looks``
    when given; ``made``: the planes' Canny edges by factor, reused and filled (``edge_map``); ``grids`` False:
    candidates only (``search_one``). Also returns how many small sticker candidates the first search saw, and how
    many candidates in all.
    """
    dilation = odd(t.dilate_size * work.shape[1])
    small = seen_all = 0
    fallback = None  # a one-coloured grid: kept only if no search finds a many-coloured one
    for i, factor in enumerate(factors):
        found, seen, count = search_one(work, planes, t, dilation, factor, looks, min_piece, made, grids)
        small, seen_all = (seen, count) if i == 0 else (small, seen_all)
        if found is not None and ((i == 0 and trusted) or trusted_retry(found, t)):
            if fallback is not None and not preferred(found, fallback):
                continue  # a solved face seen whole, and a less sure many-coloured grid
            if not found.alike:
                return found, small, seen_all
            fallback = fallback or found
    return fallback, small, seen_all
