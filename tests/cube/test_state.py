"""CubeState: faces, solved detection (in any orientation), applying moves given as text or Move objects."""

import pytest

from qbr.cube.conventions import SOLVED
from qbr.cube.errors import MoveSyntaxError
from qbr.cube.moves import Move, parse_moves
from qbr.cube.state import CubeState


def test_solved():
    cube = CubeState.solved()
    assert cube.facelets == SOLVED and cube.is_solved
    assert cube.face("F") == "F" * 9 and cube.face("B") == "B" * 9


def test_apply_text_or_moves_alike():
    text = "R U R' U' F2 x D'"
    assert CubeState.solved().apply(text) == CubeState.solved().apply(parse_moves(text))
    assert CubeState.from_scramble(text) == CubeState.solved().apply(text)
    assert not CubeState.from_scramble(text).is_solved


def test_sexy_move_six_times_is_identity():
    assert CubeState.from_scramble("R U R' U' " * 6).facelets == SOLVED


def test_rotated_solved_cube_counts_as_solved():
    turned = CubeState.from_scramble("x y2 z'")
    assert turned.is_solved and turned.facelets != SOLVED


def test_face_reads_net_rows():
    cube = CubeState.from_scramble("F")
    # F turns the U face's bottom row to the L face's right column.
    assert cube.face("U") == "UUUUUULLL"
    assert cube.face("R") == "URRURRURR"
    with pytest.raises(ValueError):
        cube.face("X")


def test_bad_scramble_raises_move_syntax_error():
    with pytest.raises(MoveSyntaxError):
        CubeState.from_scramble("R U Q")


def test_apply_needs_54_facelets():
    with pytest.raises(ValueError):
        CubeState("UUU").apply([Move("R", 1)])
    assert not CubeState("UUU").is_solved
