"""Every cube within a few turns of solved, by a key of its full state, with its exact distance.

A cube is fully named by twist, flip, corner permutation and where the U, D and slice edges are (and in which
order). Those six coordinates are folded into one 64-bit key; two different cubes might share a key, which can
only make a looked-up distance smaller than the truth (the table keeps the smaller one), so it stays a valid lower
bound for IDA*, and every solution is checked on the real cube anyway.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from qbr.solve.twophase import coordinates as co
from qbr.solve.twophase.move_tables import MoveTables

DEPTH = 5
"""Cubes up to this many turns out are tabled (621,649 of them; about a second to build)."""

_MIX = np.uint64(0x9E3779B97F4A7C15)
"""An odd 64-bit constant (the golden ratio's bits) that spreads one half of the key over the other."""

FULL_STATE = ("twist", "flip", "cperm", "u_edges", "d_edges", "slice_sorted")
"""The coordinates that together name a cube (the key's inputs, in this order)."""


def key(twist: np.ndarray, flip: np.ndarray, cperm: np.ndarray, u_edges: np.ndarray, d_edges: np.ndarray,
        slice_sorted: np.ndarray) -> np.ndarray:
    corners_and_orientation = (twist.astype(np.uint64) * np.uint64(co.N_FLIP) + flip.astype(np.uint64)) * np.uint64(
        co.N_CPERM
    ) + cperm.astype(np.uint64)
    edges = (u_edges.astype(np.uint64) * np.uint64(co.N_SLICE_SORTED) + d_edges.astype(np.uint64)) * np.uint64(
        co.N_SPERM
    ) + (slice_sorted % co.N_SPERM).astype(np.uint64)
    return corners_and_orientation * _MIX + edges


@dataclass(frozen=True)
class NearTable:
    keys: np.ndarray
    """Sorted uint64 keys."""
    distance: np.ndarray
    """int8 distance of ``keys[i]``."""

    def lookup(self, keys: np.ndarray) -> np.ndarray:
        """Distance of each key's cube, or ``DEPTH + 1`` (a lower bound) where it is not tabled."""
        at = np.searchsorted(self.keys, keys)
        at = np.minimum(at, len(self.keys) - 1)
        return np.where(self.keys[at] == keys, self.distance[at], DEPTH + 1).astype(np.int8)


def build_near_table(moves: MoveTables, solved: dict[str, int], depth: int = DEPTH) -> NearTable:
    tables = [getattr(moves, name) for name in FULL_STATE]
    frontier = np.array([[solved[name]] for name in FULL_STATE], dtype=np.int32)
    keys = [key(*frontier)]
    distances = [np.zeros(1, dtype=np.int8)]
    seen = keys[0]
    for distance in range(1, depth + 1):
        children = np.stack([t[row].ravel() for t, row in zip(tables, frontier, strict=True)])
        child_keys = key(*children)
        fresh_keys, first = np.unique(child_keys, return_index=True)
        new = ~np.isin(fresh_keys, seen, assume_unique=True)
        frontier = children[:, first[new]]
        keys.append(fresh_keys[new])
        distances.append(np.full(int(new.sum()), distance, dtype=np.int8))
        seen = np.union1d(seen, fresh_keys[new])
    all_keys = np.concatenate(keys)
    order = np.argsort(all_keys, kind="stable")
    return NearTable(all_keys[order], np.concatenate(distances)[order])
