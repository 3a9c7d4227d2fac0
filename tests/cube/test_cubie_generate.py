"""Cubie level (facelets <-> pieces) and the random generators, checked against the move simulator."""

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qbr.cube.conventions import CORNER_FACELETS, EDGE_FACELETS, OPPOSITE, SOLVED
from qbr.cube.cubie import CubieCube, corner_at, edge_at, permutation_parity
from qbr.cube.generate import random_cubie, random_scramble, random_state
from qbr.cube.moves import ALL_FACE_MOVES, Move
from qbr.cube.state import CubeState
from qbr.cube.validate import validate

face_move_lists = st.lists(st.sampled_from(ALL_FACE_MOVES), max_size=40)
seeds = st.integers(min_value=0, max_value=2**32)


def test_solved_cubie():
    assert CubieCube.from_facelets(SOLVED) == CubieCube()
    assert CubieCube().to_facelets() == SOLVED
    assert CubieCube().is_solvable()


def test_r_move_matches_kociemba_cubie_tables():
    # kociemba's R: corners DFR UFL ULB URF DRB DLF DBL UBR with twists 2 0 0 1 1 0 0 2, edges FR..UR.
    r = CubieCube.from_facelets(CubeState.solved().apply("R").facelets)
    assert r.cp == (4, 1, 2, 0, 7, 5, 6, 3)
    assert r.co == (2, 0, 0, 1, 1, 0, 0, 2)
    assert r.ep == (8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0)
    assert r.eo == (0,) * 12


@given(face_move_lists)
def test_any_sequence_round_trips_and_validates(moves):
    state = CubeState.solved().apply(moves)
    cubie = CubieCube.from_facelets(state.facelets)
    assert cubie.to_facelets() == state.facelets
    assert cubie.is_solvable()
    assert validate(state.facelets) == []


@given(face_move_lists, face_move_lists)
def test_multiply_is_doing_one_then_the_other(a, b):
    left = CubieCube.from_facelets(CubeState.solved().apply(a).facelets)
    right = CubieCube.from_facelets(CubeState.solved().apply(b).facelets)
    both = CubieCube.from_facelets(CubeState.solved().apply(a + b).facelets)
    assert left.multiply(right) == both


def test_from_facelets_rejects_impossible_pieces():
    mirror = list(SOLVED)
    _, r, f = CORNER_FACELETS[0]
    mirror[r], mirror[f] = mirror[f], mirror[r]
    with pytest.raises(ValueError):
        CubieCube.from_facelets("".join(mirror))
    with pytest.raises(ValueError):
        CubieCube.from_facelets(SOLVED[:-1])
    duplicate = CubieCube(cp=(0, 1, 2, 0, 4, 6, 6, 7)).to_facelets()
    with pytest.raises(ValueError):
        CubieCube.from_facelets(duplicate)


def test_piece_readers():
    state = CubeState.solved().apply("R").facelets
    assert corner_at(state, 0) == (4, 2)
    assert edge_at(state, 0) == (8, 0)
    flipped = CubieCube(eo=(1,) + (0,) * 11).to_facelets()
    assert edge_at(flipped, 0) == (0, 1)
    assert corner_at("U" * 54, 0) is None
    assert edge_at("U" * 54, 0) is None


def test_unsolvable_cubies_are_detected():
    assert not CubieCube(co=(1,) + (0,) * 7).is_solvable()
    assert not CubieCube(eo=(1,) + (0,) * 11).is_solvable()
    assert not CubieCube(ep=(1, 0, *range(2, 12))).is_solvable()
    assert not CubieCube(cp=(1, 0, *range(2, 8))).is_solvable()
    assert CubieCube(cp=(1, 0, *range(2, 8)), ep=(1, 0, *range(2, 12))).is_solvable()


def test_permutation_parity():
    assert permutation_parity(range(5)) == 0
    assert permutation_parity((1, 0, 2)) == 1
    assert permutation_parity((1, 2, 0)) == 0
    assert permutation_parity((3, 0, 1, 2)) == 1


@given(seeds)
def test_random_state_is_legal(seed):
    state = random_state(random.Random(seed))
    assert validate(state.facelets) == []
    assert CubieCube.from_facelets(state.facelets).is_solvable()


def test_random_state_is_reproducible_and_spread_out():
    assert random_state(random.Random(5)) == random_state(random.Random(5))
    rng = random.Random(11)
    cubies = [random_cubie(rng) for _ in range(4000)]
    # Each of the 8 corner pieces should land at position 0 about 500 times; each twist about 1333.
    at_zero = Counter(c.cp[0] for c in cubies)
    assert set(at_zero) == set(range(8))
    assert all(380 < n < 620 for n in at_zero.values()), at_zero
    twists = Counter(c.co[7] for c in cubies)
    assert all(1150 < n < 1520 for n in twists.values()), twists
    flips = Counter(c.eo[11] for c in cubies)
    assert all(1800 < n < 2200 for n in flips.values()), flips
    odd = sum(c.corner_parity() for c in cubies)
    assert 1800 < odd < 2200
    assert len({c.to_facelets() for c in cubies}) == 4000


@given(seeds, st.integers(min_value=0, max_value=60))
def test_scramble_follows_canonical_order(seed, length):
    moves = random_scramble(random.Random(seed), length)
    assert len(moves) == length
    assert all(isinstance(m, Move) and not m.is_rotation for m in moves)
    order = "URFDLB"
    for a, b in itertools.pairwise(moves):
        assert a.face != b.face
        if b.face == OPPOSITE[a.face]:
            assert order.index(b.face) > order.index(a.face)


def test_scramble_uses_every_turn():
    moves = random_scramble(random.Random(1), 2000)
    assert set(moves) == set(ALL_FACE_MOVES)
    with pytest.raises(ValueError):
        random_scramble(random.Random(1), -1)


def test_edge_facelets_are_consistent_with_pieces():
    # Every edge of the solved cube is read back as itself, unflipped.
    for position in range(len(EDGE_FACELETS)):
        assert edge_at(SOLVED, position) == (position, 0)
