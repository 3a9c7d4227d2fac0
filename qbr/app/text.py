"""UTF-8 text on OpenCV images: OpenCV 5's own fonts for Latin and CJK, shaped right-to-left Arabic.

OpenCV draws one glyph per code point and does no shaping, so Arabic is first turned into presentation forms
(arabic-reshaper) and put in visual order (python-bidi). OpenCV's built-in fonts have no presentation-form glyphs,
so Arabic needs a system font that has them (DejaVu Sans on Linux, Arial or Tahoma on Windows and macOS); without
one the letters are still drawn right to left, but unjoined.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

Colour = tuple[int, int, int]

_DESCENT = 0.25
"""OpenCV's line box reaches a quarter of the font size below the baseline."""

_ARABIC_LEADING = 0.45
"""Arabic glyphs reach further below the baseline: more room between lines."""

_ARABIC_RE = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]")

_FROM_UNI = frozenset("()×")
"""Characters OpenCV's "sans" font lacks (it falls back to full-width CJK brackets): drawn with "uni" instead."""

_DRAWN_AS = str.maketrans({"\u202f": "\u00a0"})
"""OpenCV's fonts lack the narrow no-break space (drawn as "?"): it is drawn as a no-break space."""

_CACHE_LIMIT = 4096
"""Lines remembered per Fonts; the cache is emptied when it grows past this (a frame uses a few dozen)."""

_PROBE = "\ufedf\ufee0"  # lam initial and medial: present only in fonts with Arabic presentation forms


def _font_dirs() -> list[Path]:
    if sys.platform.startswith("win"):
        return [Path(os.environ.get("WINDIR", r"C:\Windows")) / "Fonts"]
    if sys.platform == "darwin":
        return [Path("/System/Library/Fonts/Supplemental"), Path("/Library/Fonts"), Path("/System/Library/Fonts")]
    home = Path.home()
    return [Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), home / ".local/share/fonts", home / ".fonts"]


_ARABIC_FONT_FILES = ("DejaVuSans.ttf", "arial.ttf", "Arial.ttf", "tahoma.ttf", "Tahoma.ttf", "FreeSans.ttf",
                      "segoeui.ttf", "NotoSans-Regular.ttf")
"""Common system fonts that map Arabic presentation forms; the first found that really has them is used."""


def has_arabic(text: str) -> bool:
    """True if ``text`` contains Arabic script."""
    return _ARABIC_RE.search(text) is not None


def shape(text: str, joined: bool = True, rtl: bool = False, reshaper: Any = None) -> str:
    """``text`` as OpenCV must draw it: Arabic letters joined (if ``joined``) and every run in visual order.

    ``rtl`` makes the line right-to-left even when it starts with Latin (a key name in an Arabic legend).
    ``reshaper`` is an ``arabic_reshaper.ArabicReshaper`` to reuse (making one reads its configuration).
    Text without Arabic comes back unchanged.
    """
    if not has_arabic(text):
        return text
    from bidi.algorithm import get_display

    if joined:
        if reshaper is None:
            import arabic_reshaper

            reshaper = arabic_reshaper.ArabicReshaper()
        text = reshaper.reshape(text)
    return get_display(text, base_dir="R" if rtl else None)


def _find_arabic_font(dirs: Sequence[Path]) -> Path | None:
    for directory in dirs:
        if not directory.is_dir():
            continue
        for name in _ARABIC_FONT_FILES:
            for path in (directory / name, *directory.glob(f"*/{name}"), *directory.glob(f"*/*/{name}")):
                if path.is_file() and _renders(path, _PROBE):
                    return path
    return None


def _renders(path: Path, probe: str) -> bool:
    # A font without a glyph draws '?': compare the probe's pixels with question marks'.
    try:
        face = cv2.FontFace(str(path))
    except cv2.error:
        return False
    if not face.getName():
        return False
    canvas = [np.zeros((40, 80), np.uint8) for _ in range(2)]
    cv2.putText(canvas[0], probe, (5, 30), (255, 255, 255), face, 24)
    cv2.putText(canvas[1], "?" * len(probe), (5, 30), (255, 255, 255), face, 24)
    return bool(canvas[0].any()) and not np.array_equal(canvas[0], canvas[1])


@dataclass(frozen=True)
class Rect:
    """A pixel rectangle: left, top, width, height."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h


class Fonts:
    """The font faces of one window, loaded once and kept (owned by the loop or the overlay, never global)."""

    def __init__(self, arabic_font: Path | None = None, search_dirs: Sequence[Path] | None = None,
                 rtl: bool = False) -> None:
        self._faces: dict[str, cv2.FontFace] = {}
        self._arabic_path = arabic_font
        self._search_dirs = list(search_dirs) if search_dirs is not None else None
        self._searched = arabic_font is not None
        self._reshaper: Any = None
        # Shaping Arabic costs about a millisecond a line: remember the runs and widths of lines already seen.
        self._runs: dict[tuple[str, bool], list[tuple[str, str]]] = {}
        self._widths: dict[tuple[str, bool, int, int], int] = {}
        self.rtl = rtl
        """Lay mixed lines out right to left (the language of the text is written right to left)."""

    def directed(self, rtl: bool) -> Fonts:
        """These fonts (same cache) laying lines out right to left or not."""
        if rtl == self.rtl:
            return self
        other = Fonts.__new__(Fonts)
        other.__dict__.update(self.__dict__)
        other.rtl = rtl
        return other

    def face(self, name: str = "sans") -> cv2.FontFace:
        """A built-in OpenCV font face ("sans", "uni", "italic") or a font file, cached."""
        if name not in self._faces:
            self._faces[name] = cv2.FontFace(name)
        return self._faces[name]

    @property
    def arabic_font(self) -> Path | None:
        """The font file used for Arabic, or None if no installed font can join Arabic letters."""
        if not self._searched:
            self._searched = True
            dirs = self._search_dirs if self._search_dirs is not None else _font_dirs()
            self._arabic_path = _find_arabic_font(dirs)
        return self._arabic_path

    def runs(self, text: str) -> list[tuple[cv2.FontFace, str]]:
        """``text`` as (face, string) runs to hand to OpenCV left to right (shaped, in visual order, if Arabic)."""
        key = (text, self.rtl)
        named = self._runs.get(key)
        if named is None:
            named = self._named_runs(text)
            if len(self._runs) > _CACHE_LIMIT:
                self._runs.clear()
            self._runs[key] = named
        return [(self.face(name), run) for name, run in named]

    def _named_runs(self, text: str) -> list[tuple[str, str]]:
        text = text.translate(_DRAWN_AS)
        if has_arabic(text):
            path = self.arabic_font
            if path is None:
                return [("uni", shape(text, joined=False, rtl=self.rtl))]
            if self._reshaper is None:
                import arabic_reshaper

                self._reshaper = arabic_reshaper.ArabicReshaper()
            return [(str(path), shape(text, rtl=self.rtl, reshaper=self._reshaper))]
        runs: list[tuple[str, str]] = []
        for ch in text:
            name = "uni" if ch in _FROM_UNI else "sans"
            if runs and runs[-1][0] == name:
                runs[-1] = (name, runs[-1][1] + ch)
            else:
                runs.append((name, ch))
        return runs

    def width(self, text: str, size: int, weight: int = 400) -> int:
        """Advance width of ``text`` at ``size`` pixels and ``weight`` as draw_text draws it (remembered)."""
        key = (text, self.rtl, size, weight)
        w = self._widths.get(key)
        if w is None:
            w = sum(_run_width(face, run, size, weight) for face, run in self.runs(text))
            if len(self._widths) > _CACHE_LIMIT:
                self._widths.clear()
            self._widths[key] = w
        return w


def text_size(fonts: Fonts, text: str, size_px: float, weight: int = 400) -> tuple[int, int]:
    """Width and line height (ascent + descent) in pixels of ``text`` drawn at ``size_px`` and ``weight``."""
    size = max(1, round(size_px))
    if not text:
        return 0, round(size * (1 + _DESCENT))
    descent = _ARABIC_LEADING if has_arabic(text) else _DESCENT
    return fonts.width(text, size, weight), round(size * (1 + descent))


def _run_width(face: cv2.FontFace, text: str, size: int, weight: int) -> int:
    # getTextSize measures ink from the pen start; the advance of trailing spaces needs the pen's end point. The
    # weight matters: at 16 px weight 400 is 4% wider than the face's default that putText uses without one.
    img = np.zeros((1, 1, 3), np.uint8)
    (end_x, _), _ = cv2.putText(img, text, (0, 0), (0, 0, 0), face, size, weight)
    return int(end_x)


def draw_text(img: np.ndarray, fonts: Fonts, text: str, org: tuple[int, int], size_px: float, colour: Colour,
              *, align: str = "left", weight: int = 400, shadow: bool = False) -> Rect:
    """Draw ``text`` with its line box's top at ``org[1]``; ``org[0]`` is its left, right or centre (``align``).

    Returns the line box drawn. ``shadow`` puts a dark copy one pixel down-right, readable over video.
    """
    size = max(1, round(size_px))
    w, h = text_size(fonts, text, size, weight)
    x, top = int(org[0]), int(org[1])
    if align == "right":
        x -= w
    elif align == "center":
        x -= w // 2
    elif align != "left":
        raise ValueError(f"align must be left, right or center, not {align!r}")
    pen = x
    for face, run in fonts.runs(text):
        if shadow:
            off = max(1, size // 16)
            cv2.putText(img, run, (pen + off, top + size + off), (0, 0, 0), face, size, weight)
        (pen, _), _ = cv2.putText(img, run, (pen, top + size), colour, face, size, weight)
    return Rect(x, top, w, h)


def fill_rect(img: np.ndarray, rect: Rect, colour: Colour, alpha: float = 1.0) -> None:
    """Fill ``rect`` (clipped to the image) with ``colour`` at opacity ``alpha``."""
    x0, y0 = max(0, rect.x), max(0, rect.y)
    x1, y1 = min(img.shape[1], rect.right), min(img.shape[0], rect.bottom)
    if x1 <= x0 or y1 <= y0:
        return
    roi = img[y0:y1, x0:x1]
    if alpha >= 1.0:
        roi[:] = colour
    else:
        # One per-pixel affine map (roi * (1 - alpha) + colour * alpha): no full-size colour image to build.
        blend = np.hstack((np.eye(3) * (1.0 - alpha), np.asarray(colour, np.float64)[:, None] * alpha))
        cv2.transform(roi, blend, dst=roi)


def draw_text_box(img: np.ndarray, fonts: Fonts, lines: Sequence[str], org: tuple[int, int], size_px: float,
                  colour: Colour, *, background: Colour = (0, 0, 0), alpha: float = 0.6, align: str = "left",
                  pad: float = 0.35, min_width: int = 0, line_colours: Sequence[Colour] | None = None) -> Rect:
    """Lines of text on a translucent box whose top-left (``align`` "left") or top-right ("right") is ``org``.

    ``pad`` is the margin as a fraction of the font size. Returns the box.
    """
    size = max(1, round(size_px))
    margin = max(2, round(size * pad))
    sizes = [text_size(fonts, line, size) for line in lines]
    width = max([w for w, _ in sizes] + [min_width - 2 * margin, 0]) + 2 * margin
    height = sum(h for _, h in sizes) + 2 * margin
    x = org[0] - width if align == "right" else org[0]
    box = Rect(int(x), int(org[1]), int(width), int(height))
    fill_rect(img, box, background, alpha)
    y = box.y + margin
    for i, (line, (_, h)) in enumerate(zip(lines, sizes, strict=True)):
        c = line_colours[i] if line_colours is not None else colour
        if align == "right":
            draw_text(img, fonts, line, (box.right - margin, y), size, c, align="right")
        else:
            draw_text(img, fonts, line, (box.x + margin, y), size, c)
        y += h
    return box


_CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f"
_UNIT_AFTER_NUMBER = re.compile(f"[0-9][\\s]+(?=[{_CJK}])")
"""A number and the CJK unit or counter after it ("90 度", "3 步") stay on one line, a space between them or not."""


def _keep_numbers_with_units(text: str, breakables: Sequence[int]) -> list[int]:
    # Tailoring of UAX #14 (its LB30 rules keep "90度" whole but allow a break after the space in "90 度").
    tailored = list(breakables)
    for match in _UNIT_AFTER_NUMBER.finditer(text):
        tailored[match.end()] = 0
    return tailored


@lru_cache(maxsize=1024)
def break_units(text: str) -> tuple[str, ...]:
    """``text`` cut at its line-break opportunities (Unicode's UAX #14, so CJK kinsoku: no line starts with
    "、" or "。" and none ends with "「"; no-break spaces hold), each unit with its trailing spaces."""
    from uniseg.linebreak import line_break_units

    return tuple(line_break_units(text, tailor=_keep_numbers_with_units))


def _split_to_fit(fonts: Fonts, unit: str, size_px: float, max_width: int) -> list[str]:
    # A word wider than the line (a long German compound in a narrow panel) is cut between characters, never
    # left to run past the edge.
    # Closing punctuation hangs past the edge rather than open a line (kinsoku's burasage); opening brackets go
    # down with what they open.
    parts = [""]
    for ch in unit:
        if parts[-1] and not _hangs(ch) and text_size(fonts, (parts[-1] + ch).rstrip(), size_px)[0] > max_width:
            kept = parts[-1].rstrip("".join(c for c in parts[-1] if _opens(c)))
            if kept:  # (a part of nothing but opening brackets stays whole: it runs over rather than end a line)
                parts[-1:] = [kept, parts[-1][len(kept):]]
        parts[-1] += ch
    return parts


def _opens(ch: str) -> bool:
    from uniseg.linebreak import LineBreak, line_break

    return line_break(ch) == LineBreak.OP


def _hangs(ch: str) -> bool:
    from uniseg.linebreak import LineBreak, line_break

    return ch.isspace() or line_break(ch) in (LineBreak.CL, LineBreak.CP, LineBreak.EX, LineBreak.IS, LineBreak.NS)


def wrap(fonts: Fonts, text: str, size_px: float, max_width: int) -> list[str]:
    """``text`` split into lines no wider than ``max_width`` at its line-break opportunities (break_units); a
    single word wider than that is cut between characters."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        rows: list[str] = []
        line = ""
        for unit in break_units(paragraph):
            candidate = line + unit
            if text_size(fonts, candidate.rstrip(), size_px)[0] <= max_width:
                line = candidate
                continue
            if line.strip():
                rows.append(line.rstrip())
            *full, line = _split_to_fit(fonts, unit, size_px, max_width)
            rows += [part.rstrip() for part in full]
        rows.append(line.rstrip())
        lines += _without_widow(fonts, rows, size_px, max_width)
    return lines


_WIDOW = 2
"""A paragraph's last line of this many letters or fewer (besides punctuation) takes a word from the line above."""


def _without_widow(fonts: Fonts, rows: list[str], size_px: float, max_width: int) -> list[str]:
    # "ください。" broken as "くださ" / "い。" reads badly: "くだ" / "さい。" is as correct and easier.
    while len(rows) >= 2 and sum(ch.isalnum() for ch in rows[-1]) <= _WIDOW:
        units = break_units(rows[-2])
        last = (units[-1] + rows[-1]).rstrip() if units else ""
        if len(units) < 2 or text_size(fonts, last, size_px)[0] > max_width:
            break
        rows = [*rows[:-2], "".join(units[:-1]).rstrip(), last]
    return rows
