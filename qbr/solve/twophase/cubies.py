"""The 18 face turns at the cubie level, as numpy arrays, and batched cubie arithmetic.

Arrays hold one cube per row: ``cp``/``ep`` the piece at each position, ``co``/``eo`` its twist/flip, with the
conventions of ``qbr.cube.cubie`` (``a`` followed by move ``m``: ``cp[i] = a.cp[m.cp[i]]``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from qbr.cube.conventions import SOLVED
from qbr.cube.cubie import CubieCube
from qbr.cube.moves import ALL_FACE_MOVES, Move, apply_to_facelets

MOVES: tuple[Move, ...] = ALL_FACE_MOVES
"""Move ``k`` of every table: U U2 U' R R2 R' F F2 F' D D2 D' L L2 L' B B2 B' (face ``k // 3``)."""

PHASE2_MOVES: tuple[int, ...] = (0, 1, 2, 4, 7, 9, 10, 11, 13, 16)
"""Indices into ``MOVES`` of the turns that keep a cube in phase 2's subgroup: U, D any way; R2 F2 L2 B2."""


@dataclass(frozen=True)
class Cubies:
    """A batch of cubes at the cubie level (arrays of shape (n, 8) and (n, 12), dtype int8)."""

    cp: np.ndarray
    co: np.ndarray
    ep: np.ndarray
    eo: np.ndarray

    @classmethod
    def of(cls, cubes: list[CubieCube]) -> Cubies:
        def rows(name: str) -> np.ndarray:
            return np.array([getattr(c, name) for c in cubes], dtype=np.int8)

        return cls(rows("cp"), rows("co"), rows("ep"), rows("eo"))

    def take(self, index: np.ndarray) -> Cubies:
        return Cubies(self.cp[index], self.co[index], self.ep[index], self.eo[index])

    def turned(self, moves: np.ndarray) -> Cubies:
        """Row ``i`` followed by move ``moves[i]`` (indices into ``MOVES``)."""
        table = move_cubies()
        mcp, mep = table.cp[moves], table.ep[moves]
        cp = np.take_along_axis(self.cp, mcp, axis=1)
        co = (np.take_along_axis(self.co, mcp, axis=1) + table.co[moves]) % 3
        ep = np.take_along_axis(self.ep, mep, axis=1)
        eo = (np.take_along_axis(self.eo, mep, axis=1) + table.eo[moves]) % 2
        return Cubies(cp.astype(np.int8), co.astype(np.int8), ep.astype(np.int8), eo.astype(np.int8))


@functools.cache
def move_cubies() -> Cubies:
    """The 18 face turns, read off qbr's own facelet simulator (so the tables agree with it by construction)."""
    return Cubies.of([CubieCube.from_facelets(apply_to_facelets(SOLVED, (move,))) for move in MOVES])


def inverse(cube: CubieCube) -> CubieCube:
    """The arrangement that undoes ``cube`` (its solution is the reverse of ``cube``'s)."""
    cp = [0] * 8
    co = [0] * 8
    ep = [0] * 12
    eo = [0] * 12
    for position, piece in enumerate(cube.cp):
        cp[piece] = position
        co[piece] = -cube.co[position] % 3
    for position, piece in enumerate(cube.ep):
        ep[piece] = position
        eo[piece] = cube.eo[position]
    return CubieCube(tuple(cp), tuple(co), tuple(ep), tuple(eo))
