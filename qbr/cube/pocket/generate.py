"""Random 2x2 states for tests, demos and benchmarks (the caller supplies the randomness)."""

from __future__ import annotations

import random

from qbr.cube.moves import apply_to_facelets
from qbr.cube.pocket.conventions import REFERENCE_CORNER, SIZE
from qbr.cube.pocket.cubie import PocketCubie
from qbr.cube.pocket.state import PocketState
from qbr.cube.rotations import orientations


def random_pocket_cubie(rng: random.Random) -> PocketCubie:
    """A uniformly random solvable arrangement with the D-B-L corner home and unturned (a normalised state)."""
    others = [p for p in range(8) if p != REFERENCE_CORNER]
    rng.shuffle(others)
    cp = [*others[:REFERENCE_CORNER], REFERENCE_CORNER, *others[REFERENCE_CORNER:]]
    co = [0 if p == REFERENCE_CORNER else rng.randrange(3) for p in range(8)]
    last = max(p for p in range(8) if p != REFERENCE_CORNER)
    co[last] = (co[last] - sum(co)) % 3
    return PocketCubie(tuple(cp), tuple(co))


def random_pocket_state(rng: random.Random, held_any_way: bool = False) -> PocketState:
    """A uniformly random legal state, normalised unless ``held_any_way`` (then also turned by a random rotation)."""
    facelets = random_pocket_cubie(rng).to_facelets()
    if held_any_way:
        facelets = apply_to_facelets(facelets, rng.choice(orientations()), SIZE)
    return PocketState(facelets)
