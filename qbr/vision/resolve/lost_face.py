"""A face not found in its photo: its nine stickers follow from the other five faces' pieces.

Every corner of the lost face shows two stickers on the faces beside it, which name the corner and its twist; every
edge shows one, and the edges left over, with the cube's flip and parity, place the rest, unless two of them show
the same colour (about one face in eight: ``qbr.cube.completions``; those stickers are left in doubt, the face to
show); its centre is the colour the five centres leave. The resolution treats its stickers as unmeasured (they
cost nothing, so they take whatever their pieces need) and only needs a first guess of the lost centre's colour to
start its descents from.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from qbr.vision.colour import delta_e, linear_to_lab
from qbr.vision.palette import DEFAULT_PALETTE
from qbr.vision.resolve.pieces import CENTRE_SLOTS

UNSEEN = -1
"""The stand-in for a lost centre whose colour no measured sticker shows (a solved cube's lost face: every sticker of
its colour is on it): its anchor is left empty, so a sticker takes that colour only where its pieces force it. As
a start biased by no guess it also ends right on more scrambled cubes (physcam hard tuning drops 319 -> 345)."""


def lost_faces(measured: NDArray[np.bool_]) -> list[int]:
    """The faces (indices) with not one sticker measured."""
    return [f for f in range(6) if not measured[9 * f : 9 * f + 9].any()]


def deducible(measured: NDArray[np.bool_]) -> bool:
    """Whether every unmeasured sticker is on one lost face and the other five faces were measured whole."""
    lost = lost_faces(measured)
    return len(lost) == 1 and int(np.count_nonzero(~measured)) == 9


def lost_centre_stand_ins(linear: NDArray[np.float64], measured: NDArray[np.bool_], fitted: NDArray[np.float64]
                          ) -> list[int | None]:
    """Measured stickers to stand in for a lost centre in the descents' starts ([None] without a lost centre): two
    medoids of the colour the five centres leave and the sticker nearest the palette colour they leave (each face's
    light fitted to the palette), and the sticker least like any centre as measured; the judge picks among the
    cubes their descents end in (no one guess is right on more than about 70% of physcam hard tuning cubes); and
    ``UNSEEN``, the lost colour on no other face. ``fitted``: per-sticker gains bringing each face's light to the
    palette's (``light.palette_gains``, which the caller has)."""
    from scipy.optimize import linear_sum_assignment

    known = measured[CENTRE_SLOTS]
    if known.all() or not known.any():
        return [None]
    lab = linear_to_lab(linear * fitted)
    reference = DEFAULT_PALETTE.lab()
    centres = CENTRE_SLOTS[known]
    _, taken = linear_sum_assignment(delta_e(lab[centres][:, None, :], reference[None, :, :]))
    left = [c for c in range(len(reference)) if c not in set(taken.tolist())]
    rows = np.setdiff1d(np.flatnonzero(measured), CENTRE_SLOTS)
    by_palette = rows[int(delta_e(lab[rows][:, None, :], reference[left][None, :, :]).min(axis=1).argmin())]
    # The stickers that, as a sixth centre, leave the stickers nearest their centres (medoids of the lost colour).
    to_centres = delta_e(lab[rows][:, None, :], lab[centres][None, :, :]).min(axis=1)
    between = delta_e(lab[rows][:, None, :], lab[rows][None, :, :])
    by_medoid = rows[np.argsort(np.minimum(between, to_centres[:, None]).sum(axis=0))[:2]]
    raw = linear_to_lab(linear)
    by_distance = rows[int(delta_e(raw[rows][:, None, :], raw[centres][None, :, :]).min(axis=1).argmax())]
    return [*dict.fromkeys([*map(int, by_medoid), int(by_palette), int(by_distance)]), UNSEEN]


def seeded_centres(lab: NDArray[np.float64], measured: NDArray[np.bool_], stand_in: int | None
                   ) -> NDArray[np.float64]:
    """The six centres (Lab) as starting anchors, a lost one's taken from its stand-in sticker (NaN: ``UNSEEN``)."""
    anchors = lab[CENTRE_SLOTS].copy()
    if stand_in is not None:
        anchors[~measured[CENTRE_SLOTS]] = np.nan if stand_in == UNSEEN else lab[stand_in]
    return anchors


def free_colours(colours: NDArray[np.intp], measured: NDArray[np.bool_]) -> int:
    """How many colours some measured sticker shows but no measured centre pins (a lost face's): each such colour's
    mean is fitted freely to its stickers, so a few stickers of another colour fit it perfectly (a solved cube's
    lost face would otherwise come out as two of its neighbours' pieces swapped, split off another colour)."""
    shown = np.bincount(colours[measured], minlength=len(CENTRE_SLOTS)) > 0
    return int(np.count_nonzero(shown & ~measured[CENTRE_SLOTS]))
