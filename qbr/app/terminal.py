"""A cube drawn in the terminal as the unfolded net of ``qbr.cube.conventions``, in colour or plain letters."""

from __future__ import annotations

import unicodedata
from typing import Final

from qbr.cube.conventions import FACES, STANDARD_SCHEME

# 256-colour palette indices: (background, foreground) per colour name, foreground chosen to stay readable.
_ANSI: Final = {
    "white": (255, 16),
    "yellow": (226, 16),
    "red": (160, 231),
    "orange": (208, 16),
    "green": (34, 16),
    "blue": (27, 231),
}
_UNKNOWN: Final = (240, 231)
_RESET: Final = "\x1b[0m"

# Row r of the net: which faces, left to right, with None for the blank space left of U and D.
_ROWS: Final = (
    (None, "U"),
    ("L", "F", "R", "B"),
    (None, "D"),
)


def _printable(char: str) -> str:
    """``char`` if it occupies one terminal cell harmlessly, else "?" (no escape codes, no wide or combining)."""
    if not char.isprintable() or char.isspace():
        return "?"
    if unicodedata.east_asian_width(char) in ("W", "F") or unicodedata.category(char).startswith("M"):
        return "?"
    return char


def _sticker(char: str, colour: bool) -> str:
    if not colour:
        return char
    background, foreground = _ANSI.get(STANDARD_SCHEME.get(char, ""), _UNKNOWN)
    return f"\x1b[48;5;{background}m\x1b[38;5;{foreground}m {char} {_RESET}"


def render_net(facelets: str, colour: bool, size: int = 3) -> str:
    """The net of a ``size`` cube, faces in their usual places; ``colour`` paints each sticker (standard scheme).

    Any text is drawn: missing stickers show as "?", extra letters are left out, unprintable characters become "?".
    """
    count = 6 * size * size
    cells = [_printable(c) for c in facelets[:count]] + ["?"] * max(0, count - len(facelets))
    width = 3 if colour else 1
    # Plain letters are separated by spaces, coloured stickers are already three cells wide.
    join = "" if colour else " "
    face_width = size * width + (0 if colour else size - 1)
    gap = " " if colour else "  "
    lines = []
    for row_faces in _ROWS:
        for row in range(size):
            parts = []
            for face in row_faces:
                if face is None:
                    parts.append(" " * face_width)
                    continue
                start = size * size * FACES.index(face) + size * row
                parts.append(join.join(_sticker(c, colour) for c in cells[start : start + size]))
            lines.append(gap.join(parts).rstrip())
    return "\n".join(lines)
