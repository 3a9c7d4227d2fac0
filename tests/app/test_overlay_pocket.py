"""The overlay with a 2x2x2: its net, preview swatches and small cubes show four stickers a face."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from qbr.app.overlay import _NET_CELL, draw, draw_iso_cube, draw_net
from qbr.app.session import Guide, Mode, Preview, Step, ViewModel
from qbr.app.text import Fonts
from qbr.cube.conventions import STANDARD_SCHEME
from qbr.cube.pocket.conventions import SOLVED

RGB = {"white": (240, 240, 240), "red": (200, 20, 30), "green": (20, 170, 60), "yellow": (250, 220, 0),
       "orange": (255, 120, 0), "blue": (0, 70, 200)}
FACE = ("green", "red", "white", "blue")


def _view(mode: Mode, w: int, h: int) -> ViewModel:
    s, cx, cy = h * 0.15, w * 0.45, h * 0.55
    stickers = np.array([[[cx + (c - 1) * s + 3, cy + (r - 1) * s + 3], [cx + c * s - 3, cy + (r - 1) * s + 3],
                          [cx + c * s - 3, cy + r * s - 3], [cx + (c - 1) * s + 3, cy + r * s - 3]]
                         for r in range(2) for c in range(2)], np.float32)
    step = Step(0, 5, "R", "R", 1, "Turn the right face", "Step 1 of 5", SOLVED)
    return ViewModel(
        mode=mode, language="en", rtl=False, status="2/6 faces", prompt="Show the next face",
        message="Something to say" if mode in (Mode.INVALID, Mode.NO_FRAMES) else None,
        guide=Guide("R", "red", "white", "blue", "Turn the whole cube a quarter turn to the left"),
        preview=Preview(stickers, None, FACE, 0.5), captured={"U": ("white",) * 4, "F": FACE}, highlight_face=None,
        step=step if mode == Mode.SOLUTION else None, solution=("R", "U2", "F'", "R2", "U"),
        legend=(("SPACE", "capture face"), ("ESC", "quit")), colour_rgb=RGB, scheme=STANDARD_SCHEME,
        calibration=("white", 2, 6) if mode == Mode.CALIBRATING else None, size=2)


@pytest.mark.parametrize("mode", list(Mode))
def test_every_mode_draws_a_2x2(mode):
    frame = np.full((480, 640, 3), 128, np.uint8)
    out = draw(frame, _view(mode, 640, 480), Fonts())
    assert out.shape == frame.shape and (frame == 128).all()
    assert np.count_nonzero((out != 128).any(axis=2)) > 0.05 * 640 * 480


def test_the_2x2_net_shows_four_stickers_a_face_in_the_room_of_nine():
    img = np.zeros((100, 130, 3), np.uint8)
    cell = 9
    view = _view(Mode.SCANNING, 640, 480)
    rect = draw_net(img, dataclasses.replace(view, guide=None), (5, 5), cell)
    assert (rect.w, rect.h) == (12 * cell, 9 * cell)
    side = 3 * cell // 2
    for face, names in view.captured.items():
        cx, cy = _NET_CELL[face]
        for i, name in enumerate(names):
            x = 5 + cx * cell + (i % 2) * side + side // 2
            y = 5 + cy * cell + (i // 2) * side + side // 2
            assert img[y, x].tolist() == list(RGB[name][::-1]), (face, i)


def test_the_small_2x2_cube_paints_each_of_its_four_stickers():
    img = np.zeros((200, 200, 3), np.uint8)
    colours = {face: [(0, 0, 255), (0, 255, 0), (255, 0, 0), (255, 255, 0)] for face in ("U", "F", "R")}
    draw_iso_cube(img, (100, 100), 160, colours)
    found = {tuple(int(v) for v in c) for c in img.reshape(-1, 3)}
    assert all(colour in found for colour in colours["F"])
