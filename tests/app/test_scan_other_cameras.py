"""The real photo sets as other cameras would have taken them (``synth.camera``, tuning seeds), read as `qbr scan`
reads them: right, or the miss reported in doubt, never a wrong cube given as sure (bench/real_sets.py)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
from synth.camera import TUNING_SEEDS, other_camera

from qbr.app.commands.scan import read_photos
from qbr.app.jobs import resolved_in_order
from qbr.cube.conventions import FACES
from qbr.vision.palette import DEFAULT_PALETTE
from qbr.vision.tunables import Tunables

PHOTOS = Path(__file__).resolve().parents[1] / "data" / "photos"


def _read(folder: str, seeds: list[int]) -> tuple[str, object]:
    """The set's six photos, photo i through the camera of ``seeds[i]``, read and resolved as `qbr scan` does."""
    images = [other_camera(cv2.imread(str(next((PHOTOS / folder).glob(f"{face}.*")))), seed)
              for face, seed in zip(FACES, seeds, strict=True)]
    read = read_photos(images, Tunables())
    assert set(read.rgb) == set(FACES)  # every face found
    (resolution, _, _), _ = resolved_in_order(read.rgb, DEFAULT_PALETTE, 0.0, read.trust)
    return json.loads((PHOTOS / folder / "truth.json").read_text())["expected_facelets"], resolution


def test_a_set_through_another_camera_per_photo_is_read_exactly() -> None:
    # Each photo its own white balance, exposure, tone curve and noise (as bench/real_sets.photo_seed draws them).
    seeds = [1_000_000 + 8 * TUNING_SEEDS[3] + i for i in range(6)]
    assert all(s not in TUNING_SEEDS for s in seeds)
    truth, resolution = _read("3x3x3-random-02__2018-02-22", seeds)
    assert resolution.facelets == truth and resolution.valid


def test_washed_yellows_another_camera_cannot_tell_from_white_are_said_to_be_in_doubt() -> None:
    # The rig's overexposed set: its yellows are a few levels from its whites; a camera that lifts both to white
    # leaves the yellow/white edges unknowable, and the stickers at stake must be named, not guessed silently.
    truth, resolution = _read("3x3x3-random-01", [TUNING_SEEDS[0]] * 6)
    wrong = {i for i, (a, b) in enumerate(zip(resolution.facelets, truth, strict=True)) if a != b}
    assert wrong  # the information is not there (every white and yellow clips)
    assert resolution.doubt is not None and wrong <= set(resolution.doubt.stickers)
    assert np.all(np.isin(list(wrong), resolution.uncertain))
