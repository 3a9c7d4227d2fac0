"""Every place a 2x2x2's face could lie in a photo, refused or not: guesses for when the cube's other faces decide.

Detection proper judges a photo alone and refuses what it cannot prove; these guesses keep what it refused — each
sticker-like region as any of the four stickers, a long one as two alike stickers run together, every 2x2 grid a
single-photo rule vetoed — so that ``qbr.vision.pocket_recover`` can try them against the rest of the cube.
Many are wrong; alone, a guess is nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from qbr.vision.detect.candidates import Candidates
from qbr.vision.detect.fit import GridFit
from qbr.vision.detect.geometry import apply_homography
from qbr.vision.detect.kernel import odd
from qbr.vision.detect.lattice import hypotheses
from qbr.vision.detect.planes import downscale, edge_planes, stretched
from qbr.vision.detect.pocket_fit import fit_pocket
from qbr.vision.detect.result import FaceDetection, to_detection
from qbr.vision.detect.search import search_all
from qbr.vision.tunables import Tunables

_CELL_CENTRES = np.array([(c + 0.5, r + 0.5) for r in range(2) for c in range(2)], dtype=np.float64)


def _grid(centre: np.ndarray, along: np.ndarray, across: np.ndarray, at: tuple[float, float]) -> np.ndarray:
    """The affine grid -> work-pixel map with cell axes ``along``/``across`` that puts grid point ``at`` on
    ``centre``."""
    offset = centre - along * at[0] - across * at[1]
    return np.array([[along[0], across[0], offset[0]], [along[1], across[1], offset[1]], [0.0, 0.0, 1.0]])


def _sticker_grids(cands: Candidates, t: Tunables) -> Iterator[np.ndarray]:
    """Grids proposed by single candidates: a square one as each of the four stickers, a long one (two alike
    stickers run together) as either row or column of two."""
    for k in range(len(cands.sizes)):
        a, b = cands.axis_a[k], cands.axis_b[k]
        la, lb = float(np.hypot(*a)), float(np.hypot(*b))
        if min(la, lb) <= 0:
            continue
        ratio = max(la, lb) / min(la, lb)
        centre = cands.centres[k]
        if ratio <= t.pocket_recover_square:
            for at in _CELL_CENTRES:
                yield _grid(centre, a / t.pocket_recover_fill, b / t.pocket_recover_fill, (at[0], at[1]))
        elif t.pocket_recover_pair_low <= ratio <= t.pocket_recover_pair_high:
            long, short = (a, b) if la > lb else (b, a)
            pitch = min(la, lb) / t.pocket_recover_fill
            along = long / max(la, lb) * pitch
            across = short / t.pocket_recover_fill
            if (along[0] * across[1] - along[1] * across[0]) * (a[0] * b[1] - a[1] * b[0]) < 0:
                across = -across  # keep the quad's handedness: a mirrored grid would list the stickers transposed
            for row in (0.5, 1.5):
                yield _grid(centre, along, across, (1.0, row))


def _refused_grids(cands: Candidates, t: Tunables, dilation: int) -> Iterator[np.ndarray]:
    """2x2 grids fitted to three or four candidates, whatever the single-photo vetoes (bigger lattices, a
    sticker-like cell beyond a side, alike colours) said of them."""
    tried = np.zeros(len(cands.sizes), dtype=bool)
    for anchor, members, cells_of in hypotheses(cands, t, size=2):
        if tried[anchor]:
            continue
        fit: GridFit | None = fit_pocket(cands, *cells_of(), t, dilation)
        tried[members] = True
        if fit is not None and fit.rms <= t.pocket_max_rms:
            yield fit.homography


def face_guesses(image_bgr: np.ndarray, tunables: Tunables = Tunables()) -> list[FaceDetection]:  # noqa: B008
    """Every place a 2x2x2's face could lie in the photo, as detections (many are wrong: the cube decides)."""
    t = tunables
    work = downscale(image_bgr, t.work_width)
    looks: list[Candidates] = []
    # As detection's first look (stricter edges too, in the photo profile) and its contrast-equalised one.
    planes = edge_planes(work)
    search_all(work, planes, t, list(dict.fromkeys((1.0, t.retry_canny_factor if t.photo_passes else 1.0))),
               trusted=True, looks=looks)
    if t.retry_clahe_clip > 0 and t.photo_passes:
        search_all(work, stretched(planes, t), t, [1.0], looks=looks)
    dilation = odd(t.dilate_size * work.shape[1])
    height, width = work.shape[:2]
    guesses: list[FaceDetection] = []
    kept: list[np.ndarray] = []  # sticker centres (work pixels) of the guesses kept, to drop repeats
    for cands in looks:
        if len(cands.sizes) == 0:
            continue
        for h in [*_refused_grids(cands, t, dilation), *_sticker_grids(cands, t)]:
            centres = apply_homography(h, _CELL_CENTRES)
            pitch = float(np.hypot(*(centres[1] - centres[0])))
            outline = apply_homography(h, np.array([(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)]))
            if pitch <= 0 or (outline < 0).any() or (outline[:, 0] > width - 1).any() or (
                    outline[:, 1] > height - 1).any():
                continue  # a face cut by the frame's edge cannot be measured whole
            if any(np.abs(c - centres).max() < t.pocket_recover_repeat * pitch for c in kept):
                continue
            kept.append(centres)
            fit = GridFit(h, np.zeros(0, dtype=np.intp), np.zeros((0, 2), dtype=int), 0.0, 0, 0.0,
                           t.pocket_recover_fill, size=2)
            guesses.append(to_detection(fit, work, image_bgr.shape[1]))
    return guesses
