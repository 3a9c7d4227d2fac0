"""`qbr solve` and `qbr show` for the 2x2 through the real command line: output, JSON, metrics, exit codes, fuzzing."""

import functools
import json
import random
import string

import pytest
from cli_runner import run_cli as run
from cli_runner import run_cli_json as run_json

from qbr import cli
from qbr.app.commands import pocket as pocket_command
from qbr.cli import ExitStatus
from qbr.cube.moves import parse_moves
from qbr.cube.pocket.generate import random_pocket_state
from qbr.cube.pocket.state import PocketState
from qbr.solve.pocket.costs import SAMPLE, load_costs
from qbr.solve.pocket.solver import PocketSolver

# The 3x3's keys (tests/app/test_cli_solve.py), and what only a 2x2 answer has.
POCKET_KEYS = {"facelets", "solution", "moves", "length_htm", "length_qtm", "steps", "orientation", "language",
               "method", "size", "metric"}


@pytest.fixture
def one_parser(monkeypatch):
    monkeypatch.setattr(cli, "build_parser", functools.cache(cli.build_parser))


@pytest.fixture(scope="module")
def tables():
    return PocketSolver.build().tables


@pytest.fixture(autouse=True)
def tables_built_once(monkeypatch, tables):
    """Each command builds its solver; here they share one set of tables (half a second a build saved)."""
    monkeypatch.setattr(pocket_command.PocketSolver, "build", classmethod(lambda cls: cls(tables)))


def test_solve_24_letters_prints_a_verified_solution(tmp_path):
    cube = PocketState.from_scramble("R U2 F' R")
    status, out, err = run(["solve", cube.facelets], tmp_path)
    assert status == ExitStatus.OK and err == ""
    lines = out.splitlines()
    assert lines[0] == f"Cube: {cube.facelets}"
    assert lines[1] == "Solution (4 moves, 5 quarter turns):"
    assert cube.apply(lines[2]).is_solved
    assert "Hold the cube as it was given: its U face on top and its F face towards you." in lines
    assert lines[-1].startswith("4. ")


def test_scramble_json_has_the_3x3_keys_and_the_metric(tmp_path):
    status, data = run_json(["solve", "--size", "2", "--scramble", "x2 R U y F'"], tmp_path)
    assert status == ExitStatus.OK and set(data) == POCKET_KEYS
    assert data["size"] == 2 and data["metric"] == "htm" and data["length_htm"] == 3
    held = PocketState.from_scramble("x2 R U y F'")
    assert data["facelets"] == held.facelets and held.apply(data["solution"]).is_solved
    assert len(data["steps"]) == 3


def test_colour_initials_and_lower_case_are_accepted(tmp_path):
    held = PocketState.from_scramble("R F").facelets
    typed = " ".join(held[i : i + 4] for i in range(0, 24, 4)).translate(str.maketrans("URFDLB", "wrgyob"))
    status, data = run_json(["solve", typed], tmp_path)
    assert status == ExitStatus.OK and data["facelets"] == held and data["solution"] == "F' R'"


def test_quarter_turn_metric(tmp_path):
    cube = PocketState.from_scramble("R2 U F2 R' U2")
    _, htm = run_json(["solve", cube.facelets], tmp_path)
    status, qtm = run_json(["solve", cube.facelets, "--metric", "qtm"], tmp_path)
    assert status == ExitStatus.OK and qtm["metric"] == "qtm"
    assert qtm["length_qtm"] <= htm["length_qtm"] and cube.apply(qtm["solution"]).is_solved


def test_robot_metric_with_the_sample_and_a_costs_file(tmp_path):
    cube = random_pocket_state(random.Random(3), held_any_way=True)
    status, data = run_json(["solve", cube.facelets, "--metric", "robot"], tmp_path)
    assert status == ExitStatus.OK and set(data) == POCKET_KEYS | {"cost"}
    sample = load_costs(SAMPLE)
    moves = cube.apply(data["solution"])
    assert moves.is_solved
    _, htm = run_json(["solve", cube.facelets], tmp_path)
    assert data["cost"] <= sample.cost(parse_moves(htm["solution"])) + 1e-9
    costs = json.loads(SAMPLE.read_text(encoding="utf-8"))
    costs["regrip"] = 0
    path = tmp_path / "costs.json"
    path.write_text(json.dumps(costs))
    status, out, _ = run(["solve", cube.facelets, "--costs", str(path)], tmp_path)
    assert status == ExitStatus.OK and "Robot cost:" in out


def test_bad_costs_files_are_bad_input_files(tmp_path):
    path = tmp_path / "costs.json"
    path.write_text('{"format": "qbr-robot-costs", "version": 1, "moves": {}, "regrip": 1}')
    status, data = run_json(["solve", "--size", "2", "--scramble", "R", "--costs", str(path)], tmp_path)
    assert status == ExitStatus.BAD_INPUT_FILE and data["error"]["kind"] == "bad_costs"
    assert "lacks U" in data["error"]["message"]
    status, _, err = run(["solve", "--size", "2", "--scramble", "R", "--costs", str(tmp_path)], tmp_path)
    assert status == ExitStatus.BAD_INPUT_FILE and "not a regular file" in err


def test_usage_errors(tmp_path):
    assert run(["solve", "--size", "2", "--scramble", "R", "--metric", "qtm", "--costs", "x"], tmp_path)[0] == (
        ExitStatus.USAGE
    )
    assert run(["solve", "--scramble", "R", "--metric", "qtm"], tmp_path)[0] == ExitStatus.USAGE
    assert run(["solve", "--size", "4", "--scramble", "R"], tmp_path)[0] == ExitStatus.USAGE
    status, data = run_json(["solve", "--size", "2", "--scramble", "R Q"], tmp_path)
    assert status == ExitStatus.USAGE and data["error"]["kind"] == "bad_move"


def test_impossible_2x2_names_the_corner_in_the_users_language(tmp_path):
    twisted = PocketState.solved().facelets
    twisted = "UUU" + "F" + "U" + twisted[5:9] + "R" + twisted[10:]  # URF turned: U4=F, R1=U, F2=R
    status, data = run_json(["solve", twisted], tmp_path)
    assert status == ExitStatus.INVALID_CUBE and data["error"]["kind"] == "corner_twist"
    assert data["problems"][0]["facelets"] == [3, 4, 9] and "URF" in data["problems"][0]["message"]
    status, out, err = run(["solve", twisted, "--lang", "de"], tmp_path)
    assert status == ExitStatus.INVALID_CUBE and out == "" and "URF" in err and "twisted" not in err
    assert run(["solve", "--size", "3", PocketState.solved().facelets], tmp_path)[0] == ExitStatus.INVALID_CUBE


def test_show_draws_the_2x2_net(tmp_path):
    cube = PocketState.from_scramble("R")
    status, out, err = run(["show", cube.facelets], tmp_path)
    assert status == ExitStatus.OK and err == ""
    side = "L L  F D  R R  U B"
    assert out.splitlines() == ["     U F", "     U F", side, side, "     D B", "     D B"]
    status, out, _ = run(["show", cube.facelets], tmp_path, isatty=True)
    assert status == ExitStatus.OK and out.count("\x1b[48;5;") == 24
    status, data = run_json(["show", "UUUURRRRFFFFDDDDLLLLBBBU"], tmp_path)
    assert status == ExitStatus.INVALID_CUBE and data["valid"] is False and data["size"] == 2
    assert len(data["net"]) == 6 and data["problems"][0]["kind"] == "colour_count"


def test_fuzz_2x2_never_crashes_and_always_prints_json(tmp_path, one_parser):
    rng = random.Random(7)
    legal = [random_pocket_state(rng, held_any_way=True).facelets for _ in range(10)]
    statuses = set()
    for i in range(1500):
        if i % 5 == 0:
            chars = list(rng.choice(legal))
            for _ in range(rng.randrange(1, 3)):
                # A changed sticker (never the same letter again): solvable results would only rebuild the tables.
                where = rng.randrange(24)
                chars[where] = rng.choice([c for c in "URFDLBWQ" if c != chars[where]])
            text = "".join(chars)
        else:
            text = "".join(rng.choice(rng.choice(["URFDLB", "ABCDEF", string.printable])) for _ in range(24))
        status, out, _ = run(["solve", "--size", "2", text, "--json"], tmp_path)
        data = json.loads(out)
        statuses.add(status)
        if status == ExitStatus.OK:
            assert PocketState(data["facelets"]).apply(data["solution"]).is_solved
        else:
            assert data["error"]["kind"]
    assert ExitStatus.INVALID_CUBE in statuses


def test_fuzz_show_any_length(tmp_path, one_parser):
    rng = random.Random(8)
    for _ in range(500):
        text = "".join(rng.choice("ABCDEFWR@é ") for _ in range(rng.randrange(0, 30)))
        status, data = run_json(["show", "--size", "2", text], tmp_path)
        assert status in (ExitStatus.OK, ExitStatus.INVALID_CUBE) and len(data["net"]) == 6
