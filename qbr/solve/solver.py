"""Solving a cube: which engine runs, and never with a cube that failed validation.

Cubes a few turns from solved get an optimal answer from the short-range search; every other cube gets qbr's own
two-phase search (``qbr.solve.twophase``), which needs no compiler. With a budget, that search goes on looking
for shorter solutions until the deadline; if the optional ``kociemba`` package is installed, its deepening
search runs beside it in a child process, and the shortest answer of either wins. Every solution returned has
been applied to the cube with qbr's own simulator and solves it.
"""

from __future__ import annotations

import importlib.util
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import platformdirs

from qbr.cube.conventions import SOLVED
from qbr.cube.cubie import CubieCube
from qbr.cube.errors import QbrError
from qbr.cube.moves import Move, format_moves, parse_moves
from qbr.cube.state import CubeState
from qbr.cube.validate import require_valid
from qbr.solve.errors import SolveError
from qbr.solve.move_sequence import MoveSequence
from qbr.solve.search import MAX_DEPTH, optimal_solution
from qbr.solve.twophase.cache import shared_tables
from qbr.solve.twophase.search import two_phase
from qbr.solve.worker import DONE

METHODS: Final = ("already_solved", "optimal_search", "two_phase", "kociemba")

MAX_BUDGET: Final = 86_400.0
"""Longer budgets (even infinite ones) are cut to a day: waits need finite timeouts."""

FIRST_SOLUTION_SECONDS: Final = 60.0
"""The two-phase search finds a first solution in well under a second; past this something is wrong."""

Progress = Callable[["Solution"], None]
"""Called with each shorter verified solution as a budgeted solve finds it (from the solving thread)."""

# kociemba loads its tables on the first call without a guard; one call at a time in this process.
_KOCIEMBA_LOCK: Final = threading.Lock()


@dataclass(frozen=True)
class Solution(MoveSequence):
    """A verified solution of ``facelets``; ``method`` says how it was found (one of ``METHODS``)."""

    facelets: str
    moves: tuple[Move, ...]
    method: str


def _solves(facelets: str, moves: tuple[Move, ...]) -> bool:
    return CubeState(facelets).apply(moves).facelets == SOLVED


def _verified(facelets: str, moves: tuple[Move, ...], method: str) -> Solution:
    if not _solves(facelets, moves):
        raise SolveError(f"{method} answered '{format_moves(moves)}', which does not solve {facelets}")
    return Solution(facelets, moves, method)


def kociemba_answer(facelets: str) -> str:
    """kociemba's own default answer for a valid cube, unchecked (for benchmarks and the solver)."""
    import kociemba

    with _KOCIEMBA_LOCK:
        try:
            return kociemba.solve(facelets)
        except ValueError as error:
            raise SolveError(f"kociemba could not solve {facelets}: {error}") from error


def default_cache_dir() -> Path:
    """Where the two-phase tables are kept between runs (the user's cache directory)."""
    return Path(platformdirs.user_cache_dir("qbr"))


def kociemba_installed() -> bool:
    """True if the optional ``kociemba`` package can be imported (``pip install 'qbr[kociemba]'``)."""
    return importlib.util.find_spec("kociemba") is not None


def solve(
    facelets: str | CubeState,
    *,
    budget: float = 0.0,
    cache_dir: Path | None = None,
    on_progress: Progress | None = None,
) -> Solution:
    """A verified solution; with ``budget`` > 0 seconds, the shortest found in that time.

    ``cache_dir`` holds the two-phase tables (default: the user's cache directory). Raises InvalidCubeError
    (from validation) for a cube that cannot exist, SolveError if no solver's answer solves it (a bug, reported
    rather than hidden).
    """
    started = time.monotonic()
    budget = min(budget, MAX_BUDGET)
    text = facelets.facelets if isinstance(facelets, CubeState) else facelets
    cube = require_valid(text).facelets
    if cube == SOLVED:
        return Solution(cube, (), "already_solved")
    worker = _Worker.start(cube, budget) if budget > 0 and kociemba_installed() else None
    try:
        cache_dir = cache_dir or default_cache_dir()
        short = optimal_solution(cube, MAX_DEPTH, cache_dir=cache_dir)
        if short is not None:
            return _verified(cube, short, "optimal_search")
        best = _two_phase(cube, started + budget, cache_dir, on_progress)
        if worker is not None:
            best = worker.improve(best, deadline=started + budget)
        return best
    finally:
        if worker is not None:
            worker.stop()


def _two_phase(cube: str, deadline: float, cache_dir: Path, on_progress: Progress | None) -> Solution:
    """The shortest verified two-phase solution found by ``deadline``, or the first one if none was by then."""
    tables, _ = shared_tables(cache_dir)
    cubies = CubieCube.from_facelets(cube)
    best: Solution | None = None

    def found(moves: tuple[Move, ...]) -> None:
        nonlocal best
        solution = _verified(cube, moves, "two_phase")
        if best is None or solution.length_htm < best.length_htm:
            best = solution
            if on_progress is not None:
                on_progress(solution)

    two_phase(cubies, tables, deadline=deadline, on_solution=found)
    if best is None:
        two_phase(cubies, tables, deadline=time.monotonic() + FIRST_SOLUTION_SECONDS, on_solution=found,
                  first_only=True)
    if best is None:
        raise SolveError(f"the two-phase search found no solution of {cube}")
    return best


class _Worker:
    """A child process searching ever shorter solutions; killed at the deadline, whatever it is doing."""

    def __init__(self, cube: str, process: subprocess.Popen[str]) -> None:
        self.cube = cube
        self._process = process
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        # A thread turns the pipe into a queue, so waiting for a line can time out on every platform.
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    @classmethod
    def start(cls, cube: str, budget: float) -> _Worker | None:
        env = dict(os.environ)
        # The child must import this very qbr, even when it is not installed but found through sys.path.
        root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
        try:
            process = subprocess.Popen(
                # The child also ends itself a little after the budget, or when our end of its stdin closes.
                [sys.executable, "-m", "qbr.solve.worker", cube, str(budget + 5.0)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                env=env,
            )
        except OSError:
            return None
        return cls(cube, process)

    def _read(self) -> None:
        stdout = self._process.stdout
        if stdout is not None:
            try:
                for line in stdout:
                    self._lines.put(line.strip())
            except (OSError, ValueError):
                pass
        self._lines.put(None)

    def improve(self, best: Solution, deadline: float) -> Solution:
        """The shortest verified answer received before ``deadline`` (or before the child finished), and any
        already waiting when it has passed."""
        while True:
            left = deadline - time.monotonic()
            try:
                answer = self._lines.get(timeout=left) if left > 0 else self._lines.get_nowait()
            except queue.Empty:
                break
            if answer is None or answer == DONE:
                break
            try:
                moves = parse_moves(answer)
            except QbrError:
                continue
            if len(moves) < best.length_htm and _solves(self.cube, moves):
                best = Solution(self.cube, moves, "kociemba")
        return best

    def stop(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        self._reader.join()
        if self._process.stdout is not None:
            self._process.stdout.close()
