"""Photos given to ``qbr scan`` in another order than U R F D L B, placed by their centres.

Each sticker is named by its nearest centre; of the 720 ways to place the six photos, the one whose faces show
the most real pieces stands out when the photos were merely misordered (18-20 of 20 pieces against 6-13). It
needs no colour scheme: the centres name the faces. A placement is offered only when it shows strictly more
pieces than every other and than the order given (symmetric patterns tie: none); the caller keeps it only if
it also resolves surer than the order given.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import numpy as np

from qbr.cube.conventions import CENTRES, CORNER_NAMES, EDGE_NAMES, FACES
from qbr.cube.cubie import corner_at, edge_at
from qbr.vision.colour import srgb_to_lab


def _pieces(facelets: str) -> int:
    corners = {found[0] for p in range(len(CORNER_NAMES)) if (found := corner_at(facelets, p)) is not None}
    edges = {found[0] for p in range(len(EDGE_NAMES)) if (found := edge_at(facelets, p)) is not None}
    return len(corners) + len(edges)


def _nearest_centre(rgb: Mapping[str, np.ndarray]) -> list[int] | None:
    """For each of the 54 stickers (photos in the order given), the index of the photo whose centre is nearest."""
    lab = srgb_to_lab(np.concatenate([np.asarray(rgb[face], dtype=float).reshape(9, 3) for face in FACES]))
    if not np.isfinite(lab).all():
        return None
    return [int(i) for i in np.linalg.norm(lab[:, None, :] - lab[None, list(CENTRES), :], axis=2).argmin(axis=1)]


def pieces_seen(rgb: Mapping[str, np.ndarray], placement: Mapping[str, str] | None = None) -> int:
    """How many different real pieces the faces show (0-20) with the photos placed as ``placement`` says
    (face -> the given face whose photo goes there; default: as given), stickers named by nearest centre."""
    nearest = _nearest_centre(rgb)
    if nearest is None:
        return 0
    placed = {face: face for face in FACES} if placement is None else placement
    return _pieces(_facelets(nearest, placed))


def _facelets(nearest: list[int], placed: Mapping[str, str]) -> str:
    face_of = {FACES.index(photo): face for face, photo in placed.items()}  # given photo -> face it is placed as
    return "".join(face_of[nearest[9 * FACES.index(placed[face]) + k]] for face in FACES for k in range(9))


def best_placement(rgb: Mapping[str, np.ndarray]) -> dict[str, str] | None:
    """The placement (face -> the given face whose photo shows it) that stands out, or None (see module doc)."""
    nearest = _nearest_centre(rgb)
    if nearest is None:
        return None
    scored = sorted(
        ((_pieces(_facelets(nearest, dict(zip(FACES, order, strict=True)))), order)
         for order in itertools.permutations(FACES)),
        reverse=True,
    )
    (best, order), (runner_up, _) = scored[0], scored[1]
    given = _pieces(_facelets(nearest, {face: face for face in FACES}))
    return dict(zip(FACES, order, strict=True)) if best > max(runner_up, given) else None
