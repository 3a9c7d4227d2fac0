"""The last frames of a face held steady, each warped onto the face's square grid (and averaged, if asked).

A live camera shows the same face for many frames. A frame whose detection failed is warped with the last grid for
a few frames (a steady hand barely moves it), so a dim face missed now and then stays seen. Averaging the last
``stack_frames`` frames, each registered by its detection's homography, cuts sensor noise by the square root of
their number; measured on dim renders it named no sticker better (the trimmed mean already averages the noise),
so it is off by default. The stack starts again when the face moves, or a sticker's colour changes (another face).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from qbr.vision.detect import FaceDetection, apply_homography
from qbr.vision.measure import StickerColours, measure_stickers_with_spread
from qbr.vision.tunables import Tunables


@dataclass(frozen=True, eq=False)
class FaceStack:
    """Frames of one face on its square grid (``size * cell`` pixels a side), newest last."""

    crops: tuple[np.ndarray, ...]
    """Each (side, side, 3) float32 BGR: one frame warped onto the face's grid."""
    total: np.ndarray
    """(side, side, 3) float64: the sum of ``crops``."""
    detection: FaceDetection
    """Where the face was last placed, in frame pixels (the last detection)."""
    on_grid: FaceDetection
    """The same face on the grid's pixels: what ``measure_stack`` measures the average with."""
    carried: int = 0
    """Frames in a row added on the last detection's grid, without one of their own."""

    @property
    def mean(self) -> np.ndarray:
        """(side, side, 3) float64 BGR: the average of the frames."""
        return self.total / len(self.crops)

    @property
    def frames(self) -> int:
        return len(self.crops)


def cell_pixels(t: Tunables) -> int:
    """Pixels of a sticker's side on the grid: one per measured sample across its inner square, as measured."""
    return math.ceil(t.measure_samples / t.measure_inner)


def _from_grid(detection: FaceDetection, cell: int) -> np.ndarray:
    """Grid pixels -> frame pixels (grid pixel p covers grid coordinates p / cell .. (p + 1) / cell: its centre)."""
    scale = np.array([[1 / cell, 0, 0.5 / cell], [0, 1 / cell, 0.5 / cell], [0, 0, 1]], dtype=np.float64)
    return detection.homography @ scale


def warp_face(image_bgr: np.ndarray, detection: FaceDetection, t: Tunables) -> np.ndarray:
    """(side, side, 3) float32: the face of ``detection`` in ``image_bgr`` warped onto its square grid."""
    cell = cell_pixels(t)
    side = detection.size * cell
    crop = cv2.warpPerspective(image_bgr, _from_grid(detection, cell), (side, side),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    return crop.astype(np.float32)


def _on_grid(detection: FaceDetection, t: Tunables) -> FaceDetection:
    """``detection`` placed on its grid's pixels (what the average is measured with)."""
    cell = cell_pixels(t)
    to_grid = np.linalg.inv(_from_grid(detection, cell))
    # The detection's sticker quads (their margins inside the cells) and outline, in one transform.
    corners = np.concatenate((detection.stickers.reshape(-1, 2), detection.outline)).astype(np.float64)
    mapped = apply_homography(to_grid, corners).astype(np.float32)
    n = detection.size * detection.size * 4
    return FaceDetection(stickers=mapped[:n].reshape(-1, 4, 2), outline=mapped[n:], confidence=detection.confidence,
                         homography=to_grid @ detection.homography, size=detection.size)


def _inner_means(crop: np.ndarray, size: int, t: Tunables) -> np.ndarray:
    """(size * size, 3) mean colour of each sticker's inner square (the part measured) on the grid."""
    cell = crop.shape[0] // size
    lo = round(cell * (1 - t.measure_inner) / 2)
    cells = crop.reshape(size, cell, size, cell, 3)[:, lo:cell - lo, :, lo:cell - lo]
    return cells.mean(axis=(1, 3)).reshape(size * size, 3)


_NEXT_CORNER = np.array([1, 2, 3, 0])


def _moved(a: FaceDetection, b: FaceDetection, t: Tunables) -> bool:
    """The face outline's corners moved more than ``stack_motion`` of its side between the two detections."""
    side = float(np.linalg.norm(a.outline[_NEXT_CORNER] - a.outline, axis=1).mean())
    return bool(np.linalg.norm(a.outline - b.outline, axis=1).max() > t.stack_motion * side)


def _changed(stack: FaceStack, crop: np.ndarray, t: Tunables) -> bool:
    """Some sticker of ``crop`` differs from the stack's average by more than ``stack_change`` in a channel."""
    size = stack.detection.size
    diff = np.abs(_inner_means(crop, size, t) - _inner_means(stack.mean, size, t))
    return bool(diff.max() > t.stack_change * 255.0)


def stack_frame(
    stack: FaceStack | None,
    image_bgr: np.ndarray,
    detection: FaceDetection | None,
    tunables: Tunables = Tunables(),  # noqa: B008
) -> FaceStack | None:
    """The stack after one more frame and its detection (None: not found in it), or None when no face is held.

    A new detection of the same face, in about the same place, looking the same, is added; one that moved, changed
    or is of another size starts a new stack. Without a detection the frame is added on the last grid while it
    still looks the same, at most ``stack_carry`` frames in a row.
    """
    t = tunables
    if detection is None:
        if stack is None or stack.carried >= t.stack_carry:
            return None
        crop = warp_face(image_bgr, stack.detection, t)
        if _changed(stack, crop, t):
            return None
        return _added(stack, crop, None, stack.carried + 1, t)
    crop = warp_face(image_bgr, detection, t)
    if (stack is None or stack.detection.size != detection.size or _moved(stack.detection, detection, t)
            or _changed(stack, crop, t)):
        return FaceStack(crops=(crop,), total=crop.astype(np.float64), detection=detection,
                         on_grid=_on_grid(detection, t))
    return _added(stack, crop, detection, 0, t)


def _added(stack: FaceStack, crop: np.ndarray, detection: FaceDetection | None, carried: int,
           t: Tunables) -> FaceStack:
    """``stack`` with ``crop`` added (the oldest dropped past ``stack_frames``), placed by ``detection`` (None: as
    before)."""
    crops = (*stack.crops, crop)
    total = stack.total + crop
    if len(crops) > t.stack_frames:
        total -= crops[0]
        crops = crops[1:]
    if detection is None:
        return FaceStack(crops=crops, total=total, detection=stack.detection, on_grid=stack.on_grid, carried=carried)
    return FaceStack(crops=crops, total=total, detection=detection, on_grid=_on_grid(detection, t), carried=carried)


def measure_stack(stack: FaceStack, tunables: Tunables = Tunables()) -> StickerColours:  # noqa: B008
    """The stickers' colours measured on the stack's average, as ``measure_stickers_with_spread`` measures a frame."""
    return measure_stickers_with_spread(stack.mean, stack.on_grid, tunables)
