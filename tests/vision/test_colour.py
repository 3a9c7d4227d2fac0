"""Colour maths against published reference values and against colour-science."""

import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from qbr.vision.colour import (
    delta_e,
    encoded_hue,
    glare_free_hue,
    lab_to_srgb,
    srgb_decode,
    srgb_to_lab,
    white_balance,
)

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture(scope="module")
def colour_science():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # colour-science warns that matplotlib is missing
        import colour
    return colour


def _sharma() -> np.ndarray:
    return np.loadtxt(DATA / "ciede2000-sharma.tsv", comments="#", skiprows=3)


def test_sharma_table_has_all_34_pairs():
    assert _sharma().shape == (34, 7)


def test_ciede2000_reproduces_all_sharma_pairs_to_four_decimals():
    table = _sharma()
    got = delta_e(table[:, 0:3], table[:, 3:6])
    assert np.round(got, 4).tolist() == table[:, 6].tolist()


def test_ciede2000_is_symmetric_on_sharma_pairs():
    table = _sharma()
    np.testing.assert_allclose(delta_e(table[:, 3:6], table[:, 0:3]), table[:, 6], atol=5e-5)


def test_ciede2000_broadcasts_to_a_distance_matrix():
    rng = np.random.default_rng(1)
    a, b = srgb_to_lab(rng.uniform(0, 255, (9, 3))), srgb_to_lab(rng.uniform(0, 255, (6, 3)))
    matrix = delta_e(a[:, None, :], b[None, :, :])
    assert matrix.shape == (9, 6)
    assert matrix[4, 2] == pytest.approx(float(delta_e(a[4], b[2])))


def test_ciede2000_matches_colour_science_on_random_colours(colour_science):
    rng = np.random.default_rng(2)
    lab1, lab2 = srgb_to_lab(rng.uniform(0, 255, (500, 3))), srgb_to_lab(rng.uniform(0, 255, (500, 3)))
    lab2[:50] = lab1[:50] + rng.normal(0, 2, (50, 3))  # small differences too, where rounding matters most
    lab1[50:60, 1:] = 0  # neutral greys: hue undefined
    expected = colour_science.delta_E(lab1, lab2, method="CIE 2000")
    np.testing.assert_allclose(delta_e(lab1, lab2), expected, rtol=1e-9, atol=1e-9)


def test_srgb_to_lab_matches_colour_science(colour_science):
    rng = np.random.default_rng(3)
    rgb = np.concatenate([rng.uniform(0, 255, (300, 3)), [[0, 0, 0], [255, 255, 255], [5, 3, 1], [10, 10, 10]]])
    expected = colour_science.XYZ_to_Lab(colour_science.sRGB_to_XYZ(rgb / 255))
    np.testing.assert_allclose(srgb_to_lab(rgb), expected, atol=1e-9)


def test_known_lab_values():
    np.testing.assert_allclose(srgb_to_lab([255, 255, 255]), [100, 0, 0], atol=0.01)
    np.testing.assert_allclose(srgb_to_lab([0, 0, 0]), [0, 0, 0], atol=1e-12)
    # sRGB red is L* 53.24, a* 80.09, b* 67.20 with the exact primaries; the four-decimal matrix moves it < 0.03
    np.testing.assert_allclose(srgb_to_lab([255, 0, 0]), [53.24, 80.09, 67.20], atol=0.03)


def test_lab_to_srgb_inverts_srgb_to_lab():
    rgb = np.random.default_rng(4).uniform(0, 255, (200, 3))
    np.testing.assert_allclose(lab_to_srgb(srgb_to_lab(rgb)), rgb, atol=1e-7)


def test_white_balance_makes_the_reference_neutral_and_keeps_its_luminance():
    white = np.array([250.0, 220.0, 160.0])  # a white sticker under warm light
    balanced = white_balance(white, white)
    assert np.ptp(balanced) < 1e-6
    assert srgb_to_lab(balanced)[0] == pytest.approx(srgb_to_lab(white)[0])


def test_white_balance_undoes_a_channel_gain():
    rng = np.random.default_rng(5)
    true = rng.uniform(20, 200, (20, 3))
    gains = np.array([1.2, 1.0, 0.7])  # a cast is a per-channel gain on linear light
    from qbr.vision.colour import srgb_decode, srgb_encode

    cast = srgb_encode(srgb_decode(true) * gains)
    white_true = np.array([200.0, 200.0, 200.0])
    white_cast = srgb_encode(srgb_decode(white_true) * gains)
    recovered = white_balance(cast, white_cast)
    # the balance restores colours up to one overall brightness factor: compare chromaticities
    lab_true, lab_rec = srgb_to_lab(true), srgb_to_lab(recovered)
    assert np.max(delta_e(lab_true, lab_rec)) < 3.0


def test_encoded_hue_keeps_a_saturated_orange_apart_from_red():
    # A camera that clips saturated colours leaves an orange only a little green: in linear light (CIELAB) it lies
    # within 2 degrees of the red, as the camera encoded it nearly 8.
    orange, red = srgb_decode(np.array([[252.0, 37.0, 2.0], [251.0, 0.0, 1.0]]))
    assert abs(float(glare_free_hue(orange) - glare_free_hue(red))) < 2.5
    assert float(encoded_hue(orange) - encoded_hue(red)) > 7.5


def test_encoded_hue_places_the_primaries_as_hsv_does():
    primaries = srgb_decode(np.array([[255.0, 0, 0], [255, 255, 0], [0, 255, 0], [0, 0, 255]]))
    assert np.allclose(encoded_hue(primaries), [0.0, 60.0, 120.0, -120.0], atol=1e-6)


@given(st.lists(st.floats(0.0, 1.0), min_size=3, max_size=3), st.floats(0.0, 1.0))
def test_encoded_hue_ignores_light_added_evenly_to_every_channel(rgb: list[float], glare: float):
    # Glare adds the lamp's white in linear light: the hue of what is left is the sticker's.
    linear = np.array(rgb)
    if np.ptp(linear) < 1e-3:
        return  # a grey has no hue
    assert abs((float(encoded_hue(linear + glare) - encoded_hue(linear)) + 180.0) % 360.0 - 180.0) < 1e-6
