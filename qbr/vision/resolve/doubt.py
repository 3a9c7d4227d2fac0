"""The stickers in doubt (a nearly as cheap real cube shows them otherwise) and the face best shown again."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from qbr.cube.conventions import FACES
from qbr.vision.resolve.pieces import CENTRE_SLOTS
from qbr.vision.resolve.result import Doubt
from qbr.vision.tunables import Tunables


def find_doubt(confidence: NDArray[np.float64], measured: NDArray[np.bool_], tunables: Tunables,
               below: float | None = None) -> Doubt | None:
    """The stickers in doubt (a nearly as cheap real cube shows them otherwise) and the face that has most of them;
    ``below``: the confidence under which a sticker is in doubt (``resolve_doubt_below`` unless given)."""
    doubtful = measured & (confidence < (tunables.resolve_doubt_below if below is None else below))
    doubtful[CENTRE_SLOTS] = False
    if not doubtful.any():
        return None
    stickers = np.flatnonzero(doubtful)
    order = stickers[np.argsort(confidence[stickers], kind="stable")]
    faces = np.bincount(order // 9, minlength=6)
    # Most stickers in doubt; among equals, the face holding the least certain one.
    face = max(range(6), key=lambda f: (faces[f], -int(np.flatnonzero(order // 9 == f)[0]) if faces[f] else -99))
    return Doubt(tuple(int(i) for i in order), FACES[face])
