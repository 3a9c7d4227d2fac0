"""2x2 validation: every kind of impossible cube is reported as itself, naming position and colours."""

import random
import string

from hypothesis import given
from hypothesis import strategies as st

from qbr.cube.conventions import FACES
from qbr.cube.errors import InvalidCubeError
from qbr.cube.pocket.conventions import CORNER_FACELETS, REFERENCE_CORNER, SOLVED, facelet_index
from qbr.cube.pocket.cubie import pocket_corner_at
from qbr.cube.pocket.generate import random_pocket_state
from qbr.cube.pocket.letters import face_letters
from qbr.cube.pocket.normalise import normalise
from qbr.cube.pocket.state import PocketState
from qbr.cube.pocket.validate import require_valid, validate
from qbr.cube.rotations import orientations
from qbr.cube.validate import Problem, ProblemKind
from qbr.solve.i18n import LANGUAGES, Translator
from qbr.solve.instructions import problem_message

seeds = st.integers(min_value=0, max_value=2**32)
WESTERN = {"U": "W", "R": "R", "F": "G", "D": "Y", "L": "O", "B": "B"}


def only(text: str, kind: ProblemKind) -> Problem:
    problems = validate(text)
    assert [p.kind for p in problems] == [kind], [p.message for p in problems]
    return problems[0]


def put(facelets: str, **stickers: str) -> str:
    out = list(facelets)
    for name, letter in stickers.items():
        n = int(name[1]) - 1
        out[facelet_index(name[0], n // 2, n % 2)] = letter
    return "".join(out)


def test_real_cubes_are_valid_however_lettered():
    state = PocketState.from_scramble("R U2 F' D L B2").facelets
    assert validate(state) == []
    assert validate("".join(WESTERN[c] for c in state)) == []
    assert validate(" ".join(state[i : i + 4].lower() for i in range(0, 24, 4))) == []


def test_short_strings_of_six_letters_are_left_as_typed():
    assert face_letters("RW@emU").letters == "RW@EMU" and face_letters("ABCDEF").letters == "ABCDEF"


def test_length_and_characters():
    problem = only(SOLVED + "U", ProblemKind.BAD_LENGTH)
    assert problem.params == {"count": "25", "expected": "24"} and "24 stickers" in problem.message
    assert [p.kind for p in validate("?" + SOLVED)] == [ProblemKind.BAD_LENGTH, ProblemKind.BAD_CHARACTERS]
    bad = only("1" + SOLVED[1:], ProblemKind.BAD_CHARACTERS)
    assert bad.facelets == (0,) and bad.params["positions"] == "1" and "not a letter" in bad.message


def test_colour_counts_name_the_colours():
    problems = validate("U" + SOLVED[1:4] + "U" + SOLVED[5:])
    assert [(p.kind, p.params["colour"], p.params["count"]) for p in problems] == [
        (ProblemKind.COLOUR_COUNT, "white", "5"),
        (ProblemKind.COLOUR_COUNT, "red", "3"),
    ]
    assert problems[0].facelets == (0, 1, 2, 3, 4) and problems[0].params["expected"] == "4"
    western = validate("W" * 5 + "RRRGGGGYYYYOOOOBBBB")
    assert [p.params["colour"] for p in western] == ["white", "red"]
    seven = validate("ABCDEFGHIJKLMNOPQRSTUVWX")
    assert seven and all(p.kind is ProblemKind.COLOUR_COUNT for p in seven)


def test_impossible_corner_names_position_and_colours():
    # URF shows white-green-white: two white stickers on one corner.
    facelets = put(SOLVED, R1="U", F2="F", U4="U")
    facelets = put(facelets, U3="R")  # keep four of each colour: the white sticker from U3 moved to R1
    problems = validate(facelets)
    messages = [p.message for p in problems]
    assert problems[0].kind is ProblemKind.IMPOSSIBLE_CORNER, messages
    urf = [p for p in problems if p.params.get("position") == "URF"]
    assert urf and urf[0].params["colours"] == "white-white-green", messages
    assert "corner URF shows white-white-green" in urf[0].message
    assert set(urf[0].facelets) == set(CORNER_FACELETS[0])


def test_mirror_corner_and_duplicates():
    mirror = validate(put(SOLVED, R1="F", F2="R"))
    assert mirror[0].kind is ProblemKind.IMPOSSIBLE_CORNER and mirror[0].params["mirror"] == "yes"
    # The white-red-green piece also at UFL and the yellow-blue-orange one also at DRB (counts still four each).
    problems = validate(put(SOLVED, U3="U", F1="R", L2="F", D4="D", R4="B", B3="L"))
    assert [p.kind for p in problems] == [ProblemKind.DUPLICATE_CORNER] * 2, [p.message for p in problems]
    first = problems[0]
    assert first.params["piece"] == "white-red-green" and first.params["positions"] == "URF, UFL"
    assert "white-green-orange" in first.params["missing"] and "yellow-red-blue" in first.params["missing"]


def test_twist_names_the_corner_and_the_fix():
    twisted = put(SOLVED, U4="F", R1="U", F2="R")
    problem = only(twisted, ProblemKind.CORNER_TWIST)
    assert problem.params == {"corner": "URF", "twist": "clockwise", "fix": "counter-clockwise"}
    assert problem.facelets == CORNER_FACELETS[0]
    both = put(twisted, U3="L", F1="U", L2="F")
    assert only(both, ProblemKind.CORNER_TWIST).params["corner"] == ""


@given(seeds, st.sampled_from(orientations()))
def test_random_legal_states_held_any_way_validate(seed, rotation):
    state = random_pocket_state(random.Random(seed)).apply(rotation)
    assert validate(state.facelets) == []
    assert require_valid(state.facelets).letters == state.facelets


@given(seeds, st.permutations(list(string.ascii_uppercase[:6])), st.sampled_from(orientations()))
def test_any_six_letters_name_the_same_cube_whichever_way_it_is_held(seed, letters, rotation):
    state = random_pocket_state(random.Random(seed))
    relabel = dict(zip(FACES, letters, strict=True))
    typed = "".join(relabel[c] for c in state.apply(rotation).facelets)
    assert validate(typed) == []
    named = face_letters(typed).letters
    # The naming depends on the colours only: the same cube held another way normalises to the same string.
    other = "".join(relabel[c] for c in state.facelets)
    assert normalise(named).facelets == normalise(face_letters(other).letters).facelets
    assert PocketState(named).apply(normalise(named).rotation).is_solved == state.is_solved


@given(seeds, st.integers(0, 23), st.sampled_from(FACES))
def test_single_sticker_changes_are_caught_and_named(seed, index, letter):
    state = random_pocket_state(random.Random(seed), held_any_way=True).facelets
    if state[index] == letter:
        return
    changed = state[:index] + letter + state[index + 1 :]
    problems = validate(changed)
    assert problems and all(p.kind is ProblemKind.COLOUR_COUNT for p in problems)
    assert any(index in p.facelets for p in problems)
    assert {p.params["face"] for p in problems} == {letter, state[index]}


@given(seeds, st.integers(0, 23), st.integers(0, 23))
def test_swapped_stickers_are_caught_and_named(seed, i, j):
    state = random_pocket_state(random.Random(seed), held_any_way=True).facelets
    if state[i] == state[j]:
        return
    out = list(state)
    out[i], out[j] = out[j], out[i]
    problems = validate("".join(out))
    assert problems
    assert any(i in p.facelets or j in p.facelets for p in problems) or problems[0].params.get("corner") == ""


def test_require_valid_raises_with_every_problem():
    try:
        require_valid(put(SOLVED, R1="F", F2="R"))
    except InvalidCubeError as error:
        assert error.kind == "impossible_corner" and error.problems
    else:
        raise AssertionError("an impossible cube was accepted")
    assert require_valid("WWWWRRRRGGGGYYYYOOOOBBBB").colour_names["D"] == "yellow"


def test_problem_messages_are_translated():
    problems = validate("1" + SOLVED[1:]) + validate(put(SOLVED, U4="F", R1="U", F2="R"))
    for lang in LANGUAGES:
        tr = Translator(lang)
        for problem in problems:
            text = problem_message(problem, tr)
            assert text and "{" not in text
            if lang != "en":
                assert text != problem.message
    assert "not a letter" in problem_message(problems[0], Translator("en"))


@given(st.text(max_size=40) | st.text(alphabet="URFDLBWYGOXP", min_size=24, max_size=24))
def test_never_raises_on_any_text(text):
    assert face_letters(text).letters or not text.split()
    problems = validate(text)
    assert all(isinstance(p, Problem) and p.message for p in problems)
    if not problems:
        normalised = normalise(require_valid(text).letters).facelets
        assert pocket_corner_at(normalised, REFERENCE_CORNER) == (REFERENCE_CORNER, 0)
