"""The window's layout: no panel over the detected face, in every screen, at 640x480 and 1280x720, in English,
German, Japanese and Arabic (real translations from a real session), with the face held anywhere; nothing clipped;
text never below 16 px; drawing stays inside the rectangles the layout gives."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from qbr.app.analysis import FrameAnalysis
from qbr.app.layout import Placement, RecentFaces, intersects, layout, opening_size, strip_window
from qbr.app.overlay import Layout, _compose, _draw_preview_on_video, _in_window, draw
from qbr.app.session import FrameEvent, KeyEvent, Mode, Preview, ResolvedEvent, Session, SessionConfig, ViewModel
from qbr.app.text import Fonts, Rect, text_size
from qbr.cube.conventions import FACES, STANDARD_SCHEME
from qbr.cube.generate import random_state
from qbr.solve.i18n import Translator
from qbr.vision.palette import DEFAULT_PALETTE

LOCALES = Path(__file__).resolve().parents[2] / "qbr" / "app" / "locales"
LANGUAGES = ("en", "de", "ja", "ar")
ALL_LANGUAGES = ("en", "zh-Hans", "zh-Hant", "nl", "de", "fr", "es", "hu", "ar", "ja")
WINDOWS = ((640, 480), (1280, 720))
CUBE = random_state(random.Random(11)).facelets
DT = 1 / 15

FACE_SPOTS = {
    "centre": (0.45, 0.55, 0.36),
    "high": (0.5, 0.3, 0.36),
    "left": (0.22, 0.5, 0.34),
    "right": (0.78, 0.5, 0.34),
    "low-right": (0.75, 0.75, 0.3),
    "close": (0.5, 0.5, 0.62),
}
"""Where the face is held: centre x, centre y (shares of the video) and side (share of the video's height)."""


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    return Fonts()


def _colours(face: str) -> tuple[str, ...]:
    letters = CUBE[9 * FACES.index(face): 9 * FACES.index(face) + 9]
    return tuple(STANDARD_SCHEME[letter] for letter in letters)


class _Driver:
    def __init__(self, lang: str) -> None:
        self.t = 10.0
        translators = {lang: Translator(lang, extra_dirs=[LOCALES])}
        self.session = Session(SessionConfig(language=lang, languages=(lang,)), translators, DEFAULT_PALETTE, self.t)

    def show(self, face: str | None, seconds: float) -> None:
        for _ in range(round(seconds / DT)):
            self.t += DT
            found = None
            if face is not None:
                rgb = np.array([DEFAULT_PALETTE.colours[c] for c in _colours(face)], float)
                found = FrameAnalysis(detection=None, rgb=rgb, colours=_colours(face), confidence=np.ones(9))
            self.session.handle(FrameEvent(self.t, found))

    def key(self, key: str) -> None:
        self.t += 0.01
        self.session.handle(KeyEvent(self.t, key))


def _resolution(facelets: str, valid: bool, face: str | None = None, problems=()):
    return SimpleNamespace(facelets=facelets, valid=valid, problems=list(problems), least_certain_face=face,
                           confidence=np.ones(54), uncertain=(), colour_names=dict(STANDARD_SCHEME))


@pytest.fixture(scope="module")
def screens() -> dict[tuple[str, str], ViewModel]:
    """(language, screen) -> the real session's view: scanning with a toast, calibration, invalid, solution."""
    from qbr.cube.errors import InvalidCubeError
    from qbr.cube.validate import validate
    from qbr.solve.solver import solve

    views = {}
    solution = solve(CUBE)
    for lang in ALL_LANGUAGES:
        d = _Driver(lang)
        for face in ("F", "R"):
            d.show(face, 0.8)
            d.show(None, 0.6)
        d.show("B", 0.3)
        views[lang, "scanning"] = d.session.view()
        d.key("c")
        d.show("F", 0.3)
        views[lang, "calibration"] = d.session.view()
        d.key("c")
        for face in ("B", "L", "U", "D"):
            d.show(face, 0.8)
            d.show(None, 0.6)
        broken = CUBE[:9] + CUBE[10] + CUBE[9] + CUBE[11:]
        problems = validate(broken)
        d.session.handle(ResolvedEvent(d.t, _resolution(broken, False, "R", problems), None,
                                       InvalidCubeError(problems)))
        views[lang, "invalid"] = d.session.view()
        d.show("R", 0.8)
        turned = SimpleNamespace(**vars(_resolution(CUBE, True)), doubt=None, turned={"U": 1})
        d.session.handle(ResolvedEvent(d.t, turned, solution, None))
        d.key("right")
        d.key("right")
        views[lang, "solution"] = d.session.view()
    for (lang, name), view in views.items():
        assert view.language == lang and view.prompt, (lang, name)
    assert views["de", "solution"].mode is Mode.SOLUTION and views["de", "solution"].message  # the turned notice
    assert views["ja", "invalid"].mode is Mode.INVALID and views["ja", "invalid"].message
    return views


def _held(view: ViewModel, video: tuple[int, int], spot: tuple[float, float, float]) -> ViewModel:
    """``view`` with a face detected at ``spot`` in a video of size ``video``."""
    w, h = video
    cx, cy, side = spot[0] * w, spot[1] * h, spot[2] * h
    s = side / 3
    stickers = np.array([[[cx + (c - 1.5) * s + dx * s, cy + (r - 1.5) * s + dy * s] for dx, dy in
                          ((0.08, 0.08), (0.92, 0.08), (0.92, 0.92), (0.08, 0.92))]
                         for r in range(3) for c in range(3)], np.float32)
    outline = np.array([[cx - side / 2, cy - side / 2], [cx + side / 2, cy - side / 2],
                        [cx + side / 2, cy + side / 2], [cx - side / 2, cy + side / 2]], np.float32)
    return dataclasses.replace(view, preview=Preview(stickers, outline, _colours("F"), 0.4))


def _face_box(p: Placement, view: ViewModel) -> Rect:
    pts = p.to_window(np.concatenate([view.preview.outline, view.preview.stickers.reshape(-1, 2)]))
    x0, y0 = np.floor(pts.min(axis=0)).astype(int)
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
    return Rect(int(x0), int(y0), int(x1 - x0), int(y1 - y0))


def _blocks(p: Placement):
    blocks = [p.prompt, p.status, p.legend, p.message]
    if p.side is not None:
        blocks += list(p.side.texts.values())
    return [b for b in blocks if b is not None]


@pytest.mark.parametrize("window", WINDOWS, ids=lambda w: f"{w[0]}x{w[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_panel_covers_the_face_anywhere_it_is_held(screens, fonts, lang, window):
    missing = []
    for name in ("scanning", "calibration", "invalid", "solution"):
        for spot_name, spot in FACE_SPOTS.items():
            view = _held(screens[lang, name], window, spot)
            p = layout(view, window, window, fonts)
            face = _face_box(p, view)
            panels = p.panels()
            for panel, rect in panels.items():
                assert not intersects(rect, face), (name, spot_name, panel, rect, face)
                assert rect.x >= 0 and rect.y >= 0 and rect.right <= window[0] and rect.bottom <= window[1], \
                    (name, spot_name, panel, rect)
            others = [(k, r) for k, r in panels.items()]
            for i, (a, ra) in enumerate(others):
                for b, rb in others[i + 1:]:
                    assert not intersects(ra, rb), (name, spot_name, a, b)
            for band in ("banner", "legend", "strip"):
                if band in panels:
                    assert not intersects(panels[band], p.video), (name, band)  # bands stay outside the video
            wanted = {"side"} | ({"message"} if view.message else set()) | \
                ({"net"} if view.mode is not Mode.SOLUTION else set())
            if spot_name != "close":
                missing += [(name, spot_name, k) for k in wanted - set(panels)]
    # A face held close may push a panel out; held anywhere else, every panel finds room.
    assert not missing, missing


@pytest.mark.parametrize("window", [*WINDOWS, (320, 240), (2560, 1440)], ids=lambda w: f"{w[0]}x{w[1]}")
@pytest.mark.parametrize("lang", ALL_LANGUAGES)
def test_text_is_readable_and_never_clipped(screens, fonts, lang, window):
    for name in ("scanning", "calibration", "invalid", "solution"):
        view = _held(screens[lang, name], window, FACE_SPOTS["centre"])
        p = layout(view, window, window, fonts)
        for block in _blocks(p):
            assert block.size >= 16, (name, block)
            for line in block.lines:
                assert text_size(fonts, line, block.size)[0] <= block.rect.w - 2 * block.pad, (name, line, block)
        if p.status is not None and len(p.status.lines) == 1:
            assert not intersects(p.status.rect, p.prompt.rect), name  # the prompt never runs into the status
        if window[0] >= 640:
            assert len(p.prompt.lines) <= 2, (name, p.prompt.lines)  # no banner grows to three lines


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_panels_stand_on_the_reading_side(screens, fonts, lang):
    view = _held(screens[lang, "scanning"], (1280, 720), FACE_SPOTS["centre"])
    p = layout(view, (1280, 720), (1280, 720), fonts)
    # Latin reads from the left: the guide at the right, the net and toast at the left; Arabic mirrored.
    assert (p.side.rect.x > 640) == (lang == "en")
    assert (p.net.x < 640) == (lang == "en")
    assert (p.message.rect.x < 640) == (lang == "en")


def test_the_move_strip_shows_an_ellipsis_where_moves_do_not_fit(screens, fonts):
    view = screens["en", "solution"]
    long = dataclasses.replace(view, solution=("R'", "U2", "F") * 20)
    p = layout(long, (640, 480), (640, 480), fonts)
    assert p.strip is not None and p.strip.more_after and p.strip.hi < 59
    assert p.strip.lo <= view.step.index <= p.strip.hi
    short = layout(view, (1280, 720), (1280, 720), fonts)
    assert not short.strip.more_before and not short.strip.more_after
    assert short.strip.hi - short.strip.lo + 1 == len(view.solution)


def test_strip_window_keeps_the_current_move_and_room_for_the_ellipses():
    widths = [30] * 50
    for current in (0, 10, 49):
        lo, hi = strip_window(widths, current, 10, 400, 20)
        assert lo <= current <= hi
        marks = (lo > 0) + (hi < 49)
        assert 30 * (hi - lo + 1) + 10 * (hi - lo) + marks * 30 <= 400
        assert hi - lo + 1 >= 8  # and it uses the room
    assert strip_window([30] * 5, 2, 10, 400, 20) == (0, 4)


@pytest.mark.parametrize("name", ["scanning", "solution", "invalid"])
@pytest.mark.parametrize("lang", ["de", "ar"])
def test_drawing_stays_inside_the_panels_so_the_face_shows_through(screens, fonts, lang, name):
    window = (1280, 720)
    frame = np.random.default_rng(1).integers(0, 255, (480, 640, 3), dtype=np.uint8)
    view = _held(screens[lang, name], (640, 480), FACE_SPOTS["centre"])
    out = draw(frame, view, fonts, size=window)
    p = layout(view, window, (640, 480), fonts)
    # What the window shows with no panel at all: the video and the marks on the live face.
    bare = _compose(frame, p)
    _draw_preview_on_video(bare, _in_window(view, p), Layout(p.unit, p.line, p.video.bottom))
    outside = np.ones(out.shape[:2], bool)
    for rect in p.panels().values():
        outside[max(0, rect.y):rect.bottom, max(0, rect.x):rect.right] = False
    if view.mode is Mode.SOLUTION:  # the move's arrow is drawn on the live face itself
        f = p.face
        outside[f.y:f.bottom, f.x:f.right] = False
    assert np.array_equal(out[outside], bare[outside])


def test_the_window_opens_with_the_video_at_least_960_wide(screens, fonts):
    view = screens["en", "scanning"]
    for video in ((640, 480), (1280, 720), (1920, 1080), (320, 240)):
        w, h = opening_size(view, video, fonts)
        p = layout(view, (w, h), video, fonts)
        assert p.video.w >= 960 and w <= 1280, (video, p.video)
        assert min(p.prompt.size, p.legend.size) >= 16


def test_a_face_lost_for_a_frame_keeps_the_panels_where_they_were(screens, fonts):
    held = _held(screens["en", "scanning"], (1280, 720), FACE_SPOTS["right"])
    lost = dataclasses.replace(held, preview=None)
    recent = RecentFaces(seconds=0.5)
    with_face = layout(held, (1280, 720), (1280, 720), fonts, recent=recent.update(held, 1.0))
    assert with_face.side.rect.x < 640  # the face at the right pushed the guide to the left
    gone = layout(lost, (1280, 720), (1280, 720), fonts, recent=recent.update(lost, 1.1))
    same_place = (gone.side.rect.x, gone.side.rect.y) == (with_face.side.rect.x, with_face.side.rect.y)
    assert same_place  # a frame without the face: nothing moves (the swatches of its colours go)
    back = layout(lost, (1280, 720), (1280, 720), fonts, recent=recent.update(lost, 1.7))
    assert back.side.rect.x > 640  # the face gone for longer: the guide returns to its side
