"""A face held turned, caught as it is captured: its neighbours already captured leave only one way to read it.

The colour names of the captured faces become face letters (by the scheme the centres set); a face whose ring,
read as held, makes pieces no cube has while read turned back it makes none, is stored turned back. The whole-cube
resolution still reads every face in each of its turns: this only says so at once and keeps the net right.
"""

from __future__ import annotations

from collections.abc import Mapping

from qbr.app.session.identity import CapturedFace
from qbr.cube.conventions import FACES
from qbr.cube.partial import UNKNOWN, turned_back, turned_face


def held_turned(letter: str, faces: Mapping[str, CapturedFace], scheme: Mapping[str, str], evidence: int) -> int | None:
    """Quarter turns clockwise the 3x3 face ``letter`` (among ``faces``) was held, if its neighbours tell: at least
    ``evidence`` pieces are impossible as held."""
    face_of = {colour: face for face, colour in scheme.items()}
    facelets = "".join(
        "".join(face_of.get(c, UNKNOWN) for c in faces[f].colours) if f in faces else UNKNOWN * 9 for f in FACES)
    return turned_face(facelets, letter, evidence)


def turned_upright(capture: CapturedFace, turns: int) -> CapturedFace:
    """The capture read as if held upright (stickers and their colours moved back ``turns`` quarter turns)."""
    order = [ord(ch) - ord("a") for ch in turned_back("abcdefghi", turns)]  # which sticker goes where
    return capture.turned(order)  # the shares (and so the trust) move with their stickers
