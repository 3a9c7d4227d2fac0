"""Calibration and the solution screen of the session, driven by scripted events: a wrong face is refused with
the reason, the new colours are reviewed before they are saved, a cube that does not resolve with calibrated
colours says so; the solution says how to hold the cube, names the last move, and N after Done scans a new cube."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from qbr.app.analysis import FrameAnalysis
from qbr.app.session import FrameEvent, Mode, PrintText, ResolveCube, ResolvedEvent, SavePalette, SessionConfig
from qbr.app.session.calibration import Calibration
from qbr.cube.conventions import FACES
from qbr.solve.i18n import LANGUAGES, Translator
from qbr.vision.palette import COLOUR_NAMES, DEFAULT_PALETTE
from tests.app.test_session import CUBE, DT, Driver, _resolution, face_colours

LOCALES = Path(__file__).resolve().parents[2] / "qbr" / "app" / "locales"


@pytest.fixture(scope="module")
def translators() -> dict[str, Translator]:
    return {lang: Translator(lang, extra_dirs=[LOCALES]) for lang in LANGUAGES}


def solved_face(d: Driver, colour: str, seconds: float = 1.5, scale: float = 0.85) -> list:
    """Hold up a solved face of ``colour`` (the default palette's, a little darker: the room's light)."""
    rgb = np.tile(np.array(DEFAULT_PALETTE.colours[colour], float) * scale, (9, 1))
    out: list = []
    for _ in range(round(seconds / DT)):
        d.t += DT
        out += d.send(FrameEvent(d.t, FrameAnalysis(None, rgb, (colour,) * 9, np.ones(9))))
    return out


def calibrate_all(d: Driver) -> None:
    d.key("c")
    for name in COLOUR_NAMES:
        solved_face(d, name)
        d.nothing(0.3)


def test_a_face_of_another_colour_is_refused_with_the_reason_and_nothing_is_saved(translators) -> None:
    d = Driver(translators)
    d.key("c")
    solved_face(d, "green", seconds=3.0)  # the demo's first face, held while white is asked for
    v = d.view
    assert v.mode is Mode.CALIBRATING and v.calibration == ("white", 0, 6)
    assert v.message == "This face's centre looks green, not white. Show the face with the white centre."
    assert v.preview is not None and v.preview.steady == 0.0
    d.key("c")
    assert not [e for e in d.effects if isinstance(e, SavePalette)] and d.session.palette == DEFAULT_PALETTE


def test_every_language_says_why_a_face_is_refused(translators) -> None:
    for lang in LANGUAGES:
        d = Driver(translators, SessionConfig(language=lang))
        d.key("c")
        solved_face(d, "red", seconds=1.0)
        tr = translators[lang]
        assert d.view.message == tr.t("app.msg.calibration_looks_like", colour=tr.t("colour.white"),
                                      other=tr.t("colour.red")), lang


def test_the_new_colours_are_shown_beside_the_faces_and_saved_only_on_y(translators) -> None:
    d = Driver(translators)
    d.scan(["F", "R"])
    calibrate_all(d)
    v = d.view
    assert v.mode is Mode.CONFIRM_CALIBRATION and "Y" in v.prompt
    review = v.calibration_review
    assert [row.name for row in review.rows] == list(COLOUR_NAMES)
    for row in review.rows:
        want = tuple(round(c * 0.85) for c in DEFAULT_PALETTE.colours[row.name])
        assert row.new == want and row.face == (want,) * 9
        assert row.old == tuple(round(c) for c in DEFAULT_PALETTE.colours[row.name])
    assert [label for label, _ in v.legend][:3] == ["Y", "N", "R"]
    assert not [e for e in d.effects if isinstance(e, SavePalette)]
    assert d.view.colour_rgb["red"] == tuple(round(c) for c in DEFAULT_PALETTE.colours["red"])  # not yet in use

    d.key("n")
    assert d.view.mode is Mode.SCANNING and set(d.view.captured) == {"F", "R"}
    assert d.view.message == "New colours discarded; the previous ones are kept."
    assert not [e for e in d.effects if isinstance(e, SavePalette)] and d.session.palette == DEFAULT_PALETTE

    calibrate_all(d)
    (saved,) = d.key("y")
    assert isinstance(saved, SavePalette) and d.session.palette == saved.palette
    assert saved.palette.colours["red"] == pytest.approx(np.array(DEFAULT_PALETTE.colours["red"]) * 0.85)
    assert d.view.mode is Mode.SCANNING and d.view.message == "Colours calibrated and saved."


def test_two_colours_too_alike_cannot_be_saved(translators) -> None:
    d = Driver(translators)
    calibrate_all(d)
    cal = d.session._cal
    assert cal is not None
    # Samples that came out alike (a scrambled face's stickers pulled the median): Y refuses, says which two.
    cal.samples["orange"] = list(cal.samples["red"])
    d.session._calibrate(d.t, np.zeros((9, 3)))  # the machine's own path to the review, with these samples
    assert d.view.message == ("The new red and orange are too alike to tell apart. "
                              "Press N and calibrate again in better light.")
    assert d.key("y") == [] and d.view.mode is Mode.CONFIRM_CALIBRATION
    assert d.key("n") == [] and d.session.palette == DEFAULT_PALETTE


def test_too_alike_is_the_check_s_distance() -> None:
    cal = Calibration(COLOUR_NAMES)
    colours = dict(DEFAULT_PALETTE.colours)
    assert cal.too_alike(DEFAULT_PALETTE, SessionConfig()) is None
    colours["orange"] = tuple(c + 1.0 for c in colours["red"])
    assert cal.too_alike(dataclasses.replace(DEFAULT_PALETTE, colours=colours), SessionConfig()) in (
        ("red", "orange"), ("orange", "red"))


def test_a_cube_that_does_not_resolve_with_calibrated_colours_says_so_and_r_resets_them(translators) -> None:
    calibrated = dataclasses.replace(DEFAULT_PALETTE, name="calibrated")
    colours = dict(DEFAULT_PALETTE.colours)
    colours["yellow"] = colours["red"]  # the palette: its yellow is red
    bad = dataclasses.replace(calibrated, colours=colours)
    for palette, hinted in ((DEFAULT_PALETTE, False), (bad, True)):
        d = Driver(translators)
        d.session._palette = palette
        d.scan(FACES)
        d.send(ResolvedEvent(d.t, _resolution(CUBE, False, "F"), None, None))
        v = d.view
        assert v.mode is Mode.INVALID
        assert ("The colour calibration may be the cause: press R" in v.message) is hinted
        assert ("R" in [label for label, _ in v.legend]) is hinted
        effects = d.key("r")
        if hinted:
            assert effects[0] == SavePalette(None) and isinstance(effects[1], ResolveCube)
            assert d.session.palette == DEFAULT_PALETTE and len(d.view.captured) == 6
        else:
            assert effects == [] and d.view.mode is Mode.INVALID


def _solved(d: Driver):
    from qbr.solve.solver import solve

    d.scan(FACES)
    solution = solve(CUBE)
    (printed,) = d.send(ResolvedEvent(d.t, _resolution(CUBE, True), solution, None))
    assert isinstance(printed, PrintText)
    return solution


def test_the_solution_says_how_to_hold_the_cube_before_the_first_move(translators) -> None:
    d = Driver(translators)
    _solved(d)
    hold = "Hold the cube with the green centre facing you and the white centre on top."
    assert d.view.step.index == 0 and d.view.step.hold == hold and d.view.prompt == hold
    d.key("right")
    assert d.view.step.hold is None and "next one" in d.view.prompt  # face turns never change how it is held
    d.key("left")
    assert d.view.step.hold == hold and d.view.prompt == hold


def test_the_last_step_says_last_and_done_offers_a_new_cube_not_a_next_step(translators) -> None:
    d = Driver(translators)
    solution = _solved(d)
    total = len(solution.moves)
    for _ in range(total - 1):
        d.key("right")
    v = d.view
    assert v.step.index == total - 1 and "last" in v.prompt and "next" not in v.prompt
    assert "next step" in [action for _, action in v.legend]
    d.key("right")
    v = d.view
    assert v.step is None and v.prompt == "Done: the cube is solved!"
    actions = [action for _, action in v.legend]
    assert "next step" not in actions and "new cube" in actions and "previous step" in actions
    assert d.key("n") == []
    v = d.view
    assert v.mode is Mode.SCANNING and v.captured == {} and v.solution == () and v.step is None
    assert v.message == "New cube: show its faces one at a time."


def test_n_after_done_scans_a_second_cube(translators) -> None:
    import random

    from qbr.cube.generate import random_state

    d = Driver(translators)
    solution = _solved(d)
    for _ in range(len(solution.moves)):
        d.key("right")
    d.show(face_colours("D"), 1.0)  # the solved cube still held: ignored after N until another face comes
    d.key("n")
    d.show(face_colours("D"), 1.0)
    assert d.view.captured == {}
    second = random_state(random.Random(11)).facelets
    effects = []
    for face in FACES:
        d.nothing(0.6)
        effects += d.show(face_colours(face, second), 0.8)
    (resolve,) = [e for e in effects if isinstance(e, ResolveCube)]
    assert set(resolve.rgb) == set(FACES) and d.view.mode is Mode.RESOLVING


def test_n_before_done_does_nothing(translators) -> None:
    d = Driver(translators)
    _solved(d)
    assert d.key("n") == [] and d.view.mode is Mode.SOLUTION and d.view.step.index == 0


def test_a_scrambled_face_calibrates_its_centre_s_colour_not_its_neighbours(translators) -> None:
    # A real rig's red and orange centres (5.9 CIEDE2000 apart): a red face with orange stickers beside its centre.
    red, orange = np.array([147.0, 32.0, 22.0]), np.array([167.0, 49.0, 24.0])
    d = Driver(translators)
    d.key("c")
    for name in COLOUR_NAMES[:2]:
        solved_face(d, name)
        d.nothing(0.3)
    face = np.array([orange, orange, red, orange, red, orange, np.array([250.0, 250.0, 250.0]), orange, red])
    for _ in range(round(1.5 / DT)):
        d.t += DT
        d.send(FrameEvent(d.t, FrameAnalysis(None, face, ("red",) * 9, np.ones(9))))
    samples = np.asarray(d.session._cal.samples["red"])
    assert np.allclose(np.median(samples, axis=0), red)  # 60 sRGB (before) took the orange ones in: the median


def test_no_new_cube_once_the_video_has_ended(translators) -> None:
    from qbr.app.session import EndedEvent

    d = Driver(translators)
    solution = _solved(d)
    d.send(EndedEvent(d.t))
    for _ in range(len(solution.moves)):
        d.key("right")
    assert "new cube" not in [action for _, action in d.view.legend]  # a video that ended shows no other cube
    assert d.key("n") == [] and d.view.mode is Mode.SOLUTION
