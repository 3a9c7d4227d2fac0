"""The solver: validation first, every answer verified, short answers for nearly solved cubes, budget mode."""

import random
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from qbr.cube.conventions import SOLVED
from qbr.cube.errors import InvalidCubeError
from qbr.cube.generate import random_scramble, random_state
from qbr.cube.moves import parse_moves
from qbr.cube.state import CubeState
from qbr.solve import solver
from qbr.solve.errors import SolveError
from qbr.solve.solver import Solution, solve


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
    assert solution.method == "two_phase"
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
def test_invalid_cubes_never_reach_a_search(facelets, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a search was started for an invalid cube")

    monkeypatch.setattr(solver, "two_phase", refuse)
    monkeypatch.setattr(solver, "optimal_solution", refuse)
    with pytest.raises(InvalidCubeError):
        solve(facelets)


def test_a_wrong_answer_is_an_error_not_a_solution(monkeypatch):
    def wrong(cube, tables, *, on_solution, **kwargs):
        on_solution(parse_moves("R U"))

    monkeypatch.setattr(solver, "two_phase", wrong)
    with pytest.raises(SolveError) as info:
        solve(random_state(random.Random(1)))
    assert "does not solve" in str(info.value)


def test_a_search_that_finds_nothing_is_a_solve_error(monkeypatch):
    monkeypatch.setattr(solver, "two_phase", lambda *a, **k: None)
    with pytest.raises(SolveError):
        solve(random_state(random.Random(2)))


def test_solving_from_several_threads_at_once():
    cubes = [random_state(random.Random(100 + i)) for i in range(12)]
    cubes += [CubeState.solved().apply(random_scramble(random.Random(i), 6)) for i in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        solutions = list(pool.map(solve, cubes))
    assert all(_solves(s) for s in solutions)
    assert [s.facelets for s in solutions] == [c.facelets for c in cubes]


def test_budget_mode_never_does_worse_reports_progress_and_keeps_time():
    rng = random.Random(11)
    for cube in [random_state(rng) for _ in range(2)]:
        fast = solve(cube)
        found: list[Solution] = []
        started = time.monotonic()
        slow = solve(cube, budget=0.5, on_progress=found.append)
        assert time.monotonic() - started < 3.0  # the budget plus stopping the search and the child process
        assert _solves(slow)
        assert slow.length_htm <= fast.length_htm
        assert found and all(_solves(s) for s in found)
        lengths = [s.length_htm for s in found]
        assert lengths == sorted(set(lengths), reverse=True)
        assert slow.length_htm <= lengths[-1]


def test_scrambles_of_up_to_ten_turns_get_no_longer_solutions():
    rng = random.Random(3)
    for length in (8, 9, 10):
        for _ in range(4):
            cube = CubeState.solved().apply(random_scramble(rng, length))
            solution = solve(cube)
            assert solution.method == "optimal_search" and solution.length_htm <= length and _solves(solution)


def test_kociemba_is_not_needed(monkeypatch):
    monkeypatch.setattr(solver, "kociemba_installed", lambda: False)
    solution = solve(random_state(random.Random(4)), budget=0.2)
    assert solution.method == "two_phase" and _solves(solution)


def test_worker_emits_ever_shorter_kociemba_solutions():
    pytest.importorskip("kociemba")
    from qbr.solve.worker import search_shorter

    cube = CubeState.solved().apply(random_scramble(random.Random(5), 10))
    found: list[str] = []
    search_shorter(cube.facelets, found.append)
    lengths = [len(parse_moves(a)) for a in found]
    assert lengths == sorted(set(lengths), reverse=True)
    assert lengths[-1] <= 10
    for answer in found:
        assert cube.apply(answer).facelets == SOLVED


def test_worker_child_ends_when_its_parent_lets_go():
    pytest.importorskip("kociemba")
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
