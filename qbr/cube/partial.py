"""What a partly scanned 3x3x3 already rules out: pieces no real cube has, among the faces known so far.

Facelets in URFDLB order as everywhere, with ``UNKNOWN`` where a face is not scanned yet (or a sticker could not
be named). A piece is impossible when two of its known stickers are alike or opposite, when its three stickers are
a corner no cube has (or its mirror image), or when it is a second copy of a piece already seen. This is what lets
a face held turned be caught as soon as its neighbours are known, before the whole cube is.
"""

from __future__ import annotations

from typing import Final

from qbr.cube.conventions import CORNER_FACELETS, CORNER_NAMES, EDGE_FACELETS, FACES, OPPOSITE

UNKNOWN: Final = "."


def _clash(a: str, b: str) -> bool:
    return a == b or OPPOSITE[a] == b


def _corner_piece(seen: tuple[str, ...]) -> str | None:
    """The corner (its solved name) whose stickers, read clockwise, fit the known ones; '' if none does."""
    known = [(k, c) for k, c in enumerate(seen) if c != UNKNOWN]
    if len(known) < 2:
        return None  # one sticker says nothing about which corner it is
    if any(_clash(a, b) for i, (_, a) in enumerate(known) for _, b in known[i + 1 :]):
        return ""
    for name in CORNER_NAMES:
        for shift in range(3):
            turned = name[shift:] + name[:shift]
            if all(turned[k] == c for k, c in known):
                return name
    return ""  # two known stickers always fit one corner; three may be a mirror image


def impossible_pieces(facelets: str) -> int:
    """How many pieces of these (partly known) facelets no real cube shows: bad pieces plus second copies."""
    bad = 0
    edges: set[frozenset[str]] = set()
    for a, b in EDGE_FACELETS:
        pair = facelets[a], facelets[b]
        if UNKNOWN in pair or pair[0] not in OPPOSITE or pair[1] not in OPPOSITE:
            continue
        if _clash(*pair) or frozenset(pair) in edges:
            bad += 1
        else:
            edges.add(frozenset(pair))
    corners: set[str] = set()
    for position in CORNER_FACELETS:
        seen = tuple(facelets[i] if facelets[i] in OPPOSITE else UNKNOWN for i in position)
        piece = _corner_piece(seen)
        if piece is None:
            continue
        if piece == "" or piece in corners:
            bad += 1
        else:
            corners.add(piece)
    return bad


def turned_face(facelets: str, face: str, evidence: int) -> int | None:
    """Quarter turns clockwise ``face`` was held turned, when reading it turned back is the only way out.

    Returns k (1-3) when the face as read makes at least ``evidence`` pieces impossible and reading it turned back
    k quarter turns (counter-clockwise) makes none, while no other turn does; else None (nothing wrong, too
    little known, or a pattern that fits several ways). Centres stay where they are: only the ring turns.
    """
    start = 9 * FACES.index(face)
    stickers = facelets[start : start + 9]
    as_read = impossible_pieces(facelets)
    if as_read < evidence:
        return None
    fits = [k for k in (1, 2, 3)
            if impossible_pieces(facelets[:start] + turned_back(stickers, k) + facelets[start + 9 :]) == 0]
    return fits[0] if len(fits) == 1 else None


def turned_back(stickers: str, k: int) -> str:
    """A 3x3 face's nine stickers (row-major) held ``k`` quarter turns clockwise, read as if held upright."""
    rows = [stickers[0:3], stickers[3:6], stickers[6:9]]
    for _ in range(k):
        rows = ["".join(rows[r][c] for r in range(3)) for c in range(2, -1, -1)]  # a quarter turn back (ccw)
    return "".join(rows)
