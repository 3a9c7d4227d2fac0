"""Telling captured cube faces apart by colour: CIEDE2000 between centres or whole faces, and centres to faces.

The live session asks these questions of the faces it has captured (is this the same face shown again, which
face is this centre); the colour science behind the answers lives here, not in the state machine.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from qbr.cube.conventions import FACES
from qbr.vision.colour import delta_e, srgb_to_lab
from qbr.vision.palette import COLOUR_NAMES, Palette


def centre_distances(centre: NDArray[np.float64], others: Sequence[NDArray[np.float64]]) -> NDArray[np.float64]:
    """CIEDE2000 between one sRGB centre sticker (3,) and each of ``others`` (each (3,))."""
    lab = srgb_to_lab(np.array([centre, *others]))
    return delta_e(lab[:1], lab[1:])


def face_distances(face: NDArray[np.float64], others: Sequence[NDArray[np.float64]]) -> NDArray[np.float64]:
    """Per face of ``others``, the largest CIEDE2000 between its stickers and ``face``'s, sticker by sticker."""
    lab = srgb_to_lab(np.array([face, *others]))
    return delta_e(lab[:1], lab[1:]).max(axis=1)


def assign_centres(
    to_colours: Sequence[NDArray[np.float64]],
    names: Sequence[str],
    scheme: Mapping[str, str],
    palette: Palette,
    name_penalty: float,
) -> list[str]:
    """The face of each captured centre: the assignment of distinct faces whose centre colours fit them best.

    ``to_colours``: per centre, its CIEDE2000 to each colour (COLOUR_NAMES order) after its own face's light fit
    (``FaceColours.to_colours[centre]``), so a warm cast on one face does not make its orange nearer red; plus
    ``name_penalty`` where the per-face classification named it (``names``) differently; faces are distinct, so
    a centre that alone would be misnamed (a bluish white read as blue) is still placed right once the real blue
    is in.
    """
    candidates = [f for f in FACES if scheme[f] in palette.colours]
    if not to_colours:
        return []
    if len(to_colours) > len(candidates):
        raise ValueError("more captures than faces")
    columns = [COLOUR_NAMES.index(scheme[f]) for f in candidates]
    # An unmeasured centre (NaN) fits every face alike: only the others and its name place it.
    cost = np.nan_to_num(np.array([np.asarray(d, dtype=np.float64)[columns] for d in to_colours]), nan=0.0)
    cost = cost + name_penalty * np.array([[name != scheme[f] for f in candidates] for name in names])
    best = min(itertools.permutations(range(len(candidates)), len(to_colours)),
               key=lambda perm: sum(cost[i, j] for i, j in enumerate(perm)))
    return [candidates[j] for j in best]
