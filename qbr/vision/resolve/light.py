"""Each face's light (exposure and colour cast) fitted jointly with the colours, given which sticker has which colour.

Every face of a scan is photographed under its own auto-exposure and white balance, so a sticker measures
(per linear channel) ``face gain x colour``. Given a colouring this is linear in logs: ``log m = G_face + A_colour``,
one weighted least-squares problem over all six faces and all colours at once. Alone it is degenerate: a colour
seen on one face only (a solved cube, a nearly solved one) can take any cast, and its face any gain to match,
so any colouring fits itself. A prior breaks the tie the way cameras behave: a face's cast (its channels'
gains apart from its exposure) stays near the others' unless its stickers show otherwise; exposure is nearly free.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from qbr.vision.classify import adapt_to_palette
from qbr.vision.palette import DEFAULT_PALETTE
from qbr.vision.resolve.pieces import FACE_OF
from qbr.vision.tunables import Tunables


@dataclass(frozen=True)
class FaceLight:
    """Per-sticker linear gains (faces' light removed) and each colour's linear value under the common light."""

    gains: NDArray[np.float64]  # (stickers, 3)
    colours: NDArray[np.float64]  # (colours, 3)
    casts: NDArray[np.float64]  # (faces, 3): log gain of each channel apart from the face's exposure
    strain: float  # sum over faces of each cast's size, weighted as the prior weighs it (sqrt of its penalty)


def fit_face_light(
    linear: NDArray[np.float64],
    colours: NDArray[np.intp],
    weight: NDArray[np.float64],
    faces: NDArray[np.intp],
    cast_prior: float,
    tint_prior: float,
    exposure_prior: float,
    floor: float,
    brightest: float,
    max_gain: float = np.inf,
) -> FaceLight:
    """Fit face gains and colour values to linear sRGB ``linear`` (stickers x 3) with ``colours`` per sticker.

    ``weight`` per sticker (0: not used, e.g. unmeasured or misfit), ``faces`` per sticker; ``cast_prior`` is how
    many stickers' worth of evidence a face's warm/cool cast must overcome, ``tint_prior`` the same for a green or
    magenta one (lamps and white balance err along the warm/cool axis far more), ``exposure_prior`` for a face
    brighter or darker than the others (auto-exposure varies it freely, so this one is weak); ``floor`` the linear
    level below which a channel is noise (its log is floored there and it counts less); the brightest colour is
    scaled to ``brightest`` (overall exposure is arbitrary, but CIELAB differences shrink in the dark), by at most
    ``max_gain`` (a very dark scan's sensor noise, amplified to a bright one's level, would pass for colour).
    """
    n_faces, n_colours = int(faces.max()) + 1, int(colours.max()) + 1
    size = n_faces + n_colours
    logs = np.log(np.maximum(linear, floor))
    w = weight[:, None] * (linear / (linear + floor))  # a channel near the floor is mostly noise
    g, a = faces, n_faces + colours
    # Normal equations of log m = G_face + A_colour per channel, block-diagonal over the channels ...
    pairs = np.concatenate([g * size + g, a * size + a, g * size + a, a * size + g])
    full = _priors(n_faces, n_colours, cast_prior, tint_prior, exposure_prior).copy()
    rhs = np.zeros(3 * size)
    for ch in range(3):
        block = slice(ch * size, (ch + 1) * size)
        full[block, block] += np.bincount(pairs, np.tile(w[:, ch], 4), size * size).reshape(size, size)
        wl = w[:, ch] * logs[:, ch]
        rhs[block] = np.bincount(g, wl, size) + np.bincount(a, wl, size)
    mean_log = float(logs[weight > 0].mean()) if (weight > 0).any() else 0.0
    rhs = rhs + 1e-6 * np.tile(np.r_[np.zeros(n_faces), np.full(n_colours, mean_log)], 3)  # ... at the mean
    solution = np.linalg.solve(full, rhs).reshape(3, size).T
    face_log, colour_log = solution[:n_faces], solution[n_faces:]
    scale = min(brightest / max(float(np.exp(colour_log).max()), 1e-9), max_gain)
    casts = face_log - face_log.mean(axis=1, keepdims=True)
    projection = _projection(cast_prior, tint_prior, exposure_prior)
    strain = float(np.sqrt(np.maximum(np.einsum("fi,ij,fj->f", face_log, projection, face_log), 0.0)).sum())
    return FaceLight(np.exp(-face_log)[faces] * scale, np.exp(colour_log) * scale, casts, strain)


def _projection(cast_prior: float, tint_prior: float, exposure_prior: float) -> NDArray[np.float64]:
    """The prior's weight on a face's three log gains: warm/cool, green/magenta and exposure, each its own."""
    warm = np.array([1.0, 0.0, -1.0]) / np.sqrt(2.0)
    green = np.array([-1.0, 2.0, -1.0]) / np.sqrt(6.0)
    level = np.ones(3) / np.sqrt(3.0)
    return (cast_prior * np.outer(warm, warm) + tint_prior * np.outer(green, green)
            + exposure_prior * np.outer(level, level))


@functools.lru_cache(maxsize=8)
def _priors(n_faces: int, n_colours: int, cast_prior: float, tint_prior: float, exposure_prior: float
            ) -> NDArray[np.float64]:
    """The part of the normal equations that does not depend on the stickers (priors and gauge), over 3 channels."""
    size = n_faces + n_colours
    full = 1e-6 * np.eye(3 * size)  # a face or colour with nothing measured stays finite (see the rhs)
    projection = _projection(cast_prior, tint_prior, exposure_prior)
    for f in range(n_faces):
        index = np.arange(3) * size + f
        full[np.ix_(index, index)] += projection  # the prior ties a face's channels together
    for ch in range(3):
        gains = ch * size + np.arange(n_faces)
        full[np.ix_(gains, gains)] += 1.0  # the faces' gains average 1: the colours carry the common light
    full.flags.writeable = False
    return full


def face_light(linear: NDArray[np.float64], colours: NDArray[np.intp], weight: NDArray[np.bool_],
               tunables: Tunables, trust: NDArray[np.float64] | None = None) -> FaceLight:
    """Each face's exposure and cast, fitted jointly with the colours for this colouring (each sticker by its
    ``trust``: a spot adds the lamp's light, not the face's)."""
    used = (weight & (colours >= 0)).astype(np.float64)
    return fit_face_light(linear, np.maximum(colours, 0), used if trust is None else used * trust, FACE_OF,
                          tunables.resolve_cast_prior, tunables.resolve_tint_prior, tunables.resolve_exposure_prior,
                          tunables.resolve_noise_floor,
                          tunables.resolve_brightest, tunables.resolve_max_gain)


def fitted_gains(linear: NDArray[np.float64], colours: NDArray[np.intp], weight: NDArray[np.bool_],
                 tunables: Tunables, trust: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
    """Per-sticker gains that remove each face's exposure and cast, fitted jointly for this colouring."""
    return face_light(linear, colours, weight, tunables, trust).gains


def palette_gains(linear: NDArray[np.float64], measured: NDArray[np.bool_], tunables: Tunables) -> NDArray:
    """Per-sticker gains that bring each face's light to the default palette's (a start independent of the centres).

    Either size: the stickers are six faces' worth in facelet order.
    """
    per_face = len(linear) // 6
    gains = np.ones((len(linear), 3))
    for f in range(6):
        face = slice(per_face * f, per_face * (f + 1))
        rows = np.arange(len(linear))[face][measured[face]]
        adapted = adapt_to_palette(linear[rows], DEFAULT_PALETTE, tunables)
        total = linear[rows].sum(axis=0)
        gains[face] = np.where(total > 1e-6, adapted.sum(axis=0) / np.maximum(total, 1e-6), 1.0)
    limit = tunables.resolve_palette_gain_limit
    return np.clip(gains, 1 / limit, limit)
