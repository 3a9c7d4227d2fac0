"""The sentences that say what the reading corrected or filled in: faces placed by their pieces, photos turned
back, a 3x3x3 face not found deduced from the other five. One wording for the session (its scheme names the
colours) and the reports (the resolution's centres name them)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from qbr.cube.conventions import FACES
from qbr.solve.instructions import colour_name

if TYPE_CHECKING:
    from qbr.solve.i18n import Translator

TURN_KEYS = {1: "app.notice.turned_cw", 2: "app.notice.turned_half", 3: "app.notice.turned_ccw"}  # quarter turns cw


def placed_notices(placed: Mapping[str, str], names: Mapping[str, str], tr: Translator) -> list[str]:
    """One sentence per face placed by the pieces it shows (face -> the face its centre's name had given it)."""
    return [tr.t("app.notice.placed", colour=colour_name(names.get(face, face), tr),
                 given=colour_name(names.get(given, given), tr)) for face, given in placed.items()]


def turned_notices(turned: Mapping[str, int], names: Mapping[str, str], tr: Translator) -> list[str]:
    """One sentence per face whose photo was turned (face -> quarter turns clockwise), read turned back."""
    return [tr.t(TURN_KEYS[k], face=face, colour=colour_name(names.get(face, face), tr)) for face, k in turned.items()]


def lost_faces(deduced: Collection[int], facelets: int) -> list[str]:
    """The faces all of whose stickers were deduced (``deduced``: facelet indices of a cube of ``facelets``)."""
    per_face = facelets // len(FACES)
    return [f for i, f in enumerate(FACES) if set(range(per_face * i, per_face * (i + 1))) <= set(deduced)]


def lost_notices(lost: list[str], names: Mapping[str, str], tr: Translator) -> list[str]:
    """One sentence per 3x3x3 face found nowhere, its stickers deduced from the other five faces' pieces."""
    return [tr.t("app.notice.deduced_cube_face", face=face, colour=colour_name(names.get(face, face), tr))
            for face in lost]
