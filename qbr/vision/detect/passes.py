"""``detect_face``: the cascade of search passes, a table of looks tried in turn while no sure face is found.

Each row of ``PASSES`` says where it looks (the work width, or closer), on which planes (plain or
contrast-equalised) and edges (Canny factors, short pieces dropped), what it looks for (a 3x3 grid, or a 2x2x2's
face among earlier looks' candidates), when it runs (a named predicate on what is found so far), which tunables
switch it off, and whether the live profile runs it too: a still photo is the only chance to see its face, a video
shows it again in a moment (``Tunables.photo_passes``). A still photo in which no look finds a face is looked at
again, whole cascade, seen smaller (``Tunables.retry_far_scales``): a face held close is blurred in proportion to
its size. With the cube known to be a 2x2x2 (``size=2``) the same looks run until one finds a 2x2x2's face (a 3x3
grid is no answer, and stops none); the 3x3 looks then only add candidates to the 2x2x2 looks' pool.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from qbr.vision.detect.candidates import Candidates, pooled
from qbr.vision.detect.fit import GridFit
from qbr.vision.detect.kernel import odd
from qbr.vision.detect.noise import noise_limited
from qbr.vision.detect.overrule import overrules
from qbr.vision.detect.planes import downscale, edge_planes, stretched
from qbr.vision.detect.plausible import plain_face, preferred, trusted_retry
from qbr.vision.detect.pocket import search_pocket
from qbr.vision.detect.regions import region_candidates
from qbr.vision.detect.result import FaceDetection, to_detection
from qbr.vision.detect.search import best_grid, search_all
from qbr.vision.tunables import Tunables


@dataclass(frozen=True)
class Look:
    """One pass of the cascade."""

    name: str
    when: str
    """Name of the predicate (``_WHEN``) on what is found so far that lets it run."""
    find: str = "grid"
    """``grid``: a 3x3 face; ``pocket``: a 2x2x2's face among the candidates kept by earlier looks (``among``);
    ``pooled``: a 3x3 face among every earlier look's candidates at once; ``regions``: a 3x3 face among stable
    colour regions instead of edges (``regions.py``)."""
    factors: tuple[str, ...] = ("",)
    """Canny factors in turn, as Tunables fields ("": the plain thresholds); a field at 0 or 1 adds no search."""
    closer: bool = False
    """At ``retry_work_width`` rather than the work width: small stickers' gaps run together at the work width."""
    stretch: bool = False
    """On contrast-equalised planes (CLAHE): a blurred or dim face's outlines rise above Canny's thresholds."""
    min_piece: str = ""
    """Tunables field: edge pieces shorter than this share of the width dropped first."""
    switches: tuple[str, ...] = ()
    """Tunables fields that switch the look off when 0 (or False)."""
    trusted: bool = False
    """Its first factor's grid is taken as found; any other search must pass the retry gates (sparser edges make
    small decoy grids easier to fit): ``retry_min_found`` stickers or ``retry_min_variety``."""
    plain: bool = False
    """A last resort: its grid is refused when one-coloured or with squares on its lattice outside (tile walls)."""
    keep: str = ""
    """Its sticker candidates are kept under this name, for a 2x2x2's face to be sought among them."""
    among: str = ""
    """``pocket`` looks: the kept candidates searched (made by a plain search on equalised planes if none were), at
    the width they were found at (``closer``)."""
    photo_only: bool = True
    """Run in the photo profile only (``Tunables.photo_passes``)."""
    known_pocket: bool = False
    """Run only when the cube is known to be a 2x2x2 (``size=2``: given, or the other photos' faces say so): it
    finds small faces, and 2x2 panels in rooms as often."""
    live_known_pocket: bool = False
    """A photo-only look the camera loop runs too once the cube is known to be a 2x2x2 (a 2x2x2 session: its face is
    all there is to find, while an undecided loop's frames without a cube would all pay for it)."""


PASSES = (
    Look("first", "always", trusted=True, keep="first", photo_only=False),
    # Noise-broken outlines: stricter edges.
    Look("stricter edges", "unsure", factors=("retry_canny_factor",), keep="first"),
    # No sure 3x3 face: a 2x2x2's face (seen whole, continued by no sticker) may take the place of the grid.
    Look("2x2x2", "pocket_may_overrule", find="pocket", among="first", switches=("pocket_min_found",),
         photo_only=False),
    # Noise, JPEG blocks and glare leave short edge pieces inside small stickers that cut them apart; a camera frame
    # gets this look too (physcam hard tuning faces found in one frame 152 -> 179 of 200 for ~0.7 ms when it runs).
    Look("without short edge pieces", "unsure", min_piece="retry_edge_piece", switches=("retry_edge_piece",),
         photo_only=False),
    Look("without short edge pieces, stricter edges", "unsure", factors=("retry_canny_factor",),
         min_piece="retry_edge_piece", switches=("retry_edge_piece",)),
    # Small stickers with thin gaps run together at the work size: look once more, closer.
    Look("closer", "unsure_with_small", factors=("", "retry_canny_factor"), closer=True, keep="closer"),
    # Blurred or dim stickers: equalise local contrast, then let weaker edges through (one switch), before giving up.
    Look("contrast-equalised", "none_among_few", stretch=True, plain=True, keep="stretch",
         switches=("retry_clahe_clip",)),
    Look("weaker edges", "none_among_few", factors=("retry_low_canny_factor",), plain=True,
         switches=("retry_clahe_clip",)),
    # Small and blurred or dim: contrast-equalised planes, closer (a tiny stickerless face's tiles only part there).
    Look("contrast-equalised, closer", "none", factors=("", "retry_canny_factor", "retry_low_canny_factor"),
         closer=True, stretch=True, plain=True, keep="closer", switches=("retry_clahe_clip",)),
    # A dim frame's noise breaks and its blur closes outlines in every edge map: stickers as regions of one colour.
    Look("stable colour regions", "none_noisy", find="regions", plain=True, switches=("region_look",)),
    # Glare, blur and JPEG break different outlines in each edge map: the stickers every look closed, together.
    Look("pooled", "none", find="pooled", plain=True, switches=("pool_same",)),
    # Light stickers on a light body (white on white, faded, glare): their edges rise only once equalised.
    # (In a 2x2x2 session's camera loop too: physcam hard faces in one frame 69.4 -> 75.0% of tuning cubes'.)
    Look("2x2x2, contrast-equalised", "none_nor_pocket", find="pocket", among="stretch", live_known_pocket=True,
         switches=("pocket_min_found", "pocket_stretch_look", "retry_clahe_clip")),
    # A 2x2x2 has no sticker to spare: every look's candidates together (a camera frame too: physcam hard faces in one
    # frame 60.0 -> 69.4% of tuning cubes' for ~0.35 ms where nothing was found).
    Look("2x2x2, pooled", "none_nor_pocket", find="pocket", among="pooled",
         switches=("pocket_min_found", "pocket_pooled_look", "pool_same"), photo_only=False),
    # A small face's stickers are a dozen pixels at the work width: among the closer looks' candidates, at theirs.
    Look("2x2x2, closer", "none_nor_pocket", find="pocket", among="closer", closer=True, known_pocket=True,
         switches=("pocket_min_found", "pocket_closer_look")),
)
"""The cascade, in order (with ``size`` 2: until a 2x2x2's face is found, see the module's docstring)."""


@dataclass
class _Found:
    """What the looks so far have found, and where."""

    grid: GridFit | None = None
    work: np.ndarray | None = None  # where ``grid`` was fitted
    pocket: GridFit | None = None  # a 2x2x2's face
    pocket_work: np.ndarray | None = None  # where ``pocket`` was fitted
    small: int = 0  # small sticker candidates the first look saw
    seen: int = 0  # all sticker candidates the first look saw
    kept: dict[str, list[Candidates]] = dataclasses.field(default_factory=dict)
    pool: list[tuple[Candidates, float]] = dataclasses.field(default_factory=list)  # every look's, scale to base
    base: np.ndarray | None = None  # the frame at the work width
    noisy: bool | None = None  # whether it is noise-limited, once a look asks

    def is_noisy(self, t: Tunables) -> bool:
        if self.noisy is None:
            self.noisy = self.base is not None and noise_limited(edge_planes(self.base)[0], t)
        return self.noisy


def _unsure(f: _Found, t: Tunables) -> bool:
    """No face yet, or only a one-coloured one (tiles as likely as a solved face)."""
    return f.grid is None or f.grid.alike


def _none(f: _Found, t: Tunables) -> bool:
    return f.grid is None


_WHEN: dict[str, Callable[[_Found, Tunables], bool]] = {
    "always": lambda f, t: True,
    "unsure": _unsure,
    "none": _none,
    # A grid of few stickers may be a 2x2x2's face and a stray square or a side face's.
    "pocket_may_overrule": lambda f, t: _unsure(f, t) or len(f.grid.found) <= t.pocket_overrule_found,
    # Small candidates were seen (worth the closer look: about half of the frames without a cube have few).
    "unsure_with_small": lambda f, t: _unsure(f, t) and f.small >= t.retry_small_min,
    # A bare or flat frame (few candidates) and a cluttered room (many, costly to search again) are not searched.
    "none_among_few": lambda f, t: _none(f, t) and t.retry_weak_min <= f.seen <= t.retry_weak_max,
    # Stable colour regions cost tens of ms: only where noise, not a missing cube, may be what the edge looks failed on.
    "none_noisy": lambda f, t: _none(f, t) and f.is_noisy(t),
    "none_nor_pocket": lambda f, t: _none(f, t) and f.pocket is None,
}



def _factors(look: Look, t: Tunables) -> list[float]:
    """The look's Canny factors in turn: the plain thresholds, and each field's unless 0 or 1 (off; searched)."""
    values = [1.0 if not name else float(getattr(t, name)) for name in look.factors]
    return list(dict.fromkeys(v for k, v in enumerate(values) if not look.factors[k] or v not in (0.0, 1.0)))


def _runs(look: Look, found: _Found, t: Tunables, closer: bool, size: int | None) -> bool:
    return ((t.photo_passes or not look.photo_only or (size == 2 and look.live_known_pocket))
            and all(getattr(t, name) for name in look.switches)
            and (closer or not look.closer) and (size == 2 or not look.known_pocket)
            and not (size == 2 and found.pocket is not None)
            and _WHEN[look.when](found, t))


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
    found = _cascade(image_bgr, t, size)
    if found is not None or not t.photo_passes:
        return found
    for scale in t.retry_far_scales:
        # A face held close is out of focus in proportion to its size: seen smaller, its outlines close.
        far = round(scale * t.work_width)
        if image_bgr.shape[1] <= far:
            break
        found = _cascade(image_bgr, dataclasses.replace(t, work_width=far, retry_work_width=0), size)
        if found is not None and found.pitch() >= t.retry_far_min_pitch * image_bgr.shape[1]:
            return found
    return None


def _cascade(image_bgr: np.ndarray, t: Tunables, size: int | None) -> FaceDetection | None:
    """The looks of ``PASSES`` at the work width, in turn."""
    width = image_bgr.shape[1]
    base = downscale(image_bgr, t.work_width)
    found = _Found(work=base, base=base)
    closer = t.retry_work_width > base.shape[1] and width > base.shape[1]
    works = {False: base}  # the frame at the work width, and closer: each made once, when first needed
    planes: dict[tuple[bool, bool], list[np.ndarray]] = {}
    cannies: dict[tuple[bool, bool], dict[float, np.ndarray]] = {}  # each plane set's Canny edges by factor
    grids = size != 2  # a 3x3 grid is no answer for a 2x2x2: its looks only gather candidates, none fits a grid
    for look in PASSES:
        if not _runs(look, found, t, closer, size):
            continue
        if look.closer and True not in works:
            works[True] = downscale(image_bgr, t.retry_work_width)
        work = works[look.closer]
        if look.find == "pocket":
            if look.among == "pooled" and "pooled" not in found.kept:  # the 3x3 pooled look keeps them
                found.kept["pooled"] = [pooled(found.pool, t.pool_same)]
            elif look.among not in found.kept:  # no earlier look made them: a plain one on equalised planes
                search_all(work, _planes(planes, work, look.closer, True, t), t, [1.0], looks=found.kept.setdefault(
                    look.among, []), grids=False)
            pocket = search_pocket(work, found.kept[look.among], t, size == 2 and t.pocket_solved_faces)
            found.pocket, found.pocket_work = pocket, work
            if pocket is not None and found.grid is not None and size != 2 and overrules(pocket, found.grid, t):
                found.grid, found.work = pocket, work
            continue
        if look.find in ("regions", "pooled"):
            if look.find == "regions":
                cands = region_candidates(base, t)
                found.pool.append((cands, 1.0))  # the pooled look searches them with the edge looks' too
            else:
                cands = pooled(found.pool, t.pool_same)
                found.kept["pooled"] = [cands]
            grid = best_grid(base, cands, t, odd(t.dilate_size * base.shape[1])) if grids else None
            if grid is not None and trusted_retry(grid, t):
                found.grid = plain_face(base, grid, t)
                found.work = base if found.grid is not None else found.work
            continue
        factors = _factors(look, t)
        if not factors:
            continue
        looks = found.kept.setdefault(look.keep, []) if look.keep else []
        before = len(looks)
        grid, small, seen = search_all(work, _planes(planes, work, look.closer, look.stretch, t), t, factors,
                                       trusted=look.trusted, looks=looks,
                                       min_piece=getattr(t, look.min_piece) if look.min_piece else 0.0,
                                       made=cannies.setdefault((look.closer, look.stretch), {}), grids=grids)
        found.pool.extend((c, base.shape[1] / work.shape[1]) for c in looks[before:])
        if look.trusted:
            found.grid, found.small, found.seen = grid, small, seen
        elif look.plain:
            found.grid = plain_face(work, grid, t)
            found.work = work if found.grid is not None else found.work
        elif grid is not None and (found.grid is None or (not grid.alike and preferred(grid, found.grid))):
            found.grid, found.work = grid, work  # a one-coloured grid does not replace an earlier find
    if size == 2:
        return None if found.pocket is None else to_detection(found.pocket, found.pocket_work, width)
    grid, work = found.grid, found.work
    if found.pocket is not None and grid is not found.pocket and overrules(
            found.pocket, grid, t, work.shape[1] / found.pocket_work.shape[1]):
        grid, work = found.pocket, found.pocket_work  # the 3x3 searches that followed found no sure face either
    return None if grid is None else to_detection(grid, work, width)


def _planes(made: dict[tuple[bool, bool], list[np.ndarray]], work: np.ndarray, closer: bool, stretch: bool,
            t: Tunables) -> list[np.ndarray]:
    """The edge planes of ``work`` (contrast-equalised when ``stretch``), each made once per frame."""
    if (closer, stretch) not in made:
        made[(closer, stretch)] = stretched(edge_planes(work), t) if stretch else edge_planes(work)
    return made[(closer, stretch)]
