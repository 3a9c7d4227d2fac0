"""Optimal solutions for cubes near solved: IDA* over the whole cube with phase 1's pruning tables.

Phase 1's distance (twist x slice, flip x slice) is a lower bound on the distance to solved, and so is the
same distance seen with each of the other two axes upright; the search prunes by the largest of the six.
Batched depth-first like the two-phase search; the bound grows one turn at a time, so the first solution
found is a shortest one.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from qbr.cube.conventions import FACE_INDEX
from qbr.cube.cubie import CubieCube
from qbr.cube.moves import Move
from qbr.solve.twophase import coordinates as co
from qbr.solve.twophase.cubies import MOVES, Cubies
from qbr.solve.twophase.directions import ROTATIONS, Direction
from qbr.solve.twophase.search import _ALLOWED, _FACE, _NONE, OutOfTime
from qbr.solve.twophase.tables import Tables

BATCH = 20_000
"""Nodes expanded per numpy step (as in the two-phase search)."""


def _view_moves(direction: Direction) -> np.ndarray:
    """For each move of the cube, the move that the cube seen from ``direction`` makes."""
    home = direction._home_face()
    return np.array([3 * home.index(m.face) + m.turns - 1 for m in MOVES], dtype=np.int64)


@dataclass
class _Nodes:
    coords: np.ndarray
    """(3 views x (twist, flip, slice), n)."""
    last: np.ndarray
    path: np.ndarray


class _Optimal:
    def __init__(self, tables: Tables, deadline: float) -> None:
        m, p = tables.moves, tables.pruning
        self.twist, self.flip, self.slice = (t.astype(np.int32) for t in (m.twist, m.flip, m.slice))
        self.twist_slice, self.flip_slice = p.twist_slice, p.flip_slice
        self.views = [Direction(r, False) for r in ROTATIONS]
        self.view_moves = [_view_moves(v) for v in self.views]
        self.deadline = deadline

    def start(self, cube: CubieCube) -> _Nodes:
        seen = Cubies.of([v.view(cube) for v in self.views])
        coords = np.stack([co.twist_of(seen), co.flip_of(seen), co.slice_of(seen)], axis=1).reshape(-1, 1)
        return _Nodes(coords.astype(np.int32), np.array([_NONE], dtype=np.int8), np.zeros((1, 0), dtype=np.int8))

    def bound(self, nodes: _Nodes) -> np.ndarray:
        c = nodes.coords
        return np.max(
            [np.maximum(self.twist_slice[c[3 * k] * co.N_SLICE + c[3 * k + 2]],
                        self.flip_slice[c[3 * k + 1] * co.N_SLICE + c[3 * k + 2]]) for k in range(3)],
            axis=0,
        )

    def expand(self, nodes: _Nodes, left: int) -> _Nodes:
        """Children whose bound allows reaching solved in ``left - 1`` more turns; each view filters in turn."""
        parent, move = np.nonzero(_ALLOWED[nodes.last][:, _FACE])
        columns: list[np.ndarray] = []
        for k, view_move in enumerate(self.view_moves):
            seen = view_move[move]
            twist = self.twist[nodes.coords[3 * k][parent], seen]
            slice_ = self.slice[nodes.coords[3 * k + 2][parent], seen]
            ok = self.twist_slice[twist * co.N_SLICE + slice_] <= left - 1
            parent, move, seen, twist, slice_ = parent[ok], move[ok], seen[ok], twist[ok], slice_[ok]
            columns = [c[ok] for c in columns]
            flip = self.flip[nodes.coords[3 * k + 1][parent], seen]
            ok = self.flip_slice[flip * co.N_SLICE + slice_] <= left - 1
            parent, move = parent[ok], move[ok]
            columns = [c[ok] for c in columns] + [twist[ok], flip[ok], slice_[ok]]
        path = np.concatenate([nodes.path[parent], move[:, None].astype(np.int8)], axis=1)
        return _Nodes(np.stack(columns) if columns else nodes.coords[:, :0], _FACE[move], path)

    def solutions(self, nodes: _Nodes, left: int) -> Iterator[np.ndarray]:
        """Paths of exactly ``left`` more turns that end where every view's bound is 0."""
        if time.monotonic() > self.deadline:
            raise OutOfTime
        if left == 0:
            yield from nodes.path
            return
        children = self.expand(nodes, left)
        for start in range(0, len(children.last), BATCH):
            end = start + BATCH
            batch = _Nodes(children.coords[:, start:end], children.last[start:end], children.path[start:end])
            yield from self.solutions(batch, left - 1)


def _solves(cube: CubieCube, path: np.ndarray) -> bool:
    cubes = Cubies.of([cube])
    for turn in path:
        cubes = cubes.turned(np.array([turn]))
    return bool((cubes.cp == np.arange(8)).all() and (cubes.ep == np.arange(12)).all()
                and not cubes.co.any() and not cubes.eo.any())


def optimal(cube: CubieCube, tables: Tables, max_depth: int, deadline: float) -> tuple[Move, ...] | None:
    """A shortest solution of at most ``max_depth`` turns; None if there is none, or none was found in time."""
    search = _Optimal(tables, deadline)
    start = search.start(cube)
    try:
        for depth in range(int(search.bound(start)[0]), max_depth + 1):
            for path in search.solutions(start, depth):
                # Every view's orientation and slices solved does not yet mean solved: check the pieces.
                if _solves(cube, path):
                    return tuple(MOVES[int(k)] for k in path)
    except OutOfTime:
        return None
    return None


__all__ = ["FACE_INDEX", "optimal"]
