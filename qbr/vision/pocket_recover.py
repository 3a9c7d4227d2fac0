"""A 2x2x2's faces that detection lost, found again with the cube's help.

Detection judges each photo alone, so it refuses what one photo cannot prove (two alike stickers merged on a
stickerless cube, a light sticker on a light body, a finger on the lattice). The cube's other faces know what the
lost face must show: every corner has two stickers elsewhere. So every place a face could lie in the photo is
tried (``detect.pocket_guesses``: each sticker-like region as any of the four stickers, a long one as two, every
2x2 grid the single-photo rules refused), and a place is taken only when its four stickers make the whole cube
real, none repaired, and it fits the cube's colours best (of two lost faces, when guesses make different cubes:
the one the other photo shows too, fitting best with both measured). Only ever run on a cube whose other faces
were found.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import numpy as np

from qbr.cube.conventions import FACES
from qbr.vision.colour import srgb_to_lab
from qbr.vision.detect import face_guesses
from qbr.vision.measure import measure_stickers_with_spread
from qbr.vision.resolve import Resolution, colour_looseness, resolve_pocket
from qbr.vision.tunables import Tunables

_PER_FACE = 4


def _unmeasured() -> np.ndarray:
    return np.full((_PER_FACE, 3), np.nan)


def _sure(result: Resolution, faces: Iterable[str], t: Tunables) -> bool:
    """A real cube, every facelet known, and the stickers of ``faces`` read as the cube says (none repaired)."""
    if not result.valid or "?" in result.facelets:
        return False
    rows = [FACES.index(face) * _PER_FACE + k for face in faces for k in range(_PER_FACE)]
    return bool((result.confidence[rows] > t.pocket_recover_sure).all())


def _ranked_guesses(image: np.ndarray, seen: np.ndarray, t: Tunables) -> list[np.ndarray]:
    """The measured stickers of a photo's guesses, those nearest the colours ``seen`` (Lab) on other faces first
    (background rarely shows the cube's colours four times over)."""
    ranked = []
    for guess in face_guesses(image, t):
        measured = measure_stickers_with_spread(image, guess, t)
        if measured.spread.max() > t.pocket_recover_spread:
            continue  # a sample square across an edge: not four stickers
        nearest = np.linalg.norm(srgb_to_lab(measured.rgb)[:, None] - seen[None], axis=2).min(axis=1)
        ranked.append((float(nearest.sum()), measured.rgb))
    ranked.sort(key=lambda r: r[0])
    return [stickers for _, stickers in ranked[: t.pocket_recover_tries]]


def _six_face_fit(result: Resolution, trial: Mapping[str, np.ndarray], face: str,
                  guesses: Mapping[str, list[np.ndarray]], t: Tunables) -> float:
    """How loosely the cube's colours fit its stickers (``colour_looseness``) with the other lost face measured too,
    at the best of its photo's guesses that shows the cube ``result`` (read with ``face`` found again) says it must
    (the same cube, sure, none repaired); infinite when none does."""
    best = np.inf
    for other in (f for f in guesses if f != face):
        for stickers in guesses[other]:
            six = {**trial, other: stickers}
            both = resolve_pocket(six, tunables=t)
            if both.facelets == result.facelets and _sure(both, [face, other], t):
                best = min(best, colour_looseness(six, t))
    return best


def _recovered(
    guesses: Mapping[str, list[np.ndarray]], rgb: Mapping[str, np.ndarray], t: Tunables
) -> tuple[float, dict[str, np.ndarray], str] | None:
    """The cube's faces with one of two lost faces (``guesses``: face -> its photo's ranked guesses) found again,
    how loosely their colours fit (``colour_looseness``) and the cube they read; None when no guess makes a sure
    cube, or guesses make different ones and the other lost photo shows none of them.

    One lost face recovered is enough: the resolution fills in the other from the five (``resolve_pocket``'s
    ``deduced``). But with a face still free, four stickers of something else often make a sure cube too (physcam
    hard tuning: up to 7 such guesses in one photo, two cubes read wrong and sure), so when the guesses disagree
    the cube is the one the other photo shows best: with both faces measured, its colours fit tightest.
    """
    base = {**rgb, **{f: _unmeasured() for f in guesses}}
    # Four stickers of something else can be forced into a real cube, but the cube's colours then fit all its
    # stickers far worse (the real photo set: +0.5 at most for a right place, +3.4 or more for any wrong one).
    limit = colour_looseness(base, t) + t.pocket_recover_looser
    found: dict[str, tuple[float, dict[str, np.ndarray], str, Resolution]] = {}  # per cube read: its tightest guess
    for face, tries in guesses.items():
        for stickers in tries:
            trial = {**base, face: stickers}
            loose = colour_looseness(trial, t)
            if loose > limit:
                continue
            result = resolve_pocket(trial, tunables=t)
            if _sure(result, [face], t) and (result.facelets not in found or loose < found[result.facelets][0]):
                found[result.facelets] = (loose, trial, face, result)
    if len(found) <= 1:
        return next(((loose, trial, cube) for cube, (loose, trial, _, _) in found.items()), None)
    fit, loose, trial, cube = min(((_six_face_fit(result, trial, face, guesses, t), loose, trial, cube)
                                   for cube, (loose, trial, face, result) in found.items()),
                                  key=lambda r: (r[0], r[1]))
    return (loose, trial, cube) if np.isfinite(fit) else None


def _completed(
    guesses: Callable[[str], list[np.ndarray]], rgb: Mapping[str, np.ndarray], t: Tunables
) -> tuple[float, dict[str, np.ndarray], str] | None:
    """The six faces (a lost one as unmeasured stickers, to be filled in), their looseness and the cube they read
    when they make a sure real cube (none of the stickers measured repaired): one lost face is filled in, of two
    lost faces one is found again first (only its stickers need be unrepaired); else None."""
    lost = [f for f in FACES if f not in rgb]
    if len(lost) == 2:
        return _recovered({f: guesses(f) for f in lost}, rgb, t)
    if len(lost) > 2:
        return None
    trial = {**rgb, **{f: _unmeasured() for f in lost}}
    result = resolve_pocket(trial, tunables=t)
    return (colour_looseness(trial, t), trial, result.facelets) if _sure(result, rgb, t) else None


def complete_faces(
    images: Mapping[str, np.ndarray], rgb: Mapping[str, np.ndarray], tunables: Tunables = Tunables(),  # noqa: B008
) -> dict[str, np.ndarray]:
    """A 2x2x2's six faces (face -> (4, 3) sRGB, a face to be filled in from the other five as NaN) from the
    faces found (``rgb``, four or five of them) and all six photos (``images``, face -> photo).

    With two faces lost one is looked for with the cube's help; faces that make no sure real cube (one with
    stickers repaired to fit) while all but one of them do (a grid placed on a tile beside a white face) leave that
    one out, found again or filled in; of several such readings the one whose colours fit tightest wins, unless it
    is the cube the faces found are read as anyway. Else the faces found are returned as they were, a single lost
    face as unmeasured (the resolution fills it in or says what is wrong).
    """
    t = tunables
    rgb = {f: v for f, v in ((f, np.asarray(v, dtype=float)) for f, v in rgb.items()) if np.isfinite(v).all()}
    if not rgb:
        return rgb
    seen = srgb_to_lab(np.concatenate(list(rgb.values())))
    cache: dict[str, list[np.ndarray]] = {}

    def guesses(face: str) -> list[np.ndarray]:
        if face not in cache:
            cache[face] = _ranked_guesses(images[face], seen, t)
        return cache[face]

    as_found = {**rgb, **{f: _unmeasured() for f in FACES if f not in rgb}} if len(rgb) == len(FACES) - 1 else rgb
    done = _completed(guesses, rgb, t)
    if done is not None:
        return done[1]
    if len(rgb) < len(FACES) - 1:
        return as_found
    readings = [r for face in rgb
                if (r := _completed(guesses, {f: v for f, v in rgb.items() if f != face}, t)) is not None]
    if not readings:
        return as_found
    _, best, cube = min(readings, key=lambda r: r[0])
    if cube == resolve_pocket(as_found, tunables=t).facelets:
        return as_found  # the same cube as read with a sticker repaired (glare): a face seen is not dropped
    return best
