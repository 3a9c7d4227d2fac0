"""Kociemba's coordinates: each a number that names one aspect of a cube, computed for whole batches at once.

Phase 1 (reach the subgroup where U/D stickers face U/D and the middle-layer edges are in the middle layer):
twist (2187), flip (2048), UD-slice (495, which 4 positions hold middle-layer edges). Phase 2 (solve within it
with U, D and half turns of the sides): corner permutation (40320), U/D edge permutation (40320), slice
permutation (24). Every ``*_of`` takes a :class:`Cubies` batch and returns one int32 per cube; every ``*_cubies``
returns, for every value of the coordinate, a batch of cubes that has it (the other pieces solved).
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from qbr.solve.twophase.cubies import Cubies

N_TWIST = 3**7
N_FLIP = 2**11
N_SLICE = math.comb(12, 4)
N_CPERM = math.factorial(8)
N_EPERM = math.factorial(8)
N_SPERM = math.factorial(4)
N_SLICE_SORTED = N_SLICE * N_SPERM

SLICE_PIECES = 8
"""Edge pieces 8-11 (FR FL BL BR) belong in the UD slice."""


def _powers(base: int, digits: int) -> np.ndarray:
    return base ** np.arange(digits - 1, -1, -1, dtype=np.int32)


def twist_of(cubes: Cubies) -> np.ndarray:
    return cubes.co[:, :7].astype(np.int32) @ _powers(3, 7)


def flip_of(cubes: Cubies) -> np.ndarray:
    return cubes.eo[:, :11].astype(np.int32) @ _powers(2, 11)


@functools.cache
def _slice_masks() -> tuple[np.ndarray, np.ndarray]:
    """The 495 bit masks of four edge positions (sorted), and mask -> coordinate (-1 where not four bits)."""
    masks = np.array(sorted(sum(1 << p for p in c) for c in itertools.combinations(range(12), 4)), dtype=np.int32)
    rank = np.full(1 << 12, -1, dtype=np.int32)
    rank[masks] = np.arange(len(masks), dtype=np.int32)
    return masks, rank


def slice_of(cubes: Cubies) -> np.ndarray:
    occupied = (cubes.ep >= SLICE_PIECES).astype(np.int32)
    return _slice_masks()[1][occupied @ (1 << np.arange(12, dtype=np.int32))]


@functools.cache
def permutations(n: int) -> np.ndarray:
    """Every permutation of ``range(n)`` in lexicographic order: row ``k`` has rank ``k``."""
    return np.array(list(itertools.permutations(range(n))), dtype=np.int8)


def rank(perms: np.ndarray) -> np.ndarray:
    """Lexicographic rank of each row, a permutation of ``range(width)`` (the Lehmer code read as a number)."""
    n = perms.shape[1]
    p = perms.astype(np.int16)
    # Lehmer digit i: how many later entries are smaller than entry i.
    later_smaller = np.triu(p[:, None, :] < p[:, :, None], k=1).sum(axis=2)
    weights = np.array([math.factorial(n - 1 - i) for i in range(n)], dtype=np.int32)
    return later_smaller.astype(np.int32) @ weights


def cperm_of(cubes: Cubies) -> np.ndarray:
    return rank(cubes.cp)


def eperm_of(cubes: Cubies) -> np.ndarray:
    """Rank of the pieces at positions 0-7; meaningful in phase 2, where they are the U/D edges."""
    return rank(cubes.ep[:, :8])


def sperm_of(cubes: Cubies) -> np.ndarray:
    """Rank of the pieces at positions 8-11; meaningful in phase 2, where they are the slice edges."""
    return rank(cubes.ep[:, 8:] - SLICE_PIECES)


def placed_of(cubes: Cubies, first: int) -> np.ndarray:
    """Where the four edge pieces ``first``..``first + 3`` are and in which order (11,880 values): the rank of
    their four positions among the 495, times 24, plus the rank of the pieces read in position order.

    Followed through phase 1 with move tables, these give phase 2's coordinates without rebuilding the cube:
    for the slice pieces (8) the remainder mod 24 is ``sperm_of``; those of pieces 0 and 4 give ``eperm_of``.
    """
    group = (cubes.ep >= first) & (cubes.ep < first + 4)
    mask = group.astype(np.int32) @ (1 << np.arange(12, dtype=np.int32))
    # Stable sort moves the group's positions to the end, in position order.
    slots = np.argsort(group, axis=1, kind="stable")[:, 8:]
    pieces = np.take_along_axis(cubes.ep, slots, axis=1) - first
    return _slice_masks()[1][mask] * N_SPERM + rank(pieces)


def slice_sorted_of(cubes: Cubies) -> np.ndarray:
    return placed_of(cubes, SLICE_PIECES)


def u_edges_of(cubes: Cubies) -> np.ndarray:
    return placed_of(cubes, 0)


def d_edges_of(cubes: Cubies) -> np.ndarray:
    return placed_of(cubes, 4)


def _solved(n: int) -> Cubies:
    return Cubies(
        np.tile(np.arange(8, dtype=np.int8), (n, 1)),
        np.zeros((n, 8), dtype=np.int8),
        np.tile(np.arange(12, dtype=np.int8), (n, 1)),
        np.zeros((n, 12), dtype=np.int8),
    )


def _digits(values: np.ndarray, base: int, count: int) -> np.ndarray:
    return (values[:, None] // _powers(base, count)[None, :]) % base


def twist_cubies() -> Cubies:
    cubes = _solved(N_TWIST)
    co = _digits(np.arange(N_TWIST), 3, 7)
    last = -co.sum(axis=1) % 3
    return Cubies(cubes.cp, np.concatenate([co, last[:, None]], axis=1).astype(np.int8), cubes.ep, cubes.eo)


def flip_cubies() -> Cubies:
    cubes = _solved(N_FLIP)
    eo = _digits(np.arange(N_FLIP), 2, 11)
    last = eo.sum(axis=1) % 2
    return Cubies(cubes.cp, cubes.co, cubes.ep, np.concatenate([eo, last[:, None]], axis=1).astype(np.int8))


def slice_cubies() -> Cubies:
    """For each slice coordinate, a cube with middle-layer edges on those positions (in some order)."""
    cubes = _solved(N_SLICE)
    in_slice = (_slice_masks()[0][:, None] >> np.arange(12)) & 1
    # Stable sort puts the 8 other positions first, then the 4 slice positions: they get pieces 0-7, then 8-11.
    order = np.argsort(in_slice, axis=1, kind="stable")
    ep = np.empty((N_SLICE, 12), dtype=np.int8)
    np.put_along_axis(ep, order, np.arange(12, dtype=np.int8)[None, :].repeat(N_SLICE, axis=0), axis=1)
    return Cubies(cubes.cp, cubes.co, ep, cubes.eo)


def cperm_cubies() -> Cubies:
    cubes = _solved(N_CPERM)
    return Cubies(permutations(8), cubes.co, cubes.ep, cubes.eo)


def eperm_cubies() -> Cubies:
    cubes = _solved(N_EPERM)
    ep = np.concatenate([permutations(8), cubes.ep[:, 8:]], axis=1)
    return Cubies(cubes.cp, cubes.co, ep, cubes.eo)


def sperm_cubies() -> Cubies:
    cubes = _solved(N_SPERM)
    ep = np.concatenate([cubes.ep[:, :8], permutations(4) + SLICE_PIECES], axis=1).astype(np.int8)
    return Cubies(cubes.cp, cubes.co, ep, cubes.eo)


def placed_cubies(first: int) -> Cubies:
    """For each ``placed_of(cubes, first)`` value, a cube with those four pieces so placed."""
    masks = _slice_masks()[0]
    n = N_SLICE_SORTED
    group = ((np.repeat(masks, N_SPERM)[:, None] >> np.arange(12)) & 1).astype(bool)
    slots = np.argsort(group, axis=1, kind="stable")
    others = [p for p in range(12) if not first <= p < first + 4]
    ep = np.empty((n, 12), dtype=np.int8)
    np.put_along_axis(ep, slots[:, :8], np.array(others, dtype=np.int8)[None, :].repeat(n, axis=0), axis=1)
    pieces = (np.tile(permutations(4), (N_SLICE, 1)) + first).astype(np.int8)
    np.put_along_axis(ep, slots[:, 8:], pieces, axis=1)
    cubes = _solved(n)
    return Cubies(cubes.cp, cubes.co, ep, cubes.eo)


def slice_sorted_cubies() -> Cubies:
    return placed_cubies(SLICE_PIECES)


def u_edges_cubies() -> Cubies:
    return placed_cubies(0)


def d_edges_cubies() -> Cubies:
    return placed_cubies(4)


def eperm_from_placed() -> np.ndarray:
    """``table[u_edges * 24 + d_edges % 24]`` is ``eperm`` for a cube in phase 2's subgroup (-1 elsewhere)."""
    cubes = eperm_cubies()
    table = np.full(N_SLICE_SORTED * N_SPERM, -1, dtype=np.int32)
    table[u_edges_of(cubes) * N_SPERM + d_edges_of(cubes) % N_SPERM] = np.arange(N_EPERM, dtype=np.int32)
    return table
