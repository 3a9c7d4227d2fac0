"""The frame at the work width, and the planes edges are found on: grey, blue-yellow (what grey cannot tell
apart), and both contrast-equalised."""

from __future__ import annotations

import cv2
import numpy as np

from qbr.vision.tunables import Tunables


def edge_planes(work_bgr: np.ndarray) -> list[np.ndarray]:
    """Grey for contrast between colours and the body; blue-yellow tells yellow from white, which grey cannot."""
    if work_bgr.ndim == 2:
        return [work_bgr]
    return [cv2.cvtColor(work_bgr, cv2.COLOR_BGR2GRAY), _blue_yellow(work_bgr)]


def _blue_yellow(work_bgr: np.ndarray) -> np.ndarray:
    """Blue minus the mean of green and red, at half resolution: what JPEG and webcams keep of colour (4:2:0).

    The opponent difference cancels the light's brightness steps shared by all channels, and the half-size
    plane drops the blocky, noisy chroma detail finer than that, which broke and merged sticker outlines.
    """
    height, width = work_bgr.shape[:2]
    small = cv2.resize(work_bgr, (max(1, width // 2), max(1, height // 2)), interpolation=cv2.INTER_AREA)
    # 0.5 b - 0.25 g - 0.25 r + 128: yellow (low blue) dark, white and blue light, grey in the middle.
    opponent = cv2.transform(small, np.array([[0.5, -0.25, -0.25, 128.0]]))
    return cv2.resize(opponent, (width, height), interpolation=cv2.INTER_LINEAR)


def stretched(planes: list[np.ndarray], t: Tunables) -> list[np.ndarray]:
    """Planes with local contrast equalised: a blurred or dim face's sticker outlines rise above Canny's thresholds."""
    clahe = cv2.createCLAHE(clipLimit=t.retry_clahe_clip, tileGridSize=(t.retry_clahe_tiles, t.retry_clahe_tiles))
    return [clahe.apply(plane) for plane in planes]


def downscale(image: np.ndarray, target_width: int) -> np.ndarray:
    """The frame at most ``target_width`` wide (area-averaged: noise averages out, pixel centres line up)."""
    height, width = image.shape[:2]
    scale = min(1.0, target_width / width)
    if scale >= 1.0:
        return image
    size = (round(width * scale), round(height * scale))
    if scale < 0.5:
        # Area averaging straight from a big frame is slow; thin it out cheaply to twice the work size first.
        image = cv2.resize(image, (2 * size[0], 2 * size[1]), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)
