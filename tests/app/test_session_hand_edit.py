"""Fixing a cube by hand in the session: E opens the net, clicks and colour keys change stickers, ENTER checks and
solves the corrected cube (validated like any other), and nothing clashes with the solution's arrow keys."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from qbr.app.jobs import resolve_and_solve, solve_facelets
from qbr.app.session import (
    ColourClickEvent,
    FrameEvent,
    KeyEvent,
    Mode,
    PrintText,
    ResolveCube,
    ResolvedEvent,
    Session,
    SessionConfig,
    SolveFacelets,
    StickerClickEvent,
)
from qbr.cube.conventions import FACES, STANDARD_SCHEME, facelet_index
from qbr.cube.moves import parse_moves
from qbr.cube.pocket.state import PocketState
from qbr.cube.state import CubeState
from qbr.solve.i18n import LANGUAGES, Translator
from qbr.vision.palette import DEFAULT_PALETTE
from qbr.vision.resolve import Doubt, Resolution

LOCALES = Path(__file__).resolve().parents[2] / "qbr" / "app" / "locales"
CUBE = CubeState.from_scramble("R U2 F' L D2 B R' U F2 D' L2 B'").facelets
WRONG = facelet_index("F", 0, 1)  # the sticker misread in these tests


@pytest.fixture(scope="module")
def translators() -> dict[str, Translator]:
    return {lang: Translator(lang, extra_dirs=[LOCALES]) for lang in LANGUAGES}


def six_faces() -> dict:
    """Six captured faces (what was scanned; the tests give the resolution directly)."""
    from qbr.app.session.identity import CapturedFace

    return {f: CapturedFace(tuple(STANDARD_SCHEME[c] for c in CUBE[9 * k : 9 * k + 9]), np.zeros((9, 3)), f)
            for k, f in enumerate(FACES)}


def changed(facelets: str, index: int, letter: str) -> str:
    return facelets[:index] + letter + facelets[index + 1 :]


class Driver:
    """A session whose cube resolutions and hand-fixed solves run for real, synchronously."""

    def __init__(self, translators, size: int = 3) -> None:
        self.t = 10.0
        self.session = Session(SessionConfig(), translators, DEFAULT_PALETTE, self.t)
        self.size = size
        self.printed: list[str] = []

    def send(self, event) -> None:
        effects = self.session.handle(event)
        while effects:
            effect, effects = effects[0], effects[1:]
            self.t += 0.01
            if isinstance(effect, SolveFacelets):
                answer = solve_facelets(effect.facelets, effect.colour_names, effect.size)
                effects += self.session.handle(ResolvedEvent(self.t, *answer))
            elif isinstance(effect, ResolveCube):
                answer = resolve_and_solve(effect.rgb, effect.palette, any_order=effect.any_order)
                effects += self.session.handle(ResolvedEvent(self.t, *answer))
            elif isinstance(effect, PrintText):
                self.printed.append(effect.text)

    def key(self, *keys: str) -> None:
        for key in keys:
            self.t += 0.05
            self.send(KeyEvent(self.t, key))

    def click(self, index: int) -> None:
        self.t += 0.05
        self.send(StickerClickEvent(self.t, index))

    def resolved(self, facelets: str, uncertain: tuple[int, ...] = ()) -> None:
        """The session is told the scanned cube reads as ``facelets`` (validated as the resolver would)."""
        self.session._mode = Mode.RESOLVING  # as after the sixth face
        resolution, solution, error = solve_facelets(facelets, STANDARD_SCHEME, self.size)
        resolution = Resolution(resolution.facelets, resolution.valid, resolution.problems, np.full(len(facelets), 0.9),
                                uncertain, dict(STANDARD_SCHEME))
        self.t += 0.1
        self.send(ResolvedEvent(self.t, resolution, solution, error))

    @property
    def view(self):
        return self.session.view()


def solves(text: str, facelets: str) -> bool:
    moves = next(line for line in text.splitlines() if line.strip() and all(
        m[0] in "URFDLB" for m in line.split()))
    return CubeState(facelets).apply(parse_moves(moves)).is_solved


def test_a_misread_sticker_clicked_and_given_its_colour_gives_the_corrected_cubes_solution(translators) -> None:
    d = Driver(translators)
    d.resolved(changed(CUBE, WRONG, "U" if CUBE[WRONG] != "U" else "D"))
    assert d.view.mode is Mode.INVALID
    legend = dict(d.view.legend)
    assert legend["E"] == "fix stickers by hand"  # offered instead of scanning again
    problem = d.view.message
    assert problem
    d.key("e")
    assert d.view.mode is Mode.EDITING and d.view.edit is not None
    assert d.view.message == problem  # what is wrong stays in view while fixing it
    d.click(WRONG)
    assert d.view.edit.cursor == WRONG
    d.key(str(FACES.index(CUBE[WRONG]) + 1))
    assert d.view.edit.changed == {WRONG}
    assert d.view.edit.colours[WRONG] == STANDARD_SCHEME[CUBE[WRONG]]
    d.key("enter")
    assert d.view.mode is Mode.SOLUTION
    assert solves(d.printed[-1], CUBE)
    assert d.session.resolution.facelets == CUBE


def test_a_colour_swatch_click_sets_the_colour_too(translators) -> None:
    d = Driver(translators)
    d.resolved(changed(CUBE, WRONG, "U" if CUBE[WRONG] != "U" else "D"))
    d.key("e")
    d.click(WRONG)
    d.send(ColourClickEvent(d.t + 0.1, FACES.index(CUBE[WRONG])))
    d.key("enter")
    assert d.view.mode is Mode.SOLUTION and solves(d.printed[-1], CUBE)


def test_a_cube_still_wrong_after_fixing_returns_to_the_net_saying_why(translators) -> None:
    d = Driver(translators)
    d.resolved(changed(CUBE, WRONG, "U" if CUBE[WRONG] != "U" else "D"))
    d.key("e", "enter")  # nothing fixed: the same impossible cube
    assert d.view.mode is Mode.EDITING
    assert d.view.message  # the validation's problem, translated
    assert d.view.edit.review  # and its stickers marked
    d.key("right", "left")  # arrows move the cursor here, not solution steps
    assert d.view.mode is Mode.EDITING


def test_centres_stay_undo_takes_back_and_leaving_keeps_the_changes(translators) -> None:
    d = Driver(translators)
    d.resolved(changed(CUBE, WRONG, "U" if CUBE[WRONG] != "U" else "D"))
    d.key("e")
    d.key("backspace")
    assert d.view.message == "No sticker changed yet: nothing to undo."
    d.click(facelet_index("F", 1, 1))
    d.key("1")
    assert d.view.message == "A centre's colour names its face: it cannot be changed."
    assert not d.view.edit.changed
    d.click(WRONG)
    d.key("2", "3")
    assert d.view.edit.colours[WRONG] == STANDARD_SCHEME["F"]
    d.key("backspace")
    assert d.view.edit.colours[WRONG] == STANDARD_SCHEME["R"]
    d.key("esc")
    assert d.view.mode is Mode.INVALID  # ESC leaves the net; it does not quit
    d.key("e")
    assert d.view.edit.changed == {WRONG}


def test_after_a_solution_the_least_certain_stickers_are_offered_for_review(translators) -> None:
    d = Driver(translators)
    d.resolved(CUBE, uncertain=(WRONG, 3))
    assert d.view.mode is Mode.SOLUTION
    assert d.view.message == "2 stickers were hard to read: press E to check them on the net."
    d.key("right")
    assert d.view.step.index == 1 and d.view.message is None  # the arrows still step through the solution
    d.key("e")
    assert d.view.mode is Mode.EDITING
    assert d.view.edit.cursor == WRONG and d.view.edit.review == {WRONG, 3}
    d.key("down")
    assert d.view.edit.cursor == facelet_index("F", 1, 1)
    d.key("esc")
    assert d.view.mode is Mode.SOLUTION and d.view.step.index == 1
    printed = len(d.printed)
    d.key("e", "enter")  # checked, nothing changed: the same solution, still at step 2
    assert d.view.mode is Mode.SOLUTION and d.view.step.index == 1 and len(d.printed) == printed
    d.key("e")
    d.click(WRONG)
    d.key("1", "enter")  # changed: checked and solved again (not a real cube any more)
    assert d.view.mode is Mode.EDITING and d.view.message


def test_a_new_scan_forgets_an_earlier_fix(translators) -> None:
    d = Driver(translators)
    d.resolved(changed(CUBE, WRONG, "U" if CUBE[WRONG] != "U" else "D"))
    d.key("e")
    d.click(WRONG)
    d.key("6")
    d.key("esc")
    # The user rescans instead: the resolver's new answer is what the net shows next time.
    d.session._mode = Mode.RESOLVING
    d.send(ResolvedEvent(d.t + 1, *solve_facelets(CUBE, STANDARD_SCHEME, 3)))
    d.key("e")
    assert not d.view.edit.changed and "".join(d.session._edit.facelets) == CUBE


def test_a_2x2x2_is_fixed_by_hand_the_same_way(translators) -> None:
    pocket = PocketState.from_scramble("R U F' R2 U'").facelets
    d = Driver(translators, size=2)
    d.session._size = 2
    wrong = 5
    d.resolved(changed(pocket, wrong, "U" if pocket[wrong] != "U" else "D"))
    assert d.view.mode is Mode.INVALID
    d.key("e")
    assert d.view.edit.size == 2 and len(d.view.edit.colours) == 24
    d.click(wrong)
    d.key(str(FACES.index(pocket[wrong]) + 1))
    d.key("enter")
    assert d.view.mode is Mode.SOLUTION
    moves = d.session.solution.moves
    assert PocketState(pocket).apply(moves).is_solved


def test_frames_while_fixing_change_nothing(translators) -> None:
    d = Driver(translators)
    d.resolved(changed(CUBE, WRONG, "U" if CUBE[WRONG] != "U" else "D"))
    d.key("e")
    before = d.view.edit
    d.send(FrameEvent(d.t + 1, None))
    d.key("space", "c", "y", "n", "r")
    assert d.view.mode is Mode.EDITING and d.view.edit == before


def test_a_cube_in_doubt_can_be_checked_on_the_net_instead_of_showing_the_face_again(translators) -> None:
    d = Driver(translators)
    d.session._mode = Mode.RESOLVING
    solution = solve_facelets(CUBE, STANDARD_SCHEME, 3)[1]
    doubtful = Resolution(CUBE, True, [], np.full(54, 0.9), (WRONG,), dict(STANDARD_SCHEME), "F",
                          Doubt((WRONG,), "F"))
    d.send(ResolvedEvent(d.t + 1, doubtful, solution, None))
    assert d.view.mode is Mode.INVALID and d.view.highlight_face == "F"  # asked to show the green face again
    assert d.view.review == (WRONG,)  # ringed on the small net
    assert dict(d.view.legend)["E"] == "fix stickers by hand"
    d.key("e")
    assert d.view.edit.cursor == WRONG and d.view.edit.review == {WRONG}
    d.key("enter")  # it looks right: take the cube as read
    assert d.view.mode is Mode.SOLUTION and solves(d.printed[-1], CUBE)


def test_when_no_face_can_be_shown_again_the_window_offers_fixing_by_hand_instead_of_quitting(translators) -> None:
    from qbr.app.session import EndedEvent, Quit, SessionConfig, TickEvent

    d = Driver(translators)
    d.session = Session(SessionConfig(ended_seconds=0.0), translators, DEFAULT_PALETTE, d.t)
    d.session._faces = six_faces()
    d.send(EndedEvent(d.t, "photos"))  # the photos ran out while the cube was being read
    d.resolved(changed(CUBE, WRONG, "U" if CUBE[WRONG] != "U" else "D"))
    assert d.view.mode is Mode.ENDED
    assert d.view.legend[0] == ("E", "fix stickers by hand")
    assert d.session.handle(TickEvent(d.t + 60)) == []  # waits for the user instead of quitting
    d.key("e")
    assert d.view.mode is Mode.EDITING
    d.key("esc")
    assert d.view.mode is Mode.ENDED and d.session.handle(TickEvent(d.t + 120)) == []
    d.key("e")
    d.click(WRONG)
    d.key(str(FACES.index(CUBE[WRONG]) + 1), "enter")
    assert d.view.mode is Mode.SOLUTION and solves(d.printed[-1], CUBE)
    assert not d.session.ended

    # Headless (nobody at a window): it says what is wrong and quits, as before.
    h = Driver(translators)
    h.session = Session(SessionConfig(ended_seconds=0.0, interactive=False), translators, DEFAULT_PALETTE, h.t)
    h.session._faces = six_faces()
    h.send(EndedEvent(h.t, "photos"))
    h.resolved(changed(CUBE, WRONG, "U" if CUBE[WRONG] != "U" else "D"))
    assert h.view.mode is Mode.ENDED and h.session.handle(TickEvent(h.t + 1)) == [Quit()]


def test_a_source_that_ends_while_the_net_is_open_leaves_it_open(translators) -> None:
    from qbr.app.session import EndedEvent

    d = Driver(translators)
    d.session._faces = six_faces()
    d.resolved(changed(CUBE, WRONG, "U" if CUBE[WRONG] != "U" else "D"))
    d.key("e")
    d.send(EndedEvent(d.t, "video"))
    assert d.view.mode is Mode.EDITING
    d.key("esc")
    assert d.view.mode is Mode.ENDED  # not back to "scan the face again": the video is over
