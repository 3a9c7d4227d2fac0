"""Every threshold and size of the vision layer, in one frozen dataclass with a one-line reason per field.

Sizes are fractions of the image (or of a sticker), never absolute pixels, so the same values work at any
resolution.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tunables:
    """Vision tunables; pass an instance explicitly (no global), replace fields with ``dataclasses.replace``."""

    # --- detection (qbr/vision/detect.py) ---
    work_width: int = 640
    """Frames are resized to this width before detection: bounds per-frame time whatever the camera gives."""

    # --- measurement (qbr/vision/measure.py) ---

    # --- colour classification and resolution (qbr/vision/colour.py, classify.py, resolve.py) ---
