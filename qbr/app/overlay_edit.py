"""Draw the cube being fixed by hand: a big net over the dimmed video, the cursor, the stickers to review, the
colour swatches with their keys and what is wrong. Placed by ``edit_net_geometry``, which the window's click
hit-testing uses too, so a click lands on what is drawn."""

from __future__ import annotations

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
_DIM_VIDEO = 0.7  # the video stays faintly visible behind the net: the user is still holding the cube
_REVIEW_WIDTH = 0.08  # the review ring's width, as a share of a sticker's side: the colour inside stays readable
_CURSOR_WIDTH = 0.1  # the cursor frame's width, as a share of a sticker's side
_CHANGED_DOT = 0.12  # the radius of the dot marking a sticker changed by hand, as a share of its side


def _bgr(rgb: tuple[int, int, int] | None) -> Colour:
    return _UNKNOWN if rgb is None else (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def _ink(fill: Colour) -> Colour:
    """Black or white text, whichever reads on ``fill`` (BGR)."""
    luma = 0.114 * fill[0] + 0.587 * fill[1] + 0.299 * fill[2]
    return _BLACK if luma > 140 else _WHITE


def _corners(box: Box, inset: float = 0.0) -> tuple[tuple[int, int], tuple[int, int]]:
    return ((round(box.x + inset), round(box.y + inset)),
            (round(box.x + box.w - 1 - inset), round(box.y + box.h - 1 - inset)))


def _stickers(img: np.ndarray, edit: EditView, colour_rgb: dict, geometry: EditNetGeometry) -> None:
    side = geometry.sticker
    border = max(1, round(side * 0.06))
    for face in FACES:
        a, b = _corners(geometry.face_box(face), -border)
        cv2.rectangle(img, a, b, _BLACK, -1)
    for i, name in enumerate(edit.colours):
        box = geometry.sticker_box(*net_cell(i, edit.size))
        fill = _bgr(colour_rgb.get(name)) if name is not None else _UNKNOWN
        a, b = _corners(box, border)
        cv2.rectangle(img, a, b, fill, -1)
        if i in edit.review:
            width = max(1, round(side * _REVIEW_WIDTH))
            a, b = _corners(box, border + width / 2)
            cv2.rectangle(img, a, b, _BLACK, width + 1)
            cv2.rectangle(img, a, b, _REVIEW, width)
        if i in edit.changed:
            r = max(2, round(side * _CHANGED_DOT))
            centre = (round(box.x + side - 2.2 * r), round(box.y + 2.2 * r))
            cv2.circle(img, centre, r + 1, _BLACK, -1, cv2.LINE_AA)
            cv2.circle(img, centre, r, _WHITE, -1, cv2.LINE_AA)
    box = geometry.sticker_box(*net_cell(edit.cursor, edit.size))
    width = max(2, round(side * _CURSOR_WIDTH))
    a, b = _corners(box, -width)
    cv2.rectangle(img, a, b, _BLACK, width + 2)
    cv2.rectangle(img, a, b, _WHITE, width)


def _swatches(img: np.ndarray, fonts: Fonts, edit: EditView, colour_rgb: dict, geometry: EditNetGeometry) -> None:
    current = edit.colours[edit.cursor]
    for k, key in enumerate(COLOUR_KEYS):
        box = geometry.swatch_box(k)
        name = edit.keys[k] if k < len(edit.keys) else None
        fill = _bgr(colour_rgb.get(name)) if name is not None else _UNKNOWN
        a, b = _corners(box)
        cv2.rectangle(img, a, b, fill, -1)
        chosen = name is not None and name == current
        width = max(1, round(box.w * (0.08 if chosen else 0.03)))
        cv2.rectangle(img, a, b, _WHITE if chosen else _BLACK, width)
        size = box.h * 0.6
        h = text_size(fonts, key, size)[1]
        draw_text(img, fonts, key, (round(box.x + box.w / 2), round(box.y + (box.h - h) / 2)), size, _ink(fill),
                  align="center", weight=700)


def _message(img: np.ndarray, fonts: Fonts, text: str, geometry: EditNetGeometry, size: int) -> None:
    # Under the swatches, centred: the net above must stay in view while the message is read.
    w = img.shape[1]
    lines = wrap(fonts, text, size, round(w * 0.85))
    widest = max(text_size(fonts, line, size)[0] for line in lines)
    pad = round(size * 0.5)
    x = (w - widest) // 2 - pad
    draw_text_box(img, fonts, lines, (x, round(geometry.bottom + size * 0.6)), size, _WHITE, background=_WARN_BG,
                  alpha=0.85, pad=0.5, min_width=widest + 2 * pad)


def ring_review(img: np.ndarray, review: tuple[int, ...], size: int, origin: tuple[int, int], cell: int) -> None:
    """Ring the stickers in ``review`` on the small net drawn at ``origin`` with 3x3x3 cells of ``cell`` pixels."""
    sticker = 3 * cell // size
    width = max(1, round(sticker * _REVIEW_WIDTH * 2))  # small stickers: a thicker share, or the ring is lost
    for i in review:
        if not 0 <= i < 6 * size * size:
            continue
        fx, fy = NET_FACE_POSITION[FACES[i // (size * size)]]
        k = i % (size * size)
        x = origin[0] + 3 * cell * fx + (k % size) * sticker  # as draw_net places them
        y = origin[1] + 3 * cell * fy + (k // size) * sticker
        for k in range(width):  # one-pixel frames inwards: the ring stays inside its sticker, off the neighbours
            cv2.rectangle(img, (x + k, y + k), (x + sticker - 1 - k, y + sticker - 1 - k), _REVIEW, 1)


def dim_video(img: np.ndarray) -> None:
    """Darken the video (in place) under the net and the bars: the net is what to look at now."""
    fill_rect(img, Rect(0, 0, img.shape[1], img.shape[0]), _BLACK, _DIM_VIDEO)


def draw_edit(img: np.ndarray, fonts: Fonts, edit: EditView, colour_rgb: dict, message: str | None,
              font_size: int) -> EditNetGeometry:
    """The editable net, its swatches and ``message`` over ``img`` (changed in place); returns where it was drawn."""
    h, w = img.shape[:2]
    geometry = edit_net_geometry(w, h, edit.size)
    _stickers(img, edit, colour_rgb, geometry)
    _swatches(img, fonts, edit, colour_rgb, geometry)
    if message:
        _message(img, fonts, message, geometry, font_size)
    return geometry
