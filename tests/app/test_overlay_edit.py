"""The editable net as drawn: every sticker shows its colour where the hit-testing expects it, the cursor and the
stickers in doubt are marked, for a 3x3x3 and a 2x2x2, left-to-right and right-to-left; the net, its swatches and
the swatches stay clear of the banner and the key bar at every window size."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from qbr.app.edit_net import EditNetGeometry
from qbr.app.layout import layout
from qbr.app.overlay import draw, draw_picture, edit_net_place
from qbr.app.session import Mode, ViewModel
from qbr.app.session.hand_edit import HandEdit, edit_view, net_cell
from qbr.app.text import Fonts
from qbr.cube.conventions import FACES, STANDARD_SCHEME
from qbr.cube.pocket.state import PocketState
from qbr.cube.state import CubeState
from qbr.vision.palette import DEFAULT_PALETTE

COLOURS = {name: tuple(round(v) for v in rgb) for name, rgb in DEFAULT_PALETTE.colours.items()}


LONG = "Klicke auf einen Aufkleber oder gehe mit den Pfeiltasten hin, dann drücke die Nummer seiner Farbe."


def view(edit: HandEdit, rtl: bool = False, prompt: str = "Fix it.") -> ViewModel:
    return ViewModel(mode=Mode.EDITING, language="ar" if rtl else "en", rtl=rtl, status="6/6", prompt=prompt,
                     message="Corner URF appears twice.", guide=None, preview=None, captured={}, highlight_face=None,
                     step=None, solution=(), legend=(("1-6", "colour"), ("ESC", "leave")), colour_rgb=COLOURS,
                     scheme=dict(STANDARD_SCHEME), calibration=None, size=edit.size,
                     edit=edit_view(edit, dict(STANDARD_SCHEME)))


def shown_letters(image: np.ndarray, geometry: EditNetGeometry, size: int) -> str:
    looks = {f: np.array(COLOURS[STANDARD_SCHEME[f]][::-1], float) for f in FACES}
    letters = []
    for i in range(6 * size * size):
        box = geometry.sticker_box(*net_cell(i, size))
        x, y = round(box.x + box.w / 2), round(box.y + box.h / 2)
        pixel = image[y, x].astype(float)
        letter, distance = min(((f, float(np.linalg.norm(looks[f] - pixel))) for f in FACES), key=lambda p: p[1])
        assert distance < 10, (i, pixel)
        letters.append(letter)
    return "".join(letters)


@pytest.mark.parametrize(("size", "shape", "rtl"), [(3, (480, 640), False), (3, (720, 1280), True),
                                                    (2, (480, 640), False), (2, (300, 320), True),
                                                    (3, (240, 320), False)])
def test_each_sticker_is_drawn_in_its_colour_where_a_click_finds_it(size: int, shape: tuple[int, int],
                                                                    rtl: bool) -> None:
    facelets = (CubeState.from_scramble("R U2 F' L D2 B") if size == 3 else PocketState.from_scramble("R U F'"))
    edit = HandEdit.start(facelets.facelets, size, review=(1, 2))
    frame = np.full((*shape, 3), 128, np.uint8)
    shown = view(edit, rtl, LONG if shape[0] < 300 else "Fix it.")  # a tall banner at 320x240
    picture = draw_picture(frame, shown)
    image, geometry = picture.image, picture.net
    assert geometry is not None and geometry == edit_net_place(shown, (shape[1], shape[0]), (shape[1], shape[0]))
    assert shown_letters(image, geometry, size) == facelets.facelets
    cursor = geometry.sticker_box(*net_cell(edit.cursor, size))
    ring = image[round(cursor.y) - 3 : round(cursor.y), round(cursor.x + cursor.w / 2)]
    assert (ring == 255).all(axis=1).any()  # the cursor's white frame just outside the sticker
    magenta = np.all(np.abs(image.astype(int) - (255, 60, 230)) < 30, axis=2)
    doubt = geometry.sticker_box(*net_cell(1, size))
    assert magenta[round(doubt.y):round(doubt.y + doubt.h), round(doubt.x):round(doubt.x + doubt.w)].any()
    plain = geometry.sticker_box(*net_cell(5, size))
    assert not magenta[round(plain.y):round(plain.y + plain.h), round(plain.x):round(plain.x + plain.w)].any()


def test_the_video_is_dimmed_and_left_unchanged_outside_the_net() -> None:
    frame = np.full((480, 640, 3), 200, np.uint8)
    edit = HandEdit.start(CubeState.from_scramble("R U").facelets, 3)
    image = draw(frame, view(edit))
    assert image[300, 20].max() < 100  # dimmed: the net is what to look at
    assert (frame == 200).all()
    assert not np.array_equal(draw(frame, dataclasses.replace(view(edit), message=None)), image)  # the message shows


@pytest.mark.parametrize(("size", "cell"), [(3, 11), (2, 11), (3, 17)])
def test_stickers_to_review_are_ringed_where_the_small_net_draws_them(size: int, cell: int) -> None:
    from qbr.app.overlay import draw_net
    from qbr.app.overlay_edit import ring_review

    img = np.zeros((300, 400, 3), np.uint8)
    ring_review(img, (1, 2 * size * size + 3), size, (10, 20), cell)
    magenta = np.all(img == (255, 60, 230), axis=2)
    # The same sticker boxes draw_net fills: paint them and see the rings fall inside.
    net = view(HandEdit.start("U" * 6 * size * size, size))
    boxes = np.zeros((300, 400, 3), np.uint8)
    draw_net(boxes, dataclasses.replace(net, mode=Mode.INVALID, captured={}, edit=None), (10, 20), cell)
    sticker = 3 * cell // size
    for i in (1, 2 * size * size + 3):
        face, k = FACES[i // (size * size)], i % (size * size)
        fx, fy = {"U": (1, 0), "L": (0, 1), "F": (1, 1), "R": (2, 1), "B": (3, 1), "D": (1, 2)}[face]
        x, y = 10 + 3 * cell * fx + (k % size) * sticker, 20 + 3 * cell * fy + (k // size) * sticker
        assert magenta[y : y + sticker, x : x + sticker].sum() >= 4 * (sticker - 2)
        magenta[y : y + sticker, x : x + sticker] = False
        assert boxes[y + sticker // 2, x + sticker // 2].any()  # draw_net filled this very box
    assert not magenta.any()


@pytest.mark.parametrize("window", [(320, 240), (400, 300), (640, 480), (1280, 720), (800, 1000)])
@pytest.mark.parametrize("prompt", ["Fix it.", LONG])
def test_the_net_and_its_swatches_stay_between_the_banner_and_the_key_bar(window: tuple[int, int],
                                                                                  prompt: str) -> None:
    edit = HandEdit.start(CubeState.from_scramble("R U2 F' L D2 B").facelets, 3)
    shown = dataclasses.replace(view(edit, prompt=prompt), legend=(("1-6", "colour"), ("ARROWS", "move"),
                                                                    ("ENTER", "check and solve"), ("ESC", "leave")))
    picture = draw_picture(np.full((480, 640, 3), 128, np.uint8), shown, size=window)
    p = layout(shown, window, (640, 480), Fonts())
    net = picture.net
    assert net is not None
    assert net.y >= p.banner.bottom  # the prompt above is never covered (it was, at 320x240 in German)
    assert p.legend is not None and net.bottom <= p.legend.rect.y  # nor the key bar below
    assert net.x >= 0 and net.x + 4 * net.face <= window[0]
    assert net.face >= (p.legend.rect.y - p.banner.bottom) / 8  # the net fills its band: as big as it can be
