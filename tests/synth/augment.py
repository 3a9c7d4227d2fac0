"""Variants of real measured scans (and solved cubes from the palettes) in light and schemes they were never seen in.

A real scan is a handful of cubes from one rig; the resolver has to hold for any camera, room and cube. Each
variant keeps the scan's own sticker-to-sticker variation (its real noise, glare and print differences) and
changes what varies between scans: per-face auto-exposure, a colour cast from the lamp (2700-7500 K) that
auto white balance only partly removes, a different camera gamma, sensor noise, a very dark exposure (every
channel below 90), and the colours swapped round to another colour scheme. The truth facelets stay those of the
scan (letters name faces, not colours). Seeds are fixed: ``TUNING_SEEDS`` may be looked at while changing the
resolver, ``VALIDATION_SEEDS`` only to report.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from synth.palettes import PALETTES, light_gains, linear_to_srgb, srgb_to_linear

FACES: Final = "URFDLB"
TUNING_SEEDS: Final = range(0, 50)
VALIDATION_SEEDS: Final = range(1000, 1050)

SCHEMES: Final[dict[str, dict[str, str]]] = {
    # Face letter -> colour name. Western: white opposite yellow, red opposite orange, green opposite blue.
    "western": {"U": "white", "R": "red", "F": "green", "D": "yellow", "L": "orange", "B": "blue"},
    # Japanese: white opposite blue, yellow opposite green.
    "japanese": {"U": "white", "R": "red", "F": "green", "D": "blue", "L": "orange", "B": "yellow"},
    # Neither: pairs of colours that no standard cube puts opposite each other.
    "scrambled": {"U": "yellow", "R": "green", "F": "white", "D": "red", "L": "blue", "B": "orange"},
}


def _faces(rgb: Mapping[str, Sequence]) -> np.ndarray:
    return np.concatenate([np.asarray(rgb[f], dtype=np.float64).reshape(9, 3) for f in FACES])


def _split(values: np.ndarray) -> dict[str, np.ndarray]:
    return {f: values[9 * i : 9 * i + 9] for i, f in enumerate(FACES)}


def _swap_scheme(linear: np.ndarray, truth: str, rng: np.random.Generator) -> np.ndarray:
    """Recolour the scan by a permutation of its colours that changes which colours are opposite each other.

    Each sticker is scaled (per channel, linear) by the ratio of the new colour's mean to its own colour's mean,
    so its deviations from its colour's mean (noise, glare, the face's light) are kept.
    """
    letters = np.array(list(truth))
    means = {f: linear[letters == f].mean(axis=0) for f in FACES}
    while True:
        order = rng.permutation(6)
        new = {f: FACES[int(order[i])] for i, f in enumerate(FACES)}
        opposite = {"U": "D", "R": "L", "F": "B", "D": "U", "L": "R", "B": "F"}
        if any(new[opposite[f]] != opposite[new[f]] for f in FACES):
            break
    ratio = np.array([np.maximum(means[new[c]], 1e-4) / np.maximum(means[c], 1e-4) for c in letters])
    return linear * ratio


@dataclass(frozen=True)
class Variant:
    """One augmented scan and the light, camera and noise it was made with (for a judge that knows them)."""

    rgb: dict[str, np.ndarray]  # face letter -> nine sRGB rows, as ``augment`` returns them
    linear: np.ndarray  # (54, 3) the scan's stickers in linear light before the faces' light (scheme swapped if so)
    gains: np.ndarray  # (6, 3) each face's linear gain: lamp cast x auto-exposure x the overall exposure
    gamma: float  # the camera's gamma on sRGB / 255
    noise: float  # sd of the sensor noise added, sRGB levels


def variant(rgb: Mapping[str, Sequence], truth: str, seed: int) -> Variant:
    """One variant of a measured scan (face letter -> nine sRGB rows) under the light and camera ``seed`` draws."""
    rng = np.random.default_rng(seed)
    linear = srgb_to_linear(_faces(rgb))
    if rng.random() < 0.3:
        linear = _swap_scheme(linear, truth, rng)
    kelvin = rng.uniform(2700, 7500)
    strength = rng.uniform(0.0, 0.8)
    cast = np.stack([light_gains(np.clip(kelvin + rng.normal(0, 400), 2700, 7500), strength, rng.normal(0, 0.03))
                     for _ in range(6)])
    gains = cast * np.exp(rng.normal(0.0, 0.35, (6, 1)))
    lit = linear * np.repeat(gains, 9, axis=0)
    if rng.random() < 0.25:
        scale = rng.uniform(0.04, 0.1) / max(float(lit.max()), 1e-6)  # every channel below ~90 sRGB
    else:
        scale = rng.uniform(0.6, 1.15) / max(float(np.percentile(lit, 95)), 1e-6)  # some whites clip
    gamma = rng.uniform(0.8, 1.25)
    srgb = 255.0 * (linear_to_srgb(lit * scale) / 255.0) ** gamma
    noise = rng.uniform(0.0, 5.0)
    srgb = srgb + rng.normal(0.0, noise, srgb.shape)
    return Variant(_split(np.clip(np.round(srgb), 0.0, 255.0)), linear, gains * scale, float(gamma), float(noise))


def augment(rgb: Mapping[str, Sequence], truth: str, seed: int) -> dict[str, np.ndarray]:
    """One variant of a measured scan (face letter -> nine sRGB rows) under the light and camera ``seed`` draws."""
    return variant(rgb, truth, seed).rgb


def solved_cube(palette: str, scheme: str, seed: int, dark: bool = False) -> dict[str, np.ndarray]:
    """A solved cube of ``palette`` in ``scheme`` under a random lamp (2700-7500 K), per-face exposure and noise."""
    rng = np.random.default_rng(seed)
    colours = PALETTES[palette]
    albedo = np.array([colours[SCHEMES[scheme][f]] for f in FACES for _ in range(9)], dtype=np.float64)
    albedo = albedo + rng.normal(0.0, 4.0, albedo.shape)  # print and plastic vary from sticker to sticker
    linear = srgb_to_linear(np.clip(albedo, 0, 255))
    cast = light_gains(rng.uniform(2700, 7500), rng.uniform(0.3, 1.0), rng.normal(0, 0.03))
    exposure = np.exp(rng.normal(0.0, 0.3, (6, 1)))
    linear = linear * cast * np.repeat(exposure, 9, axis=0)
    linear *= (rng.uniform(0.04, 0.1) if dark else rng.uniform(0.6, 1.1)) / max(float(linear.max()), 1e-6)
    srgb = linear_to_srgb(linear) + rng.normal(0.0, 3.0, linear.shape)
    return _split(np.clip(np.round(srgb), 0.0, 255.0))
