"""Sticker palettes, skin tones and light colours for the synthetic renderer (sRGB 0-255 albedos).

Sticker values are what a neutral, well-exposed webcam records for real cubes; they were chosen by looking at
measured scans (the robot-rig photos and colour scans in /work/shared/data) and typical product photos.
"""

from __future__ import annotations

from typing import Final

import numpy as np

COLOUR_NAMES: Final = ("white", "yellow", "red", "orange", "green", "blue")

RGB = tuple[int, int, int]

PALETTES: Final[dict[str, dict[str, RGB]]] = {
    # Classic bright stickers on a black body.
    "standard": {
        "white": (232, 234, 228),
        "yellow": (246, 214, 24),
        "red": (196, 22, 34),
        "orange": (252, 112, 16),
        "green": (0, 158, 76),
        "blue": (8, 72, 190),
    },
    # Orange that looks reddish, red that is dark: the pair webcams confuse most.
    "close_red_orange": {
        "white": (224, 226, 220),
        "yellow": (238, 204, 30),
        "red": (178, 24, 28),
        "orange": (226, 72, 26),
        "green": (24, 140, 64),
        "blue": (22, 62, 160),
    },
    # Sun-faded, pastel stickers: low saturation, yellow close to white.
    "faded": {
        "white": (222, 226, 216),
        "yellow": (232, 222, 128),
        "red": (206, 84, 88),
        "orange": (238, 150, 86),
        "green": (112, 188, 122),
        "blue": (98, 140, 206),
    },
    # Stickerless speed cube: light green, pinkish red, bright plastic tiles.
    "stickerless": {
        "white": (240, 240, 236),
        "yellow": (250, 228, 40),
        "red": (238, 58, 92),
        "orange": (255, 138, 24),
        "green": (84, 216, 62),
        "blue": (28, 118, 230),
    },
    # The robot-rig photos: teal green, pale yellow, violet-ish blue.
    "teal_green": {
        "white": (233, 233, 231),
        "yellow": (230, 216, 82),
        "red": (228, 26, 28),
        "orange": (240, 124, 26),
        "green": (30, 138, 140),
        "blue": (46, 74, 160),
    },
    # Cheap cube with dark, saturated stickers (deep blue and green, brownish red).
    "dark": {
        "white": (214, 218, 210),
        "yellow": (226, 190, 20),
        "red": (150, 22, 26),
        "orange": (214, 86, 20),
        "green": (16, 112, 56),
        "blue": (16, 48, 128),
    },
}

SKIN_TONES: Final[tuple[RGB, ...]] = (
    (236, 196, 168),
    (222, 170, 130),
    (196, 142, 104),
    (168, 114, 78),
    (128, 84, 56),
    (88, 56, 38),
)
"""Typical skin sRGB from very light to very dark."""

BODY_COLOURS: Final[dict[str, RGB]] = {
    "black": (24, 24, 26),
    "white": (218, 220, 214),
    "stickerless": (34, 32, 32),
}
"""Plastic of the cube body; for stickerless cubes, the colour of the grooves between tiles."""

# Linear-sRGB colour of blackbody-like light sources (CIE daylight locus approximation), normalised to G = 1.
_LIGHT_TEMPS: Final = np.array([2700, 3000, 3500, 4000, 4500, 5000, 5500, 6000, 6500, 7500], dtype=np.float64)
_LIGHT_RGB: Final = np.array(
    [
        [2.396, 1.0, 0.240],
        [2.089, 1.0, 0.322],
        [1.752, 1.0, 0.454],
        [1.531, 1.0, 0.577],
        [1.375, 1.0, 0.691],
        [1.262, 1.0, 0.794],
        [1.177, 1.0, 0.888],
        [1.111, 1.0, 0.974],
        [1.060, 1.0, 1.052],
        [0.984, 1.0, 1.188],
    ]
)


def light_gains(kelvin: float, strength: float, green_tint: float) -> np.ndarray:
    """Per-channel linear RGB gains of the colour cast a camera leaves under this light.

    ``strength`` is how much of the cast survives auto white balance (0 = perfectly neutral, 1 = none);
    ``green_tint`` adds the off-green of cheap fluorescent tubes. Gains keep luminance at 1.
    """
    rgb = np.array([np.interp(kelvin, _LIGHT_TEMPS, _LIGHT_RGB[:, c]) for c in range(3)])
    rgb = (rgb / _LIGHT_RGB[8]) ** strength
    rgb[1] *= 1.0 + green_tint
    return rgb / float(rgb @ np.array([0.2126, 0.7152, 0.0722]))


def srgb_to_linear(values: np.ndarray) -> np.ndarray:
    """sRGB 0-255 to linear 0-1 (IEC 61966-2-1)."""
    v = np.asarray(values, dtype=np.float64) / 255.0
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(values: np.ndarray) -> np.ndarray:
    """Linear 0-1 to sRGB 0-255 float (clipped)."""
    v = np.clip(np.asarray(values, dtype=np.float64), 0.0, 1.0)
    return 255.0 * np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)
