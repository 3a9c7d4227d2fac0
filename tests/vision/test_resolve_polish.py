"""The colouring found is polished: a nearly as cheap real cube the judge prefers, and the descent settles in,
replaces it.

Cases are augmented dev scans (tests/synth/augment.py) on TUNING seeds only: the validation seeds are for reporting.
"""

import json
from pathlib import Path

import numpy as np
import pytest
from synth.augment import TUNING_SEEDS, augment

from qbr.cube.conventions import FACES
from qbr.vision.colour import srgb_decode
from qbr.vision.resolve import resolve_cube
from qbr.vision.resolve.judge import judge
from qbr.vision.tunables import Tunables

DATA = Path(__file__).resolve().parents[1] / "data"


def _scan(name: str) -> tuple[dict, str]:
    """A dev scan by its path under tests/data (a colour scan, or a photo set's measurements)."""
    data = json.loads((DATA / name).read_text("utf-8"))
    return data.get("rgb") or data["expected_sticker_rgb"], data["expected_facelets"]


def _colours(facelets: str) -> np.ndarray:
    return np.array([FACES.index(c) for c in facelets])


# Tuning variants whose true cube the judge scores better than the one main's descents ended in (search misses).
SEARCH_MISSES = [("colour-scans/3x3x3-random-05.json", 47), ("colour-scans/3x3x3-tetris.json", 22),
                 ("photos/3x3x3-random-01/truth.json", 3), ("photos/3x3x3-random-01/truth.json", 6)]


@pytest.mark.parametrize(("name", "seed"), SEARCH_MISSES)
def test_a_nearly_as_cheap_cube_the_judge_prefers_replaces_the_one_found(name, seed):
    assert seed in TUNING_SEEDS
    rgb, truth = _scan(name)
    result = resolve_cube(augment(rgb, truth, seed))
    assert result.facelets == truth and result.valid


def test_a_neighbour_the_judge_prefers_only_once_refitted_is_not_taken():
    # Tuning seed 13 of the cross pattern: U is exposed ~5x darker than D. Refitted to it, a cube with six stickers
    # recoloured judges better than the truth (its faces' casts absorb them), but the descent started from it
    # settles back in the truth: taken as it was, it made this variant wrong.
    rgb, truth = _scan("colour-scans/3x3x3-cross.json")
    wrong = "DUUUUUDUDFRBRRRFRFRFRFFFRBRUDUDDDDDUBLBLLLFLBLBLBBBLFL"
    assert 13 in TUNING_SEEDS
    variant = augment(rgb, truth, 13)
    linear = srgb_decode(np.concatenate([np.asarray(variant[f], float) for f in FACES]))
    measured = np.ones(54, dtype=bool)
    scores = [judge(linear, measured, _colours(f), Tunables())[0] for f in (truth, wrong)]
    assert scores[1] < scores[0]  # the judge alone would take it
    result = resolve_cube(variant)
    assert result.facelets == truth and result.valid
