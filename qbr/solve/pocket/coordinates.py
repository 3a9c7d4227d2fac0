"""The normalised 2x2 as one integer: corner permutation x 729 + twist, and numpy tables of what each move does.

With the D-B-L corner home, the other seven corners take any of 7! = 5040 arrangements and any twists
adding up to 0 mod 3 (3^6 = 729), so 3,674,160 states, numbered 0 (solved) to ``STATES - 1``. The permutation
coordinate is the lexicographic rank of the seven corners' arrangement; the twist coordinate is the first six
twists in base 3 (the seventh follows). Only U, R and F turn (``MOVES``): they never move the D-B-L corner.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Final

import numpy as np

from qbr.cube.moves import Move
from qbr.cube.pocket.conventions import REFERENCE_CORNER
from qbr.cube.pocket.cubie import PocketCubie

MOVES: Final = tuple(Move(face, turns) for face in "URF" for turns in (1, 2, 3))
"""The nine turns of the normalised cube, in table-column order."""

QUARTER_MOVES: Final = tuple(i for i, m in enumerate(MOVES) if m.turns != 2)
"""Columns of ``MOVES`` that are quarter turns (for the quarter-turn metric)."""

POSITIONS: Final = tuple(p for p in range(8) if p != REFERENCE_CORNER)
"""The seven corner positions that move, in coordinate order."""

PERMUTATIONS: Final = math.factorial(len(POSITIONS))
TWISTS: Final = 3 ** (len(POSITIONS) - 1)
STATES: Final = PERMUTATIONS * TWISTS


def _rank_permutations(arrangements: np.ndarray) -> np.ndarray:
    """Lexicographic rank of each row (a permutation of 0..6)."""
    n = arrangements.shape[1]
    rank = np.zeros(len(arrangements), dtype=np.int64)
    for k in range(n - 1):
        smaller_after = (arrangements[:, k + 1 :] < arrangements[:, k : k + 1]).sum(axis=1)
        rank += smaller_after * math.factorial(n - 1 - k)
    return rank


def _rank_twists(twists: np.ndarray) -> np.ndarray:
    """Base-3 number of each row's first six twists."""
    weights = 3 ** np.arange(twists.shape[1] - 2, -1, -1)
    return twists[:, :-1] @ weights


def _all_twists() -> np.ndarray:
    """Every twist coordinate's seven twists, row ``t`` for coordinate ``t``."""
    first = np.array(list(itertools.product(range(3), repeat=len(POSITIONS) - 1)), dtype=np.int64)
    last = (-first.sum(axis=1)) % 3
    return np.column_stack([first, last])


@dataclass(frozen=True)
class MoveTables:
    """``perm[p, m]`` and ``twist[t, m]``: the coordinates after move ``MOVES[m]``."""

    perm: np.ndarray
    twist: np.ndarray

    @classmethod
    def build(cls) -> MoveTables:
        arrangements = np.array(list(itertools.permutations(range(len(POSITIONS)))), dtype=np.int64)
        twists = _all_twists()
        perm = np.empty((PERMUTATIONS, len(MOVES)), dtype=np.int32)
        twist = np.empty((TWISTS, len(MOVES)), dtype=np.int32)
        for column, move in enumerate(MOVES):
            cubie = PocketCubie.of_move(move)
            # After the move, position k holds what was at the position the move brings there, turned on.
            source = [POSITIONS.index(cubie.cp[p]) for p in POSITIONS]
            turn = np.array([cubie.co[p] for p in POSITIONS], dtype=np.int64)
            perm[:, column] = _rank_permutations(arrangements[:, source])
            twist[:, column] = _rank_twists((twists[:, source] + turn) % 3)
        return cls(perm, twist)

    def neighbours(self, states: np.ndarray, columns: tuple[int, ...] | None = None) -> np.ndarray:
        """``(len(states), moves)`` state indices one move away (all nine moves, or ``columns``)."""
        p, t = np.divmod(states, TWISTS)
        perm, twist = (self.perm, self.twist) if columns is None else (self.perm[:, columns], self.twist[:, columns])
        return perm[p] * TWISTS + twist[t]


def coordinate(cubie: PocketCubie) -> int:
    """The state index of a normalised arrangement (D-B-L corner home and unturned)."""
    if cubie.cp[REFERENCE_CORNER] != REFERENCE_CORNER or cubie.co[REFERENCE_CORNER] != 0:
        raise ValueError("the D-B-L corner is not home: normalise the cube first")
    pieces = [POSITIONS.index(cubie.cp[p]) for p in POSITIONS]
    perm = 0
    for k, piece in enumerate(pieces):
        perm += sum(1 for later in pieces[k + 1 :] if later < piece) * math.factorial(len(pieces) - 1 - k)
    twist = 0
    for p in POSITIONS[:-1]:
        twist = 3 * twist + cubie.co[p]
    return perm * TWISTS + twist
