"""Sticker x colour cost: the CIEDE2000 from each sticker to each colour's anchor."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from qbr.vision.colour import delta_e


def sticker_costs(lab: NDArray[np.float64], anchors: NDArray[np.float64], measured: NDArray[np.bool_],
                  colours: NDArray[np.intp] | None = None) -> NDArray[np.float64]:
    """Sticker x colour CIEDE2000; an unmeasured sticker costs nothing, so it takes whatever its pieces need.

    With ``colours`` (the colouring the anchors are the means of), a sticker's cost for its own colour is measured
    against its colour's mean without itself: else every colouring looks surer of itself than the stickers are
    (two stickers that could swap would seem to belong where they were put).
    """
    cost = delta_e(lab[:, None, :], anchors[None, :, :])
    if colours is not None:
        own = measured & (colours >= 0)
        count = np.bincount(colours[own], minlength=6)[colours[own]]
        alone = (count[:, None] * anchors[colours[own]] - lab[own]) / np.maximum(count - 1, 1)[:, None]
        cost[np.flatnonzero(own), colours[own]] = np.where(count > 1, delta_e(lab[own], alone),
                                                            cost[np.flatnonzero(own), colours[own]])
    cost[~measured] = 0.0
    return cost
