"""Validation: each kind of impossible cube is reported as itself, specifically, and nothing ever crashes."""

import contextlib
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qbr.cube.conventions import CORNER_FACELETS, EDGE_FACELETS, SOLVED, STANDARD_SCHEME
from qbr.cube.cubie import CubieCube
from qbr.cube.errors import InvalidCubeError, QbrError
from qbr.cube.generate import random_cubie, random_state
from qbr.cube.state import CubeState
from qbr.cube.validate import Problem, ProblemKind, normalise_letters, require_valid, validate

seeds = st.integers(min_value=0, max_value=2**32)


def swap(facelets: str, i: int, j: int) -> str:
    out = list(facelets)
    out[i], out[j] = out[j], out[i]
    return "".join(out)


def kinds(facelets: str) -> list[str]:
    return [p.kind.value for p in validate(facelets)]


def only(facelets: str, kind: ProblemKind) -> Problem:
    problems = validate(facelets)
    assert [p.kind for p in problems] == [kind], [p.message for p in problems]
    return problems[0]


def test_problem_kind_values():
    assert [k.value for k in ProblemKind] == [
        "bad_length",
        "bad_characters",
        "colour_count",
        "centres",
        "impossible_corner",
        "impossible_edge",
        "duplicate_corner",
        "duplicate_edge",
        "corner_twist",
        "edge_flip",
        "parity",
        "colours",
    ]
    assert isinstance(ProblemKind.PARITY, str)


def test_real_cubes_are_valid():
    assert validate(SOLVED) == []
    assert validate(CubeState.from_scramble("R U R' U' F2 D L' B").facelets) == []


def test_wrong_length():
    problem = only(SOLVED + "U", ProblemKind.BAD_LENGTH)
    assert "55" in problem.message and "54" in problem.message
    assert problem.params["count"] == "55"
    assert only("", ProblemKind.BAD_LENGTH).params["count"] == "0"


def test_bad_characters_name_character_and_positions():
    facelets = "X" + SOLVED[1:20] + "x" + SOLVED[21:30] + "X" + SOLVED[31:]
    problems = validate(facelets)
    assert [p.kind for p in problems] == [ProblemKind.BAD_CHARACTERS] * 2
    big, small = problems
    assert "'X'" in big.message and "1 and 31" in big.message
    assert big.facelets == (0, 30) and big.params["positions"] == "1, 31"
    assert "'x'" in small.message and "position 21" in small.message


def test_length_and_characters_are_both_reported():
    assert kinds("?" + SOLVED) == ["bad_length", "bad_characters"]


def test_invisible_characters_are_shown_by_code():
    problem = validate(SOLVED[:53] + "\u00a0")[0]
    assert problem.params["character"] == "U+00A0" and "U+00A0" in problem.message


def test_colour_counts_name_colours_and_counts():
    facelets = SOLVED[:8] + "B" + SOLVED[9:]  # U9 painted blue
    problems = validate(facelets)
    assert [p.kind for p in problems] == [ProblemKind.COLOUR_COUNT] * 2
    assert "white (U) appears 8 times" in problems[0].message
    assert "blue (B) appears 10 times" in problems[1].message
    assert problems[1].params == {"colour": "blue", "face": "B", "count": "10", "expected": "9"}
    assert 8 in problems[1].facelets


def test_colour_names_are_used():
    facelets = SOLVED[:8] + "B" + SOLVED[9:]
    names = {"U": "weiß", "B": "blau"}
    messages = [p.message for p in validate(facelets, names)]
    assert "weiß (U) appears 8 times" in messages[0] and "blau (B)" in messages[1]


def test_two_centres_swapped():
    problems = validate(swap(SOLVED, 4, 22))  # U and F centres
    assert [p.kind for p in problems] == [ProblemKind.CENTRES] * 2
    assert problems[0].message.startswith("centre of U shows F (green)")
    assert problems[1].message.startswith("centre of F shows U (white)")
    assert problems[0].facelets == (4,)


def test_one_corner_twisted_on_solved_cube_is_named():
    cube = CubieCube(co=(1,) + (0,) * 7).to_facelets()
    problem = only(cube, ProblemKind.CORNER_TWIST)
    assert "URF" in problem.message and "counter-clockwise" in problem.message
    assert problem.params == {"corner": "URF", "twist": "clockwise", "fix": "counter-clockwise"}
    assert set(problem.facelets) == set(CORNER_FACELETS[0])
    other = only(CubieCube(co=(0, 0, 0, 0, 0, 2, 0, 0)).to_facelets(), ProblemKind.CORNER_TWIST)
    assert other.params == {"corner": "DLF", "twist": "counter-clockwise", "fix": "clockwise"}


def test_one_edge_flipped_on_solved_cube_is_named():
    problem = only(swap(SOLVED, *EDGE_FACELETS[9]), ProblemKind.EDGE_FLIP)
    assert "FL" in problem.message and problem.params["edge"] == "FL"


def test_two_edges_swapped_is_parity():
    ur, uf = EDGE_FACELETS[0], EDGE_FACELETS[1]
    cube = swap(swap(SOLVED, ur[0], uf[0]), ur[1], uf[1])
    problem = only(cube, ProblemKind.PARITY)
    assert "swapped" in problem.message


def test_two_corners_swapped_is_parity():
    cube = CubieCube(cp=(1, 0, *range(2, 8))).to_facelets()
    assert "swapped" in only(cube, ProblemKind.PARITY).message


def test_mirror_image_corner():
    _, r, f = CORNER_FACELETS[0]
    problem = only(swap(SOLVED, r, f), ProblemKind.IMPOSSIBLE_CORNER)
    assert problem.message.startswith("corner URF shows white-green-red (U-F-R)")
    assert "mirror" in problem.message and problem.params["mirror"] == "yes"
    assert problem.facelets == CORNER_FACELETS[0]


def test_corner_with_impossible_colours():
    # Swapping U1 and R1 puts a second white sticker on corner URF and red on corner ULB.
    problems = validate(swap(SOLVED, 0, 9))
    assert [p.kind for p in problems] == [ProblemKind.IMPOSSIBLE_CORNER] * 2
    assert problems[0].message.startswith("corner URF shows white-white-green (U-U-F)")
    assert problems[0].params["mirror"] == "no"
    assert problems[1].message.startswith("corner ULB shows red-orange-blue (R-L-B)")


def test_edges_with_impossible_colours():
    # Swapping UR's red sticker with DR's yellow one gives a white-yellow edge and a red-red edge.
    ur, dr = EDGE_FACELETS[0], EDGE_FACELETS[4]
    problems = validate(swap(SOLVED, ur[1], dr[0]))
    assert [p.kind for p in problems] == [ProblemKind.IMPOSSIBLE_EDGE] * 2
    assert problems[0].message.startswith("edge UR shows white-yellow (U-D)")
    assert problems[0].params["position"] == "UR" and problems[0].facelets == ur
    assert problems[1].message.startswith("edge DR shows red-red (R-R)")


def test_duplicate_corner_names_piece_and_positions():
    # URF's piece also at UBR, DBL's also at DLF: colour counts stay right.
    cube = CubieCube(cp=(0, 1, 2, 0, 4, 6, 6, 7)).to_facelets()
    problems = validate(cube)
    assert [p.kind for p in problems] == [ProblemKind.DUPLICATE_CORNER] * 2
    assert problems[0].message.startswith("the white-red-green corner appears twice: at URF and UBR")
    assert "white-blue-red" in problems[0].message  # the missing UBR piece
    assert problems[0].params["positions"] == "URF, UBR"
    assert problems[1].params["piece"] == "yellow-blue-orange"


def test_duplicate_edge():
    cube = CubieCube(ep=(0, 0, 2, 3, 5, 5, *range(6, 12))).to_facelets()
    problems = validate(cube)
    assert [p.kind for p in problems] == [ProblemKind.DUPLICATE_EDGE] * 2
    assert problems[0].message.startswith("the white-red edge appears twice: at UR and UF")
    assert problems[1].params == {
        "piece": "yellow-green",
        "letters": "D-F",
        "positions": "DR, DF",
        "count": "2",
        "missing": "white-green; yellow-red",
    }


def test_no_parity_problem_when_pieces_are_missing():
    # Edges are broken but corners are fine: corner twist is still reported, parity is not.
    ur, dr = EDGE_FACELETS[0], EDGE_FACELETS[4]
    cube = swap(CubieCube(co=(1,) + (0,) * 7).to_facelets(), ur[1], dr[0])
    assert kinds(cube) == ["impossible_edge", "impossible_edge", "corner_twist"]


@settings(max_examples=60)
@given(seeds, st.integers(0, 7), st.integers(1, 2))
def test_any_twisted_corner_fails_as_twist(seed, corner, twist):
    cube = random_cubie(random.Random(seed))
    co = list(cube.co)
    co[corner] = (co[corner] + twist) % 3
    broken = CubieCube(cube.cp, tuple(co), cube.ep, cube.eo).to_facelets()
    assert kinds(broken) == ["corner_twist"]


@settings(max_examples=60)
@given(seeds, st.integers(0, 11))
def test_any_flipped_edge_fails_as_flip(seed, edge):
    cube = random_cubie(random.Random(seed))
    eo = list(cube.eo)
    eo[edge] ^= 1
    assert kinds(CubieCube(cube.cp, cube.co, cube.ep, tuple(eo)).to_facelets()) == ["edge_flip"]


@settings(max_examples=60)
@given(seeds, st.booleans(), st.data())
def test_any_two_piece_swap_fails_as_parity(seed, corners, data):
    cube = random_cubie(random.Random(seed))
    n = 8 if corners else 12
    i = data.draw(st.integers(0, n - 1))
    j = data.draw(st.integers(0, n - 1).filter(lambda k: k != i))
    perm = list(cube.cp if corners else cube.ep)
    perm[i], perm[j] = perm[j], perm[i]
    if corners:
        broken = CubieCube(tuple(perm), cube.co, cube.ep, cube.eo)
    else:
        broken = CubieCube(cube.cp, cube.co, tuple(perm), cube.eo)
    assert kinds(broken.to_facelets()) == ["parity"]


@settings(max_examples=60)
@given(seeds, st.integers(0, 7), st.integers(0, 2), st.integers(0, 2))
def test_any_swapped_pair_of_corner_stickers_is_a_mirror_corner(seed, corner, a, b):
    facelets = random_state(random.Random(seed)).facelets
    i, j = CORNER_FACELETS[corner][a], CORNER_FACELETS[corner][(a + 1 + b % 2) % 3]
    problem = only(swap(facelets, i, j), ProblemKind.IMPOSSIBLE_CORNER)
    assert problem.params["mirror"] == "yes"


def test_normalise_letters():
    assert normalise_letters(" uuu\nrrr ") == "UUURRR"
    colours = {"U": "W", "R": "R", "F": "G", "D": "Y", "L": "O", "B": "B"}
    state = CubeState.from_scramble("R U F'").facelets
    as_colours = "".join(colours[c] for c in state)
    assert normalise_letters(as_colours.lower()) == state
    assert normalise_letters("WWWW") == "WWWW"  # not six colours: left for validation to report
    odd = "Q" * 54
    assert normalise_letters(odd) == odd


def test_require_valid():
    state = require_valid(" " + SOLVED.lower() + "\n")
    assert state == CubeState.solved()
    with pytest.raises(InvalidCubeError) as info:
        require_valid(CubieCube(co=(1,) + (0,) * 7).to_facelets())
    assert info.value.kind == "corner_twist"
    assert isinstance(info.value, QbrError)
    assert info.value.problems[0].params["corner"] == "URF"


def _is_real(text: str) -> bool:
    if len(text) != 54 or any(text[9 * i + 4] != face for i, face in enumerate("URFDLB")):
        return False
    try:
        return CubieCube.from_facelets(text).is_solvable()
    except ValueError:
        return False


def _never_raises(text: str) -> None:
    problems = validate(text)
    assert isinstance(problems, list) and all(isinstance(p, Problem) for p in problems)
    # Valid exactly when the pieces are real and solvable (an independent check through the cubie level).
    assert (problems == []) == _is_real(text)
    with contextlib.suppress(InvalidCubeError):
        require_valid(text)


def test_fuzz_random_strings():
    rng = random.Random(99)
    alphabets = ["URFDLB", "URFDLB" * 5 + "x", string.printable, "WRGYOBwrgyob", "".join(map(chr, range(0x20, 0x2FF)))]
    for _ in range(10_000):
        alphabet = rng.choice(alphabets)
        length = rng.choice([54, 54, rng.randrange(61)])
        text = "".join(rng.choice(alphabet) for _ in range(length))
        _never_raises(text)


def test_fuzz_mutated_real_cubes():
    # Deep levels (pieces, twist, parity) only run on near-real cubes, so mutate real ones.
    rng = random.Random(7)
    seen = set()
    for _ in range(3000):
        facelets = list(random_state(rng).facelets)
        for _ in range(rng.randrange(1, 4)):
            i, j = rng.randrange(54), rng.randrange(54)
            if rng.random() < 0.5:
                facelets[i], facelets[j] = facelets[j], facelets[i]
            else:
                facelets[i] = rng.choice("URFDLB")
        text = "".join(facelets)
        seen.update(kinds(text))
        _never_raises(text)
    assert {"impossible_corner", "impossible_edge", "colour_count", "centres", "parity"} <= seen


@settings(max_examples=500)
@given(st.text(max_size=60), st.dictionaries(st.text(max_size=2), st.text(max_size=5)))
def test_never_raises_on_any_text(text, names):
    assert isinstance(validate(text, names), list)
    assert isinstance(normalise_letters(text), str)
    with contextlib.suppress(InvalidCubeError):
        require_valid(text, names)


def test_standard_scheme_default():
    problems = validate(SOLVED[:8] + "L" + SOLVED[9:])
    assert STANDARD_SCHEME["L"] in problems[1].message
