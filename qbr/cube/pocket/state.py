"""An immutable 2x2 state: the 24-letter facelet string, and moves applied to it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from qbr.cube.conventions import FACE_INDEX
from qbr.cube.moves import Move, apply_to_facelets, parse_moves
from qbr.cube.pocket.conventions import FACELET_COUNT, SIZE, SOLVED, STICKERS_PER_FACE


@dataclass(frozen=True)
class PocketState:
    """A 2x2 facelet string (see ``pocket.conventions``); construction does not validate (``pocket.validate`` does)."""

    facelets: str

    @classmethod
    def solved(cls) -> PocketState:
        return cls(SOLVED)

    @classmethod
    def from_scramble(cls, text: str) -> PocketState:
        """The solved cube with the scramble ``text`` applied; raises ``MoveSyntaxError`` on a bad move."""
        return cls.solved().apply(text)

    def apply(self, moves: Iterable[Move] | str) -> PocketState:
        """The state after ``moves`` (a sequence, or text that is parsed)."""
        if isinstance(moves, str):
            moves = parse_moves(moves)
        return PocketState(apply_to_facelets(self.facelets, moves, SIZE))

    @property
    def is_solved(self) -> bool:
        """Every face shows one colour (however the cube is held)."""
        f, n = self.facelets, STICKERS_PER_FACE
        return len(f) == FACELET_COUNT and all(f[i : i + n] == f[i] * n for i in range(0, FACELET_COUNT, n))

    def face(self, face: str) -> str:
        """The four letters of ``face`` in net order."""
        if face not in FACE_INDEX:
            raise ValueError(f"no face {face!r}; faces are U R F D L B")
        start = STICKERS_PER_FACE * FACE_INDEX[face]
        return self.facelets[start : start + STICKERS_PER_FACE]

    def __str__(self) -> str:
        return self.facelets
