"""A face that will not be found: D solves from the other five (their pieces fix its stickers), or says to show it."""

from __future__ import annotations

import dataclasses

import pytest

from qbr.app.session import FrameEvent, Mode, ResolveCube, ResolvedEvent
from qbr.cube.conventions import FACES, STANDARD_SCHEME
from qbr.cube.moves import apply_to_facelets, parse_moves
from qbr.solve.i18n import LANGUAGES, Translator
from qbr.solve.solver import solve
from qbr.vision.resolve import resolve_cube
from tests.app.test_session import CUBE, LOCALES, Driver, analysis, face_colours


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


def test_a_deduced_face_the_five_do_not_fix_is_asked_for_once_then_taken_as_deduced(translators) -> None:
    d = Driver(translators)
    d.scan(["U", "R", "F", "L", "B"])
    (asked,) = [e for e in d.key("d") if isinstance(e, ResolveCube)]
    resolution = resolve_cube(dict(asked.rgb), trust=dict(asked.trust))
    left_open = dataclasses.replace(resolution, unsettled=(28, 34))  # two edges another real cube swaps
    d.send(ResolvedEvent(d.t, left_open, solve(CUBE), None))
    assert d.view.mode is Mode.SCANNING and d.view.message == (
        "The other five faces do not fix the stickers of the face with the yellow centre: show it to the camera.")
    (again,) = [e for e in d.key("d") if isinstance(e, ResolveCube)]  # D once more: the user cannot show it
    assert sorted(again.rgb) == sorted("URFLB")
    d.send(ResolvedEvent(d.t, left_open, solve(CUBE), None))
    assert d.view.mode is Mode.SOLUTION and d.view.message.startswith("The D face (yellow centre) was not found")


def _named_photos_of_a_turned_cube(d: Driver, faces: str) -> tuple[str, dict[str, str]]:
    """Shows ``faces`` as photos named for their faces, of the cube CUBE held so that its orange centre is on top
    (an x2 y turn of the standard holding: the centre names the default scheme would give are wrong for it)."""
    turned = apply_to_facelets(CUBE, parse_moves("x2 y"))  # the same cube held another way: U's centre not white
    scheme = {f: STANDARD_SCHEME[turned[9 * FACES.index(f) + 4]] for f in FACES}
    for face in faces:
        colours = tuple(STANDARD_SCHEME[c] for c in turned[9 * FACES.index(face): 9 * FACES.index(face) + 9])
        for _ in range(10):
            d.t += 0.1
            d.send(FrameEvent(d.t, analysis(colours), face=face))
        d.nothing(0.6)
    by_centre = {turned[9 * i + 4]: face for i, face in enumerate(FACES)}
    return "".join(by_centre[c] for c in turned), scheme  # its facelets: each sticker named by its face's centre


def test_a_face_never_photographed_is_named_by_the_colour_no_other_centre_shows(translators) -> None:
    # Photos named for their faces, the D photo faceless: its colour is the one the five centres leave, not the
    # default scheme's yellow; so in the notice after solving (from the resolution) and when five do not fix it.
    d = Driver(translators)
    turned, scheme = _named_photos_of_a_turned_cube(d, "URFLB")
    assert scheme["D"] != "yellow"
    (asked,) = [e for e in d.key("d") if isinstance(e, ResolveCube)]
    resolution = resolve_cube(dict(asked.rgb), trust=dict(asked.trust))
    assert resolution.facelets == turned
    d.send(ResolvedEvent(d.t, resolution, solve(turned), None))
    assert d.view.message.startswith(f"The D face ({scheme['D']} centre) was not found")

    d = Driver(translators)
    _named_photos_of_a_turned_cube(d, "URFLB")
    d.key("d")
    d.send(ResolvedEvent(d.t, resolve_cube({}), None, None))
    assert f"the face with the {scheme['D']} centre" in d.view.message
