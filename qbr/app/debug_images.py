"""Annotated images of what ``qbr scan --debug`` found: sticker outlines and colour names over the photo."""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from qbr.app.errors import InputFileError

if TYPE_CHECKING:
    from qbr.vision.detect import FaceDetection
    from qbr.vision.palette import Palette


def annotate(
    image: np.ndarray, detection: FaceDetection | None, names: Sequence[str] | None, title: str, palette: Palette
) -> np.ndarray:
    """A copy of ``image`` with the face outline, each sticker's quad in its palette colour, its name and a title."""
    import cv2

    out = image.copy()
    h = out.shape[0]
    scale = h / 480  # text and lines grow with the image, never with absolute pixel sizes alone
    thick = max(1, round(2 * scale))
    if detection is not None:
        cv2.polylines(out, [np.round(detection.outline).astype(np.int32)], True, (255, 0, 255), thick + 1,
                      cv2.LINE_AA)
        for i, quad in enumerate(detection.stickers):
            name = names[i] if names is not None else "?"
            r, g, b = palette.colours.get(name, (128, 128, 128))
            colour = (int(b), int(g), int(r))
            pts = np.round(quad).astype(np.int32)
            cv2.polylines(out, [pts], True, (0, 0, 0), thick + 2, cv2.LINE_AA)
            cv2.polylines(out, [pts], True, colour, thick, cv2.LINE_AA)
            cx, cy = quad.mean(axis=0)
            label = f"{i + 1} {name}"
            # The label spans about 80% of the sticker's width, whatever the photo's resolution.
            (unit_w, _), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 1.0, 1)
            size = 0.8 * float(np.linalg.norm(quad[1] - quad[0])) / max(unit_w, 1)
            weight = max(1, round(size * 2))
            (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, size, weight)
            org = (int(cx - tw / 2), int(cy + th / 2))
            y, x = min(int(cy), h - 1), min(int(cx), out.shape[1] - 1)
            light = float(np.mean(image[max(y, 0), max(x, 0)])) > 140  # dark text on light stickers
            ink, halo = ((0, 0, 0), (255, 255, 255)) if light else ((255, 255, 255), (0, 0, 0))
            cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, size, halo, weight + 2, cv2.LINE_AA)
            cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, size, ink, weight, cv2.LINE_AA)
    text = title if detection is not None else f"{title}: no face found"
    cv2.putText(out, text, (10, int(30 * scale)), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale, (0, 0, 0), thick + 2,
                cv2.LINE_AA)
    cv2.putText(out, text, (10, int(30 * scale)), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale, (0, 255, 255), thick,
                cv2.LINE_AA)
    return out


def write_image(path: Path, image: np.ndarray) -> None:
    """Write a PNG; InputFileError naming the path if the directory cannot be written."""
    import cv2

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        ok, data = cv2.imencode(".png", image)
        if not ok:
            raise OSError("PNG encoding failed")
        # Non-blocking: a FIFO left at the path fails at once (no reader) instead of waiting for one.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_BINARY", 0), 0o644)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError("not a regular file")
            os.write(fd, data.tobytes())
        finally:
            os.close(fd)
    except OSError as error:
        raise InputFileError(f"--debug {path.parent}: cannot write {path.name} ({error})") from None
