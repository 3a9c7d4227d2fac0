"""Facelet conventions of the 2x2x2 cube: the 3x3's net rules with four stickers a face.

A state is a string of 24 facelets, faces in the order U R F D L B, each face row-major as seen
in the standard net (U with B at the top, D with F at the top, side faces with U at the top)::

             +-------+
             | U1 U2 |
             | U3 U4 |
     +-------+-------+-------+-------+
     | L1 L2 | F1 F2 | R1 R2 | B1 B2 |
     | L3 L4 | F3 F4 | R3 R4 | B3 B4 |
     +-------+-------+-------+-------+
             | D1 D2 |
             | D3 D4 |
             +-------+

String index of ``Xn`` is ``4 * FACES.index(X) + (n - 1)``. There are no centres: every sticker
belongs to one of the eight corners, whose facelets come from the cube's geometry (``geometry``).
"""

from __future__ import annotations

from typing import Final

from qbr.cube.conventions import CORNER_NAMES, FACE_INDEX, FACES
from qbr.cube.geometry import corner_facelets

SIZE: Final = 2

STICKERS_PER_FACE: Final = SIZE * SIZE

FACELET_COUNT: Final = 6 * STICKERS_PER_FACE

SOLVED: Final = "".join(face * STICKERS_PER_FACE for face in FACES)

CORNER_FACELETS: Final = corner_facelets(SIZE, CORNER_NAMES)
"""Facelet indices of each corner position (``CORNER_NAMES`` order), U/D sticker first, then clockwise."""

REFERENCE_CORNER: Final = CORNER_NAMES.index("DBL")
"""The corner a normalised state keeps in place and unturned (U, R and F turns never move it)."""


def facelet_index(face: str, row: int, col: int) -> int:
    """Index in the facelet string of ``face``'s sticker at ``row``, ``col`` (0-based, net orientation)."""
    if face not in FACE_INDEX or not (0 <= row < SIZE and 0 <= col < SIZE):
        raise ValueError(f"no facelet {face} row {row} column {col}")
    return STICKERS_PER_FACE * FACE_INDEX[face] + SIZE * row + col


def facelet_name(index: int) -> str:
    """Human name of a facelet position, e.g. 0 -> 'U1', 23 -> 'B4'."""
    return f"{FACES[index // STICKERS_PER_FACE]}{index % STICKERS_PER_FACE + 1}"
