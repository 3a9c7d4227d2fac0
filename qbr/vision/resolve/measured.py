"""A whole cube's measured sticker colours, read from the per-face mapping every command and the app hand over."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qbr.cube.conventions import FACES
from qbr.cube.validate import Problem, ProblemKind
from qbr.vision.tunables import Tunables


def _faces(values: Any, shape: tuple[int, ...]) -> list[tuple[int, NDArray[np.float64]]]:
    """(face index, its values) of each face of the mapping ``values`` whose entry is a number array of ``shape``."""
    if not isinstance(values, Mapping):
        return []
    found = []
    for i, face in enumerate(FACES):
        try:
            rows = np.asarray(values.get(face), dtype=np.float64)
        except (TypeError, ValueError, OverflowError):
            continue
        if rows.shape == shape:
            found.append((i, rows))
    return found


def read_cube_colours(rgb: Any, per_face: int) -> NDArray[np.float64]:
    """The 6 x ``per_face`` sRGB colours in facelet order, NaN rows where a face or sticker is missing or not finite.

    ``rgb`` maps face letter -> (per_face, 3) sRGB 0-255; anything else (a wrong shape, text, a missing face) only
    leaves its stickers unmeasured, so resolution reports them instead of failing.
    """
    stickers = np.full((len(FACES) * per_face, 3), np.nan)
    for i, values in _faces(rgb, (per_face, 3)):
        stickers[per_face * i : per_face * (i + 1)] = values
    stickers[~np.isfinite(stickers).all(axis=1)] = np.nan
    return np.clip(stickers, 0.0, 255.0)


def read_trust(trust: Any, per_face: int, tunables: Tunables) -> NDArray[np.float64] | None:
    """Per-sticker trust in facelet order (see ``resolve_cube``), None when every sticker is fully trusted.

    Missing faces or values, and anything not finite, count as 1; each is kept at least ``resolve_trust_floor``.
    """
    if not isinstance(trust, Mapping):
        return None
    weights = np.ones(len(FACES) * per_face)
    for i, values in _faces(trust, (per_face,)):
        weights[per_face * i : per_face * (i + 1)] = np.where(np.isfinite(values), values, 1.0)
    weights = np.clip(weights, tunables.resolve_trust_floor, 1.0)
    return None if (weights == 1.0).all() else weights


def unreadable_problem(missing: NDArray[np.bool_], facelet_name: Callable[[int], str]) -> Problem:
    """The stickers with no usable measurement, named by ``facelet_name`` (the 3x3's or the 2x2's)."""
    indices = [int(i) for i in np.flatnonzero(missing)]
    where = [facelet_name(i) for i in indices]
    shown = ", ".join(where[:12]) + (f" and {len(where) - 12} more" if len(where) > 12 else "")
    return Problem(
        ProblemKind.BAD_CHARACTERS,
        f"no usable colour was measured for {len(where)} sticker{'s' if len(where) != 1 else ''}: {shown}",
        tuple(indices),
        {"character": "?", "count": str(len(where)), "positions": ", ".join(str(i + 1) for i in indices)},
    )
