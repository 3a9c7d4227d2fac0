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
search repeated until it settles, as in the 3x3 resolution (``resolve.py``). The descent is started from the
default palette and from the stickers clustered four to a colour, each as measured and after each face's light
was fitted to the palette; the colouring that fits best once its own light is fitted wins.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qbr.cube.conventions import CORNER_NAMES, FACE_INDEX, FACES
from qbr.cube.pocket.conventions import CORNER_FACELETS, FACELET_COUNT, REFERENCE_CORNER, STICKERS_PER_FACE
from qbr.cube.pocket.conventions import facelet_name as pocket_facelet_name
from qbr.cube.pocket.validate import validate
from qbr.cube.validate import Problem, ProblemKind
from qbr.vision.classify import adapt_to_palette
from qbr.vision.colour import delta_e, lab_to_srgb, linear_to_lab, srgb_decode
from qbr.vision.cube_colours import read_cube_colours
from qbr.vision.palette import DEFAULT_PALETTE, Palette
from qbr.vision.resolve import Resolution
from qbr.vision.resolve import _name_colours as name_colours
from qbr.vision.tunables import Tunables

_N = FACELET_COUNT
_PER_FACE = STICKERS_PER_FACE
_DBL = REFERENCE_CORNER
_FREE = tuple(p for p in range(8) if p != _DBL)  # positions (and pieces) the search places
_SLOTS = np.array(CORNER_FACELETS, dtype=np.intp)  # [position, slot] -> facelet index
# [piece, twist, slot] -> face index shown: a piece's colour j sits at slot (j + twist) % 3 (qbr.cube.cubie).
_SHOWS = np.array(
    [[[FACE_INDEX[name[(k - o) % 3]] for k in range(3)] for o in range(3)] for name in CORNER_NAMES], dtype=np.intp
)
_SCHEMES = np.array(list(itertools.permutations(range(6))), dtype=np.intp)  # [scheme, face] -> colour
# [scheme, piece, twist, slot] -> colour the piece shows at that slot under that scheme (free pieces only).
_SCHEME_SHOWS = _SCHEMES[:, _SHOWS[list(_FREE)]]
# [scheme, slot] -> colour the DBL position's (fixed, untwisted) DBL piece shows.
_DBL_SHOWS = _SCHEMES[:, _SHOWS[_DBL, 0]]
# [scheme, oriented piece] -> the colour triple (a, b, c) as one index 36a + 6b + c, for the free pieces' 21 options.
_TRIPLES = (_SCHEME_SHOWS[..., 0] * 36 + _SCHEME_SHOWS[..., 1] * 6 + _SCHEME_SHOWS[..., 2]).reshape(len(_SCHEMES), -1)
_DBL_TRIPLE = _DBL_SHOWS[:, 0] * 36 + _DBL_SHOWS[:, 1] * 6 + _DBL_SHOWS[:, 2]
_FULL = (1 << len(_FREE)) - 1
_POPCOUNT = np.array([bin(m).count("1") for m in range(_FULL + 1)])
# Per number of pieces placed, the sets of placed pieces (bit masks over _FREE).
_LAYERS = [np.flatnonzero(k == _POPCOUNT) for k in range(len(_FREE) + 1)]
_FIRST_SCHEMES = 8  # schemes searched exactly first (by lower bound); real scans need 1-15 in all


# --- the exact search ------------------------------------------------------------------------------------------


def _triples(cost: NDArray[np.float64]) -> NDArray[np.float64]:
    """[position, colour triple 36a + 6b + c]: the cost of a corner position showing those colours."""
    slots = cost[_SLOTS]  # [position, slot, colour]
    return (slots[:, 0, :, None, None] + slots[:, 1, None, :, None] + slots[:, 2, None, None, :]).reshape(8, -1)


def _option_costs(cost: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """[scheme, position, piece, twist] cost of each free position's stickers, and [scheme] the DBL corner's."""
    triple = _triples(cost)
    options = triple[list(_FREE)][:, _TRIPLES]  # [position, scheme, oriented piece]
    options = options.reshape(len(_FREE), len(_SCHEMES), len(_FREE), 3).transpose(1, 0, 2, 3)
    return options, triple[_DBL][_DBL_TRIPLE]


# [twist sum after, twist here] -> twist sum before: placing a piece with twist o takes sum t - o to t.
_BEFORE = (np.arange(3)[:, None] - np.arange(3)[None, :]) % 3


def _layers(options: NDArray[np.float64], positions: list[int]) -> list[NDArray[np.float64]]:
    """Layer k: [scheme, placed-pieces mask, twist sum] cheapest cost of placing ``positions[:k]``."""
    schemes, n = options.shape[0], len(_FREE)
    layer = np.full((schemes, _FULL + 1, 3), np.inf)
    layer[:, 0, 0] = 0.0
    layers = [layer]
    for k, p in enumerate(positions):
        new = np.full_like(layer, np.inf)
        masks = _LAYERS[k]
        for q in range(n):
            bit = 1 << q
            from_masks = masks[(masks & bit) == 0]
            # [scheme, mask, sum after, twist here]: every twist of q at once, the cheapest kept.
            value = (layer[:, from_masks][:, :, _BEFORE] + options[:, p, q, None, None, :]).min(axis=3)
            to_masks = from_masks | bit
            new[:, to_masks, :] = np.minimum(new[:, to_masks, :], value)
        layer = new
        layers.append(layer)
    return layers


def _forward(options: NDArray[np.float64]) -> list[NDArray[np.float64]]:
    """Layer k: [scheme, placed-pieces mask, twist sum] cheapest cost of the first k free positions."""
    return _layers(options, list(range(len(_FREE))))


def _backward(options: NDArray[np.float64]) -> list[NDArray[np.float64]]:
    """Layer k: [scheme, mask of pieces still free, twist sum] cheapest cost of free positions k.. with them."""
    return _layers(options, list(reversed(range(len(_FREE)))))[::-1]


def _trace(options: NDArray[np.float64], layers: list[NDArray[np.float64]], row: int, scheme: int) -> NDArray[np.intp]:
    """The colour of each facelet in the cheapest cube under ``scheme``, whose ``options`` and ``layers`` are at
    ``row`` (backtracking the forward layers)."""
    colours = np.zeros(_N, dtype=np.intp)
    colours[_SLOTS[_DBL]] = _DBL_SHOWS[scheme]
    mask, twist = _FULL, 0
    for p in reversed(range(len(_FREE))):
        target = layers[p + 1][row, mask, twist]
        found = None
        for q in range(len(_FREE)):
            bit = 1 << q
            if not mask & bit:
                continue
            for o in range(3):
                before = layers[p][row, mask ^ bit, (twist - o) % 3]
                if math.isclose(before + options[row, p, q, o], target, rel_tol=1e-12, abs_tol=1e-9):
                    found = (q, o)
                    break
            if found is not None:
                break
        assert found is not None, "the forward layers always hold the step they were built from"
        q, o = found
        colours[_SLOTS[_FREE[p]]] = _SCHEME_SHOWS[scheme, q, o]
        mask, twist = mask ^ (1 << q), (twist - o) % 3
    return colours


def _bounds(options: NDArray[np.float64], dbl: NDArray[np.float64]) -> NDArray[np.float64]:
    """[scheme] a lower bound of the cheapest cube's cost: each position (or each piece) at its cheapest alone."""
    by_position = options.min(axis=(2, 3)).sum(axis=1)
    by_piece = options.min(axis=(1, 3)).sum(axis=1)
    return np.maximum(by_position, by_piece) + dbl


def _schemes_below(bounds: NDArray[np.float64], limit: float) -> NDArray[np.intp]:
    return np.flatnonzero(bounds < limit)


def _solve(cost: NDArray[np.float64]) -> tuple[NDArray[np.intp], int, float]:
    """The cheapest real 2x2: colour of each facelet, the scheme (face -> colour) and its cost.

    The exact search runs only on the schemes whose lower bound could beat the best of the most promising few.
    """
    options, dbl = _option_costs(cost)
    bounds = _bounds(options, dbl)
    first = np.argsort(bounds, kind="stable")[:_FIRST_SCHEMES]
    totals = np.full(len(bounds), np.inf)
    totals[first] = _forward(options[first])[-1][:, _FULL, 0] + dbl[first]
    rest = np.setdiff1d(_schemes_below(bounds, float(totals.min())), first)
    if len(rest):
        totals[rest] = _forward(options[rest])[-1][:, _FULL, 0] + dbl[rest]
    scheme = int(np.argmin(totals))
    layers = _forward(options[[scheme]])
    return _trace(options[[scheme]], layers, 0, scheme), scheme, float(totals[scheme])


def _margins(cost: NDArray[np.float64], colours: NDArray[np.intp], best: float, cap: float) -> NDArray[np.float64]:
    """Per facelet: how much dearer the cheapest real cube is that shows it in another colour (at most ``cap``).

    Exact over the schemes that could come within ``cap`` of the best (the others cannot change a margin).
    """
    options, dbl = _option_costs(cost)
    near = _schemes_below(_bounds(options, dbl), best + cap)
    options, dbl, shows, dbl_shows = options[near], dbl[near], _SCHEME_SHOWS[near], _DBL_SHOWS[near]
    forward, backward = _forward(options), _backward(options)
    n = len(_FREE)
    margin = np.full(_N, cap)
    totals = forward[-1][:, _FULL, 0] + dbl
    for slot in range(3):
        other = dbl_shows[:, slot] != colours[_SLOTS[_DBL, slot]]
        if other.any():
            margin[_SLOTS[_DBL, slot]] = min(cap, float(totals[other].min()) - best)
    for p in range(n):
        masks = _LAYERS[p]
        # forced[scheme, piece, twist]: the cheapest cube with free position p holding that piece in that twist.
        forced = np.full((options.shape[0], n, 3), np.inf)
        for q in range(n):
            bit = 1 << q
            before = masks[(masks & bit) == 0]
            after = _FULL ^ before ^ bit
            for o in range(3):
                # Twist r before, o here, and (-r - o) % 3 after make 0.
                rest = backward[p + 1][:, after, :][:, :, (-np.arange(3) - o) % 3]
                forced[:, q, o] = (forward[p][:, before, :] + rest).min(axis=(1, 2)) + options[:, p, q, o]
        forced += dbl[:, None, None]
        for slot in range(3):
            facelet = _SLOTS[_FREE[p], slot]
            other = shows[..., slot] != colours[facelet]
            if other.any():
                margin[facelet] = min(cap, float(forced[other].min()) - best)
    return np.clip(margin, 0.0, cap)


# --- light and anchors -----------------------------------------------------------------------------------------


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


def _cost(lab: NDArray[np.float64], anchors: NDArray[np.float64], measured: NDArray[np.bool_]) -> NDArray[np.float64]:
    """Sticker x colour CIEDE2000; an unmeasured sticker costs nothing, so it takes whatever its piece needs."""
    cost = delta_e(lab[:, None, :], anchors[None, :, :])
    cost[~measured] = 0.0
    return cost


def _palette_gains(linear: NDArray[np.float64], measured: NDArray[np.bool_], tunables: Tunables) -> NDArray:
    """Per-sticker gains that bring each face's light to the default palette's (a start independent of the data)."""
    gains = np.ones((_N, 3))
    for f in range(6):
        rows = np.arange(_PER_FACE * f, _PER_FACE * (f + 1))[measured[_PER_FACE * f : _PER_FACE * (f + 1)]]
        adapted = adapt_to_palette(linear[rows], DEFAULT_PALETTE, tunables)
        total = linear[rows].sum(axis=0)
        gains[rows] = np.where(total > 1e-6, adapted.sum(axis=0) / np.maximum(total, 1e-6), 1.0)
    return np.clip(gains, 0.05, 20.0)  # a black or empty face keeps its light as measured


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
    cost = _cost(lab, anchors, measured)
    colours: NDArray[np.intp] | None = None
    for _ in range(tunables.resolve_iterations):
        found = _solve(cost)[0]
        if colours is not None and np.array_equal(found, colours):
            break
        colours = found
        anchors = _anchors(lab, measured, colours)
        gains = _face_gains(linear * gains, _targets(anchors, colours), measured,
                            tunables.resolve_face_gain_step,
                            tunables.resolve_pocket_gain_ridge) * gains
        lab = linear_to_lab(linear * gains)
        cost = _cost(lab, anchors, measured)
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
        trusted = measured & (_cost(lab, anchors, measured)[rows, colours] <= tunables.resolve_misfit)
        gains = _face_gains(linear * gains, _targets(anchors, colours), trusted,
                            tunables.resolve_face_gain_step,
                            tunables.resolve_pocket_gain_ridge) * gains
        gains /= np.exp(np.log(gains).mean(axis=0))  # overall exposure is free: keep it where it was measured
    lab = linear_to_lab(linear * gains)
    anchors = _anchors(lab, measured, colours)
    cost = _cost(lab, anchors, measured)
    score = float(np.minimum(cost, tunables.resolve_misfit)[measured, colours[measured]].sum())
    return score, cost, anchors


# --- the result ------------------------------------------------------------------------------------------------


def _letters(colours: NDArray[np.intp], scheme: NDArray[np.intp], measured: NDArray[np.bool_]) -> str:
    face_of = np.argsort(scheme)  # colour -> face
    return "".join(FACES[face_of[c]] if ok else "?" for c, ok in zip(colours, measured, strict=True))


def _scheme_of(colours: NDArray[np.intp]) -> NDArray[np.intp]:
    """[face] -> colour of a real 2x2's colouring: D, B, L from the DBL corner, each other face its opposite's.

    The opposite of a colour is the one never on a corner with it.
    """
    together = np.zeros((6, 6), dtype=bool)
    for slots in _SLOTS:
        for a, b in itertools.permutations(colours[slots].tolist(), 2):
            together[a, b] = True
    d, b, left = (int(colours[_SLOTS[_DBL, k]]) for k in range(3))
    scheme = np.zeros(6, dtype=np.intp)
    for face, colour in (("D", d), ("B", b), ("L", left)):
        scheme[FACE_INDEX[face]] = colour
        apart = [c for c in range(6) if c != colour and not together[colour, c]]
        scheme[FACE_INDEX[{"D": "U", "B": "F", "L": "R"}[face]]] = apart[0]
    return scheme


def _unreadable_problem(missing: NDArray[np.bool_]) -> Problem:
    where = [pocket_facelet_name(int(i)) for i in np.flatnonzero(missing)]
    shown = ", ".join(where[:12]) + (f" and {len(where) - 12} more" if len(where) > 12 else "")
    return Problem(
        ProblemKind.BAD_CHARACTERS,
        f"no usable colour was measured for {len(where)} sticker{'s' if len(where) != 1 else ''}: {shown}",
        tuple(int(i) for i in np.flatnonzero(missing)),
        {"character": "?", "count": str(len(where)),
         "positions": ", ".join(str(int(i) + 1) for i in np.flatnonzero(missing))},
    )


def _uncertain(confidence: NDArray[np.float64], tunables: Tunables) -> tuple[int, ...]:
    order = np.argsort(confidence, kind="stable")
    doubtful = [int(i) for i in order if confidence[i] < tunables.resolve_uncertain_below]
    return tuple(doubtful[: tunables.resolve_max_uncertain])


_End = tuple[float, NDArray[np.intp], NDArray[np.float64], NDArray[np.float64]]


def _fit(stickers: NDArray[np.float64], measured: NDArray[np.bool_], tunables: Tunables) -> list[_End]:
    """The colourings the four descents end in, best first: (score, colours, cost matrix, anchors) each.

    Started from the default palette and from the stickers clustered four to a colour, each as measured and
    after each face's light was fitted to the palette. One start alone gets stuck: a face in very different
    light pulls clustered anchors its way, a cube unlike the palette (salmon orange, teal green) misleads it.
    """
    linear = srgb_decode(np.where(measured[:, None], stickers, 0.0))
    ones = np.ones((_N, 3))
    fitted = _palette_gains(linear, measured, tunables)
    seeds = DEFAULT_PALETTE.lab()
    starts = [(seeds, ones), (seeds, fitted)]
    starts += [_balanced_clusters(linear, measured, seeds, gains, tunables) for gains in (ones, fitted)]
    ends: dict[bytes, _End] = {}
    for anchors, gains in starts:
        colours = _descend(linear, measured, anchors, gains, tunables)[0]
        # The same colouring relabelled is the same cube: key it by its scheme-free form.
        key = np.argsort(_scheme_of(colours))[colours].tobytes()
        if key not in ends:
            score, cost, fitted_anchors = _score(linear, measured, colours, tunables)
            ends[key] = (score, colours, cost, fitted_anchors)
    return sorted(ends.values(), key=lambda end: end[0])


def _looseness(cost: NDArray[np.float64], colours: NDArray[np.intp], measured: NDArray[np.bool_], cap: float
               ) -> float:
    """Mean CIEDE2000 of the measured stickers from their colour, each counted at most ``cap`` (one glare sticker
    is not looseness): how tight the six colours are."""
    return float(np.minimum(cost[measured, colours[measured]], cap).mean())


def colour_looseness(rgb: Mapping[str, Any], tunables: Tunables = Tunables()) -> float:  # noqa: B008
    """How far (mean CIEDE2000, capped per sticker) a 2x2's stickers lie from their colours in the best real cube."""
    stickers = read_cube_colours(rgb, _PER_FACE)
    measured = np.isfinite(stickers).all(axis=1)
    _, colours, cost, _ = _fit(stickers, measured, tunables)[0]
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
    if measured.sum() < _N // 2:
        # Fewer than half the stickers leave too few of each colour to anchor it.
        return Resolution("?" * _N, False, [_unreadable_problem(~measured)], np.zeros(_N))
    ranked = _fit(stickers, measured, tunables)
    score, colours, cost, anchors = ranked[0]
    scheme = _scheme_of(colours)
    best = float(cost[measured, colours[measured]].sum())
    cap = 6 * tunables.resolve_margin_scale  # confidence is above 0.997 beyond this: no need to look further
    margin = _margins(cost, colours, best, cap)
    for rival_score, rival, _, _ in ranked[1:]:
        # Another start ended in a cube nearly as good that differs here: these facelets are in doubt.
        differs = np.argsort(_scheme_of(rival))[rival] != np.argsort(scheme)[colours]
        margin[differs] = np.minimum(margin[differs], rival_score - score)
    confidence = np.where(measured, 1.0 - np.exp(-margin / tunables.resolve_margin_scale), 0.0)
    misfit = cost[np.arange(_N), colours] - cost.min(axis=1)
    clashing = misfit > tunables.resolve_misfit
    confidence[clashing] = 0.0  # repaired by the pieces, not seen: worth a look
    names = name_colours(np.clip(lab_to_srgb(anchors[scheme]), 0.0, 255.0), palette)
    facelets = _letters(colours, scheme, measured)
    problems = validate(facelets, names) if measured.all() else [_unreadable_problem(~measured)]
    loose = _looseness(cost, colours, measured, tunables.resolve_misfit) > tunables.resolve_pocket_max_looseness
    if loose or np.count_nonzero(clashing) > tunables.resolve_max_repairs:
        # Not six tight colours, or many stickers forced far off theirs: not one real cube as scanned (random
        # colours, a face from another cube). Say what was seen rather than make a cube up.
        seen = np.where(measured, cost.argmin(axis=1), 0)
        facelets = _letters(seen, scheme, measured)
        far = clashing | (cost[np.arange(_N), colours] > tunables.resolve_pocket_max_looseness)
        if measured.all():
            problems += validate(facelets, names)  # what is impossible about what was seen
        ordered = np.sort(cost, axis=1)
        gap = ordered[:, 1] - ordered[:, 0]
        confidence = np.where(measured & ~far, 1.0 - np.exp(-gap / tunables.classify_margin_scale), 0.0)
    uncertain = _uncertain(confidence, tunables)
    return Resolution(
        facelets=facelets,
        valid=not problems,
        problems=problems,
        confidence=confidence,
        uncertain=uncertain,
        colour_names=names,
        least_certain_face=FACES[uncertain[0] // _PER_FACE] if uncertain else None,
    )


def _order_bound(cost: NDArray[np.float64]) -> float:
    """A lower bound of the cheapest real cube's cost over all schemes (``_bounds``)."""
    return float(_bounds(*_option_costs(cost)).min())


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
    _, _, cost, _ = _fit(stickers, measured, tunables)[0]
    rows = np.arange(_N).reshape(6, _PER_FACE)
    orders = list(itertools.permutations(range(6)))
    bounds = [_order_bound(cost[rows[list(o)].ravel()]) for o in orders]
    # The bound ranks roughly; the cheapest real cube of each of the best-bounded orders ranks sharply.
    near = [orders[int(k)] for k in np.argsort(bounds, kind="stable")[: tunables.resolve_pocket_screen_orders]]
    exact = {o: _solve(cost[rows[list(o)].ravel()])[2] for o in near}
    promising = set(sorted(exact, key=exact.__getitem__)[: tunables.resolve_pocket_max_orders])
    scores = {o: _fit(stickers[rows[list(o)].ravel()], measured, tunables)[0][0] for o in promising | {orders[0]}}
    best = min(scores, key=lambda o: (scores[o], o != orders[0]))  # ties keep the order given
    return resolve_pocket({FACES[i]: rgb[FACES[j]] for i, j in enumerate(best)}, palette, tunables)
