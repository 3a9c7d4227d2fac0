"""The stickers clustered nine to a colour, each face's light fitted as the clusters form: a start for the descent."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from qbr.vision.colour import delta_e, linear_to_lab
from qbr.vision.resolve import light
from qbr.vision.resolve.lost_face import seeded_centres
from qbr.vision.resolve.pieces import CENTRE_SLOTS
from qbr.vision.tunables import Tunables


def balanced_clusters(
    linear: NDArray[np.float64], measured: NDArray[np.bool_], gains: NDArray[np.float64], tunables: Tunables,
    stand_in: int | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Six colour anchors (Lab, one per face) and per-sticker light gains from clustering all stickers, nine a colour.

    A centre is only a seed: it joins whichever cluster the others leave room for, so one misread centre (a logo,
    glare) is outvoted by the stickers of its colour. Each face's light is fitted to the clusters as they form. A
    face's anchor is the cluster its centre ends up in; if two centres end up in one cluster, faces and clusters
    are paired by distance (the odd centre takes what is left).
    """
    from scipy.optimize import linear_sum_assignment

    lab = linear_to_lab(linear * gains)
    anchors = seeded_centres(lab, measured, stand_in)
    rows = np.flatnonzero(measured)
    room = -(-len(rows) // 6)  # nine of each colour (fewer if some are unmeasured)
    member = np.full(54, -1)
    for _ in range(tunables.resolve_cluster_rounds):
        cost = delta_e(lab[rows, None, :], anchors[None, :, :])
        r, c = linear_sum_assignment(np.repeat(cost, room, axis=1))
        new = np.full(54, -1)
        new[rows[r]] = c // room
        if np.array_equal(new, member):
            break
        member = new
        gains = light.fitted_gains(linear, member, measured, tunables)
        lab = linear_to_lab(linear * gains)
        anchors = np.array([np.median(lab[member == k], axis=0) if (member == k).any() else anchors[k]
                            for k in range(6)])
    centre_cluster = member[CENTRE_SLOTS]
    if sorted(centre_cluster.tolist()) != list(range(6)):
        seeds = seeded_centres(lab, measured, stand_in)
        _, centre_cluster = linear_sum_assignment(delta_e(seeds[:, None, :], anchors[None, :, :]))
    return anchors[centre_cluster], gains
