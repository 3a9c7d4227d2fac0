"""Draw a session's ViewModel at the window's size: the camera frame scaled in, the panels where qbr.app.layout
puts them (never over the detected face); a pure function of frame, view and window size, no window, no state.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from qbr.app.edit_net import EditNetGeometry, edit_net_geometry
from qbr.app.layout import Placement, SidePanel, TextBlock, layout
from qbr.app.overlay_calibration import draw_hold, draw_review
from qbr.app.overlay_edit import dim_video, draw_edit, ring_review
from qbr.app.picture import Picture
from qbr.app.session import Mode, Step, ViewModel
from qbr.app.text import Colour, Fonts, Rect, draw_text, fill_rect, text_size
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


@dataclass(frozen=True)
class Layout:
    """Sizes for the marks drawn on the live video: the window's unit, line width, and the video's bottom edge."""

    u: float
    line: int
    h: int


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
        width = max(2, cell // 5)
        inset = (width + 1) // 2  # the frame stays inside the net's rectangle, which the layout keeps off the face
        cv2.rectangle(img, (x + inset, y + inset), (x + 3 * cell - 1 - inset, y + 3 * cell - 1 - inset), colour, width)
    return Rect(origin[0], origin[1], 12 * cell, 9 * cell)


def _swatches(img: np.ndarray, view: ViewModel, names: Sequence[str | None], origin: tuple[int, int],
              cell: int, unsure: Sequence[bool] | None = None) -> Rect:
    n = 2 if len(names) == 4 else 3  # a 2x2x2's four stickers fill the room of nine
    side = 3 * cell // n
    border = max(1, side // 10)
    for i in range(n * n):
        x, y = origin[0] + (i % n) * side, origin[1] + (i // n) * side
        name = names[i] if i < len(names) else None
        cv2.rectangle(img, (x, y), (x + side - 1, y + side - 1), BLACK, -1)
        x0, y0, x1, y1 = x + border, y + border, x + side - 1 - border, y + side - 1 - border
        cv2.rectangle(img, (x0, y0), (x1, y1), _colour(view, name) if name else DIM, -1)
        if unsure is not None and i < len(unsure) and unsure[i]:
            _hatch(img, x0, y0, x1, y1, border)  # in doubt, as the dashes on the video say
    return Rect(origin[0], origin[1], 3 * cell, 3 * cell)


_HATCHES = 3  # dark diagonal stripes across a swatch whose name is in doubt


def _hatch(img: np.ndarray, x0: int, y0: int, x1: int, y1: int, thickness: int) -> None:
    width = x1 - x0
    for k in range(1, _HATCHES + 1):
        # Stripes from the top edge down to the left, evenly spaced across the swatch's diagonal.
        offset = round(2 * width * k / (_HATCHES + 1))
        a = (x0 + min(offset, width), y0 + max(offset - width, 0))
        b = (x0 + max(offset - width, 0), y0 + min(offset, width))
        cv2.line(img, a, b, BLACK, thickness, cv2.LINE_AA)


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
    s, n = size / 6.0, math.isqrt(count)
    draw_hold(img, step, lambda face, row, col: _iso_sticker(face, row, col, centre, s, n), max(2, round(size / 18)))
    if step.face in FACES:
        draw_arrow(img, arrow_path(step.face, step.turns, centre, size), ARROW, max(2, round(size / 28)),
                   both_ends=step.turns == 2)


BAND: Colour = (32, 32, 32)
"""Behind the banner, the key bar and the room round the video."""


def _paint_block(img: np.ndarray, fonts: Fonts, block: TextBlock, colour: Colour, rtl: bool, *,
                 background: Colour | None = BLACK, alpha: float = 0.6,
                 line_colours: Sequence[Colour] | None = None) -> None:
    """A laid-out text block: its box (unless ``background`` is None), then its lines, right-aligned if ``rtl``."""
    rect = block.rect
    if background is not None:
        fill_rect(img, rect, background, alpha)
    y = rect.y + block.pad
    for i, line in enumerate(block.lines):
        c = line_colours[i] if line_colours is not None else colour
        if rtl:
            draw_text(img, fonts, line, (rect.right - block.pad, y), block.size, c, align="right")
        else:
            draw_text(img, fonts, line, (rect.x + block.pad, y), block.size, c)
        y += text_size(fonts, line, block.size)[1]


def _bands(img: np.ndarray, fonts: Fonts, view: ViewModel, p: Placement) -> None:
    """The banner (prompt and status) on top and the key bar at the bottom, outside the video."""
    _paint_block(img, fonts, p.prompt, WHITE, view.rtl, background=None)
    if p.status is not None:
        # The status stands at the banner's far end from the prompt (or on lines of its own when long).
        rtl_status = not view.rtl if len(p.status.lines) == 1 else view.rtl
        _paint_block(img, fonts, p.status, ACCENT, rtl_status, background=None)
    if p.legend is not None:
        _paint_block(img, fonts, p.legend, (220, 220, 220), view.rtl, background=None)


def _moves_strip(img: np.ndarray, fonts: Fonts, view: ViewModel, p: Placement) -> None:
    """The solution in one line above the key bar: done moves dim, the current one boxed, "…" where moves are cut."""
    strip, step = p.strip, view.step
    if strip is None or step is None:
        return
    size = strip.size
    gap = text_size(fonts, "  ", size)[0]
    widths = [text_size(fonts, view.solution[i], size)[0] for i in range(strip.lo, strip.hi + 1)]
    ellipsis = text_size(fonts, "…", size)[0]
    total = sum(widths) + gap * (len(widths) - 1) + (strip.more_before + strip.more_after) * (ellipsis + gap)
    line_h = text_size(fonts, "Ag", size)[1]
    y = strip.rect.y + (strip.rect.h - line_h) // 2
    x = (p.width - total) // 2
    if strip.more_before:
        draw_text(img, fonts, "…", (x, y), size, (140, 140, 140))
        x += ellipsis + gap
    for k, i in enumerate(range(strip.lo, strip.hi + 1)):
        colour = (140, 140, 140) if i < step.index else WHITE
        if i == step.index:
            colour = BLACK
            fill_rect(img, Rect(x - gap // 4, y, widths[k] + gap // 2, line_h), ACCENT)
        draw_text(img, fonts, view.solution[i], (x, y), size, colour)
        x += widths[k] + gap
    if strip.more_after:
        draw_text(img, fonts, "…", (x, y), size, WHITE)


def _message(img: np.ndarray, fonts: Fonts, view: ViewModel, p: Placement) -> None:
    if p.message is None:
        return
    warn = (Mode.INVALID, Mode.NO_FRAMES, Mode.CONFIRM_REPLACE, Mode.CALIBRATING)  # calibrating: a refused face
    background = WARN_BG if view.mode in warn else INFO_BG
    _paint_block(img, fonts, p.message, WHITE, view.rtl, background=background, alpha=0.85)


def _scanning_panel(img: np.ndarray, fonts: Fonts, view: ViewModel, side: SidePanel, p: Placement) -> None:
    cube = side.parts.get("cube")
    if cube is not None and view.guide is not None:
        fill_rect(img, cube, BLACK, 0.45)
        size = cube.h - 2 * p.margin
        _guide_cube(img, view, (cube.x + cube.w / 2, cube.y + p.margin + size / 2), size)
    guide = side.texts.get("guide")
    if guide is not None:
        _paint_block(img, fonts, guide, WHITE, view.rtl)
    swatches = side.parts.get("swatches")
    if swatches is not None and view.preview is not None and view.preview.colours is not None:
        _swatches(img, view, view.preview.colours, (swatches.x, swatches.y), swatches.w // 3, view.preview.unsure)


def _calibration_panel(img: np.ndarray, view: ViewModel, side: SidePanel, p: Placement) -> None:
    if view.calibration is None:
        return
    name, index, total = view.calibration
    fill_rect(img, side.rect, BLACK, 0.45)
    sw = side.parts["swatch"]
    cv2.rectangle(img, (sw.x, sw.y), (sw.right, sw.bottom), _colour(view, name), -1)
    cv2.rectangle(img, (sw.x, sw.y), (sw.right, sw.bottom), WHITE, max(1, p.line))
    dots = side.parts["dots"]
    dot = dots.h // 2
    # Progress dots: calibrated colours filled, the current one ringed.
    step = 3 * dot
    x0 = dots.x + (dots.w - (total - 1) * step) // 2
    for i in range(total):
        centre = (x0 + i * step, dots.y + dot)
        cv2.circle(img, centre, dot, ACCENT if i < index else GREY, -1, cv2.LINE_AA)
        if i == index:
            cv2.circle(img, centre, dot + 2, WHITE, max(1, dot // 2), cv2.LINE_AA)


def _solution_panel(img: np.ndarray, fonts: Fonts, view: ViewModel, side: SidePanel, p: Placement) -> None:
    step = view.step
    if step is None:
        return
    _paint_block(img, fonts, side.texts["counter"], ACCENT, view.rtl)
    move = side.parts["move"]
    fill_rect(img, move, BLACK, 0.6)
    draw_text(img, fonts, step.move, (move.x + move.w // 2, move.y + p.margin // 2), p.move_size, WHITE,
              align="center", weight=700)
    cube = side.parts.get("cube")
    if cube is not None:
        _step_cube(img, view, step, (cube.x + cube.w / 2, cube.y + cube.h / 2), cube.h)
    _paint_block(img, fonts, side.texts["sentence"], WHITE, view.rtl)


def _in_window(view: ViewModel, p: Placement) -> ViewModel:
    """``view`` with its live detection in window coordinates."""
    preview = view.preview
    if preview is None:
        return view
    stickers = p.to_window(preview.stickers) if preview.stickers is not None else None
    outline = p.to_window(preview.outline) if preview.outline is not None else None
    return replace(view, preview=replace(preview, stickers=stickers, outline=outline))


def _compose(frame: np.ndarray, p: Placement) -> np.ndarray:
    """The window's canvas: the frame scaled into the video's place, the bands' colour round it."""
    v = p.video
    if v.w <= 0 or v.h <= 0:
        return np.full((p.height, p.width, 3), BAND, np.uint8)
    if (v.w, v.h) == (frame.shape[1], frame.shape[0]):
        scaled = frame
    else:
        # Area averaging only when shrinking past half (linear would alias there); it is five times slower.
        fine = v.w < frame.shape[1] / 2
        scaled = cv2.resize(frame, (v.w, v.h), interpolation=cv2.INTER_AREA if fine else cv2.INTER_LINEAR)
    return cv2.copyMakeBorder(scaled, v.y, p.height - v.bottom, v.x, p.width - v.right, cv2.BORDER_CONSTANT,
                              value=BAND)


def _edit_font(p: Placement) -> int:
    """The size of the message under the editable net: the toast's as laid out, else the legend's."""
    if p.message is not None:
        return p.message.size
    return p.legend.size if p.legend is not None else max(1, round(4 * p.unit))


def _edit_band(p: Placement) -> tuple[float, float]:
    """The rows free for the editable net: under the banner, above the key bar (and the move strip)."""
    return float(p.banner.bottom), float(max(p.bands_top, p.banner.bottom + 1))


def edit_net_place(view: ViewModel, window: tuple[int, int], video_size: tuple[int, int],
                   fonts: Fonts | None = None) -> EditNetGeometry | None:
    """Where ``draw`` puts the editable net of ``view`` in a ``window`` (width, height) showing ``video_size``."""
    if view.mode != Mode.EDITING or view.edit is None:
        return None
    fonts = (fonts or Fonts()).directed(view.rtl)
    p = layout(view, window, video_size, fonts)
    return edit_net_geometry(p.width, p.height, view.edit.size, band=_edit_band(p))


# ------------------------------------------------------------------------------------------------ draw


def draw(frame_bgr: np.ndarray, view: ViewModel, fonts: Fonts | None = None,
         size: tuple[int, int] | None = None, recent: Sequence[np.ndarray] = ()) -> np.ndarray:
    """The window's picture at ``size`` (width, height; default the frame's own size): ``frame_bgr`` scaled into
    it with ``view`` drawn at that size (the frame itself is not changed). ``recent``: faces seen a moment ago
    (layout.RecentFaces), kept clear too."""
    return draw_picture(frame_bgr, view, fonts, size, recent).image


def draw_picture(frame_bgr: np.ndarray, view: ViewModel, fonts: Fonts | None = None,
                 size: tuple[int, int] | None = None, recent: Sequence[np.ndarray] = ()) -> Picture:
    """As ``draw``, with where the editable net was drawn (for the window's click hit-testing)."""
    fonts = (fonts or Fonts()).directed(view.rtl)
    frame = np.ascontiguousarray(frame_bgr, dtype=np.uint8)
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    window = size or (frame.shape[1], frame.shape[0])
    p = layout(view, window, (frame.shape[1], frame.shape[0]), fonts, recent=recent)
    img = _compose(frame, p)
    view = _in_window(view, p)
    lay = Layout(p.unit, p.line, p.video.bottom)
    if view.mode == Mode.NO_FRAMES:
        fill_rect(img, p.video, BLACK, 0.6)
    elif view.mode == Mode.EDITING:
        dim_video(img)
    else:
        _draw_preview_on_video(img, view, lay)
        if view.mode == Mode.SOLUTION and view.step is not None:
            _draw_face_arrow(img, view, view.step, lay)
    _bands(img, fonts, view, p)
    _moves_strip(img, fonts, view, p)
    if view.mode == Mode.EDITING:
        # Over the bands if the window is too small for both: the net is what the user clicks.
        net = None
        if view.edit is not None:
            net = draw_edit(img, fonts, view.edit, dict(view.colour_rgb), view.message, _edit_font(p),
                            band=_edit_band(p))
        return Picture(img, net)
    if view.mode == Mode.CONFIRM_CALIBRATION and view.calibration_review is not None:
        # Nothing is scanned while the new colours are reviewed: they take the video's place.
        draw_review(img, fonts, view.calibration_review, p.video, p.unit, view.rtl)
    elif p.side is not None:
        if view.mode == Mode.CALIBRATING:
            _calibration_panel(img, view, p.side, p)
        elif view.mode == Mode.SOLUTION:
            _solution_panel(img, fonts, view, p.side, p)
        else:
            _scanning_panel(img, fonts, view, p.side, p)
    if p.net is not None and view.mode != Mode.CONFIRM_CALIBRATION:
        draw_net(img, view, (p.net.x, p.net.y), p.net_cell)
        ring_review(img, view.review, view.size, (p.net.x, p.net.y), p.net_cell)
    _message(img, fonts, view, p)
    return Picture(img)
