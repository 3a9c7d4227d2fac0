"""`qbr solve` and `qbr show` through the real command line: output, JSON, exit codes, and fuzzing."""

import functools
import json
import random
import string

import pytest
from cli_runner import run_cli as run
from cli_runner import run_cli_json as run_json

from qbr import cli
from qbr.cli import ExitStatus
from qbr.cube.conventions import SOLVED
from qbr.cube.cubie import CubieCube
from qbr.cube.generate import random_scramble, random_state
from qbr.cube.moves import format_moves, parse_moves
from qbr.cube.state import CubeState

SOLUTION_KEYS = {"facelets", "solution", "moves", "length_htm", "length_qtm", "steps", "orientation", "language",
                 "method"}


def _swap(facelets, *pairs):
    chars = list(facelets)
    for i, j in pairs:
        chars[i], chars[j] = chars[j], chars[i]
    return "".join(chars)


def test_solve_by_facelets_prints_the_solution_and_steps(tmp_path):
    cube = CubeState.from_scramble("R U2 F' D L B2")
    status, out, err = run(["solve", cube.facelets], tmp_path)
    assert status == ExitStatus.OK and err == ""
    lines = out.splitlines()
    assert lines[0] == f"Cube: {cube.facelets}"
    assert lines[1] == "Solution (6 moves, 8 quarter turns):"
    assert cube.apply(lines[2]).facelets == SOLVED
    assert "Hold the cube with the green centre facing you and the white centre on top." in lines
    assert lines[-6].startswith("1. ") and lines[-1].startswith("6. ")


def test_solve_by_scramble_json(tmp_path):
    status, data = run_json(["solve", "--scramble", "R U R' U' F2"], tmp_path)
    assert status == ExitStatus.OK
    assert set(data) == SOLUTION_KEYS
    assert data["facelets"] == CubeState.from_scramble("R U R' U' F2").facelets
    assert data["solution"] == "F2 U R U' R'" and data["moves"] == ["F2", "U", "R", "U'", "R'"]
    assert (data["length_htm"], data["length_qtm"]) == (5, 6)
    assert len(data["steps"]) == 5 and data["steps"][0] == "Turn the front face a half turn."
    assert data["language"] == "en" and data["method"] == "optimal_search"


def test_solved_cube(tmp_path):
    status, out, _ = run(["solve", SOLVED], tmp_path)
    assert status == ExitStatus.OK and "already solved" in out
    status, data = run_json(["solve", "--scramble", ""], tmp_path)
    assert status == ExitStatus.OK and data["moves"] == [] and data["steps"] == []


def test_scramble_with_whole_cube_rotations_is_solved_as_now_held(tmp_path):
    status, data = run_json(["solve", "--scramble", "y R"], tmp_path)
    assert status == ExitStatus.OK
    assert data["solution"] == "R'"
    assert data["orientation"] == "Hold the cube with the red centre facing you and the white centre on top."


def test_colour_letters_are_accepted_and_name_the_colours(tmp_path):
    cube = CubeState.from_scramble("F R")
    typed = cube.facelets.translate(str.maketrans("URFDLB", "WRGYOB")).lower()
    status, data = run_json(["solve", typed], tmp_path)
    assert status == ExitStatus.OK and data["facelets"] == cube.facelets and data["solution"] == "R' F'"
    # Another scheme: what the user typed decides the colours in the orientation sentence.
    odd = cube.facelets.translate(str.maketrans("URFDLB", "YRBWOG"))
    status, data = run_json(["solve", odd], tmp_path)
    assert status == ExitStatus.OK
    assert data["orientation"] == "Hold the cube with the blue centre facing you and the yellow centre on top."


def test_bad_scramble_token_is_a_usage_error(tmp_path):
    status, out, err = run(["solve", "--scramble", "R U Q2"], tmp_path)
    assert status == ExitStatus.USAGE and out == ""
    assert "'Q2' at position 3" in err
    status, data = run_json(["solve", "--scramble", "R U Q2"], tmp_path)
    assert status == ExitStatus.USAGE and data["error"]["kind"] == "bad_move" and data["facelets"] is None


def test_facelets_and_scramble_together_or_neither_is_a_usage_error(tmp_path):
    assert run(["solve", SOLVED, "--scramble", "R"], tmp_path)[0] == ExitStatus.USAGE
    status, data = run_json(["solve"], tmp_path)
    assert status == ExitStatus.USAGE and data["error"]["kind"] == "usage"


_Z8, _Z12 = (0,) * 8, (0,) * 12
INVALID = {
    "bad_length": SOLVED[:53],
    "bad_characters": SOLVED[:10] + "Q" + SOLVED[11:],
    "colour_count": SOLVED[:-1] + "U",
    "centres": _swap(SOLVED, (4, 13)),
    "impossible_corner": _swap(SOLVED, (9, 20)),
    "impossible_edge": _swap(SOLVED, (10, 7)),
    "duplicate_corner": CubieCube((0, 0, 2, 2, 4, 5, 6, 7), _Z8, tuple(range(12)), _Z12).to_facelets(),
    "duplicate_edge": CubieCube(tuple(range(8)), _Z8, (0, 0, 2, 3, 5, 5, 6, 7, 8, 9, 10, 11), _Z12).to_facelets(),
    "corner_twist": SOLVED[:8] + "F" + "U" + SOLVED[10:20] + "R" + SOLVED[21:],
    "edge_flip": _swap(SOLVED, (5, 10)),
    "parity": _swap(SOLVED, (5, 7), (10, 19)),
}


@pytest.mark.parametrize("kind", sorted(INVALID))
def test_each_invalid_kind_is_reported_in_json(kind, tmp_path):
    status, data = run_json(["solve", INVALID[kind]], tmp_path)
    assert status == ExitStatus.INVALID_CUBE
    assert data["error"]["kind"] == kind
    assert data["problems"][0]["kind"] == kind
    assert data["problems"][0]["message"]
    assert all(isinstance(i, int) and 0 <= i < 54 for p in data["problems"] for i in p["facelets"])
    assert data["facelets"] is not None


def test_invalid_cube_in_text_mode_says_what_is_wrong_on_stderr(tmp_path):
    status, out, err = run(["solve", INVALID["edge_flip"]], tmp_path)
    assert status == ExitStatus.INVALID_CUBE and out == ""
    assert "Edge UR is flipped" in err  # the translated message (en), not the exception text


def test_problems_are_translated_in_json(tmp_path):
    status, data = run_json(["solve", INVALID["edge_flip"], "--lang", "de"], tmp_path)
    assert status == ExitStatus.INVALID_CUBE
    assert data["problems"][0]["message"] == "Die Kante UR ist gekippt: Drehe sie um."


def test_unknown_language_is_a_usage_error(tmp_path):
    status, data = run_json(["solve", SOLVED, "--lang", "xx"], tmp_path)
    assert status == ExitStatus.USAGE and data["error"]["kind"] == "unknown_language"
    assert "zh-Hans" in data["error"]["message"]


def test_language_comes_from_the_system_unless_given(tmp_path):
    status, data = run_json(["solve", "--scramble", "R"], tmp_path, system_language="ja_JP")
    assert status == ExitStatus.OK and data["language"] == "ja"
    assert data["steps"] == ["右の面を手前へ 90 度回してください。"]
    _, data = run_json(["solve", "--scramble", "R", "--lang", "zh_TW"], tmp_path, system_language="ja_JP")
    assert data["language"] == "zh-Hant"
    _, data = run_json(["solve", "--scramble", "R"], tmp_path, system_language="pt_BR")
    assert data["language"] == "en"


def test_budget_option(tmp_path):
    cube = random_state(random.Random(4))
    status, data = run_json(["solve", cube.facelets, "--budget", "0.5"], tmp_path)
    assert status == ExitStatus.OK and cube.apply(data["solution"]).facelets == SOLVED
    assert run(["solve", cube.facelets, "--budget", "-1"], tmp_path)[0] == ExitStatus.USAGE


def test_show_plain_and_colour(tmp_path):
    cube = CubeState.from_scramble("R")
    status, out, err = run(["show", cube.facelets], tmp_path)
    assert status == ExitStatus.OK and err == "" and "\x1b[" not in out
    lines = out.splitlines()
    assert lines[0] == "       U U F"
    assert lines[3] == "L L L  F F D  R R R  U B B"
    assert len(lines) == 9
    status, out, _ = run(["show", cube.facelets], tmp_path, isatty=True)
    assert status == ExitStatus.OK and "\x1b[48;5;" in out
    assert out.count(" U ") == 9  # every U sticker, wherever R moved it


def test_show_json_and_invalid_cubes_are_still_drawn(tmp_path):
    status, data = run_json(["show", SOLVED], tmp_path)
    assert status == ExitStatus.OK
    assert data["valid"] is True and data["problems"] == [] and data["facelets"] == SOLVED
    assert data["net"][4] == "L L L  F F F  R R R  B B B"
    status, out, err = run(["show", INVALID["corner_twist"]], tmp_path)
    assert status == ExitStatus.INVALID_CUBE and len(out.splitlines()) == 9 and "twisted" in err
    status, data = run_json(["show", "UUU\x1b[31m"], tmp_path)
    assert status == ExitStatus.INVALID_CUBE and data["valid"] is False
    assert data["error"]["kind"] == "bad_length"
    assert all("\x1b" not in line for line in data["net"])


def test_random_legal_states_are_solved(tmp_path):
    rng = random.Random(2024)
    for _ in range(200):
        cube = random_state(rng)
        status, data = run_json(["solve", cube.facelets], tmp_path)
        assert status == ExitStatus.OK
        assert cube.apply(parse_moves(data["solution"])).facelets == SOLVED
        assert data["length_htm"] == len(data["moves"]) <= 24


def test_short_scrambles_get_solutions_no_longer_than_the_scramble(tmp_path):
    rng = random.Random(7)
    for length in range(1, 8):
        for _ in range(15):
            scramble = format_moves(random_scramble(rng, length))
            status, data = run_json(["solve", "--scramble", scramble], tmp_path)
            assert status == ExitStatus.OK
            assert data["length_htm"] <= length
            assert CubeState.from_scramble(scramble).apply(data["solution"]).facelets == SOLVED


@pytest.fixture
def one_parser(monkeypatch):
    """Build the argument parser once: it costs milliseconds, and the fuzz tests run main thousands of times."""
    monkeypatch.setattr(cli, "build_parser", functools.cache(cli.build_parser))


def _fuzz_strings(rng: random.Random, n: int):
    alphabets = [
        "URFDLB",
        "URFDLBurfdlb",
        "WYROGBwyrogb",
        string.printable,
        "URFDLB -'2xyz\t\n",
        "".join(chr(c) for c in range(0x20, 0x2FF)) + "中文العربية\u200b\u0301\x00\x1b",
    ]
    legal = [random_state(rng).facelets for _ in range(20)]
    for i in range(n):
        if i % 10 == 0:
            # Nearly legal cubes: a real state with a few stickers changed reaches the deeper checks.
            chars = list(rng.choice(legal))
            for _ in range(rng.randrange(1, 4)):
                chars[rng.randrange(54)] = rng.choice("URFDLB")
            yield "".join(chars)
        else:
            alphabet = rng.choice(alphabets)
            length = rng.choice([rng.randrange(0, 61), 54, 54])
            yield "".join(rng.choice(alphabet) for _ in range(length))


def test_fuzz_solve_never_crashes_and_always_prints_json(tmp_path, one_parser):
    rng = random.Random(99)
    statuses = set()
    for text in _fuzz_strings(rng, 10_000):
        status, out, _ = run(["solve", text, "--json"], tmp_path)
        data = json.loads(out)
        statuses.add(status)
        if status == ExitStatus.OK:
            assert CubeState(data["facelets"]).apply(data["solution"]).facelets == SOLVED
        else:
            assert data["error"]["kind"]
    assert ExitStatus.INVALID_CUBE in statuses


def test_fuzz_scrambles(tmp_path, one_parser):
    rng = random.Random(5)
    tokens = ["R", "U'", "F2", "x", "y'", "z2", "D2'", "L’", "B", "Q", "R3", "'", "2", "  ", "rw", "M", "É", "\x00"]
    for _ in range(1000):
        text = "".join(rng.choice(tokens) + rng.choice(["", " "]) for _ in range(rng.randrange(0, 12)))
        status, out, _ = run(["solve", "--scramble", text, "--json"], tmp_path)
        data = json.loads(out)
        assert status in (ExitStatus.OK, ExitStatus.USAGE), (text, data)
        if status == ExitStatus.OK:
            assert CubeState(data["facelets"]).apply(data["solution"]).facelets == SOLVED


def test_invalid_cube_in_text_mode_is_translated(tmp_path):
    status, _, err = run(["solve", INVALID["edge_flip"], "--lang", "de"], tmp_path)
    assert status == ExitStatus.INVALID_CUBE
    assert "UR" in err and "edge UR is flipped" not in err
