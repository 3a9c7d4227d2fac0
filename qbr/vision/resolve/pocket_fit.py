"""A 2x2's best colourings: each face's light and the colours' anchors refitted with the search, from four starts."""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import NDArray

from qbr.cube.conventions import FACE_INDEX
from qbr.cube.pocket.conventions import FACELET_COUNT, STICKERS_PER_FACE
from qbr.vision.colour import delta_e, lab_to_srgb, linear_to_lab, srgb_decode
from qbr.vision.palette import DEFAULT_PALETTE
from qbr.vision.resolve.costs import sticker_costs
from qbr.vision.resolve.light import palette_gains
from qbr.vision.resolve.pocket_search import DBL, SLOTS, solve
from qbr.vision.tunables import Tunables

_N = FACELET_COUNT
_PER_FACE = STICKERS_PER_FACE


def _face_gains(
    linear: NDArray[np.float64],
    target: NDArray[np.float64],
    trusted: NDArray[np.bool_],
    limit: float,
    ridge: float,
) -> NDArray[np.float64]:
    """Per face, the channel gains (von Kries, within 1/limit..limit) mapping its stickers onto their targets.

    Four stickers seldom span all three channels (a face of reds and oranges has almost no blue), so each
    channel's gain is drawn towards the face's overall exposure gain, the more the less light it has.
    """
    s = np.where(trusted[:, None], linear, 0.0).reshape(6, _PER_FACE, 3)
    t = np.where(trusted[:, None], target, 0.0).reshape(6, _PER_FACE, 3)
    energy = (s * s).sum(axis=1)
    match = (s * t).sum(axis=1)
    exposure = match.sum(axis=1, keepdims=True) / np.maximum(energy.sum(axis=1, keepdims=True), 1e-6)
    prior = ridge * energy.mean(axis=1, keepdims=True)
    gains = np.where(energy.sum(axis=1, keepdims=True) > 1e-6,
                     (match + prior * exposure) / np.maximum(energy + prior, 1e-6), 1.0)
    return np.repeat(np.clip(gains, 1 / limit, limit), _PER_FACE, axis=0)


def _anchors(lab: NDArray[np.float64], use: NDArray[np.bool_], colours: NDArray[np.intp]) -> NDArray[np.float64]:
    return np.array([lab[use & (colours == c)].mean(axis=0) if (use & (colours == c)).any()
                     else lab[colours == c].mean(axis=0) for c in range(6)])


def _targets(anchors: NDArray[np.float64], colours: NDArray[np.intp]) -> NDArray[np.float64]:
    return srgb_decode(np.clip(lab_to_srgb(anchors), 0.0, 255.0))[colours]


def _balanced_clusters(
    linear: NDArray[np.float64],
    measured: NDArray[np.bool_],
    anchors: NDArray[np.float64],
    gains: NDArray[np.float64],
    tunables: Tunables,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Six colour anchors (Lab) and per-sticker gains from clustering the stickers four to a colour, from ``anchors``.

    Each face's light is fitted to the clusters as they form; a colour the seeds got wrong (a salmon orange, a
    teal green) is pulled to its own four stickers.
    """
    from scipy.optimize import linear_sum_assignment  # heavy: imported only when a cube is resolved

    lab = linear_to_lab(linear * gains)
    rows = np.flatnonzero(measured)
    room = -(-len(rows) // 6)
    member = np.full(_N, -1)
    for _ in range(tunables.resolve_cluster_rounds):
        cost = delta_e(lab[rows, None, :], anchors[None, :, :])
        r, c = linear_sum_assignment(np.repeat(cost, room, axis=1))
        new = np.full(_N, -1)
        new[rows[r]] = c // room
        if np.array_equal(new, member):
            break
        member = new
        anchors = np.array([np.median(lab[member == k], axis=0) if (member == k).any() else anchors[k]
                            for k in range(6)])
        known = measured & (member >= 0)
        gains = _face_gains(linear * gains, _targets(anchors, np.maximum(member, 0)), known,
                            tunables.resolve_face_gain_step,
                            tunables.resolve_pocket_gain_ridge) * gains
        lab = linear_to_lab(linear * gains)
    return anchors, gains


def _descend(
    linear: NDArray[np.float64],
    measured: NDArray[np.bool_],
    anchors: NDArray[np.float64],
    gains: NDArray[np.float64],
    tunables: Tunables,
) -> tuple[NDArray[np.intp], NDArray[np.float64], NDArray[np.float64]]:
    """Alternate the exact search with re-estimating the colours and each face's light, from ``anchors``.

    Returns the colouring it settles on, the cost matrix it was found with, and the light fitted to it.
    """
    lab = linear_to_lab(linear * gains)
    cost = sticker_costs(lab, anchors, measured)
    colours: NDArray[np.intp] | None = None
    for _ in range(tunables.resolve_iterations):
        found = solve(cost)[0]
        if colours is not None and np.array_equal(found, colours):
            break
        colours = found
        anchors = _anchors(lab, measured, colours)
        gains = _face_gains(linear * gains, _targets(anchors, colours), measured,
                            tunables.resolve_face_gain_step,
                            tunables.resolve_pocket_gain_ridge) * gains
        lab = linear_to_lab(linear * gains)
        cost = sticker_costs(lab, anchors, measured)
    assert colours is not None
    return colours, cost, gains


def _score(
    linear: NDArray[np.float64], measured: NDArray[np.bool_], colours: NDArray[np.intp], tunables: Tunables
) -> tuple[float, NDArray[np.float64], NDArray[np.float64]]:
    """How well a colouring fits, whatever start it came from: colours and face light refitted to it alone.

    Stickers far off their colour (glare) are left out of the fit and count at most ``resolve_misfit``. Returns
    the score, and the sticker x colour costs and anchors under the refitted light.
    """
    gains = np.ones((_N, 3))
    trusted = measured.copy()
    rows = np.arange(_N)
    for _ in range(tunables.resolve_iterations):
        lab = linear_to_lab(linear * gains)
        anchors = _anchors(lab, trusted, colours)
        trusted = measured & (sticker_costs(lab, anchors, measured)[rows, colours] <= tunables.resolve_misfit)
        gains = _face_gains(linear * gains, _targets(anchors, colours), trusted,
                            tunables.resolve_face_gain_step,
                            tunables.resolve_pocket_gain_ridge) * gains
        gains /= np.exp(np.log(gains).mean(axis=0))  # overall exposure is free: keep it where it was measured
    lab = linear_to_lab(linear * gains)
    anchors = _anchors(lab, measured, colours)
    cost = sticker_costs(lab, anchors, measured)
    score = float(np.minimum(cost, tunables.resolve_misfit)[measured, colours[measured]].sum())
    return score, cost, anchors


def scheme_of(colours: NDArray[np.intp]) -> NDArray[np.intp]:
    """[face] -> colour of a real 2x2's colouring: D, B, L from the DBL corner, each other face its opposite's.

    The opposite of a colour is the one never on a corner with it.
    """
    together = np.zeros((6, 6), dtype=bool)
    for slots in SLOTS:
        for a, b in itertools.permutations(colours[slots].tolist(), 2):
            together[a, b] = True
    d, b, left = (int(colours[SLOTS[DBL, k]]) for k in range(3))
    scheme = np.zeros(6, dtype=np.intp)
    for face, colour in (("D", d), ("B", b), ("L", left)):
        scheme[FACE_INDEX[face]] = colour
        apart = [c for c in range(6) if c != colour and not together[colour, c]]
        scheme[FACE_INDEX[{"D": "U", "B": "F", "L": "R"}[face]]] = apart[0]
    return scheme


End = tuple[float, NDArray[np.intp], NDArray[np.float64], NDArray[np.float64]]


def fit_pocket(stickers: NDArray[np.float64], measured: NDArray[np.bool_], tunables: Tunables) -> list[End]:
    """The colourings the four descents end in, best first: (score, colours, cost matrix, anchors) each.

    Started from the default palette and from the stickers clustered four to a colour, each as measured and
    after each face's light was fitted to the palette. One start alone gets stuck: a face in very different
    light pulls clustered anchors its way, a cube unlike the palette (salmon orange, teal green) misleads it.
    """
    linear = srgb_decode(np.where(measured[:, None], stickers, 0.0))
    ones = np.ones((_N, 3))
    fitted = palette_gains(linear, measured, tunables)
    seeds = DEFAULT_PALETTE.lab()
    starts = [(seeds, ones), (seeds, fitted)]
    starts += [_balanced_clusters(linear, measured, seeds, gains, tunables) for gains in (ones, fitted)]
    ends: dict[bytes, End] = {}
    for anchors, gains in starts:
        colours = _descend(linear, measured, anchors, gains, tunables)[0]
        # The same colouring relabelled is the same cube: key it by its scheme-free form.
        key = np.argsort(scheme_of(colours))[colours].tobytes()
        if key not in ends:
            score, cost, fitted_anchors = _score(linear, measured, colours, tunables)
            ends[key] = (score, colours, cost, fitted_anchors)
    return sorted(ends.values(), key=lambda end: end[0])
