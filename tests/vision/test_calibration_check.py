"""Calibration's face check against faces of known colour: right faces accepted in order, wrong ones refused with
the colour they look like, a face already taken refused as too close, exposure never deciding."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from synth.palettes import PALETTES, linear_to_srgb, srgb_to_linear

from qbr.vision.calibration_check import CalibrationCheck, check_face, closest_pair, face_centre
from qbr.vision.colour import delta_e, srgb_to_lab
from qbr.vision.palette import COLOUR_NAMES, DEFAULT_PALETTE

DATA = Path(__file__).resolve().parents[1] / "data"


def solved_face(colour: str, palette: str = "standard", exposure: float = 1.0) -> np.ndarray:
    """Nine stickers of one renderer palette colour, under neutral light at ``exposure`` (linear scale)."""
    rgb = np.array(PALETTES[palette][colour], float)
    return np.tile(linear_to_srgb(srgb_to_linear(rgb) * exposure), (9, 1))


@pytest.mark.parametrize("palette", ["standard", "close_red_orange", "faded"])
def test_a_solved_cube_shown_in_order_is_accepted_face_by_face(palette: str) -> None:
    taken: dict[str, np.ndarray] = {}
    for name in COLOUR_NAMES:
        face = solved_face(name, palette)
        assert check_face(name, face, taken).accepted, (palette, name)
        taken[name] = face_centre(face)


@pytest.mark.parametrize(("asked", "held"), [("white", "green"), ("yellow", "red"), ("white", "blue"),
                                             ("yellow", "blue"), ("red", "green"), ("orange", "blue")])
def test_a_face_of_another_colour_is_refused_naming_what_it_looks_like(asked: str, held: str) -> None:
    # The demo case: C pressed while the green face is held stored green as white, red as yellow.
    taken = {n: face_centre(solved_face(n)) for n in COLOUR_NAMES[: COLOUR_NAMES.index(asked)]}
    verdict = check_face(asked, solved_face(held), taken)
    assert not verdict.accepted
    assert (verdict.reason, verdict.other) == ("looks_like", held)


def test_the_face_just_taken_held_again_is_refused_as_too_close() -> None:
    taken = {"white": face_centre(solved_face("white")), "yellow": face_centre(solved_face("yellow"))}
    again = solved_face("yellow") + 1.0  # another frame of the same face
    verdict = check_face("red", again, taken)
    assert (verdict.accepted, verdict.reason, verdict.other) == (False, "too_close", "yellow")


def test_too_close_is_the_stated_distance() -> None:
    white = face_centre(solved_face("white"))
    grey = white * 0.97  # a little darker: CIEDE2000 about 2 from the white
    gap = float(delta_e(srgb_to_lab(grey), srgb_to_lab(white)))
    assert 0.5 < gap < 3.0
    assert check_face("yellow", np.tile(grey, (9, 1)), {"white": white}, CalibrationCheck(min_separation=gap + 0.1)
                      ).reason == "too_close"
    assert check_face("yellow", np.tile(grey, (9, 1)), {"white": white}, CalibrationCheck(min_separation=gap - 0.1)
                      ).reason != "too_close"


@settings(max_examples=40, deadline=None)
@given(exposure=st.floats(0.2, 1.0), colour=st.sampled_from(COLOUR_NAMES[1:]))
def test_exposure_does_not_decide(exposure: float, colour: str) -> None:
    # A face held darker (auto-exposure, a shadow) is the same colour: white taken at full exposure.
    taken = {n: face_centre(solved_face(n)) for n in COLOUR_NAMES[: COLOUR_NAMES.index(colour)]}
    assert check_face(colour, solved_face(colour, exposure=exposure), taken).accepted


def test_a_cast_is_removed_with_the_white_taken() -> None:
    # Tungsten-like cast (red up, blue down): every face of the cube under it, the white taken first.
    cast = np.array([1.25, 1.0, 0.6])

    def under(colour: str) -> np.ndarray:
        return np.tile(linear_to_srgb(srgb_to_linear(np.array(PALETTES["standard"][colour], float)) * cast * 0.8),
                       (9, 1))

    taken: dict[str, np.ndarray] = {}
    for name in COLOUR_NAMES:
        assert check_face(name, under(name), taken).accepted, name
        taken[name] = face_centre(under(name))


def test_a_real_scan_calibrates_as_measured() -> None:
    # The robot rig's photo set (dwalton76, see tests/data): each face's centre shown for its colour in turn.
    data = json.loads((DATA / "photos" / "3x3x3-random-01__2018-02-22" / "truth.json").read_text("utf-8"))
    rgb = data.get("rgb") or data["expected_sticker_rgb"]
    colours = {"U": "white", "R": "red", "F": "green", "D": "yellow", "L": "orange", "B": "blue"}
    faces = {colours[f]: np.array(rgb[f], float) for f in colours}
    taken: dict[str, np.ndarray] = {}
    for name in COLOUR_NAMES:
        assert check_face(name, faces[name], taken).accepted, name
        taken[name] = face_centre(faces[name])
    assert not check_face("orange", faces["green"], {n: taken[n] for n in COLOUR_NAMES[:3]}).accepted


def test_a_2x2x2_face_is_judged_by_its_median_sticker() -> None:
    face = np.array([PALETTES["standard"]["green"]] * 3 + [PALETTES["standard"]["white"]], float)
    assert np.array_equal(face_centre(face), np.array(PALETTES["standard"]["green"], float))
    assert check_face("white", face, {}).other == "green"


def test_closest_pair_of_the_default_palette() -> None:
    a, b, gap = closest_pair(DEFAULT_PALETTE.colours)
    lab = DEFAULT_PALETTE.lab()
    expected = float(delta_e(lab[COLOUR_NAMES.index("red")], lab[COLOUR_NAMES.index("orange")]))
    assert {a, b} == {"red", "orange"}
    assert gap == pytest.approx(expected)
    assert 20 < gap < 30


def test_the_demo_s_orange_face_is_not_taken_for_red() -> None:
    # Centres measured on assets/demo.avi (qbr --demo): its white, its yellow, then its orange face held for red.
    taken = {"white": np.array([223.0, 230.0, 224.0]), "yellow": np.array([225.0, 213.0, 78.0])}
    orange = np.tile([233.0, 113.0, 32.0], (9, 1))
    verdict = check_face("red", orange, taken)
    assert (verdict.accepted, verdict.reason, verdict.other) == (False, "looks_like", "orange")
    taken["red"] = np.array([190.0, 30.0, 40.0])
    assert check_face("orange", orange, taken).accepted
