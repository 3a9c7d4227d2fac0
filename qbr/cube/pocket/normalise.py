"""A 2x2 held any way, turned whole so that its D-B-L corner is in place and unturned.

A 2x2 has no fixed centres, so two strings can show one cube held two ways; the normalised string is
the same for both. Solving the normalised cube needs only U, R and F turns (they never move DBL), and
``Normalised.user_moves`` says which faces of the cube as held those turns are.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from qbr.cube.moves import Move, apply_to_facelets, sequence_permutation
from qbr.cube.pocket.conventions import CORNER_FACELETS, FACELET_COUNT, REFERENCE_CORNER, SIZE
from qbr.cube.pocket.cubie import pocket_corner_at
from qbr.cube.rotations import conjugate, orientations


@dataclass(frozen=True)
class Normalised:
    """``facelets`` is the cube as held with ``rotation`` applied; the D-B-L corner is then home."""

    facelets: str
    rotation: tuple[Move, ...]

    def user_moves(self, moves: Iterable[Move]) -> tuple[Move, ...]:
        """Turns of the normalised cube as turns of the cube as held (no rotation needed)."""
        return tuple(conjugate(self.rotation, m) for m in moves)


@functools.cache
def _rotation_bringing() -> dict[int, tuple[Move, ...]]:
    """Facelet index -> the rotation that brings the sticker there onto the reference corner's D sticker."""
    target = CORNER_FACELETS[REFERENCE_CORNER][0]
    return {sequence_permutation(r, SIZE)[target]: r for r in orientations()}


def normalise(facelets: str) -> Normalised:
    """The cube turned whole so its D-B-L corner is home (face letters expected; the identity if no such corner)."""
    if len(facelets) != FACELET_COUNT:
        raise ValueError(f"a 2x2 facelet string has {FACELET_COUNT} letters, got {len(facelets)}")
    for position in range(8):
        corner = pocket_corner_at(facelets, position)
        if corner is not None and corner[0] == REFERENCE_CORNER:
            rotation = _rotation_bringing()[CORNER_FACELETS[position][corner[1]]]
            return Normalised(apply_to_facelets(facelets, rotation, SIZE), rotation)
    return Normalised(facelets, ())
