"""A face held in a stream (qbr.vision.held_face): kept through a few frames its detection misses while it still
looks the same, and let go for another face or none."""

from __future__ import annotations

import dataclasses

import numpy as np
import synth

from qbr.vision.detect import detect_face
from qbr.vision.held_face import HeldFace, hold_face
from qbr.vision.measure import measure_stickers_with_spread
from qbr.vision.tunables import Tunables

LIVE = Tunables().for_video()
NOISE = 14.0
"""Grey levels of white noise added to each frame: a dim webcam's (bench/steady_low_light.py: 5-25 on stickers)."""


def _noiseless(seed: int, colours: tuple[str, ...] | None = None) -> synth.Rendered:
    rng = np.random.default_rng(seed)
    colours = colours or synth.random_colours(rng)
    params = dataclasses.replace(synth.sample_params("medium", rng), noise=0.0, jpeg_quality=None, glare=0.0)
    return synth.render_face(colours, params, rng)


def _frame(clean: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.clip(clean + rng.normal(0, NOISE, clean.shape), 0, 255).astype(np.uint8)


def _held(image: np.ndarray) -> HeldFace:
    held = hold_face(None, image, detect_face(image, LIVE), LIVE)
    assert held is not None
    return held


def test_a_detected_frame_is_measured_as_the_frame_alone() -> None:
    image = _frame(_noiseless(3).image, np.random.default_rng(1))
    held = _held(image)
    alone = measure_stickers_with_spread(image, held.detection, LIVE)
    assert np.array_equal(held.colours.rgb, alone.rgb) and held.carried == 0


def test_a_frame_missed_by_detection_is_measured_with_the_last_detection_for_a_few_frames() -> None:
    rendered = _noiseless(3)
    rng = np.random.default_rng(2)
    held = _held(_frame(rendered.image, rng))
    for k in range(LIVE.held_carry):
        image = _frame(rendered.image, rng)
        after = hold_face(held, image, None, LIVE)
        assert after is not None and after.carried == k + 1 and after.detection is held.detection
        assert np.array_equal(after.colours.rgb, measure_stickers_with_spread(image, held.detection, LIVE).rgb)
        held = after
    assert hold_face(held, _frame(rendered.image, rng), None, LIVE) is None  # no longer trusted without a detection
    # A room without the face: nothing is carried.
    empty = np.full_like(rendered.image, 90)
    assert hold_face(_held(_frame(rendered.image, rng)), empty, None, LIVE) is None


def test_another_face_in_the_same_place_is_not_measured_with_the_last_detection() -> None:
    first = _noiseless(7)
    colours = tuple(first.colours)
    # The same pose and light (same generator), the centre and a corner in other colours.
    other_colours = ("blue" if colours[0] != "blue" else "red", *colours[1:4],
                     "yellow" if colours[4] != "yellow" else "green", *colours[5:])
    second = _noiseless(7, other_colours)
    rng = np.random.default_rng(1)
    held = _held(_frame(first.image, rng))
    assert hold_face(held, _frame(second.image, rng), None, LIVE) is None
    # With a detection of its own it is taken as it is.
    image = _frame(second.image, rng)
    after = hold_face(held, image, detect_face(image, LIVE), LIVE)
    assert after is not None and after.carried == 0
