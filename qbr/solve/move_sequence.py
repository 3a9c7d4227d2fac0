"""What every solution says of its moves, whatever engine found it: lengths in both metrics and its notation."""

from __future__ import annotations

from qbr.cube.moves import Move, format_moves, htm, qtm


class MoveSequence:
    """Mixed into a solution dataclass that has ``moves``: its lengths and notation, derived, never stored."""

    moves: tuple[Move, ...]

    @property
    def length_htm(self) -> int:
        return htm(self.moves)

    @property
    def length_qtm(self) -> int:
        return qtm(self.moves)

    @property
    def notation(self) -> str:
        return format_moves(self.moves)
