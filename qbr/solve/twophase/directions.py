"""Searching a cube from several directions: each of its three axes taken as U/D, and its inverse.

Two-phase search favours the U/D axis; the same cube seen with another axis upright, or undone backwards, often
has a shorter solution. Each direction turns the cube into another standard cube, and its solutions back into
solutions of the original.
"""

from __future__ import annotations

from dataclasses import dataclass

from qbr.cube.conventions import CENTRES, FACE_INDEX, SOLVED
from qbr.cube.cubie import CubieCube
from qbr.cube.moves import Move, facelet_permutation, invert
from qbr.solve.twophase.cubies import inverse

ROTATIONS: tuple[str | None, ...] = (None, "x", "z")
"""Held as is (U/D upright), turned by x (F/B upright) and by z (L/R upright)."""


@dataclass(frozen=True)
class Direction:
    """One way of looking at the cube: a whole-cube ``rotation`` (or None), and whether the cube is inverted."""

    rotation: str | None
    inverted: bool

    def home_faces(self) -> str:
        """Letter ``g`` of this string: the face of the original cube that ends up at face ``g`` (URFDLB)."""
        if self.rotation is None:
            return "URFDLB"
        perm = facelet_permutation(Move(self.rotation, 1))
        return "".join(SOLVED[perm[c]] for c in CENTRES)

    def view(self, cube: CubieCube) -> CubieCube:
        """The cube as this direction sees it (a standard cube again, centres home)."""
        if self.inverted:
            cube = inverse(cube)
        if self.rotation is None:
            return cube
        perm = facelet_permutation(Move(self.rotation, 1))
        facelets = cube.to_facelets()
        rotated = "".join(facelets[p] for p in perm)
        # Each colour is renamed after the face its centre now shows on.
        rename = str.maketrans(self.home_faces(), "URFDLB")
        return CubieCube.from_facelets(rotated.translate(rename))

    def solution_back(self, moves: tuple[Move, ...]) -> tuple[Move, ...]:
        """A solution of the original cube from a solution of ``view(cube)``."""
        home = self.home_faces()
        moves = tuple(Move(home[FACE_INDEX[m.face]], m.turns) for m in moves)
        return invert(moves) if self.inverted else moves


DIRECTIONS: tuple[Direction, ...] = tuple(Direction(r, inv) for inv in (False, True) for r in ROTATIONS)
"""All six, the cube as it is first."""
