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

from qbr.cube.conventions import FACES, facelet_name
from qbr.cube.validate import ProblemKind, validate
from qbr.vision.colour import lab_to_srgb, srgb_decode
from qbr.vision.palette import DEFAULT_PALETTE, Palette
from qbr.vision.resolve.alternatives import find_alternatives, margins
from qbr.vision.resolve.as_seen import as_seen
from qbr.vision.resolve.doubt import find_doubt
from qbr.vision.resolve.judge import judge
from qbr.vision.resolve.measured import read_cube_colours, read_trust, unreadable_problem
from qbr.vision.resolve.naming import name_colours
from qbr.vision.resolve.pieces import CENTRE_SLOTS, PIECE_FACELETS
from qbr.vision.resolve.refusal import alike_colours, centre_rival, misfit_share, not_a_cube_problem
from qbr.vision.resolve.result import Doubt, Resolution, least_certain, resolution, unreadable
from qbr.vision.resolve.search import solve
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
    if not measured[CENTRE_SLOTS].all():
        # Without every centre there is nothing to anchor the colours to.
        return unreadable(measured, facelet_name)
    weights = read_trust(trust, 9, tunables)
    read = read_turned_back(stickers, measured, tunables, weights)
    measured, fit = read.measured, read.fit
    turned = {FACES[f]: k for f, k in sorted(read.turns.items())}
    names = name_colours(np.clip(lab_to_srgb(fit.anchors), 0.0, 255.0), palette)
    if fit.solution is None:
        return as_seen(fit.cost, np.zeros(54), measured, fit.anchors, names, tunables, turned)
    colours = fit.solution[0]
    # How much worse each sticker fits its colour in the cube than its nearest colour: several large ones mean
    # the measurements are not of one real cube (e.g. a face scanned turned), and forcing one would mislead.
    misfit = fit.cost[np.arange(54), colours] - fit.cost.min(axis=1)
    misfit[CENTRE_SLOTS] = 0.0  # a centre is its face's colour by definition: far off only if misread (a logo, glare)
    clashing = misfit > tunables.resolve_misfit
    if np.count_nonzero(clashing) > tunables.resolve_max_repairs:
        return as_seen(fit.cost, misfit, measured, fit.anchors, names, tunables, turned)
    facelets = "".join(FACES[c] if ok else "?" for c, ok in zip(colours, measured, strict=True))
    # Confidence from a cost matrix that does not favour this colouring: each sticker against its colour's mean
    # without itself, in the light fitted to the colouring.
    linear = srgb_decode(np.where(measured[:, None], read.stickers, 0.0))
    score, honest, anchors = judge(linear, measured, colours, tunables, read.trust)
    found = solve(honest, tunables.resolve_max_nodes)
    cap = tunables.resolve_margin_cap * tunables.resolve_sticker_margin_scale
    # Alternatives dearer than this cannot come within ``cap`` per sticker (an alternative changes 2+ stickers,
    # most change 4-6; a few of those beyond it are missed, at most a little less sure than shown).
    reach = tunables.resolve_alternative_stickers * cap
    alternatives = [] if found is None else find_alternatives(found[1], found[2], tunables.resolve_max_nodes, reach)
    if found is not None and (found[0] != colours).any():
        alternatives.append((0.0, found[0]))  # judged fairly, another real cube is as cheap
    # One cost matrix still favours the colouring it was fitted to (a face's light, the colours' means): the
    # closest alternatives are judged again, each with its own light and colours fitted.
    judged: dict[bytes, float] = {}
    for _, shows in sorted(alternatives, key=lambda a: a[0]):
        key = shows.tobytes()
        if key not in judged and len(judged) < tunables.resolve_rejudged:
            judged[key] = max(judge(linear, measured, shows, tunables, read.trust)[0] - score, 0.0)
    alternatives = [(judged.get(shows.tobytes(), extra), shows) for extra, shows in alternatives]
    alternatives += fit.rivals  # other starts that ended in a cube nearly as cheap
    alternatives += [(extra, shows) for extra, shows, _ in read.turned_rivals]
    margin = margins(colours, alternatives, cap)
    confidence = np.where(measured, 1.0 - np.exp(-margin / tunables.resolve_sticker_margin_scale), 0.0)
    confidence[clashing] = 0.0  # repaired by the pieces, not seen: worth a look
    confidence[CENTRE_SLOTS] = 1.0
    problems = [unreadable_problem(~measured, facelet_name)] if not measured.all() else validate(facelets, names)
    spread = np.array([np.median(honest[measured & (colours == c), c]) for c in range(6)])
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
    uncertain = least_certain(confidence, tunables)
    doubt = find_doubt(confidence, measured, tunables)
    if doubt is not None and read.turned_rivals:
        # If the closest alternative reads one face turned, that face is the one to show again.
        extra, shows, face = min(read.turned_rivals, key=lambda r: r[0] / max(np.count_nonzero(r[1] != colours), 1))
        if extra / max(np.count_nonzero(shows != colours), 1) <= margin[list(doubt.stickers)].min() + 1e-9:
            doubt = Doubt(doubt.stickers, FACES[face])
    if doubt is not None and any(p.kind is ProblemKind.COLOURS for p in problems):
        doubt = Doubt(doubt.stickers, None)
    return resolution(facelets, problems, confidence, uncertain, names, doubt=doubt, turned=turned)
