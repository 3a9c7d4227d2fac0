"""Resolution weighs the stickers a glare spot lit (``StickerColours.spot``) less: whole cubes read right only so.

Rendered by bench's ``families`` (tests/physcam, hard: glare spots, dim faces, blur, JPEG); seeds of the tuning range,
chosen from those ``bench/colour_reads.py`` found resolved exactly with the weights and wrongly without them.
"""

import sys
from pathlib import Path

import pytest

from qbr.cube.conventions import FACES
from qbr.vision.detect import detect_face
from qbr.vision.measure import measure_stickers_with_spread
from qbr.vision.resolve import resolve_cube
from qbr.vision.tunables import Tunables

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from families import render
from scan_accuracy import detection_matches


@pytest.mark.parametrize("seed", [6, 52, 62, 155])
def test_physcam_hard_cubes_under_a_spot_resolve_exactly_only_with_the_spot_weights(seed):
    tun = Tunables()
    truth, renders, _ = render("physcam", "hard", seed)
    measured = {}
    for face in FACES:
        detection = detect_face(renders[face].image, tun)
        assert detection is not None and detection_matches(detection, renders[face].stickers)
        measured[face] = measure_stickers_with_spread(renders[face].image, detection, tun)
    rgb = {face: m.rgb for face, m in measured.items()}
    assert max(float(m.spot.max()) for m in measured.values()) > 0.5  # a spot lights some sticker mostly
    assert resolve_cube(rgb, tunables=tun, trust={f: 1.0 - m.spot for f, m in measured.items()}).facelets == truth
    assert resolve_cube(rgb, tunables=tun).facelets != truth
