"""The robot metric: costs files read strictly, and the weighted search exact (never dearer than the HTM answer)."""

import heapq
import json
import math
import os
import random

import pytest

from qbr.cube.moves import ALL_FACE_MOVES, parse_moves
from qbr.cube.pocket.generate import random_pocket_state
from qbr.cube.pocket.normalise import normalise
from qbr.cube.pocket.state import PocketState
from qbr.solve.errors import RobotCostsError
from qbr.solve.pocket.coordinates import MOVES, TWISTS
from qbr.solve.pocket.costs import MAX_FILE_BYTES, SAMPLE, RobotCosts, load_costs, parse_costs
from qbr.solve.pocket.search import projected_costs


def costs_data(**changes):
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    data.update(changes)
    return data


def test_the_sample_file_loads_and_names_every_move():
    costs = load_costs(SAMPLE)
    assert set(costs.moves) == {str(m) for m in ALL_FACE_MOVES} and costs.regrip == 1.2
    moves = parse_moves("R U R' F")
    assert costs.cost(moves) == pytest.approx(0.8 + 0.9 + 0.8 + 0.8 + 3 * 1.2)
    assert costs.cost(parse_moves("R R2")) == pytest.approx(0.8 + 1.3)
    assert costs.cost(()) == 0


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "other"}, "not a costs file"),
        ({"version": 2}, "not a costs file"),
        ({"moves": []}, '"moves" must be an object'),
        ({"regrip": -1}, '"regrip" must be a number'),
        ({"regrip": True}, '"regrip" must be a number'),
        ({"regrip": "1"}, '"regrip" must be a number'),
    ],
)
def test_bad_fields_are_named(change, words):
    with pytest.raises(RobotCostsError, match=words):
        parse_costs(costs_data(**change), "costs.json")


@pytest.mark.parametrize(("name", "value", "words"), [
    ("R", 0, "cost of R must be"), ("U2", -1, "cost of U2"), ("F'", math.nan, "cost of F'"),
    ("B", math.inf, "cost of B"), ("D", "fast", "cost of D"), ("L2", None, "cost of L2"), ("U", 2e6, "cost of U"),
])
def test_bad_move_costs_are_named(name, value, words):
    data = costs_data()
    data["moves"][name] = value
    with pytest.raises(RobotCostsError, match=words):
        parse_costs(data, "costs.json")


def test_missing_and_unknown_moves_are_named():
    data = costs_data()
    del data["moves"]["R'"]
    with pytest.raises(RobotCostsError, match="lacks R'"):
        parse_costs(data, "costs.json")
    data = costs_data()
    data["moves"]["x"] = 1
    with pytest.raises(RobotCostsError, match="unknown move x"):
        parse_costs(data, "costs.json")


def test_files_are_read_bounded_and_only_if_regular(tmp_path):
    with pytest.raises(RobotCostsError, match="no such file"):
        load_costs(tmp_path / "absent.json")
    with pytest.raises(RobotCostsError, match="not a regular file"):
        load_costs(tmp_path)
    big = tmp_path / "big.json"
    big.write_text(" " * (MAX_FILE_BYTES + 1))
    with pytest.raises(RobotCostsError, match="too large"):
        load_costs(big)
    broken = tmp_path / "broken.json"
    broken.write_text(SAMPLE.read_text(encoding="utf-8")[:100])
    with pytest.raises(RobotCostsError, match="not valid JSON"):
        load_costs(broken)
    for junk, why in (("[" * 50_000, "nested more than"), ('{"regrip": ' + "9" * 5000 + "}", "number 5000 char")):
        broken.write_text(junk)
        with pytest.raises(RobotCostsError, match=why):
            load_costs(broken)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RobotCostsError, match="UTF-8"):
        load_costs(binary)
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo"
        os.mkfifo(fifo)
        with pytest.raises(RobotCostsError, match="not a regular file"):
            load_costs(fifo)


def _dijkstra(solver, state, costs, regrip):
    """Cheapest cost by plain Dijkstra (no heuristic) over (state, face last turned)."""
    heap = [(0.0, state, -1)]
    best = {(state, -1): 0.0}
    lookup = solver._lookup
    while heap:
        spent, s, last = heapq.heappop(heap)
        if spent > best[(s, last)]:
            continue
        if s == 0:
            return spent
        for column, move in enumerate(MOVES):
            face = "URF".index(move.face)
            total = spent + costs[column] + (regrip if last not in (-1, face) else 0.0)
            key = (lookup.after(s, column), face)
            if total < best.get(key, math.inf):
                best[key] = total
                heapq.heappush(heap, (total, *key))
    raise AssertionError("unreachable")


def _uneven_costs(rng):
    moves = {str(m): round(rng.uniform(0.5, 3.0), 2) for m in ALL_FACE_MOVES}
    return RobotCosts(moves, round(rng.uniform(0.0, 3.0), 2))


def test_weighted_search_is_never_dearer_than_the_htm_answer_and_is_verified(pocket_solver):
    rng = random.Random(11)
    for _ in range(40):
        costs = _uneven_costs(rng)
        held = random_pocket_state(rng, held_any_way=True).facelets
        robot = pocket_solver.solve(held, "robot", costs)
        plain = pocket_solver.solve(held, "htm")
        assert PocketState(held).apply(robot.moves).is_solved
        assert robot.cost == pytest.approx(costs.cost(robot.moves))
        assert robot.cost <= costs.cost(plain.moves) + 1e-9


def test_weighted_search_is_exact_on_shallow_states(pocket_solver):
    rng = random.Random(12)
    for i in range(40):
        # Every fourth case has one face a hundred times dearer (and a scramble without it, so that plain
        # Dijkstra stays quick): the per-coordinate bounds then do the work.
        dear = i % 4 == 0
        costs = _uneven_costs(rng) if not dear else RobotCosts(
            {str(m): 100.0 if m.face in "FB" else 1.0 for m in ALL_FACE_MOVES}, rng.uniform(0, 2)
        )
        scramble = [rng.choice(MOVES[:6] if dear else MOVES) for _ in range(rng.randrange(1, 6))]
        held = PocketState.solved().apply(scramble).facelets
        normalised = normalise(held)
        column_costs = [costs.moves[str(m)] for m in normalised.user_moves(MOVES)]
        expected = _dijkstra(pocket_solver, pocket_solver.state_of(normalised), column_costs, costs.regrip)
        assert pocket_solver.solve(held, "robot", costs).cost == pytest.approx(expected)


def test_coordinate_bounds_never_exceed_the_true_cost(pocket_solver):
    rng = random.Random(13)
    moves = pocket_solver.tables.moves
    for _ in range(20):
        costs = [rng.uniform(0.5, 5.0) for _ in MOVES]
        regrip = rng.uniform(0, 5)
        perm = projected_costs(moves.perm, costs, regrip)
        twist = projected_costs(moves.twist, costs, regrip)
        state = pocket_solver.state_of(normalise(PocketState.solved().apply(
            [rng.choice(MOVES) for _ in range(4)]).facelets))
        true = _dijkstra(pocket_solver, state, costs, regrip)
        p, t = divmod(state, TWISTS)
        assert perm[p][0] <= true + 1e-9 and twist[t][0] <= true + 1e-9
        assert perm[0] == twist[0] == (0.0, 0.0, 0.0, 0.0)


def test_a_dear_regrip_buys_fewer_face_changes(pocket_solver):
    # R U R' U': four HTM moves, three regrips; with regrips dear enough the robot may take more turns to avoid them.
    held = PocketState.from_scramble("R U R' U'").facelets
    cheap = {str(m): 1.0 for m in ALL_FACE_MOVES}
    plain = pocket_solver.solve(held, "robot", RobotCosts(cheap, 0.0))
    dear = pocket_solver.solve(held, "robot", RobotCosts(cheap, 50.0))
    assert plain.length_htm == 4 and plain.cost == 4.0
    changes = sum(1 for a, b in zip(dear.moves, dear.moves[1:], strict=False) if a.face != b.face)
    assert dear.cost == len(dear.moves) + 50.0 * changes and dear.cost <= 4 + 3 * 50.0
