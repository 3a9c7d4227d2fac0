"""Draw calibration's review (the new colours beside the faces they were taken from) and the solution's holding
marks on the small cube: pure functions of the frame and the view, called from qbr.app.overlay."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import cv2
import numpy as np

from qbr.app.session import CalibrationReview, Step
from qbr.app.text import Colour, Fonts, Rect, draw_text, fill_rect, text_size

_WHITE: Colour = (255, 255, 255)
_BLACK: Colour = (0, 0, 0)
_LABEL: Colour = (220, 220, 220)
_COLUMNS = 2  # six colours in two columns of three: fits between the prompt and the key legend at 640x480


def _bgr(rgb: Sequence[int]) -> Colour:
    return int(rgb[2]), int(rgb[1]), int(rgb[0])


def _face_grid(img: np.ndarray, face: Sequence[Sequence[int]], x: int, y: int, side: int) -> None:
    """The face's stickers as measured, in a square of ``side`` pixels (3x3, or 2x2 for a 2x2x2)."""
    n = max(1, math.isqrt(len(face)))
    cell = side / n
    for i, rgb in enumerate(face[: n * n]):
        x0, y0 = round(x + (i % n) * cell), round(y + (i // n) * cell)
        x1, y1 = round(x + (i % n + 1) * cell) - 1, round(y + (i // n + 1) * cell) - 1
        cv2.rectangle(img, (x0, y0), (x1, y1), _bgr(rgb), -1)
        cv2.rectangle(img, (x0, y0), (x1, y1), _BLACK, 1)


def _swatch(img: np.ndarray, rgb: Sequence[int], x: int, y: int, side: int, border: int) -> None:
    cv2.rectangle(img, (x, y), (x + side, y + side), _bgr(rgb), -1)
    cv2.rectangle(img, (x, y), (x + side, y + side), _WHITE, border)


def draw_review(img: np.ndarray, fonts: Fonts, review: CalibrationReview, area: Rect, unit: float,
                rtl: bool = False) -> Rect:
    """The review panel centred in ``area`` (between the prompt and the legend): per colour its name, the face it
    was taken from, the new colour (large) and the one it replaces (small). ``unit`` is 1/100 of the frame height.
    Returns the panel drawn."""
    font = max(16, round(3.4 * unit))  # the layout keeps text at 16 px or more
    pad = max(4, round(1.5 * unit))
    rows = math.ceil(len(review.rows) / _COLUMNS)
    title_h = text_size(fonts, review.title, font)[1]
    caption = max(16, round(2.6 * unit))
    caption_h = text_size(fonts, "Ag", caption)[1]
    label_h = text_size(fonts, "Ag", font)[1]
    # The square side that lets three rows (label line + squares) fit the height of the area.
    room = area.h - 2 * pad - title_h - caption_h - pad
    side = max(8, min(round(9 * unit), (room // rows) - label_h - pad))
    small = max(6, side * 2 // 3)
    label_w = max(text_size(fonts, row.label, font)[0] for row in review.rows)
    new_w, old_w = (text_size(fonts, t, caption)[0] for t in (review.new_label, review.old_label))
    cell_w = max(label_w, 2 * side + small + 2 * pad, side + pad + max(side, new_w) + pad + old_w)
    width = min(area.w, _COLUMNS * cell_w + (_COLUMNS + 1) * pad)
    height = min(area.h, 2 * pad + title_h + caption_h + pad + rows * (label_h + side + pad))
    panel = Rect(area.x + (area.w - width) // 2, area.y + (area.h - height) // 2, width, height)
    fill_rect(img, panel, _BLACK, 0.8)
    draw_text(img, fonts, review.title, (panel.x + panel.w // 2, panel.y + pad), font, _WHITE, align="center",
              weight=700)
    top = panel.y + pad + title_h + pad
    for column in range(_COLUMNS):  # what the two squares of each colour are: the new one, and the one it replaces
        x = panel.x + pad + column * (cell_w + pad)
        if rtl:
            right = x + cell_w
            draw_text(img, fonts, review.new_label, (right - side - pad - side // 2, top), caption, _LABEL,
                      align="center")
            draw_text(img, fonts, review.old_label, (right - 2 * side - 2 * pad, top), caption, _LABEL,
                      align="right")
        else:
            draw_text(img, fonts, review.new_label, (x + side + pad + side // 2, top), caption, _LABEL, align="center")
            draw_text(img, fonts, review.old_label, (x + 2 * side + 2 * pad, top), caption, _LABEL)
    top += caption_h
    for k, row in enumerate(review.rows):
        column, line = divmod(k, rows)
        if rtl:
            column = _COLUMNS - 1 - column  # read from the right
        x = panel.x + pad + column * (cell_w + pad)
        y = top + line * (label_h + side + pad)
        draw_text(img, fonts, row.label, (x + cell_w if rtl else x, y), font, _LABEL, align="right" if rtl else "left")
        y += label_h
        face_x, new_x, old_x = x, x + side + pad, x + 2 * side + 2 * pad
        if rtl:
            right = x + cell_w
            face_x, new_x, old_x = right - side, right - 2 * side - pad, right - 2 * side - 2 * pad - small
        _face_grid(img, row.face, face_x, y, side)
        _swatch(img, row.new, new_x, y, side, max(1, round(0.4 * unit)))
        _swatch(img, row.old, old_x, y + side - small, small, 1)
    return panel


def draw_hold(img: np.ndarray, step: Step, sticker: Callable[[str, int, int], np.ndarray], thickness: int) -> None:
    """Ring the front and top centres of the small cube (``sticker(face, row, col)`` gives a sticker's polygon) on the
    steps where the view says how to hold the cube."""
    if step.hold is None:
        return
    n = math.isqrt(len(step.facelets_before) // 6)
    middle = n // 2
    for face in ("F", "U"):
        if n % 2:
            polygon = sticker(face, middle, middle)
        else:  # a 2x2x2 has no centre: the whole face is ringed
            polygon = np.concatenate([sticker(face, 0, 0)[:1], sticker(face, 0, n - 1)[1:2],
                                      sticker(face, n - 1, n - 1)[2:3], sticker(face, n - 1, 0)[3:]])
        quad = np.round(np.asarray(polygon, np.float32)).astype(np.int32)
        cv2.polylines(img, [quad], True, _BLACK, thickness + 2, cv2.LINE_AA)
        cv2.polylines(img, [quad], True, _WHITE, thickness, cv2.LINE_AA)
