"""The other-camera augmentation of real photos: fixed per seed, a grey keeps no tint but the lamp's."""

import dataclasses

import numpy as np

import synth.camera as camera


def _grey() -> np.ndarray:
    return np.full((32, 32, 3), 150, dtype=np.uint8)


def test_a_seed_is_one_camera() -> None:
    image = np.random.default_rng(0).integers(0, 256, (40, 30, 3), dtype=np.uint8)
    assert np.array_equal(camera.other_camera(image, 3), camera.other_camera(image, 3))
    assert not np.array_equal(camera.other_camera(image, 3), camera.other_camera(image, 4))


def test_the_colour_matrix_keeps_grey_grey_and_the_lamp_tints_it(monkeypatch) -> None:
    drawn = camera.draw_camera(7)
    assert np.allclose(np.sum(drawn.matrix, axis=1), 1.0)
    neutral = dataclasses.replace(drawn, kelvin=6500.0, cast=0.0, tint=0.0, gains=(1.0, 1.0, 1.0), noise=0.0,
                                  quality=95)
    monkeypatch.setattr(camera, "draw_camera", lambda seed: neutral)
    b, g, r = camera.other_camera(_grey(), 7)[16, 16].astype(int)
    assert max(r, g, b) - min(r, g, b) <= 2
    monkeypatch.setattr(camera, "draw_camera", lambda seed: dataclasses.replace(neutral, kelvin=2700.0, cast=0.5))
    b, g, r = camera.other_camera(_grey(), 7)[16, 16].astype(int)
    assert r > g + 20 > b + 40  # a tungsten lamp half corrected: warm
