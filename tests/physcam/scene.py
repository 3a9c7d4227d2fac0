"""Backgrounds, clutter and a hand, painted as reflectance mixes so every lamp lights them by its own spectrum.

A painted layer is a pair of images (one per lamp: key and fill) of camera RGB; ``Canvas`` keeps both in step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from physcam.spectra import WAVELENGTHS, camera_rgb, reflectance

BACKGROUNDS = ("plain", "noise", "wood", "fabric")


@dataclass
class Canvas:
    """Camera RGB under the key lamp and under the fill lamp, supersampled."""

    key: np.ndarray
    fill: np.ndarray
    lamps: tuple[np.ndarray, np.ndarray]  # key and fill spectra, each scaled so a perfect white reads G = 1
    sens: np.ndarray

    def rgb(self, refl: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return camera_rgb(refl, self.lamps[0], self.sens), camera_rgb(refl, self.lamps[1], self.sens)

    def fill_poly(self, points: np.ndarray, refl: np.ndarray, shade: tuple[float, float]) -> None:
        """A polygon (image points at canvas scale) of one reflectance, shaded per lamp."""
        pts = [np.round(points).astype(np.int32)]
        k, f = self.rgb(refl)
        cv2.fillPoly(self.key, pts, tuple(float(v) for v in k * shade[0]))
        cv2.fillPoly(self.fill, pts, tuple(float(v) for v in f * shade[1]))

    def stroke(self, a: np.ndarray, b: np.ndarray, width: float, refl: np.ndarray, shade: tuple[float, float]) -> None:
        """A round-capped thick segment (a finger)."""
        k, f = self.rgb(refl)
        p, q = tuple(int(v) for v in np.round(a)), tuple(int(v) for v in np.round(b))
        cv2.line(self.key, p, q, tuple(float(v) for v in k * shade[0]), max(1, int(width)))
        cv2.line(self.fill, p, q, tuple(float(v) for v in f * shade[1]), max(1, int(width)))


def random_spectrum(rng: np.random.Generator, saturation: float = 1.0) -> np.ndarray:
    """A smooth reflectance of any colour: a grey level plus a few random bumps."""
    base = rng.uniform(0.05, 0.6)
    out = np.full(WAVELENGTHS.shape, base * (1 - 0.6 * saturation))
    for _ in range(rng.integers(1, 3)):
        centre, width = rng.uniform(420, 680), rng.uniform(25, 70)
        out += saturation * rng.uniform(0.1, 0.6) * np.exp(-0.5 * ((WAVELENGTHS - centre) / width) ** 2)
    return np.clip(out, 0.02, 0.95)


def _value_noise(h: int, w: int, rng: np.random.Generator, octaves: int = 4) -> np.ndarray:
    """Smooth noise in 0..1: random grids of growing resolution, upsampled and summed."""
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    for o in range(octaves):
        cells = 3 * 2**o
        grid = rng.uniform(0, 1, (cells, max(2, cells * w // h))).astype(np.float32)
        out += amp * cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= 0.55
    out /= total
    return np.clip((out - out.min()) / max(float(np.ptp(out)), 1e-6), 0.0, 1.0)


def _texture(kind: str, h: int, w: int, rng: np.random.Generator, contrast: float) -> np.ndarray:
    """Mix field (0..1) between a background's two reflectances."""
    if kind == "plain":
        y, x = np.mgrid[:h, :w].astype(np.float32)
        a = rng.uniform(0, 2 * np.pi)
        return 0.5 + 0.5 * contrast * ((np.cos(a) * x + np.sin(a) * y) / max(h, w) - 0.5)
    if kind == "noise":
        return 0.5 + contrast * (_value_noise(h, w, rng) - 0.5)
    if kind == "wood":
        y, x = np.mgrid[:h, :w].astype(np.float32)
        a = rng.uniform(0, np.pi)
        along = np.cos(a) * x + np.sin(a) * y
        warp = _value_noise(h, w, rng, 3) * rng.uniform(20, 60)
        grain = 0.5 + 0.5 * np.sin((along + warp) * 2 * np.pi / rng.uniform(0.01, 0.04) / max(h, w))
        return 0.5 + contrast * (0.7 * grain ** 3 + 0.3 * _value_noise(h, w, rng) - 0.5)
    if kind == "fabric":
        y, x = np.mgrid[:h, :w].astype(np.float32)
        period = rng.uniform(0.004, 0.012) * max(h, w)
        weave = (np.sin(2 * np.pi * x / period) * np.sin(2 * np.pi * y / period) > 0).astype(np.float32)
        return 0.5 + contrast * (0.5 * weave + 0.5 * _value_noise(h, w, rng) - 0.5)
    raise KeyError(kind)


def paint_background(canvas: Canvas, kind: str, saturation: float, rng: np.random.Generator, scale: int = 1) -> None:
    """Fill the whole canvas with a textured surface (a wall, a table, a sofa); texture made at 1/``scale`` size."""
    h, w = canvas.key.shape[:2]
    if kind == "wood":
        a = 0.12 + rng.uniform(0.1, 0.3) * (1 / (1 + np.exp(-(WAVELENGTHS - rng.uniform(560, 610)) / 25)))
        b = a * rng.uniform(0.4, 0.7)
    else:
        a = random_spectrum(rng, saturation)
        b = np.clip(a * rng.uniform(0.5, 1.3) + rng.normal(0, 0.03), 0.02, 0.95)
    t = _texture(kind, h // scale, w // scale, rng, rng.uniform(0.3, 1.0)).astype(np.float32)
    t = cv2.resize(t, (w, h), interpolation=cv2.INTER_LINEAR)
    for image, (ca, cb) in ((canvas.key, (canvas.rgb(a)[0], canvas.rgb(b)[0])),
                            (canvas.fill, (canvas.rgb(a)[1], canvas.rgb(b)[1]))):
        for k in range(3):
            image[..., k] = t * float(ca[k] - cb[k]) + float(cb[k])


def paint_clutter(canvas: Canvas, amount: float, pitch: float, rng: np.random.Generator) -> None:
    """Objects in the room: boxes and books, round things, and square notes about a sticker's size (decoys)."""
    h, w = canvas.key.shape[:2]
    for _ in range(round(amount * 14)):
        kind = rng.choice(["box", "box", "round", "note"])
        centre = rng.uniform(0, 1, 2) * (w, h)
        shade = (rng.uniform(0.5, 1.1), rng.uniform(0.5, 1.1))
        refl = random_spectrum(rng, rng.uniform(0.2, 1.0))
        if kind == "round":
            r = rng.uniform(0.5, 3.0) * pitch
            angles = np.linspace(0, 2 * np.pi, 40, endpoint=False)
            pts = centre + np.stack([np.cos(angles), np.sin(angles) * rng.uniform(0.5, 1.0)], 1) * r
        else:
            size = rng.uniform(0.8, 1.2) * pitch * (1 if kind == "note" else rng.uniform(1.5, 5.0))
            aspect = 1.0 if kind == "note" else rng.uniform(0.3, 1.0)
            a = rng.uniform(0, np.pi)
            u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
            pts = np.array([centre + su * u * size / 2 + sv * v * size * aspect / 2
                            for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        canvas.fill_poly(pts, refl, shade)


def skin(rng: np.random.Generator) -> np.ndarray:
    return reflectance("skin", rng.normal(size=4))


def paint_palm(canvas: Canvas, corners: Sequence[np.ndarray], refl: np.ndarray, rng: np.random.Generator,
               shade: tuple[float, float]) -> None:
    """A palm below the cube: an ellipse centred under the face's bottom edge, mostly hidden behind the cube."""
    c = np.asarray(corners, float)
    bottom = (c[2] + c[3]) / 2
    side = float(np.linalg.norm(c[2] - c[3]))
    down = bottom - c.mean(axis=0)
    down /= max(float(np.linalg.norm(down)), 1e-6)
    centre = bottom + down * side * rng.uniform(0.1, 0.4)
    angles = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    a, b = side * rng.uniform(0.5, 0.8), side * rng.uniform(0.35, 0.5)
    ux, uy = np.array([-down[1], down[0]]), down
    pts = centre + np.cos(angles)[:, None] * a * ux + np.sin(angles)[:, None] * b * uy
    canvas.fill_poly(pts, refl, shade)
