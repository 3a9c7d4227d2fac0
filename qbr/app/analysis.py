"""Per-frame analysis for the live app: detect the face, measure its stickers, name their colours."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from qbr.vision.detect import FaceDetection
    from qbr.vision.palette import Palette
    from qbr.vision.tunables import Tunables


@dataclass(frozen=True)
class FrameAnalysis:
    """One analysed frame."""

    detection: FaceDetection | None
    """Stickers (9,4,2), outline (4,2), confidence; from qbr.vision.detect."""
    rgb: np.ndarray | None
    """(9,3) measured sRGB."""
    colours: tuple[str, ...] | None
    """Nine colour names from classify_face."""
    confidence: np.ndarray | None
    """(9,) classification confidence."""


def analyse_frame(
    image: np.ndarray, tunables: Tunables, palette: Palette, size: int | None = None
) -> FrameAnalysis | None:
    """Detect, measure and name one frame's face; None when no face is in it (the per-frame path: a few ms).

    ``size``: the cube's faces to look for (None: either; the session switches to a 2x2x2 held steady).
    """
    from qbr.vision.classify import classify_face
    from qbr.vision.detect import detect_face
    from qbr.vision.measure import measure_stickers_with_spread

    detection = detect_face(image, tunables, size)
    if detection is None:
        return None
    measured = measure_stickers_with_spread(image, detection, tunables)
    rgb = measured.rgb
    # A sticker lost to glare is shown uncertain, never a sure white.
    colours = classify_face(rgb, palette, tunables, glare=measured.glare)
    return FrameAnalysis(detection=detection, rgb=rgb, colours=tuple(colours.names), confidence=colours.confidence)
