"""2x2x2 colour resolution: 24 measured sticker colours -> the facelet string of a real pocket cube.

A 2x2 has no centres, so nothing says in advance which colour is which face. The colours are anchored by the
pieces and by there being four stickers of each: the stickers are assigned to the 8 corner pieces, each once,
in one of 3 twists, total twist 0, under every way of giving the six colours to the six faces; the cheapest
such cube (CIEDE2000 from each sticker to its colour's anchor) wins. Which colour is which face follows the
model's normalisation: the corner at the DBL position shows the D, B and L colours (it is the DBL piece, not
twisted), the other three faces are the colours never on a corner with them. The search is exact: a dynamic
programme over which pieces are placed and their twist so far, run for all 720 colour-to-face maps at once,
which also gives, for every sticker, the cheapest real cube that shows it in another colour (its confidence).

The anchors and each face's light (exposure, colour cast) are then re-estimated from the cube found and the
search repeated until it settles, as in the 3x3 resolution (``cube.py``). The descent is started from the
default palette and from the stickers clustered four to a colour, each as measured and after each face's light
was fitted to the palette; the colouring that fits best once its own light is fitted wins.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qbr.cube.conventions import FACES
from qbr.cube.pocket.conventions import FACELET_COUNT, STICKERS_PER_FACE
from qbr.cube.pocket.conventions import facelet_name as pocket_facelet_name
from qbr.cube.pocket.validate import validate
from qbr.vision.colour import lab_to_srgb
from qbr.vision.palette import DEFAULT_PALETTE, Palette
from qbr.vision.resolve.measured import read_cube_colours, unreadable_problem
from qbr.vision.resolve.naming import name_colours
from qbr.vision.resolve.pocket_fit import fit_pocket, scheme_of
from qbr.vision.resolve.pocket_search import SLOTS, margins, order_bound, solve
from qbr.vision.resolve.result import Resolution, least_certain, resolution, unreadable
from qbr.vision.tunables import Tunables

_N = FACELET_COUNT
_PER_FACE = STICKERS_PER_FACE


def _letters(colours: NDArray[np.intp], scheme: NDArray[np.intp], measured: NDArray[np.bool_]) -> str:
    face_of = np.argsort(scheme)  # colour -> face
    return "".join(FACES[face_of[c]] if ok else "?" for c, ok in zip(colours, measured, strict=True))


def _looseness(cost: NDArray[np.float64], colours: NDArray[np.intp], measured: NDArray[np.bool_], cap: float
               ) -> float:
    """Mean CIEDE2000 of the measured stickers from their colour, each counted at most ``cap`` (one glare sticker
    is not looseness): how tight the six colours are."""
    return float(np.minimum(cost[measured, colours[measured]], cap).mean())


def colour_looseness(rgb: Mapping[str, Any], tunables: Tunables = Tunables()) -> float:  # noqa: B008
    """How far (mean CIEDE2000, capped per sticker) a 2x2's stickers lie from their colours in the best real cube."""
    stickers = read_cube_colours(rgb, _PER_FACE)
    measured = np.isfinite(stickers).all(axis=1)
    _, colours, cost, _ = fit_pocket(stickers, measured, tunables)[0]
    return _looseness(cost, colours, measured, tunables.resolve_misfit)


def resolve_pocket(
    rgb: Mapping[str, Any],
    palette: Palette | None = None,
    tunables: Tunables = Tunables(),  # noqa: B008
) -> Resolution:
    """Resolve six faces of a 2x2 (face letter -> four sRGB rows, net order) into its 24 facelets.

    Never raises: missing faces, wrong shapes and non-finite values give ``valid=False`` with problems and ``?``
    where nothing usable was measured. ``palette`` only names the colours.
    """
    palette = palette or DEFAULT_PALETTE
    stickers = read_cube_colours(rgb, _PER_FACE)
    measured = np.isfinite(stickers).all(axis=1)
    if measured.sum() < tunables.resolve_pocket_min_measured * _N:
        return unreadable(measured, pocket_facelet_name)
    ranked = fit_pocket(stickers, measured, tunables)
    score, colours, cost, anchors = ranked[0]
    scheme = scheme_of(colours)
    best = float(cost[measured, colours[measured]].sum())
    cap = tunables.resolve_margin_cap * tunables.resolve_margin_scale
    margin = margins(cost, colours, best, cap)
    for rival_score, rival, _, _ in ranked[1:]:
        # Another start ended in a cube nearly as good that differs here: these facelets are in doubt.
        differs = np.argsort(scheme_of(rival))[rival] != np.argsort(scheme)[colours]
        margin[differs] = np.minimum(margin[differs], rival_score - score)
    confidence = np.where(measured, 1.0 - np.exp(-margin / tunables.resolve_margin_scale), 0.0)
    misfit = cost[np.arange(_N), colours] - cost.min(axis=1)
    clashing = misfit > tunables.resolve_misfit
    confidence[clashing] = 0.0  # repaired by the pieces, not seen: worth a look
    names = name_colours(np.clip(lab_to_srgb(anchors[scheme]), 0.0, 255.0), palette)
    deduced = _deducible(measured)
    confidence[deduced] = _peers_confidence(confidence)[deduced]  # as sure as the two stickers it follows from
    known = measured | deduced
    facelets = _letters(colours, scheme, known)
    problems = validate(facelets, names) if known.all() else [unreadable_problem(~known, pocket_facelet_name)]
    loose = _looseness(cost, colours, measured, tunables.resolve_misfit) > tunables.resolve_pocket_max_looseness
    if loose or np.count_nonzero(clashing) > tunables.resolve_max_repairs:
        # Not six tight colours, or many stickers forced far off theirs: not one real cube as scanned (random
        # colours, a face from another cube). Say what was seen rather than make a cube up.
        seen = np.where(measured, cost.argmin(axis=1), 0)
        facelets = _letters(seen, scheme, measured)
        deduced = np.zeros(_N, dtype=bool)  # no real cube to deduce from
        far = clashing | (cost[np.arange(_N), colours] > tunables.resolve_pocket_max_looseness)
        if measured.all():
            problems += validate(facelets, names)  # what is impossible about what was seen
        ordered = np.sort(cost, axis=1)
        gap = ordered[:, 1] - ordered[:, 0]
        confidence = np.where(measured & ~far, 1.0 - np.exp(-gap / tunables.classify_margin_scale), 0.0)
    return resolution(facelets, problems, confidence, least_certain(confidence, tunables), names,
                      deduced=tuple(int(i) for i in np.flatnonzero(deduced)))


def _deducible(measured: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Unmeasured stickers whose corner's two other stickers were measured: those two fix the piece and its twist
    (two colours, in their clockwise order, belong to one corner only), so the third is known.

    Only while everything unmeasured lies on one face: with two faces unseen (U and D, say) both their colours may
    be seen nowhere else, and which is which would be a guess.
    """
    if len(set(np.flatnonzero(~measured) // _PER_FACE)) > 1:
        return np.zeros(_N, dtype=bool)
    peers = measured[SLOTS]  # [position, slot]
    out = np.zeros(_N, dtype=bool)
    both = peers.sum(axis=1) == 2
    out[SLOTS[both][~peers[both]]] = True
    return out & ~measured


def _peers_confidence(confidence: NDArray[np.float64]) -> NDArray[np.float64]:
    """Per facelet, the lowest confidence among the other stickers of its corner."""
    out = np.ones(_N)
    for slots in SLOTS:
        for k, i in enumerate(slots):
            out[i] = min(confidence[j] for m, j in enumerate(slots) if m != k)
    return out


def resolve_pocket_any_order(
    rgb: Mapping[str, Any],
    palette: Palette | None = None,
    tunables: Tunables = Tunables(),  # noqa: B008
) -> Resolution:
    """Like :func:`resolve_pocket` for faces that may have been shown in another order than their letters say.

    A 2x2's faces have no centres to tell them apart, so the live app takes each face for the one its guide asked
    for; shown in another order (each face still in its net orientation) they can still be forced into a real,
    wrong, cube. So every order gets a lower bound of its cheapest real cube (colours and light as fitted to the
    order given), the most promising few and the order given are fitted in full, and the best fit is resolved.
    """
    stickers = read_cube_colours(rgb, _PER_FACE)
    measured = np.isfinite(stickers).all(axis=1)
    if not measured.all():
        return resolve_pocket(rgb, palette, tunables)
    _, _, cost, _ = fit_pocket(stickers, measured, tunables)[0]
    rows = np.arange(_N).reshape(6, _PER_FACE)
    orders = list(itertools.permutations(range(6)))
    bounds = [order_bound(cost[rows[list(o)].ravel()]) for o in orders]
    # The bound ranks roughly; the cheapest real cube of each of the best-bounded orders ranks sharply.
    near = [orders[int(k)] for k in np.argsort(bounds, kind="stable")[: tunables.resolve_pocket_screen_orders]]
    exact = {o: solve(cost[rows[list(o)].ravel()])[2] for o in near}
    promising = set(sorted(exact, key=exact.__getitem__)[: tunables.resolve_pocket_max_orders])
    scores = {o: fit_pocket(stickers[rows[list(o)].ravel()], measured, tunables)[0][0] for o in promising | {orders[0]}}
    best = min(scores, key=lambda o: (scores[o], o != orders[0]))  # ties keep the order given
    return resolve_pocket({FACES[i]: rgb[FACES[j]] for i, j in enumerate(best)}, palette, tunables)
