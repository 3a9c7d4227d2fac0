"""The 24 ways to hold a cube, as whole-cube rotations, and what a face turn becomes when the cube is held another way.

Derived from the facelet simulator (any size turns alike; the 2x2's 24 stickers are the cheapest to compare).
"""

from __future__ import annotations

import functools

from qbr.cube.moves import ALL_FACE_MOVES, Move, facelet_permutation, invert, sequence_permutation

_SIZE = 2


@functools.cache
def orientations() -> tuple[tuple[Move, ...], ...]:
    """The 24 rotations, each as a shortest sequence of x y z turns, the identity first."""
    steps = [Move(face, turns) for face in "xyz" for turns in (1, 2, 3)]
    seen = {sequence_permutation((), _SIZE): ()}
    frontier: list[tuple[Move, ...]] = [()]
    while frontier:
        following = []
        for sequence in frontier:
            for step in steps:
                longer = (*sequence, step)
                perm = sequence_permutation(longer, _SIZE)
                if perm not in seen:
                    seen[perm] = longer
                    following.append(longer)
        frontier = following
    return tuple(seen.values())


@functools.cache
def conjugate(rotation: tuple[Move, ...], move: Move) -> Move:
    """The face turn that does what ``rotation``, ``move``, then undoing ``rotation`` do.

    A state ``S`` rotated by ``rotation`` and then solved by ``m1 m2 ...`` is solved (held another way) by
    ``conjugate(rotation, m1) conjugate(rotation, m2) ...`` without being rotated.
    """
    perm = sequence_permutation((*rotation, move, *invert(rotation)), _SIZE)
    for candidate in ALL_FACE_MOVES:
        if facelet_permutation(candidate, _SIZE) == perm:
            return candidate
    raise ValueError(f"{move} is not a face turn")
