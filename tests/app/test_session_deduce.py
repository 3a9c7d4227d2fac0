"""A face that will not be found: D solves from the other five (their pieces fix its stickers), or says to show it."""

from __future__ import annotations

import dataclasses

import pytest

from qbr.app.session import Mode, ResolveCube, ResolvedEvent
from qbr.solve.i18n import LANGUAGES, Translator
from qbr.solve.solver import solve
from qbr.vision.resolve import resolve_cube
from tests.app.test_session import CUBE, LOCALES, Driver, face_colours


@pytest.fixture(scope="module")
def translators() -> dict[str, Translator]:
    return {lang: Translator(lang, extra_dirs=[LOCALES]) for lang in LANGUAGES}


def test_d_is_offered_at_five_faces_only_and_solves_without_the_sixth(translators) -> None:
    d = Driver(translators)
    d.scan(["U", "R", "F", "L"])
    assert "D" not in [key for key, _ in d.view.legend] and d.key("d") == []  # four faces fix nothing
    d.scan(["B"])
    assert ("D", "solve without the last face") in d.view.legend
    (asked,) = [e for e in d.key("d") if isinstance(e, ResolveCube)]
    assert sorted(asked.rgb) == sorted("URFLB") and d.view.mode is Mode.RESOLVING
    resolution = resolve_cube(dict(asked.rgb), trust=dict(asked.trust))
    assert resolution.facelets == CUBE
    d.send(ResolvedEvent(d.t, resolution, solve(CUBE), None))
    assert d.view.mode is Mode.SOLUTION and d.view.message.startswith("The D face (yellow centre) was not found")


def test_when_five_faces_do_not_fix_the_sixth_it_is_asked_for_and_then_taken(translators) -> None:
    d = Driver(translators)
    d.scan(["U", "R", "F", "L", "B"])
    d.key("d")
    unfixed = resolve_cube({})  # no cube: what the resolver gives when the five do not fix the sixth
    d.send(ResolvedEvent(d.t, unfixed, None, None))
    assert d.view.mode is Mode.SCANNING and d.view.message == (
        "The other five faces do not fix the stickers of the face with the yellow centre: show it to the camera.")
    effects = d.show(face_colours("D"), 0.8)
    (asked,) = [e for e in effects if isinstance(e, ResolveCube)]
    assert sorted(asked.rgb) == sorted("URFDLB")  # shown after all: the six faces are resolved


def test_a_deduced_cube_in_doubt_is_taken_as_read_not_asked_for_again(translators) -> None:
    from qbr.vision.resolve import Doubt

    d = Driver(translators)
    d.scan(["U", "R", "F", "L", "B"])
    (asked,) = [e for e in d.key("d") if isinstance(e, ResolveCube)]
    resolution = resolve_cube(dict(asked.rgb), trust=dict(asked.trust))
    in_doubt = dataclasses.replace(resolution, doubt=Doubt((27, 28), "D"))  # the face that cannot be captured
    d.send(ResolvedEvent(d.t, in_doubt, solve(CUBE), None))
    assert d.view.mode is Mode.SOLUTION and d.view.message.startswith("The D face (yellow centre) was not found")
