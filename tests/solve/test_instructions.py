"""Sentences for moves, the starting orientation and validation problems, in every language."""

import pytest

from qbr.cube.conventions import SOLVED
from qbr.cube.moves import Move, parse_moves
from qbr.cube.validate import Problem, ProblemKind, validate
from qbr.solve.i18n import LANGUAGES, Translator
from qbr.solve.instructions import colour_name, move_sentence, orientation_sentence, problem_message, steps


def _swap(facelets: str, i: int, j: int) -> str:
    chars = list(facelets)
    chars[i], chars[j] = chars[j], chars[i]
    return "".join(chars)


def _twist(facelets: str, a: int, b: int, c: int) -> str:
    chars = list(facelets)
    chars[a], chars[b], chars[c] = chars[c], chars[a], chars[b]
    return "".join(chars)


def test_every_move_has_a_sentence_in_every_language():
    for lang in LANGUAGES:
        tr = Translator(lang)
        sentences = {move_sentence(Move(f, t), tr) for f in "URFDLBxyz" for t in (1, 2, 3)}
        assert len(sentences) == 27, lang  # all different


def test_steps_in_order():
    tr = Translator("en")
    assert steps(parse_moves("R U2 F'"), tr) == [
        "Turn the right face a quarter turn away from you.",
        "Turn the top face a half turn.",
        "Turn the front face a quarter turn counter-clockwise.",
    ]
    assert steps((), tr) == []


def test_orientation_sentence_uses_the_centre_colours():
    assert orientation_sentence(Translator("en")) == (
        "Hold the cube with the green centre facing you and the white centre on top."
    )
    assert orientation_sentence(Translator("de")).count("Grün") == 1
    custom = {"F": "red", "U": "yellow"}
    assert "red centre facing you" in orientation_sentence(Translator("en"), colour_names=custom)
    assert "紅色" in orientation_sentence(Translator("zh-Hant"), colour_names=custom)
    # A colour qbr has no word for is shown as given rather than failing.
    assert "purple" in orientation_sentence(Translator("fr"), colour_names={"F": "purple"})


def test_colour_names():
    assert colour_name("white", Translator("ja")) == "白"
    assert colour_name("teal", Translator("ja")) == "teal"


def _broken_cubes() -> dict[ProblemKind, list[Problem]]:
    cubes: dict[ProblemKind, str] = {
        ProblemKind.BAD_LENGTH: SOLVED[:50],
        ProblemKind.BAD_CHARACTERS: SOLVED[:3] + "XX" + SOLVED[5:],
        ProblemKind.COLOUR_COUNT: SOLVED[:9] + "U" + SOLVED[10:],
        ProblemKind.CENTRES: _swap(SOLVED, 4, 13),
        ProblemKind.IMPOSSIBLE_CORNER: _swap(SOLVED, 9, 20),  # URF corner reads U-F-R: a mirror image
        ProblemKind.CORNER_TWIST: _twist(SOLVED, 8, 9, 20),
        ProblemKind.EDGE_FLIP: _swap(SOLVED, 5, 10),
    }
    found: dict[ProblemKind, list[Problem]] = {}
    for kind, facelets in cubes.items():
        found[kind] = [p for p in validate(facelets) if p.kind is kind]
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_problem_messages_are_translated_and_complete(lang):
    tr = Translator(lang)
    found = _broken_cubes()
    for kind, problems in found.items():
        assert problems, f"no {kind} problem found for the test cube"
        for problem in problems:
            text = problem_message(problem, tr)
            assert text and "{" not in text, (lang, kind, text)
            if lang != "en":
                assert text != problem.message, (lang, kind)


def test_every_problem_kind_has_a_sentence_with_the_documented_params():
    samples = {
        ProblemKind.BAD_LENGTH: {"count": "50", "expected": "54"},
        ProblemKind.BAD_CHARACTERS: {"character": "X", "count": "2", "positions": "4, 5"},
        ProblemKind.COLOUR_COUNT: {"colour": "white", "face": "U", "count": "10", "expected": "9"},
        ProblemKind.CENTRES: {"face": "U", "shows": "R", "shows_colour": "red", "expected_colour": "white"},
        ProblemKind.IMPOSSIBLE_CORNER: {"position": "URF", "colours": "white-green-white", "letters": "U-F-U",
                                        "mirror": "no"},
        ProblemKind.IMPOSSIBLE_EDGE: {"position": "UR", "colours": "white-white", "letters": "U-U"},
        ProblemKind.DUPLICATE_CORNER: {"piece": "white-red-green", "letters": "U-R-F", "positions": "URF, DLF",
                                       "count": "2", "missing": "yellow-green-orange"},
        ProblemKind.DUPLICATE_EDGE: {"piece": "white-red", "letters": "U-R", "positions": "UR, DF", "count": "2",
                                     "missing": ""},
        ProblemKind.CORNER_TWIST: {"corner": "", "twist": "clockwise", "fix": "counter-clockwise"},
        ProblemKind.EDGE_FLIP: {"edge": "UR"},
        ProblemKind.PARITY: {},
        ProblemKind.COLOURS: {"reason": "centres"},
    }
    assert set(samples) == set(ProblemKind)
    spread = Problem(ProblemKind.COLOURS, "english fallback", (), {"reason": "spread"})
    assert problem_message(spread, Translator("en")) != "english fallback"
    assert problem_message(spread, Translator("de")) != problem_message(spread, Translator("en"))
    en, de = Translator("en"), Translator("de")
    for kind, params in samples.items():
        problem = Problem(kind, "english fallback", (), params)
        assert problem_message(problem, en) != "english fallback", kind
        assert "{" not in problem_message(problem, de)
    dup = Problem(ProblemKind.DUPLICATE_CORNER, "m", (), samples[ProblemKind.DUPLICATE_CORNER])
    assert problem_message(dup, de) == (
        "Die Ecke Weiß-Rot-Grün kommt 2-mal vor: an URF, DLF. Es fehlt: Gelb-Grün-Orange."
    )
    params = {"corner": "URF", "twist": "clockwise", "fix": "counter-clockwise"}
    twist = Problem(ProblemKind.CORNER_TWIST, "m", (), params)
    assert problem_message(twist, en) == "Corner URF is twisted clockwise: twist it counter-clockwise."
    assert problem_message(twist, Translator("zh-Hans")) == "角块 URF 被顺时针扭转了：请把它逆时针扭回来。"


def test_a_problem_with_unexpected_params_falls_back_to_its_english_message():
    problem = Problem(ProblemKind.CENTRES, "centre of U shows R", (), {"face": "U"})
    assert problem_message(problem, Translator("fr")) == "centre of U shows R"
