"""Frames of a steady face averaged on its grid (qbr.vision.stack): closer to the truth than one noisy frame, and
started again when the face changes or moves."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import synth

from qbr.vision.detect import FaceDetection, detect_face
from qbr.vision.measure import measure_stickers_with_spread
from qbr.vision.stack import FaceStack, measure_stack, stack_frame
from qbr.vision.tunables import Tunables

LIVE = dataclasses.replace(Tunables().for_video(), stack_frames=8)  # the averaging itself (off by default)
NOISE = 14.0
"""Grey levels of white noise added to each frame: a dim webcam's (bench/steady_low_light.py: 5-25 on stickers)."""


def _noiseless(seed: int, colours: tuple[str, ...] | None = None) -> synth.Rendered:
    rng = np.random.default_rng(seed)
    colours = colours or synth.random_colours(rng)
    params = dataclasses.replace(synth.sample_params("medium", rng), noise=0.0, jpeg_quality=None, glare=0.0)
    return synth.render_face(colours, params, rng)


def _frame(clean: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.clip(clean + rng.normal(0, NOISE, clean.shape), 0, 255).astype(np.uint8)


def _stacked(frames: list[np.ndarray]) -> FaceStack | None:
    stack = None
    for image in frames:
        stack = stack_frame(stack, image, detect_face(image, LIVE), LIVE)
    return stack


def _error(rgb: np.ndarray, clean: np.ndarray, detection: FaceDetection) -> float:
    """Median sticker's sRGB distance from the same stickers measured on the noiseless frame."""
    return float(np.median(np.linalg.norm(rgb - measure_stickers_with_spread(clean, detection, LIVE).rgb, axis=1)))


@pytest.mark.parametrize("seed", [3, 4, 5, 6])
def test_the_average_of_a_steady_faces_frames_is_closer_to_the_truth_than_any_one(seed: int) -> None:
    clean = _noiseless(seed).image
    rng = np.random.default_rng([seed, 1])
    frames = [_frame(clean, rng) for _ in range(LIVE.stack_frames)]
    singles, alone = [], []
    for image in frames:
        detection = detect_face(image, LIVE)
        assert detection is not None
        singles.append(_error(measure_stickers_with_spread(image, detection, LIVE).rgb, clean, detection))
        one = stack_frame(None, image, detection, LIVE)
        assert one is not None and one.frames == 1
        alone.append(_error(measure_stack(one, LIVE).rgb, clean, detection))
    stack = _stacked(frames)
    assert stack is not None and stack.frames == LIVE.stack_frames
    stacked = _error(measure_stack(stack, LIVE).rgb, clean, stack.detection)
    # Against each frame measured on its grid alone (the warp's interpolation already smooths a little), the
    # average's own gain: noise falls by sqrt(8) = 2.8 (seeds 3-6: 0.4-0.65 of the median frame's error).
    assert stacked < 0.75 * float(np.median(alone)), (stacked, alone)
    assert stacked < min(singles), (stacked, singles)  # and any frame measured as the live loop did before


def test_another_face_in_the_same_place_starts_again() -> None:
    first = _noiseless(7)
    colours = tuple(first.colours)
    # The same pose and light (same generator), the centre and a corner in other colours.
    other_colours = ("blue" if colours[0] != "blue" else "red", *colours[1:4],
                     "yellow" if colours[4] != "yellow" else "green", *colours[5:])
    second = _noiseless(7, other_colours)
    rng = np.random.default_rng(1)
    stack = _stacked([_frame(first.image, rng) for _ in range(4)])
    assert stack is not None and stack.frames == 4
    image = _frame(second.image, rng)
    detection = detect_face(image, LIVE)
    assert detection is not None
    after = stack_frame(stack, image, detection, LIVE)
    assert after is not None and after.frames == 1  # only the new face's frame
    # Without a detection of its own the other face is not measured on the old grid either.
    assert stack_frame(stack, image, None, LIVE) is None


def test_a_frame_missed_by_detection_is_measured_on_the_last_grid_for_a_few_frames() -> None:
    clean = _noiseless(3).image
    rng = np.random.default_rng(2)
    stack = _stacked([_frame(clean, rng) for _ in range(2)])
    assert stack is not None
    for k in range(LIVE.stack_carry):
        stack = stack_frame(stack, _frame(clean, rng), None, LIVE)
        assert stack is not None and stack.frames == 3 + k and stack.carried == k + 1
    assert stack_frame(stack, _frame(clean, rng), None, LIVE) is None  # no longer trusted without a detection
    # A room without the face: nothing is carried.
    empty = np.full_like(clean, 90)
    assert stack_frame(_stacked([_frame(clean, rng)]), empty, None, LIVE) is None


def test_a_face_that_moved_starts_again() -> None:
    clean = _noiseless(4).image
    rng = np.random.default_rng(3)
    stack = _stacked([_frame(clean, rng) for _ in range(3)])
    assert stack is not None and stack.frames == 3
    side = float(np.linalg.norm(stack.detection.outline[1] - stack.detection.outline[0]))
    shift = int(np.ceil(LIVE.stack_motion * side)) + 2
    moved = np.roll(_frame(clean, rng), shift, axis=1)
    detection = detect_face(moved, LIVE)
    assert detection is not None
    after = stack_frame(stack, moved, detection, LIVE)
    assert after is not None and after.frames == 1
    nudged = np.roll(_frame(clean, rng), 1, axis=1)  # a steady hand's pixel: kept
    after = stack_frame(stack, nudged, detect_face(nudged, LIVE), LIVE)
    assert after is not None and after.frames == 4
