"""The solver: validation first, every answer verified, short answers for nearly solved cubes, budget mode."""

import random
from concurrent.futures import ThreadPoolExecutor

import kociemba
import pytest

from qbr.cube.conventions import SOLVED
from qbr.cube.errors import InvalidCubeError
from qbr.cube.generate import random_scramble, random_state
from qbr.cube.moves import parse_moves
from qbr.cube.state import CubeState
from qbr.solve.errors import SolveError
from qbr.solve.solver import Solution, kociemba_answer, solve
from qbr.solve.worker import search_shorter


def _solves(solution: Solution) -> bool:
    return CubeState(solution.facelets).apply(solution.moves).facelets == SOLVED


def test_solved_cube_needs_no_moves():
    solution = solve(SOLVED)
    assert solution.moves == () and solution.method == "already_solved"
    assert solution.length_htm == 0 and solution.notation == ""


def test_nearly_solved_gets_the_optimal_answer_not_kociembas():
    cube = CubeState.from_scramble("R U F")
    solution = solve(cube)
    assert solution.notation == "F' U' R'"
    assert solution.method == "optimal_search"
    assert (solution.length_htm, solution.length_qtm) == (3, 3)


def test_colour_letters_are_accepted():
    cube = CubeState.from_scramble("R2 D")
    colours = cube.facelets.translate(str.maketrans("URFDLB", "WRGYOB"))
    solution = solve(colours)
    assert solution.facelets == cube.facelets and solution.notation == "D' R2"


@pytest.mark.parametrize("seed", range(40))
def test_random_states_are_solved_and_verified(seed):
    cube = random_state(random.Random(seed))
    solution = solve(cube.facelets)
    assert solution.method == "kociemba"
    assert _solves(solution)
    assert solution.length_htm <= 24
    assert solution.length_qtm >= solution.length_htm


@pytest.mark.parametrize(
    "facelets",
    [
        "",
        SOLVED + "U",  # kociemba accepts this and answers nonsense
        SOLVED[:4] + "R" + SOLVED[5:13] + "U" + SOLVED[14:],  # two centres swapped: kociemba answers, wrongly
        SOLVED.replace("U", "X", 1),
    ],
)
def test_invalid_cubes_never_reach_kociemba(facelets, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("kociemba called with an invalid cube")

    monkeypatch.setattr(kociemba, "solve", refuse)
    with pytest.raises(InvalidCubeError):
        solve(facelets)


def test_a_wrong_kociemba_answer_is_an_error_not_a_solution(monkeypatch):
    monkeypatch.setattr(kociemba, "solve", lambda *a, **k: "R U")
    cube = random_state(random.Random(1))
    with pytest.raises(SolveError) as info:
        solve(cube)
    assert "does not solve" in str(info.value)
    monkeypatch.setattr(kociemba, "solve", lambda *a, **k: "R Q")
    with pytest.raises(SolveError):
        solve(cube)


def test_kociemba_failure_is_a_solve_error(monkeypatch):
    def fail(*a, **k):
        raise ValueError("Error. Probably cubestring is invalid")

    monkeypatch.setattr(kociemba, "solve", fail)
    with pytest.raises(SolveError):
        kociemba_answer(random_state(random.Random(2)).facelets)


def test_solving_from_several_threads_at_once():
    cubes = [random_state(random.Random(100 + i)) for i in range(12)]
    cubes += [CubeState.solved().apply(random_scramble(random.Random(i), 6)) for i in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        solutions = list(pool.map(solve, cubes))
    assert all(_solves(s) for s in solutions)
    assert [s.facelets for s in solutions] == [c.facelets for c in cubes]


def test_budget_mode_never_does_worse_and_still_verifies():
    rng = random.Random(11)
    cubes = [random_state(rng) for _ in range(2)]
    for cube in cubes:
        fast = solve(cube)
        slow = solve(cube, budget=1.5)
        assert _solves(slow)
        assert slow.length_htm <= fast.length_htm
        assert slow.method in ("kociemba", "kociemba_budget")


def test_budget_mode_reaches_further_with_the_optimal_search():
    cube = CubeState.solved().apply(random_scramble(random.Random(3), 8))
    assert solve(cube).length_htm > 8 or solve(cube).method == "optimal_search"
    solution = solve(cube, budget=0.6)
    assert solution.length_htm <= 8 and _solves(solution)


def test_worker_emits_ever_shorter_solutions():
    cube = CubeState.solved().apply(random_scramble(random.Random(5), 10))
    found: list[str] = []
    search_shorter(cube.facelets, found.append)
    lengths = [len(parse_moves(a)) for a in found]
    assert lengths == sorted(set(lengths), reverse=True)
    assert lengths[-1] <= 10
    for answer in found:
        assert cube.apply(answer).facelets == SOLVED


def test_worker_child_ends_when_its_parent_lets_go():
    import subprocess
    import sys

    cube = random_state(random.Random(8)).facelets
    child = subprocess.Popen(
        [sys.executable, "-m", "qbr.solve.worker", cube, "600"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        first = child.stdout.readline().strip()
        assert CubeState(cube).apply(first).facelets == SOLVED
        child.stdin.close()  # as if the parent had died: the child must not search on for minutes
        assert child.wait(timeout=60) == 0
    finally:
        if child.poll() is None:
            child.kill()
        child.stdout.close()
