"""An experiment measured by bench/session_colours.py, NOT used by qbr: the palette a session would name its next
face with, the base palette moved towards the centres it captured (issue #13 item 1, "within a session").

Every captured face's centre is a labelled sample of this cube under this camera: its colour (the face's own light
removed by the same fit ``classify_face`` makes) pulls that palette colour towards it, and its hue as the camera
measured it moves the red/orange boundary. Both moves are bounded, so a misnamed centre cannot drag a colour into
its neighbour's place. Measured on rendered sessions it gained nothing, even knowing the other five centres'
true colours (see README, "Live colour names"), so it stays here, out of the product.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from qbr.vision.classify import adapt_to_palette
from qbr.vision.colour import glare_free_hue, lab_to_srgb, linear_to_lab, srgb_decode, srgb_encode
from qbr.vision.palette import COLOUR_NAMES, Palette
from qbr.vision.tunables import Tunables

_RED = COLOUR_NAMES.index("red")
_ORANGE = COLOUR_NAMES.index("orange")


@dataclass(frozen=True)
class LearnerTunables:
    """The learner's knobs (``--set`` in bench/session_colours.py); defaults: the simplest version measured."""

    session_max_shift: float = 15.0
    """Farthest (CIE76) a captured centre may move its colour from the base palette: a misnamed centre stays its own."""
    session_max_hue_shift: float = 10.0
    """Farthest (degrees) the captured red and orange centres may move the red/orange boundary (phones differ ~10)."""
    session_light_change: float = 1e9
    """Captures whose light (log channel gains of the face's fit, exposure removed) is farther than this from the
    latest capture's are not learnt from (a reset when the light changes; 0.05-0.15 measured no better)."""
    session_light_share: float = 0.0
    """Share of the captured faces' mean light put on all six colours and the boundary (0.5 and 1 measured worse)."""
    session_agree: bool = True
    """Learn only from centres whose own frame name agrees with the session's placement (a placed-by-elimination
    centre may be any colour: without it a lone orange centre placed red moved the boundary into the oranges)."""


@dataclass(frozen=True)
class CapturedCentre:
    """One captured face: its stickers' measured sRGB (rows, the centre at index 4) and the name given its centre."""

    rgb: NDArray[np.float64]
    name: str
    named: str | None = None
    """The name its own frame gave the centre, when it may differ from ``name``: then it teaches nothing."""


def _shifted(base: NDArray[np.float64], target: NDArray[np.float64], bound: float) -> NDArray[np.float64]:
    """``base`` moved to ``target`` (CIELAB), at most ``bound`` away."""
    step = target - base
    length = float(np.linalg.norm(step))
    return base + step * min(1.0, bound / length) if length > 0 else base


def session_palette(base: Palette, captured: Sequence[CapturedCentre],
                    tunables: LearnerTunables = LearnerTunables(),
                    vision: Tunables = Tunables()) -> Palette:  # noqa: B008
    """``base`` with each colour some captured centre was named moved towards how those centres measured.

    A centre's colour is taken after its face's light fit against ``base`` (so a face under another lamp teaches the
    cube's colour, not the lamp's), averaged over centres of one name, and the move is capped at
    ``session_max_shift`` (CIEDE76). Colours no centre was named stay at ``base``. The red/orange boundary follows
    the hue the camera measured for the red and orange centres (that is what the face's own split compares),
    capped at ``session_max_hue_shift`` degrees.
    """
    # A centre placed as one colour but read as another is in doubt (a face placed by elimination): not learnt from.
    agree = [c.named in (None, c.name) or not tunables.session_agree for c in captured]
    usable = [c for c, ok in zip(captured, agree, strict=True)
              if ok and c.name in COLOUR_NAMES and len(c.rgb) == 9 and np.isfinite(c.rgb).all()]
    if not usable:
        return base
    base_lab = base.lab()
    sums = np.zeros((len(COLOUR_NAMES), 3))
    counts = np.zeros(len(COLOUR_NAMES))
    hues: dict[int, list[float]] = {_RED: [], _ORANGE: []}
    faces = [srgb_decode(np.minimum(np.maximum(c.rgb, 0.0), 255.0)) for c in usable]
    fits = [adapt_to_palette(measured, base, vision) for measured in faces]
    lights = np.array([_light(measured, fitted) for measured, fitted in zip(faces, fits, strict=True)])
    # The latest capture's light stands for the next face's: captures under a light much unlike it are left out.
    alike = np.linalg.norm(lights - lights[-1], axis=1) <= tunables.session_light_change
    for centre, measured, fitted, kept in zip(usable, faces, fits, alike.tolist(), strict=True):
        if not kept:
            continue
        k = COLOUR_NAMES.index(centre.name)
        sums[k] += linear_to_lab(fitted[4])
        counts[k] += 1
        if k in hues:
            hues[k].append(float(glare_free_hue(measured[4])))
    learnt = base_lab.copy()
    seen = counts > 0
    learnt[seen] = [_shifted(base_lab[k], sums[k] / counts[k], tunables.session_max_shift)
                    for k in np.flatnonzero(seen).tolist()]
    share = tunables.session_light_share
    light = np.exp(share * lights[alike].mean(axis=0))
    if share > 0:
        seen[:] = True
    linear = srgb_decode(np.clip(lab_to_srgb(learnt), 0.0, 255.0)) * light
    colours = {n: tuple(float(v) for v in np.clip(srgb_encode(linear[k]), 0.0, 255.0))
               for k, n in enumerate(COLOUR_NAMES) if seen[k]}
    boundary = _warm_boundary(base, hues, tunables)
    if share > 0 and (not hues[_RED] or not hues[_ORANGE]):
        warm = base.linear()[[_RED, _ORANGE]]
        shift = float(np.mean(glare_free_hue(warm * light) - glare_free_hue(warm)))
        bound = tunables.session_max_hue_shift
        boundary = base.warm_boundary + min(max(shift, -bound), bound)
    palette = base.with_colours(colours, name=base.name)
    return Palette(colours=palette.colours, name=base.name, samples=base.samples, red_orange_hue=boundary)


def _light(measured: NDArray[np.float64], fitted: NDArray[np.float64]) -> NDArray[np.float64]:
    """The colour of the light a face was measured under (log per-channel gains of its fit, exposure removed)."""
    gains = np.log(np.maximum(measured.sum(axis=0), 1e-9) / np.maximum(fitted.sum(axis=0), 1e-9))
    return gains - gains.mean()


def _warm_boundary(base: Palette, hues: dict[int, list[float]], tunables: LearnerTunables) -> float | None:
    """Where red ends and orange begins: midway between the hues this camera measured the captured red and orange
    centres at, once both are captured (one alone does not say how far the other lies: 8 to 20 degrees)."""
    if not hues[_RED] or not hues[_ORANGE]:
        return base.red_orange_hue
    own = base.warm_boundary
    wanted = (float(np.mean(hues[_RED])) + float(np.mean(hues[_ORANGE]))) / 2
    bound = tunables.session_max_hue_shift
    return float(min(max(min(max(wanted, own - bound), own + bound), 0.0), 90.0))
