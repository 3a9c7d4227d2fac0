"""Pruning tables: for a pair of coordinates, the fewest turns that solve both (a lower bound for the phase).

Each is a breadth-first search over the pair's product space, one whole distance layer per numpy step.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from qbr.solve.twophase.cubies import PHASE2_MOVES
from qbr.solve.twophase.move_tables import MoveTables

UNSEEN = -1


@dataclass(frozen=True)
class PruningTables:
    """Distances (int8) indexed ``a * size_of_b + b``: phase 1 twist x slice, flip x slice and twist x flip (the
    third halves phase 1's nodes), phase 2 corner permutation x slice permutation and U/D edge permutation x slice
    permutation."""

    twist_slice: np.ndarray
    flip_slice: np.ndarray
    twist_flip: np.ndarray
    cperm_sperm: np.ndarray
    eperm_sperm: np.ndarray


def pair_distances(table_a: np.ndarray, table_b: np.ndarray, solved_a: int, solved_b: int) -> np.ndarray:
    """Distance from (``solved_a``, ``solved_b``) of every pair, with the moves that are the tables' columns."""
    size_b = table_b.shape[0]
    distance = np.full(table_a.shape[0] * size_b, UNSEEN, dtype=np.int8)
    frontier = np.array([solved_a * size_b + solved_b], dtype=np.int64)
    distance[frontier] = 0
    depth = 0
    while True:
        unseen = np.flatnonzero(distance == UNSEEN)
        if not len(unseen):
            return distance
        if len(frontier) <= len(unseen):
            # Forward: everything one turn from the frontier that has no distance yet.
            a, b = np.divmod(frontier, size_b)
            children = (table_a[a].astype(np.int64) * size_b + table_b[b]).ravel()
            distance[children[distance[children] == UNSEEN]] = depth + 1
        else:
            # Backward, once most pairs are seen: an unseen pair one turn from the frontier (the move set is
            # closed under inverses) is at the next distance.
            a, b = np.divmod(unseen, size_b)
            neighbours = table_a[a].astype(np.int64) * size_b + table_b[b]
            distance[unseen[(distance[neighbours] == depth).any(axis=1)]] = depth + 1
        depth += 1
        frontier = np.flatnonzero(distance == depth)
    return distance


def build_pruning_tables(moves: MoveTables, solved: dict[str, int]) -> PruningTables:
    return PruningTables(
        twist_slice=pair_distances(moves.twist, moves.slice, solved["twist"], solved["slice"]),
        flip_slice=pair_distances(moves.flip, moves.slice, solved["flip"], solved["slice"]),
        twist_flip=pair_distances(moves.twist, moves.flip, solved["twist"], solved["flip"]),
        cperm_sperm=pair_distances(moves.cperm[:, list(PHASE2_MOVES)], moves.sperm, solved["cperm"], solved["sperm"]),
        eperm_sperm=pair_distances(moves.eperm, moves.sperm, solved["eperm"], solved["sperm"]),
    )

