"""How well a colouring fits the measurements, whatever start it came from: its colours and face light refitted."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from qbr.vision.colour import linear_to_lab
from qbr.vision.resolve.costs import sticker_costs, trusted_mean
from qbr.vision.resolve.light import face_light
from qbr.vision.resolve.lost_face import free_colours
from qbr.vision.tunables import Tunables


def judge(linear: NDArray[np.float64], measured: NDArray[np.bool_], colours: NDArray[np.intp], tunables: Tunables,
          trust: NDArray[np.float64] | None = None) -> tuple[float, NDArray[np.float64], NDArray[np.float64]]:
    """How well a colouring fits the measurements, whatever start it came from: colours and face light refitted.

    Stickers far off their colour (glare, a logo) are left out of the fit and count at most ``resolve_misfit``:
    one misread is not evidence worth rearranging the pieces for. Returns the score, the sticker x colour cost
    (each sticker against its own colour's mean without itself, see ``sticker_costs``) and the anchors (Lab).
    """
    gains = np.ones((54, 3))
    trusted = measured.copy()
    rows = np.arange(54)
    strain = 0.0
    for _ in range(tunables.resolve_iterations):
        lab = linear_to_lab(linear * gains)
        anchors = np.array([trusted_mean(lab, trusted & (colours == c), trust) if (trusted & (colours == c)).any()
                            else trusted_mean(lab, measured & (colours == c), trust) for c in range(6)])
        trusted = measured & (sticker_costs(lab, anchors, measured)[rows, colours] <= tunables.resolve_misfit)
        light = face_light(linear, colours, trusted, tunables, trust)
        gains, strain = light.gains, light.strain
    lab = linear_to_lab(linear * gains)
    anchors = np.array([trusted_mean(lab, measured & (colours == c), trust) for c in range(6)])
    capped = np.minimum(sticker_costs(lab, anchors, measured), tunables.resolve_misfit)
    score = _total(capped if trust is None else capped * trust[:, None], colours, measured)
    # A colouring that needs the faces' light to differ much is the less likely: casts count too.
    honest = sticker_costs(lab, anchors, measured, colours, trust)
    score += tunables.resolve_free_colour_cost * free_colours(colours, measured)  # a lost face's colour, fitted freely
    return score + tunables.resolve_cast_cost * strain, honest, anchors


def _total(cost: NDArray[np.float64], colours: NDArray[np.intp], measured: NDArray[np.bool_]) -> float:
    return float(cost[measured, colours[measured]].sum())
