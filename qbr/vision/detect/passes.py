"""``detect_face``: the first look and the cascade of search passes tried in turn while no sure face is found."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from qbr.vision.detect.candidates import Candidates
from qbr.vision.detect.overrule import overrules
from qbr.vision.detect.plausible import plain_face
from qbr.vision.detect.pocket import search_pocket
from qbr.vision.detect.result import FaceDetection, to_detection
from qbr.vision.detect.search import search_all
from qbr.vision.tunables import Tunables


def _downscale(image: np.ndarray, target_width: int) -> np.ndarray:
    height, width = image.shape[:2]
    scale = min(1.0, target_width / width)
    if scale >= 1.0:
        return image
    size = (round(width * scale), round(height * scale))
    if scale < 0.5:
        # Area averaging straight from a big frame is slow; thin it out cheaply to twice the work size first.
        image = cv2.resize(image, (2 * size[0], 2 * size[1]), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def detect_face(
    image_bgr: np.ndarray, tunables: Tunables = Tunables(), size: int | None = None  # noqa: B008
) -> FaceDetection | None:
    """Find the cube face in a BGR frame; None when no face is visible.

    ``size`` 3 or 2 looks for that cube's faces only (the user said which cube it is); None decides by the grid.

    When the first look finds no sure 3x3 face, a 2x2x2's face is looked for among the same sticker candidates
    (``FaceDetection.size`` says which was found): a 2x2 grid spanning a whole face, which no square on its lattice
    and no sticker-like cell beyond its sides continues; only then do the 3x3 fallback searches give way to it.
    """
    t = tunables if size != 3 else dataclasses.replace(tunables, pocket_min_found=0)
    if size not in (None, 2, 3):
        raise ValueError(f"size must be 2, 3 or None, not {size!r}")
    if image_bgr is None or image_bgr.ndim < 2 or image_bgr.size == 0:
        return None
    width = image_bgr.shape[1]
    work = _downscale(image_bgr, t.work_width)
    first_looks: list[Candidates] = []
    found, small, seen_all = search_all(work, t, 1.0, t.retry_canny_factor, looks=first_looks)
    if size == 2:
        if t.pocket_min_found <= 0:
            return None
        pocket = search_pocket(work, first_looks, t, t.pocket_solved_faces)
        if pocket is None and t.pocket_stretch_look and t.retry_clahe_clip > 0:
            # Light stickers on a light body (white on white, faded, glare): their edges rise only once equalised.
            stretch_looks: list[Candidates] = []
            search_all(work, t, 1.0, retry=True, stretch=True, looks=stretch_looks)
            pocket = search_pocket(work, stretch_looks, t, t.pocket_solved_faces)
        return None if pocket is None else to_detection(pocket, work, width)
    pocket, pocket_work = None, work
    if t.pocket_min_found > 0 and (found is None or found.alike or len(found.found) <= t.pocket_overrule_found):
        # No sure 3x3 face: a 2x2x2's face (seen whole, continued by no sticker) may take the place of the grid.
        pocket = search_pocket(work, first_looks, t)
        if pocket is not None and found is not None and overrules(pocket, found, t):
            found = pocket
    if (found is None or found.alike) and t.retry_edge_piece > 0:
        # Noise, JPEG blocks and glare leave short edge pieces inside small stickers that cut them apart.
        kept, _, _ = search_all(work, t, 1.0, t.retry_canny_factor, retry=True, min_piece=t.retry_edge_piece)
        if kept is not None and (found is None or not kept.alike):
            found = kept
    closer = t.retry_work_width > work.shape[1] and width > work.shape[1]
    closer_work: np.ndarray | None = None  # made once, for whichever closer look needs it first
    if (found is None or found.alike) and closer and small >= t.retry_small_min:
        # Small stickers with thin gaps run together at the work size: look once more, closer.
        closer_work = _downscale(image_bgr, t.retry_work_width)
        closer_found, _, _ = search_all(closer_work, t, 1.0, t.retry_canny_factor, retry=True)
        if closer_found is not None and (
            len(closer_found.found) >= t.retry_min_found or closer_found.variety >= t.retry_min_variety
        ) and (found is None or not closer_found.alike):
            found, work = closer_found, closer_work
    stretch_looks: list[Candidates] = []  # candidates on contrast-equalised planes, for a 2x2x2's face
    if found is None and t.retry_clahe_clip > 0 and t.retry_weak_min <= seen_all <= t.retry_weak_max:
        # Blurred or dim stickers: equalise local contrast, and let weaker edges through, before giving up.
        found = plain_face(search_all(work, t, 1.0, retry=True, stretch=True, looks=stretch_looks)[0])
        if found is None and t.retry_low_canny_factor > 0:
            found = plain_face(search_all(work, t, t.retry_low_canny_factor, retry=True)[0])
    if found is None and closer and t.retry_clahe_clip > 0:
        # Small and blurred or dim: contrast-equalised planes, closer (a tiny stickerless face's tiles only part there).
        closer_work = _downscale(image_bgr, t.retry_work_width) if closer_work is None else closer_work
        factors = [1.0, t.retry_canny_factor] + ([t.retry_low_canny_factor] if t.retry_low_canny_factor > 0 else [])
        found = plain_face(search_all(closer_work, t, *factors, retry=True, stretch=True)[0])
        if found is not None:
            work = closer_work
    if pocket is None and found is None and t.pocket_min_found > 0 and t.pocket_stretch_look and t.retry_clahe_clip > 0:
        # Light stickers on a light body (white on white, faded, glare): their edges rise only once equalised.
        if not stretch_looks:
            search_all(pocket_work, t, 1.0, retry=True, stretch=True, looks=stretch_looks)
        pocket = search_pocket(pocket_work, stretch_looks, t)
    if pocket is not None and found is not pocket and overrules(pocket, found, t,
                                                                 work.shape[1] / pocket_work.shape[1]):
        found, work = pocket, pocket_work  # the 3x3 searches that followed found no sure face either
    return None if found is None else to_detection(found, work, width)
