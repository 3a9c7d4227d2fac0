"""Moves in standard (WCA / kociemba) notation, and what each does to the facelet string.

``U`` turns the up face clockwise as seen looking at it; ``x``, ``y`` and ``z`` turn the whole
cube as ``R``, ``U`` and ``F`` do. A move's facelet permutation is derived from geometry (``geometry``): every
sticker gets a 3D point, and the move rotates the points of the turning layer(s) a quarter turn. Any cube
size works (``size``; 3 unless said), and the outer layer is what a face turn turns.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from qbr.cube.conventions import FACES, OPPOSITE
from qbr.cube.errors import MoveSyntaxError
from qbr.cube.geometry import AXIS, along, point_index, quarter_clockwise

ROTATIONS: Final = ("x", "y", "z")
_ALL_FACES: Final = "URFDLBxyz"
_PRIMES: Final = frozenset("'’′")  # ASCII apostrophe, typographic apostrophe, prime sign
_SUFFIX: Final = {"": 1, "2": 2, "'": 3}

_ROTATION_FACE: Final = {"x": "R", "y": "U", "z": "F"}
"""The face each whole-cube rotation turns like."""


@dataclass(frozen=True, slots=True)
class Move:
    """One face turn or whole-cube rotation; ``turns`` is 1 (clockwise), 2 (half) or 3 (counter-clockwise)."""

    face: str
    turns: int

    def __post_init__(self) -> None:
        if self.face not in _ALL_FACES or len(self.face) != 1 or self.turns not in (1, 2, 3):
            raise ValueError(f"no move with face {self.face!r} and {self.turns!r} turns")

    def __str__(self) -> str:
        return self.face + ("", "", "2", "'")[self.turns]

    def inverse(self) -> Move:
        return Move(self.face, 4 - self.turns)

    @property
    def is_rotation(self) -> bool:
        return self.face in ROTATIONS

    @property
    def quarter_turns(self) -> int:
        """Quarter turns in the quarter-turn metric (0 for a rotation, which turns no layer)."""
        return 0 if self.is_rotation else (2 if self.turns == 2 else 1)


ALL_FACE_MOVES: Final = tuple(Move(face, turns) for face in FACES for turns in (1, 2, 3))
"""The 18 face turns: U U2 U' R R2 R' F F2 F' D D2 D' L L2 L' B B2 B'."""


def _tokens(text: str) -> list[str]:
    """Split into tokens: whitespace separates, and every letter starts a new token."""
    tokens: list[str] = []
    for chunk in text.split():
        current = ""
        for char in chunk:
            if char.isalpha() and current:
                tokens.append(current)
                current = ""
            current += char
        if current:
            tokens.append(current)
    return tokens


def _parse_token(token: str) -> Move | None:
    face, suffix = token[0], token[1:]
    if face not in _ALL_FACES:
        return None
    suffix = "".join("'" if c in _PRIMES else c for c in suffix)
    if suffix in _SUFFIX:
        return Move(face, _SUFFIX[suffix])
    if suffix in ("2'", "'2"):  # a half turn is the same either way round
        return Move(face, 2)
    return None


def parse_moves(text: str) -> tuple[Move, ...]:
    """Parse ``"R U2' F"`` or ``"RUR'U'"``; raises ``MoveSyntaxError`` naming the first bad token."""
    moves = []
    for position, token in enumerate(_tokens(text)):
        move = _parse_token(token)
        if move is None:
            raise MoveSyntaxError(token, position, text)
        moves.append(move)
    return tuple(moves)


def format_moves(moves: Iterable[Move]) -> str:
    return " ".join(str(m) for m in moves)


def invert(moves: Iterable[Move]) -> tuple[Move, ...]:
    """The sequence that undoes ``moves``."""
    return tuple(m.inverse() for m in reversed(tuple(moves)))


def htm(moves: Iterable[Move]) -> int:
    """Length in the half-turn metric (every face turn counts 1; rotations count 0)."""
    return sum(1 for m in moves if not m.is_rotation)


def qtm(moves: Iterable[Move]) -> int:
    """Length in the quarter-turn metric (a half turn counts 2)."""
    return sum(m.quarter_turns for m in moves)


def _axis_of(face: str) -> str:
    return face if face in ROTATIONS else min(face, OPPOSITE[face])


def simplify(moves: Iterable[Move]) -> tuple[Move, ...]:
    """Merge turns of the same face that meet, also across a turn of the opposite face (R L R -> R2 L)."""
    out: list[Move] = []
    for move in moves:
        # Turns on one axis commute, so look back through the run of moves on this move's axis.
        i = len(out) - 1
        while i >= 0 and _axis_of(out[i].face) == _axis_of(move.face) and out[i].face != move.face:
            i -= 1
        if i >= 0 and out[i].face == move.face:
            turns = (out[i].turns + move.turns) % 4
            if turns:
                out[i] = Move(move.face, turns)
            else:
                del out[i]
        else:
            out.append(move)
    return tuple(out)


@functools.cache
def facelet_permutation(move: Move, size: int = 3) -> tuple[int, ...]:
    """``perm`` with ``after = "".join(before[p] for p in perm)`` for ``move`` on a ``size`` cube."""
    index = point_index(size)
    face = _ROTATION_FACE.get(move.face, move.face)
    axis = AXIS[face]
    whole_cube = move.is_rotation
    perm = list(range(6 * size * size))
    for point, i in index.items():
        # The turning layer: stickers whose cubie lies on the face's side (its outer layer of cubies).
        if not whole_cube and along(axis, point) < size - 1:
            continue
        target = point
        for _ in range(move.turns):
            target = quarter_clockwise(axis, target)
        perm[index[target]] = i
    return tuple(perm)


def sequence_permutation(moves: Iterable[Move], size: int = 3) -> tuple[int, ...]:
    """The facelet permutation of a whole move sequence (same convention as ``facelet_permutation``)."""
    perm = tuple(range(6 * size * size))
    for move in moves:
        step = facelet_permutation(move, size)
        perm = tuple(perm[p] for p in step)
    return perm


def apply_to_facelets(facelets: str, moves: Iterable[Move], size: int = 3) -> str:
    """The facelet string of a ``size`` cube after ``moves`` (no validation of ``facelets`` beyond its length)."""
    count = 6 * size * size
    if len(facelets) != count:
        raise ValueError(f"a facelet string has {count} letters, got {len(facelets)}")
    for move in moves:
        facelets = "".join(_picker(move, size)(facelets))
    return facelets


@functools.cache
def _picker(move: Move, size: int) -> operator.itemgetter:
    """Picks the letters of a facelet string in ``move``'s permutation order (a C loop: several times faster)."""
    return operator.itemgetter(*facelet_permutation(move, size))
