"""A face held steady in a live stream, kept through the frames its detection misses.

A live camera shows the same face for many frames, and a dim face's detection misses some of them. While a face is
held, a frame without a detection of its own is measured with the last detection's stickers (a steady hand barely
moves the face between frames), at most ``held_carry`` frames in a row and only while every sticker still looks as
it did; so a dim face missed now and then stays on screen and its steadiness timer runs on. Averaging the held
frames was measured and removed: it named no sticker better on dim renders (the trimmed mean of a sticker's ~80
samples already averages the sensor noise; bench/steady_low_light.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from qbr.vision.detect import FaceDetection
from qbr.vision.measure import StickerColours, measure_stickers_with_spread
from qbr.vision.tunables import Tunables


@dataclass(frozen=True, eq=False)
class HeldFace:
    """The face being held and its stickers as measured in the latest frame."""

    detection: FaceDetection
    """Where the face was last found, in frame pixels."""
    colours: StickerColours
    """The stickers measured in the latest frame (with its own detection, or the last one's when carried)."""
    carried: int = 0
    """Frames in a row measured with the last detection, without one of their own."""


def _changed(before: np.ndarray, now: np.ndarray, t: Tunables) -> bool:
    """Some sticker's colour moved by more than ``held_change`` of 255 in a channel: another face, or no face."""
    return bool(np.abs(now - before).max() > t.held_change * 255.0)


def hold_face(
    held: HeldFace | None,
    image_bgr: np.ndarray,
    detection: FaceDetection | None,
    tunables: Tunables = Tunables(),  # noqa: B008
) -> HeldFace | None:
    """The face held after one more frame and its detection (None: not found in it); None when no face is held.

    A detection is always taken as it is (measured on this frame). Without one, the frame is measured with the
    last detection while every sticker looks the same, at most ``held_carry`` frames in a row.
    """
    t = tunables
    if detection is not None:
        return HeldFace(detection, measure_stickers_with_spread(image_bgr, detection, t))
    if held is None or held.carried >= t.held_carry:
        return None
    colours = measure_stickers_with_spread(image_bgr, held.detection, t)
    if _changed(held.colours.rgb, colours.rgb, t):
        return None
    return HeldFace(held.detection, colours, held.carried + 1)
