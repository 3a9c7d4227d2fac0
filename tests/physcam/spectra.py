"""Spectral light: lamp spectra, approximate reflectance spectra of cube materials, a camera's RGB sensitivities.

Everything is sampled at 400-700 nm in 10 nm steps. Lamps and the camera come from colour-science's measured
datasets (CIE illuminants A, D65, FL11, the CIE 2018 LED illuminants, a Nikon D5100's sensitivities); the
reflectances are smooth parametric curves with a cube's jitter (sticker makers differ), written here.
"""

from __future__ import annotations

import functools
import warnings

import numpy as np

WAVELENGTHS = np.arange(400.0, 701.0, 10.0)

LAMPS = ("tungsten", "warm_led", "cool_led", "fluorescent", "daylight")
"""tungsten: CIE A (2856 K); warm/cool LED: CIE LED-B1 (2733 K) and LED-B5 (6598 K) phosphor LEDs;
fluorescent: CIE FL11, a triphosphor tube with its large mercury/terbium green spike at 545 nm; daylight: D65."""

_LAMP_KEYS = {"tungsten": "A", "warm_led": "LED-B1", "cool_led": "LED-B5", "fluorescent": "FL11", "daylight": "D65"}

MATERIALS = ("white", "yellow", "red", "orange", "green", "blue", "black_body", "white_body", "skin")
"""Sticker colours first (their names are the truth), then the cube plastics and skin."""


def _colour():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import colour
    return colour


def _resample(sd_like: object) -> np.ndarray:
    """Values of a colour-science (multi-)spectral distribution at ``WAVELENGTHS``."""
    wl = np.asarray(sd_like.wavelengths, float)  # type: ignore[attr-defined]
    values = np.asarray(sd_like.values, float)  # type: ignore[attr-defined]
    if values.ndim == 1:
        return np.interp(WAVELENGTHS, wl, values)
    return np.stack([np.interp(WAVELENGTHS, wl, values[:, k]) for k in range(values.shape[1])], axis=1)


@functools.cache
def lamp_spectrum(name: str) -> np.ndarray:
    """Relative spectral power of a lamp, scaled to unit mean."""
    spd = _resample(_colour().SDS_ILLUMINANTS[_LAMP_KEYS[name]])
    return spd / spd.mean()


@functools.cache
def _base_sensitivities() -> np.ndarray:
    s = _resample(_colour().MSDS_CAMERA_SENSITIVITIES["Nikon 5100 (NPL)"])
    return s / s.sum(axis=0).max()


def sensitivities(shift_nm: float = 0.0) -> np.ndarray:
    """(31, 3) camera R, G, B sensitivities, optionally shifted along the spectrum (one webcam's filters differ)."""
    base = _base_sensitivities()
    return np.stack([np.interp(WAVELENGTHS - shift_nm, WAVELENGTHS, base[:, k]) for k in range(3)], axis=1)


def _step(centre: float, width: float) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(WAVELENGTHS - centre) / width))


def _bump(centre: float, width: float) -> np.ndarray:
    return np.exp(-0.5 * ((WAVELENGTHS - centre) / width) ** 2)


def reflectance(material: str, jitter: np.ndarray | None = None) -> np.ndarray:
    """Approximate reflectance spectrum (0-1) of a material; ``jitter`` (4 numbers ~N(0,1)) varies the maker."""
    j = np.zeros(4) if jitter is None else np.asarray(jitter, float)
    if material == "white":
        return np.clip(0.82 + 0.03 * j[0] - 0.06 * (1 - _step(430 + 8 * j[1], 12)), 0, 1)
    if material == "yellow":
        return 0.05 + (0.80 + 0.04 * j[0]) * _step(505 + 6 * j[1], 11 + 2 * abs(j[2]))
    if material == "orange":
        return 0.04 + (0.82 + 0.04 * j[0]) * _step(582 + 6 * j[1], 10 + 2 * abs(j[2])) + 0.02 * _bump(520, 30)
    if material == "red":
        return 0.04 + (0.70 + 0.05 * j[0]) * _step(612 + 5 * j[1], 10 + 2 * abs(j[2]))
    if material == "green":
        return 0.05 + (0.42 + 0.05 * j[0]) * _bump(528 + 6 * j[1], 34 + 4 * j[2]) + 0.03 * _step(680, 10)
    if material == "blue":
        return 0.04 + (0.42 + 0.05 * j[0]) * _bump(462 + 6 * j[1], 32 + 4 * j[2]) + 0.04 * _step(690, 8)
    if material == "black_body":
        return np.full(WAVELENGTHS.shape, 0.016 + 0.006 * abs(j[0]))
    if material == "white_body":
        return np.full(WAVELENGTHS.shape, 0.72 + 0.04 * j[0])
    if material == "skin":
        return 0.12 + (0.35 + 0.12 * j[0]) * _step(585 + 8 * j[1], 18) + 0.05 * _bump(540, 20) * (1 - 0.3 * j[2])
    raise KeyError(material)


def camera_rgb(reflectances: np.ndarray, lamp: np.ndarray, sens: np.ndarray) -> np.ndarray:
    """Raw camera RGB (linear) of reflectances (..., 31) lit by ``lamp`` (31,): sum over the spectrum."""
    return np.asarray(reflectances, float) * lamp @ sens


def _xyz_cmfs() -> np.ndarray:
    return _resample(_colour().MSDS_CMFS["CIE 1931 2 Degree Standard Observer"])


_XYZ_TO_LINEAR_SRGB = np.array([[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570]])


@functools.cache
def _ccm(shift_nm: float) -> np.ndarray:
    """Colour correction matrix camera -> linear sRGB, fitted by least squares on the materials under D65."""
    rng = np.random.default_rng(0)
    refl = np.array([reflectance(m, rng.normal(size=4)) for m in MATERIALS for _ in range(4)])
    # A few neutral greys and smooth random spectra keep the fit from bending to the sticker set alone.
    refl = np.concatenate([refl, np.linspace(0.05, 0.9, 6)[:, None] * np.ones(len(WAVELENGTHS)),
                           np.clip(rng.uniform(0, 1, (24, 4)) @ np.stack([_bump(c, 50) for c in (430, 510, 590, 670)])
                                   * 0.6, 0, 1)])
    d65 = lamp_spectrum("daylight")
    cam = camera_rgb(refl, d65, sensitivities(shift_nm))
    cam /= camera_rgb(np.ones(len(WAVELENGTHS)), d65, sensitivities(shift_nm))  # white-balanced for D65
    xyz = refl * d65 @ _xyz_cmfs()
    xyz /= (d65 @ _xyz_cmfs())[1]
    target = xyz @ _XYZ_TO_LINEAR_SRGB.T
    m, *_ = np.linalg.lstsq(cam, target, rcond=None)
    return m / m.sum(axis=0)  # white stays white


def colour_correction(shift_nm: float) -> np.ndarray:
    """(3, 3) matrix M with linear sRGB = white-balanced camera RGB @ M."""
    return _ccm(round(float(shift_nm), 1))


def daylight_white_gains(shift_nm: float) -> np.ndarray:
    """Channel gains that make a white surface under daylight neutral (a camera's factory calibration)."""
    white = camera_rgb(np.ones(len(WAVELENGTHS)), lamp_spectrum("daylight"), sensitivities(shift_nm))
    return white[1] / white
