"""Whole-cube colour resolution: 54 measured sticker colours -> the facelet string, using what a cube is.

The old app named each sticker alone by its nearest palette colour, so under real light orange read as red and
a dim white as blue. Here the six centres anchor the colours (they never move and are measured in the same light
as the rest), and the stickers are assigned as *pieces*: each corner position takes one of the 8 corners in one
of 3 twists, each edge position one of the 12 edges in one of 2 flips, every piece exactly once, total twist,
flip and permutation parity those of a real cube. The cheapest such cube (costs are CIEDE2000 distances from
stickers to their colour's anchor) is found exactly with a ranked assignment search; the anchors are then
re-estimated from the nine stickers of each colour and each face's colour cast removed, and the search repeated.
A centre's *measurement* is not trusted blindly (a logo on the white centre, glare): the descent above is also
started from the stickers clustered nine to a colour, where a misread centre is outvoted by its colour's eight
other stickers, and both again after each face's light was fitted to the default palette; the colouring that fits
best wins.

A facelet's confidence comes from how much dearer the best real cube is that shows it in another colour. If no
real cube fits without forcing several stickers far from their measured colour (a face scanned turned, say),
the result is the stickers as seen, with what is impossible about them, rather than a made-up cube.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qbr.cube.conventions import (
    CENTRES,
    CORNER_FACELETS,
    CORNER_NAMES,
    EDGE_FACELETS,
    EDGE_NAMES,
    FACE_INDEX,
    FACES,
    facelet_name,
)
from qbr.cube.cubie import permutation_parity
from qbr.cube.validate import Problem, ProblemKind, validate
from qbr.vision.classify import adapt_to_palette
from qbr.vision.colour import delta_e, lab_to_srgb, linear_to_lab, srgb_decode
from qbr.vision.cube_colours import read_cube_colours
from qbr.vision.cube_light import FaceLight, fit_face_light
from qbr.vision.palette import COLOUR_NAMES, DEFAULT_PALETTE, Palette
from qbr.vision.tunables import Tunables


@dataclass(frozen=True)
class Resolution:
    """The resolved cube: facelets (``?`` where nothing usable was measured), whether it is a real cube, and doubt.

    ``confidence`` is per facelet in [0, 1]; ``uncertain`` lists the least certain facelets first;
    ``colour_names`` maps face letter -> colour name as guessed from the centres (for messages); ``doubt`` the
    stickers a nearly as likely real cube shows otherwise and the face to show again; ``turned`` the faces whose
    photos were turned (face letter -> quarter turns clockwise), read turned back in ``facelets``.
    """

    facelets: str
    valid: bool
    problems: list[Problem]
    confidence: NDArray[np.float64]
    uncertain: tuple[int, ...] = ()
    colour_names: dict[str, str] = field(default_factory=dict)
    least_certain_face: str | None = None
    doubt: Doubt | None = None
    turned: dict[str, int] = field(default_factory=dict)


# --- the pieces as index tables -------------------------------------------------------------------------------


def _option_colours(names: tuple[str, ...], size: int) -> NDArray[np.intp]:
    # [piece, orientation, slot] -> colour (face index) shown at that slot of the position; a piece's colour j
    # sits at slot (j + orientation) % size, the convention of qbr.cube.cubie.
    return np.array(
        [[[FACE_INDEX[name[(k - o) % size]] for k in range(size)] for o in range(size)] for name in names],
        dtype=np.intp,
    )


_CORNER_SLOTS = np.array(CORNER_FACELETS, dtype=np.intp)
_EDGE_SLOTS = np.array(EDGE_FACELETS, dtype=np.intp)
_CORNER_COLOURS = _option_colours(CORNER_NAMES, 3)
_EDGE_COLOURS = _option_colours(EDGE_NAMES, 2)
_CENTRES = np.array(CENTRES, dtype=np.intp)
_FACE_OF = np.repeat(np.arange(6), 9)
_PIECE_FACELETS = np.setdiff1d(np.arange(54), _CENTRES)


def _option_costs(cost: NDArray[np.float64], slots: NDArray[np.intp], colours: NDArray[np.intp]) -> NDArray:
    """[position, piece, orientation] -> summed cost of the stickers the position would show."""
    return cost[slots[:, None, None, :], colours[None, :, :, :]].sum(axis=-1)


# --- exact constrained assignment -------------------------------------------------------------------------------


def _orient(costs: NDArray[np.float64], modulus: int) -> tuple[float, tuple[int, ...]]:
    """Cheapest orientations (one row of ``costs`` per position) whose sum is 0 modulo ``modulus`` (a small DP)."""
    best = [0.0] + [math.inf] * (modulus - 1)
    choice: list[list[int]] = []
    for row in costs.tolist():  # plain floats: this runs thousands of times per cube
        new = [math.inf] * modulus
        pick = [0] * modulus
        for r in range(modulus):
            for o in range(modulus):
                value = best[(r - o) % modulus] + row[o]
                if value < new[r]:
                    new[r], pick[r] = value, o
        best = new
        choice.append(pick)
    orientation = []
    r = 0
    for pick in reversed(choice):
        o = pick[r]
        orientation.append(o)
        r = (r - o) % modulus
    return best[0], tuple(reversed(orientation))


def _assign(weights: NDArray[np.float64], lsa: Callable) -> tuple[float, tuple[int, ...]] | None:
    try:
        rows, cols = lsa(weights)
    except ValueError:  # every assignment uses a forbidden (infinite) entry
        return None
    total = float(weights[rows, cols].sum())
    return (total, tuple(cols.tolist())) if math.isfinite(total) else None


Best = dict[int, tuple[float, tuple[int, ...], tuple[int, ...]]]


def _best_by_parity(costs: NDArray[np.float64], modulus: int, max_nodes: int, limit: float = math.inf) -> Best:
    """For each permutation parity, the cheapest (cost, permutation, orientations) with orientation sum 0.

    Murty's ranked assignment: permutations come out in order of their cost with free orientations, a lower
    bound of their cost with constrained orientations, so the search stops once the bound passes both best costs
    (or ``limit``: nothing dearer is wanted).
    """
    from scipy.optimize import linear_sum_assignment  # heavy: imported only when a cube is resolved

    n = costs.shape[0]
    weights = costs.min(axis=2)
    best: Best = {}
    first = _assign(weights, linear_sum_assignment)
    if first is None or first[0] >= limit:
        return best
    counter = itertools.count()
    heap: list[Any] = [(first[0], next(counter), first[1], (), ())]
    for _ in range(max_nodes):
        if not heap:
            break
        bound, _, perm, forced, forbidden = heapq.heappop(heap)
        if bound >= limit or (len(best) == 2 and bound >= max(b[0] for b in best.values())):
            break
        parity = permutation_parity(perm)
        total, orientation = _orient(costs[np.arange(n), perm], modulus)
        if total < limit and (parity not in best or total < best[parity][0]):
            best[parity] = (total, perm, orientation)
        # Partition the rest of the space: child i keeps this solution's first i free choices and forbids the next.
        w = weights.copy()
        for r, c in forbidden:
            w[r, c] = np.inf
        for r, c in forced:
            _fix(w, r, c)
        fixed = list(forced)
        forced_rows = {r for r, _ in forced}
        free = [r for r in range(n) if r not in forced_rows]
        for r in free[:-1]:
            child = w.copy()
            child[r, perm[r]] = np.inf
            solved = _assign(child, linear_sum_assignment)
            if solved is not None and solved[0] < limit:
                heapq.heappush(
                    heap, (solved[0], next(counter), solved[1], tuple(fixed), (*forbidden, (r, perm[r])))
                )
            fixed.append((r, perm[r]))
            _fix(w, r, perm[r])
    return best


def _fix(w: NDArray[np.float64], r: int, c: int) -> None:
    """Force row ``r`` onto column ``c`` in place (all else in that row and column forbidden)."""
    keep = w[r, c]
    w[r, :] = np.inf
    w[:, c] = np.inf
    w[r, c] = keep


@dataclass(frozen=True)
class _Kind:
    """One kind of piece (corners or edges) in a solution: option costs, best per parity, and the chosen one."""

    slots: NDArray[np.intp]
    table: NDArray[np.intp]
    costs: NDArray[np.float64]
    best: Best


def _solve(cost: NDArray[np.float64], max_nodes: int) -> tuple[NDArray[np.intp], int, tuple[_Kind, _Kind]] | None:
    """The cheapest real cube: colour (face index) of each facelet, its parity and the per-kind search results."""
    kinds = tuple(
        _Kind(slots, table, costs, _best_by_parity(costs, modulus, max_nodes))
        for slots, table, modulus in ((_CORNER_SLOTS, _CORNER_COLOURS, 3), (_EDGE_SLOTS, _EDGE_COLOURS, 2))
        for costs in (_option_costs(cost, slots, table),)
    )
    corners, edges = kinds
    parities = [p for p in (0, 1) if p in corners.best and p in edges.best]
    if not parities:
        return None
    parity = min(parities, key=lambda p: corners.best[p][0] + edges.best[p][0])
    colours = np.zeros(54, dtype=np.intp)
    colours[_CENTRES] = np.arange(6)
    for kind in kinds:
        _, perm, orientation = kind.best[parity]
        colours[kind.slots] = kind.table[list(perm), list(orientation)]
    return colours, parity, (corners, edges)


Alternative = tuple[float, NDArray[np.intp]]  # how much dearer than the best, colour (face index) of each facelet


def _colouring(kinds: tuple[_Kind, _Kind], picks: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
               ) -> NDArray[np.intp]:
    """The colour of every facelet when each kind of piece is placed as (permutation, orientations) in ``picks``."""
    colours = np.zeros(54, dtype=np.intp)
    colours[_CENTRES] = np.arange(6)
    for kind, (perm, orientation) in zip(kinds, picks, strict=True):
        colours[kind.slots] = kind.table[list(perm), list(orientation)]
    return colours


def _alternatives(parity: int, kinds: tuple[_Kind, _Kind], max_nodes: int, cap: float) -> list[Alternative]:
    """Real cubes close to the best that show some position otherwise (each within ``cap`` of the best).

    Two alternatives are tried per position, each completed to a real cube: the same piece turned another way
    (orientations elsewhere re-fitted), and for each parity the best assignment that puts another piece there
    (the other kind of piece re-fitted to that parity).
    """
    found: list[Alternative] = []
    for index, (kind, other) in enumerate(((kinds[0], kinds[1]), (kinds[1], kinds[0]))):
        n, modulus = kind.costs.shape[0], kind.costs.shape[2]
        total, perm, orientation = kind.best[parity]
        best_total = total + other.best[parity][0]
        # Alternatives dearer than this for this kind alone cannot come within ``cap`` of the best cube.
        limit = best_total + cap - min(b[0] for b in other.best.values())
        rows = np.arange(n)

        def add(extra: float, pick: tuple, other_pick: tuple, first: bool = index == 0) -> None:
            if extra < cap:
                found.append((max(extra, 0.0), _colouring(kinds, (pick, other_pick) if first else (other_pick, pick))))

        for r in range(n):
            turned = kind.costs[rows, perm].copy()
            turned[r, orientation[r]] = np.inf
            cost, new_orientation = _orient(turned, modulus)
            add(cost + other.best[parity][0] - best_total, (perm, new_orientation), other.best[parity][1:])
            elsewhere = kind.costs.copy()
            elsewhere[r, perm[r], :] = np.inf
            for new_parity, (cost, new_perm, new_orientation) in _best_by_parity(
                elsewhere, modulus, max_nodes, limit
            ).items():
                if new_parity in other.best:
                    add(cost + other.best[new_parity][0] - best_total, (new_perm, new_orientation),
                        other.best[new_parity][1:])
    return found


def _margins(best: NDArray[np.intp], alternatives: list[Alternative], cap: float) -> NDArray[np.float64]:
    """Per facelet: the least evidence per sticker against an alternative that shows it in another colour.

    An alternative's extra cost is shared among the stickers it shows otherwise: four stickers each a little
    closer to one colour than another are each in doubt, however large their sum.
    """
    margin = np.full(54, cap)
    for extra, colours in alternatives:
        differs = colours != best
        if differs.any():
            margin[differs] = np.minimum(margin[differs], extra / np.count_nonzero(differs))
    return margin


def _face_light(linear: NDArray[np.float64], colours: NDArray[np.intp], weight: NDArray[np.bool_],
                tunables: Tunables) -> FaceLight:
    """Each face's exposure and cast, fitted jointly with the colours for this colouring."""
    return fit_face_light(linear, np.maximum(colours, 0), (weight & (colours >= 0)).astype(np.float64), _FACE_OF,
                          tunables.resolve_cast_prior, tunables.resolve_tint_prior, tunables.resolve_exposure_prior,
                          tunables.resolve_noise_floor,
                          tunables.resolve_brightest)


def _light(linear: NDArray[np.float64], colours: NDArray[np.intp], weight: NDArray[np.bool_], tunables: Tunables
           ) -> NDArray[np.float64]:
    """Per-sticker gains that remove each face's exposure and cast, fitted jointly for this colouring."""
    return _face_light(linear, colours, weight, tunables).gains


def _balanced_clusters(
    linear: NDArray[np.float64], measured: NDArray[np.bool_], gains: NDArray[np.float64], tunables: Tunables
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Six colour anchors (Lab, one per face) and per-sticker light gains from clustering all stickers, nine a colour.

    A centre is only a seed: it joins whichever cluster the others leave room for, so one misread centre (a logo,
    glare) is outvoted by the stickers of its colour. Each face's light is fitted to the clusters as they form. A
    face's anchor is the cluster its centre ends up in; if two centres end up in one cluster, faces and clusters
    are paired by distance (the odd centre takes what is left).
    """
    from scipy.optimize import linear_sum_assignment

    lab = linear_to_lab(linear * gains)
    anchors = lab[_CENTRES].copy()
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
        gains = _light(linear, member, measured, tunables)
        lab = linear_to_lab(linear * gains)
        anchors = np.array([np.median(lab[member == k], axis=0) if (member == k).any() else anchors[k]
                            for k in range(6)])
    centre_cluster = member[_CENTRES]
    if sorted(centre_cluster.tolist()) != list(range(6)):
        _, centre_cluster = linear_sum_assignment(delta_e(lab[_CENTRES][:, None, :], anchors[None, :, :]))
    return anchors[centre_cluster], gains


@dataclass(frozen=True)
class _Fit:
    """The cheapest real cube found (see ``_solve``; None if none), with what it was judged by."""

    solution: tuple[NDArray[np.intp], int, tuple[_Kind, _Kind]] | None
    cost: NDArray[np.float64]  # sticker x colour, against the anchors and face light the solution was found with
    anchors: NDArray[np.float64]  # the six colours (Lab)
    rivals: list[tuple[float, NDArray[np.intp]]]  # other colourings other starts ended in: how much dearer
    score: float  # see _judge; inf without a solution


def _fit(stickers: NDArray[np.float64], measured: NDArray[np.bool_], tunables: Tunables) -> _Fit:
    """The best of four descents: started from the centres as measured and from all the stickers clustered nine to
    a colour, each as measured and after each face's light was fitted to the default palette.

    Returns the winning solution (see ``_solve``; None if none), its cost matrix (sticker x colour) and the six
    colours' anchors (Lab), and the rival colourings the other descents ended in with how much worse they score.
    One start alone gets stuck: a misread centre (a logo) seeds a self-consistent swap of two colours, and a face
    in very different light pulls the anchors its way. Descents are compared by :func:`_judge`, which depends on
    the colouring only, not on the path the descent took.
    """
    linear = srgb_decode(np.where(measured[:, None], stickers, 0.0))
    lab = linear_to_lab(linear)
    ones = np.ones((54, 3))
    starts = [(lab[_CENTRES], ones), _balanced_clusters(linear, measured, ones, tunables)]
    fitted = _palette_gains(linear, measured, tunables)
    starts.append((linear_to_lab(linear * fitted)[_CENTRES], fitted))
    starts.append(_balanced_clusters(linear, measured, fitted, tunables))
    ends = []
    scores: dict[bytes, float] = {}  # starts often end in the same colouring: score each once
    for anchors, gains in starts:
        found = _descend(linear, measured, anchors, gains, tunables, frozenset(scores))
        if found[0] is None:
            ends.append((math.inf, found))
            continue
        key = found[0][0].tobytes()
        if key not in scores:
            scores[key] = _judge(linear, measured, found[0][0], tunables)[0]
        ends.append((scores[key], found))
    total, best = min(ends, key=lambda end: end[0])
    # Other real cubes the other starts ended in: how much dearer each is, and its colours.
    rivals = [(other - total, found[0][0]) for other, found in ends if math.isfinite(other) and found[0] is not None]
    return _Fit(*best, rivals, total)


def _palette_gains(linear: NDArray[np.float64], measured: NDArray[np.bool_], tunables: Tunables) -> NDArray:
    """Per-sticker gains that bring each face's light to the default palette's (a start independent of the centres)."""
    gains = np.ones((54, 3))
    for f in range(6):
        rows = np.arange(9 * f, 9 * f + 9)[measured[9 * f : 9 * f + 9]]
        adapted = adapt_to_palette(linear[rows], DEFAULT_PALETTE, tunables)
        total = linear[rows].sum(axis=0)
        gains[9 * f : 9 * f + 9] = np.where(total > 1e-6, adapted.sum(axis=0) / np.maximum(total, 1e-6), 1.0)
    return np.clip(gains, 0.05, 20.0)  # a black or empty face keeps its light as measured


def _judge(linear: NDArray[np.float64], measured: NDArray[np.bool_], colours: NDArray[np.intp], tunables: Tunables
           ) -> tuple[float, NDArray[np.float64], NDArray[np.float64]]:
    """How well a colouring fits the measurements, whatever start it came from: colours and face light refitted.

    Stickers far off their colour (glare, a logo) are left out of the fit and count at most ``resolve_misfit``:
    one misread is not evidence worth rearranging the pieces for. Returns the score, the sticker x colour cost
    (each sticker against its own colour's mean without itself, see ``_cost``) and the anchors (Lab).
    """
    gains = np.ones((54, 3))
    trusted = measured.copy()
    rows = np.arange(54)
    strain = 0.0
    for _ in range(tunables.resolve_iterations):
        lab = linear_to_lab(linear * gains)
        anchors = np.array([lab[trusted & (colours == c)].mean(axis=0) if (trusted & (colours == c)).any()
                            else lab[measured & (colours == c)].mean(axis=0) for c in range(6)])
        trusted = measured & (_cost(lab, anchors, measured)[rows, colours] <= tunables.resolve_misfit)
        light = _face_light(linear, colours, trusted, tunables)
        gains, strain = light.gains, light.strain
    lab = linear_to_lab(linear * gains)
    anchors = np.array([lab[measured & (colours == c)].mean(axis=0) for c in range(6)])
    score = _total(np.minimum(_cost(lab, anchors, measured), tunables.resolve_misfit), colours, measured)
    # A colouring that needs the faces' light to differ much is the less likely: casts count too.
    return score + tunables.resolve_cast_cost * strain, _cost(lab, anchors, measured, colours), anchors


def _total(cost: NDArray[np.float64], colours: NDArray[np.intp], measured: NDArray[np.bool_]) -> float:
    return float(cost[measured, colours[measured]].sum())


def _descend(
    linear: NDArray[np.float64],
    measured: NDArray[np.bool_],
    anchors: NDArray[np.float64],
    gains: NDArray[np.float64],
    tunables: Tunables,
    reached: frozenset[bytes] = frozenset(),
) -> tuple[tuple[NDArray[np.intp], int, tuple[_Kind, _Kind]] | None, NDArray[np.float64], NDArray[np.float64]]:
    """Alternate the piece assignment with re-estimating the colours and each face's light, from ``anchors``.

    Returns the last solution (None if none), a cost matrix and its anchors: once the solution settles, those
    with the colours and face light fitted to the solution itself, else those it was found with. A descent that
    comes upon a colouring in ``reached`` (where an earlier descent ended) stops there: it would end the same.
    """
    lab = linear_to_lab(linear * gains)
    cost = _cost(lab, anchors, measured)
    solution, solution_cost, solution_anchors = None, cost, anchors
    for step in range(tunables.resolve_iterations):
        found = _solve(cost, tunables.resolve_max_nodes)
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
        # Each face was seen in its own light: fit it, jointly with the colours, to this colouring.
        gains = _light(linear, colours, measured, tunables)
        lab = linear_to_lab(linear * gains)
        anchors = np.array([lab[measured & (colours == c)].mean(axis=0) for c in range(6)])
        cost = _cost(lab, anchors, measured)
    return solution, solution_cost, solution_anchors


def _cost(lab: NDArray[np.float64], anchors: NDArray[np.float64], measured: NDArray[np.bool_],
          colours: NDArray[np.intp] | None = None) -> NDArray[np.float64]:
    """Sticker x colour CIEDE2000; an unmeasured sticker costs nothing, so it takes whatever its pieces need.

    With ``colours`` (the colouring the anchors are the means of), a sticker's cost for its own colour is measured
    against its colour's mean without itself: else every colouring looks surer of itself than the stickers are
    (two stickers that could swap would seem to belong where they were put).
    """
    cost = delta_e(lab[:, None, :], anchors[None, :, :])
    if colours is not None:
        own = measured & (colours >= 0)
        count = np.bincount(colours[own], minlength=6)[colours[own]]
        alone = (count[:, None] * anchors[colours[own]] - lab[own]) / np.maximum(count - 1, 1)[:, None]
        cost[np.flatnonzero(own), colours[own]] = np.where(count > 1, delta_e(lab[own], alone),
                                                            cost[np.flatnonzero(own), colours[own]])
    cost[~measured] = 0.0
    return cost


def _alike_colours(anchors: NDArray[np.float64], spread: NDArray[np.float64], names: Mapping[str, str],
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


def _name_colours(anchors_rgb: NDArray[np.float64], palette: Palette) -> dict[str, str]:
    """Face letter -> palette colour name, one-to-one, after the white balance that makes the names fit best.

    Each cluster in turn is tried as the white one (its light's cast removed, brought to the palette's white),
    as well as no balance at all; the cheapest one-to-one naming over all tries wins.
    """
    from scipy.optimize import linear_sum_assignment

    reference = palette.lab()
    white = srgb_decode(palette.colours["white"])
    linear = srgb_decode(anchors_rgb)
    tries = [np.ones(3)] + [white / np.maximum(linear[j], 1e-6) for j in range(6)]
    best: tuple[float, tuple[int, ...]] | None = None
    for gains in tries:
        lab = linear_to_lab(linear * gains)
        cost = delta_e(lab[:, None, :], reference[None, :, :])
        rows, cols = linear_sum_assignment(cost)
        total = float(cost[rows, cols].sum())
        if best is None or total < best[0]:
            best = (total, tuple(int(c) for c in cols))
    assert best is not None
    return {face: COLOUR_NAMES[best[1][i]] for i, face in enumerate(FACES)}


def _unreadable_problem(missing: NDArray[np.bool_]) -> Problem:
    where = [facelet_name(int(i)) for i in np.flatnonzero(missing)]
    shown = ", ".join(where[:12]) + (f" and {len(where) - 12} more" if len(where) > 12 else "")
    return Problem(
        ProblemKind.BAD_CHARACTERS,
        f"no usable colour was measured for {len(where)} sticker{'s' if len(where) != 1 else ''}: {shown}",
        tuple(int(i) for i in np.flatnonzero(missing)),
        {
            "character": "?",
            "count": str(len(where)),
            "positions": ", ".join(str(int(i) + 1) for i in np.flatnonzero(missing)),
        },
    )


def _uncertain(confidence: NDArray[np.float64], tunables: Tunables) -> tuple[int, ...]:
    order = np.argsort(confidence, kind="stable")
    doubtful = [int(i) for i in order if confidence[i] < tunables.resolve_uncertain_below]
    return tuple(doubtful[: tunables.resolve_max_uncertain])


# --- faces photographed turned ---------------------------------------------------------------------------------

# A face photographed turned k quarter turns clockwise reads np.rot90(truth, -k); sticker p of the face as it should
# be read is then its measured sticker _TURNS[k][p].
_TURNS = {k: np.rot90(np.arange(9).reshape(3, 3), k).ravel() for k in (1, 2, 3)}


def _turned_rows(turns: Mapping[int, int]) -> NDArray[np.intp]:
    """Facelet -> measured row, reading each face in ``turns`` (index -> quarter turns clockwise) turned back."""
    rows = np.arange(54)
    for face, k in turns.items():
        rows[9 * face : 9 * face + 9] = 9 * face + _TURNS[k]
    return rows


def _free_bound(cost: NDArray[np.float64], tunables: Tunables) -> float:
    """A lower bound of the cheapest real cube's capped cost: each kind of piece placed once, orientations free."""
    from scipy.optimize import linear_sum_assignment

    capped = np.minimum(cost, tunables.resolve_misfit)
    total = 0.0
    for slots, table in ((_CORNER_SLOTS, _CORNER_COLOURS), (_EDGE_SLOTS, _EDGE_COLOURS)):
        weights = _option_costs(capped, slots, table).min(axis=2)
        rows, cols = linear_sum_assignment(weights)
        total += float(weights[rows, cols].sum())
    return total


def _capped_fit(cost: NDArray[np.float64], tunables: Tunables) -> tuple[float, NDArray[np.intp] | None]:
    """The cheapest real cube's cost, each sticker counting at most ``resolve_misfit`` (inf without a cube)."""
    found = _solve(cost, tunables.resolve_max_nodes)
    if found is None:
        return math.inf, None
    return float(np.minimum(cost[np.arange(54), found[0]], tunables.resolve_misfit).sum()), found[0]


# --- how sure ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Doubt:
    """Stickers another real cube nearly as likely shows in other colours, and the face best shown again."""

    stickers: tuple[int, ...]
    face: str | None  # None when no one face would settle it (e.g. the centres do not tell the colours apart)


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


def _centre_rival(cost: NDArray[np.float64], colours: NDArray[np.intp]) -> float:
    """How much dearer the cheapest real cube is that has the colours renamed by a turn of the whole scheme.

    Such a cube keeps every piece (only the centres then say which colour is whose), so the centres alone pay
    for the difference: six centres measured alike (or all misread) leave nothing to choose by.
    """
    best = math.inf
    centre_cost = cost[_CENTRES]
    for sigma in _ROTATIONS:
        if (sigma == np.arange(6)).all():
            continue
        renamed = sigma[colours]
        renamed[_CENTRES] = np.arange(6)
        if validate("".join(FACES[c] for c in renamed)):
            continue
        own = np.arange(6)
        best = min(best, float(centre_cost[own, np.argsort(sigma)].sum() - centre_cost[own, own].sum()))
    return best


def _misfit_share(cost: NDArray[np.float64], colours: NDArray[np.intp], measured: NDArray[np.bool_]) -> float:
    """Median over stickers of (distance to own colour) / (own + nearest other): ~0.1 on real scans, ~0.4+ on noise."""
    rows = np.setdiff1d(np.flatnonzero(measured), _CENTRES)
    if rows.size == 0:
        return 1.0
    own = cost[rows, colours[rows]]
    other = cost[rows].copy()
    other[np.arange(rows.size), colours[rows]] = np.inf
    share = own / np.maximum(own + other.min(axis=1), 1e-9)
    return float(np.median(share))


def _not_a_cube_problem(reason: str, message: str) -> Problem:
    return Problem(ProblemKind.COLOURS, message, (), {"reason": reason})


def _doubt(confidence: NDArray[np.float64], measured: NDArray[np.bool_], tunables: Tunables) -> Doubt | None:
    """The stickers in doubt (a nearly as cheap real cube shows them otherwise) and the face that has most of them."""
    doubtful = measured & (confidence < tunables.resolve_doubt_below)
    doubtful[_CENTRES] = False
    if not doubtful.any():
        return None
    stickers = np.flatnonzero(doubtful)
    order = stickers[np.argsort(confidence[stickers], kind="stable")]
    faces = np.bincount(order // 9, minlength=6)
    # Most stickers in doubt; among equals, the face holding the least certain one.
    face = max(range(6), key=lambda f: (faces[f], -int(np.flatnonzero(order // 9 == f)[0]) if faces[f] else -99))
    return Doubt(tuple(int(i) for i in order), FACES[face])


# --- the whole resolution ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Read:
    """The measurements as they are resolved: in facelet order, faces photographed turned read back."""

    stickers: NDArray[np.float64]
    measured: NDArray[np.bool_]
    fit: _Fit
    turns: dict[int, int]
    turned_rivals: list[tuple[float, NDArray[np.intp], int]]  # real cubes about as cheap with one face (index)
    # read turned: that face is in doubt


def _read_turned_back(stickers: NDArray[np.float64], measured: NDArray[np.bool_], tunables: Tunables) -> _Read:
    """The fit of the stickers as scanned, or, if reading some faces turned back fits a real cube far better, that.

    Greedy, one face at a time: each face's three turns are ranked by the cheapest real cube they give under the
    current reading's colours and light (a turned face's light is its own, so that cost matrix serves for all),
    the best few judged with their own light fitted, and the best kept if it is far cheaper. Also returns the
    real cubes that one face read turned gives about as cheaply: a face whose turns give real cubes alike (a
    patterned cube, a face of few colours) cannot be told turned or not, so it is in doubt.
    """
    fit = _fit(stickers, measured, tunables)
    turns: dict[int, int] = {}
    near: list[Alternative] = []
    while len(turns) < 6 and fit.solution is not None:
        rows = _turned_rows(turns)
        linear = srgb_decode(np.where(measured[rows][:, None], stickers[rows], 0.0))
        # Two rankings: under the current reading's fit (biased towards that reading when it is wrong) and under
        # light that no reading chose (each face fitted to the default palette, the centres as the colours).
        gains = _palette_gains(linear, measured[rows], tunables)
        lab = linear_to_lab(linear * gains)
        plain = _cost(lab, lab[_CENTRES], measured[rows])
        tries = []
        for cost in (fit.cost, plain):
            # First by a cheap bound (pieces placed without twist, flip and parity), then exactly for the best.
            bounds = sorted((_free_bound(cost[_turned_rows({face: k})], tunables), face, k)
                            for face in range(6) if face not in turns for k in _TURNS)
            ranked = [(*_capped_fit(cost[_turned_rows({face: k})], tunables), face, k)
                      for _, face, k in bounds[: 2 * tunables.resolve_turn_candidates]]
            ranked = sorted((t for t in ranked if t[1] is not None), key=lambda t: t[0])
            tries += [t for t in ranked[: tunables.resolve_turn_candidates] if t[2:] not in [u[2:] for u in tries]]
        judged = []
        for _, colours, face, k in tries:
            turned = _turned_rows({**turns, face: k})
            linear = srgb_decode(np.where(measured[turned][:, None], stickers[turned], 0.0))
            judged.append((_judge(linear, measured[turned], colours, tunables)[0], colours, face, k))
        best = min(judged, key=lambda j: j[0]) if judged else None
        if best is None or not best[0] < fit.score - tunables.resolve_turn_gain:
            near += [(max(score - fit.score, 0.0), colours, face) for score, colours, face, _ in judged
                     if score < fit.score + tunables.resolve_turn_gain]
            break
        # Another face read turned instead that does about as well (a patterned cube): it stays in doubt.
        near += [(max(score - best[0], 0.0), colours, face) for score, colours, face, _ in judged
                 if score < best[0] + tunables.resolve_turn_gain and face != best[2]]
        turns[best[2]] = best[3]
        rows = _turned_rows(turns)
        fit = _fit(stickers[rows], measured[rows], tunables)
    rows = _turned_rows(turns)
    return _Read(stickers[rows], measured[rows], fit, turns, near)


def _as_seen(
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
    seen[_CENTRES] = np.arange(6)
    facelets = "".join(FACES[c] if ok else "?" for c, ok in zip(seen, measured, strict=True))
    ordered = np.sort(cost, axis=1)
    confidence = np.where(measured, 1.0 - np.exp(-(ordered[:, 1] - ordered[:, 0]) / tunables.classify_margin_scale), 0)
    clashing = misfit > tunables.resolve_misfit
    confidence[clashing] = 0.0
    confidence[_CENTRES] = 1.0
    problems = [_unreadable_problem(~measured)] if not measured.all() else validate(facelets, names)
    order = np.lexsort((confidence, -misfit))  # worst clash first, then the least confident
    uncertain = tuple(int(i) for i in order if clashing[i] or confidence[i] < tunables.resolve_uncertain_below)
    uncertain = uncertain[: tunables.resolve_max_uncertain]
    faces = np.bincount(np.flatnonzero(clashing) // 9, minlength=6)
    least = FACES[int(faces.argmax())] if faces.any() else (FACES[uncertain[0] // 9] if uncertain else None)
    doubt = Doubt(uncertain, least) if uncertain else None
    return Resolution(facelets, not problems, problems, confidence, uncertain, names, least, doubt, turned)


def resolve_cube(
    rgb: Mapping[str, Any],
    palette: Palette | None = None,
    tunables: Tunables = Tunables(),  # noqa: B008
) -> Resolution:
    """Resolve six faces of measured sticker colours (face letter -> nine sRGB rows, net order) into a cube.

    Never raises: missing faces, wrong shapes and non-finite values give ``valid=False`` with problems, and
    ``?`` in ``facelets`` where nothing usable was measured. ``palette`` only names the colours. A face that was
    photographed turned is read turned back (``turned`` says which, so the user can be told).
    """
    palette = palette or DEFAULT_PALETTE
    stickers = read_cube_colours(rgb, 9)
    measured = np.isfinite(stickers).all(axis=1)
    confidence = np.zeros(54)
    if not measured[_CENTRES].all():
        # Without every centre there is nothing to anchor the colours to.
        return Resolution("?" * 54, False, [_unreadable_problem(~measured)], confidence)
    read = _read_turned_back(stickers, measured, tunables)
    measured, fit = read.measured, read.fit
    turned = {FACES[f]: k for f, k in sorted(read.turns.items())}
    names = _name_colours(np.clip(lab_to_srgb(fit.anchors), 0.0, 255.0), palette)
    if fit.solution is None:
        return _as_seen(fit.cost, np.zeros(54), measured, fit.anchors, names, tunables, turned)
    colours = fit.solution[0]
    # How much worse each sticker fits its colour in the cube than its nearest colour: several large ones mean
    # the measurements are not of one real cube (e.g. a face scanned turned), and forcing one would mislead.
    misfit = fit.cost[np.arange(54), colours] - fit.cost.min(axis=1)
    misfit[_CENTRES] = 0.0  # a centre is its face's colour by definition: far off only if misread (a logo, glare)
    clashing = misfit > tunables.resolve_misfit
    if np.count_nonzero(clashing) > tunables.resolve_max_repairs:
        return _as_seen(fit.cost, misfit, measured, fit.anchors, names, tunables, turned)
    facelets = "".join(FACES[c] if ok else "?" for c, ok in zip(colours, measured, strict=True))
    # Confidence from a cost matrix that does not favour this colouring: each sticker against its colour's mean
    # without itself, in the light fitted to the colouring.
    linear = srgb_decode(np.where(measured[:, None], read.stickers, 0.0))
    score, honest, anchors = _judge(linear, measured, colours, tunables)
    found = _solve(honest, tunables.resolve_max_nodes)
    cap = 6 * tunables.resolve_sticker_margin_scale  # confidence is above 0.997 beyond this: no need to look further
    # Alternatives dearer than this cannot come within ``cap`` per sticker (an alternative changes 2+ stickers,
    # most change 4-6; a few of those beyond it are missed, at most a little less sure than shown).
    reach = tunables.resolve_alternative_stickers * cap
    alternatives = [] if found is None else _alternatives(found[1], found[2], tunables.resolve_max_nodes, reach)
    if found is not None and (found[0] != colours).any():
        alternatives.append((0.0, found[0]))  # judged fairly, another real cube is as cheap
    # One cost matrix still favours the colouring it was fitted to (a face's light, the colours' means): the
    # closest alternatives are judged again, each with its own light and colours fitted.
    judged: dict[bytes, float] = {}
    for _, shows in sorted(alternatives, key=lambda a: a[0]):
        key = shows.tobytes()
        if key not in judged and len(judged) < tunables.resolve_rejudged:
            judged[key] = max(_judge(linear, measured, shows, tunables)[0] - score, 0.0)
    alternatives = [(judged.get(shows.tobytes(), extra), shows) for extra, shows in alternatives]
    alternatives += fit.rivals  # other starts that ended in a cube nearly as cheap
    alternatives += [(extra, shows) for extra, shows, _ in read.turned_rivals]
    margin = _margins(colours, alternatives, cap)
    confidence = np.where(measured, 1.0 - np.exp(-margin / tunables.resolve_sticker_margin_scale), 0.0)
    confidence[clashing] = 0.0  # repaired by the pieces, not seen: worth a look
    confidence[_CENTRES] = 1.0
    problems = [_unreadable_problem(~measured)] if not measured.all() else validate(facelets, names)
    spread = np.array([np.median(honest[measured & (colours == c), c]) for c in range(6)])
    problems += _alike_colours(anchors, spread, names, tunables)
    if _misfit_share(honest, colours, measured) > tunables.resolve_max_misfit_share:
        problems.append(_not_a_cube_problem(
            "spread", "the measured colours do not fall into six colours of a cube: scan again in even light"))
        confidence[_PIECE_FACELETS] = 0.0
    elif (_centre_rival(honest, colours) < tunables.resolve_centre_margin
          or np.count_nonzero(honest[_CENTRES, np.arange(6)] > tunables.resolve_misfit)
          > tunables.resolve_max_misread_centres):
        problems.append(_not_a_cube_problem(
            "centres", "the centres do not tell which colour belongs to which face: scan them again"))
        confidence[_PIECE_FACELETS] = 0.0
    uncertain = _uncertain(confidence, tunables)
    doubt = _doubt(confidence, measured, tunables)
    if doubt is not None and read.turned_rivals:
        # If the closest alternative reads one face turned, that face is the one to show again.
        extra, shows, face = min(read.turned_rivals, key=lambda r: r[0] / max(np.count_nonzero(r[1] != colours), 1))
        if extra / max(np.count_nonzero(shows != colours), 1) <= margin[list(doubt.stickers)].min() + 1e-9:
            doubt = Doubt(doubt.stickers, FACES[face])
    if doubt is not None and any(p.kind is ProblemKind.COLOURS for p in problems):
        doubt = Doubt(doubt.stickers, None)
    return Resolution(
        facelets=facelets,
        valid=not problems,
        problems=problems,
        confidence=confidence,
        uncertain=uncertain,
        colour_names=names,
        least_certain_face=FACES[uncertain[0] // 9] if uncertain else None,
        doubt=doubt,
        turned=turned,
    )
