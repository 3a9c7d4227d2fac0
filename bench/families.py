"""The rendered cubes every vision benchmark reads: one scene family x condition x seed -> six photos and the truth.

Families: ``synth`` (tests/synth, the renderer qbr was tuned on) and ``physcam`` (tests/physcam, independent
physics). Conditions: the tiers easy, medium, hard, and ``dim`` (exposure 35-45%, tungsten light, sensor noise,
2-3 px motion or defocus blur), reported on its own. Seeds come from ``bench/seeds.py``.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # both renderers live with the tests
sys.path.insert(0, str(ROOT / "bench"))

import physcam  # noqa: E402
import synth  # noqa: E402
from seeds import scene_rng, state_rng  # noqa: E402

from qbr.cube.generate import random_state  # noqa: E402

CONDITIONS = ("easy", "medium", "hard", "dim")


def _synth_dim(rng: np.random.Generator, palette: str, body: str) -> synth.RenderParams:
    """synth's medium scene in a dim room: what issue #8 measured (exposure 35-45%, tungsten, noise, 2-3 px blur)."""
    p = synth.sample_params("medium", rng, palette=palette, body=body)
    u = rng.uniform
    motion = rng.random() < 0.5
    return dataclasses.replace(p, brightness=u(0.35, 0.45), kelvin=u(2700, 3000), cast=u(0.4, 0.7), glare=0.0,
                               noise=u(5.0, 9.0), motion=u(2.0, 3.0) / p.width if motion else 0.0,
                               defocus=0.0 if motion else u(1.0, 1.5) / p.width,
                               jpeg_quality=int(rng.integers(60, 86)))


def render(family: str, condition: str, seed: int, facelets: str | None = None
           ) -> tuple[str, Mapping[str, Any], str]:
    """(truth facelets, face -> render with ``.image`` and ``.stickers``, a label) for one cube: a random legal
    one, or ``facelets`` (e.g. a solved cube)."""
    tier = CONDITIONS.index(condition)
    truth = facelets or random_state(state_rng(seed, family, tier)).facelets
    rng = scene_rng(seed, family, tier)
    if family == "physcam":
        return truth, physcam.render_cube(truth, physcam.sample_cube(condition, rng), rng), f"seed {seed}"
    palette = str(rng.choice(list(synth.PALETTES)))
    # One cube: one palette, one body (coloured tiles only with the stickerless palette).
    body = "stickerless" if palette == "stickerless" else str(rng.choice(["black", "black", "white"]))

    def params(face: str) -> synth.RenderParams:
        if condition == "dim":
            return _synth_dim(rng, palette, body)
        return synth.sample_params(condition, rng, palette=palette, body=body)

    return truth, synth.render_cube(truth, params, rng), f"seed {seed} ({palette})"
