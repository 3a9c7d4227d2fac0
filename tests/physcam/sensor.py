"""A webcam's sensor and processing, from scene radiance (camera RGB, linear) to the JPEG it sends.

Order as in a real camera: optics (defocus disc, motion streak) -> Bayer mosaic -> photons (Poisson) and read
noise in electrons -> auto-exposure gain (noise grows with it as light falls) -> 10-bit ADC -> demosaic ->
grey-world auto white balance that corrects only part of the cast -> colour correction matrix -> tone curve ->
sharpening -> JPEG with 4:2:0 chroma.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from physcam.spectra import colour_correction, daylight_white_gains


@dataclass(frozen=True)
class Sensor:
    """One camera's settings for one shot."""

    photons: float = 4000.0
    """Electrons a white sticker under the key light collects at the chosen exposure time (falls with the light)."""
    read_noise: float = 3.0
    """Read noise, electrons RMS."""
    exposure: float = 1.0
    """Final brightness relative to what auto-exposure aims for (0.35-0.45: a dim room beyond the gain limit)."""
    ae_target: float = 0.2
    """Linear level auto-exposure gives the metered (centre-weighted) mean."""
    awb_strength: float = 0.8
    """Share of the grey-world correction applied (cameras leave part of a cast, on purpose or not)."""
    filter_shift: float = 0.0
    """Spectral shift of this camera's colour filters, nm."""
    gamma: float = 2.2
    """Tone curve exponent."""
    contrast: float = 0.0
    """Strength of an S-shaped tone curve on top (-0.2..0.3)."""
    sharpen: float = 0.0
    """Unsharp-mask amount of the camera's processing."""
    defocus: float = 0.0
    """Radius of the defocus disc, pixels."""
    motion: float = 0.0
    """Length of the motion streak, pixels."""
    motion_angle: float = 0.0
    jpeg_quality: int = 90


def _disc_kernel(radius: float) -> np.ndarray:
    n = int(np.ceil(radius)) * 2 + 1
    y, x = np.mgrid[:n, :n] - n // 2
    # Soft edge of one pixel so sub-pixel radii still change the kernel.
    k = np.clip(radius + 0.5 - np.hypot(x, y), 0.0, 1.0).astype(np.float32)
    return k / k.sum()


def _line_kernel(length: float, angle: float) -> np.ndarray:
    n = int(np.ceil(length)) | 1
    k = np.zeros((n, n), np.float32)
    c = n // 2
    dx, dy = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    for s in np.linspace(-length / 2, length / 2, max(2, 4 * n)):
        k[round(c + s * dy), round(c + s * dx)] += 1.0
    return k / k.sum()


def optics(radiance: np.ndarray, s: Sensor) -> np.ndarray:
    """Defocus and motion, in linear light."""
    out = radiance
    if s.defocus > 0.3:
        out = cv2.filter2D(out, -1, _disc_kernel(s.defocus), borderType=cv2.BORDER_REFLECT)
    if s.motion > 1.0:
        out = cv2.filter2D(out, -1, _line_kernel(s.motion, s.motion_angle), borderType=cv2.BORDER_REFLECT)
    return out


def _metered(radiance: np.ndarray) -> float:
    """Centre-weighted mean of the green channel, as a webcam's auto-exposure meters."""
    h, w = radiance.shape[:2]
    wy = np.exp(-((np.arange(h) - h / 2) / (0.35 * h)) ** 2)
    wx = np.exp(-((np.arange(w) - w / 2) / (0.35 * w)) ** 2)
    return float(wy @ radiance[..., 1] @ wx / (wy.sum() * wx.sum()))


def capture(radiance_rgb: np.ndarray, s: Sensor, rng: np.random.Generator) -> np.ndarray:
    """Camera RGB radiance (H, W, 3 float, white sticker under the key light ~1) -> BGR uint8 webcam frame."""
    scene = optics(radiance_rgb.astype(np.float32), s)
    h, w = scene.shape[:2]
    # RGGB mosaic: each photosite sees one channel.
    mosaic = np.empty((h, w), np.float32)
    mosaic[0::2, 0::2] = scene[0::2, 0::2, 0]
    mosaic[0::2, 1::2] = scene[0::2, 1::2, 1]
    mosaic[1::2, 0::2] = scene[1::2, 0::2, 1]
    mosaic[1::2, 1::2] = scene[1::2, 1::2, 2]
    electrons = rng.poisson(np.maximum(mosaic, 0.0) * s.photons).astype(np.float32)
    electrons += rng.normal(0.0, s.read_noise, electrons.shape).astype(np.float32)
    # Auto-exposure picks the analogue gain that brings the metered level to its target (times ``exposure``).
    gain = s.exposure * s.ae_target / max(_metered(scene), 1e-4) / s.photons
    dn = np.clip(np.round(electrons * gain * 1023.0), 0, 1023).astype(np.uint16)
    raw = cv2.cvtColor(dn * 64, cv2.COLOR_BayerBG2RGB).astype(np.float32) / (1023.0 * 64)  # RGGB in OpenCV's naming
    # The camera's own calibration makes daylight neutral; grey-world on the unclipped pixels then removes part of
    # what is left (a warm lamp stays a little warm, a coloured room pulls it off).
    raw = raw * daylight_white_gains(s.filter_shift)
    usable = (raw.max(axis=2) < 0.98).reshape(-1)
    means = raw.reshape(-1, 3)[usable].mean(axis=0) if usable.any() else np.ones(3)
    wb = (means[1] / np.maximum(means, 1e-6)) ** s.awb_strength
    lin = np.clip((raw * wb) @ colour_correction(s.filter_shift), 0.0, 1.0)
    tone = lin ** (1.0 / s.gamma)
    if s.contrast:
        tone = np.clip(tone + s.contrast * tone * (1 - tone) * (2 * tone - 1) * 2, 0.0, 1.0)
    img = tone * 255.0
    if s.sharpen > 0:
        soft = cv2.GaussianBlur(img, (0, 0), 1.2)
        img = img + s.sharpen * (img - soft)
    bgr = np.clip(np.round(img[..., ::-1]), 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(s.jpeg_quality)])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)
