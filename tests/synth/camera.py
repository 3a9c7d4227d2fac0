"""A real photo as another phone in another room would have taken it: image-level augmentation, in linear light.

The phone photos of ``tests/data/phone-faces`` come from two phones in one or two rooms; the live naming must hold
for cameras and lamps it has never seen. :func:`other_camera` redoes the part of the picture that differs between
phones and rooms, on the photo's own pixels (its stickers, glare, noise and print stay what they were):

1. sRGB decoded to linear light (the photo's own tone curve taken as sRGB's);
2. the room's lamp, 2700-7500 K, left by auto white balance at 0-60% of its cast (``synth.palettes.light_gains``,
   normalised at 6500 K: the photos' own light is taken as daylight-balanced), with a green/magenta tint of up to a
   few percent (fluorescent tubes, AWB off the locus) and a little per-channel gain error of its own;
3. another colour matrix: saturation x0.75-1.3 about each pixel's luminance and a little cross-talk between
   channels, every row summing to one (a grey stays grey);
4. exposure x0.6-1.5 (clipped at the sensor's top: a bright face's whites and glare clip);
5. another tone curve: a gamma of 0.8-1.25 on the sRGB values and a mild S-curve (contrast) or its inverse;
6. sensor noise (Gaussian, 0-4 of 255) and JPEG at quality 50-95.

Each step is drawn from one ``numpy`` generator seeded by ``seed``: the same seed gives the same camera for every
photo. ``TUNING_SEEDS`` may be looked at while changing the naming; ``VALIDATION_SEEDS`` only to report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from synth.palettes import light_gains, linear_to_srgb, srgb_to_linear

TUNING_SEEDS: Final = range(0, 100)
VALIDATION_SEEDS: Final = range(5000, 5100)
_LUMA: Final = np.array([0.2126, 0.7152, 0.0722])  # linear sRGB luminance weights


@dataclass(frozen=True)
class Camera:
    """One phone and room: everything :func:`other_camera` changes, drawn by :func:`draw_camera`."""

    kelvin: float
    cast: float
    """Share of the lamp's cast that auto white balance leaves (0: neutral)."""
    tint: float
    gains: tuple[float, float, float]
    """Per-channel white-balance error of its own (linear)."""
    matrix: tuple[tuple[float, float, float], ...]
    """The colour matrix applied to linear RGB (rows sum to one)."""
    exposure: float
    gamma: float
    contrast: float
    """S-curve strength: > 0 more contrast, < 0 less."""
    noise: float
    """Gaussian noise, standard deviation in 0-255 sRGB levels."""
    quality: int
    """JPEG quality."""


def draw_camera(seed: int) -> Camera:
    """The phone and room of ``seed``."""
    rng = np.random.default_rng([seed, 13])
    kelvin = float(rng.uniform(2700.0, 7500.0))
    cast = float(rng.uniform(0.0, 0.6))
    tint = float(rng.normal(0.0, 0.03))
    gains = tuple(float(g) for g in np.exp(rng.normal(0.0, 0.03, 3)))
    saturation = float(rng.uniform(0.75, 1.3))
    # Luminance-preserving saturation about grey, then cross-talk between channels that keeps grey grey.
    matrix = np.eye(3) * saturation + (1.0 - saturation) * np.tile(_LUMA, (3, 1))
    cross = rng.normal(0.0, 0.025, (3, 3))
    cross -= cross.mean(axis=1, keepdims=True)
    matrix = matrix + cross
    return Camera(
        kelvin=kelvin,
        cast=cast,
        tint=tint,
        gains=(gains[0], gains[1], gains[2]),
        matrix=tuple(tuple(float(v) for v in row) for row in matrix),
        exposure=float(np.exp(rng.uniform(np.log(0.6), np.log(1.5)))),
        gamma=float(np.exp(rng.uniform(np.log(0.8), np.log(1.25)))),
        contrast=float(rng.uniform(-0.2, 0.3)),
        noise=float(rng.uniform(0.0, 4.0)),
        quality=int(rng.integers(50, 96)),
    )


def other_camera(image: np.ndarray, seed: int) -> np.ndarray:
    """``image`` (BGR uint8) as the phone and room of ``seed`` would have taken it (BGR uint8, same size)."""
    camera = draw_camera(seed)
    rng = np.random.default_rng([seed, 13, 1])  # the noise: same camera, its own draw
    linear = srgb_to_linear(image[..., ::-1].astype(np.float64))
    light = light_gains(camera.kelvin, camera.cast, camera.tint) * np.array(camera.gains)
    linear = linear * light
    linear = linear @ np.array(camera.matrix).T
    linear = np.clip(linear * camera.exposure, 0.0, 1.0)  # the sensor's top clips
    srgb = linear_to_srgb(linear) / 255.0
    srgb = srgb ** camera.gamma
    # S-curve: blend towards smoothstep (more contrast) or away from it (less), ends fixed at 0 and 1.
    srgb = srgb + camera.contrast * (srgb * srgb * (3.0 - 2.0 * srgb) - srgb)
    srgb = 255.0 * np.clip(srgb, 0.0, 1.0) + rng.normal(0.0, camera.noise, srgb.shape)
    out = np.clip(np.round(srgb), 0, 255).astype(np.uint8)[..., ::-1]
    ok, encoded = cv2.imencode(".jpg", np.ascontiguousarray(out), [cv2.IMWRITE_JPEG_QUALITY, camera.quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR)
