"""Finding solutions of a normalised 2x2 in its distance tables: optimal ones by descent, cheapest robot ones by A*.

Every function here works on state indices (``coordinates``) and returns columns of ``coordinates.MOVES``.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from qbr.cube.moves import Move
from qbr.solve.errors import SolveError
from qbr.solve.pocket.coordinates import MOVES, QUARTER_MOVES, TWISTS
from qbr.solve.pocket.tables import DistanceTables

_NO_FACE = -1
_FACE_OF = tuple("URF".index(m.face) for m in MOVES)


@dataclass(frozen=True)
class Lookup:
    """The tables as plain Python lists and bytes: one state at a time, these index several times faster."""

    perm: list[list[int]]
    twist: list[list[int]]
    htm: bytes
    qtm: bytes | None = None

    @classmethod
    def of(cls, tables: DistanceTables, quarter_turns: bool = False) -> Lookup:
        """The lookup of ``tables``; with ``quarter_turns`` also the quarter-turn distances (built now)."""
        qtm = tables.quarter_turn_distances().tobytes() if quarter_turns else None
        return cls(tables.moves.perm.tolist(), tables.moves.twist.tolist(), tables.htm.tobytes(), qtm)

    def after(self, state: int, column: int) -> int:
        p, t = divmod(state, TWISTS)
        return self.perm[p][column] * TWISTS + self.twist[t][column]


def descend(lookup: Lookup, state: int, quarter_turns: bool = False) -> list[int]:
    """An optimal solution (half-turn metric, or quarter-turn with ``quarter_turns``): always step one closer."""
    dist, columns = (lookup.qtm, QUARTER_MOVES) if quarter_turns else (lookup.htm, tuple(range(len(MOVES))))
    if dist is None:
        raise ValueError("this lookup has no quarter-turn distances")
    path = []
    d = dist[state]
    while d:
        p, t = divmod(state, TWISTS)
        for column in columns:
            following = lookup.perm[p][column] * TWISTS + lookup.twist[t][column]
            if dist[following] == d - 1:
                path.append(column)
                state, d = following, d - 1
                break
        else:
            raise SolveError(f"2x2 state {state} has no neighbour closer than {d}: the distance table is wrong")
    return path


def merge_quarter_turns(columns: list[int]) -> list[int]:
    """Two equal quarter turns in a row as the half turn (a quarter-turn-optimal path never has three)."""
    out: list[int] = []
    for column in columns:
        if out and out[-1] == column and MOVES[column].turns != 2:
            out[-1] = MOVES.index(Move(MOVES[column].face, 2))
        else:
            out.append(column)
    return out


def descend_many(tables: DistanceTables, states: np.ndarray) -> np.ndarray:
    """Optimal half-turn solutions of many states at once: row i is state i's columns, padded with -1."""
    dist = tables.htm
    states = np.asarray(states, dtype=np.int64).copy()
    depth = dist[states].astype(np.int64)
    out = np.full((len(states), int(depth.max(initial=0))), -1, dtype=np.int8)
    for step in range(out.shape[1]):
        active = np.flatnonzero(depth > step)
        neighbours = tables.moves.neighbours(states[active])
        closer = dist[neighbours] == (depth[active] - step - 1)[:, None]
        column = closer.argmax(axis=1)
        out[active, step] = column
        states[active] = neighbours[np.arange(len(active)), column]
    return out


_INVERSE = tuple(MOVES.index(m.inverse()) for m in MOVES)


def _regrip(last: int, face: int, regrip: float) -> float:
    return regrip if last not in (_NO_FACE, face) else 0.0


def projected_costs(table: np.ndarray, costs: Sequence[float], regrip: float) -> list[tuple[float, ...]]:
    """Cheapest robot cost to solve one coordinate alone (permutation or twist): ``[coordinate][last face + 1]``.

    Any solution of the whole cube also solves each coordinate, so these are lower bounds on the whole cost.
    Value iteration in numpy over (coordinate, face last turned) until nothing gets cheaper (a few thousand
    nodes, a few dozen rounds), then shaved by a relative 1e-9 so float rounding cannot make a bound too high.
    """
    faces = np.array(_FACE_OF)
    lasts = np.array((_NO_FACE, 0, 1, 2))
    # step[last, column]: the column's cost plus the regrip it needs after turning face ``last``.
    step = np.asarray(costs, dtype=np.float64)[None, :] + np.where(
        (lasts[:, None] != _NO_FACE) & (lasts[:, None] != faces[None, :]), regrip, 0.0
    )
    best = np.full((len(table), len(lasts)), np.inf)
    best[0] = 0.0
    while True:
        # after[s, column]: the best cost from where the column leads, having just turned that column's face.
        after = best[table, faces + 1]
        improved = np.minimum(best, (after[:, None, :] + step[None, :, :]).min(axis=2))
        improved[0] = 0.0
        if np.array_equal(improved, best):
            break
        best = improved
    return [tuple(row) for row in (best * (1 - 1e-9)).tolist()]


def cheapest(
    lookup: Lookup,
    state: int,
    costs: Sequence[float],
    regrip: float,
    bounds: tuple[list[tuple[float, ...]], list[tuple[float, ...]]] | None = None,
) -> tuple[list[int], float]:
    """The cheapest solution when column ``m`` costs ``costs[m]`` and each change of face costs ``regrip``.

    A* over (state, face last turned). The estimate is admissible: a state d half turns from solved needs at
    least d runs of turns of one face, each costing at least the cheapest move, with a regrip between runs; and
    it costs at least what solving its permutation or its twist alone costs (``bounds``, from
    ``projected_costs``). Nodes are reopened when reached more cheaply, so the first solved state taken off the
    heap is optimal.
    """
    cheapest_move = min(costs)
    dist = lookup.htm
    perm_bound, twist_bound = bounds if bounds is not None else (None, None)

    def estimate(s: int, last: int) -> float:
        d = dist[s]
        guess = d * cheapest_move + max(d - 1, 0) * regrip
        if perm_bound is not None and twist_bound is not None:
            p, t = divmod(s, TWISTS)
            guess = max(guess, perm_bound[p][last + 1], twist_bound[t][last + 1])
        return guess

    start = (state, _NO_FACE)
    best = {start: 0.0}
    came: dict[tuple[int, int], tuple[tuple[int, int], int]] = {}
    order = itertools.count()  # ties go to the node pushed first, so the result does not depend on heap internals
    heap = [(estimate(state, _NO_FACE), next(order), 0.0, start)]
    while heap:
        _, _, spent, node = heapq.heappop(heap)
        if spent > best[node]:
            continue
        s, last = node
        if s == 0:
            path = []
            while node in came:
                node, column = came[node]
                path.append(column)
            return path[::-1], spent
        p, t = divmod(s, TWISTS)
        perm, twist = lookup.perm[p], lookup.twist[t]
        for column, face in enumerate(_FACE_OF):
            following = perm[column] * TWISTS + twist[column]
            total = spent + costs[column] + _regrip(last, face, regrip)
            key = (following, face)
            if total < best.get(key, math.inf):
                best[key] = total
                came[key] = (node, column)
                heapq.heappush(heap, (total + estimate(following, face), next(order), total, key))
    raise SolveError("the solved 2x2 is unreachable from this state: the move tables are wrong")
