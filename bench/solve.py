"""Solution length and speed of qbr's solver next to plain ``kociemba.solve``, in the same run.

    python bench/solve.py [--n 1000] [--seed 1] [--near-n 30] [--budget 1] [--budget-n 100] [--cpu-n 0]

Prints Markdown tables: (0) the two-phase tables: build time, load time from the cache, cache size;
(1) uniformly random legal states: lengths (half-turn metric), times, and how many answers really solve the cube
when applied with qbr's simulator (kociemba's raw answers are checked too; its row is left out when the optional
package is not installed); (2) budget mode on the first ``--budget-n`` of those cubes, with qbr's own search alone
and with kociemba beside it; (3) nearly solved cubes from 1-10 move scrambles: qbr's length vs kociemba's vs the
scramble's. "CPU % of wall" is the CPU time this process got over the wall time it waited (kociemba's child
process not counted): well below 100 means other work shared the core.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import tempfile
import time
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from qbr.cube.conventions import SOLVED
from qbr.cube.cubie import CubieCube
from qbr.cube.errors import QbrError
from qbr.cube.generate import random_scramble, random_state
from qbr.cube.moves import format_moves, parse_moves
from qbr.cube.state import CubeState
from qbr.solve import solver
from qbr.solve.solver import default_cache_dir, kociemba_answer, solve
from qbr.solve.twophase import search as search_module
from qbr.solve.twophase.cache import load_tables, shared_tables
from qbr.solve.twophase.search import two_phase
from qbr.solve.twophase.tables import build_tables


@dataclass
class Tally:
    """Lengths, times and verification count of one solver over a set of cubes."""

    name: str
    lengths: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    cpu_seconds: list[float] = field(default_factory=list)
    verified: int = 0

    def row(self) -> str:
        ms = sorted(1000 * s for s in self.seconds)
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        return (
            f"| {self.name} | {len(self.lengths)} | {self.verified} | {statistics.mean(self.lengths):.2f} | "
            f"{statistics.median(self.lengths):g} | {max(self.lengths)} | {statistics.median(ms):.1f} | {p95:.1f} | "
            f"{100 * sum(self.cpu_seconds) / sum(self.seconds):.0f} |"
        )


def _solves(facelets: str, answer: str) -> tuple[int, bool]:
    try:
        moves = parse_moves(answer)
    except QbrError:
        return 0, False
    return len(moves), CubeState(facelets).apply(moves).facelets == SOLVED


def _timed(fn: Callable[[], str]) -> tuple[str, float, float]:
    """The answer, wall seconds, and this process's CPU seconds (a shared machine gives less than a core)."""
    start, cpu = time.perf_counter(), time.process_time()
    answer = fn()
    return answer, time.perf_counter() - start, time.process_time() - cpu


def _measure(cubes: Sequence[str], budget: float = 0.0, with_kociemba: bool = True, name: str = "") -> tuple[
        Tally, Tally]:
    ours, theirs = Tally(name or (f"qbr solve --budget {budget:g}" if budget else "qbr solve")), Tally(
        "kociemba.solve")
    for facelets in cubes:
        # Alternate which runs first so neither always meets a cold cache.
        runs = [("qbr", lambda f=facelets: solve(f, budget=budget).notation)]
        if with_kociemba:
            runs.append(("kociemba", lambda f=facelets: kociemba_answer(f)))
        if len(ours.lengths) % 2:
            runs.reverse()
        for who, fn in runs:
            answer, seconds, cpu = _timed(fn)
            length, ok = _solves(facelets, answer)
            tally = ours if who == "qbr" else theirs
            tally.lengths.append(length)
            tally.seconds.append(seconds)
            tally.cpu_seconds.append(cpu)
            tally.verified += ok
    return ours, theirs


def _tables_row() -> None:
    started, cpu = time.perf_counter(), time.process_time()
    build_tables()
    build, build_cpu = time.perf_counter() - started, time.process_time() - cpu
    with tempfile.TemporaryDirectory() as scratch:
        load_tables(Path(scratch))  # builds and writes
        started = time.perf_counter()
        _, report = load_tables(Path(scratch))
        load = time.perf_counter() - started
        size = report.path.stat().st_size
    print("### Two-phase tables\n")
    print("| build s | build CPU s | load from cache ms | cache MB |")
    print("|---|---|---|---|")
    print(f"| {build:.2f} | {build_cpu:.2f} | {1000 * load:.0f} | {size / 1e6:.1f} |\n")


def _cpu_budget_row(cubes: Sequence[str], budget: float) -> str:
    """The two-phase search alone with a deadline in this process's CPU time (its clock swapped for the run)."""
    tables, _ = shared_tables(default_cache_dir())
    clock = search_module.time
    search_module.time = types.SimpleNamespace(monotonic=time.process_time)  # type: ignore[assignment]
    tally = Tally(f"two-phase search alone, {budget:g} s of CPU")
    try:
        for facelets in cubes:
            def run(f: str = facelets) -> str:
                moves = two_phase(CubieCube.from_facelets(f), tables, deadline=time.process_time() + budget)
                return format_moves(moves or ())

            answer, seconds, cpu = _timed(run)
            length, ok = _solves(facelets, answer)
            tally.lengths.append(length)
            tally.seconds.append(seconds)
            tally.cpu_seconds.append(cpu)
            tally.verified += ok
    finally:
        search_module.time = clock
    return tally.row()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="random states (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--near-n", type=int, default=30, help="scrambles per length 1-10 (default 30; 0 skips them)")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds per cube in the budget rows (default 1)")
    parser.add_argument("--budget-n", type=int, default=100, help="cubes in the budget rows; 0 skips them")
    parser.add_argument("--cpu-n", type=int, default=0,
                        help="cubes in a row where the own search gets --budget seconds of CPU, not of wall time "
                             "(what a budget buys on an idle core); default 0 skips it")
    args = parser.parse_args(argv)
    has_kociemba = importlib.util.find_spec("kociemba") is not None

    _tables_row()
    rng = random.Random(args.seed)
    # Warm up: tables loaded, kociemba's tables read.
    shared_tables(default_cache_dir())
    solve(random_state(random.Random(0)).facelets)
    if has_kociemba:
        kociemba_answer(random_state(random.Random(0)).facelets)

    cubes = [random_state(rng).facelets for _ in range(args.n)]
    ours, theirs = _measure(cubes, with_kociemba=has_kociemba)
    print(f"### Random legal states (seed {args.seed})\n")
    print("| solver | cubes | verified | mean moves | median | max | median ms | p95 ms | CPU % of wall |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(ours.row())
    if has_kociemba:
        print(theirs.row())
    if args.budget_n > 0:
        budget_cubes = cubes[: args.budget_n]
        fast, _ = _measure(budget_cubes, with_kociemba=False, name=f"qbr solve (same {len(budget_cubes)} cubes)")
        print(fast.row())
        installed = solver.kociemba_installed
        solver.kociemba_installed = lambda: False  # type: ignore[assignment]
        try:
            alone, _ = _measure(budget_cubes, budget=args.budget, with_kociemba=False,
                                name=f"qbr solve --budget {args.budget:g}, own search only")
        finally:
            solver.kociemba_installed = installed  # type: ignore[assignment]
        print(alone.row())
        if has_kociemba:
            both, _ = _measure(budget_cubes, budget=args.budget, with_kociemba=False,
                               name=f"qbr solve --budget {args.budget:g}, kociemba beside it")
            print(both.row())

    if args.cpu_n > 0:
        print(_cpu_budget_row(cubes[: args.cpu_n], args.budget))

    if args.near_n <= 0:
        return
    print("\n### Nearly solved cubes (moves in the half-turn metric)\n")
    print("| scramble moves | cubes | qbr mean | qbr max | qbr <= scramble | qbr median ms | kociemba mean | "
          "kociemba max | verified |")
    print("|---|---|---|---|---|---|---|---|---|")
    for length in range(1, 11):
        cubes = [CubeState.solved().apply(random_scramble(rng, length)).facelets for _ in range(args.near_n)]
        ours, theirs = _measure(cubes, with_kociemba=has_kociemba)
        within = sum(n <= length for n in ours.lengths)
        kociemba_cells = (f"{statistics.mean(theirs.lengths):.2f} | {max(theirs.lengths)}" if has_kociemba
                          else "- | -")
        print(
            f"| {length} | {len(cubes)} | {statistics.mean(ours.lengths):.2f} | {max(ours.lengths)} | "
            f"{within}/{len(cubes)} | {1000 * statistics.median(ours.seconds):.1f} | {kociemba_cells} | "
            f"{ours.verified}+{theirs.verified}/{len(cubes) * (1 + has_kociemba)} |"
        )


if __name__ == "__main__":
    main()
