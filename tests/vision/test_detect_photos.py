"""Detection and measurement on real photos (a robot rig in a cluttered room) against upstream's measurements."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from qbr.vision.detect import detect_face
from qbr.vision.measure import measure_stickers

PHOTOS = Path(__file__).resolve().parent.parent / "data" / "photos"
SETS = sorted(p for p in PHOTOS.glob("3x3x3-*") if p.is_dir())
CASES = [(s, face) for s in SETS for face in "URFDLB"]


def _image(folder: Path, face: str) -> np.ndarray:
    path = next(folder.glob(f"{face}.*"))
    image = cv2.imread(str(path))
    assert image is not None, path
    return image


def test_photo_sets_are_present() -> None:
    assert len(SETS) == 4


@pytest.mark.parametrize(("folder", "face"), CASES, ids=[f"{s.name}-{f}" for s, f in CASES])
def test_every_real_face_is_found_and_measured(folder: Path, face: str) -> None:
    truth = json.loads((folder / "truth.json").read_text())
    image = _image(folder, face)
    detection = detect_face(image)
    assert detection is not None
    assert detection.stickers.shape == (9, 4, 2)
    rgb = measure_stickers(image, detection)
    expected = np.array(truth["expected_sticker_rgb"][face], dtype=np.float64)
    # Row-major order and colour: every sticker within the README's tolerance of upstream's own measurement.
    assert np.abs(rgb - expected).max() <= 15
