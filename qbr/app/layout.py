"""Where the window's panels go: a pure function of the window's size, the session's view and text sizes.

The banner (prompt and status) runs across the top and the key bar (with the move strip in the solution) across
the bottom, both outside the video, so they can never cover the cube. The video fills the room between them,
scaled to fit; the side panel, the toast and the net are placed in what is left, round the detected face and
never over it. Every text size comes from the window's size (never below a readable minimum), so the overlay is
drawn at the window's real size and stays crisp when the window is resized.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

from qbr.app.session import Mode, ViewModel
from qbr.app.text import Fonts, Rect, text_size, wrap


@dataclass(frozen=True)
class LayoutTunables:
    """Sizes of the window's parts, in units of 1/100 of the window's short side (height, or 3/4 of the width)."""

    min_text_px: int = 16
    """No text smaller than this: read at arm's length from a laptop screen."""
    prompt: float = 4.4
    """The banner's prompt: the one thing to do now, read first."""
    text: float = 3.6
    """Status, toasts, the side panel's sentences and the move strip."""
    small: float = 3.0
    """The key bar and the guide's sentence: read once, then known."""
    move: float = 8.0
    """The current move in the solution panel, readable from where the cube is held."""
    margin: float = 1.5
    """Space between panels and round the window's edge."""
    prompt_lines: int = 2
    """Lines the banner keeps room for (the video does not jump as prompts change); a longer prompt gets a smaller
    font first, down to min_text_px, and only then more lines."""
    side_share: float = 0.3
    """The side panel's width as a share of the window's width..."""
    side_units: float = 36.0
    """... and at most this many units (a wide window keeps a panel, not a banner, at its side)."""
    side_min_share: float = 0.6
    """A side panel squeezed by the face may narrow to this share of its width before it is dropped."""
    message_share: float = 0.6
    """A toast's widest share of the window's width."""
    guide_cube: float = 16.0
    """The small cube showing how to hold the cube, while scanning."""
    step_cube: float = 26.0
    """The small cube with the move's arrow, in the solution (shrunk to what room there is)."""
    min_cube: float = 8.0
    """Smallest small cube worth drawing."""
    swatch_cell: float = 4.5
    """A sticker of the live colour swatches."""
    net_cell: float = 2.3
    """A sticker of the net of captured faces."""
    min_net_cell: float = 1.5
    """Smallest net sticker worth drawing (the net shrinks before it is dropped)."""
    calibration_cell: float = 9.0
    """The colour being calibrated."""
    live_line: float = 0.35
    """Lines drawn on the live face: thin enough not to hide a sticker's edge."""
    text_pad: float = 0.35
    """A text box's padding, as a share of its font size."""
    toast_pad: float = 0.5
    """A toast's padding, as a share of its font size: it stands out from the panels."""
    toast_min_em: float = 9.0
    """The narrowest toast tried, in font sizes (about a dozen letters a line)."""
    status_share: float = 0.4
    """A status wider than this share of the window gets lines of its own above the prompt."""
    shrink: float = 0.9
    """Each step a prompt too long for the banner's lines shrinks by."""
    solution_side: float = 1.1
    """The solution panel is this much wider than the scanning one: the sentence and the bigger cube."""
    cube_share: float = 0.8
    """A small cube's widest share of its panel."""
    move_line: float = 1.3
    """The move's line height, as a share of its letters' size."""
    face_margin: float = 3.0
    """Room kept round the detected face: it moves a little between frames."""
    face_below: float = 3.5
    """Room kept below the face for the steadiness bar drawn under it."""
    open_min_width: int = 960
    """The window opens with the video at least this wide: text at 640x480 would otherwise be tiny."""
    open_max_width: int = 1280
    """... and at most this wide (a 1080p camera opens a window that fits a laptop screen)."""


@dataclass(frozen=True)
class TextBlock:
    """Lines of text on a box: the box, the lines (already wrapped), their size and padding in pixels."""

    rect: Rect
    lines: tuple[str, ...]
    size: int
    pad: int


@dataclass(frozen=True)
class SidePanel:
    """The panel beside the face: its box and the parts inside it (by name), boxes and text blocks."""

    rect: Rect
    parts: dict[str, Rect] = field(default_factory=dict)
    texts: dict[str, TextBlock] = field(default_factory=dict)


@dataclass(frozen=True)
class Strip:
    """The move strip: its box, the moves shown (lo..hi inclusive) and whether moves are cut off at each end."""

    rect: Rect
    size: int
    lo: int
    hi: int
    more_before: bool
    more_after: bool


@dataclass(frozen=True)
class Placement:
    """Every panel's rectangle in window pixels, and how the video maps into the window."""

    width: int
    height: int
    unit: float
    margin: int
    line: int
    """Width of the lines drawn on the live face."""
    video: Rect
    scale: float
    """Window pixels per video pixel."""
    face: Rect | None
    """Where the detected face is, with room round it: nothing is placed over it."""
    banner: Rect
    prompt: TextBlock
    status: TextBlock | None
    legend: TextBlock | None
    strip: Strip | None
    side: SidePanel | None
    message: TextBlock | None
    net: Rect | None
    net_cell: int
    move_size: int
    """The current move's letters in the solution panel."""
    rtl: bool

    @property
    def bands_top(self) -> int:
        """The top row of the bands below the video: the move strip's, else the key bar's, else the window's end."""
        if self.strip is not None:
            return self.strip.rect.y
        return self.legend.rect.y if self.legend is not None else self.height

    def panels(self) -> dict[str, Rect]:
        """Every panel drawn, by name."""
        named: dict[str, Rect | None] = {
            "banner": self.banner, "legend": self.legend.rect if self.legend else None,
            "strip": self.strip.rect if self.strip else None, "side": self.side.rect if self.side else None,
            "message": self.message.rect if self.message else None, "net": self.net}
        return {name: rect for name, rect in named.items() if rect is not None}

    def to_window(self, points: np.ndarray) -> np.ndarray:
        """Video pixel coordinates (..., 2) as window pixel coordinates."""
        p = np.asarray(points, np.float32)
        return p * self.scale + np.array([self.video.x, self.video.y], np.float32)


def intersects(a: Rect, b: Rect) -> bool:
    """True if the two rectangles share any pixel."""
    return a.x < b.right and b.x < a.right and a.y < b.bottom and b.y < a.bottom


def unit_of(width: int, height: int) -> float:
    """1/100 of the window's short side (its height, or 3/4 of its width in a tall window)."""
    return min(height, width * 0.75) / 100.0


class _Sizes:
    """Pixel sizes for one window."""

    def __init__(self, width: int, height: int, t: LayoutTunables) -> None:
        self.w, self.h = width, height
        self.u = unit_of(width, height)
        self.margin = max(3, round(t.margin * self.u))
        self.prompt = max(t.min_text_px, round(t.prompt * self.u))
        self.text = max(t.min_text_px, round(t.text * self.u))
        self.small = max(t.min_text_px, round(t.small * self.u))
        self.move = max(t.min_text_px, round(t.move * self.u))
        self.line = max(1, round(t.live_line * self.u))


def _pad(size: int, share: float = LayoutTunables.text_pad) -> int:
    return max(2, round(size * share))


def _block_height(fonts: Fonts, lines: Sequence[str], size: int, pad: int) -> int:
    return sum(text_size(fonts, line, size)[1] for line in lines) + 2 * pad


def _text_block(fonts: Fonts, text: str, size: int, width: int, x: int, y: int, pad: int | None = None) -> TextBlock:
    """``text`` wrapped to a box ``width`` wide at (x, y)."""
    pad = _pad(size) if pad is None else pad
    lines = tuple(wrap(fonts, text, size, max(size, width - 2 * pad)))
    return TextBlock(Rect(x, y, width, _block_height(fonts, lines, size, pad)), lines, size, pad)


def _moved(block: TextBlock, x: int, y: int) -> TextBlock:
    return TextBlock(Rect(x, y, block.rect.w, block.rect.h), block.lines, block.size, block.pad)


# ------------------------------------------------------------------------------------------- the bands


def _banner(fonts: Fonts, view: ViewModel, s: _Sizes, t: LayoutTunables) -> tuple[Rect, TextBlock, TextBlock | None]:
    status = None
    status_w = 0
    if view.status:
        status_w = text_size(fonts, view.status, s.text)[0]
        if status_w > s.w * t.status_share:  # lines of its own, never the prompt's room
            status_w = 0
    width = s.w - 2 * s.margin - (status_w + s.margin if status_w else 0)
    size = s.prompt
    lines = wrap(fonts, view.prompt, size, width) if view.prompt else []
    while len(lines) > t.prompt_lines and size > t.min_text_px:
        size = max(t.min_text_px, round(size * t.shrink))
        lines = wrap(fonts, view.prompt, size, width)
    line_h = text_size(fonts, "Ag", size)[1]
    heights = [text_size(fonts, line, size)[1] for line in lines]
    rows = max(t.prompt_lines, len(lines))
    text_h = max(rows * line_h, sum(heights))
    pad = s.margin // 2
    y = pad
    status_lines: tuple[str, ...] = ()
    if view.status and not status_w:
        status_lines = tuple(wrap(fonts, view.status, s.text, s.w - 2 * s.margin))
        y += _block_height(fonts, status_lines, s.text, 0)
    prompt_x = s.w - s.margin - width if view.rtl else s.margin
    room = text_h
    text_h = max(sum(heights), line_h)
    y += (room - text_h) // 2  # fewer lines than the banner keeps room for: centred in it
    prompt = TextBlock(Rect(prompt_x, y, width, text_h), tuple(lines), size, 0)
    banner_bottom = y - (room - text_h) // 2 + room + pad
    if view.status:
        if status_w:
            sx = s.margin if view.rtl else s.w - s.margin - status_w
            sy = y + max(0, (line_h - text_size(fonts, "Ag", s.text)[1]) // 2)
            status = TextBlock(Rect(sx, sy, status_w, text_size(fonts, view.status, s.text)[1]), (view.status,),
                               s.text, 0)
        else:
            status = TextBlock(Rect(s.margin, pad, s.w - 2 * s.margin, y - pad), status_lines, s.text, 0)
    return Rect(0, 0, s.w, banner_bottom), prompt, status


def _legend(fonts: Fonts, view: ViewModel, s: _Sizes) -> TextBlock | None:
    items = [view.legend_item.format(key=key, action=action) for key, action in view.legend]
    if not items:
        return None
    size = s.small
    sep = "   "
    limit = s.w - 2 * s.margin
    lines: list[str] = []
    for item in items:
        if lines and text_size(fonts, lines[-1] + sep + item, size)[0] <= limit:
            lines[-1] += sep + item
        else:
            lines += wrap(fonts, item, size, limit)
    pad = s.margin // 2
    height = _block_height(fonts, lines, size, pad)
    return TextBlock(Rect(0, s.h - height, s.w, height), tuple(lines), size, pad)


def strip_window(widths: Sequence[int], current: int, gap: int, limit: int, ellipsis: int) -> tuple[int, int]:
    """The moves (lo, hi inclusive) shown round ``current`` in ``limit`` pixels: as many as fit, with room for an
    ellipsis at each end where moves are left out."""
    if not widths:
        return 0, -1
    current = min(max(0, current), len(widths) - 1)

    def room(lo: int, hi: int) -> int:
        marks = (lo > 0) + (hi < len(widths) - 1)
        return sum(widths[lo: hi + 1]) + gap * (hi - lo) + marks * (ellipsis + gap)

    lo = hi = current
    grown = True
    while grown:
        grown = False
        if hi + 1 < len(widths) and room(lo, hi + 1) <= limit:
            hi += 1
            grown = True
        if lo > 0 and room(lo - 1, hi) <= limit:
            lo -= 1
            grown = True
    return lo, hi


def _strip(fonts: Fonts, view: ViewModel, s: _Sizes, bottom: int) -> Strip | None:
    if view.mode != Mode.SOLUTION or view.step is None or not view.solution:
        return None
    size = s.text
    gap = text_size(fonts, "  ", size)[0]
    widths = [text_size(fonts, m, size)[0] for m in view.solution]
    ellipsis = text_size(fonts, "…", size)[0]
    lo, hi = strip_window(widths, view.step.index, gap, s.w - 2 * s.margin, ellipsis)
    height = text_size(fonts, "Ag", size)[1] + s.margin
    return Strip(Rect(0, bottom - height, s.w, height), size, lo, hi, lo > 0, hi < len(widths) - 1)


# --------------------------------------------------------------------------------------- placing panels


def _place(size: tuple[int, int], area: Rect, obstacles: Sequence[Rect], anchor: tuple[int, int],
           gap: int) -> Rect | None:
    """The free spot for a ``size`` box in ``area`` nearest ``anchor`` (its preferred top-left corner), clear of
    every obstacle by ``gap``; None if there is none."""
    w, h = size
    if w > area.w or h > area.h:
        return None
    xs = {area.x, area.right - w, anchor[0]}
    ys = {area.y, area.bottom - h, anchor[1]}
    for ob in obstacles:
        xs |= {ob.right + gap, ob.x - gap - w}
        ys |= {ob.bottom + gap, ob.y - gap - h}
    best: tuple[int, Rect] | None = None
    for x in xs:
        if x < area.x or x + w > area.right:
            continue
        for y in ys:
            if y < area.y or y + h > area.bottom:
                continue
            rect = Rect(x, y, w, h)
            if any(intersects(rect, ob) for ob in obstacles):
                continue
            cost = abs(x - anchor[0]) + abs(y - anchor[1])
            if best is None or cost < best[0]:
                best = (cost, rect)
    return best[1] if best else None


def _grown(rect: Rect, by: int) -> Rect:
    return Rect(rect.x - by, rect.y - by, rect.w + 2 * by, rect.h + 2 * by)


def _face_rect(view: ViewModel, video: Rect, scale: float, s: _Sizes, t: LayoutTunables,
               recent: Sequence[np.ndarray]) -> Rect | None:
    """The detected face's box in the window (with the recent faces too), with room round it and below it."""
    points = [np.asarray(p, np.float32).reshape(-1, 2) for p in recent]
    preview = view.preview
    if preview is not None and view.mode != Mode.NO_FRAMES:
        if preview.outline is not None:
            points.append(np.asarray(preview.outline, np.float32).reshape(-1, 2))
        if preview.stickers is not None:
            points.append(np.asarray(preview.stickers, np.float32).reshape(-1, 2))
    if not points or view.mode == Mode.NO_FRAMES:
        return None
    p = np.concatenate(points) * scale + np.array([video.x, video.y], np.float32)
    room = round(t.face_margin * s.u)
    x0, y0 = np.floor(p.min(axis=0)) - room
    x1, y1 = np.ceil(p.max(axis=0)) + room
    y1 += round(t.face_below * s.u)
    x0, y0 = max(video.x, int(x0)), max(video.y, int(y0))
    x1, y1 = min(video.right, int(x1)), min(video.bottom, int(y1))
    if x1 <= x0 or y1 <= y0:
        return None
    return Rect(x0, y0, x1 - x0, y1 - y0)


class RecentFaces:
    """The faces detected in the last moments (video pixels): the layout keeps clear of them too, so a face lost for
    a frame or wobbling at a panel's edge does not make the panels jump back and forth. Time is given, not read."""

    def __init__(self, seconds: float = 0.6) -> None:
        self.seconds = seconds
        """How long a face seen keeps its room (the detection misses a frame or two now and then)."""
        self._seen: list[tuple[float, np.ndarray]] = []

    def update(self, view: ViewModel, t: float) -> tuple[np.ndarray, ...]:
        """Remember ``view``'s face seen at time ``t``; the corners of the faces seen within ``seconds`` before."""
        preview = view.preview
        if preview is not None and preview.outline is not None:
            p = np.asarray(preview.outline, np.float32).reshape(-1, 2)
            self._seen.append((t, np.array([p.min(axis=0), p.max(axis=0)], np.float32)))
        self._seen = [(when, box) for when, box in self._seen if t - when <= self.seconds]
        if not self._seen:
            return ()
        boxes = np.concatenate([box for _, box in self._seen])
        return (np.array([boxes.min(axis=0), boxes.max(axis=0)], np.float32),)


SideBuilder = Callable[[int, float], SidePanel | None]
"""A side panel's contents laid out at (0, 0) for a width and a small cube's size, or None if nothing to show."""


def _scanning_side(fonts: Fonts, view: ViewModel, s: _Sizes, t: LayoutTunables) -> SideBuilder:
    def build(width: int, cube: float) -> SidePanel | None:
        parts: dict[str, Rect] = {}
        texts: dict[str, TextBlock] = {}
        y = 0
        cube = min(cube, width * t.cube_share)
        if view.guide is not None:
            if cube > 0:
                parts["cube"] = Rect(0, y, width, round(cube) + 2 * s.margin)
                y = parts["cube"].bottom
            texts["guide"] = _text_block(fonts, view.guide.text, s.small, width, 0, y)
            y = texts["guide"].rect.bottom + s.margin
        if view.preview is not None and view.preview.colours is not None:
            cell = round(t.swatch_cell * s.u)
            parts["swatches"] = Rect((width - 3 * cell) // 2, y, 3 * cell, 3 * cell)
            y = parts["swatches"].bottom
        return SidePanel(Rect(0, 0, width, y), parts, texts) if y else None

    return build


def _calibration_side(view: ViewModel, s: _Sizes, t: LayoutTunables) -> SideBuilder:
    def build(width: int, cube: float) -> SidePanel | None:
        if view.calibration is None:
            return None
        cell = min(round(t.calibration_cell * s.u), width - 2 * s.margin)
        dot = max(3, round(1.2 * s.u))
        height = cell + 3 * s.margin + 2 * dot
        parts = {"swatch": Rect((width - cell) // 2, s.margin, cell, cell),
                 "dots": Rect(0, cell + 2 * s.margin, width, 2 * dot)}
        return SidePanel(Rect(0, 0, width, height), parts, {})

    return build


def _solution_side(fonts: Fonts, view: ViewModel, s: _Sizes, t: LayoutTunables) -> SideBuilder:
    def build(width: int, cube: float) -> SidePanel | None:
        step = view.step
        if step is None:
            return None
        counter = _text_block(fonts, step.counter, s.text, width, 0, 0)
        y = counter.rect.bottom
        move_h = round(s.move * t.move_line)
        cube_h = round(min(cube, width * t.cube_share)) if cube > 0 else 0
        parts = {"move": Rect(0, y, width, move_h + (cube_h + s.margin if cube_h else 0) + s.margin)}
        if cube_h:
            parts["cube"] = Rect((width - cube_h) // 2, y + move_h + s.margin // 2, cube_h, cube_h)
        y = parts["move"].bottom
        sentence = _text_block(fonts, step.sentence, s.text, width, 0, y)
        texts = {"counter": counter, "sentence": sentence}
        return SidePanel(Rect(0, 0, width, sentence.rect.bottom), parts, texts)

    return build


def _shifted(panel: SidePanel, x: int, y: int) -> SidePanel:
    def move(r: Rect) -> Rect:
        return Rect(r.x + x, r.y + y, r.w, r.h)

    return SidePanel(move(panel.rect), {k: move(r) for k, r in panel.parts.items()},
                     {k: _moved(b, b.rect.x + x, b.rect.y + y) for k, b in panel.texts.items()})


def _side_candidates(build: SideBuilder, cubes: Sequence[float], width: int, min_width: int, area: Rect,
                     obstacles: Sequence[Rect], rtl: bool, gap: int) -> Iterator[SidePanel]:
    """The side panel where it fits, best first: biggest cube and full width, then a smaller cube, a narrower
    panel, no cube."""
    for w in (width, (width + min_width) // 2, min_width):
        for cube in [*cubes, 0.0]:
            panel = build(w, cube)
            if panel is None:
                return
            anchor = (area.x if rtl else area.right - w, area.y)
            spot = _place((w, panel.rect.h), area, obstacles, anchor, gap)
            if spot is not None:
                yield _shifted(panel, spot.x, spot.y)


def _message(fonts: Fonts, view: ViewModel, s: _Sizes, t: LayoutTunables, area: Rect, obstacles: Sequence[Rect],
             centred: bool) -> TextBlock | None:
    if not view.message:
        return None
    pad = _pad(s.text, t.toast_pad)
    widest = round(min(s.w * t.message_share, area.w))
    # The toast nearest its corner wins: a narrower one of more lines there beats a wide one pushed far off.
    best: tuple[int, TextBlock] | None = None
    for width in sorted({widest, widest * 3 // 4, widest // 2, min(widest, round(t.toast_min_em * s.text))},
                        reverse=True):
        block = _text_block(fonts, view.message, s.text, width, 0, 0, pad)
        # The box is as wide as its widest line, not the room it was wrapped in.
        width = max(text_size(fonts, line, s.text)[0] for line in block.lines) + 2 * pad
        if centred:
            anchor = (area.x + (area.w - width) // 2, area.y + (area.h - block.rect.h) // 2)
        else:
            anchor = (area.right - width if view.rtl else area.x, area.y)
        spot = _place((width, block.rect.h), area, obstacles, anchor, s.margin)
        if spot is not None:
            cost = abs(spot.x - anchor[0]) + abs(spot.y - anchor[1])
            if best is None or cost < best[0]:
                best = (cost, TextBlock(spot, block.lines, block.size, pad))
            if cost == 0:
                break
    return best[1] if best else None


def _net(view: ViewModel, s: _Sizes, t: LayoutTunables, area: Rect, obstacles: Sequence[Rect]) -> tuple[Rect | None,
                                                                                                         int]:
    if view.mode == Mode.SOLUTION or view.captured is None:
        return None, 0
    for units in (t.net_cell, (t.net_cell + t.min_net_cell) / 2, t.min_net_cell):
        cell = max(4, round(units * s.u))
        size = (12 * cell, 9 * cell)
        anchor = (area.right - size[0] if view.rtl else area.x, area.bottom - size[1])
        spot = _place(size, area, obstacles, anchor, s.margin)
        if spot is not None:
            return spot, cell
    return None, 0


def _side_and_message(fonts: Fonts, view: ViewModel, s: _Sizes, t: LayoutTunables, area: Rect,
                      obstacles: Sequence[Rect], sides: Iterator[SidePanel]) -> tuple[SidePanel | None,
                                                                                     TextBlock | None]:
    """The biggest side panel that leaves room for the toast; when none does, a warning keeps its place and the
    side panel goes, while news (a face captured) gives way to the side panel."""
    centred = view.mode == Mode.NO_FRAMES
    first = None
    for side in sides:
        first = first or side
        message = _message(fonts, view, s, t, area, [*obstacles, side.rect], centred)
        if message is not None or not view.message:
            return side, message
    alone = _message(fonts, view, s, t, area, obstacles, centred)
    if first is None or view.mode in _WARNINGS:
        return (None if alone is not None else first), alone
    return first, None


_WARNINGS = (Mode.INVALID, Mode.NO_FRAMES, Mode.CONFIRM_REPLACE)
"""Modes whose toast says what went wrong: it matters more than the side panel."""


# ---------------------------------------------------------------------------------------------- layout


def layout(view: ViewModel, window: tuple[int, int], video_size: tuple[int, int], fonts: Fonts,
           tunables: LayoutTunables | None = None, recent: Sequence[np.ndarray] = ()) -> Placement:
    """Where everything goes in a ``window`` (width, height) showing a video of ``video_size`` (width, height);
    ``recent`` are points (video pixels) of faces seen a moment ago, kept clear like the face detected now."""
    t = tunables or LayoutTunables()
    w, h = max(1, int(window[0])), max(1, int(window[1]))
    s = _Sizes(w, h, t)
    banner, prompt, status = _banner(fonts, view, s, t)
    legend = _legend(fonts, view, s)
    bottom = legend.rect.y if legend else h
    strip = _strip(fonts, view, s, bottom)
    bottom = strip.rect.y if strip else bottom
    middle = Rect(0, banner.bottom, w, max(1, bottom - banner.bottom))
    vw, vh = max(1, int(video_size[0])), max(1, int(video_size[1]))
    scale = min(middle.w / vw, middle.h / vh)
    video = Rect(middle.x + (middle.w - round(vw * scale)) // 2, middle.y + (middle.h - round(vh * scale)) // 2,
                 round(vw * scale), round(vh * scale))
    face = _face_rect(view, video, scale, s, t, recent)
    area = Rect(middle.x + s.margin, middle.y + s.margin, middle.w - 2 * s.margin, middle.h - 2 * s.margin)
    obstacles = [face] if face is not None else []

    width = round(min(w * t.side_share, t.side_units * s.u))
    min_width = round(width * t.side_min_share)
    sides: Iterator[SidePanel] = iter(())
    if view.mode in (Mode.SCANNING, Mode.CONFIRM_REPLACE, Mode.RESOLVING, Mode.INVALID):
        cubes = [t.guide_cube * s.u, t.min_cube * s.u]
        sides = _side_candidates(_scanning_side(fonts, view, s, t), cubes, width, min_width, area, obstacles,
                                 view.rtl, s.margin)
    elif view.mode == Mode.CALIBRATING:
        sides = _side_candidates(_calibration_side(view, s, t), [0.0], width, min_width, area, obstacles, view.rtl,
                                 s.margin)
    elif view.mode == Mode.SOLUTION:
        width = round(min(w * t.side_share, t.side_units * s.u) * t.solution_side)
        cubes = [t.step_cube * s.u, (t.step_cube + t.min_cube) / 2 * s.u, t.min_cube * s.u]
        sides = _side_candidates(_solution_side(fonts, view, s, t), cubes, width, round(width * t.side_min_share),
                                 area, obstacles, view.rtl, s.margin)
    side, message = _side_and_message(fonts, view, s, t, area, obstacles, sides)
    obstacles += [r.rect for r in (side, message) if r is not None]
    net, cell = _net(view, s, t, area, obstacles)
    return Placement(width=w, height=h, unit=s.u, margin=s.margin, line=s.line, video=video, scale=scale, face=face,
                     banner=banner, prompt=prompt, status=status, legend=legend, strip=strip, side=side,
                     message=message, net=net, net_cell=cell, move_size=s.move, rtl=view.rtl)


def opening_size(view: ViewModel, video_size: tuple[int, int], fonts: Fonts,
                 tunables: LayoutTunables | None = None) -> tuple[int, int]:
    """The window's size when it opens: the video scaled to a readable width, with the bands above and below."""
    t = tunables or LayoutTunables()
    vw, vh = max(1, int(video_size[0])), max(1, int(video_size[1]))
    width = min(max(vw, t.open_min_width), t.open_max_width)
    video_h = round(vh * width / vw)
    height = video_h
    for _ in range(3):  # the bands' text scales with the window: settle in a few rounds
        placed = layout(view, (width, height), (vw, vh), fonts, t)
        # Room for one more key-bar line than the first screen needs: the keys offered grow once a face is in.
        spare = text_size(fonts, "Ag", placed.legend.size)[1] if placed.legend is not None else 0
        height = video_h + placed.banner.bottom + _bands_below(placed) + spare
    return width, height


def _bands_below(placed: Placement) -> int:
    return placed.height - placed.bands_top
