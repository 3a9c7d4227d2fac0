"""Plausibility predicates, one per rule: whether a fitted grid is a cube's face, or a chance alignment or tiles (a
lattice bigger than the face is refused by the fit itself, ``grid_max_extra``). The searches (``search``,
``pocket``) apply them in turn; each is switched off alone by ``bench/ablate.py``."""

from __future__ import annotations

import numpy as np

from qbr.vision.detect.colours import gap_colours
from qbr.vision.detect.fit import GridFit
from qbr.vision.detect.geometry import CELL_SPOTS, CELLS, INNER_GAPS, POCKET_GAPS, facing
from qbr.vision.tunables import Tunables


def dark_body(gaps: np.ndarray, cells: np.ndarray, t: Tunables) -> bool:
    """Whether the colours between stickers are much darker than the stickers: a cube body, not grout or a white
    body (NaN rows, off the image, are left out)."""
    gap_level, cell_level = np.nanmedian(gaps.mean(axis=1)), np.nanmedian(cells.mean(axis=1))
    return bool(np.isfinite(gap_level) and gap_level < t.solved_gap_ratio * cell_level)


def dark_joints(work: np.ndarray, fit: GridFit, t: Tunables) -> bool:
    """Whether a grid's cells are joined by a dark cube body (``dark_body``), not grout."""
    if work.ndim != 3:
        return False
    cells = gap_colours(work, fit.homography, CELLS[fit.size])
    return dark_body(gap_colours(work, fit.homography, INNER_GAPS if fit.size == 3 else POCKET_GAPS), cells, t)


def dark_gaps(work: np.ndarray, fit: GridFit, t: Tunables) -> bool:
    """Whether nine alike cells are a solved face: dark joints (a cube body, not grout) or vivid sticker colours."""
    if work.ndim != 3:
        return False
    if dark_joints(work, fit, t):
        return True
    cells = gap_colours(work, fit.homography, CELLS[fit.size])
    # A white-bodied cube has light gaps too, but its stickers are vivid where tiles are greyish.
    vivid = (cells.max(axis=1) - cells.min(axis=1)) / np.maximum(cells.max(axis=1), 1.0)
    return bool(np.nanmedian(vivid) > t.solved_min_saturation)


def pale_face(work: np.ndarray, fit: GridFit, t: Tunables) -> bool:
    """Whether nine alike cells between light gaps are a solved face: all cells but one (a centre's logo, a glare
    spot) of one tint (colour / its mean level), stickers of one plastic only shaded differently (a white face on a
    white or light body); a wall's tiles vary in tint from tile to tile."""
    if work.ndim != 3 or fit.size != 3:
        return False
    # A cell partly off the image (a NaN spot) comes out NaN and counts as the odd one out.
    cells = gap_colours(work, fit.homography, CELL_SPOTS[3]).reshape(9, -1, 3).mean(axis=1)
    tints = cells / np.maximum(cells.mean(axis=1, keepdims=True), 1.0)
    spread = np.linalg.norm(tints - np.nanmedian(tints, axis=0), axis=1)
    return bool(np.sort(np.nan_to_num(spread, nan=np.inf))[-2] <= t.solved_tint_spread)


def plain_face(work: np.ndarray, fit: GridFit | None, t: Tunables) -> GridFit | None:
    """A last-resort search's grid, unless it has squares on its lattice outside (tile walls); a one-coloured one
    only between a dark body's joints or of one pale tint (a white face on a white body shows its edges only
    here): vivid alone, which ``alike_tiles`` takes from the first looks, is a saturated tile panel's too."""
    if fit is None or fit.extras:
        return None
    return None if fit.alike and not (dark_joints(work, fit, t) or pale_face(work, fit, t)) else fit


def loose_fit(fit: GridFit, t: Tunables, max_rms: float) -> bool:
    """Its stickers sit off the lattice (``max_rms``, in pitches) or fill their cells thinly: a chance alignment."""
    return fit.rms > max_rms or fit.fill < t.grid_min_fill


def turned_away(fit: GridFit, t: Tunables) -> bool:
    """Seen more aslant than a face held up to the camera (``grid_min_facing``): a face turned past 45 degrees has a
    neighbour facing the camera more, so the grid is that neighbour's side face (or a pocket of it), seen aslant."""
    return facing(fit.homography, fit.size) < t.grid_min_facing


def alike_tiles(work: np.ndarray, fit: GridFit, t: Tunables) -> bool:
    """Alike squares between light joints, unless a pale face's, or with a square on their lattice outside (the one
    the fit allows, ``grid_max_extra``) unless seen nearly whole and joined by a dark body: tiles, not a solved
    face. That square beside a solved face is a neighbouring face's sticker seen aslant or a note; beside a few
    tiles, the rest of the panel."""
    if not fit.alike:
        return False
    if fit.extras:
        return len(fit.found) < t.solved_extra_found or not dark_joints(work, fit, t)
    return not (dark_gaps(work, fit, t) or pale_face(work, fit, t))


def crowded_pocket(fit: GridFit, t: Tunables) -> bool:
    """A 2x2 grid with lattice-aligned squares around or inside it: part of a bigger face or a wall of tiles."""
    return fit.extras > t.pocket_max_extra or bool(fit.conflicts)


def trusted_retry(fit: GridFit, t: Tunables) -> bool:
    """A retry's sparser edges thin out decoys too: its grid counts only when well filled or many-coloured."""
    return len(fit.found) >= t.retry_min_found or fit.variety >= t.retry_min_variety


def preferred(fit: GridFit, best: GridFit | None) -> bool:
    """Whether ``fit`` is taken over ``best``: a many-coloured grid over a one-coloured one (tiles as likely as a
    solved face), but only when it is as sure (``GridFit.rank``'s first term: stickers seen, less the squares on its
    lattice beyond): a solved face seen whole does not give way to a few stickers and the room's squares; then the
    surer, bigger grid."""
    if best is None:
        return True
    if fit.alike != best.alike:
        many, one = (best, fit) if fit.alike else (fit, best)
        return (many.rank()[0] >= one.rank()[0]) == (many is fit)
    return fit.rank() > best.rank()
