"""A 2x2x2's lost faces found again with the cube's help: real photos and renders read exactly, nothing made up."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import cv2
import numpy as np
import physcam
import pytest
import synth
from synth.scenes import make_background

from qbr.cube.conventions import FACES
from qbr.cube.pocket.generate import random_pocket_state
from qbr.vision.detect import detect_face, face_guesses
from qbr.vision.measure import measure_stickers
from qbr.vision.pocket_recover import complete_faces
from qbr.vision.resolve import resolve_pocket
from qbr.vision.tunables import Tunables

POCKET_SET = Path(__file__).resolve().parent.parent / "data" / "photos" / "2x2x2-random-01"
PROFILES = {"photo": Tunables(), "live": Tunables().for_video()}


def same_cube(found: str, expected: str) -> bool:
    """Equal up to a one-to-one relabelling of the letters (colour names differ between schemes), all known."""
    pairs = set(zip(found, expected, strict=True))
    return len(pairs) == len({a for a, _ in pairs}) == len({b for _, b in pairs}) and "?" not in found


@pytest.fixture(scope="module")
def real() -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], str]:
    """The real 2x2x2 photo set: photos, each face's stickers as detected and measured, the true facelets."""
    images = {face: cv2.imread(str(POCKET_SET / f"{face}.jpg")) for face in FACES}
    rgb = {}
    for face, image in images.items():
        found = detect_face(image)
        assert found is not None and found.size == 2, face
        rgb[face] = measure_stickers(image, found)
    return images, rgb, json.loads((POCKET_SET / "truth.json").read_text())["expected_facelets"]


def _unmeasured(rgb: dict[str, np.ndarray]) -> list[str]:
    return [face for face, stickers in rgb.items() if not np.isfinite(stickers).all()]


def test_the_guesses_of_a_real_photo_hold_its_face_with_the_stickers_in_order(real) -> None:
    images, _, _ = real
    for face, image in images.items():
        found = detect_face(image)
        centres = found.sticker_centres()
        pitch = float(np.linalg.norm(centres[1] - centres[0]))
        errors = [np.linalg.norm(g.sticker_centres() - centres, axis=1).max() / pitch for g in face_guesses(image)]
        assert min(errors) < 0.25, face  # row-major as the detection lists them: a mirrored grid would fail


@pytest.mark.parametrize("lost", [("U", "D"), ("R", "L"), ("U", "F"), ("F", "R"), ("D", "B")], ids="".join)
def test_two_lost_real_faces_one_is_found_again_and_the_cube_read_exactly(real, lost: tuple[str, str]) -> None:
    images, rgb, truth = real
    found = {face: stickers for face, stickers in rgb.items() if face not in lost}
    done = complete_faces(images, found)
    assert len(_unmeasured(done)) == 1 and _unmeasured(done)[0] in lost  # one found again, one to fill in
    assert same_cube(resolve_pocket(done).facelets, truth)


# A grid placed on something else reads some other cube's colours: here another face's stickers, turned (U->D and
# B->F read as a real, wrong cube; R->F as none).
@pytest.mark.parametrize(("source", "face"), [("U", "D"), ("B", "F"), ("R", "F")], ids="->".join)
def test_a_real_face_read_off_the_cube_is_left_out_and_filled_in(real, source: str, face: str) -> None:
    images, rgb, truth = real
    wrong = {**rgb, face: rgb[source][[1, 3, 0, 2]]}
    assert not same_cube(resolve_pocket(wrong).facelets, truth)
    done = complete_faces(images, wrong)
    assert _unmeasured(done) == [face] and same_cube(resolve_pocket(done).facelets, truth)


def test_six_real_faces_that_make_the_cube_are_kept_as_they_are(real) -> None:
    images, rgb, _ = real
    done = complete_faces(images, rgb)
    assert done.keys() == rgb.keys() and all(np.array_equal(done[f], rgb[f]) for f in FACES)


def test_a_real_face_with_one_sticker_repaired_is_kept_when_it_reads_the_same_cube(real) -> None:
    images, rgb, truth = real
    glare = {**rgb, "F": rgb["F"].copy()}
    glare["F"][1] = (250.0, 250.0, 245.0)  # one sticker washed out by glare
    assert same_cube(resolve_pocket(glare).facelets, truth)
    done = complete_faces(images, glare)
    assert _unmeasured(done) == [] and np.array_equal(done["F"], glare["F"])  # not dropped and filled in


def test_photos_without_the_cube_give_nothing_made_up(real) -> None:
    images, rgb, _ = real
    rng = np.random.default_rng(7300)
    for lost in (("U", "F"), ("R", "L"), ("D", "B")):
        rooms = {face: np.ascontiguousarray(make_background(640, 480, float(rng.uniform(0, 1)), rng)[..., ::-1])
                 for face in lost}
        found = {face: stickers for face, stickers in rgb.items() if face not in rooms}
        done = complete_faces({**images, **rooms}, found)
        assert done.keys() == found.keys(), lost  # two faces unseen: nothing guessed, the scan says which


def _rendered_cube(seed: int, tier: str) -> tuple[dict[str, synth.Rendered], str]:
    """The rendered cube of bench/pocket_scan.py's cubes section (tuning seeds), its faces and facelets."""
    t = ("easy", "medium").index(tier)
    rng = np.random.default_rng([seed, 0, 10 + t])
    base = synth.sample_params(tier, rng, size=2)
    truth = random_pocket_state(random.Random(seed * 64 + t)).facelets
    faces = synth.render_cube(truth, lambda _f: synth.sample_params(tier, rng, palette=base.palette, body=base.body,
                                                                    size=2), rng)
    return faces, truth


# Tuning seeds where single-photo detection loses two faces: two alike stickers merged on a stickerless cube
# (5025, 5056), no light sticker on a black body seen (5068), a grid put on a tile beside a white face (5032).
@pytest.mark.parametrize(("seed", "profile"), [(5025, "photo"), (5056, "live"), (5068, "photo"), (5032, "photo")])
def test_rendered_cubes_with_faces_lost_are_read_exactly(seed: int, profile: str) -> None:
    # Without the later photo looks that find some of these faces alone (5025's seen smaller).
    tunables = dataclasses.replace(PROFILES[profile], retry_far_scales=(), pocket_pooled_look=False)
    faces, truth = _rendered_cube(seed, "medium")
    images = {face: render.image for face, render in faces.items()}
    rgb = {}
    for face, image in images.items():
        found = detect_face(image, tunables)
        if found is not None and found.size == 2:
            rgb[face] = measure_stickers(image, found, tunables)
    before = {**rgb, **{f: np.full((4, 3), np.nan) for f in FACES if f not in rgb}}
    assert not same_cube(resolve_pocket(before, tunables=tunables).facelets, truth)  # the faces found alone fail
    assert same_cube(resolve_pocket(complete_faces(images, rgb, tunables), tunables=tunables).facelets, truth)


def _physcam_hard_cube(seed: int) -> tuple[dict[str, np.ndarray], str]:
    """bench/pocket_scan.py's physcam hard 2x2x2 cube of this (tuning) seed: its six photos and facelets."""
    family = 1  # bench/seeds.py FAMILIES: synth, physcam
    rng = np.random.default_rng([seed, family, 12])
    truth = random_pocket_state(random.Random(seed * 64 + 8 * family + 2)).facelets
    faces = physcam.render_cube(truth, physcam.sample_cube("hard", rng, size=2), rng)
    return {face: render.image for face, render in faces.items()}, truth


# Physcam hard tuning cubes (independent physics: dim, noisy, glare, a cast per face) with two faces lost whose
# photos' guesses make different real cubes (5009: the other photo confirms the right one; 5012, 5014: neither,
# and the tightest fitting guess was taken: read wrong and sure).
@pytest.mark.parametrize("seed", [5009, 5012, 5014])
def test_two_lost_faces_whose_guesses_make_several_cubes_give_no_sure_wrong_one(seed: int) -> None:
    images, truth = _physcam_hard_cube(seed)
    rgb = {}
    for face, image in images.items():
        found = detect_face(image, PROFILES["photo"], 2)  # as qbr scan --size 2
        if found is not None:
            rgb[face] = measure_stickers(image, found)
    result = resolve_pocket(complete_faces(images, rgb))
    exact = result.valid and same_cube(result.facelets, truth)
    assert exact or not result.valid or result.uncertain, (seed, result.facelets)
    assert exact or seed != 5009
