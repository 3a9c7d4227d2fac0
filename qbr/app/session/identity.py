"""Which cube face a captured reading is: held up again, another face, or placed by its centre's colour.

The colour distances themselves (CIEDE2000) are qbr.vision.face_match's; this file decides with them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from qbr.vision.classify import classify_face
from qbr.vision.face_match import assign_centres, centre_distances, face_distances

if TYPE_CHECKING:
    from qbr.vision.palette import Palette

_RING = (0, 1, 2, 5, 8, 7, 6, 3)  # a 3x3 face's outer stickers clockwise: a quarter turn shifts them by two


@dataclass(frozen=True)
class IdentityTunables:
    """When a reading is a face already captured, and how centres are given faces."""

    same_centre_de: float = 10.0
    """Centres closer than this (CIEDE2000) are the same physical face shown again."""
    name_penalty: float = 10.0
    """Extra cost of giving a capture a face whose colour its own centre was not named."""
    same_ring_stickers: int = 5
    """Of a face's 8 outer stickers, this many named alike (at the best turn) make it the same face."""


@dataclass
class CapturedFace:
    """One face as read (a frame's, or captured: agreed over the frames it was held): its stickers' colour names,
    mean sRGB and the share of their light a lamp's spot added, and the face it was given."""

    colours: tuple[str, ...]
    rgb: np.ndarray
    letter: str | None = None  # fixed by the guided order for a non-standard scheme; else found by centre colour
    spot: np.ndarray | None = None
    """(stickers,) share of each sticker's light a glare spot adds (``StickerColours.spot``); None: none known."""
    own: np.ndarray | None = None
    """(stickers, 3) mean sRGB with that spot's light taken off (``StickerColours.own``); None: as ``rgb``."""
    spread: np.ndarray | None = None
    """(stickers,) the samples' spread (``StickerColours.spread``): a centre printed on is a logo's white."""

    def resolved_rgb(self) -> np.ndarray:
        """The stickers' colours whole-cube resolution reads: their own, a lamp's spot taken off where known."""
        return self.rgb if self.own is None else self.own

    def trust(self) -> np.ndarray:
        """(stickers,) how far resolution may trust each sticker: 1 - its spot share (1 where none is known)."""
        if self.spot is None:
            return np.ones(len(self.colours))
        return 1.0 - np.asarray(self.spot, dtype=float)

    def turned(self, order: list[int]) -> CapturedFace:
        """The same face with its stickers in ``order`` (sticker k of the result is sticker order[k] of this),
        each keeping its own name, colour and spot share."""
        return CapturedFace(tuple(self.colours[i] for i in order), self.rgb[order], self.letter,
                            None if self.spot is None else self.spot[order],
                            None if self.own is None else self.own[order],
                            None if self.spread is None else self.spread[order])


def size_of(colours: tuple[str, ...]) -> int:
    """Stickers along the side of the face these colour names were read from: 2 (2x2x2) or 3."""
    return 2 if len(colours) == 4 else 3


def identity(colours: tuple[str, ...]) -> str | tuple[str, ...]:
    """What tells one face held up from the next: the centre's colour, or on a 2x2x2 all four colours."""
    return colours if len(colours) == 4 else colours[4]


def ring_matches(new: tuple[str, ...], old: tuple[str, ...]) -> int:
    """How many of the outer stickers of two 3x3 faces are named alike, at the best of the face's four turns."""
    a = [new[k] for k in _RING]
    b = [old[k] for k in _RING]
    return max(sum(x == y for x, y in zip(a[2 * q:] + a[:2 * q], b, strict=True)) for q in range(4))


def another_ring(colours: tuple[str, ...], before: tuple[str, ...], t: IdentityTunables = IdentityTunables()) -> bool:
    """A 3x3 face whose outer stickers are not those of the frame before: another face, even with a like centre."""
    return len(colours) == len(before) == 9 and ring_matches(colours, before) < t.same_ring_stickers


def same_face(new: CapturedFace, captures: list[CapturedFace], t: IdentityTunables = IdentityTunables()) -> int | None:
    """The capture whose centre measures like ``new``'s (the same physical face shown again), if any."""
    if not captures:
        return None
    gaps = centre_distances(new.rgb[4], [c.rgb[4] for c in captures])
    best = int(np.argmin(gaps))
    # Centres alike are not enough (a washed-out yellow centre measures like the white one): the stickers
    # around it must mostly match too, the face held in any of its four turns.
    if gaps[best] >= t.same_centre_de or another_ring(new.colours, captures[best].colours, t):
        return None
    return best


def nearest_by_centre(new: CapturedFace, captures: list[CapturedFace]) -> int:
    """The capture whose centre measures closest to ``new``'s (3x3x3)."""
    return int(np.argmin(centre_distances(new.rgb[4], [c.rgb[4] for c in captures])))


def nearest_by_stickers(new: CapturedFace, captures: list[CapturedFace]) -> int:
    """The capture whose stickers, one by one, measure closest to ``new``'s (2x2x2: no centre)."""
    return int(np.argmin(face_distances(new.rgb, [c.rgb for c in captures])))


def seen_before(new: CapturedFace, captures: list[CapturedFace], t: IdentityTunables = IdentityTunables()) -> bool:
    """A 2x2x2 face already captured, seen again: every sticker alike."""
    return bool(captures) and float(face_distances(new.rgb, [c.rgb for c in captures]).min()) < t.same_centre_de


def faces_by_centre(captures: list[CapturedFace], scheme: Mapping[str, str], palette: Palette,
                    t: IdentityTunables = IdentityTunables()) -> list[str]:
    """The face of each capture: the distinct faces whose centre colours fit the captured centres best, each centre
    compared after its own face's light fit (the same fit that named its stickers), without a lamp's spot."""
    # Fitted without the glare and spot shares the preview named with: with them bench/session_identity.py announced
    # more wrong (tuning 130 -> 134, validation 129 -> 131; the spot's alone: the same, so the shares stay out).
    # On each centre's own colour (a lamp's spot taken off): a washed orange centre measured is nearest white
    # (bench/session_identity.py announced wrong, tuning 129 -> 112, validation 127 -> 96).
    # With the samples' spread where known: a logo in a cube's own inks is a white centre (announced wrong, tuning 110
    # -> 101, validation 93 -> 91; 8 of the 9 are synth medium's teal-green logos).
    to_colours = [classify_face(c.resolved_rgb(), palette, spread=c.spread).to_colours[4] for c in captures]
    return assign_centres(to_colours, [c.colours[4] for c in captures], scheme, palette, t.name_penalty)
