"""The 2x2x2 solver: table build time, solves per second against a bidirectional breadth-first search, robot check.

    python bench/pocket.py [--n 10000] [--bfs-n 200] [--robot-n 1000] [--repeats 3] [--seed 1]

Prints Markdown tables: (1) building the move and distance tables (median of ``--repeats``); (2) solving the same
random cubes (held any way) with qbr one at a time, qbr in one batch, and a thesis-style bidirectional breadth-first
search with a hash table per side (this file only), with the speed ratio and whether every answer solves the cube
on the facelet simulator and is as short as the table says; (3) the robot metric on ``--robot-n`` cubes with the
sample costs: the weighted search's cost against the cost of the half-turn-optimal answer under the same costs.
"""

from __future__ import annotations

import argparse
import operator
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from qbr.cube.moves import Move, facelet_permutation
from qbr.cube.pocket.conventions import SIZE, SOLVED
from qbr.cube.pocket.generate import random_pocket_state
from qbr.cube.pocket.normalise import normalise
from qbr.cube.pocket.state import PocketState
from qbr.cube.pocket.validate import require_valid
from qbr.solve.pocket.batch import solve_many
from qbr.solve.pocket.coordinates import MOVES, MoveTables
from qbr.solve.pocket.costs import SAMPLE, load_costs
from qbr.solve.pocket.solver import PocketSolver
from qbr.solve.pocket.tables import DistanceTables, distances


def _median_seconds(fn: Callable[[], Any], repeats: int) -> tuple[tuple[float, float], Any]:
    """Median wall-clock and CPU seconds of ``fn`` (CPU time is steadier on a shared machine), and its result."""
    wall, cpu, result = [], [], None
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return (statistics.median(wall), statistics.median(cpu)), result


class BidirectionalBfs:
    """The thesis's solver: breadth-first from the cube and from solved at once, a hash table of states per side.

    States are normalised facelet strings; the smaller side grows by a whole layer at a time, and the shortest
    path through any state both sides have reached is the answer (optimal in the half-turn metric).
    """

    def __init__(self) -> None:
        self._turns = [operator.itemgetter(*facelet_permutation(m, SIZE)) for m in MOVES]
        self._inverse = [MOVES.index(m.inverse()) for m in MOVES]

    def _grow(self, frontier: list[str], seen: dict[str, tuple[str, int] | None]) -> list[str]:
        following = []
        for state in frontier:
            for column, turn in enumerate(self._turns):
                after = "".join(turn(state))
                if after not in seen:
                    seen[after] = (state, column)
                    following.append(after)
        return following

    def solve(self, normalised: str) -> list[Move]:
        ahead: dict[str, tuple[str, int] | None] = {normalised: None}
        behind: dict[str, tuple[str, int] | None] = {SOLVED: None}
        front, back = [normalised], [SOLVED]
        meet = normalised if normalised in behind else None
        while meet is None:
            if len(front) <= len(back):
                front = self._grow(front, ahead)
                layer = front
            else:
                back = self._grow(back, behind)
                layer = back
            # Every state of the new layer is as deep as any other on its side: the first meeting is shortest.
            meet = next((s for s in layer if s in ahead and s in behind), None)
        path: list[Move] = []
        state = meet
        while (step := ahead[state]) is not None:
            state, column = step
            path.append(MOVES[column])
        path.reverse()
        state = meet
        while (step := behind[state]) is not None:
            state, column = step
            path.append(MOVES[self._inverse[column]])
        return path


def _build_table(repeats: int) -> list[str]:
    moves_s, moves = _median_seconds(MoveTables.build, repeats)
    htm_s, _ = _median_seconds(lambda: distances(moves), repeats)
    tables = DistanceTables(moves, distances(moves))
    qtm_s, _ = _median_seconds(tables.quarter_turn_distances, repeats)
    solver_s, _ = _median_seconds(PocketSolver.build, repeats)
    return [
        "| step | wall s (median) | CPU s (median) |",
        "|---|---|---|",
        f"| move tables (5040 x 9 and 729 x 9) | {moves_s[0]:.3f} | {moves_s[1]:.3f} |",
        f"| HTM distance table (3,674,160 states) | {htm_s[0]:.3f} | {htm_s[1]:.3f} |",
        f"| QTM distance table (on request) | {qtm_s[0]:.3f} | {qtm_s[1]:.3f} |",
        f"| PocketSolver.build (move + HTM tables, lookups) | {solver_s[0]:.3f} | {solver_s[1]:.3f} |",
    ]


def _throughput(solver: PocketSolver, cubes: list[str], bfs_n: int) -> list[str]:
    rows = [
        "| solver | cubes | solves/s | solves/CPU-s | verified | optimal | mean HTM | x BFS (wall) | x BFS (CPU) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    depth = {c: int(solver.tables.htm[solver.state_of(normalise(c))]) for c in cubes}

    def check(answers: list[tuple[str, tuple[Move, ...]]]) -> tuple[int, int, float]:
        verified = sum(1 for c, moves in answers if PocketState(c).apply(moves).is_solved)
        optimal = sum(1 for c, moves in answers if len(moves) == depth[c])
        return verified, optimal, statistics.mean(len(m) for _, m in answers)

    bfs = BidirectionalBfs()
    few = cubes[:bfs_n]

    def bfs_solve() -> list[tuple[str, tuple[Move, ...]]]:
        answers = []
        for cube in few:
            normalised = normalise(require_valid(cube).letters)
            answers.append((cube, normalised.user_moves(bfs.solve(normalised.facelets))))
        return answers

    runs = [
        (f"bidirectional BFS + hash tables (first {len(few)})", bfs_solve),
        ("qbr PocketSolver.solve, one at a time", lambda: [(c, solver.solve(c).moves) for c in cubes]),
        ("qbr solve_many, one batch", lambda: [(s.facelets, s.moves) for s in solve_many(solver, cubes)]),
    ]
    timed = []
    for name, run in runs:
        (wall, cpu), answers = _median_seconds(run, 1)
        timed.append((name, answers, len(answers) / wall, len(answers) / cpu))
    bfs_rate, bfs_cpu_rate = timed[0][2], timed[0][3]
    for name, answers, rate, cpu_rate in timed[1:] + timed[:1]:
        verified, optimal, mean = check(answers)
        rows.append(
            f"| {name} | {len(answers)} | {rate:,.0f} | {cpu_rate:,.0f} | {verified} | {optimal} | {mean:.2f} | "
            f"{rate / bfs_rate:,.1f} | {cpu_rate / bfs_cpu_rate:,.1f} |"
        )
    return rows


def _robot(solver: PocketSolver, cubes: list[str]) -> list[str]:
    costs = load_costs(SAMPLE)
    never_dearer = 0
    robot_costs, htm_costs, lengths = [], [], []
    start = time.perf_counter()
    robot = [solver.solve(c, "robot", costs) for c in cubes]
    rate = len(cubes) / (time.perf_counter() - start)
    for cube, answer in zip(cubes, robot, strict=True):
        plain = costs.cost(solver.solve(cube).moves)
        assert PocketState(cube).apply(answer.moves).is_solved
        never_dearer += answer.cost is not None and answer.cost <= plain + 1e-9
        robot_costs.append(answer.cost or 0.0)
        htm_costs.append(plain)
        lengths.append(answer.length_htm)
    saving = 1 - sum(robot_costs) / sum(htm_costs)
    return [
        "| cubes | robot cost <= HTM answer's cost | mean robot cost | mean HTM answer's cost | saving | "
        "mean robot HTM length | robot solves/s |",
        "|---|---|---|---|---|---|---|",
        f"| {len(cubes)} | {never_dearer}/{len(cubes)} | {statistics.mean(robot_costs):.3f} | "
        f"{statistics.mean(htm_costs):.3f} | {100 * saving:.1f}% | {statistics.mean(lengths):.2f} | {rate:,.0f} |",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10_000, help="random cubes for solves per second")
    parser.add_argument("--bfs-n", type=int, default=200, help="of those, how many the bidirectional BFS solves")
    parser.add_argument("--robot-n", type=int, default=1000, help="random cubes for the robot-metric check")
    parser.add_argument("--repeats", type=int, default=3, help="table builds to take the median of")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cubes = [random_pocket_state(rng, held_any_way=True).facelets for _ in range(max(args.n, args.robot_n))]
    print("#### Tables\n")
    print("\n".join(_build_table(args.repeats)))
    solver = PocketSolver.build()
    print(f"\n#### Solving {args.n} random cubes held any way (seed {args.seed})\n")
    print("\n".join(_throughput(solver, cubes[: args.n], args.bfs_n)))
    print(f"\n#### Robot metric, sample costs ({SAMPLE.name}), {args.robot_n} random cubes\n")
    print("\n".join(_robot(solver, cubes[: args.robot_n])))


if __name__ == "__main__":
    main()
