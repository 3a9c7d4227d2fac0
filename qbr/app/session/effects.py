"""What the live session asks its runtime to do: resolve off the UI thread, save settings, print, quit."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

import numpy as np

if TYPE_CHECKING:
    from qbr.vision.palette import Palette


@dataclass(frozen=True)
class ResolveCube:
    """Run resolve_cube + solve off the UI thread on these per-face (9,3) sRGB means; answer with ResolvedEvent."""

    rgb: Mapping[str, np.ndarray]
    palette: Palette
    any_order: bool = False
    """The faces' letters are only the guide's (a 2x2x2 has no centres): they may have been shown in another order."""
    trust: Mapping[str, np.ndarray] | None = None
    """Per face, each sticker's 1 - glare-spot share (``resolve_cube``'s ``trust``); None: every sticker trusted."""
    placeable: bool = False
    """The 3x3x3's faces were placed by their centres' colour names: a placement by the pieces the faces show that
    stands out and reads a real cube more surely is taken instead (``Resolution.placed`` says which moved)."""


@dataclass(frozen=True)
class SolveFacelets:
    """Validate and solve a cube fixed by hand off the UI thread (face letters); answer with ResolvedEvent."""

    facelets: str
    colour_names: Mapping[str, str]
    """Face letter -> colour name of its centre (for messages)."""
    size: int = 3


@dataclass(frozen=True)
class SavePalette:
    """Store this calibrated palette; None resets to the defaults (deletes the user file)."""

    palette: Palette | None


@dataclass(frozen=True)
class SaveLanguage:
    """Remember the chosen language for the next run."""

    lang: str


@dataclass(frozen=True)
class SetMirror:
    """Flip frames left to right from now on (``on``) or stop; remembered for the next run with a camera."""

    on: bool


@dataclass(frozen=True)
class PrintText:
    """Print to the terminal (e.g. the full solution)."""

    text: str


@dataclass(frozen=True)
class Quit:
    """Leave the app."""


Effect = Union[  # noqa: UP007 (runtime alias)
    ResolveCube, SolveFacelets, SavePalette, SaveLanguage, SetMirror, PrintText, Quit
]
