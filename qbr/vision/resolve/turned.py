"""Faces photographed turned: read back when reading some faces turned fits a real cube far better."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from qbr.vision.colour import linear_to_lab, srgb_decode
from qbr.vision.resolve import light
from qbr.vision.resolve.alternatives import Alternative
from qbr.vision.resolve.costs import sticker_costs
from qbr.vision.resolve.descent import Fit, fit_cube
from qbr.vision.resolve.judge import judge
from qbr.vision.resolve.lost_face import lost_centre_stand_ins, seeded_centres
from qbr.vision.resolve.pieces import CORNER_COLOURS, CORNER_SLOTS, EDGE_COLOURS, EDGE_SLOTS, option_costs
from qbr.vision.resolve.search import solve
from qbr.vision.tunables import Tunables

# A face photographed turned k quarter turns clockwise reads np.rot90(truth, -k); sticker p of the face as it should
# be read is then its measured sticker _TURNS[k][p].
_TURNS = {k: np.rot90(np.arange(9).reshape(3, 3), k).ravel() for k in (1, 2, 3)}


def _turned_rows(turns: Mapping[int, int]) -> NDArray[np.intp]:
    """Facelet -> measured row, reading each face in ``turns`` (index -> quarter turns clockwise) turned back."""
    rows = np.arange(54)
    for face, k in turns.items():
        rows[9 * face : 9 * face + 9] = 9 * face + _TURNS[k]
    return rows


def _free_bound(cost: NDArray[np.float64], tunables: Tunables) -> float:
    """A lower bound of the cheapest real cube's capped cost: each kind of piece placed once, orientations free."""
    from scipy.optimize import linear_sum_assignment

    capped = np.minimum(cost, tunables.resolve_misfit)
    total = 0.0
    for slots, table in ((CORNER_SLOTS, CORNER_COLOURS), (EDGE_SLOTS, EDGE_COLOURS)):
        weights = option_costs(capped, slots, table).min(axis=2)
        rows, cols = linear_sum_assignment(weights)
        total += float(weights[rows, cols].sum())
    return total


def _capped_fit(cost: NDArray[np.float64], tunables: Tunables) -> tuple[float, NDArray[np.intp] | None]:
    """The cheapest real cube's cost, each sticker counting at most ``resolve_misfit`` (inf without a cube)."""
    found = solve(cost, tunables.resolve_max_nodes)
    if found is None:
        return math.inf, None
    return float(np.minimum(cost[np.arange(54), found[0]], tunables.resolve_misfit).sum()), found[0]


@dataclass(frozen=True)
class Read:
    """The measurements as they are resolved: in facelet order, faces photographed turned read back."""

    stickers: NDArray[np.float64]
    measured: NDArray[np.bool_]
    trust: NDArray[np.float64] | None  # per sticker, see ``resolve_cube``
    fit: Fit
    turns: dict[int, int]
    turned_rivals: list[tuple[float, NDArray[np.intp], int]]  # real cubes about as cheap with one face (index)
    # read turned: that face is in doubt


def read_turned_back(stickers: NDArray[np.float64], measured: NDArray[np.bool_], tunables: Tunables,
                     trust: NDArray[np.float64] | None = None) -> Read:
    """The fit of the stickers as scanned, or, if reading some faces turned back fits a real cube far better, that.

    Greedy, one face at a time: each face's three turns are ranked by the cheapest real cube they give under the
    current reading's colours and light (a turned face's light is its own, so that cost matrix serves for all),
    the best few judged with their own light fitted, and the best kept if it is far cheaper. Also returns the
    real cubes that one face read turned gives about as cheaply: a face whose turns give real cubes alike (a
    patterned cube, a face of few colours) cannot be told turned or not, so it is in doubt.
    """
    fit = fit_cube(stickers, measured, tunables, trust)
    turns: dict[int, int] = {}
    near: list[Alternative] = []
    while len(turns) < 6 and fit.solution is not None:
        rows = _turned_rows(turns)
        linear = srgb_decode(np.where(measured[rows][:, None], stickers[rows], 0.0))
        # Two rankings: under the current reading's fit (biased towards that reading when it is wrong) and under
        # light that no reading chose (each face fitted to the default palette, the centres as the colours).
        gains = light.palette_gains(linear, measured[rows], tunables)
        lab = linear_to_lab(linear * gains)
        stand_in = lost_centre_stand_ins(linear, measured[rows], gains)[0]
        plain = sticker_costs(lab, seeded_centres(lab, measured[rows], stand_in), measured[rows],
                              trust=None if trust is None else trust[rows])
        tries = []
        for cost in (fit.cost, plain):
            # First by a cheap bound (pieces placed without twist, flip and parity), then exactly for the best.
            bounds = sorted((_free_bound(cost[_turned_rows({face: k})], tunables), face, k)
                            for face in range(6) if face not in turns and measured[9 * face : 9 * face + 9].any()
                            for k in _TURNS)
            ranked = [(*_capped_fit(cost[_turned_rows({face: k})], tunables), face, k)
                      for _, face, k in bounds[: tunables.resolve_turn_screened * tunables.resolve_turn_candidates]]
            ranked = sorted((t for t in ranked if t[1] is not None), key=lambda t: t[0])
            tries += [t for t in ranked[: tunables.resolve_turn_candidates] if t[2:] not in [u[2:] for u in tries]]
        judged = []
        for _, colours, face, k in tries:
            turned = _turned_rows({**turns, face: k})
            linear = srgb_decode(np.where(measured[turned][:, None], stickers[turned], 0.0))
            judged.append((judge(linear, measured[turned], colours, tunables,
                                 None if trust is None else trust[turned])[0], colours, face, k))
        best = min(judged, key=lambda j: j[0]) if judged else None
        if best is None or not best[0] < fit.score - tunables.resolve_turn_gain:
            near += [(max(score - fit.score, 0.0), colours, face) for score, colours, face, _ in judged
                     if score < fit.score + tunables.resolve_turn_gain]
            break
        # Another face read turned instead that does about as well (a patterned cube): it stays in doubt.
        near += [(max(score - best[0], 0.0), colours, face) for score, colours, face, _ in judged
                 if score < best[0] + tunables.resolve_turn_gain and face != best[2]]
        turns[best[2]] = best[3]
        rows = _turned_rows(turns)
        fit = fit_cube(stickers[rows], measured[rows], tunables, None if trust is None else trust[rows])
    rows = _turned_rows(turns)
    return Read(stickers[rows], measured[rows], None if trust is None else trust[rows], fit, turns, near)
