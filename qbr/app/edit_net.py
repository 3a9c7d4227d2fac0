"""Where the editable net and its colour swatches sit on the drawn image, and which one a click hits.

One pure function of the image size and the free band between the window's banner and its key bar places it; the
overlay draws it there and hands the geometry on with the picture (``qbr.app.picture``), and the window loop
hit-tests a click against that very geometry, so what is clicked is always what was drawn. Sizes are fractions.
"""

from __future__ import annotations

from dataclasses import dataclass

from qbr.app.session.hand_edit import COLOUR_KEYS, NET_FACE_POSITION, sticker_at_cell


@dataclass(frozen=True)
class EditNetTunables:
    """Placement of the editable net, as fractions of the image."""

    top: float = 0.25
    """Without a known band, the net starts below this share of the height: room for a three-line prompt."""
    band_share: float = 0.68
    """The net and its swatches take at most this share of the free band's height; a message fits under them."""
    band_gap: float = 0.04
    """The gap between the banner and the net, as a share of the band's height: the net never touches the text."""
    width: float = 0.9
    """The net's four faces take at most this share of the width (narrow windows)."""
    swatch: float = 0.4
    """A colour swatch's side, as a share of a face's side: big enough to click, six fit under the net."""
    swatch_gap: float = 0.35
    """The gap between swatches, as a share of a swatch's side."""
    swatch_below: float = 0.15
    """The space between the net and the swatches, as a share of a face's side."""


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in image pixels (floats: the overlay rounds when it draws)."""

    x: float
    y: float
    w: float
    h: float

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h


@dataclass(frozen=True)
class EditNetGeometry:
    """The editable net of a cube with ``size`` stickers a side, at ``x``, ``y`` with faces ``face`` pixels wide."""

    x: float
    y: float
    face: float
    size: int
    swatch_y: float
    swatch_x: float
    swatch: float
    swatch_step: float

    @property
    def sticker(self) -> float:
        return self.face / self.size

    @property
    def bottom(self) -> float:
        """The lowest pixel row used (the swatches' bottom)."""
        return self.swatch_y + self.swatch

    def net_box(self) -> Box:
        return Box(self.x, self.y, 4 * self.face, 3 * self.face)

    def face_box(self, face: str) -> Box:
        fx, fy = NET_FACE_POSITION[face]
        return Box(self.x + fx * self.face, self.y + fy * self.face, self.face, self.face)

    def sticker_box(self, col: int, row: int) -> Box:
        """The box of net cell (``col``, ``row``) counted in stickers."""
        s = self.sticker
        return Box(self.x + col * s, self.y + row * s, s, s)

    def swatch_box(self, slot: int) -> Box:
        return Box(self.swatch_x + slot * self.swatch_step, self.swatch_y, self.swatch, self.swatch)

    def sticker_at(self, x: float, y: float) -> int | None:
        """The sticker (facelet index) under image point (``x``, ``y``), or None off the net's faces."""
        if not self.net_box().contains(x, y):
            return None
        return sticker_at_cell(int((x - self.x) // self.sticker), int((y - self.y) // self.sticker), self.size)

    def swatch_at(self, x: float, y: float) -> int | None:
        """The colour slot (0-5, the colour keys' order) under image point (``x``, ``y``), or None."""
        return next((k for k in range(len(COLOUR_KEYS)) if self.swatch_box(k).contains(x, y)), None)


def edit_net_geometry(width: int, height: int, size: int, tunables: EditNetTunables = EditNetTunables(),
                      band: tuple[float, float] | None = None) -> EditNetGeometry:
    """The editable net's place on a ``width`` x ``height`` image, centred horizontally at the top of ``band`` (the
    free rows between the banner and the key bar; default: below ``tunables.top`` of the height)."""
    top, bottom = band if band is not None else (tunables.top * height, float(height))
    room = max(1.0, bottom - top)
    faces_high = 3 + tunables.swatch_below + tunables.swatch  # the net's three faces, the gap, the swatches
    face = min((tunables.band_share - tunables.band_gap) * room / faces_high, tunables.width * width / 4)
    x = (width - 4 * face) / 2
    y = top + tunables.band_gap * room
    swatch = tunables.swatch * face
    step = swatch * (1 + tunables.swatch_gap)
    row = step * (len(COLOUR_KEYS) - 1) + swatch
    return EditNetGeometry(x=x, y=y, face=face, size=size, swatch_y=y + 3 * face + tunables.swatch_below * face,
                           swatch_x=(width - row) / 2, swatch=swatch, swatch_step=step)
