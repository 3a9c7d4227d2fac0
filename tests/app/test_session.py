"""The session state machine driven by scripted events: no window, no images, no clock."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import physcam
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qbr.app.analysis import FrameAnalysis
from qbr.app.session import (
    FrameEvent,
    KeyEvent,
    Mode,
    NoticeEvent,
    PrintText,
    Quit,
    ResolveCube,
    ResolvedEvent,
    SaveLanguage,
    SavePalette,
    Session,
    SessionConfig,
    SolvingEvent,
    SourceEvent,
    TickEvent,
)
from qbr.cube.conventions import FACES, STANDARD_SCHEME
from qbr.cube.generate import random_state
from qbr.cube.moves import apply_to_facelets
from qbr.cube.state import CubeState
from qbr.solve.i18n import LANGUAGES, Translator
from qbr.vision.classify import classify_face
from qbr.vision.detect import detect_face
from qbr.vision.face_match import centre_distances
from qbr.vision.measure import measure_stickers_with_spread
from qbr.vision.palette import DEFAULT_PALETTE
from qbr.vision.tunables import Tunables

LOCALES = Path(__file__).resolve().parents[2] / "qbr" / "app" / "locales"
CUBE = random_state(random.Random(7)).facelets
DT = 1 / 15


@pytest.fixture(scope="module")
def translators() -> dict[str, Translator]:
    return {lang: Translator(lang, extra_dirs=[LOCALES]) for lang in LANGUAGES}


def face_colours(face: str, facelets: str = CUBE, scheme=STANDARD_SCHEME) -> tuple[str, ...]:
    letters = facelets[9 * FACES.index(face) : 9 * FACES.index(face) + 9]
    return tuple(scheme[letter] for letter in letters)


def analysis(colours: tuple[str, ...], shift: float = 0.0) -> FrameAnalysis:
    rgb = np.array([DEFAULT_PALETTE.colours[c] for c in colours]) + shift
    return FrameAnalysis(detection=None, rgb=rgb, colours=colours, confidence=np.ones(9))


class Driver:
    """Feeds events in time order and collects every effect."""

    def __init__(self, translators, config: SessionConfig | None = None) -> None:
        self.t = 100.0
        self.session = Session(config or SessionConfig(), translators, DEFAULT_PALETTE, self.t)
        self.effects: list = []

    def send(self, event) -> list:
        out = self.session.handle(event)
        self.effects += out
        return out

    def show(self, colours: tuple[str, ...], seconds: float, shift: float = 0.0) -> list:
        out: list = []
        for _ in range(round(seconds / DT)):
            self.t += DT
            out += self.send(FrameEvent(self.t, analysis(colours, shift)))
        return out

    def nothing(self, seconds: float) -> None:
        for _ in range(round(seconds / DT)):
            self.t += DT
            self.send(FrameEvent(self.t, None))

    def key(self, key: str) -> list:
        self.t += 0.01
        return self.send(KeyEvent(self.t, key))

    def scan(self, faces, facelets: str = CUBE) -> None:
        for face in faces:
            self.show(face_colours(face, facelets), 0.8)
            self.nothing(0.6)  # the cube is turned to the next face: no face seen for a moment

    @property
    def view(self):
        return self.session.view()


def test_guide_follows_the_net_orientation_in_order(translators) -> None:
    d = Driver(translators)
    seen = []
    for face in ("F", "R", "B", "L", "U", "D"):
        g = d.view.guide
        seen.append((g.face, g.front, g.top, g.right))
        assert g.text  # a translated sentence
        d.scan(face)
    assert seen == [
        ("F", "green", "white", "red"),
        ("R", "red", "white", "blue"),
        ("B", "blue", "white", "orange"),
        ("L", "orange", "white", "green"),
        ("U", "white", "blue", "red"),
        ("D", "yellow", "green", "red"),
    ]


def test_auto_capture_after_half_a_second_of_steady_colours(translators) -> None:
    d = Driver(translators)
    green = face_colours("F")
    d.show(green, 0.4)
    assert d.view.captured == {}
    assert 0.6 < d.view.preview.steady < 1.0
    d.show(green, 0.2)
    assert d.view.captured == {"F": green}
    assert d.view.status == "1/6 faces"


def test_changing_colours_restart_the_steadiness_timer(translators) -> None:
    d = Driver(translators)
    green = face_colours("F")
    misread = ("red", *green[1:])
    for _ in range(6):  # alternating readings are never steady
        d.show(green, 0.3)
        d.show(misread, 0.3)
    assert d.view.captured == {}


def test_a_flickering_sticker_is_outvoted(translators) -> None:
    d = Driver(translators)
    green = face_colours("F")
    flicker = (*green[:2], "yellow" if green[2] != "yellow" else "white", *green[3:])
    for i in range(12):
        d.show(flicker if i % 3 == 0 else green, DT)
    assert d.view.captured == {"F": green}


def test_a_sticker_read_two_ways_half_the_time_is_not_captured(translators) -> None:
    d = Driver(translators)
    green = face_colours("F")
    other = (*green[:2], "yellow" if green[2] != "yellow" else "white", *green[3:])
    for i in range(30):
        d.show(other if i % 2 else green, DT)
    assert d.view.captured == {}
    assert d.view.preview.steady == pytest.approx(0.95)  # held long enough, colours still undecided
    d.key("space")  # the user can still take it
    assert set(d.view.captured) == {"F"}


def test_space_captures_at_once_and_only_with_a_face(translators) -> None:
    d = Driver(translators)
    d.nothing(0.2)
    d.key("space")
    assert d.view.captured == {}
    assert "No cube face" in d.view.message
    d.show(face_colours("R"), 2 * DT)
    d.key("space")
    assert d.view.captured == {"R": face_colours("R")}


def test_faces_are_recognised_by_centre_in_any_order(translators) -> None:
    d = Driver(translators)
    d.scan(["D", "U", "B"])
    assert set(d.view.captured) == {"D", "U", "B"}
    assert d.view.guide.face == "F"  # the first face of the guided order still missing


def test_a_misnamed_centre_is_placed_by_elimination(translators) -> None:
    # A bluish white centre (the face's light fit leaves it nearer blue) is read blue; once the real blue face is
    # in, the faces are told apart by their centres (distinct faces), with no question asked and nothing lost.
    d = Driver(translators)
    rgb = np.array([DEFAULT_PALETTE.colours[c] for c in face_colours("U")], dtype=float)
    rgb[4] *= np.array([0.4, 0.6, 1.0])
    cast = classify_face(rgb, DEFAULT_PALETTE).names
    assert cast[4] == "blue"
    for _ in range(12):
        d.t += DT
        d.send(FrameEvent(d.t, FrameAnalysis(None, rgb, cast, np.ones(9))))
    assert set(d.view.captured) == {"B"}  # alone, it looks blue
    d.nothing(0.6)
    d.scan("B")
    v = d.view
    assert v.mode is Mode.SCANNING and set(v.captured) == {"U", "B"}
    assert v.captured["B"] == face_colours("B") and v.captured["U"] == cast


def test_a_warm_lit_orange_centre_captured_first_is_announced_orange(translators) -> None:
    # A tungsten-lit orange face (physcam, tuning seed 5342): measured, its centre is nearer the palette's red than
    # its orange; its face's light fit names it orange, and so it is placed and announced, alone.
    rng = np.random.default_rng(5342)
    shot = physcam.render_face(face_colours("L"), physcam.sample_params("medium", rng), rng)
    detection = detect_face(shot.image, Tunables())
    assert detection is not None
    measured = measure_stickers_with_spread(shot.image, detection, Tunables())
    rgb = np.asarray(measured.rgb, dtype=float)
    read = classify_face(rgb, DEFAULT_PALETTE, glare=measured.glare)
    raw = centre_distances(rgb[4], [np.array(DEFAULT_PALETTE.colours[c], dtype=float) for c in ("red", "orange")])
    assert read.names[4] == "orange" and raw[0] + 10 < raw[1]  # the case: raw colour says red, by a margin
    d = Driver(translators)
    for _ in range(12):
        d.t += DT
        d.send(FrameEvent(d.t, FrameAnalysis(None, rgb, read.names, read.confidence)))
    assert set(d.view.captured) == {"L"}
    assert d.view.message == "Captured the face with the orange centre."


def test_guided_order_decides_faces_for_a_non_standard_scheme(translators) -> None:
    # A cube where blue is opposite white (a Japanese-style scheme): the guided order says which face is which.
    scheme = {"U": "white", "R": "red", "F": "green", "D": "blue", "L": "orange", "B": "yellow"}
    d = Driver(translators, SessionConfig(scheme=scheme))
    for face in ("F", "R", "B", "L", "U", "D"):
        d.show(face_colours(face, scheme=scheme), 0.8)
        d.nothing(0.6)
    assert d.view.scheme == scheme
    assert {f: c[4] for f, c in d.view.captured.items()} == scheme
    assert isinstance(d.effects[-1], ResolveCube)


def test_replace_question_no_yes_and_escape(translators) -> None:
    d = Driver(translators)
    green = face_colours("F")
    d.scan("F")
    # The same face read again with three stickers different (five of its eight outer ones still alike).
    other = tuple(("blue" if c == "yellow" else "yellow") if k < 3 else c for k, c in enumerate(green))
    d.show(other, 0.8)
    assert d.view.mode is Mode.CONFIRM_REPLACE
    assert "Y = yes" in d.view.prompt
    d.key("n")
    assert d.view.mode is Mode.SCANNING and d.view.captured["F"] == green
    d.show(other, 1.0)  # the declined face held on does not ask again
    assert d.view.mode is Mode.SCANNING
    d.nothing(0.6)
    d.show(other, 0.8)  # shown again later: asks again
    assert d.view.mode is Mode.CONFIRM_REPLACE
    d.key("n")
    d.key("space")
    assert d.view.mode is Mode.CONFIRM_REPLACE
    assert d.key("esc") == []  # ESC answers no ...
    assert d.view.captured["F"] == green and d.view.mode is Mode.SCANNING
    d.key("space")
    d.key("y")
    assert d.view.captured["F"] == other
    assert d.key("esc") == [Quit()]  # ... and otherwise quits


def test_a_centre_measuring_like_another_is_a_new_face_when_its_stickers_differ(translators) -> None:
    # A washed-out yellow centre reads (and measures) like the white one: its outer stickers tell the faces apart,
    # even shown straight after the white face with no gap between them.
    d = Driver(translators)
    white = face_colours("U")
    washed_d = (*face_colours("D")[:4], "white", *face_colours("D")[5:])
    assert sum(a == b for a, b in zip(white, washed_d, strict=True)) < 6
    d.show(white, 0.8)
    d.show(washed_d, 0.8)
    assert len(d.view.captured) == 2
    d.nothing(0.6)
    d.scan("RFLB")
    assert set(d.view.captured) == set(FACES) and isinstance(d.effects[-1], ResolveCube)
    assert d.view.captured["D"] == washed_d  # placed by the joint assignment of the six centres


def test_same_face_again_is_not_a_question(translators) -> None:
    d = Driver(translators)
    green = face_colours("F")
    d.scan("F")
    d.scan("F")
    assert d.view.mode is Mode.SCANNING and len(d.view.captured) == 1
    d.show(green, 0.6)
    d.show((*green[:3], "white", "green", "white", *green[6:]), 1.0)  # the reading drifts as the cube turns away
    assert d.view.mode is Mode.SCANNING and d.view.captured == {"F": green}
    d.nothing(0.6)
    reread = ("white", *green[1:])
    d.show(reread, 0.8)  # shown again, one sticker read differently: kept, no question
    assert d.view.mode is Mode.SCANNING and d.view.captured == {"F": green}


def test_headless_never_asks(translators) -> None:
    d = Driver(translators, SessionConfig(interactive=False))
    d.scan("F")
    reread = tuple(("blue" if c == "yellow" else "yellow") if k < 3 else c for k, c in enumerate(face_colours("F")))
    d.show(reread, 0.8)  # the same face read with three stickers different: a question in the window
    assert d.view.mode is Mode.SCANNING and d.view.captured == {"F": face_colours("F")}


def test_backspace_undoes_only_the_last_capture(translators) -> None:
    d = Driver(translators)
    d.scan(["F", "R", "B"])
    d.key("backspace")
    assert set(d.view.captured) == {"F", "R"}
    assert d.view.guide.face == "B"
    d.key("backspace")
    d.key("backspace")
    d.key("backspace")  # nothing left: says so, loses nothing
    assert d.view.captured == {}
    assert "nothing to undo" in d.view.message


def test_six_faces_ask_for_resolution_with_mean_colours(translators) -> None:
    d = Driver(translators)
    d.scan(["F", "R", "B", "L", "U"])
    d.show(face_colours("D"), 0.4, shift=2.0)
    effects = d.show(face_colours("D"), 0.4, shift=-2.0)
    (job,) = [e for e in effects if isinstance(e, ResolveCube)]
    assert list(job.rgb) == list(FACES)
    expected = np.array([DEFAULT_PALETTE.colours[c] for c in face_colours("D")])
    assert np.abs(job.rgb["D"] - expected).max() < 2.0  # the mean over the steady frames, not the last frame
    assert job.palette == DEFAULT_PALETTE
    assert d.view.mode is Mode.RESOLVING
    assert d.key("space") == [] and d.key("backspace") == []
    assert len(d.view.captured) == 6


def test_the_shortest_solution_so_far_is_shown_while_solving(translators) -> None:
    from qbr.solve.solver import solve

    d = Driver(translators)
    d.scan(["F", "R", "B", "L", "U"])
    d.show(face_colours("D"), 0.4, shift=2.0)
    d.show(face_colours("D"), 0.4, shift=-2.0)
    searching = d.view.prompt
    assert d.send(SolvingEvent(d.t, 20)) == [] and d.send(SolvingEvent(d.t, 19)) == []
    assert d.view.mode is Mode.RESOLVING and "19" in d.view.prompt and d.view.prompt != searching
    d.send(ResolvedEvent(d.t, _resolution(CUBE, True), solve(CUBE), None))
    assert d.view.mode is Mode.SOLUTION and "19" not in d.view.prompt
    d.send(SolvingEvent(d.t, 18))  # a report that arrives after the answer changes nothing
    assert "18" not in d.view.prompt


def _resolution(facelets: str, valid: bool, face: str | None = None, problems=()):
    return SimpleNamespace(facelets=facelets, valid=valid, problems=list(problems), least_certain_face=face,
                           confidence=np.ones(54), uncertain=(), colour_names=dict(STANDARD_SCHEME))


def test_invalid_cube_rescans_the_least_certain_face_only(translators) -> None:
    from qbr.cube.errors import InvalidCubeError
    from qbr.cube.validate import validate

    d = Driver(translators)
    d.scan(FACES)
    broken = CUBE[:9] + CUBE[10] + CUBE[9] + CUBE[11:]  # two stickers swapped
    problems = validate(broken)
    assert problems
    d.send(ResolvedEvent(d.t, _resolution(broken, False, "R", problems), None, InvalidCubeError(problems)))
    v = d.view
    assert v.mode is Mode.INVALID and v.highlight_face == "R"
    assert v.message and v.guide.face == "R"
    assert "red" in v.prompt
    assert len(v.captured) == 6
    effects = d.show(face_colours("R"), 0.8)
    assert [type(e) for e in effects] == [ResolveCube]
    assert d.view.mode is Mode.RESOLVING


def test_a_face_in_doubt_is_asked_for_once_more_then_the_cube_is_solved(translators) -> None:
    from qbr.solve.solver import solve
    from qbr.vision.resolve import Doubt

    d = Driver(translators)
    d.scan(FACES)
    doubtful = SimpleNamespace(**vars(_resolution(CUBE, True)), doubt=Doubt((10, 16), "R"), turned={})
    assert d.send(ResolvedEvent(d.t, doubtful, solve(CUBE), None)) == []
    v = d.view
    assert v.mode is Mode.INVALID and v.highlight_face == "R" and "red" in v.message
    effects = d.show(face_colours("R"), 0.8)
    assert [type(e) for e in effects] == [ResolveCube]
    (printed,) = d.send(ResolvedEvent(d.t, doubtful, solve(CUBE), None))  # still in doubt: take it as read
    assert isinstance(printed, PrintText) and d.view.mode is Mode.SOLUTION


def test_a_photo_taken_turned_is_named_when_the_cube_is_solved(translators) -> None:
    from qbr.solve.solver import solve

    d = Driver(translators)
    d.scan(FACES)
    turned = SimpleNamespace(**vars(_resolution(CUBE, True)), doubt=None, turned={"U": 1})
    (printed,) = d.send(ResolvedEvent(d.t, turned, solve(CUBE), None))
    notice = "The U photo (white centre) was turned a quarter turn clockwise; corrected."
    assert printed.text.startswith(notice) and d.view.message == notice and d.view.mode is Mode.SOLUTION


def test_new_colours_resolve_an_invalid_cube_again(translators) -> None:
    d = Driver(translators)
    d.scan(FACES)
    d.send(ResolvedEvent(d.t, _resolution(CUBE, False, "F"), None, None))
    assert d.view.mode is Mode.INVALID and d.view.message
    d.key("c")
    effects = d.key("r")
    assert effects[0] == SavePalette(None) and isinstance(effects[1], ResolveCube)
    assert d.view.mode is Mode.RESOLVING and len(d.view.captured) == 6


def test_solution_steps_forward_and_back(translators) -> None:
    from qbr.solve.solver import solve

    d = Driver(translators)
    d.scan(FACES)
    solution = solve(CUBE)
    effects = d.send(ResolvedEvent(d.t, _resolution(CUBE, True), solution, None))
    (printed,) = effects
    assert isinstance(printed, PrintText) and solution.notation in printed.text
    v = d.view
    assert v.mode is Mode.SOLUTION
    assert v.solution == tuple(str(m) for m in solution.moves)
    assert v.step.index == 0 and v.step.facelets_before == CUBE
    for _ in range(3):
        d.key("right")
    d.key("left")
    step = d.view.step
    assert step.index == 2 and step.move == str(solution.moves[2])
    assert step.counter == f"Step 3 of {len(solution.moves)}"
    assert step.facelets_before == apply_to_facelets(CUBE, solution.moves[:2])
    for _ in range(40):
        d.key("right")
    assert d.view.step is None and "solved" in d.view.prompt
    assert CubeState(CUBE).apply(solution.moves).is_solved


def test_normalize_prints_numbered_sentences(translators) -> None:
    from qbr.solve.solver import solve

    d = Driver(translators, SessionConfig(normalize=True))
    d.scan(FACES)
    (printed,) = d.send(ResolvedEvent(d.t, _resolution(CUBE, True), solve(CUBE), None))
    assert "1." in printed.text


def test_calibration_samples_every_colour_and_saves(translators) -> None:
    d = Driver(translators)
    d.scan(["F", "R"])
    d.key("c")
    assert d.view.mode is Mode.CALIBRATING
    shown = {}
    for i, name in enumerate(DEFAULT_PALETTE.colours):
        assert d.view.calibration == (name, i, 6)
        true = np.array(DEFAULT_PALETTE.colours[name]) * 0.8 + 10  # the user's light differs from the defaults
        shown[name] = true
        # A scrambled face: the centre and three stickers of its colour, the rest of other colours (ignored).
        rgb = np.array([true if k in (0, 4, 5, 8) else np.array([20.0, 20.0, 20.0]) + 40 * (k % 3) for k in range(9)])
        for _ in range(20):
            d.t += DT
            fa = FrameAnalysis(None, rgb, ("unknown",) * 9, np.zeros(9))
            d.send(FrameEvent(d.t, fa))
    assert d.view.mode is Mode.CONFIRM_CALIBRATION and not [e for e in d.effects if isinstance(e, SavePalette)]
    d.key("y")
    saves = [e for e in d.effects if isinstance(e, SavePalette)]
    assert len(saves) == 1
    for name, true in shown.items():
        assert np.allclose(saves[0].palette.colours[name], true, atol=0.5)
    assert d.view.mode is Mode.SCANNING and set(d.view.captured) == {"F", "R"}
    assert d.session.palette == saves[0].palette


def test_calibration_waits_for_a_new_colour(translators) -> None:
    d = Driver(translators)
    d.key("c")
    d.show(face_colours("U", facelets="U" * 9 * 6), 1.5)  # all white: white sampled
    assert d.view.calibration[1] == 1
    d.show(face_colours("U", facelets="U" * 9 * 6), 2.0)  # still white: not taken as yellow
    assert d.view.calibration[1] == 1
    assert d.view.message == ("This centre looks like the white one already calibrated. "
                              "Show the face with the yellow centre.")


def test_calibration_c_leaves_unchanged_and_r_resets(translators) -> None:
    d = Driver(translators)
    d.key("c")
    d.show(face_colours("U", facelets="U" * 54), 1.5)
    d.key("c")
    assert d.view.mode is Mode.SCANNING
    assert not [e for e in d.effects if isinstance(e, SavePalette)]
    d.key("c")
    assert d.key("r") == [SavePalette(None)]
    assert d.view.mode is Mode.SCANNING and d.session.palette == DEFAULT_PALETTE


def test_language_cycles_through_all_languages(translators) -> None:
    d = Driver(translators)
    english = d.view.prompt
    langs = []
    for _ in LANGUAGES:
        (effect,) = d.key("l")
        assert isinstance(effect, SaveLanguage)
        langs.append(effect.lang)
        v = d.view
        assert v.language == effect.lang and v.rtl == (effect.lang == "ar")
        if effect.lang != "en":
            assert v.prompt != english and all(text != t for (_, text), (_, t) in
                                                zip(v.legend, Driver(translators).view.legend, strict=True))
    assert langs == [*LANGUAGES[1:], "en"]


def test_every_language_renders_every_mode(translators) -> None:
    from qbr.solve.solver import solve

    for lang in LANGUAGES:
        d = Driver(translators, SessionConfig(language=lang))
        d.scan(["F", "R"])
        d.show(tuple(("blue" if c == "yellow" else "yellow") if k < 3 else c
                     for k, c in enumerate(face_colours("F"))), 0.8)  # F read again, three stickers different
        views = [d.view]
        d.key("n")
        d.key("c")
        views.append(d.view)
        d.key("c")
        d.scan(["B", "L", "U", "D"])
        views.append(d.view)
        d.send(ResolvedEvent(d.t, _resolution(CUBE, True), solve(CUBE), None))
        views.append(d.view)
        d.send(SourceEvent(d.t, False))
        views.append(d.view)
        assert [v.mode for v in views] == [Mode.CONFIRM_REPLACE, Mode.CALIBRATING, Mode.RESOLVING, Mode.SOLUTION,
                                           Mode.SOLUTION]
        for v in views:
            assert v.language == lang and v.prompt and v.status and v.legend
            assert all(label and text for label, text in v.legend)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_legend_names_keys_in_the_words_the_prompts_use(translators, lang: str) -> None:
    tr = translators[lang]
    d = Driver(translators, SessionConfig(language=lang))
    d.scan(["F"])
    labels = [label for label, _ in d.view.legend]
    space = tr.t("app.keyname.space")
    assert labels[0] == space and space in d.view.prompt  # "drücke die LEERTASTE" beside "LEERTASTE Seite erfassen"
    assert labels[1] == tr.t("app.keyname.backspace") and labels[-1] == tr.t("app.keyname.esc")
    assert "L" in labels and "C" in labels
    if lang != "en":
        assert "SPACE" not in labels
    item = d.view.legend_item.format(key=space, action=tr.t("app.key.capture"))
    assert item == tr.t("app.legend.item", key=space, action=tr.t("app.key.capture"))


def test_lost_frames_keep_everything_and_resume(translators) -> None:
    d = Driver(translators)
    d.scan(["F", "R", "B"])
    d.send(SourceEvent(d.t, False))
    v = d.view
    assert v.mode is Mode.NO_FRAMES and "camera" in v.message and len(v.captured) == 3
    d.send(TickEvent(d.t + 5))
    d.send(SourceEvent(d.t + 6, True))
    d.t += 6
    assert d.view.mode is Mode.SCANNING
    d.scan(["L"])
    assert len(d.view.captured) == 4


def test_notices_are_shown(translators) -> None:
    notice = ("app.warn.bad_file", {"path": "/x/palette.json", "reason": "bad"})
    d = Driver(translators, SessionConfig(notices=(notice,)))
    assert "/x/palette.json" in d.view.message
    other = ("app.warn.bad_file", {"path": "/x/settings.json", "reason": "a FIFO"})
    two = Driver(translators, SessionConfig(notices=(notice, other)))
    assert two.view.message == "Ignored /x/palette.json: bad. Ignored /x/settings.json: a FIFO."  # two sentences
    d.send(NoticeEvent(d.t, "app.warn.cannot_save", {"path": "/y", "reason": "read-only"}))
    assert "/y" in d.view.message


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["space", "c", "l", "r", "backspace", "left", "right", "y", "n", "enter"]),
                max_size=30))
def test_no_key_loses_captured_faces_except_one_backspace(keys) -> None:
    tr = {lang: Translator(lang, extra_dirs=[LOCALES]) for lang in ("en", "ar")}
    d = Driver(tr, SessionConfig(languages=("en", "ar")))
    d.scan(["F", "R", "B"])
    for key in keys:
        before = dict(d.view.captured)
        d.key(key)
        after = d.view.captured
        lost = set(before) - set(after)
        if key == "backspace" and d.view.mode is not Mode.CALIBRATING:
            assert len(lost) <= 1
        else:
            assert not lost
        assert all(after.get(f) == c for f, c in before.items() if f not in lost)


def test_the_preview_marks_stickers_named_without_confidence(translators) -> None:
    d = Driver(translators)
    colours = face_colours("F")
    unsure = np.ones(9)
    unsure[[2, 7]] = 0.2  # e.g. glare-washed stickers, named by hue with low confidence
    d.send(FrameEvent(d.t + DT, dataclasses.replace(analysis(colours), confidence=unsure)))
    assert d.view.preview.unsure == tuple(k in (2, 7) for k in range(9))


def held_turned_cw(colours: tuple[str, ...], k: int) -> tuple[str, ...]:
    """What the camera reads of a face held ``k`` quarter turns clockwise."""
    for _ in range(k):
        colours = tuple(colours[r * 3 + c] for c in range(3) for r in range(2, -1, -1))
    return colours


@pytest.mark.parametrize("k", [1, 2, 3])
def test_a_face_held_turned_is_caught_at_capture_once_its_neighbours_are_known(translators, k: int) -> None:
    d = Driver(translators)
    d.scan("FRBL")
    d.show(held_turned_cw(face_colours("U"), k), 0.8)
    turn = {1: "a quarter turn clockwise", 2: "upside down (a half turn)", 3: "a quarter turn counter-clockwise"}[k]
    assert d.view.message == f"Captured the face with the white centre. It was held {turn}, so it was read turned back."
    d.show(held_turned_cw(face_colours("U"), k), 0.8)  # still held so: the same face, no question
    assert d.view.mode is Mode.SCANNING
    d.nothing(0.6)
    d.scan("D")
    (resolve,) = [e for e in d.effects if isinstance(e, ResolveCube)]
    upright = np.array([DEFAULT_PALETTE.colours[c] for c in face_colours("U")])
    assert np.allclose(resolve.rgb["U"], upright)  # stored as if held upright


def test_a_face_held_upright_is_captured_as_it_is(translators) -> None:
    d = Driver(translators)
    d.scan("FRBLU")
    assert d.view.message == "Captured the face with the white centre."
