"""The cubie level: which piece sits at each corner and edge position, and how it is turned.

``cp[i]`` is the corner piece at position ``CORNER_NAMES[i]``; ``co[i]`` its twist, the index among
that position's facelets (U/D first, then clockwise) where the piece's U/D sticker shows, so 1 means
twisted clockwise. ``ep``/``eo`` likewise for edges (``eo`` 1: flipped). ``a.multiply(b)`` is
``a`` followed by ``b``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from qbr.cube.conventions import CORNER_FACELETS, CORNER_NAMES, EDGE_FACELETS, EDGE_NAMES, SOLVED


def corner_at(
    facelets: str, position: int, corner_facelets: tuple[tuple[int, ...], ...] = CORNER_FACELETS
) -> tuple[int, int] | None:
    """``(piece, twist)`` of the corner at ``position``, or None if no real corner shows those colours.

    ``corner_facelets`` says where each corner's stickers are (the 3x3's unless given: the 2x2 passes its own).
    """
    colours = [facelets[i] for i in corner_facelets[position]]
    twists = [k for k, c in enumerate(colours) if c in "UD"]
    if len(twists) != 1:
        return None
    twist = twists[0]
    # Read clockwise from the U/D sticker; a mirror-image corner has its side colours the wrong way round.
    turned = colours[twist] + colours[(twist + 1) % 3] + colours[(twist + 2) % 3]
    if turned not in CORNER_NAMES:
        return None
    return CORNER_NAMES.index(turned), twist


def edge_at(facelets: str, position: int) -> tuple[int, int] | None:
    """``(piece, flip)`` of the edge at ``position``, or None if no real edge shows those colours."""
    a, b = (facelets[i] for i in EDGE_FACELETS[position])
    if a + b in EDGE_NAMES:
        return EDGE_NAMES.index(a + b), 0
    if b + a in EDGE_NAMES:
        return EDGE_NAMES.index(b + a), 1
    return None


def permutation_parity(perm: Sequence[int]) -> int:
    """0 for an even permutation, 1 for an odd one (counted by cycles)."""
    seen = [False] * len(perm)
    parity = 0
    for start in range(len(perm)):
        length = 0
        i = start
        while not seen[i]:
            seen[i] = True
            i = perm[i]
            length += 1
        if length:
            parity ^= (length - 1) & 1
    return parity


@dataclass(frozen=True)
class CubieCube:
    """Corner and edge permutation and orientation (kociemba's cubie level)."""

    cp: tuple[int, ...] = tuple(range(8))
    co: tuple[int, ...] = (0,) * 8
    ep: tuple[int, ...] = tuple(range(12))
    eo: tuple[int, ...] = (0,) * 12

    @classmethod
    def from_facelets(cls, facelets: str) -> CubieCube:
        """Read pieces off a facelet string; ValueError if a position shows no real piece or a piece is missing."""
        if len(facelets) != 54:
            raise ValueError(f"a facelet string has 54 letters, got {len(facelets)}")
        corners = [corner_at(facelets, i) for i in range(8)]
        edges = [edge_at(facelets, i) for i in range(12)]
        if any(c is None for c in corners) or any(e is None for e in edges):
            raise ValueError("some position shows no real piece")
        cp = tuple(c[0] for c in corners if c is not None)
        ep = tuple(e[0] for e in edges if e is not None)
        if sorted(cp) != list(range(8)) or sorted(ep) != list(range(12)):
            raise ValueError("some piece appears twice")
        co = tuple(c[1] for c in corners if c is not None)
        eo = tuple(e[1] for e in edges if e is not None)
        return cls(cp, co, ep, eo)

    def to_facelets(self) -> str:
        """The facelet string with centres in their home places."""
        out = list(SOLVED)
        for position, (piece, twist) in enumerate(zip(self.cp, self.co, strict=True)):
            for k, letter in enumerate(CORNER_NAMES[piece]):
                out[CORNER_FACELETS[position][(k + twist) % 3]] = letter
        for position, (piece, flip) in enumerate(zip(self.ep, self.eo, strict=True)):
            for k, letter in enumerate(EDGE_NAMES[piece]):
                out[EDGE_FACELETS[position][(k + flip) % 2]] = letter
        return "".join(out)

    def multiply(self, other: CubieCube) -> CubieCube:
        """This cube's arrangement followed by ``other``'s (``other`` as a move applied to ``self``)."""
        cp = tuple(self.cp[other.cp[i]] for i in range(8))
        co = tuple((self.co[other.cp[i]] + other.co[i]) % 3 for i in range(8))
        ep = tuple(self.ep[other.ep[i]] for i in range(12))
        eo = tuple((self.eo[other.ep[i]] + other.eo[i]) % 2 for i in range(12))
        return CubieCube(cp, co, ep, eo)

    def corner_parity(self) -> int:
        return permutation_parity(self.cp)

    def edge_parity(self) -> int:
        return permutation_parity(self.ep)

    def is_solvable(self) -> bool:
        """True iff some sequence of moves reaches this arrangement from solved."""
        return (
            sorted(self.cp) == list(range(8))
            and sorted(self.ep) == list(range(12))
            and all(t in (0, 1, 2) for t in self.co)
            and all(f in (0, 1) for f in self.eo)
            and sum(self.co) % 3 == 0
            and sum(self.eo) % 2 == 0
            and self.corner_parity() == self.edge_parity()
        )
