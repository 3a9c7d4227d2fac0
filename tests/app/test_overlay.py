"""The overlay draws every mode at small and large frame sizes and puts things where they belong."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from qbr.app.layout import layout
from qbr.app.overlay import _HIDDEN_ARROWS, ARROW, arrow_path, draw, turn_arc
from qbr.app.session import Guide, Mode, Preview, Step, ViewModel
from qbr.app.text import Fonts
from qbr.cube.conventions import SOLVED, STANDARD_SCHEME, facelet_index
from qbr.cube.moves import facelet_permutation, parse_moves

RGB = {"white": (240, 240, 240), "red": (200, 20, 30), "green": (20, 170, 60), "yellow": (250, 220, 0),
       "orange": (255, 120, 0), "blue": (0, 70, 200)}
FACE = ("green", "red", "white", "blue", "green", "yellow", "orange", "green", "white")
SIZES = [(640, 480), (1920, 1080)]


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    return Fonts()


def _grid(w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    cx, cy, s = w * 0.45, h * 0.55, h * 0.12
    stickers = []
    for r in range(3):
        for c in range(3):
            x0, y0 = cx + (c - 1.5) * s, cy + (r - 1.5) * s
            stickers.append([[x0 + 3, y0 + 3], [x0 + s - 3, y0 + 3], [x0 + s - 3, y0 + s - 3], [x0 + 3, y0 + s - 3]])
    outline = [[cx - 1.5 * s, cy - 1.5 * s], [cx + 1.5 * s, cy - 1.5 * s], [cx + 1.5 * s, cy + 1.5 * s],
               [cx - 1.5 * s, cy + 1.5 * s]]
    return np.array(stickers, np.float32), np.array(outline, np.float32)


def _view(mode: Mode, w: int, h: int, **changes) -> ViewModel:
    stickers, outline = _grid(w, h)
    step = Step(2, 19, "F", "F", 1, "Turn the front face clockwise", "Step 3 of 19", SOLVED)
    view = ViewModel(
        mode=mode, language="en", rtl=False, status="2/6 faces", prompt="Show the green face",
        message="Something to say" if mode in (Mode.INVALID, Mode.NO_FRAMES) else None,
        guide=Guide("F", "green", "white", "red", "Green centre towards you, white on top"),
        preview=Preview(stickers, outline, FACE, 0.5), captured={"U": ("white",) * 9}, highlight_face=None,
        step=step if mode == Mode.SOLUTION else None, solution=("R'", "U2", "F") * 6 + ("D",),
        legend=(("SPACE", "capture face"), ("ESC", "quit")), colour_rgb=RGB, scheme=STANDARD_SCHEME,
        calibration=("white", 2, 6) if mode == Mode.CALIBRATING else None)
    return dataclasses.replace(view, **changes)


def _frame(w: int, h: int) -> np.ndarray:
    return np.full((h, w, 3), 128, np.uint8)


def _in_window(fonts: Fonts, view: ViewModel, w: int, h: int, points) -> np.ndarray:
    """Frame coordinates as the window's (the video is scaled in between the banner and the key bar)."""
    return layout(view, (w, h), (w, h), fonts).to_window(np.asarray(points, np.float32))


@pytest.mark.parametrize(("w", "h"), SIZES)
@pytest.mark.parametrize("mode", list(Mode))
def test_every_mode_draws_and_leaves_the_frame_alone(fonts, mode, w, h):
    frame = _frame(w, h)
    out = draw(frame, _view(mode, w, h), fonts)
    assert out.shape == frame.shape and out.dtype == np.uint8
    assert (frame == 128).all()
    assert np.count_nonzero((out != 128).any(axis=2)) > 0.05 * w * h


@pytest.mark.parametrize(("w", "h"), SIZES)
def test_detected_stickers_are_outlined_in_their_colours(fonts, w, h):
    view = _view(Mode.SCANNING, w, h)
    out = draw(_frame(w, h), view, fonts)
    stickers = _in_window(fonts, view, w, h, view.preview.stickers)
    for i, name in enumerate(FACE):
        # Middle of each sticker's top edge carries that sticker's colour (BGR).
        x, y = np.round(stickers[i][:2].mean(axis=0)).astype(int)
        want = np.array(RGB[name][::-1])
        patch = out[y - 1 : y + 4, x - 1 : x + 2].reshape(-1, 3).astype(int)  # (the face outline may touch it)
        assert np.abs(patch - want).sum(axis=1).min() < 30, (i, name)
    # The sticker interiors are untouched video.
    cx, cy = np.round(stickers[0].mean(axis=0)).astype(int)
    assert out[cy, cx].tolist() == [128, 128, 128]


def test_no_detection_leaves_the_video_centre_alone(fonts):
    out = draw(_frame(640, 480), _view(Mode.SCANNING, 640, 480, preview=None), fonts)
    assert out[264, 288].tolist() == [128, 128, 128]


def test_steadiness_bar_grows(fonts):
    def filled(steady: float) -> int:
        view = _view(Mode.SCANNING, 640, 480)
        view = dataclasses.replace(view, preview=dataclasses.replace(view.preview, steady=steady))
        out = draw(_frame(640, 480), view, fonts)
        return int(np.count_nonzero(np.all(out == (0, 215, 255), axis=2)))

    assert filled(0.0) < filled(0.3) < filled(0.9)


def test_solution_arrow_drawn_on_live_face_only_when_it_faces_the_camera(fonts):
    def arrow_pixels(face: str) -> int:
        view = _view(Mode.SOLUTION, 640, 480)
        view = dataclasses.replace(view, step=dataclasses.replace(view.step, face=face, move=face))
        out = draw(_frame(640, 480), view, fonts)
        (x0, y0), (x1, y1) = np.round(_in_window(fonts, view, 640, 480, [(288 - 86, 264 - 86),
                                                                          (288 + 86, 264 + 86)])).astype(int)
        return int(np.count_nonzero(np.all(out[y0:y1, x0:x1] == ARROW, axis=2)))

    assert arrow_pixels("F") > 200  # green centre towards the camera, F is green in the scheme
    assert arrow_pixels("U") == 0


def test_captured_net_shows_captured_colours(fonts):
    blank = draw(_frame(640, 480), _view(Mode.SCANNING, 640, 480, captured={}), fonts)
    white = draw(_frame(640, 480), _view(Mode.SCANNING, 640, 480), fonts)
    changed = np.all(white == (240, 240, 240), axis=2) & ~np.all(blank == (240, 240, 240), axis=2)
    ys, xs = np.nonzero(changed)
    assert len(ys) > 50 and xs.max() < 320 and ys.min() > 240  # bottom-left, where the net lives


def test_rtl_puts_the_prompt_on_the_right(fonts):
    def ink_columns(rtl: bool) -> np.ndarray:
        view = _view(Mode.SCANNING, 640, 480, rtl=True, prompt="عرض الوجه", status="") if rtl else \
            _view(Mode.SCANNING, 640, 480, status="")
        out = draw(_frame(640, 480), view, fonts)
        return np.flatnonzero((out[5:35] > 200).all(axis=2).any(axis=0))

    assert ink_columns(False).min() < 40 and ink_columns(False).max() < 400
    assert ink_columns(True).max() > 600 and ink_columns(True).min() > 300


@pytest.mark.parametrize("face", sorted(_HIDDEN_ARROWS))
def test_hidden_face_arrows_follow_the_real_move(face):
    # Along each drawn path the sticker at point k ends up at point k + 2 after the clockwise move.
    perm = facelet_permutation(parse_moves(face)[0])
    path = [facelet_index(*p) for p in _HIDDEN_ARROWS[face]]
    assert perm[path[2]] == path[0] and perm[path[3]] == path[1]


def _signed_area(points) -> float:
    p = np.asarray(points, float)
    return float(np.sum(p[:, 0] * np.roll(p[:, 1], -1) - np.roll(p[:, 0], -1) * p[:, 1]) / 2)


@pytest.mark.parametrize("face", ["U", "F", "R"])
def test_visible_face_arcs_turn_clockwise_on_screen(face):
    # Image y points down, so a clockwise loop has a positive shoelace area.
    assert _signed_area(arrow_path(face, 1, (100, 100), 120)) > 0
    assert _signed_area(arrow_path(face, 3, (100, 100), 120)) < 0
    assert _signed_area([(c, r) for r, c in turn_arc(1)]) > 0


def test_a_sticker_in_doubt_is_outlined_in_dashes(fonts):
    view = _view(Mode.SCANNING, 640, 480)
    stickers = _in_window(fonts, view, 640, 480, view.preview.stickers)
    x0, y0 = np.floor(stickers[0].min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(stickers[0].max(axis=0)).astype(int) + 3
    want = np.array(RGB[FACE[0]][::-1])

    def coloured(unsure: tuple[bool, ...] | None) -> int:
        out = draw(_frame(640, 480), dataclasses.replace(view, preview=dataclasses.replace(view.preview,
                                                                                             unsure=unsure)), fonts)
        return int(np.count_nonzero(np.abs(out[y0:y1, x0:x1].astype(int) - want).sum(axis=2) < 30))

    sure, doubt = coloured(None), coloured((True,) + (False,) * 8)
    assert coloured((False,) * 9) == sure and 0.3 * sure < doubt < 0.75 * sure


def test_a_swatch_in_doubt_is_hatched_beside_the_face(fonts):
    # The side panel's small copy of the face says "in doubt" as the dashes on the video do: dark stripes across it.
    view = _view(Mode.SCANNING, 640, 480)
    box = layout(view, (640, 480), (640, 480), fonts).side.parts["swatches"]
    side = box.w // 3
    x0, y0 = box.x + side // 4, box.y + side // 4  # the inside of the top left swatch (FACE[0], green)
    want = np.array(RGB[FACE[0]][::-1])

    def inside(unsure: tuple[bool, ...] | None) -> tuple[int, int]:
        out = draw(_frame(640, 480), dataclasses.replace(view, preview=dataclasses.replace(view.preview,
                                                                                             unsure=unsure)), fonts)
        cell = out[y0:y0 + side // 2, x0:x0 + side // 2].astype(int)
        return (int(np.count_nonzero(np.abs(cell - want).sum(axis=2) < 30)),
                int(np.count_nonzero(cell.sum(axis=2) < 60)))

    sure_colour, sure_dark = inside(None)
    doubt_colour, doubt_dark = inside((True,) + (False,) * 8)
    assert sure_dark == 0 and doubt_dark > 0.1 * sure_colour
    assert inside((False, True) + (False,) * 7) == (sure_colour, sure_dark)  # another sticker's doubt: not this one
    assert 0.4 * sure_colour < doubt_colour < 0.9 * sure_colour
