"""Real cubes nearly as cheap as the best that show some sticker otherwise: each sticker's margin (its confidence)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from qbr.vision.resolve.pieces import CENTRE_SLOTS
from qbr.vision.resolve.search import Kind, best_by_parity, orient

Alternative = tuple[float, NDArray[np.intp]]  # how much dearer than the best, colour (face index) of each facelet


def _colouring(kinds: tuple[Kind, Kind], picks: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
               ) -> NDArray[np.intp]:
    """The colour of every facelet when each kind of piece is placed as (permutation, orientations) in ``picks``."""
    colours = np.zeros(54, dtype=np.intp)
    colours[CENTRE_SLOTS] = np.arange(6)
    for kind, (perm, orientation) in zip(kinds, picks, strict=True):
        colours[kind.slots] = kind.table[list(perm), list(orientation)]
    return colours


def find_alternatives(parity: int, kinds: tuple[Kind, Kind], max_nodes: int, cap: float) -> list[Alternative]:
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
            cost, new_orientation = orient(turned, modulus)
            add(cost + other.best[parity][0] - best_total, (perm, new_orientation), other.best[parity][1:])
            elsewhere = kind.costs.copy()
            elsewhere[r, perm[r], :] = np.inf
            for new_parity, (cost, new_perm, new_orientation) in best_by_parity(
                elsewhere, modulus, max_nodes, limit
            ).items():
                if new_parity in other.best:
                    add(cost + other.best[new_parity][0] - best_total, (new_perm, new_orientation),
                        other.best[new_parity][1:])
    return found


def margins(best: NDArray[np.intp], alternatives: list[Alternative], cap: float) -> NDArray[np.float64]:
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
