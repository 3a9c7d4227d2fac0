"""The stickers as seen, each named by its nearest colour, for when no real cube fits without forcing many."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from qbr.cube.conventions import FACES, facelet_name
from qbr.cube.validate import validate
from qbr.vision.resolve.measured import unreadable_problem
from qbr.vision.resolve.pieces import CENTRE_SLOTS
from qbr.vision.resolve.result import Doubt, Resolution, resolution
from qbr.vision.tunables import Tunables


def as_seen(
    cost: NDArray[np.float64],
    misfit: NDArray[np.float64],
    measured: NDArray[np.bool_],
    anchors: NDArray[np.float64],
    names: dict[str, str],
    tunables: Tunables,
    turned: dict[str, int],
) -> Resolution:
    """Each sticker named by its nearest colour, for when no real cube fits without forcing stickers far off.

    That happens when a face was scanned from the wrong side or a sticker was misread: the problems then say what
    is impossible about what was seen, and ``uncertain`` lists the stickers that clash most.
    """
    seen = cost.argmin(axis=1)
    seen[CENTRE_SLOTS] = np.arange(6)
    facelets = "".join(FACES[c] if ok else "?" for c, ok in zip(seen, measured, strict=True))
    ordered = np.sort(cost, axis=1)
    confidence = np.where(measured, 1.0 - np.exp(-(ordered[:, 1] - ordered[:, 0]) / tunables.classify_margin_scale), 0)
    clashing = misfit > tunables.resolve_misfit
    confidence[clashing] = 0.0
    confidence[CENTRE_SLOTS] = 1.0
    problems = [unreadable_problem(~measured, facelet_name)] if not measured.all() else validate(facelets, names)
    order = np.lexsort((confidence, -misfit))  # worst clash first, then the least confident
    uncertain = tuple(int(i) for i in order if clashing[i] or confidence[i] < tunables.resolve_uncertain_below)
    uncertain = uncertain[: tunables.resolve_max_uncertain]
    faces = np.bincount(np.flatnonzero(clashing) // 9, minlength=6)
    least = FACES[int(faces.argmax())] if faces.any() else (FACES[uncertain[0] // 9] if uncertain else None)
    doubt = Doubt(uncertain, least) if uncertain else None
    return resolution(facelets, problems, confidence, uncertain, names, least_certain_face=least, doubt=doubt,
                      turned=turned)
