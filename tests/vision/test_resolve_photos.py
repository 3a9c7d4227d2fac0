"""End to end on real photos: detect each face, measure its stickers, then resolve the whole cube."""

import json
from pathlib import Path

import cv2
import pytest

from qbr.cube.conventions import FACES
from qbr.vision.detect import detect_face
from qbr.vision.measure import measure_stickers
from qbr.vision.resolve import resolve_cube

PHOTOS = Path(__file__).resolve().parents[1] / "data" / "photos"
SETS = sorted(p.parent for p in PHOTOS.glob("3x3x3-*/truth.json"))  # the 2x2 set is out of scope


@pytest.mark.parametrize("folder", SETS, ids=lambda p: p.name)
def test_photos_resolve_to_the_known_cube(folder):
    truth = json.loads((folder / "truth.json").read_text("utf-8"))
    rgb = {}
    for face in FACES:
        (path,) = [p for p in folder.iterdir() if p.stem == face]
        image = cv2.imread(str(path))
        detection = detect_face(image)
        assert detection is not None, f"no face found in {path.name}"
        rgb[face] = measure_stickers(image, detection)
    result = resolve_cube(rgb)
    assert result.facelets == truth["expected_facelets"]
    assert result.valid
