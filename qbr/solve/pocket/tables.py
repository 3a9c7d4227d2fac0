"""Complete distance tables of the normalised 2x2: moves to solved for every one of the 3,674,160 states.

Built breadth first, a whole layer at a time with numpy. While the frontier is smaller than what is left
unseen, each frontier state's neighbours are marked (forward); once most states are seen, each unseen state
looks for a neighbour in the frontier instead (backward), which is much less work for the last layers.
The moves are closed under inverses, so a state's neighbours are also its predecessors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np

from qbr.solve.pocket.coordinates import QUARTER_MOVES, STATES, MoveTables

UNSEEN: Final = 255


def distances(tables: MoveTables, columns: tuple[int, ...] | None = None) -> np.ndarray:
    """Distance of every state from solved (uint8) using all nine moves, or only the move ``columns``."""
    dist = np.full(STATES, UNSEEN, dtype=np.uint8)
    dist[0] = 0
    frontier = np.zeros(1, dtype=np.int64)
    unseen = STATES - 1
    depth = 0
    while len(frontier) and unseen:
        if len(frontier) <= unseen:
            reached = tables.neighbours(frontier, columns).ravel()
            reached = reached[dist[reached] == UNSEEN]
            dist[reached] = depth + 1
            frontier = np.flatnonzero(dist == depth + 1)
        else:
            candidates = np.flatnonzero(dist == UNSEEN)
            hit = (dist[tables.neighbours(candidates, columns)] == depth).any(axis=1)
            frontier = candidates[hit]
            dist[frontier] = depth + 1
        unseen -= len(frontier)
        depth += 1
    return dist


@dataclass(frozen=True)
class DistanceTables:
    """The move tables and the half-turn distance of every state (the quarter-turn one on request)."""

    moves: MoveTables
    htm: np.ndarray

    @classmethod
    def build(cls) -> DistanceTables:
        moves = MoveTables.build()
        return cls(moves, distances(moves))

    def quarter_turn_distances(self) -> np.ndarray:
        """Distance of every state in the quarter-turn metric (a second breadth-first search)."""
        return distances(self.moves, QUARTER_MOVES)


def histogram(dist: np.ndarray) -> list[int]:
    """How many states lie at each distance, from 0 to the largest."""
    return np.bincount(dist[dist != UNSEEN]).tolist()
