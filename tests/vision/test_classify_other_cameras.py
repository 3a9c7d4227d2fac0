"""Naming real phone faces as other phones in other rooms would have taken them (``synth.camera``, tuning seeds)."""

import sys
from pathlib import Path

import pytest

from qbr.vision.classify import classify_face
from qbr.vision.palette import DEFAULT_PALETTE
from qbr.vision.tunables import Tunables

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from live_colours import PHONE_FACES, phone_reads
from synth.camera import TUNING_SEEDS


@pytest.mark.parametrize(("photo", "seed"), [
    # Another camera's colour matrix takes a Pixel face's reds and oranges, 10+ degrees apart, all below the
    # phones' red/orange boundary: main read its oranges red.
    ("PXL_20221103_095720702-MP.jpg", 4),
    ("PXL_20221103_100340307-MP.jpg", 1),
    ("PXL_20221103_100340307-MP.jpg", 4),
    ("PXL_20221103_100340307-MP.jpg", 36),
])
def test_reds_and_oranges_on_one_side_of_the_boundary_are_split_by_their_lightness(photo: str, seed: int) -> None:
    assert seed in TUNING_SEEDS
    ((_, rgb, truth),) = phone_reads(PHONE_FACES, Tunables(), seed, [photo])
    assert rgb is not None and truth is not None
    assert classify_face(rgb, DEFAULT_PALETTE).names == tuple(truth)
