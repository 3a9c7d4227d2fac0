"""Measurements that are not of one real cube, refused rather than forced: colours alike, centres undecidable,
stickers that fall into no six colours (random values).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

import numpy as np
from numpy.typing import NDArray

from qbr.cube.conventions import CENTRES, FACE_INDEX, FACES
from qbr.cube.validate import Problem, ProblemKind, validate
from qbr.vision.colour import delta_e
from qbr.vision.resolve.pieces import CENTRE_SLOTS
from qbr.vision.tunables import Tunables


def alike_colours(anchors: NDArray[np.float64], spread: NDArray[np.float64], names: Mapping[str, str],
                  tunables: Tunables) -> list[Problem]:
    """Two colours whose stickers overlap (means closer than their stickers' own spread) leave the cube undecidable.

    The spread is each colour's median sticker distance from its mean: a dim or washed-out scan has close colours
    and tight stickers, and is still readable; only colours that truly cannot be told apart are refused.
    """
    problems = []
    distance = delta_e(anchors[:, None, :], anchors[None, :, :])
    for i, j in itertools.combinations(range(6), 2):
        if distance[i, j] < tunables.resolve_alike_spread * max(float(spread[i] + spread[j]) / 2, 1e-9):
            a, b = FACES[i], FACES[j]
            problems.append(
                Problem(
                    ProblemKind.CENTRES,
                    f"the colours of the {a} and {b} centres cannot be told apart: rescan those faces in better light",
                    (CENTRES[i], CENTRES[j]),
                    {"face": b, "shows": a, "shows_colour": names[a], "expected_colour": names[b]},
                )
            )
    return problems


def _rotations() -> tuple[NDArray[np.intp], ...]:
    """The 24 turns of the whole cube as permutations of the faces (URFDLB indices): the colour schemes alike."""
    y = np.array([FACE_INDEX[f] for f in "UFLDBR"])  # about U: R takes F's place, F L's, ...
    x = np.array([FACE_INDEX[f] for f in "BRUFLD"])  # about R
    found = {tuple(range(6))}
    frontier = [np.arange(6)]
    while frontier:
        p = frontier.pop()
        for g in (x, y):
            q = g[p]
            if tuple(q) not in found:
                found.add(tuple(q))
                frontier.append(q)
    return tuple(np.array(p) for p in sorted(found))


_ROTATIONS = _rotations()


def centre_rival(cost: NDArray[np.float64], colours: NDArray[np.intp]) -> float:
    """How much dearer the cheapest real cube is that has the colours renamed by a turn of the whole scheme.

    Such a cube keeps every piece (only the centres then say which colour is whose), so the centres alone pay
    for the difference: six centres measured alike (or all misread) leave nothing to choose by.
    """
    best = math.inf
    centre_cost = cost[CENTRE_SLOTS]
    for sigma in _ROTATIONS:
        if (sigma == np.arange(6)).all():
            continue
        renamed = sigma[colours]
        renamed[CENTRE_SLOTS] = np.arange(6)
        if validate("".join(FACES[c] for c in renamed)):
            continue
        own = np.arange(6)
        best = min(best, float(centre_cost[own, np.argsort(sigma)].sum() - centre_cost[own, own].sum()))
    return best


def misfit_share(cost: NDArray[np.float64], colours: NDArray[np.intp], measured: NDArray[np.bool_]) -> float:
    """Median over stickers of (distance to own colour) / (own + nearest other): ~0.1 on real scans, ~0.4+ on noise."""
    rows = np.setdiff1d(np.flatnonzero(measured), CENTRE_SLOTS)
    if rows.size == 0:
        return 1.0
    own = cost[rows, colours[rows]]
    other = cost[rows].copy()
    other[np.arange(rows.size), colours[rows]] = np.inf
    share = own / np.maximum(own + other.min(axis=1), 1e-9)
    return float(np.median(share))


def not_a_cube_problem(reason: str, message: str) -> Problem:
    return Problem(ProblemKind.COLOURS, message, (), {"reason": reason})
