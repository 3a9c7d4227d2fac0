"""Face and facelet conventions, defined once for all of qbr (the kociemba convention).

A cube state is a string of 54 facelets: the six faces in the order U R F D L B, each
face's nine stickers row by row as seen in the standard net below::

                 +------------+
                 | U1  U2  U3 |
                 | U4  U5  U6 |        U: looked at from above, with B at the top edge
                 | U7  U8  U9 |
    +------------+------------+------------+------------+
    | L1  L2  L3 | F1  F2  F3 | R1  R2  R3 | B1  B2  B3 |
    | L4  L5  L6 | F4  F5  F6 | R4  R5  R6 | B4  B5  B6 |   side faces: U at the top edge
    | L7  L8  L9 | F7  F8  F9 | R7  R8  R9 | B7  B8  B9 |
    +------------+------------+------------+------------+
                 | D1  D2  D3 |
                 | D4  D5  D6 |        D: looked at from below, with F at the top edge
                 | D7  D8  D9 |
                 +------------+

String index of facelet ``Xn`` is ``9 * FACES.index(X) + (n - 1)``; U1 is 0, R1 is 9,
F1 is 18, D1 is 27, L1 is 36, B1 is 45. Each letter names the face whose centre has that
colour, so the solved cube is ``UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB``.
"""

from __future__ import annotations

from typing import Final

FACES: Final = ("U", "R", "F", "D", "L", "B")
"""Face order of the facelet string."""

FACE_INDEX: Final = {face: i for i, face in enumerate(FACES)}

OPPOSITE: Final = {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}

FACE_NAMES: Final = {"U": "up", "R": "right", "F": "front", "D": "down", "L": "left", "B": "back"}

STANDARD_SCHEME: Final = {
    "U": "white",
    "R": "red",
    "F": "green",
    "D": "yellow",
    "L": "orange",
    "B": "blue",
}
"""Colour of each face's centre on a cube with the usual (Western) colour scheme."""

# The edge of each face that touches another face, as seen in the net: face -> (top, right, bottom, left).
NEIGHBOURS: Final = {
    "U": ("B", "R", "F", "L"),
    "R": ("U", "B", "D", "F"),
    "F": ("U", "R", "D", "L"),
    "D": ("F", "R", "B", "L"),
    "L": ("U", "F", "D", "B"),
    "B": ("U", "L", "D", "R"),
}

SOLVED: Final = "".join(face * 9 for face in FACES)

CENTRES: Final = tuple(9 * i + 4 for i in range(6))
"""String indices of the six centre facelets."""


def facelet_index(face: str, row: int, col: int) -> int:
    """Index in the facelet string of ``face``'s sticker at ``row``, ``col`` (0-based, net orientation)."""
    if face not in FACE_INDEX or not (0 <= row < 3 and 0 <= col < 3):
        raise ValueError(f"no facelet {face} row {row} column {col}")
    return 9 * FACE_INDEX[face] + 3 * row + col


def facelet_name(index: int) -> str:
    """Human name of a facelet position, e.g. 0 -> 'U1', 53 -> 'B9'."""
    return f"{FACES[index // 9]}{index % 9 + 1}"


def _f(name: str) -> int:
    return 9 * FACE_INDEX[name[0]] + int(name[1]) - 1


CORNER_NAMES: Final = ("URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB")
"""The eight corner positions (and the pieces that belong there when solved)."""

CORNER_FACELETS: Final = tuple(
    tuple(_f(n) for n in names)
    for names in (
        ("U9", "R1", "F3"),
        ("U7", "F1", "L3"),
        ("U1", "L1", "B3"),
        ("U3", "B1", "R3"),
        ("D3", "F9", "R7"),
        ("D1", "L9", "F7"),
        ("D7", "B9", "L7"),
        ("D9", "R9", "B7"),
    )
)
"""Facelet indices of each corner position, U/D sticker first, then clockwise."""

EDGE_NAMES: Final = ("UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR")
"""The twelve edge positions (and the pieces that belong there when solved)."""

EDGE_FACELETS: Final = tuple(
    tuple(_f(n) for n in names)
    for names in (
        ("U6", "R2"),
        ("U8", "F2"),
        ("U4", "L2"),
        ("U2", "B2"),
        ("D6", "R8"),
        ("D2", "F8"),
        ("D4", "L8"),
        ("D8", "B8"),
        ("F6", "R4"),
        ("F4", "L6"),
        ("B6", "L4"),
        ("B4", "R6"),
    )
)
"""Facelet indices of each edge position; the first is the U/D (or F/B for middle-layer edges) sticker."""
