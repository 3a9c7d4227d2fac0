"""Per-frame analysis for the live app: detect the face, measure its stickers, name their colours."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from qbr.vision.detect import FaceDetection


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
