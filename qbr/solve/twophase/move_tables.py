"""Move tables: ``table[c, k]`` is the coordinate after turn ``k`` from any cube whose coordinate is ``c``.

Built in one vectorised pass per coordinate: every value's representative cube, turned by every move, read back.
Phase 2's permutation tables have one column per turn of ``PHASE2_MOVES`` (the others leave the subgroup).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from qbr.solve.twophase import coordinates as co
from qbr.solve.twophase.cubies import MOVES, PHASE2_MOVES, Cubies


@dataclass(frozen=True)
class MoveTables:
    """One move table per coordinate (int32: the search indexes and multiplies with them without widening)."""

    twist: np.ndarray
    flip: np.ndarray
    slice: np.ndarray
    cperm: np.ndarray
    eperm: np.ndarray
    sperm: np.ndarray
    slice_sorted: np.ndarray
    u_edges: np.ndarray
    d_edges: np.ndarray
    eperm_from_placed: np.ndarray
    """Not a move table: U/D edge permutation from ``u_edges * 24 + d_edges % 24`` in phase 2."""


def _table(cubes: Cubies, coordinate: Callable[[Cubies], np.ndarray], moves: tuple[int, ...]) -> np.ndarray:
    n = len(cubes.cp)
    index = np.repeat(np.arange(n), len(moves))
    turned = cubes.take(index).turned(np.tile(np.array(moves), n))
    return coordinate(turned).reshape(n, len(moves)).astype(np.int32)


def build_move_tables() -> MoveTables:
    every = tuple(range(len(MOVES)))
    return MoveTables(
        twist=_table(co.twist_cubies(), co.twist_of, every),
        flip=_table(co.flip_cubies(), co.flip_of, every),
        slice=_table(co.slice_cubies(), co.slice_of, every),
        cperm=_table(co.cperm_cubies(), co.cperm_of, every),
        eperm=_table(co.eperm_cubies(), co.eperm_of, PHASE2_MOVES),
        sperm=_table(co.sperm_cubies(), co.sperm_of, PHASE2_MOVES),
        slice_sorted=_table(co.slice_sorted_cubies(), co.slice_sorted_of, every),
        u_edges=_table(co.u_edges_cubies(), co.u_edges_of, every),
        d_edges=_table(co.d_edges_cubies(), co.d_edges_of, every),
        eperm_from_placed=co.eperm_from_placed(),
    )
