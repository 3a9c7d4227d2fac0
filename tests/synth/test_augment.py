"""The augmentation reports the light it drew: bench/augment_ceiling.py's oracle reads the variants through it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from synth.augment import FACES, TUNING_SEEDS, augment, variant
from synth.palettes import linear_to_srgb

SCAN = Path(__file__).resolve().parents[1] / "data" / "colour-scans" / "3x3x3-random-02.json"


def test_variant_light_reproduces_its_measurements() -> None:
    data = json.loads(SCAN.read_text("utf-8"))
    for seed in TUNING_SEEDS[:4]:
        made = variant(data["rgb"], data["expected_facelets"], seed)
        assert all(np.array_equal(made.rgb[f], augment(data["rgb"], data["expected_facelets"], seed)[f]) for f in FACES)
        measured = np.concatenate([made.rgb[f] for f in FACES])
        seen = 255.0 * (linear_to_srgb(made.linear * np.repeat(made.gains, 9, axis=0)) / 255.0) ** made.gamma
        margin = 3.0 * made.noise + 1.0  # near 0 or 255 the noise is clipped (a channel says "at least" / "at most")
        inside = (seen > margin) & (seen < 255.0 - margin)
        residual = (measured - seen)[inside]
        # What is left is the sensor noise drawn (and rounding): the reported light is the light applied.
        assert abs(float(residual.std()) - np.hypot(made.noise, 0.29)) < 0.25 * made.noise + 0.3
        assert abs(float(residual.mean())) < 3.0 * float(residual.std()) / np.sqrt(residual.size) + 0.1
