"""Solving a cube: the only module of qbr that calls kociemba, and never with a cube that failed validation.

Every solution returned has been applied to the cube with qbr's own simulator and solves it.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from qbr.cube.conventions import SOLVED
from qbr.cube.errors import QbrError
from qbr.cube.moves import Move, format_moves, htm, parse_moves, qtm
from qbr.cube.state import CubeState
from qbr.cube.validate import require_valid
from qbr.solve.errors import SolveError
from qbr.solve.search import MAX_DEPTH, optimal_solution
from qbr.solve.worker import DONE

METHODS: Final = ("already_solved", "optimal_search", "kociemba", "kociemba_budget")

BUDGET_SEARCH_DEPTH: Final = 8
"""With a budget of at least ``BUDGET_DEEP_SEARCH`` seconds, the optimal search reaches this far (about 0.2 s)."""

BUDGET_DEEP_SEARCH: Final = 0.5

MAX_BUDGET: Final = 86_400.0
"""Longer budgets (even infinite ones) are cut to a day: waits need finite timeouts."""

# kociemba loads its tables on the first call without a guard; one call at a time in this process.
_KOCIEMBA_LOCK: Final = threading.Lock()


@dataclass(frozen=True)
class Solution:
    """A verified solution of ``facelets``; ``method`` says how it was found (one of ``METHODS``)."""

    facelets: str
    moves: tuple[Move, ...]
    method: str

    @property
    def length_htm(self) -> int:
        return htm(self.moves)

    @property
    def length_qtm(self) -> int:
        return qtm(self.moves)

    @property
    def notation(self) -> str:
        return format_moves(self.moves)


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


def _parse_answer(answer: str) -> tuple[Move, ...]:
    try:
        return parse_moves(answer)
    except QbrError as error:
        raise SolveError(f"kociemba answered '{answer}', which is not a move sequence") from error


def solve(facelets: str | CubeState, *, budget: float = 0.0) -> Solution:
    """A verified solution; with ``budget`` > 0 seconds, also look that long for a shorter one.

    Raises InvalidCubeError (from validation) for a cube that cannot exist, SolveError if no solver's answer
    solves it (a bug, reported rather than hidden).
    """
    started = time.monotonic()
    budget = min(budget, MAX_BUDGET)
    text = facelets.facelets if isinstance(facelets, CubeState) else facelets
    cube = require_valid(text).facelets
    if cube == SOLVED:
        return Solution(cube, (), "already_solved")
    worker = _Worker.start(cube, budget) if budget > 0 else None
    try:
        deep = budget >= BUDGET_DEEP_SEARCH
        short = optimal_solution(cube, BUDGET_SEARCH_DEPTH if deep else MAX_DEPTH)
        if short is not None:
            return _verified(cube, short, "optimal_search")
        best = _verified(cube, _parse_answer(kociemba_answer(cube)), "kociemba")
        if worker is not None:
            best = worker.improve(best, deadline=started + budget)
        return best
    finally:
        if worker is not None:
            worker.stop()


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
        """The shortest verified answer received before ``deadline`` (or before the child finished)."""
        while (left := deadline - time.monotonic()) > 0:
            try:
                answer = self._lines.get(timeout=left)
            except queue.Empty:
                break
            if answer is None or answer == DONE:
                break
            try:
                moves = parse_moves(answer)
            except QbrError:
                continue
            if len(moves) < best.length_htm and _solves(self.cube, moves):
                best = Solution(self.cube, moves, "kociemba_budget")
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
