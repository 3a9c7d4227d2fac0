"""The session with a 2x2x2: recognised by its faces' size, scanned in the guided order, never on a stray frame."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
from session_faces import face_colours

from qbr.app.analysis import FrameAnalysis
from qbr.app.jobs import resolve_and_solve
from qbr.app.session import FrameEvent, KeyEvent, Mode, ResolveCube, ResolvedEvent, Session, SessionConfig
from qbr.cube.conventions import FACES
from qbr.cube.generate import random_state
from qbr.cube.pocket.generate import random_pocket_state
from qbr.vision.palette import DEFAULT_PALETTE

SCAN = Path(__file__).resolve().parents[1] / "data" / "colour-scans" / "2x2x2-random-02.json"
POCKET = random_pocket_state(random.Random(3)).facelets
CUBE = random_state(random.Random(7)).facelets
DT = 1 / 15


class Driver:
    def __init__(self, translators, config: SessionConfig | None = None) -> None:
        self.t = 100.0
        self.session = Session(config or SessionConfig(), translators, DEFAULT_PALETTE, self.t)
        self.effects: list = []

    def show(self, colours: tuple[str, ...], seconds: float, rgb: np.ndarray | None = None) -> list:
        out: list = []
        if rgb is None:
            rgb = np.array([DEFAULT_PALETTE.colours[c] for c in colours], float)
        for _ in range(round(seconds / DT)):
            self.t += DT
            analysis = FrameAnalysis(detection=None, rgb=rgb, colours=colours, confidence=np.ones(len(colours)))
            out += self.session.handle(FrameEvent(self.t, analysis))
        self.effects += out
        return out

    def gap(self) -> None:
        self.t += 1.0


def test_a_2x2_held_up_switches_the_session_and_is_scanned_in_the_guided_order(translators) -> None:
    d = Driver(translators)
    assert d.session.size == 3 and d.session.view().size == 3
    for k, face in enumerate(SessionConfig().order):
        view = d.session.view()
        assert view.guide is not None and view.guide.face == face
        assert view.guide.text == translators["en"].t(f"app.guide.pocket.{face}") or k == 0
        d.show(face_colours(face, POCKET), 0.8)
        d.gap()
        assert d.session.size == 2 and d.session.captured_count == k + 1
    jobs = [e for e in d.effects if isinstance(e, ResolveCube)]
    assert len(jobs) == 1 and d.session.mode is Mode.RESOLVING
    assert {f: v.shape for f, v in jobs[0].rgb.items()} == {f: (4, 3) for f in FACES}
    # The captured colours are those of the cube, face by face (the guide said which face each was).
    for face in FACES:
        assert d.session.view().captured[face] == face_colours(face, POCKET)


def test_the_2x2_face_still_held_after_its_capture_is_not_taken_for_the_next(translators) -> None:
    d = Driver(translators)
    d.show(face_colours("F", POCKET), 0.8)
    d.gap()
    d.show(face_colours("F", POCKET), 0.8)  # the same face shown again after a detection gap
    assert d.session.captured_count == 1


def test_a_stray_2x2_frame_never_switches_a_3x3_session(translators) -> None:
    d = Driver(translators)
    d.show(face_colours("F", CUBE), 0.8)
    assert d.session.captured_count == 1
    for _ in range(10):  # a few 2x2 readings among the 3x3's, never steady
        d.show(face_colours("R", CUBE), 0.2)
        d.show(face_colours("F", POCKET), 2 * DT)
    assert d.session.size == 3
    # Held steady but shorter than the switch time, with faces captured: still a 3x3 session.
    d.gap()
    d.show(face_colours("U", POCKET), 1.0)
    assert d.session.size == 3 and d.session.captured_count == 2


def test_a_2x2_held_long_after_3x3_faces_replaces_them(translators) -> None:
    d = Driver(translators)
    d.show(face_colours("F", CUBE), 0.8)
    d.gap()
    d.show(face_colours("F", POCKET), 2.0)
    assert d.session.size == 2 and d.session.captured_count == 1
    assert d.session.view().captured == {"F": face_colours("F", POCKET)}


def test_a_3x3_held_up_switches_back(translators) -> None:
    d = Driver(translators)
    d.show(face_colours("F", POCKET), 0.8)
    d.gap()
    assert d.session.size == 2
    d.show(face_colours("F", CUBE), 2.0)
    assert d.session.size == 3 and d.session.captured_count == 1


def test_space_and_backspace_on_a_2x2(translators) -> None:
    d = Driver(translators)
    d.show(face_colours("F", POCKET), 0.8)
    d.gap()
    d.show(face_colours("R", POCKET), 0.1)
    d.session.handle(KeyEvent(d.t, "space"))
    assert d.session.captured_count == 2
    d.session.handle(KeyEvent(d.t, "backspace"))
    assert d.session.captured_count == 1 and d.session.view().guide.face == "R"


def test_a_real_2x2_scan_goes_through_the_session_to_a_verified_solution(translators) -> None:
    data = json.loads(SCAN.read_text())
    d = Driver(translators)
    for face in SessionConfig().order:
        rgb = np.array(data["rgb"][face], float)
        d.show(face_colours(face, data["expected_facelets"]), 0.8, rgb)
        d.gap()
    job = next(e for e in d.effects if isinstance(e, ResolveCube))
    assert job.any_order  # no centres: the guide's letters are a guess the resolution checks
    resolution, solution, error = resolve_and_solve(job.rgb, job.palette, any_order=job.any_order)
    assert error is None and solution is not None
    d.session.handle(ResolvedEvent(d.t, resolution, solution, error))
    assert d.session.mode is Mode.SOLUTION
    view = d.session.view()
    assert view.size == 2 and view.step is not None and len(view.step.facelets_before) == 24
