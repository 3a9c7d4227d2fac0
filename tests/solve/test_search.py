"""The short-range optimal search: solutions solve, are never longer than the scramble, and are shortest."""

import random

import pytest

from qbr.cube.conventions import SOLVED
from qbr.cube.generate import random_scramble, random_state
from qbr.cube.moves import ALL_FACE_MOVES, Move, invert
from qbr.cube.state import CubeState
from qbr.solve import search
from qbr.solve.solver import default_cache_dir


def optimal_solution(facelets, max_depth=search.MAX_DEPTH):
    return search.optimal_solution(facelets, max_depth, cache_dir=default_cache_dir())


def test_solved_needs_nothing():
    assert optimal_solution(SOLVED) == ()


@pytest.mark.parametrize("move", ALL_FACE_MOVES, ids=str)
def test_one_move_is_undone_by_its_inverse(move):
    cube = CubeState.solved().apply((move,))
    assert optimal_solution(cube.facelets) == (move.inverse(),)


@pytest.mark.parametrize("length", range(1, 11))
def test_scrambles_are_solved_no_longer_than_the_scramble(length):
    rng = random.Random(length)
    for _ in range(40 if length < 9 else 12):
        scramble = random_scramble(rng, length)
        cube = CubeState.solved().apply(scramble)
        solution = optimal_solution(cube.facelets)
        assert solution is not None
        assert cube.apply(solution).facelets == SOLVED
        assert len(solution) <= length
        # Shortest: nothing within one move less.
        if solution and length < 9:
            assert optimal_solution(cube.facelets, max_depth=len(solution) - 1) is None


def test_commuting_moves_are_found_short():
    cube = CubeState.solved().apply("R L R' L'")  # R and L commute: this is solved
    assert optimal_solution(cube.facelets) == ()
    cube = CubeState.solved().apply("U D U D")
    assert len(optimal_solution(cube.facelets)) == 2


def test_a_known_seven_mover():
    scramble = (Move("R", 1), Move("U", 1), Move("F", 2), Move("L", 3), Move("D", 1), Move("B", 2), Move("R", 2))
    cube = CubeState.solved().apply(scramble)
    solution = optimal_solution(cube.facelets)
    assert solution == invert(scramble)


def test_far_states_are_out_of_reach():
    rng = random.Random(7)
    for _ in range(5):
        assert optimal_solution(random_state(rng).facelets) is None
    assert optimal_solution(CubeState.solved().apply(random_scramble(rng, 5)).facelets, max_depth=3) is None
