"""Solution length and speed of qbr's solver next to plain ``kociemba.solve``, in the same run.

    python bench/solve.py [--n 1000] [--seed 1] [--near-n 50] [--budget 2] [--budget-n 20]

Prints Markdown tables: (1) uniformly random legal states: lengths (half-turn metric), times, and how many
answers really solve the cube when applied with qbr's simulator (kociemba's raw answers are checked too);
(2) nearly solved cubes from 1-8 move scrambles: qbr's length vs kociemba's vs the scramble's; (3) budget mode.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import kociemba

from qbr.cube.conventions import SOLVED
from qbr.cube.errors import QbrError
from qbr.cube.generate import random_scramble, random_state
from qbr.cube.moves import parse_moves
from qbr.cube.state import CubeState
from qbr.solve.solver import solve


@dataclass
class Tally:
    """Lengths, times and verification count of one solver over a set of cubes."""

    name: str
    lengths: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    verified: int = 0

    def row(self) -> str:
        ms = sorted(1000 * s for s in self.seconds)
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        return (
            f"| {self.name} | {len(self.lengths)} | {self.verified} | {statistics.mean(self.lengths):.2f} | "
            f"{statistics.median(self.lengths):g} | {max(self.lengths)} | {statistics.median(ms):.1f} | {p95:.1f} |"
        )


def _solves(facelets: str, answer: str) -> tuple[int, bool]:
    try:
        moves = parse_moves(answer)
    except QbrError:
        return 0, False
    return len(moves), CubeState(facelets).apply(moves).facelets == SOLVED


def _timed(fn: Callable[[], str]) -> tuple[str, float]:
    start = time.perf_counter()
    answer = fn()
    return answer, time.perf_counter() - start


def _measure(cubes: Sequence[str], budget: float = 0.0, with_kociemba: bool = True) -> tuple[Tally, Tally]:
    name = f"qbr solve --budget {budget:g}" if budget else "qbr solve"
    ours, theirs = Tally(name), Tally("kociemba.solve")
    for facelets in cubes:
        # Alternate which runs first so neither always meets a cold cache.
        runs = [("qbr", lambda f=facelets: solve(f, budget=budget).notation)]
        if with_kociemba:
            runs.append(("kociemba", lambda f=facelets: kociemba.solve(f)))
        if len(ours.lengths) % 2:
            runs.reverse()
        for who, fn in runs:
            answer, seconds = _timed(fn)
            length, ok = _solves(facelets, answer)
            tally = ours if who == "qbr" else theirs
            tally.lengths.append(length)
            tally.seconds.append(seconds)
            tally.verified += ok
    return ours, theirs


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="random states (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--near-n", type=int, default=50, help="scrambles per length 1-8 (default 50)")
    parser.add_argument("--budget", type=float, default=2.0, help="seconds per cube in the budget row (default 2)")
    parser.add_argument("--budget-n", type=int, default=20, help="cubes in the budget row; 0 skips it (default 20)")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    # Warm up: kociemba loads its tables and qbr builds its short-range table on first use.
    solve(CubeState.from_scramble("R U F").facelets)
    solve(random_state(random.Random(0)).facelets)

    cubes = [random_state(rng).facelets for _ in range(args.n)]
    ours, theirs = _measure(cubes)
    print(f"### Random legal states (seed {args.seed})\n")
    print("| solver | cubes | verified | mean moves | median | max | median ms | p95 ms |")
    print("|---|---|---|---|---|---|---|---|")
    print(ours.row())
    print(theirs.row())
    if args.budget_n > 0:
        budget_cubes = cubes[: args.budget_n]
        fast, _ = _measure(budget_cubes, with_kociemba=False)
        slow, _ = _measure(budget_cubes, budget=args.budget, with_kociemba=False)
        fast.name = f"qbr solve (same {len(budget_cubes)} cubes)"
        print(fast.row())
        print(slow.row())

    print("\n### Nearly solved cubes (moves in the half-turn metric)\n")
    print("| scramble moves | cubes | qbr mean | qbr max | qbr <= scramble | kociemba mean | kociemba max | verified |")
    print("|---|---|---|---|---|---|---|---|")
    for length in range(1, 9):
        cubes = [CubeState.solved().apply(random_scramble(rng, length)).facelets for _ in range(args.near_n)]
        ours, theirs = _measure(cubes)
        within = sum(n <= length for n in ours.lengths)
        print(
            f"| {length} | {len(cubes)} | {statistics.mean(ours.lengths):.2f} | {max(ours.lengths)} | "
            f"{within}/{len(cubes)} | {statistics.mean(theirs.lengths):.2f} | {max(theirs.lengths)} | "
            f"{ours.verified}+{theirs.verified}/{2 * len(cubes)} |"
        )


if __name__ == "__main__":
    main()
