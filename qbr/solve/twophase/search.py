"""Two-phase search (Kociemba's algorithm) over whole batches of nodes at once.

Phase 1 takes the cube into the subgroup <U, D, R2, F2, L2, B2>, phase 2 solves it there. Both are IDA*: a
depth-first search to a bound, pruned where the pruning tables prove the bound cannot be met, with the bound
raised one turn at a time. Here depth-first runs over batches: every node of a batch is expanded by every turn
in one numpy step, and batches that grow too large are split, so memory stays bounded and Python's overhead is
paid per batch, not per node. Phase 1 solutions of growing length each get the shortest phase 2 below the best
total so far; the best verified total wins when the search runs out of lengths or time.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from qbr.cube.cubie import CubieCube
from qbr.cube.moves import Move, simplify
from qbr.solve.twophase import coordinates as co
from qbr.solve.twophase.cubies import MOVES, PHASE2_MOVES, Cubies
from qbr.solve.twophase.directions import DIRECTIONS, Direction
from qbr.solve.twophase.tables import Tables


@dataclass(frozen=True)
class SearchSettings:
    """Limits of one search."""

    batch: int = 20_000
    """Nodes expanded per numpy step: large enough to hide Python's overhead, small enough to stay in cache."""
    longest: int = 30
    """No solution is looked for beyond this many turns (every cube needs at most 20)."""
    phase2_first: int = 11
    """Until a first solution is found, phase 2 stops at this depth: deeper phase 1 is cheaper than deeper phase 2
    (60 cubes: 10 gives 20.5 moves in 43 ms CPU, 11 gives 20.8 in 25 ms, 12 gives 21.0 in 24 ms, max 23)."""


class OutOfTime(Exception):
    """The deadline passed during the search (caught inside; the best solution so far stands)."""


FACE = np.array([k // 3 for k in range(len(MOVES))], dtype=np.int8)
NO_FACE = 6
"""The "last face" of a node no turn has reached yet."""


def _allowed_faces() -> np.ndarray:
    """``[last, face]``: no face twice in a row, and opposite faces only in U R F D L B order (U D, never D U)."""
    allowed = np.ones((7, 6), dtype=bool)
    for last in range(6):
        allowed[last, last] = False
        opposite = (last + 3) % 6
        if opposite < last:
            allowed[last, opposite] = False
    return allowed


ALLOWED = _allowed_faces()
_PHASE2 = np.array(PHASE2_MOVES, dtype=np.int8)
_ENDS_PHASE1 = ~np.isin(np.arange(len(MOVES)), PHASE2_MOVES)
"""A phase 1 solution that ends with a phase 2 turn was already found one turn shorter."""


@dataclass
class _Nodes:
    """A batch of search nodes: coordinates, last face, which root they grew from and the turns taken."""

    a: np.ndarray
    b: np.ndarray
    c: np.ndarray
    last: np.ndarray
    root: np.ndarray
    path: np.ndarray

    def __len__(self) -> int:
        return len(self.a)

    def split(self, size: int) -> Iterator[_Nodes]:
        for start in range(0, len(self), size):
            end = start + size
            yield _Nodes(self.a[start:end], self.b[start:end], self.c[start:end], self.last[start:end],
                         self.root[start:end], self.path[start:end])


class _Phase:
    """One phase's move tables, pruning and goal, for batched IDA*."""

    def __init__(
        self,
        tables: tuple[np.ndarray, np.ndarray, np.ndarray],
        prune: tuple[np.ndarray, np.ndarray],
        size_c: int,
        moves: np.ndarray,
        final_ok: np.ndarray | None,
        prune_ab: np.ndarray | None = None,
    ) -> None:
        self.ta, self.tb, self.tc = tables
        self.pa, self.pb = prune
        self.size_c = size_c
        self.moves = moves
        self.faces = FACE[moves]
        self.allowed = ALLOWED[:, self.faces]
        """``[last face, column]``: may this phase's move follow a turn of that face."""
        self.final_ok = final_ok
        self.pab = prune_ab
        self.size_b = len(self.tb)

    def bound(self, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
        """A lower bound on the turns to this phase's goal."""
        bound = np.maximum(self.pa[a * self.size_c + c], self.pb[b * self.size_c + c])
        return bound if self.pab is None else np.maximum(bound, self.pab[a * self.size_b + b])

    def expand(self, nodes: _Nodes, left: int) -> _Nodes:
        """Children that can still reach the goal within ``left - 1`` more turns."""
        a, c = self.ta[nodes.a], self.tc[nodes.c]
        keep = self.allowed[nodes.last] & (self.pa[a * self.size_c + c] <= left - 1)
        if left == 1 and self.final_ok is not None:
            keep &= self.final_ok[None, :]
        # The second bound only for the children the first one let through (often a small part). flatnonzero:
        # numpy's two-dimensional nonzero is ten times slower.
        flat = np.flatnonzero(keep)
        parent, column = np.divmod(flat, len(self.moves))
        a, c = a.ravel()[flat], c.ravel()[flat]
        b = self.tb[nodes.b[parent], column]
        ok = self.pb[b * self.size_c + c] <= left - 1
        if self.pab is not None:
            ok &= self.pab[a * self.size_b + b] <= left - 1
        parent, column = parent[ok], column[ok]
        path = np.concatenate([nodes.path[parent], self.moves[column][:, None]], axis=1)
        return _Nodes(a[ok], b[ok], c[ok], self.faces[column], nodes.root[parent], path)


class _Search:
    def __init__(self, tables: Tables, settings: SearchSettings, deadline: float) -> None:
        m, p = tables.moves, tables.pruning
        self.settings = settings
        self.deadline = deadline
        self.nodes = 0
        # Corner permutation and where the slice, U and D edges are: followed through phase 1 to its leaves.
        self.placed_moves = (m.cperm, m.slice_sorted, m.u_edges, m.d_edges)
        self.eperm_from_placed = m.eperm_from_placed
        self.root_placed = np.zeros((0, 4), dtype=np.int32)
        self.phase1 = _Phase((m.twist, m.flip, m.slice), (p.twist_slice, p.flip_slice), co.N_SLICE,
                             np.arange(len(MOVES), dtype=np.int8), _ENDS_PHASE1, p.twist_flip)
        # Phase 2's tables have a column per phase 2 turn only: its nodes index them by column.
        self.phase2 = _Phase((m.cperm[:, list(PHASE2_MOVES)], m.eperm, m.sperm), (p.cperm_sperm, p.eperm_sperm),
                             co.N_SPERM, np.arange(len(PHASE2_MOVES), dtype=np.int8), None)

    def _tick(self, count: int) -> None:
        self.nodes += count
        if time.monotonic() > self.deadline:
            raise OutOfTime

    def goals(self, phase: _Phase, nodes: _Nodes, left: int) -> Iterator[_Nodes]:
        """Batches of nodes exactly ``left`` turns further that reach the phase's goal (depth first, batched)."""
        self._tick(len(nodes))
        if left == 0:
            yield nodes
            return
        children = phase.expand(nodes, left)
        for batch in children.split(self.settings.batch):
            yield from self.goals(phase, batch, left - 1)


def _roots(cube: CubieCube, directions: Sequence[Direction]) -> Cubies:
    return Cubies.of([d.view(cube) for d in directions])


def _path_moves(path: np.ndarray) -> tuple[Move, ...]:
    return tuple(MOVES[int(k)] for k in path)


def two_phase(
    cube: CubieCube,
    tables: Tables,
    *,
    deadline: float,
    settings: SearchSettings = SearchSettings(),
    directions: Sequence[Direction] = DIRECTIONS,
    on_solution: Callable[[tuple[Move, ...]], None] | None = None,
    shorter_than: int | None = None,
    first_only: bool = False,
) -> tuple[Move, ...] | None:
    """The shortest solution found before ``deadline`` (``time.monotonic()``), each shorter one also passed to
    ``on_solution`` as found; None if none was found in time (or none shorter than ``shorter_than``). With
    ``first_only``, the first solution found is the answer.

    Solutions are checked by the caller; this function trusts its tables.
    """
    search = _Search(tables, settings, deadline)
    roots = _roots(cube, directions)
    search.root_placed = np.stack(
        [co.cperm_of(roots), co.slice_sorted_of(roots), co.u_edges_of(roots), co.d_edges_of(roots)], axis=1
    ).astype(np.int32)
    twist, flip, slice_ = co.twist_of(roots), co.flip_of(roots), co.slice_of(roots)
    # A symmetric cube (superflip, checkerboards) looks the same from several directions: search each view once.
    views = np.concatenate([np.stack([twist, flip, slice_], axis=1), search.root_placed], axis=1)
    kept = np.sort(np.unique(views, axis=0, return_index=True)[1])
    start = _Nodes(twist[kept], flip[kept], slice_[kept], np.full(len(kept), NO_FACE, dtype=np.int8),
                   kept, np.zeros((len(kept), 0), dtype=np.int8))
    best_length = settings.longest + 1 if shorter_than is None else shorter_than
    best: tuple[Move, ...] | None = None
    try:
        depth1 = int(search.phase1.bound(start.a, start.b, start.c).min())
        while depth1 < best_length:
            for leaves in search.goals(search.phase1, start, depth1):
                found = _phase2(search, leaves, depth1, best_length, best is None)
                if found is None:
                    continue
                root, path = found
                moves = directions[root].solution_back(_path_moves(path))
                moves = simplify(moves)
                if len(moves) < best_length:
                    best, best_length = moves, len(moves)
                    if on_solution is not None:
                        on_solution(moves)
                    if first_only:
                        return best
            depth1 += 1
    except OutOfTime:
        pass
    return best


def _phase2(
    search: _Search, leaves: _Nodes, depth1: int, best_length: int, first: bool
) -> tuple[int, np.ndarray] | None:
    """The shortest phase 2 for any of ``leaves`` (phase 1 solutions of ``depth1`` turns) that makes the total
    shorter than ``best_length``: (root, whole path), or None."""
    limit = best_length - 1 - depth1
    if first:
        limit = min(limit, search.settings.phase2_first)
    # Phase 2's coordinates follow the phase 1 path through move tables of coordinates that exist everywhere.
    placed = search.root_placed[leaves.root].T.copy()
    for step in range(depth1):
        turn = leaves.path[:, step]
        for k, table in enumerate(search.placed_moves):
            placed[k] = table[placed[k], turn]
    cperm, slice_sorted, u_edges, d_edges = placed
    sperm = slice_sorted % co.N_SPERM
    eperm = search.eperm_from_placed[u_edges * co.N_SPERM + d_edges % co.N_SPERM]
    # Phase 2 nodes remember which phase 1 leaf they came from in ``root`` and start with an empty path.
    start = _Nodes(cperm, eperm, sperm, leaves.last, np.arange(len(leaves)), np.zeros((len(leaves), 0), dtype=np.int8))
    lower = search.phase2.bound(start.a, start.b, start.c)
    for depth2 in range(int(lower.min()), limit + 1):
        live = lower <= depth2
        subset = _Nodes(start.a[live], start.b[live], start.c[live], start.last[live], start.root[live],
                        start.path[live])
        for goal in search.goals(search.phase2, subset, depth2):
            if len(goal):
                leaf = int(goal.root[0])
                tail = _PHASE2[goal.path[0]]
                return int(leaves.root[leaf]), np.concatenate([leaves.path[leaf], tail])
    return None
