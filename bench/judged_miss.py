"""Whether a wrong cube is the search's miss or the model's: does the whole-cube judge score the truth better?

*search*: the judge (``qbr.vision.resolve.judge``) scores the true colouring better than the one found, so the
descents never reached it; *model*: the judge itself prefers the wrong cube (the measurements, as judged, favour it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from qbr.cube.conventions import FACES
from qbr.vision.colour import srgb_decode
from qbr.vision.resolve.judge import judge
from qbr.vision.resolve.measured import read_trust
from qbr.vision.tunables import Tunables


def judged_better(rgb: Mapping[str, Any], truth: str, got: str, trust: Mapping[str, Any] | None = None,
                  tunables: Tunables = Tunables()) -> bool:  # noqa: B008
    """Whether the judge scores the true colouring better than the one found (a search miss, not the model's)."""
    linear = srgb_decode(np.concatenate([np.asarray(rgb[f], float).reshape(9, 3) for f in FACES]))
    measured = np.ones(54, dtype=bool)
    weights = read_trust(trust, 9, tunables)
    scores = [judge(linear, measured, np.array([FACES.index(c) if c in FACES else 0 for c in facelets]), tunables,
                    weights)[0] for facelets in (truth, got)]
    return scores[0] < scores[1]


def miss_kind(rgb: Mapping[str, Any], truth: str, got: str, trust: Mapping[str, Any] | None = None,
              tunables: Tunables = Tunables()) -> str:  # noqa: B008
    return "search" if judged_better(rgb, truth, got, trust, tunables) else "model"
