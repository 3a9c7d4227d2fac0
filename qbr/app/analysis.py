"""Per-frame analysis for the live app: detect the face, measure its stickers, name their colours.

``analyse_frame`` reads one frame alone (a photo); ``StreamAnalyser`` reads a camera's or a video's frames in
turn, keeping a face held through the frames its detection misses (``qbr.vision.held_face``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from qbr.vision.detect import FaceDetection
    from qbr.vision.held_face import HeldFace
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
    carried: int = 0
    """Frames in a row (this one included) measured with the last detection, for lack of one of their own."""
    spot: np.ndarray | None = None
    """(9,) share of each sticker's light a glare spot adds (``StickerColours.spot``): resolution trusts it less."""
    own: np.ndarray | None = None
    """(9,3) sRGB with that spot's light taken off (``StickerColours.own``): what resolution reads (None: ``rgb``)."""
    spread: np.ndarray | None = None
    """(9,) the samples' spread (``StickerColours.spread``): a centre printed on is a logo's white (face identity)."""


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
    colours = classify_face(rgb, palette, tunables, glare=measured.glare, spot=measured.spot, spread=measured.spread)
    return FrameAnalysis(detection=detection, rgb=rgb, colours=tuple(colours.names), confidence=colours.confidence,
                         spot=measured.spot, own=measured.own, spread=measured.spread)


class StreamAnalyser:
    """Analyses a stream's frames in turn: a frame whose detection failed while a face is held is measured with the
    last detection (``HeldFace``), so a dim face missed now and then stays seen."""

    def __init__(self, tunables: Tunables) -> None:
        self.tunables = tunables
        self.held: HeldFace | None = None

    def __call__(self, image: np.ndarray, palette: Palette, size: int | None = None) -> FrameAnalysis | None:
        """The analysis of the stream's next frame; None when no face is held in it."""
        from qbr.vision.classify import classify_face
        from qbr.vision.detect import detect_face
        from qbr.vision.held_face import hold_face

        t = self.tunables
        self.held = hold_face(self.held, image, detect_face(image, t, size), t)
        if self.held is None:
            return None
        measured = self.held.colours
        colours = classify_face(measured.rgb, palette, t, glare=measured.glare, spot=measured.spot,
                                spread=measured.spread)
        return FrameAnalysis(detection=self.held.detection, rgb=measured.rgb, colours=tuple(colours.names),
                             confidence=colours.confidence, carried=self.held.carried, spot=measured.spot,
                             own=measured.own, spread=measured.spread)


def frame_analyser(tunables: Tunables, photos: bool) -> Callable[[np.ndarray, Palette], FrameAnalysis | None]:
    """How a source's frames are analysed: photos each alone (each shows another face), a stream's in turn."""
    if photos:
        return lambda image, palette: analyse_frame(image, tunables, palette)
    return StreamAnalyser(tunables)
