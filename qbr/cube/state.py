"""An immutable cube state: the 54-letter facelet string, and moves applied to it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from qbr.cube.conventions import FACE_INDEX, SOLVED
from qbr.cube.moves import Move, apply_to_facelets, parse_moves


@dataclass(frozen=True)
class CubeState:
    """A facelet string (see ``conventions``); construction does not validate (``validate`` does)."""

    facelets: str

    @classmethod
    def solved(cls) -> CubeState:
        return cls(SOLVED)

    @classmethod
    def from_scramble(cls, text: str) -> CubeState:
        """The solved cube with the scramble ``text`` applied; raises ``MoveSyntaxError`` on a bad move."""
        return cls.solved().apply(text)

    def apply(self, moves: Iterable[Move] | str) -> CubeState:
        """The state after ``moves`` (a sequence, or text that is parsed)."""
        if isinstance(moves, str):
            moves = parse_moves(moves)
        return CubeState(apply_to_facelets(self.facelets, moves))

    @property
    def is_solved(self) -> bool:
        """Every face shows one colour (also true for a solved cube held in another orientation)."""
        f = self.facelets
        return len(f) == 54 and all(f[i : i + 9] == f[i] * 9 for i in range(0, 54, 9))

    def face(self, face: str) -> str:
        """The nine letters of ``face`` in net order."""
        if face not in FACE_INDEX:
            raise ValueError(f"no face {face!r}; faces are U R F D L B")
        start = 9 * FACE_INDEX[face]
        return self.facelets[start : start + 9]

    def __str__(self) -> str:
        return self.facelets
