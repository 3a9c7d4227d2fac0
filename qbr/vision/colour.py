"""Colour maths for sticker classification: sRGB -> CIELAB (D65), CIEDE2000 and white balance, vectorised in numpy.

colour-science is the reference: these numpy versions exist because its per-call overhead (about 1 ms for nine
stickers) is too much for the per-frame path; tests check both against colour-science and the Sharma pairs.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

D65_XY = (0.3127, 0.3290)
"""CIE 1931 2 degree chromaticity of the D65 white point (sRGB's white)."""


def _xy_to_xyz(xy: tuple[float, float]) -> NDArray[np.float64]:
    x, y = xy
    return np.array([x / y, 1.0, (1.0 - x - y) / y])


# The matrix as IEC 61966-2-1 publishes it (four decimals), which is also what colour-science uses for sRGB.
_M_RGB_TO_XYZ = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
_M_XYZ_TO_RGB = np.linalg.inv(_M_RGB_TO_XYZ)
_WHITE_XYZ = _xy_to_xyz(D65_XY)
_EPSILON = 216 / 24389
# Both steps of XYZ -> Lab as matrices: one matrix product each instead of several small array operations.
_M_RGB_TO_WHITE_XYZ = (_M_RGB_TO_XYZ / _WHITE_XYZ[:, None]).T
_M_F_TO_LAB = np.array([[0.0, 500.0, 0.0], [116.0, -500.0, 200.0], [0.0, 0.0, -200.0]])
_LAB_OFFSET = np.array([-16.0, 0.0, 0.0])
_TAU = 2 * np.pi
_25_POW_7 = 25.0**7
_DEG_6, _DEG_25, _DEG_30, _DEG_60, _DEG_63, _DEG_275 = np.radians([6.0, 25.0, 30.0, 60.0, 63.0, 275.0])
_KAPPA = 24389 / 27


def srgb_decode(rgb: ArrayLike) -> NDArray[np.float64]:
    """sRGB 0-255 (any shape ``(..., 3)``) -> linear RGB 0-1 (IEC 61966-2-1 transfer function)."""
    v = np.asarray(rgb, dtype=np.float64) / 255.0
    return np.where(v <= 0.04045, v / 12.92, ((np.maximum(v, 0.04045) + 0.055) / 1.055) ** 2.4)


def srgb_encode(linear: ArrayLike) -> NDArray[np.float64]:
    """Linear RGB 0-1 -> sRGB 0-255 (not clipped)."""
    v = np.asarray(linear, dtype=np.float64)
    encoded = np.where(v <= 0.0031308, v * 12.92, 1.055 * np.maximum(v, 0.0031308) ** (1 / 2.4) - 0.055)
    return encoded * 255.0


def linear_to_lab(linear: ArrayLike) -> NDArray[np.float64]:
    """Linear sRGB 0-1 ``(..., 3)`` -> CIELAB with D65 white."""
    xyz = np.asarray(linear, dtype=np.float64) @ _M_RGB_TO_WHITE_XYZ
    f = np.cbrt(xyz)
    # Only near-black values take the linear segment: patch those few instead of computing both branches.
    low = xyz <= _EPSILON
    if low.any():
        f[low] = (_KAPPA / 116) * xyz[low] + 16 / 116
    return f @ _M_F_TO_LAB + _LAB_OFFSET


def srgb_to_lab(rgb: ArrayLike) -> NDArray[np.float64]:
    """sRGB 0-255 ``(..., 3)`` -> CIELAB (D65), as ``colour.XYZ_to_Lab(colour.sRGB_to_XYZ(rgb / 255))``."""
    return linear_to_lab(srgb_decode(rgb))


def lab_to_srgb(lab: ArrayLike) -> NDArray[np.float64]:
    """CIELAB (D65) -> sRGB 0-255 (not clipped): the inverse of :func:`srgb_to_lab`."""
    lab = np.asarray(lab, dtype=np.float64)
    fy = (lab[..., 0] + 16) / 116
    f = np.stack((fy + lab[..., 1] / 500, fy, fy - lab[..., 2] / 200), axis=-1)
    xyz = np.where(f**3 > _EPSILON, f**3, (116 * f - 16) / _KAPPA) * _WHITE_XYZ
    return srgb_encode(xyz @ _M_XYZ_TO_RGB.T)


def delta_e(lab1: ArrayLike, lab2: ArrayLike) -> NDArray[np.float64]:
    """CIEDE2000 colour difference (kL = kC = kH = 1), broadcasting: ``(N, 1, 3)`` vs ``(1, K, 3)`` gives ``(N, K)``."""
    lab1 = np.asarray(lab1, dtype=np.float64)
    lab2 = np.asarray(lab2, dtype=np.float64)
    l1, a1, b1 = lab1[..., 0], lab1[..., 1], lab1[..., 2]
    l2, a2, b2 = lab2[..., 0], lab2[..., 1], lab2[..., 2]
    # Angles in radians throughout, and as few array operations as possible: this runs every video frame.
    c7 = ((np.hypot(a1, b1) + np.hypot(a2, b2)) * 0.5) ** 7
    a_scale = 1.5 - 0.5 * np.sqrt(c7 / (c7 + _25_POW_7))
    a1p, a2p = a_scale * a1, a_scale * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.arctan2(b1, a1p) % _TAU
    h2p = np.arctan2(b2, a2p) % _TAU
    chroma_product = c1p * c2p
    hued = chroma_product != 0  # a grey has no hue: the formula then drops the hue difference
    dh = h2p - h1p
    far = np.abs(dh) > np.pi  # hues more than half a turn apart: go round the other way
    dh = (dh - _TAU * far * np.sign(dh)) * hued
    h_sum = h1p + h2p
    h_mean = np.where(hued, 0.5 * (h_sum + far * np.where(h_sum < _TAU, _TAU, -_TAU)), h_sum)
    t = (
        1
        - 0.17 * np.cos(h_mean - _DEG_30)
        + 0.24 * np.cos(2 * h_mean)
        + 0.32 * np.cos(3 * h_mean + _DEG_6)
        - 0.20 * np.cos(4 * h_mean - _DEG_63)
    )
    c_mean = (c1p + c2p) * 0.5
    c_mean7 = c_mean**7
    rotation = np.sin(_DEG_60 * np.exp(-(((h_mean - _DEG_275) / _DEG_25) ** 2)))
    r_t = -2 * np.sqrt(c_mean7 / (c_mean7 + _25_POW_7)) * rotation
    l_off = ((l1 + l2) * 0.5 - 50) ** 2
    tl = (l2 - l1) / (1 + 0.015 * l_off / np.sqrt(20 + l_off))
    tc = (c2p - c1p) / (1 + 0.045 * c_mean)
    th = 2 * np.sqrt(chroma_product) * np.sin(dh * 0.5) / (1 + 0.015 * c_mean * t)
    return np.sqrt(np.maximum(tl * tl + tc * tc + th * th + r_t * tc * th, 0.0))


def without_glare(linear: NDArray[np.float64], lamp: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
    """Linear sRGB rows with as much of the ``lamp``'s colour (linear RGB; white when not given) removed as each
    holds: glare is the lamp's light mirrored, so a warm lamp's glare moves a red's hue towards orange, not pink."""
    if lamp is None:
        return linear - linear.min(axis=-1, keepdims=True)
    lamp = np.maximum(lamp, 1e-9)  # its scale cancels: the share removed is counted in its own units
    return linear - (linear / lamp).min(axis=-1, keepdims=True) * lamp


def glare_free_hue(linear: NDArray[np.float64], lamp: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
    """CIELAB hue (degrees) of linear sRGB rows with their glare removed (:func:`without_glare`): glare adds the
    lamp's white, which turns hue pink under a neutral one."""
    lab = linear_to_lab(without_glare(linear, lamp))
    return np.degrees(np.arctan2(lab[..., 2], lab[..., 1]))


def encoded_hue(linear: NDArray[np.float64], lamp: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
    """Hue (degrees, HSV's: red 0, yellow 60) of linear sRGB rows with their grey part removed (as
    :func:`glare_free_hue`), then encoded as the camera encodes (gamma): a camera's noise and JPEG rounding are even
    in encoded values, where a saturated orange's green stays large enough to show, while linear light shrinks it
    (sRGB (252, 37, 2) against (251, 0, 1): 7.9 degrees apart here, 1.8 in CIELAB)."""
    r, g, b = np.moveaxis(srgb_encode(without_glare(linear, lamp)), -1, 0)
    return np.degrees(np.arctan2(np.sqrt(3.0) / 2.0 * (g - b), r - (g + b) / 2.0))


def luminance(linear: ArrayLike) -> NDArray[np.float64]:
    """Relative luminance Y (0-1) of linear sRGB ``(..., 3)``."""
    return np.asarray(linear, dtype=np.float64) @ _M_RGB_TO_XYZ[1]


def white_balance(rgb: ArrayLike, white: ArrayLike) -> NDArray[np.float64]:
    """Von Kries white balance in linear sRGB: scale each channel so that ``white`` (sRGB 0-255) becomes neutral.

    The neutral keeps ``white``'s luminance, so a dim white stays dim grey; returns sRGB 0-255, not clipped.
    """
    white_linear = np.maximum(srgb_decode(white), 1e-6)
    gains = np.asarray(luminance(white_linear))[..., None] / white_linear
    return srgb_encode(srgb_decode(rgb) * gains)
