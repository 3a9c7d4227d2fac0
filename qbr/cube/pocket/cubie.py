"""The 2x2's cubie level: which corner piece sits at each position and how it is turned.

``cp[i]`` is the piece at position ``CORNER_NAMES[i]``, ``co[i]`` its twist (the index among that
position's facelets where the piece's U/D sticker shows; 1 is clockwise), as for the 3x3's corners.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final

from qbr.cube.conventions import CORNER_NAMES
from qbr.cube.cubie import corner_at
from qbr.cube.moves import Move, apply_to_facelets
from qbr.cube.pocket.conventions import CORNER_FACELETS, FACELET_COUNT, SIZE, SOLVED

_FIRST: Final = ((0, 1, 2),)
"""Where one corner's stickers are in a string of just its three letters."""


@functools.lru_cache(maxsize=4096)
def _corner_of(letters: str) -> tuple[int, int] | None:
    # The three letters read as one corner: the same rule as the 3x3's, remembered (there are few triples).
    return corner_at(letters, 0, _FIRST)


def pocket_corner_at(facelets: str, position: int) -> tuple[int, int] | None:
    """``(piece, twist)`` of the 2x2 corner at ``position``, or None if no real corner shows those letters."""
    a, b, c = CORNER_FACELETS[position]
    return _corner_of(facelets[a] + facelets[b] + facelets[c])


@dataclass(frozen=True)
class PocketCubie:
    """Corner permutation and orientation of a 2x2 (face letters fixed: the solved cube is ``SOLVED``)."""

    cp: tuple[int, ...] = tuple(range(8))
    co: tuple[int, ...] = (0,) * 8

    @classmethod
    def from_facelets(cls, facelets: str) -> PocketCubie:
        """Read the corners off 24 face letters; ValueError if a position shows no real corner or one repeats."""
        if len(facelets) != FACELET_COUNT:
            raise ValueError(f"a 2x2 facelet string has {FACELET_COUNT} letters, got {len(facelets)}")
        corners = [pocket_corner_at(facelets, i) for i in range(8)]
        found = [c for c in corners if c is not None]
        if len(found) != 8:
            raise ValueError("some position shows no real corner")
        cp = tuple(piece for piece, _ in found)
        if sorted(cp) != list(range(8)):
            raise ValueError("some corner appears twice")
        return cls(cp, tuple(twist for _, twist in found))

    @classmethod
    def of_move(cls, move: Move) -> PocketCubie:
        """What ``move`` does to the corners, read off the geometric facelet permutation."""
        return cls.from_facelets(apply_to_facelets(SOLVED, (move,), SIZE))

    def to_facelets(self) -> str:
        out = [""] * FACELET_COUNT
        for position, (piece, twist) in enumerate(zip(self.cp, self.co, strict=True)):
            for k, letter in enumerate(CORNER_NAMES[piece]):
                out[CORNER_FACELETS[position][(k + twist) % 3]] = letter
        return "".join(out)

    def multiply(self, other: PocketCubie) -> PocketCubie:
        """This arrangement followed by ``other``'s."""
        cp = tuple(self.cp[other.cp[i]] for i in range(8))
        co = tuple((self.co[other.cp[i]] + other.co[i]) % 3 for i in range(8))
        return PocketCubie(cp, co)

    def is_solvable(self) -> bool:
        """True iff face turns reach it from solved: a 2x2 has no parity constraint, only the twist sum."""
        return sorted(self.cp) == list(range(8)) and all(t in (0, 1, 2) for t in self.co) and sum(self.co) % 3 == 0
