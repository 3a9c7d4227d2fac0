"""The 2x2 solver: complete tables with the known distance histograms, and every solution optimal and verified."""

import random
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qbr.cube.conventions import FACES
from qbr.cube.errors import InvalidCubeError
from qbr.cube.moves import Move
from qbr.cube.pocket.conventions import SOLVED
from qbr.cube.pocket.cubie import PocketCubie
from qbr.cube.pocket.generate import random_pocket_cubie, random_pocket_state
from qbr.cube.pocket.normalise import normalise
from qbr.cube.pocket.state import PocketState
from qbr.solve.pocket.batch import solve_many
from qbr.solve.pocket.coordinates import MOVES, QUARTER_MOVES, STATES, coordinate
from qbr.solve.pocket.search import descend_many
from qbr.solve.pocket.tables import histogram

seeds = st.integers(min_value=0, max_value=2**32)

HTM_HISTOGRAM = [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]
QTM_HISTOGRAM = [1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276]


def test_half_turn_histogram_is_the_known_one(pocket_solver):
    assert histogram(pocket_solver.tables.htm) == HTM_HISTOGRAM
    assert sum(HTM_HISTOGRAM) == STATES == 3_674_160


def test_quarter_turn_histogram_is_the_known_one(quarter_turn_distances):
    assert histogram(quarter_turn_distances) == QTM_HISTOGRAM
    assert len(QTM_HISTOGRAM) - 1 == 14


@given(seeds)
def test_coordinates_are_in_range_and_distinct_for_distinct_cubes(seed):
    rng = random.Random(seed)
    a, b = random_pocket_cubie(rng), random_pocket_cubie(rng)
    assert 0 <= coordinate(a) < STATES
    assert (coordinate(a) == coordinate(b)) == (a == b)


def test_move_tables_agree_with_cubie_multiplication(pocket_solver):
    rng = random.Random(5)
    moves = pocket_solver.tables.moves
    for _ in range(200):
        cubie = random_pocket_cubie(rng)
        state = coordinate(cubie)
        following = moves.neighbours(np.array([state]))[0]
        for column, move in enumerate(MOVES):
            assert following[column] == coordinate(cubie.multiply(PocketCubie.of_move(move)))
    assert coordinate(PocketCubie()) == 0


def _bfs(moves, depth):
    """Distance of every state within ``depth`` of solved, by breadth-first search over facelet strings."""
    seen = {SOLVED: 0}
    queue = deque([SOLVED])
    while queue:
        facelets = queue.popleft()
        if seen[facelets] == depth:
            continue
        for move in moves:
            following = PocketState(facelets).apply([move]).facelets
            if following not in seen:
                seen[following] = seen[facelets] + 1
                queue.append(following)
    return seen


def test_shallow_states_get_the_shortest_solutions_a_plain_search_finds(pocket_solver):
    near = _bfs(MOVES, 4)
    assert len(near) == sum(HTM_HISTOGRAM[:5])
    for facelets, distance in near.items():
        solution = pocket_solver.solve(facelets)
        assert solution.length_htm == distance, facelets
        assert PocketState(facelets).apply(solution.moves).facelets == SOLVED


def test_shallow_states_get_the_fewest_quarter_turns(pocket_solver):
    near = _bfs([MOVES[c] for c in QUARTER_MOVES], 5)
    assert len(near) == sum(QTM_HISTOGRAM[:6])
    for facelets, distance in near.items():
        assert pocket_solver.solve(facelets, "qtm").length_qtm == distance, facelets


@settings(max_examples=60)
@given(seeds, st.permutations(list("WYRGOB")))
def test_random_cubes_held_any_way_are_solved_optimally_in_their_own_frame(pocket_solver, seed, letters):
    held = random_pocket_state(random.Random(seed), held_any_way=True)
    typed = "".join(dict(zip(FACES, letters, strict=True))[c] for c in held.facelets)
    solution = pocket_solver.solve(typed)
    state = pocket_solver.state_of(normalise(solution.facelets))
    assert solution.length_htm == pocket_solver.tables.htm[state] <= 11
    assert not any(m.is_rotation for m in solution.moves)
    assert PocketState(solution.facelets).apply(solution.moves).is_solved
    quarter = pocket_solver.solve(typed, "qtm")
    assert PocketState(quarter.facelets).apply(quarter.moves).is_solved
    assert quarter.length_qtm <= solution.length_qtm and quarter.length_qtm <= 14


def test_cube_held_upside_down_is_solved_with_the_faces_it_shows(pocket_solver):
    # x2 brings the D-B-L corner to UFL, then U takes it to ULB: the solution turns the three other faces.
    held = PocketState.from_scramble("x2 R U")
    solution = pocket_solver.solve(held.facelets)
    assert solution.length_htm == 2
    assert {m.face for m in solution.moves} <= {"D", "R", "F"}
    assert held.apply(solution.moves).is_solved


def test_solved_cubes_need_no_moves(pocket_solver):
    assert pocket_solver.solve(SOLVED).moves == ()
    assert pocket_solver.solve(PocketState.from_scramble("y z'").facelets, "qtm").moves == ()


def test_impossible_cubes_are_refused(pocket_solver):
    twisted = PocketCubie(tuple(range(8)), (1, 0, 0, 0, 0, 0, 0, 0)).to_facelets()
    with pytest.raises(InvalidCubeError) as error:
        pocket_solver.solve(twisted)
    assert error.value.kind == "corner_twist"


def test_batch_descent_matches_single_descent(pocket_solver):
    rng = random.Random(3)
    cubies = [random_pocket_cubie(rng) for _ in range(300)]
    states = np.array([coordinate(c) for c in cubies])
    rows = descend_many(pocket_solver.tables, states)
    for cubie, row in zip(cubies, rows, strict=True):
        moves = [MOVES[c] for c in row if c >= 0]
        assert PocketState(cubie.to_facelets()).apply(moves).facelets == SOLVED
        assert len(moves) == pocket_solver.tables.htm[coordinate(cubie)]
    assert Move("U", 1) == MOVES[0]


def test_batch_solutions_are_the_single_solutions(pocket_solver):
    rng = random.Random(4)
    cubes = [random_pocket_state(rng, held_any_way=True).facelets for _ in range(300)]
    cubes += ["WWWWRRRRGGGGYYYYOOOOBBBB", SOLVED, PocketState.from_scramble("x R").facelets.lower()]
    batch = solve_many(pocket_solver, cubes)
    for cube, solution in zip(cubes, batch, strict=True):
        assert solution.moves == pocket_solver.solve(cube).moves
        assert PocketState(pocket_solver.solve(cube).facelets).apply(solution.moves).is_solved
    twisted = PocketCubie(tuple(range(8)), (0, 2, 0, 0, 0, 0, 0, 0)).to_facelets()
    with pytest.raises(InvalidCubeError):
        solve_many(pocket_solver, [SOLVED, twisted])
