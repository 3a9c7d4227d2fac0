"""Sticker colour measurement: robust to glare, edge shadows, black gaps and noise; RGB order."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from qbr.vision.detect import FaceDetection, apply_homography, detect_face
from qbr.vision.measure import measure_stickers, measure_stickers_with_spread

COLOURS_RGB = np.array(
    [
        (200, 30, 40),
        (250, 250, 250),
        (30, 160, 80),
        (240, 120, 30),
        (40, 80, 200),
        (230, 210, 40),
        (250, 250, 250),
        (200, 30, 40),
        (40, 80, 200),
    ],
    dtype=np.float64,
)


def _face(roll: float = 12.0, gap: float = 0.08) -> tuple[np.ndarray, FaceDetection]:
    """A black-bodied face drawn on a grey wall, and its exact detection."""
    angle = np.radians(roll)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]]) * 70.0
    h = np.eye(3)
    h[:2, :2] = rot
    h[:2, 2] = np.array([320.0, 240.0]) - rot @ [1.5, 1.5]
    image = np.full((480, 640, 3), 150, np.uint8)
    outline = apply_homography(h, np.array([(0, 0), (3, 0), (3, 3), (0, 3)], dtype=np.float64))
    cv2.fillPoly(image, [np.round(outline).astype(np.int32)], (15, 15, 15))
    quads = []
    for r in range(3):
        for c in range(3):
            cell = [(c + gap, r + gap), (c + 1 - gap, r + gap), (c + 1 - gap, r + 1 - gap), (c + gap, r + 1 - gap)]
            quad = apply_homography(h, np.array(cell, dtype=np.float64))
            quads.append(quad)
            colour = COLOURS_RGB[3 * r + c][::-1].tolist()  # BGR
            cv2.fillPoly(image, [np.round(quad * 16).astype(np.int32)], colour, cv2.LINE_AA, 4)
    detection = FaceDetection(
        stickers=np.array(quads, dtype=np.float32), outline=outline.astype(np.float32), confidence=1.0, homography=h
    )
    return image, detection


def test_clean_face_measures_exact_colours_in_rgb_order() -> None:
    image, detection = _face()
    rgb = measure_stickers(image, detection)
    assert rgb.shape == (9, 3)
    assert rgb.dtype == np.float64
    assert np.abs(rgb - COLOURS_RGB).max() <= 1.0


def test_measurement_through_the_detector_matches_the_drawn_colours() -> None:
    image, _ = _face(roll=-20.0)
    detection = detect_face(image)
    assert detection is not None
    assert np.abs(measure_stickers(image, detection) - COLOURS_RGB).max() <= 3.0


def test_specular_glare_is_ignored() -> None:
    image, detection = _face()
    for i in (0, 2, 4, 5):  # red, green, blue, yellow
        centre = detection.stickers[i].mean(axis=0)
        # A blown-out highlight covering about a third of the sampled area, off-centre like a real reflection.
        cv2.ellipse(image, (int(centre[0] + 8), int(centre[1] - 6)), (15, 10), 30, 0, 360, (255, 255, 255), -1)
        cv2.circle(image, (int(centre[0] - 10), int(centre[1] + 9)), 4, (245, 240, 240), -1)
    rgb = measure_stickers(image, detection)
    assert np.abs(rgb - COLOURS_RGB).max() <= 8.0


def test_white_stickers_stay_white_under_glare() -> None:
    image, detection = _face()
    centre = detection.stickers[1].mean(axis=0)
    cv2.circle(image, (int(centre[0]), int(centre[1])), 12, (255, 255, 255), -1)
    rgb = measure_stickers(image, detection)
    assert np.abs(rgb[1] - 250).max() <= 5.0


def test_edge_shadows_and_gaps_reaching_inwards_are_ignored() -> None:
    # A detection whose quads are a little too big (they include the black gap), plus a shadow band on one side.
    image, detection = _face(gap=0.12)
    loose = detection.stickers.mean(axis=1, keepdims=True)
    grown = loose + (detection.stickers - loose) * 1.25
    for quad in detection.stickers:
        a, b = quad[0], quad[3]  # the left edge
        band = np.array([a, a + (quad[1] - a) * 0.3, b + (quad[2] - b) * 0.3, b])
        shadow = np.zeros(image.shape[:2], np.uint8)
        cv2.fillPoly(shadow, [np.round(band).astype(np.int32)], 255)
        image[shadow > 0] = (image[shadow > 0] * 0.45).astype(np.uint8)
    shifted = FaceDetection(
        stickers=grown.astype(np.float32),
        outline=detection.outline,
        confidence=1.0,
        homography=detection.homography,
    )
    rgb = measure_stickers(image, shifted)
    assert np.abs(rgb - COLOURS_RGB).max() <= 12.0


def test_noise_averages_out_and_shows_as_spread() -> None:
    clean, detection = _face()
    rng = np.random.default_rng(1)
    noisy = np.clip(clean + rng.normal(0, 10, clean.shape), 0, 255).astype(np.uint8)
    quiet = measure_stickers_with_spread(clean, detection)
    loud = measure_stickers_with_spread(noisy, detection)
    assert np.abs(loud.rgb - COLOURS_RGB).max() <= 8.0
    assert np.all(loud.spread > quiet.spread)
    assert np.all((loud.kept > 0.3) & (loud.kept <= 1.0))


@pytest.mark.parametrize("scale", [0.5, 2.0])
def test_measurement_works_at_any_resolution(scale: float) -> None:
    image, detection = _face()
    resized = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    scaled = FaceDetection(
        stickers=(detection.stickers + 0.5) * scale - 0.5,
        outline=(detection.outline + 0.5) * scale - 0.5,
        confidence=1.0,
        homography=np.diag([scale, scale, 1.0]) @ detection.homography,
    )
    assert np.abs(measure_stickers(resized, scaled) - COLOURS_RGB).max() <= 3.0
