"""Draw a session's ViewModel over a camera frame: a pure function of frame and view, no window, no state.

Every size is a fraction of the frame height, so one layout serves 640x480 up to 1920x1080.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache

import cv2
import numpy as np

from qbr.app.session import Mode, Step, ViewModel
from qbr.app.text import Colour, Fonts, Rect, draw_text, draw_text_box, fill_rect, text_size, wrap
from qbr.cube.conventions import FACES

WHITE: Colour = (255, 255, 255)
BLACK: Colour = (0, 0, 0)
GREY: Colour = (90, 90, 90)
DIM: Colour = (55, 55, 55)
ACCENT: Colour = (0, 215, 255)  # amber (BGR): progress and the next thing to do
WARN_BG: Colour = (20, 40, 150)  # dark red (BGR) behind warnings
INFO_BG: Colour = (90, 60, 30)  # dark blue (BGR) behind news (a face was captured, the language changed)
ARROW: Colour = (255, 60, 230)  # magenta (BGR): visible on every sticker colour

_NET_CELL = {"U": (3, 0), "L": (0, 3), "F": (3, 3), "R": (6, 3), "B": (9, 3), "D": (3, 6)}
"""Top-left cell of each face in the 12x9-cell net (conventions' net layout)."""

_HIDDEN_ARROWS: dict[str, tuple[tuple[str, int, int], ...]] = {
    "D": (("F", 2, 0), ("F", 2, 2), ("R", 2, 0), ("R", 2, 2)),
    "L": (("U", 0, 0), ("U", 2, 0), ("F", 0, 0), ("F", 2, 0)),
    "B": (("R", 2, 2), ("R", 0, 2), ("U", 0, 2), ("U", 0, 0)),
}
"""A clockwise quarter turn of a face hidden in the isometric view, shown by where its layer's stickers go on the
visible U, F, R faces: a path through (face, row, col) sticker centres."""


def bgr(rgb: Sequence[int]) -> Colour:
    """An sRGB triple as OpenCV's BGR."""
    return int(rgb[2]), int(rgb[1]), int(rgb[0])


def _colour(view: ViewModel, name: str | None) -> Colour:
    if name is None or name not in view.colour_rgb:
        return GREY
    return bgr(view.colour_rgb[name])


class Layout:
    """Sizes derived from the frame: a unit of 1/100 of the frame height, margins, font sizes."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.h, self.w = int(shape[0]), int(shape[1])
        self.u = self.h / 100.0
        self.margin = max(4, round(1.5 * self.u))
        self.font = max(11, round(4.0 * self.u))
        self.small = max(10, round(3.1 * self.u))
        self.big = max(16, round(5.2 * self.u))
        self.line = max(1, round(0.35 * self.u))


# --------------------------------------------------------------------------------------------- geometry


def _iso_point(x: float, y: float, z: float, centre: tuple[float, float], s: float) -> tuple[float, float]:
    # Isometric view from front-right-above: x to the right, y up, z towards the viewer.
    c = math.cos(math.radians(30))
    return centre[0] + (x - z) * c * s, centre[1] + (-y + (x + z) * 0.5) * s


def _sticker_3d(face: str, row: float, col: float) -> tuple[float, float, float]:
    """A point on a visible face of a 3x3x3 cube spanning 0..3 on each axis, in (row, col) sticker units."""
    if face == "U":
        return col, 3.0, row
    if face == "F":
        return col, 3.0 - row, 3.0
    if face == "R":
        return 3.0, 3.0 - row, 3.0 - col
    raise ValueError(f"face {face} is not visible in the isometric view")


def iso_sticker_polygon(face: str, row: int, col: int, centre: tuple[float, float], s: float) -> np.ndarray:
    """The (4,2) image polygon of a sticker of face U, F or R on an isometric cube."""
    corners = [(row, col), (row, col + 1), (row + 1, col + 1), (row + 1, col)]
    return np.array([_iso_point(*_sticker_3d(face, r, c), centre, s) for r, c in corners], np.float32)


def iso_sticker_centre(face: str, row: int, col: int, centre: tuple[float, float], s: float) -> tuple[float, float]:
    """Image point of a sticker's centre on the isometric cube."""
    return _iso_point(*_sticker_3d(face, row + 0.5, col + 0.5), centre, s)


def _iso_sticker(face: str, row: int, col: int, centre: tuple[float, float], s: float, n: int) -> np.ndarray:
    # A sticker of an n x n face drawn on the same 3-unit cube: n stickers span its three units.
    k = 3.0 / n
    corners = [(row, col), (row, col + 1), (row + 1, col + 1), (row + 1, col)]
    return np.array([_iso_point(*_sticker_3d(face, r * k, c * k), centre, s) for r, c in corners], np.float32)


@lru_cache(maxsize=16)
def _iso_cube_polygons(centre: tuple[float, float], s: float, n: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Integer polygons of the isometric cube at ``centre``/``s`` with ``n`` stickers a side: stickers (3n², 4, 2) in
    U, F, R net order, their coloured insides, and the three face outlines (3, 4, 2); computed once per size."""
    stickers = np.array([_iso_sticker(face, i // n, i % n, centre, s, n) for face in ("U", "F", "R")
                         for i in range(n * n)])
    inner = stickers + (stickers.mean(axis=1, keepdims=True) - stickers) * 0.12
    last = n - 1
    outlines = np.array([[_iso_sticker(face, r, c, centre, s, n)[k] for r, c, k in
                          ((0, 0, 0), (0, last, 1), (last, last, 2), (last, 0, 3))] for face in ("U", "F", "R")])
    polygons = tuple(np.round(p).astype(np.int32) for p in (stickers, inner, outlines))
    for p in polygons:
        p.flags.writeable = False
    return polygons


def draw_iso_cube(img: np.ndarray, centre: tuple[float, float], size: float,
                  colours: Mapping[str, Sequence[Colour]]) -> None:
    """An isometric cube whose U, F, R faces show ``colours[face]`` (nine BGR colours each, net order; four on a
    2x2x2).

    ``size`` is the cube's height in pixels; ``centre`` the image point of its centre.
    """
    s = size / 6.0  # a 3-unit cube is 6 units tall in this projection
    gap = max(1, round(s * 0.08))
    count = len(colours["U"])
    n = math.isqrt(count)
    stickers, inner, outlines = _iso_cube_polygons((float(centre[0]), float(centre[1])), float(s), n)
    for k, face in enumerate(("U", "F", "R")):
        for i in range(count):
            cv2.fillConvexPoly(img, stickers[count * k + i], BLACK, cv2.LINE_AA)
            cv2.fillConvexPoly(img, inner[count * k + i], colours[face][i], cv2.LINE_AA)
        cv2.polylines(img, [outlines[k]], True, BLACK, gap + 1, cv2.LINE_AA)


def turn_arc(turns: int, radius: float = 0.95, n: int = 24) -> list[tuple[float, float]]:
    """Three quarters of a circle round a face's centre in (row, col) sticker units (0..3), clockwise as seen
    from outside the face, or anticlockwise for ``turns`` 3."""
    sign = -1.0 if turns == 3 else 1.0
    angles = np.linspace(math.radians(20), math.radians(290), n)
    return [(1.5 - radius * math.cos(a), 1.5 + sign * radius * math.sin(a)) for a in angles]


def arrow_path(face: str, turns: int, centre: tuple[float, float], size: float) -> list[tuple[float, float]]:
    """Image points of the arrow showing ``turns`` quarter turns of ``face`` on the isometric cube."""
    s = size / 6.0
    if face in ("U", "F", "R"):
        return [_iso_point(*_sticker_3d(face, r, c), centre, s) for r, c in turn_arc(turns)]
    points = [iso_sticker_centre(f, r, c, centre, s) for f, r, c in _HIDDEN_ARROWS[face]]
    return points[::-1] if turns == 3 else points


def draw_arrow(img: np.ndarray, points: Sequence[tuple[float, float]], colour: Colour, thickness: int,
               both_ends: bool = False) -> None:
    """A polyline with an arrow head at its end (and its start if ``both_ends``), outlined in black."""
    pts = np.round(np.asarray(points, np.float32)).astype(np.int32)
    head = max(6.0, thickness * 3.5)

    def heads(col: Colour, width: int) -> None:
        ends = [(pts[-2], pts[-1])] + ([(pts[1], pts[0])] if both_ends else [])
        for a, b in ends:
            d = (b - a).astype(np.float32)
            d /= max(1e-6, float(np.hypot(*d)))
            n = np.array([-d[1], d[0]], np.float32)
            tip = b.astype(np.float32) + d * head * 0.4
            tri = np.array([tip, tip - d * head + n * head * 0.6, tip - d * head - n * head * 0.6])
            if width:
                cv2.polylines(img, [np.round(tri).astype(np.int32)], True, col, width, cv2.LINE_AA)
            cv2.fillConvexPoly(img, np.round(tri).astype(np.int32), col, cv2.LINE_AA)

    cv2.polylines(img, [pts], False, BLACK, thickness + 4, cv2.LINE_AA)
    heads(BLACK, 3)
    cv2.polylines(img, [pts], False, colour, thickness, cv2.LINE_AA)
    heads(colour, 0)


# -------------------------------------------------------------------------------------------- pieces


def _draw_preview_on_video(img: np.ndarray, view: ViewModel, lay: Layout) -> None:
    preview = view.preview
    if preview is None or preview.stickers is None:
        return
    stickers = np.asarray(preview.stickers, np.float32)
    for i in range(len(stickers)):
        name = preview.colours[i] if preview.colours is not None and i < len(preview.colours) else None
        quad = np.round(stickers[i]).astype(np.int32)
        cv2.polylines(img, [quad], True, BLACK, lay.line + 3, cv2.LINE_AA)
        colour = _colour(view, name) if name else WHITE
        if preview.unsure is not None and i < len(preview.unsure) and preview.unsure[i]:
            _dashed_quad(img, stickers[i], colour, lay.line + 1)  # in doubt: dashes, so glare is not taken as white
        else:
            cv2.polylines(img, [quad], True, colour, lay.line + 1, cv2.LINE_AA)
    outline = preview.outline if preview.outline is not None else _hull(stickers)
    outline = np.asarray(outline, np.float32)
    cv2.polylines(img, [np.round(outline).astype(np.int32)], True, WHITE, lay.line, cv2.LINE_AA)
    if view.mode in (Mode.SCANNING, Mode.CALIBRATING) and preview.steady > 0:
        _steady_bar(img, outline, preview.steady, lay)


_DASHES = 4  # dashes along each edge of a sticker in doubt


def _dashed_quad(img: np.ndarray, quad: np.ndarray, colour: Colour, thickness: int) -> None:
    for k in range(len(quad)):
        a, b = quad[k].astype(float), quad[(k + 1) % len(quad)].astype(float)
        for d in range(_DASHES):
            p = a + (b - a) * (2 * d) / (2 * _DASHES)
            q = a + (b - a) * (2 * d + 1) / (2 * _DASHES)
            cv2.line(img, (round(p[0]), round(p[1])), (round(q[0]), round(q[1])), colour, thickness, cv2.LINE_AA)


def _hull(stickers: np.ndarray) -> np.ndarray:
    return cv2.convexHull(stickers.reshape(-1, 2)).reshape(-1, 2)


def _steady_bar(img: np.ndarray, outline: np.ndarray, steady: float, lay: Layout) -> None:
    # A bar under the detected face fills up as the face holds still; full means captured.
    x0, x1 = float(outline[:, 0].min()), float(outline[:, 0].max())
    y = float(outline[:, 1].max()) + 1.5 * lay.u
    height = max(4, round(1.4 * lay.u))
    y = min(y, lay.h - height - 1)
    back = Rect(round(x0), round(y), max(1, round(x1 - x0)), height)
    fill_rect(img, back, BLACK, 0.6)
    done = Rect(back.x, back.y, max(1, round(back.w * min(1.0, max(0.0, steady)))), height)
    fill_rect(img, done, ACCENT if steady < 1 else (80, 220, 80))


def _draw_face_arrow(img: np.ndarray, view: ViewModel, step: Step, lay: Layout) -> None:
    # When the face to turn is the one towards the camera, draw the turn on the live grid itself.
    preview = view.preview
    if preview is None or preview.stickers is None or preview.colours is None or len(preview.colours) < 9:
        return
    if preview.colours[4] != view.scheme.get(step.face):
        return
    centres = np.asarray(preview.stickers, np.float32).mean(axis=1)
    grid = np.array([(i % 3 + 0.5, i // 3 + 0.5) for i in range(9)], np.float32)  # (x=col, y=row)
    homography, _ = cv2.findHomography(grid, centres[:9])
    if homography is None:
        return
    arc = np.array([(c, r) for r, c in turn_arc(step.turns)], np.float32).reshape(-1, 1, 2)
    points = cv2.perspectiveTransform(arc, homography).reshape(-1, 2)
    draw_arrow(img, points, ARROW, max(3, round(1.0 * lay.u)), both_ends=step.turns == 2)


def draw_net(img: np.ndarray, view: ViewModel, origin: tuple[int, int], cell: int) -> Rect:
    """The net of captured faces (unscanned grey), the highlighted face framed in amber, the next face in white.

    ``cell`` is a 3x3x3 sticker's side: a 2x2x2's net takes the same room with bigger stickers.
    """
    n = view.size
    sticker = 3 * cell // n
    for face in FACES:
        cx, cy = _NET_CELL[face]
        names = view.captured.get(face)
        for i in range(n * n):
            x = origin[0] + cx * cell + (i % n) * sticker
            y = origin[1] + cy * cell + (i // n) * sticker
            colour = _colour(view, names[i]) if names is not None and i < len(names) else DIM
            cv2.rectangle(img, (x, y), (x + sticker - 1, y + sticker - 1), colour, -1)
            cv2.rectangle(img, (x, y), (x + sticker - 1, y + sticker - 1), BLACK, 1)
    marks = []
    if view.guide is not None and view.mode in (Mode.SCANNING, Mode.CONFIRM_REPLACE):
        marks.append((view.guide.face, WHITE))
    if view.highlight_face is not None:
        marks.append((view.highlight_face, ACCENT))
    for face, colour in marks:
        cx, cy = _NET_CELL[face]
        x, y = origin[0] + cx * cell, origin[1] + cy * cell
        cv2.rectangle(img, (x - 1, y - 1), (x + 3 * cell, y + 3 * cell), colour, max(2, cell // 5))
    return Rect(origin[0], origin[1], 12 * cell, 9 * cell)


def _swatches(img: np.ndarray, view: ViewModel, names: Sequence[str | None], origin: tuple[int, int],
              cell: int) -> Rect:
    n = 2 if len(names) == 4 else 3  # a 2x2x2's four stickers fill the room of nine
    side = 3 * cell // n
    for i in range(n * n):
        x, y = origin[0] + (i % n) * side, origin[1] + (i // n) * side
        name = names[i] if i < len(names) else None
        cv2.rectangle(img, (x, y), (x + side - 1, y + side - 1), _colour(view, name) if name else DIM, -1)
        cv2.rectangle(img, (x, y), (x + side - 1, y + side - 1), BLACK, max(1, side // 10))
    return Rect(origin[0], origin[1], 3 * cell, 3 * cell)


def _guide_cube(img: np.ndarray, view: ViewModel, centre: tuple[float, float], size: float) -> None:
    guide = view.guide
    assert guide is not None
    colours = {}
    if view.size == 2:
        # No centres to show how to hold it: the face towards the camera is lit, the others grey.
        colours = {face: [WHITE if face == "F" else DIM] * 4 for face in ("U", "F", "R")}
        draw_iso_cube(img, centre, size, colours)
        return
    for face, name in (("U", guide.top), ("F", guide.front), ("R", guide.right)):
        c = _colour(view, name)
        colours[face] = [c if i == 4 else DIM for i in range(9)]
    draw_iso_cube(img, centre, size, colours)


def _step_cube(img: np.ndarray, view: ViewModel, step: Step, centre: tuple[float, float], size: float) -> None:
    facelets = step.facelets_before
    count = len(facelets) // len(FACES)
    colours = {face: [_colour(view, view.scheme.get(facelets[count * FACES.index(face) + i]))
                      for i in range(count)] for face in ("U", "F", "R")}
    draw_iso_cube(img, centre, size, colours)
    if step.face in FACES:
        draw_arrow(img, arrow_path(step.face, step.turns, centre, size), ARROW, max(2, round(size / 28)),
                   both_ends=step.turns == 2)


def _legend(img: np.ndarray, fonts: Fonts, view: ViewModel, lay: Layout) -> int:
    """The key legend along the bottom edge; returns the top of its bar."""
    size = lay.small
    items = [view.legend_item.format(key=key, action=action) for key, action in view.legend]
    if not items:
        return lay.h
    lines: list[str] = []
    sep = "   "
    limit = lay.w - 2 * lay.margin - size
    for item in items:
        if lines and text_size(fonts, lines[-1] + sep + item, size)[0] <= limit:
            lines[-1] += sep + item
        else:
            lines.append(item)
    line_h = max(text_size(fonts, line, size)[1] for line in lines)
    top = lay.h - len(lines) * line_h - lay.margin
    fill_rect(img, Rect(0, top - lay.margin // 2, lay.w, lay.h - top + lay.margin // 2), BLACK, 0.55)
    for i, line in enumerate(lines):
        y = top + i * line_h
        if view.rtl:
            draw_text(img, fonts, line, (lay.w - lay.margin, y), size, (220, 220, 220), align="right")
        else:
            draw_text(img, fonts, line, (lay.margin, y), size, (220, 220, 220))
    return top - lay.margin // 2


def _top_bar(img: np.ndarray, fonts: Fonts, view: ViewModel, lay: Layout) -> int:
    """Prompt and status across the top; returns the bar's bottom."""
    status_w = text_size(fonts, view.status, lay.font)[0] if view.status else 0
    width = lay.w - 3 * lay.margin - status_w
    lines = wrap(fonts, view.prompt, lay.big, width) if view.prompt else []
    line_h = max(text_size(fonts, line, lay.big)[1] for line in [*lines, "Ag"])
    bottom = lay.margin + max(1, len(lines)) * line_h + lay.margin // 2
    fill_rect(img, Rect(0, 0, lay.w, bottom), BLACK, 0.55)
    for i, line in enumerate(lines):
        y = lay.margin // 2 + i * line_h
        if view.rtl:
            draw_text(img, fonts, line, (lay.w - lay.margin, y), lay.big, WHITE, align="right")
        else:
            draw_text(img, fonts, line, (lay.margin, y), lay.big, WHITE)
    if view.status:
        y = lay.margin // 2 + (line_h - text_size(fonts, "Ag", lay.font)[1]) // 2
        if view.rtl:
            draw_text(img, fonts, view.status, (lay.margin, y), lay.font, ACCENT)
        else:
            draw_text(img, fonts, view.status, (lay.w - lay.margin, y), lay.font, ACCENT, align="right")
    return bottom


def _message(img: np.ndarray, fonts: Fonts, view: ViewModel, lay: Layout, top: int, centred: bool) -> None:
    # Centred over the video when there is no video; otherwise beside the side panel, never over it.
    if not view.message:
        return
    panel = 0 if centred else _panel_width(view, lay) + lay.margin
    width = min(lay.w - 4 * lay.margin - panel, round(lay.w * 0.7))
    lines = wrap(fonts, view.message, lay.font, width)
    widest = max(text_size(fonts, line, lay.font)[0] for line in lines)
    box_w = widest + 2 * round(lay.font * 0.5)
    background = WARN_BG if view.mode in (Mode.INVALID, Mode.NO_FRAMES, Mode.CONFIRM_REPLACE) else INFO_BG
    side = lay.w - lay.margin - box_w if view.rtl else lay.margin
    x = (lay.w - box_w) // 2 if centred else side
    if view.rtl:
        draw_text_box(img, fonts, lines, (x + box_w, top), lay.font, WHITE, background=background, alpha=0.85,
                      align="right", pad=0.5, min_width=box_w)
    else:
        draw_text_box(img, fonts, lines, (x, top), lay.font, WHITE, background=background, alpha=0.85, pad=0.5,
                      min_width=box_w)


def _side_box(img: np.ndarray, fonts: Fonts, view: ViewModel, lay: Layout, lines: Sequence[str],
              top: int, width: int, size: int, colours: Sequence[Colour] | None = None) -> Rect:
    """A text box on the panel side (right, or left for RTL) of the frame."""
    wrapped: list[str] = []
    wrapped_colours: list[Colour] = []
    for i, line in enumerate(lines):
        parts = _side_lines(fonts, line, size, width)
        wrapped += parts
        wrapped_colours += [colours[i] if colours else WHITE] * len(parts)
    if view.rtl:
        return draw_text_box(img, fonts, wrapped, (lay.margin + width, top), size, WHITE, align="right",
                             min_width=width, line_colours=wrapped_colours)
    return draw_text_box(img, fonts, wrapped, (lay.w - lay.margin - width, top), size, WHITE, min_width=width,
                         line_colours=wrapped_colours)


def _panel_width(view: ViewModel, lay: Layout) -> int:
    if view.mode == Mode.SOLUTION:
        return round(min(lay.w * 0.36, 40 * lay.u))
    return round(min(lay.w * 0.32, 34 * lay.u))


def _panel_x(view: ViewModel, lay: Layout, width: int) -> int:
    return lay.margin if view.rtl else lay.w - lay.margin - width


def _scanning_panel(img: np.ndarray, fonts: Fonts, view: ViewModel, lay: Layout, top: int) -> None:
    width = _panel_width(view, lay)
    x = _panel_x(view, lay, width)
    if view.guide is not None:
        cube = round(16 * lay.u)
        fill_rect(img, Rect(x, top, width, cube + 2 * lay.margin), BLACK, 0.45)
        _guide_cube(img, view, (x + width / 2, top + lay.margin + cube / 2), cube)
        top += cube + 2 * lay.margin
        top = _side_box(img, fonts, view, lay, [view.guide.text], top, width, lay.small).bottom + lay.margin
    if view.preview is not None and view.preview.colours is not None:
        cell = round(4.5 * lay.u)
        _swatches(img, view, view.preview.colours, (x + (width - 3 * cell) // 2, top), cell)


def _calibration_panel(img: np.ndarray, fonts: Fonts, view: ViewModel, lay: Layout, top: int) -> None:
    if view.calibration is None:
        return
    name, index, total = view.calibration
    width = _panel_width(view, lay)
    x = _panel_x(view, lay, width)
    cell = round(9 * lay.u)
    dot = max(3, round(1.2 * lay.u))
    fill_rect(img, Rect(x, top, width, cell + 3 * lay.margin + 2 * dot), BLACK, 0.45)
    sx = x + (width - cell) // 2
    cv2.rectangle(img, (sx, top + lay.margin), (sx + cell, top + lay.margin + cell), _colour(view, name), -1)
    cv2.rectangle(img, (sx, top + lay.margin), (sx + cell, top + lay.margin + cell), WHITE, max(1, lay.line))
    top += cell + 2 * lay.margin
    # Progress dots: calibrated colours filled, the current one ringed.
    step = 3 * dot
    x0 = x + (width - (total - 1) * step) // 2
    for i in range(total):
        p = (x0 + i * step, top + dot)
        cv2.circle(img, p, dot, ACCENT if i < index else GREY, -1, cv2.LINE_AA)
        if i == index:
            cv2.circle(img, p, dot + 2, WHITE, max(1, dot // 2), cv2.LINE_AA)


def _side_lines(fonts: Fonts, text: str, size: int, width: int) -> list[str]:
    return wrap(fonts, text, size, width - size)


def _box_height(fonts: Fonts, lines: Sequence[str], size: int) -> int:
    # Matches draw_text_box's default padding.
    return sum(text_size(fonts, line, size)[1] for line in lines) + 2 * max(2, round(size * 0.35))


def _solution_panel(img: np.ndarray, fonts: Fonts, view: ViewModel, lay: Layout, top: int, bottom: int) -> None:
    step = view.step
    if step is None:
        return
    bottom = _moves_strip(img, fonts, view, step, lay, bottom) - lay.margin
    width = _panel_width(view, lay)
    x = _panel_x(view, lay, width)
    box = _side_box(img, fonts, view, lay, [step.counter], top, width, lay.font, [ACCENT])
    top = box.bottom
    move_size = round(9 * lay.u)
    sentence_h = _box_height(fonts, _side_lines(fonts, step.sentence, lay.font, width), lay.font)
    # The cube takes what room is left between the move and the sentence, so the panel never runs off the frame.
    room = bottom - top - sentence_h - move_size * 1.3 - 2 * lay.margin
    cube = round(max(8 * lay.u, min(26 * lay.u, width * 0.8, room)))
    block = move_size * 1.3 + cube + 2 * lay.margin
    fill_rect(img, Rect(x, top, width, round(block)), BLACK, 0.6)
    draw_text(img, fonts, step.move, (x + width // 2, top + lay.margin // 2), move_size, WHITE, align="center",
              weight=700)
    _step_cube(img, view, step, (x + width / 2, top + move_size * 1.3 + lay.margin + cube / 2), cube)
    top += round(block)
    _side_box(img, fonts, view, lay, [step.sentence], top, width, lay.font)


def _moves_strip(img: np.ndarray, fonts: Fonts, view: ViewModel, step: Step, lay: Layout, bottom: int) -> int:
    """The whole solution in one line above the legend, done moves dim, the current one boxed; returns its top."""
    size = lay.font
    gap = text_size(fonts, "  ", size)[0]
    widths = [text_size(fonts, m, size)[0] for m in view.solution]
    if not widths:
        return bottom
    limit = lay.w - 2 * lay.margin
    # Show a window of moves around the current one that fits the width.
    lo = hi = min(step.index, len(widths) - 1)
    total = widths[lo]
    while True:
        grown = False
        if hi + 1 < len(widths) and total + gap + widths[hi + 1] <= limit:
            hi += 1
            total += gap + widths[hi]
            grown = True
        if lo > 0 and total + gap + widths[lo - 1] <= limit:
            lo -= 1
            total += gap + widths[lo]
            grown = True
        if not grown:
            break
    line_h = text_size(fonts, "Ag", size)[1]
    y = bottom - line_h - lay.margin // 2
    fill_rect(img, Rect(0, y - lay.margin // 3, lay.w, bottom - y + lay.margin // 3), BLACK, 0.55)
    x = (lay.w - total) // 2
    order = range(lo, hi + 1)
    for i in order:
        colour = (140, 140, 140) if i < step.index else WHITE
        if i == step.index:
            colour = BLACK
            fill_rect(img, Rect(x - gap // 4, y, widths[i] + gap // 2, line_h), ACCENT)
        draw_text(img, fonts, view.solution[i], (x, y), size, colour)
        x += widths[i] + gap
    return y - lay.margin // 3


def _no_frames(img: np.ndarray, fonts: Fonts, view: ViewModel, lay: Layout) -> None:
    fill_rect(img, Rect(0, 0, lay.w, lay.h), BLACK, 0.6)


# ------------------------------------------------------------------------------------------------ draw


def draw(frame_bgr: np.ndarray, view: ViewModel, fonts: Fonts | None = None) -> np.ndarray:
    """A copy of ``frame_bgr`` with ``view`` drawn over it (the frame itself is not changed)."""
    fonts = (fonts or Fonts()).directed(view.rtl)
    img = np.ascontiguousarray(frame_bgr, dtype=np.uint8).copy()
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    lay = Layout(img.shape)
    if view.mode == Mode.NO_FRAMES:
        _no_frames(img, fonts, view, lay)
    else:
        _draw_preview_on_video(img, view, lay)
        if view.mode == Mode.SOLUTION and view.step is not None:
            _draw_face_arrow(img, view, view.step, lay)
    legend_top = _legend(img, fonts, view, lay)
    top = _top_bar(img, fonts, view, lay) + lay.margin
    if view.mode in (Mode.SCANNING, Mode.CONFIRM_REPLACE, Mode.RESOLVING, Mode.INVALID):
        _scanning_panel(img, fonts, view, lay, top)
    elif view.mode == Mode.CALIBRATING:
        _calibration_panel(img, fonts, view, lay, top)
    elif view.mode == Mode.SOLUTION:
        _solution_panel(img, fonts, view, lay, top, legend_top)
    if view.mode != Mode.SOLUTION and view.captured is not None:
        cell = max(4, round(2.3 * lay.u))
        x = lay.w - lay.margin - 12 * cell if view.rtl else lay.margin
        draw_net(img, view, (x, legend_top - lay.margin - 9 * cell), cell)
    centred = view.mode == Mode.NO_FRAMES
    _message(img, fonts, view, lay, lay.h // 2 - 3 * lay.font if centred else top, centred)
    return img
