"""The slow work of a cube: name its colours and solve it (run off the UI thread by the window loop)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from qbr.cube.errors import InvalidCubeError, QbrError

if TYPE_CHECKING:
    from qbr.solve.solver import Solution
    from qbr.vision.palette import Palette
    from qbr.vision.resolve import Resolution


def resolve_and_solve(
    rgb_by_face: Mapping[str, np.ndarray], palette: Palette | None, budget: float = 0.0
) -> tuple[Resolution, Solution | None, QbrError | None]:
    """Resolve the measured colours into a cube and solve it; an invalid cube is an error value, never raised."""
    from qbr.solve.solver import solve
    from qbr.vision.resolve import resolve_cube

    resolution = resolve_cube({f: np.asarray(v, dtype=float) for f, v in rgb_by_face.items()}, palette=palette)
    if not resolution.valid:
        return resolution, None, InvalidCubeError(resolution.problems)
    try:
        return resolution, solve(resolution.facelets, budget=budget), None
    except QbrError as error:
        return resolution, None, error
