"""Renderer seeds split into a TUNING range and a frozen VALIDATION range, for every vision benchmark.

Rule (issue #8): tune detection and resolution on the tuning range only. The validation range is frozen: never
look at its failures while changing a rule or a tunable; it only reports whether what was tuned holds on scenes
never seen. A large gap between the two means the code fits the renderer, not cubes.

    TUNING      seeds 1 .. 99 999        (tests naming seeds, golden frames, --seed runs: all tuning data)
    VALIDATION  seeds 100 000 .. 199 999 (frozen; benchmarks only)

Cube ``n`` of a split is rendered from seed ``first + n``; its numpy generator is
``default_rng([seed, family, tier])`` and its facelets come from ``random.Random(seed * 64 + 8 * family + tier)``,
so every (split, family, tier, cube) is one fixed, independent scene whatever else a benchmark renders.
Families: 0 = ``tests/synth``, 1 = ``tests/physcam`` (independent physics).
"""

from __future__ import annotations

import random

import numpy as np

SPLITS = ("tuning", "validation")
FIRST = {"tuning": 1, "validation": 100_000}
LAST = {"tuning": 99_999, "validation": 199_999}
FAMILIES = ("synth", "physcam")


def cube_seeds(split: str, count: int, start: int = 0) -> range:
    """Seeds of cubes ``start .. start+count-1`` of a split (ValueError past its end)."""
    first = FIRST[split] + start
    if first + count - 1 > LAST[split]:
        raise ValueError(f"the {split} range holds {LAST[split] - FIRST[split] + 1} seeds")
    return range(first, first + count)


def scene_rng(seed: int, family: str, tier: int) -> np.random.Generator:
    """The generator for one cube's renders."""
    return np.random.default_rng([seed, FAMILIES.index(family), tier])


def state_rng(seed: int, family: str, tier: int) -> random.Random:
    """The generator for one cube's facelets (qbr.cube.generate takes a ``random.Random``)."""
    return random.Random(seed * 64 + 8 * FAMILIES.index(family) + tier)
