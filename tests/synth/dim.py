"""Faces photographed in a dim room: low exposure, tungsten light, webcam sensor noise, a little blur.

The condition issue 8 measured (63% of such faces found, 97% of bright ones): exposure 35-45%, a warm lamp that
auto white balance only partly corrects, webcam sensor noise, and 2-3 px of motion or defocus blur at 640x480.
Pose, clutter and the hand are drawn as in the medium tier, so what makes these faces hard is the light.

The renderer's own noise is white and the same at every grey level; a webcam's is not: shot noise grows with
the signal (so it dominates the shadows once gamma-encoded), read noise adds a floor, and demosaicing spreads
each pixel's noise over its neighbours, so a 2x downscale averages much less of it away. ``webcam_sensor``
models that on a noiseless render.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from synth.palettes import COLOUR_NAMES
from synth.render import Rendered, RenderParams, render_face, sample_params

_LIN_FROM_8 = (((np.arange(256) / 255.0 + 0.055) / 1.055) ** 2.4).astype(np.float32)
_DEMOSAIC_SIGMA = 0.7
"""Spread (pixels) of one pixel's noise by demosaicing: neighbours share about half of it."""


def dim_params(rng: np.random.Generator, width: int = 640, height: int = 480) -> RenderParams:
    """A medium-tier pose in a dim room under tungsten light with 2-3 px of blur; noiseless (see ``webcam_sensor``).

    Exposure 35-45% is of the encoded grey levels, so the linear light is that to the power 2.4.
    """
    base = sample_params("medium", rng, width, height)
    u = rng.uniform
    blur = u(2.0, 3.0) * width / 640  # pixels at 640 px wide
    kind = str(rng.choice(["defocus", "motion"]))
    return dataclasses.replace(
        base,
        brightness=float(u(0.35, 0.45) ** 2.4),
        kelvin=float(u(2700, 3300)),
        cast=float(u(0.3, 0.7)),
        green_tint=0.0,
        glare=0.0,
        noise=0.0,
        # A defocused spot 2-3 px across is a Gaussian of sigma about half that; motion smears over the length.
        defocus=float(blur / 2 / width) if kind == "defocus" else 0.0,
        motion=float(blur / width) if kind == "motion" else 0.0,
        jpeg_quality=None,
    )


def webcam_sensor(image_bgr: np.ndarray, rng: np.random.Generator, electrons: float, read_noise: float,
                  jpeg_quality: int) -> np.ndarray:
    """A small sensor's view of a noiseless render: the camera's colour processing undone, shot and read noise
    spread by demosaicing, the processing redone (so it amplifies the noise), then the webcam's JPEG.

    ``electrons`` is the signal a linear level of 1 collects (after the analogue gain a dim room needs);
    ``read_noise`` is in electrons too. White balance gains lift the weak blue of a warm lamp, and the colour
    matrix (about 1.4-1.8 on its diagonal, as webcams use) saturates colours, with their noise.
    """
    return WebcamSensor.sample(rng, electrons, read_noise, jpeg_quality).expose(image_bgr, rng)


@dataclasses.dataclass(frozen=True)
class WebcamSensor:
    """One webcam's settings (``webcam_sensor``): every frame it takes of a scene gets its own noise."""

    matrix: np.ndarray
    balance: np.ndarray
    electrons: float
    read_noise: float
    jpeg_quality: int

    @staticmethod
    def sample(rng: np.random.Generator, electrons: float, read_noise: float, jpeg_quality: int) -> WebcamSensor:
        saturation = float(rng.uniform(0.6, 1.2))
        matrix = np.eye(3) * (1 + saturation) - saturation / 3  # rows sum to 1: greys stay grey
        balance = np.array([rng.uniform(1.6, 2.4), 1.0, rng.uniform(0.8, 1.0)], np.float32)  # B, G, R gains
        return WebcamSensor(matrix, balance, electrons, read_noise, jpeg_quality)

    def expose(self, image_bgr: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One frame of the noiseless render ``image_bgr``, its noise drawn from ``rng``."""
        electrons, balance = np.float32(self.electrons), self.balance
        lin = cv2.transform(cv2.LUT(image_bgr, _LIN_FROM_8), np.linalg.inv(self.matrix))
        signal = np.maximum(lin, 0) / balance * electrons
        white = rng.standard_normal(signal.shape).astype(np.float32)
        # Blurring white noise by a Gaussian of sigma s divides its deviation by 2 sqrt(pi) s: scale it back.
        spread = (cv2.GaussianBlur(white, (0, 0), _DEMOSAIC_SIGMA)
                  * np.float32(2 * np.sqrt(np.pi) * _DEMOSAIC_SIGMA))
        noisy = (signal + np.sqrt(signal + np.float32(self.read_noise**2)) * spread) * (balance / electrons)
        encoded = 1.055 * np.maximum(cv2.transform(noisy, self.matrix), 0) ** (1 / 2.4) - 0.055
        out = np.clip(np.rint(encoded * 255), 0, 255).astype(np.uint8)
        _ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(self.jpeg_quality)])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def render_dim_face(rng: np.random.Generator, width: int = 640, height: int = 480) -> Rendered:
    """One random face in a dim room (``dim_params``) through a noisy webcam (``webcam_sensor``)."""
    colours = tuple(COLOUR_NAMES[i] for i in rng.integers(0, 6, 9))
    params = dim_params(rng, width, height)
    rendered = render_face(colours, params, rng)
    image = webcam_sensor(rendered.image, rng, float(rng.uniform(800, 2500)), float(rng.uniform(2, 6)),
                          int(rng.integers(60, 91)))
    return dataclasses.replace(rendered, image=image)


def render_dim_scene(rng: np.random.Generator, width: int = 640,
                     height: int = 480) -> tuple[Rendered, WebcamSensor]:
    """The noiseless render and the webcam of ``render_dim_face`` (same draws): ``sensor.expose(render.image, rng)``
    with the same ``rng`` next gives that very photo; other generators give more frames with their own noise."""
    colours = tuple(COLOUR_NAMES[i] for i in rng.integers(0, 6, 9))
    rendered = render_face(colours, dim_params(rng, width, height), rng)
    electrons, read_noise, quality = float(rng.uniform(800, 2500)), float(rng.uniform(2, 6)), int(rng.integers(60, 91))
    return rendered, WebcamSensor.sample(rng, electrons, read_noise, quality)
