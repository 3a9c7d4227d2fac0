"""Whole-cube colour resolution: 54 measured sticker colours -> the facelet string, using what a cube is.

The old app named each sticker alone by its nearest palette colour, so under real light orange read as red and
a dim white as blue. Here the six centres anchor the colours (they never move and are measured in the same light
as the rest), and the stickers are assigned as *pieces*: each corner position takes one of the 8 corners in one
of 3 twists, each edge position one of the 12 edges in one of 2 flips, every piece exactly once, total twist,
flip and permutation parity those of a real cube. The cheapest such cube (costs are CIEDE2000 distances from
stickers to their colour's anchor) is found exactly with a ranked assignment search; the anchors are then
re-estimated from the nine stickers of each colour and each face's colour cast removed, and the search repeated.
A centre's *measurement* is not trusted blindly (a logo on the white centre, glare): the descent above is also
started from the stickers clustered nine to a colour, where a misread centre is outvoted by its colour's eight
other stickers, and both again after each face's light was fitted to the default palette; the colouring that fits
best wins.

A facelet's confidence comes from how much dearer the best real cube is that shows it in another colour. If no
real cube fits without forcing several stickers far from their measured colour (a face scanned turned, say),
the result is the stickers as seen, with what is impossible about them, rather than a made-up cube.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from qbr.cube.completions import unsettled_stickers
from qbr.cube.conventions import FACES, facelet_name
from qbr.cube.validate import ProblemKind, validate
from qbr.vision.colour import lab_to_srgb, srgb_decode
from qbr.vision.palette import DEFAULT_PALETTE, Palette
from qbr.vision.resolve.alternatives import margins
from qbr.vision.resolve.as_seen import as_seen
from qbr.vision.resolve.doubt import find_doubt
from qbr.vision.resolve.lost_face import deducible
from qbr.vision.resolve.measured import read_cube_colours, read_trust, unreadable_problem
from qbr.vision.resolve.naming import name_colours
from qbr.vision.resolve.pieces import CENTRE_SLOTS, PIECE_FACELETS
from qbr.vision.resolve.polish import polish
from qbr.vision.resolve.refusal import alike_colours, centre_rival, misfit_share, not_a_cube_problem
from qbr.vision.resolve.result import Doubt, Resolution, least_certain, resolution, unreadable
from qbr.vision.resolve.turned import read_turned_back
from qbr.vision.tunables import Tunables


def resolve_cube(
    rgb: Mapping[str, Any],
    palette: Palette | None = None,
    tunables: Tunables = Tunables(),  # noqa: B008
    trust: Mapping[str, Any] | None = None,
) -> Resolution:
    """Resolve six faces of measured sticker colours (face letter -> nine sRGB rows, net order) into a cube.

    Never raises: missing faces, wrong shapes and non-finite values give ``valid=False`` with problems, and
    ``?`` in ``facelets`` where nothing usable was measured. ``palette`` only names the colours. A face that was
    photographed turned is read turned back (``turned`` says which, so the user can be told). ``trust`` (face
    letter -> nine values 0..1, e.g. 1 - ``StickerColours.spot``) weighs each sticker in the light fit and in the
    cost of its colour: a sticker mostly lit by a glare spot is decided more by its pieces. Missing faces or values
    count as 1.
    """
    palette = palette or DEFAULT_PALETTE
    stickers = read_cube_colours(rgb, 9)
    measured = np.isfinite(stickers).all(axis=1)
    if not measured[CENTRE_SLOTS].all() and not deducible(measured):
        # Without every centre there is nothing to anchor the colours to, unless one whole face is lost.
        return unreadable(measured, facelet_name)
    weights = read_trust(trust, 9, tunables)
    read = read_turned_back(stickers, measured, tunables, weights)
    measured, fit = read.measured, read.fit
    turned = {FACES[f]: k for f, k in sorted(read.turns.items())}
    names = name_colours(np.clip(lab_to_srgb(fit.anchors), 0.0, 255.0), palette)
    if fit.solution is None:
        return as_seen(fit.cost, np.zeros(54), measured, fit.anchors, names, tunables, turned)
    # How much worse each sticker fits its colour in the cube than its nearest colour: several large ones mean
    # the measurements are not of one real cube (e.g. a face scanned turned), and forcing one would mislead.
    misfit = _misfit(fit.cost, fit.solution[0])
    if np.count_nonzero(misfit > tunables.resolve_misfit) > tunables.resolve_max_repairs:
        return as_seen(fit.cost, misfit, measured, fit.anchors, names, tunables, turned)
    # Confidence from a cost matrix that does not favour this colouring: each sticker against its colour's mean
    # without itself, in the light fitted to the colouring; a nearly as cheap cube the judge prefers replaces it.
    linear = srgb_decode(np.where(measured[:, None], read.stickers, 0.0))
    polished = polish(linear, measured, fit.solution[0], tunables, read.trust)
    colours, honest, anchors, alternatives = polished.colours, polished.honest, polished.anchors, polished.alternatives
    clashing = _misfit(fit.cost, colours) > tunables.resolve_misfit
    # A lost face's stickers are what its pieces, placed by the other five faces, show.
    known = measured | deducible(measured)
    deduced = tuple(int(i) for i in np.flatnonzero(known & ~measured))
    facelets = "".join(FACES[c] if ok else "?" for c, ok in zip(colours, known, strict=True))
    cap = tunables.resolve_margin_cap * tunables.resolve_sticker_margin_scale
    # Other starts that ended in a cube nearly as cheap, and faces read turned: dearer than the found colouring
    # by what they were, and than the polished one by what polishing gained besides.
    gained = fit.score - polished.score
    alternatives += [(extra + gained, shows) for extra, shows in fit.rivals]
    alternatives += [(extra + gained, shows) for extra, shows, _ in read.turned_rivals]
    margin = margins(colours, alternatives, cap)
    confidence = np.where(known, 1.0 - np.exp(-margin / tunables.resolve_sticker_margin_scale), 0.0)
    confidence[clashing] = 0.0  # repaired by the pieces, not seen: worth a look
    confidence[CENTRE_SLOTS] = 1.0
    problems = [unreadable_problem(~known, facelet_name)] if not known.all() else validate(facelets, names)
    spread = np.array([np.median(honest[measured & (colours == c), c]) if (measured & (colours == c)).any()
                       else np.nan for c in range(6)])  # a lost face's colour may be seen on no other face
    problems += alike_colours(anchors, spread, names, tunables)
    if misfit_share(honest, colours, measured) > tunables.resolve_max_misfit_share:
        problems.append(not_a_cube_problem(
            "spread", "the measured colours do not fall into six colours of a cube: scan again in even light"))
        confidence[PIECE_FACELETS] = 0.0
    elif (centre_rival(honest, colours) < tunables.resolve_centre_margin
          or np.count_nonzero(honest[CENTRE_SLOTS, np.arange(6)] > tunables.resolve_misfit)
          > tunables.resolve_max_misread_centres):
        problems.append(not_a_cube_problem(
            "centres", "the centres do not tell which colour belongs to which face: scan them again"))
        confidence[PIECE_FACELETS] = 0.0
    # The five faces seen may fit more than one real cube (two leftover edges showing one colour): only the face
    # never seen settles its stickers, so they are in doubt however well the rest was read.
    lost = FACES[deduced[0] // 9] if deduced else None
    unsettled = unsettled_stickers(facelets, lost) if lost is not None and not problems else ()
    confidence[list(unsettled)] = 0.0
    uncertain = least_certain(confidence, tunables)
    # A lost face leaves its pieces' other stickers to tell them alone: a misread there shows in no other sticker.
    doubt = find_doubt(confidence, known, tunables, tunables.resolve_lost_doubt_below if deduced else None)
    if doubt is not None and read.turned_rivals:
        # If the closest alternative reads one face turned, that face is the one to show again.
        extra, shows, face = min(read.turned_rivals, key=lambda r: r[0] / max(np.count_nonzero(r[1] != colours), 1))
        if (extra + gained) / max(np.count_nonzero(shows != colours), 1) <= margin[list(doubt.stickers)].min() + 1e-9:
            doubt = Doubt(doubt.stickers, FACES[face])
    if unsettled and doubt is not None:
        doubt = Doubt(doubt.stickers, lost)
    if doubt is not None and any(p.kind is ProblemKind.COLOURS for p in problems):
        doubt = Doubt(doubt.stickers, None)
    return resolution(facelets, problems, confidence, uncertain, names, doubt=doubt, turned=turned, deduced=deduced,
                      unsettled=unsettled)


def _misfit(cost: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """How much worse each sticker fits its colour in the cube than its nearest colour (centres: 0)."""
    misfit = cost[np.arange(54), colours] - cost.min(axis=1)
    misfit[CENTRE_SLOTS] = 0.0  # a centre is its face's colour by definition: far off only if misread (a logo, glare)
    return misfit
