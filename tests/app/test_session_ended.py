"""A video or photo folder that ends before the cube is solved: the session says what is missing, then quits."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from qbr.app.session import EndedEvent, Mode, PrintText, Quit, ResolvedEvent, SessionConfig, TickEvent
from qbr.cube.conventions import FACES
from qbr.solve.i18n import LANGUAGES, Translator
from tests.app.test_session import CUBE, LOCALES, Driver, _resolution


@pytest.fixture(scope="module")
def translators() -> dict[str, Translator]:
    return {lang: Translator(lang, extra_dirs=[LOCALES]) for lang in LANGUAGES}


def test_a_video_that_ends_at_4_of_6_says_what_is_missing_then_quits(translators) -> None:
    d = Driver(translators, SessionConfig(ended_seconds=5.0))
    d.scan(["F", "R", "B", "L"])
    assert d.send(EndedEvent(d.t, "video")) == []
    v = d.view
    assert v.mode is Mode.ENDED and d.session.ended and v.guide is None
    assert v.prompt == "The video ended after 4 of 6 faces. Missing: white, yellow."
    assert v.status == "4/6 faces" and [label for label, _ in v.legend] == ["L", "ESC"]
    assert d.key("space") == [] and d.view.mode is Mode.ENDED  # nothing more to capture
    assert d.send(TickEvent(d.t + 4.9)) == []
    assert d.send(TickEvent(d.t + 5.0)) == [Quit()]


def test_photos_without_a_face_and_esc_leaving_at_once(translators) -> None:
    d = Driver(translators)
    d.send(EndedEvent(d.t, "photos"))
    assert d.view.prompt == "No cube face was found in the photos."
    assert d.key("esc") == [Quit()]


def test_missing_faces_are_named_in_every_language(translators) -> None:
    for lang in LANGUAGES:
        d = Driver(translators, SessionConfig(language=lang))
        d.scan(["F", "R", "B", "L"])
        d.send(EndedEvent(d.t, "video"))
        d.send(EndedEvent(d.t, "photos"))  # said once: the first end is the one reported
        prompt = d.view.prompt
        assert "{" not in prompt and "4" in prompt and "6" in prompt, (lang, prompt)
        assert translators[lang].t("colour.yellow") in prompt, (lang, prompt)


def test_the_end_while_resolving_waits_for_the_answer(translators) -> None:
    from qbr.cube.errors import InvalidCubeError
    from qbr.cube.validate import validate
    from qbr.solve.solver import solve

    d = Driver(translators, SessionConfig(ended_seconds=0.0))
    d.scan(FACES)
    d.send(EndedEvent(d.t, "video"))
    assert d.view.mode is Mode.RESOLVING
    (printed,) = d.send(ResolvedEvent(d.t, _resolution(CUBE, True), solve(CUBE), None))
    assert isinstance(printed, PrintText) and d.view.mode is Mode.SOLUTION
    assert d.send(TickEvent(d.t + 60)) == []  # solved: the solution stays to be stepped through

    d = Driver(translators, SessionConfig(ended_seconds=0.0, interactive=False))  # nobody to fix it by hand
    d.scan(FACES)
    d.send(EndedEvent(d.t, "photos"))
    broken = CUBE[:9] + CUBE[10] + CUBE[9] + CUBE[11:]  # two stickers swapped
    problems = validate(broken)
    d.send(ResolvedEvent(d.t, _resolution(broken, False, "R", problems), None, InvalidCubeError(problems)))
    v = d.view
    assert v.mode is Mode.ENDED and v.highlight_face is None and v.guide is None  # no face it can't get is asked
    assert v.prompt == "The photos ran out before the cube could be read: no face can be shown again."
    assert v.message  # the cube's problem stays shown
    assert d.send(TickEvent(d.t)) == [Quit()]


@pytest.mark.parametrize("ask_again", [True, False])
def test_a_face_in_doubt_is_asked_for_only_when_it_can_be_shown_again(translators, ask_again: bool) -> None:
    from qbr.solve.solver import solve
    from qbr.vision.resolve import Doubt

    d = Driver(translators, SessionConfig(ask_again=ask_again))
    d.scan(FACES)
    doubtful = SimpleNamespace(**vars(_resolution(CUBE, True)), doubt=Doubt((10, 16), "R"), turned={})
    effects = d.send(ResolvedEvent(d.t, doubtful, solve(CUBE), None))
    if ask_again:
        assert effects == [] and d.view.mode is Mode.INVALID and d.view.highlight_face == "R"
    else:
        assert isinstance(effects[0], PrintText) and d.view.mode is Mode.SOLUTION


def test_a_2x2_that_ends_counts_its_faces(translators) -> None:
    d = Driver(translators)
    for colours in (("red",) * 4, ("green",) * 4):
        d.show(colours, 0.8)
        d.nothing(0.6)
    assert d.session.size == 2 and d.session.captured_count == 2
    d.send(EndedEvent(d.t, "video"))
    assert d.view.prompt == "The video ended after 2 of 6 faces."


def test_named_photos_that_make_no_cube_end_at_once_without_asking_for_a_face(translators) -> None:
    from qbr.app.session import FrameEvent
    from qbr.cube.errors import InvalidCubeError
    from qbr.cube.validate import validate
    from tests.app.test_session import analysis, face_colours

    d = Driver(translators, SessionConfig(ask_again=False, ended_seconds=0.0, interactive=False))  # headless
    for face in "URFDLB":  # photos named U.jpg ...: each is its face, shown once
        for _ in range(12):
            d.t += 1 / 15
            d.send(FrameEvent(d.t, analysis(face_colours(face)), face))
    assert d.view.mode.name == "RESOLVING"
    broken = CUBE[:9] + CUBE[10] + CUBE[9] + CUBE[11:]
    problems = validate(broken)
    d.send(ResolvedEvent(d.t, _resolution(broken, False, "R", problems), None, InvalidCubeError(problems)))
    v = d.view
    assert v.mode is Mode.ENDED and v.guide is None and v.highlight_face is None
    assert v.prompt == "The photos ran out before the cube could be read: no face can be shown again."
    assert d.send(TickEvent(d.t)) == [Quit()]


def test_five_faces_and_the_end_resolve_the_cube_with_the_sixth_deduced(translators) -> None:
    from qbr.app.session import ResolveCube
    from qbr.solve.solver import solve
    from qbr.vision.resolve import resolve_cube

    d = Driver(translators, SessionConfig(ended_seconds=0.0))
    d.scan(["U", "R", "F", "L", "B"])  # the yellow face never shown
    (asked,) = d.send(EndedEvent(d.t, "video"))
    assert isinstance(asked, ResolveCube) and sorted(asked.rgb) == sorted("URFLB") and d.view.mode is Mode.RESOLVING
    resolution = resolve_cube(dict(asked.rgb), trust=dict(asked.trust))
    assert resolution.facelets == CUBE and resolution.deduced == tuple(range(27, 36))
    (printed,) = d.send(ResolvedEvent(d.t, resolution, solve(CUBE), None))
    said = "The D face (yellow centre) was not found: its stickers follow from the pieces of the other five faces"
    assert d.view.mode is Mode.SOLUTION and said in d.view.message and said in printed.text
    assert d.send(TickEvent(d.t + 60)) == []  # solved: the solution stays to be stepped through


def test_five_faces_whose_sixth_does_not_follow_end_saying_what_is_missing(translators) -> None:
    from qbr.cube.errors import InvalidCubeError
    from qbr.cube.validate import validate

    d = Driver(translators, SessionConfig(ended_seconds=0.0))
    d.scan(["U", "R", "F", "L", "B"])
    d.send(EndedEvent(d.t, "photos"))
    broken = CUBE[:9] + CUBE[10] + CUBE[9] + CUBE[11:]
    problems = validate(broken)
    d.send(ResolvedEvent(d.t, _resolution(broken, False, "R", problems), None, InvalidCubeError(problems)))
    assert d.view.mode is Mode.ENDED and d.view.prompt == "The photos ran out after 5 of 6 faces. Missing: yellow."
    assert d.send(TickEvent(d.t)) == [Quit()]
