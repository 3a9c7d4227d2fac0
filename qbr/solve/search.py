"""Optimal solutions for cubes a few face turns from solved, by meeting in the middle.

A table holds every state within ``TABLE_DEPTH`` turns of solved with its distance and the first move of a
shortest way home. A search of up to ``max_depth - TABLE_DEPTH`` turns from the given cube then finds where it
meets the table; the shortest meeting is an optimal solution (every shortest sequence splits that way).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from operator import itemgetter
from typing import Final

from qbr.cube.conventions import FACES, OPPOSITE, SOLVED
from qbr.cube.moves import ALL_FACE_MOVES, Move, facelet_permutation

TABLE_DEPTH: Final = 4
"""States within this many turns of solved are tabled (46,741 of them; about 0.2 s to build)."""

MAX_DEPTH: Final = 7
"""Default reach of ``optimal_solution``: the table's depth plus a 3-turn search from the cube."""

_BUILD_LOCK: Final = threading.Lock()

_Step = tuple[Move, Callable[[str], tuple[str, ...]]]


def _allowed_after(previous: str | None, face: str) -> bool:
    """Canonical order: never the same face twice, and opposite faces only in URFDLB order."""
    if previous is None:
        return True
    if face == previous:
        return False
    return not (OPPOSITE[face] == previous and FACES.index(face) < FACES.index(previous))


@functools.cache
def _steps() -> tuple[_Step, ...]:
    # itemgetter over the permutation applies a move to a facelet string in one C call.
    return tuple((move, itemgetter(*facelet_permutation(move))) for move in ALL_FACE_MOVES)


def _frontier(facelets: str, depth: int) -> list[tuple[str, tuple[Move, ...]]]:
    """Every state exactly ``depth`` canonical face turns from ``facelets``, with the turns that reach it."""
    level: list[tuple[str, tuple[Move, ...], str | None]] = [(facelets, (), None)]
    for _ in range(depth):
        level = [
            ("".join(getter(state)), (*moves, move), move.face)
            for state, moves, previous in level
            for move, getter in _steps()
            if _allowed_after(previous, move.face)
        ]
    return [(state, moves) for state, moves, _ in level]


@functools.cache
def _build_table(depth: int) -> dict[str, tuple[int, Move | None]]:
    table: dict[str, tuple[int, Move | None]] = {SOLVED: (0, None)}
    frontier = [(SOLVED, None)]
    for distance in range(1, depth + 1):
        next_frontier = []
        for state, last_face in frontier:
            for move, getter in _steps():
                if not _allowed_after(last_face, move.face):
                    continue
                child = "".join(getter(state))
                if child not in table:
                    # Undoing the move that reached the child is its first step home.
                    table[child] = (distance, move.inverse())
                    next_frontier.append((child, move.face))
        frontier = next_frontier
    return table


def distance_table(depth: int = TABLE_DEPTH) -> dict[str, tuple[int, Move | None]]:
    """State -> (distance from solved, first move of a shortest solution); built once, on first use."""
    with _BUILD_LOCK:
        return _build_table(depth)


def _path_home(facelets: str, table: dict[str, tuple[int, Move | None]]) -> tuple[Move, ...]:
    moves: list[Move] = []
    step = dict(_steps())
    while True:
        _, move = table[facelets]
        if move is None:
            return tuple(moves)
        moves.append(move)
        facelets = "".join(step[move](facelets))


def optimal_solution(facelets: str, max_depth: int = MAX_DEPTH) -> tuple[Move, ...] | None:
    """A shortest sequence of face turns (HTM) that solves ``facelets``, or None if it needs more than ``max_depth``.

    ``facelets`` must be a valid cube in the standard orientation (centres in place).
    """
    table_depth = min(TABLE_DEPTH, max_depth)
    table = distance_table(table_depth)
    if facelets in table:
        return _path_home(facelets, table)
    # Further than the table: a shortest solution of length L passes, after its first (max_depth - table_depth)
    # turns, a state L - that far from solved; so only the states exactly that far out need looking up.
    best: tuple[int, str, tuple[Move, ...]] | None = None
    for state, moves in _frontier(facelets, max_depth - table_depth):
        hit = table.get(state)
        if hit is not None and (best is None or hit[0] < best[0]):
            best = (hit[0], state, moves)
    if best is None:
        return None
    _, meeting, prefix = best
    return prefix + _path_home(meeting, table)
