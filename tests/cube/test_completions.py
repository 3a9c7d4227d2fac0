"""A face never seen: which of its stickers the other five faces leave open (``qbr.cube.completions``)."""

from __future__ import annotations

import itertools
import random

from qbr.cube.completions import unsettled_stickers
from qbr.cube.conventions import FACES, SOLVED
from qbr.cube.generate import random_state
from qbr.cube.moves import apply_to_facelets, parse_moves
from qbr.cube.validate import validate

SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"


EDGES, CORNERS = (1, 3, 5, 7), (0, 2, 6, 8)


def _by_brute_force(facelets: str, face: str, where: tuple[int, ...]) -> tuple[int, ...]:
    """Every colouring of four of the face's stickers (``where``) tried: the ones some real cube shows otherwise."""
    spots = [9 * FACES.index(face) + k for k in where]
    differ: set[int] = set()
    cells = list(facelets)
    for colours in itertools.product(FACES, repeat=len(spots)):
        for i, c in zip(spots, colours, strict=True):
            cells[i] = c
        if not validate("".join(cells)):
            differ.update(i for i, c in zip(spots, colours, strict=True) if facelets[i] != c)
    return tuple(sorted(differ))


def test_the_stickers_left_open_are_those_another_real_cube_shows_otherwise() -> None:
    rng = random.Random(5)
    open_faces = 0
    for _ in range(6):
        facelets = random_state(rng).facelets
        for face in FACES:
            found = unsettled_stickers(facelets, face)
            open_faces += bool(found)
            if found or face in "UF":  # every open face, and two fixed ones a cube (1296 colourings each)
                assert found == _by_brute_force(facelets, face, EDGES), (facelets, face)
            if face == "R":  # the corners' third stickers follow from the other two (and their cyclic order)
                assert _by_brute_force(facelets, face, CORNERS) == ()
    assert open_faces >= 2  # these seeds hold faces the other five leave open (about one in eight)


def test_about_one_face_in_eight_is_left_open() -> None:
    rng = random.Random(7)
    draws = [unsettled_stickers(random_state(rng).facelets, FACES[rng.randrange(6)]) for _ in range(1000)]
    assert 100 <= sum(bool(d) for d in draws) <= 145  # 121 of these 1000


def test_a_solved_cube_fixes_every_face_and_the_superflip_none() -> None:
    superflip = apply_to_facelets(SOLVED, parse_moves(SUPERFLIP))
    for face in FACES:
        assert unsettled_stickers(SOLVED, face) == ()
        assert len(unsettled_stickers(superflip, face)) == 4  # every edge flipped: any two leftover edges swap


def test_a_cube_that_is_not_real_has_nothing_to_settle() -> None:
    assert unsettled_stickers("U" * 54, "F") == ()
