"""The independent scene family tells the truth: quads on their colours, deterministic, lamps colour as they should."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from physcam import CONDITIONS, ShotParams, render_cube, render_face, sample_params
from physcam.sensor import Sensor
from physcam.shoot import COLOURS
from physcam.spectra import camera_rgb, colour_correction, lamp_spectrum, reflectance, sensitivities
from qbr.cube.conventions import FACES, STANDARD_SCHEME

SOLVED = "".join(f * 9 for f in FACES)


def _patch(image_bgr: np.ndarray, quad: np.ndarray, share: float = 0.2) -> np.ndarray:
    """Linear RGB (0-1) mean of a small square at the quad's centre."""
    c = quad.mean(axis=0)
    r = max(1, int(share * np.linalg.norm(quad[2] - quad[0]) / np.sqrt(2)))
    x, y = round(c[0]), round(c[1])
    srgb = image_bgr[y - r: y + r + 1, x - r: x + r + 1, ::-1].reshape(-1, 3).astype(float) / 255
    return (srgb ** 2.2).mean(axis=0)


def _reference() -> dict[str, np.ndarray]:
    """Each sticker colour through an ideal daylight camera (perfect white balance), linear sRGB."""
    sens, d65 = sensitivities(), lamp_spectrum("daylight")
    white = camera_rgb(np.ones_like(d65), d65, sens)
    return {c: np.clip(camera_rgb(reflectance(c), d65, sens) / white @ colour_correction(0.0), 1e-3, 1)
            for c in COLOURS}


def _nearest(rgb: np.ndarray, reference: dict[str, np.ndarray]) -> str:
    # Direction in linear RGB (exposure-free) and brightness relative to the brightest channel.
    def key(name: str) -> float:
        ref = reference[name]
        floor = 0.03  # a channel this far below the brightest is noise and JPEG, whatever its value
        seen, want = np.maximum(rgb / rgb.max(), floor), np.maximum(ref / ref.max(), floor)
        return float(np.linalg.norm(np.log(seen) - np.log(want)))
    return min(reference, key=key)


@pytest.mark.parametrize("seed", range(6))
def test_truth_quads_sit_on_their_colours(seed: int) -> None:
    rng = np.random.default_rng(seed)
    colours = tuple(COLOURS[i] for i in rng.permutation(np.arange(9) % 6))
    params = dataclasses.replace(sample_params("easy", rng), key_lamp="daylight", fill_lamp="daylight",
                                 wall_saturation=0.0)
    shot = render_face(colours, params, rng)
    assert shot.image.shape == (480, 640, 3) and shot.image.dtype == np.uint8
    assert shot.stickers.shape == (9, 4, 2) and shot.colours == colours
    reference = _reference()
    assert tuple(_nearest(_patch(shot.image, q), reference) for q in shot.stickers) == colours


@pytest.mark.parametrize("condition", CONDITIONS)
def test_quads_are_clockwise_row_major_in_frame_and_deterministic(condition: str) -> None:
    params = sample_params(condition, np.random.default_rng(3))
    a = render_face(COLOURS[:3] * 3, params, np.random.default_rng(4))
    b = render_face(COLOURS[:3] * 3, params, np.random.default_rng(4))
    assert np.array_equal(a.image, b.image) and np.array_equal(a.stickers, b.stickers)
    centres = a.stickers.mean(axis=1)
    assert (centres >= 0).all() and (centres[:, 0] < 640).all() and (centres[:, 1] < 480).all()
    for quad in a.stickers:
        x, y = quad[:, 0].astype(float), quad[:, 1].astype(float)
        assert (x * np.roll(y, -1) - np.roll(x, -1) * y).sum() > 0  # clockwise from top-left in a y-down image
    # Row-major: the middle sticker of row 0 lies between its row's ends, and row 1 lies below row 0 on the face.
    grid = centres.reshape(3, 3, 2)
    right = (grid[:, 2] - grid[:, 0]).mean(axis=0)
    down = (grid[2] - grid[0]).mean(axis=0)
    assert right[0] * down[1] - right[1] * down[0] > 0  # right then down turns clockwise (y-down image)


@pytest.mark.parametrize("seed", range(4))
def test_a_2x2x2_face_has_four_quads_on_their_colours_in_row_major_order(seed: int) -> None:
    rng = np.random.default_rng(50 + seed)
    params = dataclasses.replace(sample_params("easy", rng, size=2), key_lamp="daylight", fill_lamp="daylight",
                                 wall_saturation=0.0)
    # Four colours no maker's jitter brings near each other (this check is of where the quads lie, not of naming).
    colours = tuple(str(c) for c in rng.permutation(["white", "red", "green", "blue"]))
    shot = render_face(colours, params, rng)
    assert shot.stickers.shape == (4, 4, 2) and shot.colours == colours
    assert tuple(_nearest(_patch(shot.image, q), _reference()) for q in shot.stickers) == colours
    centres = shot.stickers.mean(axis=1)
    right, down = centres[1] - centres[0], centres[2] - centres[0]
    assert right[0] * down[1] - right[1] * down[0] > 0  # right then down turns clockwise (y-down image)
    # The same draws as a 3x3x3's: its cubies are as big in the frame, so its face spans two pitches of three.
    three = sample_params("easy", np.random.default_rng(50 + seed))
    assert params.sticker_size == pytest.approx(three.sticker_size)


def test_render_cube_takes_24_facelets_for_a_2x2x2_and_refuses_a_size_mismatch() -> None:
    rng = np.random.default_rng(9)
    facelets = "".join(f * 4 for f in FACES)
    shots = render_cube(facelets, sample_params("medium", rng, size=2), rng)
    assert {face: shots[face].colours for face in FACES} == {f: (STANDARD_SCHEME[f],) * 4 for f in FACES}
    with pytest.raises(ValueError, match="4 stickers, got 9"):
        render_cube(SOLVED, sample_params("medium", rng, size=2), rng)
    with pytest.raises(ValueError, match="size must be 2 or 3"):
        sample_params("easy", rng, size=4)


def test_render_cube_gives_each_face_its_colours() -> None:
    rng = np.random.default_rng(8)
    facelets = "UUFRURDDBLFRBRLUDRFBUDFLRBDLFBLDUFLRBFRULRLDDFBUBLDFDU"
    shots = render_cube(facelets, sample_params("medium", rng), rng)
    for i, face in enumerate(FACES):
        assert shots[face].colours == tuple(STANDARD_SCHEME[x] for x in facelets[9 * i: 9 * i + 9])


def _white_sticker(lamp: str, awb: float) -> np.ndarray:
    params = ShotParams(key_lamp=lamp, fill_lamp=lamp, wall_saturation=0.0, sensor=Sensor(awb_strength=awb))
    shot = render_face(("white",) * 9, params, np.random.default_rng(11))
    return np.mean([_patch(shot.image, q) for q in shot.stickers], axis=0)


def test_tungsten_is_warmer_than_daylight_and_white_balance_removes_part_of_it() -> None:
    tungsten, daylight = _white_sticker("tungsten", 0.5), _white_sticker("daylight", 0.5)
    assert tungsten[0] / tungsten[2] > 1.3 * daylight[0] / daylight[2]
    assert abs(np.log(daylight[0] / daylight[2])) < 0.1  # the camera is calibrated for daylight
    balanced = _white_sticker("tungsten", 1.0)
    assert 1.0 < balanced[0] / balanced[2] < tungsten[0] / tungsten[2]


def test_fluorescent_green_spike_shows_on_a_white_sticker_before_white_balance() -> None:
    sens = sensitivities()
    for lamp in ("fluorescent", "tungsten"):
        assert camera_rgb(reflectance("white"), lamp_spectrum(lamp), sens).shape == (3,)
    fl = camera_rgb(reflectance("white"), lamp_spectrum("fluorescent"), sens)
    led = camera_rgb(reflectance("white"), lamp_spectrum("warm_led"), sens)
    assert fl[1] / fl[0] > led[1] / led[0]


def test_dim_shots_are_darker_and_noisier() -> None:
    def stats(condition: str) -> tuple[float, float]:
        rng = np.random.default_rng(21)
        params = dataclasses.replace(sample_params(condition, rng), glare=0.0, hand=False)
        params = dataclasses.replace(params, sensor=dataclasses.replace(params.sensor, defocus=0.0, motion=0.0))
        shot = render_face(("white",) * 9, params, rng)
        q = shot.stickers[4]
        c = q.mean(axis=0)
        r = max(2, int(0.25 * np.linalg.norm(q[2] - q[0])))
        patch = shot.image[round(c[1]) - r: round(c[1]) + r, round(c[0]) - r: round(c[0]) + r, 1].astype(float)
        return float(patch.mean()), float(patch.std() / max(patch.mean(), 1))

    bright, dim = stats("easy"), stats("dim")
    assert dim[0] < 0.8 * bright[0] and dim[1] > 2 * bright[1]
