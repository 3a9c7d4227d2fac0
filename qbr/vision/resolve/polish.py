"""The colouring the descents found, polished: a nearly as cheap real cube the judge scores better takes its place.

The descents compare their ends by the judge, but each walks downhill in its own cost matrix (its light, its
colours' means), so it can stop one piece swap or flip away from a cube the judge scores better. Around the
colouring, the real cubes nearly as cheap under the judge's own cost matrix are looked for anyway (they give the
confidence), and the closest judged again with their own light fitted. If one scores better, the descent is started
from it; where that descent settles replaces the colouring if the judge scores it better too, and its own neighbours
are looked at, until nothing is better. A neighbour is never taken as it is: light and colours refitted to any
colouring flatter it (a face's cast absorbs a few recoloured stickers), and taken so, the judge's preferences lose
more cubes than they win (tuning, augmented and physcam).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from qbr.vision.resolve.alternatives import Alternative, find_alternatives
from qbr.vision.resolve.descent import descend_from
from qbr.vision.resolve.judge import judge
from qbr.vision.resolve.search import solve
from qbr.vision.tunables import Tunables


@dataclass(frozen=True)
class Judged:
    """A colouring as the judge sees it, with the real cubes nearly as cheap around it."""

    colours: NDArray[np.intp]
    score: float  # see judge
    honest: NDArray[np.float64]  # sticker x colour, each sticker against its colour's mean without itself
    anchors: NDArray[np.float64]  # the six colours (Lab)
    alternatives: list[Alternative]  # how much dearer (the closest judged again, never below 0), and their colours
    better: tuple[float, NDArray[np.intp]] | None  # the best judged again if it scores better than ``colours``


def judged_neighbours(linear: NDArray[np.float64], measured: NDArray[np.bool_], colours: NDArray[np.intp],
                      tunables: Tunables, trust: NDArray[np.float64] | None = None) -> Judged:
    """The judge's score of ``colours`` and the real cubes nearly as cheap under its cost matrix, the closest
    judged again each with its own light and colours fitted (one cost matrix favours the colouring it was fitted to).
    """
    score, honest, anchors = judge(linear, measured, colours, tunables, trust)
    found = solve(honest, tunables.resolve_max_nodes)
    cap = tunables.resolve_margin_cap * tunables.resolve_sticker_margin_scale
    # Alternatives dearer than this cannot come within ``cap`` per sticker (an alternative changes 2+ stickers,
    # most change 4-6; a few of those beyond it are missed, at most a little less sure than shown).
    reach = tunables.resolve_alternative_stickers * cap
    alternatives = [] if found is None else find_alternatives(found[1], found[2], tunables.resolve_max_nodes, reach)
    if found is not None and (found[0] != colours).any():
        alternatives.append((0.0, found[0]))  # judged fairly, another real cube is as cheap
    judged: dict[bytes, float] = {}
    better: tuple[float, NDArray[np.intp]] | None = None
    for _, shows in sorted(alternatives, key=lambda a: a[0]):
        key = shows.tobytes()
        if key in judged or len(judged) >= tunables.resolve_rejudged or not (shows != colours).any():
            continue
        judged[key] = judge(linear, measured, shows, tunables, trust)[0]
        if judged[key] < score and (better is None or judged[key] < better[0]):
            better = (judged[key], shows)
    alternatives = [(max(judged[shows.tobytes()] - score, 0.0) if shows.tobytes() in judged else extra, shows)
                    for extra, shows in alternatives]
    return Judged(colours, score, honest, anchors, alternatives, better)


def polish(linear: NDArray[np.float64], measured: NDArray[np.bool_], colours: NDArray[np.intp], tunables: Tunables,
           trust: NDArray[np.float64] | None = None) -> Judged:
    """From ``colours``, move to a nearly as cheap real cube the judge scores better while there is one."""
    current = judged_neighbours(linear, measured, colours, tunables, trust)
    for _ in range(tunables.resolve_polish_rounds):
        if current.better is None:
            break
        # Only a colouring the descent settles in is taken: one cost matrix refitted to any neighbour flatters it.
        end = descend_from(linear, measured, current.better[1], tunables, trust)
        if end is None or np.array_equal(end, current.colours):
            break
        if judge(linear, measured, end, tunables, trust)[0] >= current.score:
            break
        current = judged_neighbours(linear, measured, end, tunables, trust)
    return current
