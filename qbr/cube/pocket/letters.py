"""Naming a 2x2's colours as faces: a 2x2 has no centres, so the pieces say which colour is which face.

Letters that are already face letters (U R F D L B) are kept. Colour initials (W Y R O G B) name the faces
of the standard scheme if its corners are all there. Other letters (and initials of another colour scheme)
are named by the pieces, whichever way the cube is held: the
alphabetically first colour is D and the colour that never shares a corner with it U; the first of the
rest is B and its never-neighbour F; of the last two, the one on the D-B corner clockwise after B (as on
the DBL corner) is L, the other R. A set of letters no real cube can show gets the naming with the most
real corners, so validation can point at the rest.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field
from typing import Final

from qbr.cube.conventions import FACES, STANDARD_SCHEME
from qbr.cube.pocket.conventions import CORNER_FACELETS, FACELET_COUNT, STICKERS_PER_FACE
from qbr.cube.pocket.cubie import pocket_corner_at

COLOUR_INITIALS: Final = {name[0].upper(): face for face, name in STANDARD_SCHEME.items()}
"""Initial of each standard-scheme colour -> its face (W -> U, Y -> D, ...)."""

COLOURS: Final = len(FACES)


@dataclass(frozen=True)
class Lettering:
    """Face letters for a typed cube, and what each face letter was called (a colour name, or the letter typed)."""

    letters: str
    colour_names: dict[str, str] = field(default_factory=dict)


def clean(text: str) -> str:
    """Whitespace removed, upper-cased."""
    return "".join(text.split()).upper()


def _real_corners(letters: str) -> int:
    """How many positions show a real corner, each piece counted once."""
    return len({c[0] for i in range(8) if (c := pocket_corner_at(letters, i)) is not None})


def _by_pieces(text: str) -> dict[str, str] | None:
    """Letter -> face by the rule in the module docstring, or None if the pieces do not allow it."""
    corners = [frozenset(text[i] for i in facelets) for facelets in CORNER_FACELETS]
    shares = {c: set().union(*(k for k in corners if c in k)) - {c} for c in set(text)}

    def never_neighbour(colour: str, among: set[str]) -> str | None:
        found = [c for c in among if c not in shares[colour]]
        return found[0] if len(found) == 1 else None

    colours = set(text)
    d = min(colours)
    u = never_neighbour(d, colours - {d})
    if u is None:
        return None
    ring = colours - {d, u}
    b = min(ring)
    f = never_neighbour(b, ring - {b})
    if f is None:
        return None
    x, y = sorted(ring - {b, f})
    for facelets in CORNER_FACELETS:
        letters = [text[i] for i in facelets]
        if sorted(letters) == sorted((d, b, x)):
            k = letters.index(d)
            left, right = (x, y) if letters[(k + 1) % 3] == b else (y, x)
            return {d: "D", u: "U", b: "B", f: "F", left: "L", right: "R"}
    return None


def _best_guess(text: str) -> dict[str, str]:
    """The naming with the most real corners (first in letter order on a tie)."""
    colours = sorted(set(text))
    best: dict[str, str] = {}
    best_score = -1
    for faces in itertools.permutations(FACES):
        naming = dict(zip(colours, faces, strict=True))
        score = _real_corners("".join(naming[c] for c in text))
        if score > best_score:
            best, best_score = naming, score
    return best


def face_letters(text: str) -> Lettering:
    """Face letters for ``text`` (cleaned); unchanged unless it is 24 letters, six of them four times each."""
    letters = clean(text)
    counts = Counter(letters)
    if set(letters) <= set(FACES):
        return Lettering(letters, dict(STANDARD_SCHEME))
    if len(letters) != FACELET_COUNT or len(counts) != COLOURS or set(counts.values()) != {STICKERS_PER_FACE}:
        return Lettering(letters)
    initials = set(letters) <= set(COLOUR_INITIALS)
    naming: dict[str, str] | None = None
    if initials and _real_corners("".join(COLOUR_INITIALS[c] for c in letters)) == len(CORNER_FACELETS):
        naming = COLOUR_INITIALS
    naming = naming or _by_pieces(letters) or _best_guess(letters)
    colour = {initial: STANDARD_SCHEME[face] for initial, face in COLOUR_INITIALS.items()}
    names = {face: colour[letter] if initials else letter for letter, face in naming.items()}
    return Lettering("".join(naming[c] for c in letters), names)
