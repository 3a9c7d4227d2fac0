"""The colour names of the faces (for messages), guessed from the resolved colours against the palette."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from qbr.cube.conventions import FACES
from qbr.vision.colour import delta_e, linear_to_lab, srgb_decode
from qbr.vision.palette import COLOUR_NAMES, Palette


def name_colours(anchors_rgb: NDArray[np.float64], palette: Palette) -> dict[str, str]:
    """Face letter -> palette colour name, one-to-one, after the white balance that makes the names fit best.

    Each cluster in turn is tried as the white one (its light's cast removed, brought to the palette's white),
    as well as no balance at all; the cheapest one-to-one naming over all tries wins.
    """
    from scipy.optimize import linear_sum_assignment

    reference = palette.lab()
    white = srgb_decode(palette.colours["white"])
    linear = srgb_decode(anchors_rgb)
    seen = np.isfinite(linear).all(axis=1)  # a lost face's colour seen nowhere else has no anchor: it takes the rest
    tries = [np.ones(3)] + [white / np.maximum(linear[j], 1e-6) for j in np.flatnonzero(seen)]
    best: tuple[float, tuple[int, ...]] | None = None
    for gains in tries:
        lab = linear_to_lab(np.where(seen[:, None], linear, 0.0) * gains)
        cost = np.where(seen[:, None], delta_e(lab[:, None, :], reference[None, :, :]), 0.0)
        rows, cols = linear_sum_assignment(cost)
        total = float(cost[rows, cols].sum())
        if best is None or total < best[0]:
            best = (total, tuple(int(c) for c in cols))
    assert best is not None
    return {face: COLOUR_NAMES[best[1][i]] for i, face in enumerate(FACES)}
