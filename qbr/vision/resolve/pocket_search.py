"""The cheapest real 2x2 for a sticker x colour cost, exact over all 720 ways of giving the colours to the faces.

A dynamic programme over which corner pieces are placed and their twist so far, run for every colour-to-face map
at once; its forward and backward layers also give each sticker's margin (the cheapest real cube showing it in
another colour).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.typing import NDArray

from qbr.cube.conventions import CORNER_NAMES, FACE_INDEX
from qbr.cube.pocket.conventions import CORNER_FACELETS, FACELET_COUNT, REFERENCE_CORNER

_N = FACELET_COUNT
DBL = REFERENCE_CORNER
_FREE = tuple(p for p in range(8) if p != DBL)  # positions (and pieces) the search places
SLOTS = np.array(CORNER_FACELETS, dtype=np.intp)  # [position, slot] -> facelet index
# [piece, twist, slot] -> face index shown: a piece's colour j sits at slot (j + twist) % 3 (qbr.cube.cubie).
_SHOWS = np.array(
    [[[FACE_INDEX[name[(k - o) % 3]] for k in range(3)] for o in range(3)] for name in CORNER_NAMES], dtype=np.intp
)
_SCHEMES = np.array(list(itertools.permutations(range(6))), dtype=np.intp)  # [scheme, face] -> colour
# [scheme, piece, twist, slot] -> colour the piece shows at that slot under that scheme (free pieces only).
_SCHEME_SHOWS = _SCHEMES[:, _SHOWS[list(_FREE)]]
# [scheme, slot] -> colour the DBL position's (fixed, untwisted) DBL piece shows.
_DBL_SHOWS = _SCHEMES[:, _SHOWS[DBL, 0]]
# [scheme, oriented piece] -> the colour triple (a, b, c) as one index 36a + 6b + c, for the free pieces' 21 options.
_TRIPLES = (_SCHEME_SHOWS[..., 0] * 36 + _SCHEME_SHOWS[..., 1] * 6 + _SCHEME_SHOWS[..., 2]).reshape(len(_SCHEMES), -1)
_DBL_TRIPLE = _DBL_SHOWS[:, 0] * 36 + _DBL_SHOWS[:, 1] * 6 + _DBL_SHOWS[:, 2]
FULL = (1 << len(_FREE)) - 1
_POPCOUNT = np.array([bin(m).count("1") for m in range(FULL + 1)])
# Per number of pieces placed, the sets of placed pieces (bit masks over _FREE).
_LAYERS = [np.flatnonzero(k == _POPCOUNT) for k in range(len(_FREE) + 1)]
_FIRST_SCHEMES = 8  # schemes searched exactly first (by lower bound); real scans need 1-15 in all


# --- the exact search ------------------------------------------------------------------------------------------


def _triples(cost: NDArray[np.float64]) -> NDArray[np.float64]:
    """[position, colour triple 36a + 6b + c]: the cost of a corner position showing those colours."""
    slots = cost[SLOTS]  # [position, slot, colour]
    return (slots[:, 0, :, None, None] + slots[:, 1, None, :, None] + slots[:, 2, None, None, :]).reshape(8, -1)


def option_costs(cost: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """[scheme, position, piece, twist] cost of each free position's stickers, and [scheme] the DBL corner's."""
    triple = _triples(cost)
    options = triple[list(_FREE)][:, _TRIPLES]  # [position, scheme, oriented piece]
    options = options.reshape(len(_FREE), len(_SCHEMES), len(_FREE), 3).transpose(1, 0, 2, 3)
    return options, triple[DBL][_DBL_TRIPLE]


# [twist sum after, twist here] -> twist sum before: placing a piece with twist o takes sum t - o to t.
_BEFORE = (np.arange(3)[:, None] - np.arange(3)[None, :]) % 3


def _layers(options: NDArray[np.float64], positions: list[int]) -> list[NDArray[np.float64]]:
    """Layer k: [scheme, placed-pieces mask, twist sum] cheapest cost of placing ``positions[:k]``."""
    schemes, n = options.shape[0], len(_FREE)
    layer = np.full((schemes, FULL + 1, 3), np.inf)
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


def forward_layers(options: NDArray[np.float64]) -> list[NDArray[np.float64]]:
    """Layer k: [scheme, placed-pieces mask, twist sum] cheapest cost of the first k free positions."""
    return _layers(options, list(range(len(_FREE))))


def _backward(options: NDArray[np.float64]) -> list[NDArray[np.float64]]:
    """Layer k: [scheme, mask of pieces still free, twist sum] cheapest cost of free positions k.. with them."""
    return _layers(options, list(reversed(range(len(_FREE)))))[::-1]


def _trace(options: NDArray[np.float64], layers: list[NDArray[np.float64]], row: int, scheme: int) -> NDArray[np.intp]:
    """The colour of each facelet in the cheapest cube under ``scheme``, whose ``options`` and ``layers`` are at
    ``row`` (backtracking the forward layers)."""
    colours = np.zeros(_N, dtype=np.intp)
    colours[SLOTS[DBL]] = _DBL_SHOWS[scheme]
    mask, twist = FULL, 0
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
        colours[SLOTS[_FREE[p]]] = _SCHEME_SHOWS[scheme, q, o]
        mask, twist = mask ^ (1 << q), (twist - o) % 3
    return colours


def _bounds(options: NDArray[np.float64], dbl: NDArray[np.float64]) -> NDArray[np.float64]:
    """[scheme] a lower bound of the cheapest cube's cost: each position (or each piece) at its cheapest alone."""
    by_position = options.min(axis=(2, 3)).sum(axis=1)
    by_piece = options.min(axis=(1, 3)).sum(axis=1)
    return np.maximum(by_position, by_piece) + dbl


def _schemes_below(bounds: NDArray[np.float64], limit: float) -> NDArray[np.intp]:
    return np.flatnonzero(bounds < limit)


def solve(cost: NDArray[np.float64]) -> tuple[NDArray[np.intp], int, float]:
    """The cheapest real 2x2: colour of each facelet, the scheme (face -> colour) and its cost.

    The exact search runs only on the schemes whose lower bound could beat the best of the most promising few.
    """
    options, dbl = option_costs(cost)
    bounds = _bounds(options, dbl)
    first = np.argsort(bounds, kind="stable")[:_FIRST_SCHEMES]
    totals = np.full(len(bounds), np.inf)
    totals[first] = forward_layers(options[first])[-1][:, FULL, 0] + dbl[first]
    rest = np.setdiff1d(_schemes_below(bounds, float(totals.min())), first)
    if len(rest):
        totals[rest] = forward_layers(options[rest])[-1][:, FULL, 0] + dbl[rest]
    scheme = int(np.argmin(totals))
    layers = forward_layers(options[[scheme]])
    return _trace(options[[scheme]], layers, 0, scheme), scheme, float(totals[scheme])


def margins(cost: NDArray[np.float64], colours: NDArray[np.intp], best: float, cap: float) -> NDArray[np.float64]:
    """Per facelet: how much dearer the cheapest real cube is that shows it in another colour (at most ``cap``).

    Exact over the schemes that could come within ``cap`` of the best (the others cannot change a margin).
    """
    options, dbl = option_costs(cost)
    near = _schemes_below(_bounds(options, dbl), best + cap)
    options, dbl, shows, dbl_shows = options[near], dbl[near], _SCHEME_SHOWS[near], _DBL_SHOWS[near]
    forward, backward = forward_layers(options), _backward(options)
    n = len(_FREE)
    margin = np.full(_N, cap)
    totals = forward[-1][:, FULL, 0] + dbl
    for slot in range(3):
        other = dbl_shows[:, slot] != colours[SLOTS[DBL, slot]]
        if other.any():
            margin[SLOTS[DBL, slot]] = min(cap, float(totals[other].min()) - best)
    for p in range(n):
        masks = _LAYERS[p]
        # forced[scheme, piece, twist]: the cheapest cube with free position p holding that piece in that twist.
        forced = np.full((options.shape[0], n, 3), np.inf)
        for q in range(n):
            bit = 1 << q
            before = masks[(masks & bit) == 0]
            after = FULL ^ before ^ bit
            for o in range(3):
                # Twist r before, o here, and (-r - o) % 3 after make 0.
                rest = backward[p + 1][:, after, :][:, :, (-np.arange(3) - o) % 3]
                forced[:, q, o] = (forward[p][:, before, :] + rest).min(axis=(1, 2)) + options[:, p, q, o]
        forced += dbl[:, None, None]
        for slot in range(3):
            facelet = SLOTS[_FREE[p], slot]
            other = shows[..., slot] != colours[facelet]
            if other.any():
                margin[facelet] = min(cap, float(forced[other].min()) - best)
    return np.clip(margin, 0.0, cap)


def order_bound(cost: NDArray[np.float64]) -> float:
    """A lower bound of the cheapest real cube's cost over all schemes (``_bounds``)."""
    return float(_bounds(*option_costs(cost)).min())
