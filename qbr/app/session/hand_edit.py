"""Fixing a cube by hand: the resolved stickers as an editable net, a cursor, colour keys and undo.

Pure and immutable (every change returns a new ``HandEdit``): the session keeps one while the user corrects
stickers, the overlay draws it, and the corrected facelets are then validated and solved like a scanned cube.
Stickers are facelet indices (URFDLB faces, each row-major as in the standard net; four a face on a 2x2x2).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from qbr.cube.conventions import FACES

COLOUR_KEYS: Final = ("1", "2", "3", "4", "5", "6")
"""Key k sets the colour of face FACES[k - 1]'s centre: digits mean the same in every language (initials don't)."""

NET_FACE_POSITION: Final = {"U": (1, 0), "L": (0, 1), "F": (1, 1), "R": (2, 1), "B": (3, 1), "D": (1, 2)}
"""(column, row) of each face in the 4x3-face net (conventions' net layout)."""

_STEPS: Final = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}


def net_cell(index: int, size: int) -> tuple[int, int]:
    """(column, row) of sticker ``index`` in the net counted in stickers (4·size wide, 3·size tall)."""
    per_face = size * size
    face, i = FACES[index // per_face], index % per_face
    fx, fy = NET_FACE_POSITION[face]
    return fx * size + i % size, fy * size + i // size


def sticker_at_cell(col: int, row: int, size: int) -> int | None:
    """The sticker at net cell (``col``, ``row``), or None where the net has no face."""
    if col < 0 or row < 0:
        return None
    spot = (col // size, row // size)
    face = next((f for f, p in NET_FACE_POSITION.items() if p == spot), None)
    if face is None:
        return None
    return FACES.index(face) * size * size + (row % size) * size + col % size


def is_centre(index: int, size: int) -> bool:
    """A 3x3x3's centre sticker: it names its face's colour and never moves (a 2x2x2 has none)."""
    return size == 3 and index % 9 == 4


@dataclass(frozen=True)
class HandEdit:
    """The cube being corrected: face letters per sticker (``?`` unknown), the cursor and what was changed."""

    size: int
    """Stickers along a face's side: 3 or 2."""
    facelets: str
    cursor: int = 0
    review: tuple[int, ...] = ()
    """Stickers to look at, least certain first (the resolver's doubt, or what validation found wrong)."""
    history: tuple[tuple[int, str], ...] = ()
    """(sticker, its letter before) of each change, oldest first: undone from the end."""
    original: str = ""
    """The facelets as read, before any change ("" = the initial ``facelets``)."""

    @classmethod
    def start(cls, facelets: str, size: int, review: tuple[int, ...] = ()) -> HandEdit:
        """An edit of ``facelets`` (a 3x3x3's centres are their faces' letters), the cursor on the first to review."""
        per_face = size * size
        if len(facelets) != 6 * per_face:
            raise ValueError(f"a {size}x{size}x{size} has {6 * per_face} stickers, not {len(facelets)}")
        letters = [c if c in FACES else "?" for c in facelets]
        if size == 3:
            for k, face in enumerate(FACES):
                letters[9 * k + 4] = face
        text = "".join(letters)
        shown = tuple(i for i in review if 0 <= i < len(text) and not is_centre(i, size))
        first = shown[0] if shown else next((i for i, c in enumerate(text) if c == "?"), per_face * 2)
        return cls(size, text, first, shown, (), text)

    @property
    def changed(self) -> frozenset[int]:
        """Stickers that now differ from how they were read."""
        return frozenset(i for i, (a, b) in enumerate(zip(self.facelets, self.original, strict=True)) if a != b)

    def select(self, index: int) -> HandEdit:
        """The cursor on sticker ``index`` (a click on the net)."""
        if not 0 <= index < len(self.facelets):
            raise ValueError(f"no sticker {index}")
        return replace(self, cursor=index)

    def move(self, direction: str) -> HandEdit:
        """The cursor one sticker left/right/up/down on the net, over gaps, round to the other side at an edge."""
        dx, dy = _STEPS[direction]
        col, row = net_cell(self.cursor, self.size)
        width, height = 4 * self.size, 3 * self.size
        for _ in range(max(width, height)):
            col, row = (col + dx) % width, (row + dy) % height
            found = sticker_at_cell(col, row, self.size)
            if found is not None:
                return replace(self, cursor=found)
        return self

    def editable(self, index: int | None = None) -> bool:
        """Whether sticker ``index`` (default: the cursor's) may change: every one but a 3x3x3's centres."""
        return not is_centre(self.cursor if index is None else index, self.size)

    def set_letter(self, letter: str) -> HandEdit:
        """The cursor's sticker shows face ``letter``'s colour (unchanged for a centre or the same letter)."""
        if letter not in FACES:
            raise ValueError(f"not a face letter: {letter!r}")
        i = self.cursor
        if not self.editable() or self.facelets[i] == letter:
            return self
        facelets = self.facelets[:i] + letter + self.facelets[i + 1 :]
        return replace(self, facelets=facelets, history=(*self.history, (i, self.facelets[i])),
                       review=tuple(r for r in self.review if r != i))

    def set_colour_key(self, key: str) -> HandEdit:
        """What colour key ``key`` ("1".."6") does: the colour of face FACES[key - 1]'s centre."""
        return self.set_letter(FACES[COLOUR_KEYS.index(key)])

    def undo(self) -> HandEdit | None:
        """The last change taken back (the cursor back on it), or None when nothing was changed."""
        if not self.history:
            return None
        i, before = self.history[-1]
        facelets = self.facelets[:i] + before + self.facelets[i + 1 :]
        return replace(self, facelets=facelets, cursor=i, history=self.history[:-1])

    def with_review(self, review: tuple[int, ...]) -> HandEdit:
        """Other stickers to look at (e.g. those validation found wrong), the cursor on the first of them."""
        shown = tuple(i for i in review if 0 <= i < len(self.facelets) and self.editable(i))
        return replace(self, review=shown, cursor=shown[0] if shown else self.cursor)


@dataclass(frozen=True)
class EditView:
    """What the overlay draws of a cube being fixed by hand; colours are names (the palette gives their look)."""

    size: int
    colours: tuple[str | None, ...]
    """Per sticker, the colour name it shows (None: unknown)."""
    cursor: int
    review: frozenset[int]
    """Stickers to look at (drawn ringed)."""
    changed: frozenset[int]
    """Stickers changed by hand (drawn marked)."""
    keys: tuple[str, ...]
    """The colour name of each colour key, in COLOUR_KEYS order."""


def edit_view(edit: HandEdit, colour_of: dict[str, str]) -> EditView:
    """The view of ``edit``, each face letter shown in ``colour_of[letter]`` (the colour of that face's centre)."""
    return EditView(
        size=edit.size,
        colours=tuple(colour_of.get(c) for c in edit.facelets),
        cursor=edit.cursor,
        review=frozenset(edit.review),
        changed=edit.changed,
        keys=tuple(colour_of.get(f, f) for f in FACES),
    )
