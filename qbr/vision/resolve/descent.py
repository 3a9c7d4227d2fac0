"""The descent to the best colouring: the piece search alternated with refitting the colours and each face's light,
from four starts (the centres and the clusters, each as measured and with each face's light fitted to the palette).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from qbr.vision.colour import linear_to_lab, srgb_decode
from qbr.vision.resolve import clusters, light  # called through their modules: bench/ablate switches each off
from qbr.vision.resolve.costs import sticker_costs, trusted_mean
from qbr.vision.resolve.judge import judge
from qbr.vision.resolve.lost_face import UNSEEN, lost_centre_stand_ins, seeded_centres
from qbr.vision.resolve.search import Kind, solve
from qbr.vision.tunables import Tunables


@dataclass(frozen=True)
class Fit:
    """The cheapest real cube found (see ``solve``; None if none), with what it was judged by."""

    solution: tuple[NDArray[np.intp], int, tuple[Kind, Kind]] | None
    cost: NDArray[np.float64]  # sticker x colour, against the anchors and face light the solution was found with
    anchors: NDArray[np.float64]  # the six colours (Lab)
    rivals: list[tuple[float, NDArray[np.intp]]]  # other colourings other starts ended in: how much dearer
    score: float  # see judge; inf without a solution


def fit_cube(stickers: NDArray[np.float64], measured: NDArray[np.bool_], tunables: Tunables,
             trust: NDArray[np.float64] | None = None) -> Fit:
    """The best of four descents: started from the centres as measured and from all the stickers clustered nine to
    a colour, each as measured and after each face's light was fitted to the default palette.

    Returns the winning solution (see ``solve``; None if none), its cost matrix (sticker x colour) and the six
    colours' anchors (Lab), and the rival colourings the other descents ended in with how much worse they score.
    One start alone gets stuck: a misread centre (a logo) seeds a self-consistent swap of two colours, and a face
    in very different light pulls the anchors its way. Descents are compared by :func:`judge`, which depends on
    the colouring only, not on the path the descent took.
    """
    linear = srgb_decode(np.where(measured[:, None], stickers, 0.0))
    ones = np.ones((54, 3))
    fitted = light.palette_gains(linear, measured, tunables)
    starts = []
    for stand_in in lost_centre_stand_ins(linear, measured, fitted):
        for gains in (ones, fitted):
            starts.append((seeded_centres(linear_to_lab(linear * gains), measured, stand_in), gains))
            if stand_in != UNSEEN:  # clusters of nine (or so) each would give the lost colour stickers anyway
                starts.append(clusters.balanced_clusters(linear, measured, gains, tunables, stand_in))
    ends = []
    scores: dict[bytes, float] = {}  # starts often end in the same colouring: score each once
    for anchors, gains in starts:
        found = _descend(linear, measured, anchors, gains, tunables, frozenset(scores), trust)
        if found[0] is None:
            ends.append((math.inf, found))
            continue
        key = found[0][0].tobytes()
        if key not in scores:
            scores[key] = judge(linear, measured, found[0][0], tunables, trust)[0]
        ends.append((scores[key], found))
    total, best = min(ends, key=lambda end: end[0])
    # Other real cubes the other starts ended in: how much dearer each is, and its colours.
    rivals = [(other - total, found[0][0]) for other, found in ends if math.isfinite(other) and found[0] is not None]
    return Fit(*best, rivals, total)


def _descend(
    linear: NDArray[np.float64],
    measured: NDArray[np.bool_],
    anchors: NDArray[np.float64],
    gains: NDArray[np.float64],
    tunables: Tunables,
    reached: frozenset[bytes] = frozenset(),
    trust: NDArray[np.float64] | None = None,
) -> tuple[tuple[NDArray[np.intp], int, tuple[Kind, Kind]] | None, NDArray[np.float64], NDArray[np.float64]]:
    """Alternate the piece assignment with re-estimating the colours and each face's light, from ``anchors``.

    Returns the last solution (None if none), a cost matrix and its anchors: once the solution settles, those
    with the colours and face light fitted to the solution itself, else those it was found with. A descent that
    comes upon a colouring in ``reached`` (where an earlier descent ended) stops there: it would end the same.
    """
    lab = linear_to_lab(linear * gains)
    cost = sticker_costs(lab, anchors, measured, trust=trust)
    solution, solution_cost, solution_anchors = None, cost, anchors
    for step in range(tunables.resolve_iterations):
        found = solve(cost, tunables.resolve_max_nodes)
        if found is None:
            break
        if found[0].tobytes() in reached:
            return found, cost, anchors
        if solution is not None and np.array_equal(found[0], solution[0]):
            # Settled. The search results (hence confidences) stay those found before the light was fitted to
            # this very solution, which would make it look surer than the measurements are; the misfits are
            # judged against the colours and light fitted to it.
            solution_cost, solution_anchors = cost, anchors
            break
        solution, solution_cost, solution_anchors = found, cost, anchors
        if step == tunables.resolve_iterations - 1:
            break
        colours = solution[0]
        gains, lab, anchors = _fitted_to(linear, measured, colours, tunables, trust)
        cost = sticker_costs(lab, anchors, measured, trust=trust)
    return solution, solution_cost, solution_anchors


def descend_from(linear: NDArray[np.float64], measured: NDArray[np.bool_], colours: NDArray[np.intp],
                 tunables: Tunables, trust: NDArray[np.float64] | None = None) -> NDArray[np.intp] | None:
    """Where the descent ends when started from ``colours`` (its light and colours fitted to it): None if nowhere."""
    gains, _, anchors = _fitted_to(linear, measured, colours, tunables, trust)
    found = _descend(linear, measured, anchors, gains, tunables, frozenset(), trust)[0]
    return None if found is None else found[0]


def _fitted_to(linear: NDArray[np.float64], measured: NDArray[np.bool_], colours: NDArray[np.intp],
               tunables: Tunables, trust: NDArray[np.float64] | None
               ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """(gains, Lab, the six colours' means) with each face's light fitted, jointly with the colours, to ``colours``
    (each face was seen in its own light)."""
    gains = light.fitted_gains(linear, colours, measured, tunables, trust)
    lab = linear_to_lab(linear * gains)
    return gains, lab, np.array([trusted_mean(lab, measured & (colours == c), trust) for c in range(6)])
