"""The palette the live preview names faces with: the base (calibrated or default) taught by this session's centres.

Each captured 3x3 face's centre, with the colour of the face it was given, is a sample of this cube in this light
(qbr.vision.session_palette: bounded, and started again when the light changes a lot).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from qbr.vision.session_palette import SessionPalette

if TYPE_CHECKING:
    from qbr.app.session.identity import CapturedFace
    from qbr.vision.palette import Palette


def naming_palette(base: Palette, captures: Sequence[CapturedFace], letters: Sequence[str],
                   scheme: Mapping[str, str]) -> Palette:
    """``base`` with every capture's centre (in capture order) a sample of its face's colour in ``scheme``."""
    session = SessionPalette(base)
    for capture, letter in zip(captures, letters, strict=True):
        session = session.with_face(capture.rgb, scheme.get(letter))
    return session.palette
