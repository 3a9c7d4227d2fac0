"""The cheapest real 3x3 for a sticker x colour cost: pieces placed by a ranked assignment, orientations by a DP.

Each corner position takes one of the 8 corners in one of 3 twists, each edge position one of the 12 edges in one
of 2 flips, every piece exactly once, total twist, flip and permutation parity those of a real cube.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qbr.cube.cubie import permutation_parity
from qbr.vision.resolve.pieces import CENTRE_SLOTS, CORNER_COLOURS, CORNER_SLOTS, EDGE_COLOURS, EDGE_SLOTS, option_costs


def orient(costs: NDArray[np.float64], modulus: int) -> tuple[float, tuple[int, ...]]:
    """Cheapest orientations (one row of ``costs`` per position) whose sum is 0 modulo ``modulus`` (a small DP)."""
    best = [0.0] + [math.inf] * (modulus - 1)
    choice: list[list[int]] = []
    for row in costs.tolist():  # plain floats: this runs thousands of times per cube
        new = [math.inf] * modulus
        pick = [0] * modulus
        for r in range(modulus):
            for o in range(modulus):
                value = best[(r - o) % modulus] + row[o]
                if value < new[r]:
                    new[r], pick[r] = value, o
        best = new
        choice.append(pick)
    orientation = []
    r = 0
    for pick in reversed(choice):
        o = pick[r]
        orientation.append(o)
        r = (r - o) % modulus
    return best[0], tuple(reversed(orientation))


def _assign(weights: NDArray[np.float64], lsa: Callable) -> tuple[float, tuple[int, ...]] | None:
    try:
        rows, cols = lsa(weights)
    except ValueError:  # every assignment uses a forbidden (infinite) entry
        return None
    total = float(weights[rows, cols].sum())
    return (total, tuple(cols.tolist())) if math.isfinite(total) else None


Best = dict[int, tuple[float, tuple[int, ...], tuple[int, ...]]]


def best_by_parity(costs: NDArray[np.float64], modulus: int, max_nodes: int, limit: float = math.inf) -> Best:
    """For each permutation parity, the cheapest (cost, permutation, orientations) with orientation sum 0.

    Murty's ranked assignment: permutations come out in order of their cost with free orientations, a lower
    bound of their cost with constrained orientations, so the search stops once the bound passes both best costs
    (or ``limit``: nothing dearer is wanted).
    """
    from scipy.optimize import linear_sum_assignment  # heavy: imported only when a cube is resolved

    n = costs.shape[0]
    weights = costs.min(axis=2)
    best: Best = {}
    first = _assign(weights, linear_sum_assignment)
    if first is None or first[0] >= limit:
        return best
    counter = itertools.count()
    heap: list[Any] = [(first[0], next(counter), first[1], (), ())]
    for _ in range(max_nodes):
        if not heap:
            break
        bound, _, perm, forced, forbidden = heapq.heappop(heap)
        if bound >= limit or (len(best) == 2 and bound >= max(b[0] for b in best.values())):
            break
        parity = permutation_parity(perm)
        total, orientation = orient(costs[np.arange(n), perm], modulus)
        if total < limit and (parity not in best or total < best[parity][0]):
            best[parity] = (total, perm, orientation)
        # Partition the rest of the space: child i keeps this solution's first i free choices and forbids the next.
        w = weights.copy()
        for r, c in forbidden:
            w[r, c] = np.inf
        for r, c in forced:
            _fix(w, r, c)
        fixed = list(forced)
        forced_rows = {r for r, _ in forced}
        free = [r for r in range(n) if r not in forced_rows]
        for r in free[:-1]:
            child = w.copy()
            child[r, perm[r]] = np.inf
            solved = _assign(child, linear_sum_assignment)
            if solved is not None and solved[0] < limit:
                heapq.heappush(
                    heap, (solved[0], next(counter), solved[1], tuple(fixed), (*forbidden, (r, perm[r])))
                )
            fixed.append((r, perm[r]))
            _fix(w, r, perm[r])
    return best


def _fix(w: NDArray[np.float64], r: int, c: int) -> None:
    """Force row ``r`` onto column ``c`` in place (all else in that row and column forbidden)."""
    keep = w[r, c]
    w[r, :] = np.inf
    w[:, c] = np.inf
    w[r, c] = keep


@dataclass(frozen=True)
class Kind:
    """One kind of piece (corners or edges) in a solution: option costs, best per parity, and the chosen one."""

    slots: NDArray[np.intp]
    table: NDArray[np.intp]
    costs: NDArray[np.float64]
    best: Best


def solve(cost: NDArray[np.float64], max_nodes: int) -> tuple[NDArray[np.intp], int, tuple[Kind, Kind]] | None:
    """The cheapest real cube: colour (face index) of each facelet, its parity and the per-kind search results."""
    kinds = tuple(
        Kind(slots, table, costs, best_by_parity(costs, modulus, max_nodes))
        for slots, table, modulus in ((CORNER_SLOTS, CORNER_COLOURS, 3), (EDGE_SLOTS, EDGE_COLOURS, 2))
        for costs in (option_costs(cost, slots, table),)
    )
    corners, edges = kinds
    parities = [p for p in (0, 1) if p in corners.best and p in edges.best]
    if not parities:
        return None
    parity = min(parities, key=lambda p: corners.best[p][0] + edges.best[p][0])
    colours = np.zeros(54, dtype=np.intp)
    colours[CENTRE_SLOTS] = np.arange(6)
    for kind in kinds:
        _, perm, orientation = kind.best[parity]
        colours[kind.slots] = kind.table[list(perm), list(orientation)]
    return colours, parity, (corners, edges)
