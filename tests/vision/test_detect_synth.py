"""Detection on synthetic webcam photos with known sticker positions, and refusal where there is no cube."""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest
import synth
from synth.scenes import draw_capsules, draw_hand, draw_polygon, make_background

from qbr.vision.detect import FaceDetection, detect_face
from qbr.vision.tunables import Tunables

TOLERANCE = 0.25
"""Largest allowed distance between a detected and a true sticker centre, in sticker pitches."""


def _pitch(rendered: synth.Rendered) -> float:
    side = np.sqrt(abs(cv2.contourArea(rendered.stickers[4].astype(np.float32))))
    return float(side / (1 - 2 * rendered.params.sticker_gap))


def _errors(detection: FaceDetection, rendered: synth.Rendered) -> np.ndarray:
    """Distance of each detected sticker centre from the same-index true centre, in pitches."""
    found = detection.stickers.mean(axis=1)
    truth = rendered.stickers.mean(axis=1)
    return np.hypot(*(found - truth).T) / _pitch(rendered)


def _correct(detection: FaceDetection | None, rendered: synth.Rendered) -> bool:
    if detection is None or detection.size != rendered.params.size:
        return False  # a 3x3 face taken for a 2x2x2's (or the reverse) is wrong wherever its stickers lie
    return bool(_errors(detection, rendered).max() < TOLERANCE)


def _render(params: synth.RenderParams, seed: int) -> synth.Rendered:
    rng = np.random.default_rng(seed)
    return synth.render_face(synth.random_colours(rng), params, rng)


def _plain(seed: int = 0, **changes: object) -> synth.RenderParams:
    """An easy, frontal, centred face with the given changes."""
    base = synth.sample_params("easy", np.random.default_rng(seed))
    base = dataclasses.replace(base, centre=(0.5, 0.5), roll=0.0, yaw=0.0, pitch=0.0, sticker_size=0.12, hand=False)
    return dataclasses.replace(base, **changes)


@pytest.mark.parametrize(("tier", "minimum"), [("easy", 24), ("medium", 24), ("hard", 20)])
def test_detection_rate_per_tier(tier: str, minimum: int) -> None:
    rng = np.random.default_rng(2024 + synth.TIERS.index(tier))
    right = wrong = 0
    for _ in range(25):
        rendered = synth.render_face(synth.random_colours(rng), synth.sample_params(tier, rng), rng)
        detection = detect_face(rendered.image)
        if detection is None:
            continue
        if _correct(detection, rendered):
            right += 1
        else:
            wrong += 1
    assert right >= minimum
    # A wrong grid is worse than none: it feeds wrong colours to the solver.
    assert wrong <= (1 if tier == "hard" else 0)


@pytest.mark.parametrize("roll", [-40, -30, -15, 0, 10, 25, 40])
def test_rolled_faces_are_found_in_image_row_major_order(roll: float) -> None:
    rendered = _render(_plain(roll=float(roll)), seed=roll + 100)
    detection = detect_face(rendered.image)
    assert _correct(detection, rendered)


@pytest.mark.parametrize("roll", [-45.0, 45.0])
def test_faces_rolled_45_degrees_are_found_in_some_consistent_rotation(roll: float) -> None:
    rendered = _render(_plain(roll=roll), seed=7)
    detection = detect_face(rendered.image)
    assert detection is not None
    grid = np.arange(9).reshape(3, 3)
    found = detection.stickers.mean(axis=1)
    truth = rendered.stickers.mean(axis=1)
    best = min(
        float(np.hypot(*(found - truth[np.rot90(grid, k).ravel()]).T).max()) for k in range(4)
    )
    assert best / _pitch(rendered) < TOLERANCE


@pytest.mark.parametrize(("yaw", "pitch"), [(30, 0), (-30, 0), (0, 30), (0, -30), (20, 20), (-21, 21), (15, -25)])
def test_tilted_faces_are_found(yaw: float, pitch: float) -> None:
    rendered = _render(_plain(yaw=float(yaw), pitch=float(pitch), sticker_size=0.1), seed=int(1000 + yaw * 7 + pitch))
    assert _correct(detect_face(rendered.image), rendered)


@pytest.mark.parametrize("size", [0.045, 0.06, 0.1, 0.16, 0.22])
def test_sticker_sizes_from_small_to_filling_the_frame(size: float) -> None:
    rendered = _render(_plain(sticker_size=size), seed=int(size * 1000))
    assert _correct(detect_face(rendered.image), rendered)


@pytest.mark.parametrize("body", ["black", "white", "stickerless"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_black_white_and_stickerless_bodies(body: str, seed: int) -> None:
    palette = "stickerless" if body == "stickerless" else "standard"
    # Detection needs a sticker in every row and column; white on white is invisible, so avoid a white line.
    colours = ("red", "green", "blue", "yellow", "orange", "red", "blue", "white", "green")
    rng = np.random.default_rng(seed)
    params = _plain(seed=seed, body=body, palette=palette, roll=float(rng.uniform(-20, 20)), clutter=0.5)
    rendered = synth.render_face(colours, params, rng)
    assert _correct(detect_face(rendered.image), rendered)


def _hard(seed: int) -> synth.Rendered:
    rng = np.random.default_rng(seed)
    return synth.render_face(synth.random_colours(rng), synth.sample_params("hard", rng), rng)


def test_a_face_seen_in_two_lines_is_placed_by_its_body_coloured_gaps() -> None:
    # A blurred white-bodied face whose third row yields no sticker outline: the window could slide either way.
    rendered = _hard(80)
    assert rendered.params.body == "white"
    assert _correct(detect_face(rendered.image), rendered)


@pytest.mark.parametrize("seed", [100, 183])
def test_a_face_seen_in_two_lines_without_dark_gaps_is_placed_by_its_outline(seed: int) -> None:
    # Stickerless faces whose third line yields no outline: no body shows between their tiles, so the window goes
    # where the face's own outline runs past the unseen line.
    rendered = _hard(seed)
    assert rendered.params.body != "black"
    # The control, not seen smaller either (the far retry places seed 100 too).
    assert not _correct(detect_face(rendered.image, Tunables(slide_edge_min=math.inf, retry_far_scales=())), rendered)
    assert _correct(detect_face(rendered.image), rendered)


@pytest.mark.parametrize("seed", [87, 400])
def test_small_faces_are_found_by_the_closer_looks(seed: int) -> None:
    # Stickers 4-5% of the frame wide run together at the work width; only a closer look (stricter or
    # contrast-equalised edges) separates them. (Seed 467 was one too; the noise-limited edges of its
    # contrast-equalised planes now find it at the work width; and seed 663, which the half-size blue-yellow plane
    # shows at the work width.)
    # Since the smallest sticker taken is 2.8% of the width (was 3.5%), the first look at the work width finds
    # both, the live profile too; below the former limit only the closer looks do.
    rendered = _hard(seed)
    assert rendered.params.sticker_size < 0.06
    former = Tunables(sticker_min=0.035)
    assert detect_face(rendered.image, dataclasses.replace(former, retry_work_width=0)) is None
    assert detect_face(rendered.image, former.for_video()) is None  # the closer looks are photo-only passes
    assert _correct(detect_face(rendered.image, former), rendered)
    assert _correct(detect_face(rendered.image, Tunables().for_video()), rendered)


# Seed 339 (a column of cyan tiles with dark joints beside a missed face) was dropped: it looks exactly like a solved
# face, which must be detected (calibration with a solved cube, faces already solved).
# Known miss since the half-size blue-yellow plane (synth hard faces 235 -> 236 of 240, physcam 315 -> 338 of 360,
# tuning): on 317 a 2x2 of big notes overrules a thin grid (no alike wall passes for the face). On 120 a grid mixing
# the tinted tiles with the face's stickers outranked the face until stickers of 2.8% of the width were taken.
_KNOWN_MISS = pytest.mark.xfail(strict=True, reason="a 2x2 of notes (317) wins")


@pytest.mark.parametrize("seed", [120, 166, 219, pytest.param(317, marks=_KNOWN_MISS)])
def test_walls_of_alike_tiles_do_not_pass_for_a_small_blurred_face(seed: int) -> None:
    # Each of these frames has a 3x3 block of one-coloured tiles that fits a grid better than the real, tiny face.
    rendered = _hard(seed)
    assert _correct(detect_face(rendered.image), rendered)


@pytest.mark.parametrize("seed", [29])
def test_blurred_faces_are_found_by_the_last_resort_searches(seed: int) -> None:
    # Heavily blurred faces whose outlines only show on contrast-equalised planes or weaker edges (seeds 8 and 274
    # were ones too: the half-size blue-yellow plane now shows them to the first search).
    rendered = _hard(seed)
    assert detect_face(rendered.image, Tunables(retry_clahe_clip=0)) is None
    assert _correct(detect_face(rendered.image), rendered)


@pytest.mark.parametrize("seed", [227, 287])
def test_last_resort_searches_do_not_take_a_tile_wall_for_a_missed_face(seed: int) -> None:
    # Contrast-equalised edges bring out tile walls beside a face that stays unseen: a miss, never a wrong grid.
    rendered = _hard(seed)
    detection = detect_face(rendered.image)
    assert detection is None or _correct(detection, rendered)


@pytest.mark.parametrize("palette", sorted(synth.PALETTES))
def test_every_palette(palette: str) -> None:
    body = "stickerless" if palette == "stickerless" else "black"
    rendered = _render(_plain(palette=palette, body=body, roll=12.0, yaw=10.0), seed=len(palette))
    assert _correct(detect_face(rendered.image), rendered)


def test_grid_is_recovered_when_a_finger_covers_stickers() -> None:
    rng = np.random.default_rng(5)
    params = _plain(hand=True, finger_reach=0.4)
    found = 0
    for _ in range(4):
        rendered = synth.render_face(synth.random_colours(rng), params, rng)
        detection = detect_face(rendered.image)
        assert detection is None or _correct(detection, rendered)
        found += detection is not None
    assert found >= 3


def test_detection_reports_coordinates_of_the_given_image() -> None:
    rendered = _render(_plain(roll=8.0), seed=11)
    big = cv2.resize(rendered.image, (1280, 960), interpolation=cv2.INTER_LINEAR)
    detection = detect_face(big)
    assert detection is not None
    truth = rendered.stickers.mean(axis=1) * 2 + 0.5
    assert np.hypot(*(detection.stickers.mean(axis=1) - truth).T).max() < TOLERANCE * 2 * _pitch(rendered)
    # Homography and outline agree with the stickers.
    centres = detection.sticker_centres()
    assert np.allclose(centres, detection.stickers.mean(axis=1), atol=0.05 * _pitch(rendered) * 2)
    assert 0.0 <= detection.confidence <= 1.0


def _noisy(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    image = rgb[..., ::-1].astype(np.float32) + rng.normal(0, 2.0, rgb.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("seed", range(12))
def test_no_face_in_rooms_without_a_cube(seed: int) -> None:
    rng = np.random.default_rng(300 + seed)
    clutter = (0.0, 0.5, 1.0)[seed % 3]
    image = _noisy(make_background(640, 480, clutter, rng), rng)
    assert detect_face(image) is None


@pytest.mark.parametrize("seed", range(4))
def test_no_face_for_a_hand_alone(seed: int) -> None:
    rng = np.random.default_rng(400 + seed)
    room = make_background(640, 480, 0.4, rng)
    mask = np.zeros((480, 640), np.uint8)
    x = rng.uniform(200, 440)
    draw_polygon(mask, np.array([[x - 90, 300], [x + 90, 290], [x + 110, 480], [x - 100, 480]]))
    for k in range(4):
        tip = np.array([x - 75 + 50 * k, rng.uniform(120, 200)])
        draw_capsules(mask, np.array([tip, [x - 80 + 52 * k, 310]]), np.array([38.0]))
    draw_hand(room, mask, synth.SKIN_TONES[seed % len(synth.SKIN_TONES)], 38.0, rng)
    assert detect_face(_noisy(room, rng)) is None


@pytest.mark.parametrize("n", [4, 5])
@pytest.mark.parametrize("seed", range(3))
def test_bigger_puzzles_are_not_taken_for_a_face(n: int, seed: int) -> None:
    # Any 3x3 window of a 4x4 or 5x5 face looks like a scrambled 3x3 face; the stickers around it give it away.
    rng = np.random.default_rng(seed)
    colours = [(40, 40, 200), (240, 240, 240), (60, 160, 40), (20, 120, 240), (200, 80, 30), (30, 210, 230)]
    image = np.full((480, 640, 3), 140, np.uint8)
    pitch = 240 // n
    x0, y0 = 320 - n * pitch // 2, 240 - n * pitch // 2
    cv2.rectangle(image, (x0 - 4, y0 - 4), (x0 + n * pitch + 4, y0 + n * pitch + 4), (15, 15, 15), -1)
    for r in range(n):
        for c in range(n):
            colour = colours[int(rng.integers(6))]
            top_left = (x0 + c * pitch + 5, y0 + r * pitch + 5)
            cv2.rectangle(image, top_left, (top_left[0] + pitch - 10, top_left[1] + pitch - 10), colour, -1)
    turn = cv2.getRotationMatrix2D((320, 240), float(rng.uniform(-20, 20)), 1.0)
    image = cv2.GaussianBlur(cv2.warpAffine(image, turn, (640, 480), borderValue=(140, 140, 140)), (3, 3), 0)
    assert detect_face(image) is None


def test_no_face_on_blank_or_tiny_images() -> None:
    assert detect_face(np.full((480, 640, 3), 128, np.uint8)) is None
    assert detect_face(np.zeros((8, 8, 3), np.uint8)) is None
    assert detect_face(np.zeros((0, 0, 3), np.uint8)) is None


@pytest.mark.parametrize("roll", [-44.0, -20.0, 20.0, 44.0])
def test_sticker_corners_run_clockwise_from_the_top_left(roll: float) -> None:
    rendered = _render(_plain(roll=roll, yaw=8.0), seed=int(roll) + 500)
    detection = detect_face(rendered.image)
    assert detection is not None
    for quad in detection.stickers.astype(np.float64):
        x, y = quad.T
        # Positive shoelace sum with y pointing down: clockwise on screen.
        assert float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)) > 0
        # The first corner is the one nearest the image's top-left along the face's own axes.
        centre = quad.mean(axis=0)
        assert quad[0, 0] < centre[0] or quad[0, 1] < centre[1]
    centres = detection.stickers.mean(axis=1)
    assert centres[:3, 1].mean() < centres[6:, 1].mean()  # row 0 is the top row


@pytest.mark.parametrize("tier", ["easy", "medium", "hard"])
def test_solved_one_coloured_faces_are_detected(tier: str) -> None:
    # Calibrating with a solved cube, or a face already solved, shows nine stickers of one colour.
    found = 0
    for seed in range(36):
        rng = np.random.default_rng(1000 + seed)
        params = synth.sample_params(tier, rng)
        colour = ["white", "yellow", "red", "orange", "green", "blue"][seed % 6]
        rendered = synth.render_face([colour] * 9, params, rng)
        found += _correct(detect_face(rendered.image), rendered)
    assert found >= {"easy": 31, "medium": 29, "hard": 27}[tier]  # measured 32, 30, 28+


def test_white_faces_on_a_white_body_are_detected() -> None:
    # A solved white face on a white body: its gaps are as light as its stickers (no dark joints, no vivid colour),
    # yet its nine stickers are of one plastic, one tint (``pale_face``). Measured: 12 of 12 (before ``pale_face``:
    # 2 of 12; over 40 such seeds 6 -> 37).
    found = 0
    for seed in range(12):
        rng = np.random.default_rng(2600 + seed)
        rendered = synth.render_face(["white"] * 9, synth.sample_params("medium", rng, body="white"), rng)
        found += _correct(detect_face(rendered.image), rendered)
    assert found >= 11


@pytest.mark.parametrize(("seed", "clutter"), [(70022, 0.5), (70024, 1.0)])
def test_light_grouted_tile_panels_are_not_taken_for_a_pale_face(seed: int, clutter: float) -> None:
    # Rooms of bench/ablate.py's tuning range: a 5x3 panel of lavender tiles and a 3x3 panel of blue-grey ones, both
    # with light grout; taking every alike grid between light gaps for a solved face finds a face in each.
    rng = np.random.default_rng(seed)
    assert detect_face(_noisy(make_background(640, 480, clutter, rng), rng)) is None
