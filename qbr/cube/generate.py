"""Random cube states and scrambles for tests, demos and benchmarks (the caller supplies the randomness)."""

from __future__ import annotations

import random

from qbr.cube.conventions import FACE_INDEX, FACES, OPPOSITE
from qbr.cube.cubie import CubieCube, permutation_parity
from qbr.cube.moves import Move
from qbr.cube.state import CubeState


def random_cubie(rng: random.Random) -> CubieCube:
    """A uniformly random solvable arrangement of the pieces."""
    cp = list(range(8))
    ep = list(range(12))
    rng.shuffle(cp)
    rng.shuffle(ep)
    if permutation_parity(cp) != permutation_parity(ep):
        # Swapping two edges pairs each mismatched arrangement with exactly one matched one: still uniform.
        ep[0], ep[1] = ep[1], ep[0]
    co = [rng.randrange(3) for _ in range(7)]
    eo = [rng.randrange(2) for _ in range(11)]
    co.append(-sum(co) % 3)
    eo.append(sum(eo) % 2)
    return CubieCube(tuple(cp), tuple(co), tuple(ep), tuple(eo))


def random_state(rng: random.Random) -> CubeState:
    """A uniformly random legal state (centres in their home places)."""
    return CubeState(random_cubie(rng).to_facelets())


def random_scramble(rng: random.Random, length: int) -> tuple[Move, ...]:
    """``length`` random face turns in canonical order: never the same face twice in a row, and after a
    turn of one face, its opposite face only if that comes later in U R F D L B order (so U D is allowed, D U not).
    """
    if length < 0:
        raise ValueError(f"a scramble cannot have {length} moves")
    moves: list[Move] = []
    previous: str | None = None
    for _ in range(length):
        allowed = [
            f
            for f in FACES
            if f != previous
            and not (previous is not None and f == OPPOSITE[previous] and FACE_INDEX[f] < FACE_INDEX[previous])
        ]
        face = rng.choice(allowed)
        moves.append(Move(face, rng.choice((1, 2, 3))))
        previous = face
    return tuple(moves)
