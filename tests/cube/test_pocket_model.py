"""The 2x2 model: facelets from geometry, moves, corners, rotations and normalisation, checked against the 3x3."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qbr.cube.conventions import CORNER_FACELETS as CORNER_FACELETS_3X3
from qbr.cube.conventions import CORNER_NAMES, FACES
from qbr.cube.cubie import CubieCube
from qbr.cube.geometry import AXIS, corner_facelets, sticker_points
from qbr.cube.moves import ALL_FACE_MOVES, Move, facelet_permutation, invert, sequence_permutation
from qbr.cube.pocket.conventions import (
    CORNER_FACELETS,
    REFERENCE_CORNER,
    SOLVED,
    facelet_index,
    facelet_name,
)
from qbr.cube.pocket.cubie import PocketCubie
from qbr.cube.pocket.generate import random_pocket_cubie, random_pocket_state
from qbr.cube.pocket.normalise import normalise
from qbr.cube.pocket.state import PocketState
from qbr.cube.rotations import conjugate, orientations
from qbr.cube.state import CubeState

ALL_MOVES = [Move(f, t) for f in "URFDLBxyz" for t in (1, 2, 3)]
move_lists = st.lists(st.sampled_from(ALL_MOVES), max_size=25)
face_move_lists = st.lists(st.sampled_from(ALL_FACE_MOVES), max_size=25)
seeds = st.integers(min_value=0, max_value=2**32)


def test_corner_facelets_are_the_documented_ones():
    expected = {
        "URF": ("U4", "R1", "F2"),
        "UFL": ("U3", "F1", "L2"),
        "ULB": ("U1", "L1", "B2"),
        "UBR": ("U2", "B1", "R2"),
        "DFR": ("D2", "F4", "R3"),
        "DLF": ("D1", "L4", "F3"),
        "DBL": ("D3", "B4", "L3"),
        "DRB": ("D4", "R4", "B3"),
    }
    assert {n: tuple(facelet_name(i) for i in f) for n, f in zip(CORNER_NAMES, CORNER_FACELETS, strict=True)} == (
        expected
    )
    assert sorted(i for f in CORNER_FACELETS for i in f) == list(range(24))


def test_the_same_derivation_gives_the_3x3_corners():
    assert corner_facelets(3, CORNER_NAMES) == CORNER_FACELETS_3X3


def test_corner_faces_go_clockwise():
    # Looking at a corner from outside, U/D face first: the faces' normals have a negative triple product.
    for name in CORNER_NAMES:
        a, b, c = (AXIS[f] for f in name)
        cross = (b[1] * c[2] - b[2] * c[1], b[2] * c[0] - b[0] * c[2], b[0] * c[1] - b[1] * c[0])
        assert sum(x * y for x, y in zip(a, cross, strict=True)) == -1, name


def test_net_layout_and_indices():
    assert facelet_index("U", 0, 0) == 0 and facelet_index("R", 0, 0) == 4 and facelet_index("B", 1, 1) == 23
    assert facelet_name(facelet_index("D", 1, 0)) == "D3"
    with pytest.raises(ValueError):
        facelet_index("U", 2, 0)
    assert len(set(sticker_points(2))) == 24
    # Net neighbours: U's bottom row touches F's top row; F's right column touches R's left column.
    points = sticker_points(2)
    for a, b in (("U3", "F1"), ("U4", "F2"), ("F2", "R1"), ("F4", "R3"), ("D1", "F3"), ("L2", "F1")):
        pa, pb = (points[facelet_index(n[0], (int(n[1]) - 1) // 2, (int(n[1]) - 1) % 2)] for n in (a, b))
        assert sum(abs(x - y) for x, y in zip(pa, pb, strict=True)) == 2, (a, b)


def test_u_turn_moves_the_top_row_from_right_to_front():
    after = PocketState.solved().apply("U").facelets
    assert after[0:4] == "UUUU"
    assert PocketState(after).face("F") == "RRFF"
    assert PocketState(after).face("L") == "FFLL"
    assert PocketState.solved().apply("R").face("U") == "UFUF"


@given(move_lists)
def test_move_then_inverse_is_identity(moves):
    assert PocketState.solved().apply(moves).apply(invert(moves)).facelets == SOLVED


@pytest.mark.parametrize("move", ALL_MOVES)
def test_four_quarter_turns_are_identity(move):
    quarter = Move(move.face, 1)
    assert PocketState.solved().apply([quarter] * 4).facelets == SOLVED
    assert sorted(facelet_permutation(move, 2)) == list(range(24))


@given(face_move_lists)
def test_corners_move_as_the_3x3_corners_do(moves):
    pocket = PocketCubie.from_facelets(PocketState.solved().apply(moves).facelets)
    cube = CubieCube.from_facelets(CubeState.solved().apply(moves).facelets)
    assert (pocket.cp, pocket.co) == (cube.cp, cube.co)


@given(face_move_lists)
def test_cubie_multiplication_follows_the_facelets(moves):
    cubie = PocketCubie()
    for move in moves:
        cubie = cubie.multiply(PocketCubie.of_move(move))
    assert cubie.to_facelets() == PocketState.solved().apply(moves).facelets
    assert cubie.is_solvable()


@given(seeds)
def test_random_states_are_solvable_and_normalised(seed):
    cubie = random_pocket_cubie(random.Random(seed))
    assert cubie.is_solvable()
    assert cubie.cp[REFERENCE_CORNER] == REFERENCE_CORNER and cubie.co[REFERENCE_CORNER] == 0
    assert PocketCubie.from_facelets(cubie.to_facelets()) == cubie


def test_reference_corner_is_untouched_by_u_r_f():
    for move in ALL_FACE_MOVES:
        moved = PocketCubie.of_move(move)
        still = moved.cp[REFERENCE_CORNER] == REFERENCE_CORNER and moved.co[REFERENCE_CORNER] == 0
        assert still == (move.face in "URF"), move


def test_twenty_four_distinct_rotations():
    rotations = orientations()
    assert len(rotations) == 24 and rotations[0] == ()
    assert len({sequence_permutation(r, 2) for r in rotations}) == 24
    assert all(len(r) <= 2 for r in rotations)


@given(st.sampled_from(orientations()), face_move_lists)
def test_conjugated_moves_do_what_rotate_move_unrotate_does(rotation, moves):
    state = PocketState.solved().apply("R U' F2 D L' B")
    rotated_then_moved = state.apply((*rotation, *moves, *invert(rotation)))
    assert state.apply([conjugate(rotation, m) for m in moves]) == rotated_then_moved


@given(seeds, st.sampled_from(orientations()))
def test_normalisation_is_rotation_invariant_and_idempotent(seed, rotation):
    state = random_pocket_state(random.Random(seed))
    held = state.apply(rotation)
    found = normalise(held.facelets)
    assert found.facelets == state.facelets
    assert held.apply(found.rotation) == state
    assert normalise(found.facelets).facelets == found.facelets and normalise(found.facelets).rotation == ()


@given(seeds, face_move_lists)
def test_normalised_moves_map_back_to_the_cube_as_held(seed, moves):
    held = random_pocket_state(random.Random(seed), held_any_way=True)
    found = normalise(held.facelets)
    user = found.user_moves(moves)
    assert all(not m.is_rotation for m in user)
    after = normalise(held.apply(user).facelets).facelets
    assert after == normalise(PocketState(found.facelets).apply(moves).facelets).facelets
    if all(m.face in "URF" for m in moves):
        assert after == PocketState(found.facelets).apply(moves).facelets


def test_solved_cube_held_any_way_is_solved_and_normalises_to_solved():
    for rotation in orientations():
        held = PocketState.solved().apply(rotation)
        assert held.is_solved
        assert normalise(held.facelets).facelets == SOLVED
    assert not PocketState.solved().apply("R").is_solved
    assert set(FACES) == set(SOLVED)
