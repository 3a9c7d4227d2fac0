"""Draw the cube being fixed by hand: a big net over the dimmed video, the cursor, the stickers to review, the
colour swatches with their keys and what is wrong. Placed by ``edit_net_geometry`` in the free band it is given;
the geometry drawn is returned, and the window's click hit-testing uses it, so a click lands on what is drawn."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from qbr.app.edit_net import Box, EditNetGeometry, edit_net_geometry
from qbr.app.session.hand_edit import COLOUR_KEYS, NET_FACE_POSITION, EditView, net_cell
from qbr.app.text import Colour, Fonts, Rect, draw_text, draw_text_box, fill_rect, text_size, wrap
from qbr.cube.conventions import FACES

_BLACK: Colour = (0, 0, 0)
_WHITE: Colour = (255, 255, 255)
_UNKNOWN: Colour = (55, 55, 55)
_REVIEW: Colour = (255, 60, 230)  # magenta (BGR), as the overlay's arrows: it shows on every sticker colour
_WARN_BG: Colour = (20, 40, 150)


@dataclass(frozen=True)
class EditLook:
    """How the editable net is drawn; sizes are shares of a sticker's (or swatch's, or the font's) side."""

    dim_video: float = 0.7
    """Darkening of the video behind the net: still faintly visible, the user is holding the cube."""
    gap: float = 0.06
    """The black gap round each sticker: stickers read apart, as on the cube."""
    review_width: float = 0.08
    """The review ring's width: thin enough that the sticker's colour inside stays readable."""
    small_net_review: float = 2.0
    """The ring on the small net is this much thicker a share: its stickers are a few pixels, a thin ring is lost."""
    cursor_width: float = 0.1
    """The cursor's frame, just outside the sticker, so the sticker's colour stays whole."""
    changed_dot: float = 0.12
    """The radius of the dot marking a sticker changed by hand, in its top-right corner."""
    changed_inset: float = 2.2
    """The dot's centre from the sticker's corner, in dot radii: clear of the gap and the review ring."""
    swatch_chosen: float = 0.08
    """The white frame of the swatch of the cursor sticker's colour: which colour it has now."""
    swatch_border: float = 0.03
    """The black frame of the other swatches."""
    key_size: float = 0.6
    """The key's digit on a swatch, as a share of its height: read at a glance, the colour still shows round it."""
    dark_ink_above: float = 140.0
    """Luma (0-255) of a swatch above which its digit is black, else white (white and yellow take black)."""
    message_width: float = 0.85
    """The message under the net wraps at this share of the picture's width."""
    message_pad: float = 0.5
    """The message box's padding, as a share of its font size: a warning that stands out."""
    message_below: float = 0.6
    """The gap between the swatches and the message, in font sizes."""
    message_alpha: float = 0.85
    """Opacity of the message's box: over the dimmed video, the text must read."""


def _bgr(rgb: tuple[int, int, int] | None) -> Colour:
    return _UNKNOWN if rgb is None else (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def _ink(fill: Colour, look: EditLook) -> Colour:
    """Black or white text, whichever reads on ``fill`` (BGR; Rec. 601 luma)."""
    luma = 0.114 * fill[0] + 0.587 * fill[1] + 0.299 * fill[2]
    return _BLACK if luma > look.dark_ink_above else _WHITE


def _corners(box: Box, inset: float = 0.0) -> tuple[tuple[int, int], tuple[int, int]]:
    return ((round(box.x + inset), round(box.y + inset)),
            (round(box.x + box.w - 1 - inset), round(box.y + box.h - 1 - inset)))


def _stickers(img: np.ndarray, edit: EditView, colour_rgb: dict, geometry: EditNetGeometry, look: EditLook) -> None:
    side = geometry.sticker
    border = max(1, round(side * look.gap))
    for face in FACES:
        a, b = _corners(geometry.face_box(face), -border)
        cv2.rectangle(img, a, b, _BLACK, -1)
    for i, name in enumerate(edit.colours):
        box = geometry.sticker_box(*net_cell(i, edit.size))
        fill = _bgr(colour_rgb.get(name)) if name is not None else _UNKNOWN
        a, b = _corners(box, border)
        cv2.rectangle(img, a, b, fill, -1)
        if i in edit.review:
            width = max(1, round(side * look.review_width))
            a, b = _corners(box, border + width / 2)
            cv2.rectangle(img, a, b, _BLACK, width + 1)
            cv2.rectangle(img, a, b, _REVIEW, width)
        if i in edit.changed:
            r = max(2, round(side * look.changed_dot))
            centre = (round(box.x + side - look.changed_inset * r), round(box.y + look.changed_inset * r))
            cv2.circle(img, centre, r + 1, _BLACK, -1, cv2.LINE_AA)
            cv2.circle(img, centre, r, _WHITE, -1, cv2.LINE_AA)
    box = geometry.sticker_box(*net_cell(edit.cursor, edit.size))
    width = max(2, round(side * look.cursor_width))
    a, b = _corners(box, -width)
    cv2.rectangle(img, a, b, _BLACK, width + 2)
    cv2.rectangle(img, a, b, _WHITE, width)


def _swatches(img: np.ndarray, fonts: Fonts, edit: EditView, colour_rgb: dict, geometry: EditNetGeometry,
              look: EditLook) -> None:
    current = edit.colours[edit.cursor]
    for k, key in enumerate(COLOUR_KEYS):
        box = geometry.swatch_box(k)
        name = edit.keys[k] if k < len(edit.keys) else None
        fill = _bgr(colour_rgb.get(name)) if name is not None else _UNKNOWN
        a, b = _corners(box)
        cv2.rectangle(img, a, b, fill, -1)
        chosen = name is not None and name == current
        width = max(1, round(box.w * (look.swatch_chosen if chosen else look.swatch_border)))
        cv2.rectangle(img, a, b, _WHITE if chosen else _BLACK, width)
        size = box.h * look.key_size
        h = text_size(fonts, key, size)[1]
        draw_text(img, fonts, key, (round(box.x + box.w / 2), round(box.y + (box.h - h) / 2)), size, _ink(fill, look),
                  align="center", weight=700)


def _message(img: np.ndarray, fonts: Fonts, text: str, geometry: EditNetGeometry, size: int, look: EditLook) -> None:
    # Under the swatches, centred: the net above must stay in view while the message is read.
    w = img.shape[1]
    lines = wrap(fonts, text, size, round(w * look.message_width))
    widest = max(text_size(fonts, line, size)[0] for line in lines)
    pad = round(size * look.message_pad)
    x = (w - widest) // 2 - pad
    draw_text_box(img, fonts, lines, (x, round(geometry.bottom + size * look.message_below)), size, _WHITE,
                  background=_WARN_BG, alpha=look.message_alpha, pad=look.message_pad, min_width=widest + 2 * pad)


def ring_review(img: np.ndarray, review: tuple[int, ...], size: int, origin: tuple[int, int], cell: int,
                look: EditLook = EditLook()) -> None:
    """Ring the stickers in ``review`` on the small net drawn at ``origin`` with 3x3x3 cells of ``cell`` pixels."""
    sticker = 3 * cell // size
    width = max(1, round(sticker * look.review_width * look.small_net_review))
    for i in review:
        if not 0 <= i < 6 * size * size:
            continue
        fx, fy = NET_FACE_POSITION[FACES[i // (size * size)]]
        k = i % (size * size)
        x = origin[0] + 3 * cell * fx + (k % size) * sticker  # as draw_net places them
        y = origin[1] + 3 * cell * fy + (k // size) * sticker
        for k in range(width):  # one-pixel frames inwards: the ring stays inside its sticker, off the neighbours
            cv2.rectangle(img, (x + k, y + k), (x + sticker - 1 - k, y + sticker - 1 - k), _REVIEW, 1)


def dim_video(img: np.ndarray, look: EditLook = EditLook()) -> None:
    """Darken the video (in place) under the net and the bars: the net is what to look at now."""
    fill_rect(img, Rect(0, 0, img.shape[1], img.shape[0]), _BLACK, look.dim_video)


def draw_edit(img: np.ndarray, fonts: Fonts, edit: EditView, colour_rgb: dict, message: str | None,
              font_size: int, look: EditLook = EditLook(), band: tuple[float, float] | None = None) -> EditNetGeometry:
    """The editable net, its swatches and ``message`` over ``img`` (changed in place) in ``band`` (the free rows
    between the banner and the key bar); returns where it was drawn."""
    h, w = img.shape[:2]
    geometry = edit_net_geometry(w, h, edit.size, band=band)
    _stickers(img, edit, colour_rgb, geometry, look)
    _swatches(img, fonts, edit, colour_rgb, geometry, look)
    if message:
        _message(img, fonts, message, geometry, font_size, look)
    return geometry
