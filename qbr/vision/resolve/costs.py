"""Sticker x colour cost: the CIEDE2000 from each sticker to each colour's anchor."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from qbr.vision.colour import delta_e


def sticker_costs(lab: NDArray[np.float64], anchors: NDArray[np.float64], measured: NDArray[np.bool_],
                  colours: NDArray[np.intp] | None = None, trust: NDArray[np.float64] | None = None
                  ) -> NDArray[np.float64]:
    """Sticker x colour CIEDE2000; an unmeasured sticker costs nothing, so it takes whatever its pieces need.

    With ``colours`` (the colouring the anchors are the means of), a sticker's cost for its own colour is measured
    against its colour's mean without itself: else every colouring looks surer of itself than the stickers are
    (two stickers that could swap would seem to belong where they were put). ``trust`` (per sticker, 0..1) scales
    each sticker's costs: a sticker mostly lit by a glare spot says less about its colour, so its pieces decide more.
    """
    cost = delta_e(lab[:, None, :], anchors[None, :, :])
    unseen = ~np.isfinite(anchors).all(axis=1)
    if unseen.any() and not unseen.all():
        # A colour no measured sticker has (a lost face's, all of it on that face) is unlike any sticker seen.
        cost[:, unseen] = cost[:, ~unseen].max(axis=1, keepdims=True)
    if colours is not None:
        own = measured & (colours >= 0)
        count = np.bincount(colours[own], minlength=6)[colours[own]]
        alone = (count[:, None] * anchors[colours[own]] - lab[own]) / np.maximum(count - 1, 1)[:, None]
        cost[np.flatnonzero(own), colours[own]] = np.where(count > 1, delta_e(lab[own], alone),
                                                            cost[np.flatnonzero(own), colours[own]])
    if trust is not None:
        cost = cost * trust[:, None]
    cost[~measured] = 0.0
    return cost


def trusted_mean(lab: NDArray[np.float64], members: NDArray[np.bool_], trust: NDArray[np.float64] | None
                 ) -> NDArray[np.float64]:
    """The mean colour of ``members``, each weighted by its trust (a sticker a spot lit pulls its colour less); NaN
    without members."""
    if not members.any():
        return np.full(lab.shape[1], np.nan)  # no sticker has this colour: no anchor (see ``sticker_costs``)
    if trust is None:
        return lab[members].mean(axis=0)
    weights = trust[members]
    return np.average(lab[members], axis=0, weights=weights) if weights.sum() > 1e-9 else lab[members].mean(axis=0)
