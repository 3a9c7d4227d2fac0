"""Optimal solutions for cubes near solved: IDA* over the whole cube.

Lower bounds on the distance to solved prune the search: phase 1's distance (twist x slice, flip x slice,
twist x flip) with each of the three axes upright, and, for cubes within ``near_table.DEPTH`` turns, their exact
distance (any other cube is further). Batched depth-first like the two-phase search; the bound grows one turn at a
time, so the first solution found is a shortest one.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np

from qbr.cube.conventions import SOLVED
from qbr.cube.cubie import CubieCube
from qbr.cube.moves import Move, apply_to_facelets
from qbr.solve.twophase import coordinates as co
from qbr.solve.twophase.cubies import MOVES, Cubies
from qbr.solve.twophase.directions import ROTATIONS, Direction
from qbr.solve.twophase.near_table import FULL_STATE, key
from qbr.solve.twophase.search import ALLOWED, FACE, NO_FACE, OutOfTime
from qbr.solve.twophase.tables import Tables

BATCH = 20_000
"""Nodes expanded per numpy step (as in the two-phase search)."""

_VIEW_COORDS = ("twist", "flip", "slice")


def _view_moves(direction: Direction) -> np.ndarray:
    """For each move of the cube, the move that the cube seen from ``direction`` makes."""
    home = direction.home_faces()
    return np.array([3 * home.index(m.face) + m.turns - 1 for m in MOVES], dtype=np.int64)


class _Nodes:
    """Rows of ``coords``: (twist, flip, slice) of each of the three views, then ``FULL_STATE`` of the cube."""

    def __init__(self, coords: np.ndarray, last: np.ndarray, path: np.ndarray) -> None:
        self.coords, self.last, self.path = coords, last, path

    def __len__(self) -> int:
        return len(self.last)

    def split(self, size: int) -> Iterator[_Nodes]:
        for start in range(0, len(self), size):
            end = start + size
            yield _Nodes(self.coords[:, start:end], self.last[start:end], self.path[start:end])


class _Optimal:
    def __init__(self, tables: Tables, deadline: float) -> None:
        m, p = tables.moves, tables.pruning
        self.view_tables = [getattr(m, name) for name in _VIEW_COORDS]
        self.full_tables = [getattr(m, name) for name in FULL_STATE]
        self.twist_slice, self.flip_slice, self.twist_flip = p.twist_slice, p.flip_slice, p.twist_flip
        self.near = tables.near
        self.views = [Direction(r, False) for r in ROTATIONS]
        self.view_moves = [_view_moves(v) for v in self.views]
        self.deadline = deadline

    def start(self, cube: CubieCube) -> _Nodes:
        rows = []
        for view in self.views:
            seen = Cubies.of([view.view(cube)])
            rows += [co.twist_of(seen), co.flip_of(seen), co.slice_of(seen)]
        whole = Cubies.of([cube])
        rows += [getattr(co, f"{name}_of")(whole) for name in FULL_STATE]
        return _Nodes(np.stack(rows).astype(np.int32), np.array([NO_FACE], dtype=np.int8),
                      np.zeros((1, 0), dtype=np.int8))

    def bound(self, nodes: _Nodes) -> int:
        c = nodes.coords
        views = [max(self.twist_slice[c[3 * k, 0] * co.N_SLICE + c[3 * k + 2, 0]],
                     self.flip_slice[c[3 * k + 1, 0] * co.N_SLICE + c[3 * k + 2, 0]],
                     self.twist_flip[c[3 * k, 0] * co.N_FLIP + c[3 * k + 1, 0]]) for k in range(3)]
        return int(max(*views, self.near.lookup(key(*c[9:]))[0]))

    def expand(self, nodes: _Nodes, left: int) -> _Nodes:
        """Children whose bounds allow reaching solved in ``left - 1`` more turns; each bound filters in turn."""
        parent, move = np.divmod(np.flatnonzero(ALLOWED[:, FACE][nodes.last]), len(MOVES))
        rows: dict[int, np.ndarray] = {}
        """Children's coordinates computed so far, by row of ``coords``."""

        def turn(row: int, table: np.ndarray, moves: np.ndarray) -> np.ndarray:
            rows[row] = table[nodes.coords[row][parent], moves]
            return rows[row]

        def keep(ok: np.ndarray) -> None:
            nonlocal parent, move
            parent, move = parent[ok], move[ok]
            for row in rows:
                rows[row] = rows[row][ok]

        twist_t, flip_t, slice_t = self.view_tables
        for k, view_move in enumerate(self.view_moves):
            twist = turn(3 * k, twist_t, view_move[move])
            slice_ = turn(3 * k + 2, slice_t, view_move[move])
            keep(self.twist_slice[twist * co.N_SLICE + slice_] <= left - 1)
            flip = turn(3 * k + 1, flip_t, view_move[move])
            keep((self.flip_slice[flip * co.N_SLICE + rows[3 * k + 2]] <= left - 1)
                 & (self.twist_flip[rows[3 * k] * co.N_FLIP + flip] <= left - 1))
            if k == 0:
                # The exact distance of near cubes prunes most where the phase 1 bounds are weakest: deep down.
                full = [turn(9 + i, t, move) for i, t in enumerate(self.full_tables)]
                keep(self.near.lookup(key(*full)) <= left - 1)
        coords = np.stack([rows[row] for row in range(len(nodes.coords))]).astype(np.int32)
        path = np.concatenate([nodes.path[parent], move[:, None].astype(np.int8)], axis=1)
        return _Nodes(coords, FACE[move], path)

    def goals(self, nodes: _Nodes, left: int) -> Iterator[_Nodes]:
        """Nodes exactly ``left`` more turns on whose bounds are all 0 (batches; depth first)."""
        if time.monotonic() > self.deadline:
            raise OutOfTime
        if left == 0:
            yield nodes
            return
        for batch in self.expand(nodes, left).split(BATCH):
            yield from self.goals(batch, left - 1)


def optimal(cube: CubieCube, tables: Tables, max_depth: int, deadline: float) -> tuple[Move, ...] | None:
    """A shortest solution of at most ``max_depth`` turns; None if there is none, or none was found in time."""
    search = _Optimal(tables, deadline)
    start = search.start(cube)
    try:
        for depth in range(search.bound(start), max_depth + 1):
            for goal in search.goals(start, depth):
                # A bound of 0 from the near table means solved (keys of different cubes could collide: check).
                for path in goal.path:
                    moves = tuple(MOVES[int(k)] for k in path)
                    if _solves(cube, moves):
                        return moves
    except OutOfTime:
        return None
    return None


def _solves(cube: CubieCube, moves: tuple[Move, ...]) -> bool:
    return apply_to_facelets(cube.to_facelets(), moves) == SOLVED
