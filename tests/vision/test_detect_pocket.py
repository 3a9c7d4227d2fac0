"""2x2x2 faces: found on renders and real photos with their four stickers in place; a 3x3 face never taken for one."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import physcam
import pytest
import synth
from synth.scenes import make_background

from qbr.vision.classify import classify_face
from qbr.vision.detect import FaceDetection, detect_face
from qbr.vision.measure import measure_stickers, measure_stickers_with_spread
from qbr.vision.palette import DEFAULT_PALETTE
from qbr.vision.tunables import Tunables

TOLERANCE = 0.25
"""Largest allowed distance between a detected and a true sticker centre, in sticker pitches."""
PHOTOS = Path(__file__).resolve().parent.parent / "data" / "photos"
POCKET_SET = PHOTOS / "2x2x2-random-01"
PROFILES = {"photo": Tunables(), "live": Tunables().for_video()}


def _in_place(detection: FaceDetection | None, rendered: synth.Rendered | physcam.Shot) -> bool:
    """Found with the render's size, every sticker centre within ``TOLERANCE`` pitches of the truth, same order
    (either renderer: each names the body showing around a sticker its own way)."""
    if detection is None or detection.size != rendered.params.size:
        return False
    truth = rendered.stickers
    gap = rendered.params.gap if isinstance(rendered, physcam.Shot) else rendered.params.sticker_gap
    pitch = np.linalg.norm(truth[0, 1] - truth[0, 0]) / (1 - 2 * gap)
    errors = np.linalg.norm(detection.stickers.mean(axis=1) - truth.mean(axis=1), axis=1) / pitch
    return bool(errors.max() < TOLERANCE)


def _pocket(tier: str, seed: int, body: str | None = None) -> synth.Rendered:
    rng = np.random.default_rng(seed)
    params = synth.sample_params(tier, rng, body=body, size=2)
    return synth.render_face(synth.random_colours(rng, 2), params, rng)


# Measured on these seeds: easy 23 of 24 (photo) and 22 (live), medium 21 (photo) and 19 (live); on 60 other easy
# faces (seeds 9500-9559) 60 (photo) and 60 (live): see bench/pocket_scan.py.
@pytest.mark.parametrize(("tier", "minimum"), [("easy", 22), ("medium", 19)])
@pytest.mark.parametrize("profile", PROFILES)
def test_pocket_faces_are_found_with_their_stickers_in_place(tier: str, minimum: int, profile: str) -> None:
    # Test seeds 7000-7023 (neither the tuning range 1000-1299 nor bench/pocket_scan.py's validation range).
    renders = [_pocket(tier, 7000 + k) for k in range(24)]
    results = [detect_face(r.image, PROFILES[profile]) for r in renders]
    right = sum(_in_place(d, r) for d, r in zip(results, renders, strict=True))
    wrong = sum(d is not None and not _in_place(d, r) for d, r in zip(results, renders, strict=True))
    assert right >= minimum and wrong <= 1, (right, wrong)


# Measured on these seeds: easy 23 (photo) and 22 (live), medium 22 and 20, one misplaced in medium.
@pytest.mark.parametrize(("tier", "minimum"), [("easy", 22), ("medium", 20)])
@pytest.mark.parametrize("profile", PROFILES)
def test_pocket_faces_of_the_independent_renderer_are_found(tier: str, minimum: int, profile: str) -> None:
    # tests/physcam (lamp spectra, a sensor's noise and demosaicing), never tuned on; seeds 7200-7223.
    shots = []
    for k in range(24):
        rng = np.random.default_rng(7200 + k)
        params = physcam.sample_params(tier, rng, size=2)
        shots.append(physcam.render_face([physcam.shoot.COLOURS[i] for i in rng.integers(0, 6, 4)], params, rng))
    results = [detect_face(shot.image, PROFILES[profile]) for shot in shots]
    right = sum(_in_place(d, shot) for d, shot in zip(results, shots, strict=True))
    wrong = sum(d is not None and not _in_place(d, shot) for d, shot in zip(results, shots, strict=True))
    assert right >= minimum and wrong <= 1, (right, wrong)


def test_big_blurred_pocket_faces_are_found_seen_smaller() -> None:
    # A face held close is out of focus in proportion to its size: the hard tier's big faces (pitch 20-30% of the
    # width, seeds 7400-7499: 49), found 44 without the far retry (retry_far_scales), 47 with it.
    right = total = 0
    for seed in range(7400, 7500):
        rng = np.random.default_rng(seed)
        params = synth.sample_params("hard", rng, size=2)
        if params.sticker_size < 0.2:
            continue
        render = synth.render_face(synth.random_colours(rng, 2), params, rng)
        total += 1
        right += _in_place(detect_face(render.image), render)
    assert total == 49 and right >= 47, right


def test_faces_seen_smaller_are_taken_only_when_held_close() -> None:
    # Rooms whose tiles or notes, seen at half the work width, make a small grid (pitch under 15% of the width).
    rooms = []
    for seed in (9002, 9070, 9125, 9194, 9251, 9259, 9270):
        rng = np.random.default_rng(seed)
        rooms.append(np.ascontiguousarray(make_background(640, 480, (0.0, 0.5, 1.0, 1.0)[seed % 4], rng)[..., ::-1]))
    unbounded = Tunables(retry_far_min_pitch=0.0)
    assert all(detect_face(room, unbounded) is not None for room in rooms)  # the bound is what refuses them
    assert all(detect_face(room) is None for room in rooms)


# Measured: photo 59 of 80 without the pooled 2x2x2 look (pocket_pooled_look), 66 with it; live 49 and 55. With
# the size given (2): 60 and 50 while that cascade had no pooled look, 67 and 56 since it runs every look; then 68
# with the closer 2x2x2 look (photo), 59 with the contrast-equalised one in a 2x2x2 session's camera loop.
@pytest.mark.parametrize(("profile", "size", "minimum"), [("photo", None, 65), ("live", None, 54), ("photo", 2, 67),
                                                           ("live", 2, 58)])
def test_pocket_faces_broken_by_glare_are_found_among_every_looks_candidates(
    profile: str, size: int | None, minimum: int
) -> None:
    # Glare, blur and JPEG break a different sticker's outline in each edge map (physcam hard, seeds 7400-7479).
    right = 0
    for seed in range(7400, 7480):
        rng = np.random.default_rng(seed)
        params = physcam.sample_params("hard", rng, size=2)
        shot = physcam.render_face([physcam.shoot.COLOURS[i] for i in rng.integers(0, 6, 4)], params, rng)
        right += _in_place(detect_face(shot.image, PROFILES[profile], size), shot)
    assert right >= minimum, right


def test_small_pocket_faces_are_sought_among_the_closer_looks_candidates() -> None:
    # Physcam hard faces with a pitch under 6% of the width (seeds 7600-7999: 108), the cube known to be a 2x2x2:
    # their stickers are a dozen pixels at the work width. Measured: 71 found without the closer 2x2x2 look
    # (pocket_closer_look), 74 with it.
    shots = []
    for seed in range(7600, 8000):
        rng = np.random.default_rng(seed)
        params = physcam.sample_params("hard", rng, size=2)
        if params.sticker_size < 0.06:
            shots.append(physcam.render_face([physcam.shoot.COLOURS[i] for i in rng.integers(0, 6, 4)], params, rng))
    without = Tunables(pocket_closer_look=False)
    right = sum(_in_place(detect_face(shot.image, size=2), shot) for shot in shots)
    right_without = sum(_in_place(detect_face(shot.image, without, 2), shot) for shot in shots)
    assert len(shots) == 108 and right >= 74 and right_without <= 71, (right, right_without)


@pytest.mark.parametrize("body", ["stickerless", "black", "white"])
def test_pocket_faces_of_each_body_are_found(body: str) -> None:
    right = sum(_in_place(detect_face((r := _pocket("easy", 7100 + k, body)).image), r) for k in range(8))
    assert right >= 7


@pytest.mark.parametrize("tier", synth.TIERS)
@pytest.mark.parametrize("profile", PROFILES)
def test_a_3x3_face_is_never_taken_for_a_pocket_face(tier: str, profile: str) -> None:
    rng = np.random.default_rng(7200 + synth.TIERS.index(tier))
    for _ in range(20):
        rendered = synth.render_face(synth.random_colours(rng), synth.sample_params(tier, rng), rng)
        detection = detect_face(rendered.image, PROFILES[profile])
        assert detection is None or detection.size == 3


def test_a_solved_pocket_face_is_found_only_when_the_cube_is_known_to_be_one() -> None:
    # Four alike squares are as likely a 2x2 tile panel (see test_detect_synth's rooms without a cube), unless the
    # user or the session said the cube is a 2x2x2.
    rng = np.random.default_rng(7300)
    params = dataclasses.replace(synth.sample_params("easy", rng, body="black", size=2), hand=False)
    rendered = synth.render_face(("red",) * 4, params, rng)
    assert detect_face(rendered.image) is None
    assert _in_place(detect_face(rendered.image, size=2), rendered)
    assert detect_face(rendered.image, dataclasses.replace(Tunables(), pocket_solved_faces=False), 2) is None


def test_a_pocket_face_seen_with_three_stickers_places_the_fourth() -> None:
    # A finger over a whole corner sticker: three seen, the fourth placed by the lattice.
    rng = np.random.default_rng(7400)
    params = dataclasses.replace(synth.sample_params("easy", rng, body="black", size=2), hand=False, roll=0.0,
                                 yaw=0.0, pitch=0.0, centre=(0.5, 0.5), sticker_size=0.15)
    rendered = synth.render_face(("green", "red", "blue", "orange"), params, rng)
    image = rendered.image.copy()
    quad = rendered.stickers[3]
    centre = quad.mean(axis=0)
    cv2.circle(image, (round(centre[0]), round(centre[1])), round(0.3 * np.linalg.norm(quad[1] - quad[0])),
               (40, 40, 40), -1)  # a dark blot breaks the sticker's outline into no quad at all
    cv2.line(image, tuple(np.round(quad[0]).astype(int)), tuple(np.round(quad[2]).astype(int)), (30, 30, 30), 5)
    detection = detect_face(image)
    assert _in_place(detection, rendered)


def test_pocket_measurement_and_naming_take_four_stickers() -> None:
    rendered = _pocket("easy", 7500, "black")
    detection = detect_face(rendered.image)
    assert detection is not None and detection.size == 2
    assert detection.stickers.shape == (4, 4, 2) and detection.sticker_centres().shape == (4, 2)
    colours = measure_stickers_with_spread(rendered.image, detection)
    assert colours.rgb.shape == (4, 3) and colours.spread.shape == (4,) and colours.kept.shape == (4,)
    assert classify_face(colours.rgb, DEFAULT_PALETTE).names == rendered.colours


@pytest.mark.parametrize("face", "URFDLB")
@pytest.mark.parametrize("profile", PROFILES)
def test_the_real_pocket_photos_are_found_and_measured(face: str, profile: str) -> None:
    truth = json.loads((POCKET_SET / "truth.json").read_text())
    image = cv2.imread(str(POCKET_SET / f"{face}.jpg"))
    assert image is not None
    detection = detect_face(image, PROFILES[profile])
    assert detection is not None and detection.size == 2
    rgb = measure_stickers(image, detection)
    # Row-major order and colour: every sticker within the data README's tolerance of upstream's measurement.
    assert np.abs(rgb - np.array(truth["expected_sticker_rgb"][face], dtype=np.float64)).max() <= 15


def test_real_3x3_photo_sets_are_never_taken_for_pocket_faces() -> None:
    sets = sorted(p for p in PHOTOS.glob("3x3x3-*") if p.is_dir())
    assert len(sets) == 4
    for folder in sets:
        for face in "URFDLB":
            image = cv2.imread(str(next(folder.glob(f"{face}.*"))))
            for tunables in PROFILES.values():
                detection = detect_face(image, tunables)
                assert detection is not None and detection.size == 3, (folder.name, face)


def test_real_phone_photos_of_3x3_faces_are_never_taken_for_pocket_faces() -> None:
    photos = sorted((PHOTOS.parent / "phone-faces").glob("*.jpg"))
    assert len(photos) == 36
    for path in photos:
        image = cv2.imread(str(path))
        for profile, tunables in PROFILES.items():
            detection = detect_face(image, tunables)
            assert detection is None or detection.size == 3, (path.name, profile)


def test_hard_3x3_faces_are_seldom_taken_for_pocket_faces_and_read_as_3x3_when_asked() -> None:
    # bench/pocket_scan.py's hard single faces on tuning seeds 6101-6240 (as its --faces section renders them):
    # 5 of 280 detections are taken for a 2x2x2's face (6107 and 6233 in both profiles, 6193 live: big faces running
    # off the frame with a 2x2 block seen, glare). Each still photo of them is read as the 3x3 face it is when a 3x3
    # face is asked for, as `qbr scan` asks beside four or more 3x3 faces (scan.settle_cube).
    taken = []
    for seed in range(6101, 6241):
        rng = np.random.default_rng([seed, 0, 22])
        rendered = synth.render_face(synth.random_colours(rng), synth.sample_params("hard", rng), rng)
        for profile, tunables in PROFILES.items():
            detection = detect_face(rendered.image, tunables)
            if detection is not None and detection.size == 2:
                taken.append((seed, profile))
                if profile == "photo":
                    assert _in_place(detect_face(rendered.image, tunables, 3), rendered), seed
    assert len(taken) <= 5, taken


def test_no_pocket_search_when_switched_off() -> None:
    rendered = _pocket("easy", 7500, "black")
    assert detect_face(rendered.image, Tunables(pocket_min_found=0)) is None


def test_a_3x3_cube_turning_between_faces_is_seldom_taken_for_a_pocket_cube() -> None:
    # Turning frames show a 3x3 face steeply, a 2x2 block of it sharp and the rest foreshortened and blurred. Over
    # the sessions of seeds 10-29 (1240 frames) 12 frames are taken for a 2x2x2's face (16 with the blue plane
    # before the blue-yellow one); the session needs several steady frames of one face, so a frame passes.
    taken = frames = 0
    for seed in (3, 5):
        rng = np.random.default_rng(seed)
        facelets = "".join(rng.permutation(list("".join(f * 9 for f in "URFDLB"))))
        for image, _face in synth.render_session(facelets, rng, fps=6, tier=("easy", "medium")[seed % 2]):
            detection = detect_face(image, PROFILES["live"])
            frames += 1
            taken += detection is not None and detection.size == 2
    assert taken <= 0.02 * frames, (taken, frames)  # 1 of 124


def test_light_bodied_pocket_faces_are_found_on_contrast_equalised_planes() -> None:
    # Light stickers on a white or stickerless body have weak edges: the equalised look finds the faces it misses.
    renders = [_pocket("medium", 7300 + k, body) for body in ("white", "stickerless") for k in range(24)]
    without = dataclasses.replace(Tunables(), pocket_stretch_look=False)
    found = [detect_face(r.image) for r in renders]
    # 45 of these 48; on 120 other ones (seeds 9000-9059 of each body) 113 (110 with the blue plane before).
    assert sum(_in_place(d, r) for d, r in zip(found, renders, strict=True)) >= 44
    assert sum(_in_place(detect_face(r.image, without), r) for r in renders) < len(renders)
