"""The real window under Xvfb: stickers the camera saw wrong are corrected on the net by xdotool clicks and keys,
and the solution printed then is the corrected cube's.

The video shows the scrambled cube with two edges flipped (a real cube too, so qbr reads and solves it as seen);
the user knows better: E opens the net, which the test reads back from a screenshot (it must show the cube as
scanned, drawn where the clicks will land), then fixes the four stickers — by a click and a colour key, a click on a
colour swatch, and the arrow keys — and ENTER gives a solution that solves the cube as it really is.
"""

from __future__ import annotations

import collections
import time
from pathlib import Path

import numpy as np
from app.test_e2e_window import (  # the window test's Xvfb fixture and helpers
    SCRAMBLE,
    Output,
    _screenshot,
    _solution_line,
    _start,
    _video,
    _window,
    _xdotool,
    xvfb,  # noqa: F401 (a fixture)
)
from app.test_session_hand_edit import Driver

from qbr.app.edit_net import EditNetGeometry
from qbr.app.overlay import edit_net_place
from qbr.app.session.hand_edit import COLOUR_KEYS, HandEdit, net_cell
from qbr.cube.conventions import EDGE_FACELETS, EDGE_NAMES, FACES, STANDARD_SCHEME
from qbr.cube.moves import parse_moves
from qbr.cube.state import CubeState
from qbr.solve.i18n import LANGUAGES, Translator
from qbr.vision.palette import DEFAULT_PALETTE

ARROWS = {"left": "Left", "right": "Right", "up": "Up", "down": "Down"}


def _flipped(facelets: str, *edges: str) -> str:
    letters = list(facelets)
    for name in edges:
        a, b = EDGE_FACELETS[EDGE_NAMES.index(name)]
        letters[a], letters[b] = letters[b], letters[a]
    return "".join(letters)


def _read_net(image: np.ndarray, geometry: EditNetGeometry) -> str:
    """The face letters the drawn net shows, each sticker's middle matched to the palette's display colours."""
    looks = {face: np.array(DEFAULT_PALETTE.colours[STANDARD_SCHEME[face]][::-1], float) for face in FACES}
    letters = []
    for i in range(54):
        box = geometry.sticker_box(*net_cell(i, 3))
        x, y = round(box.x + box.w / 2), round(box.y + box.h / 2)
        patch = image[y - 2 : y + 3, x - 2 : x + 3].reshape(-1, 3).astype(float).mean(axis=0)
        letters.append(min(FACES, key=lambda f: float(np.linalg.norm(looks[f] - patch))))
    return "".join(letters)


def _arrows(start: int, goal: int) -> list[str]:
    """The fewest arrow keys that take the net's cursor from ``start`` to ``goal`` (the model the window uses)."""
    edit = HandEdit.start("?" * 54, 3)
    paths = {start: []}
    queue = collections.deque([start])
    while queue:
        here = queue.popleft()
        for direction in ARROWS:
            there = edit.select(here).move(direction).cursor
            if there not in paths:
                paths[there] = [*paths[here], direction]
                queue.append(there)
    return paths[goal]


def _click(display: str, window: str, x: float, y: float) -> None:
    _xdotool(display, "mousemove", "--window", window, str(round(x)), str(round(y)))
    _xdotool(display, "click", "--window", window, "1")
    time.sleep(0.3)


def _key(display: str, window: str, *keys: str) -> None:
    for key in keys:
        _xdotool(display, "key", "--window", window, key)
        time.sleep(0.25)


def _net_place(facelets: str, window: tuple[int, int]) -> EditNetGeometry:
    """Where the window draws the net of ``facelets`` (English, the 640x480 video), laid out as the app lays it out."""
    locales = Path(__file__).resolve().parents[2] / "qbr" / "app" / "locales"
    d = Driver({lang: Translator(lang, extra_dirs=[locales]) for lang in LANGUAGES})
    d.resolved(facelets)
    d.key("e")
    geometry = edit_net_place(d.session.view(), window, (640, 480))
    assert geometry is not None
    return geometry


def _net_shown(display: str, window: str, geometry: EditNetGeometry, expected: str, seconds: float = 10) -> str:
    """What the net in the window shows, once it shows ``expected`` or ``seconds`` have passed (a busy machine
    redraws late)."""
    deadline = time.monotonic() + seconds
    while True:
        shown = _read_net(_screenshot(display, window), geometry)
        if shown == expected or time.monotonic() > deadline:
            return shown
        time.sleep(0.2)


def _open_net(display: str, window: str, facelets: str, tmp_path: Path) -> EditNetGeometry:
    """E opens the net; where it is drawn, checked by reading it back from the window (it must show ``facelets``).

    Twice in a dozen runs on a loaded machine no net was shown 10 s after E (every point read one dark colour; not
    understood: a key lost under Xvfb without a window manager, or a window not repainted); one more E is sent
    then, only when no net shows at all, so an E that did arrive is never undone. A failure keeps the screenshot."""
    for _ in range(2):
        _key(display, window, "e")
        shot = _screenshot(display, window)
        geometry = _net_place(facelets, (shot.shape[1], shot.shape[0]))
        shown = _net_shown(display, window, geometry, facelets)
        if shown == facelets or len(set(shown)) > 1:
            break
    if shown != facelets:
        import cv2

        cv2.imwrite(str(tmp_path / "net.png"), _screenshot(display, window))
    assert shown == facelets, f"the net shows {shown} (screenshot: {tmp_path / 'net.png'})"
    return geometry


def _centre(geometry: EditNetGeometry, index: int) -> tuple[float, float]:
    box = geometry.sticker_box(*net_cell(index, 3))
    return box.x + box.w / 2, box.y + box.h / 2


def test_stickers_fixed_by_clicks_on_the_net_give_the_corrected_cubes_solution(xvfb, tmp_path: Path) -> None:  # noqa: F811
    real = CubeState.from_scramble(SCRAMBLE).facelets
    seen = _flipped(real, "UF", "DR")
    video = tmp_path / "misread.avi"
    _video(video, seen)
    app = _start(xvfb, tmp_path, "--camera", str(video), "--lang", "en")
    out = Output(app.stdout)
    try:
        window = _window(xvfb, app)
        text = out.wait_for(lambda t: _solution_line(t) is not None, timeout=120)  # a busy machine: be patient
        first = _solution_line(text)
        assert first is not None, f"no solution printed; stdout so far: {text!r}"
        assert CubeState(seen).apply(parse_moves(first)).is_solved  # the cube as scanned
        assert not CubeState(real).apply(parse_moves(first)).is_solved
        printed = len(out.text)

        geometry = _open_net(xvfb, window, seen, tmp_path)  # what was scanned, where the clicks will land

        wrong = [i for i in range(54) if seen[i] != real[i]]
        assert len(wrong) == 4
        key = {i: COLOUR_KEYS[FACES.index(real[i])] for i in wrong}
        # A click on the sticker, then its colour's key.
        for i in wrong[:2]:
            _click(xvfb, window, *_centre(geometry, i))
            _key(xvfb, window, key[i])
        # A click on the sticker, then on the colour's swatch under the net.
        _click(xvfb, window, *_centre(geometry, wrong[2]))
        swatch = geometry.swatch_box(FACES.index(real[wrong[2]]))
        _click(xvfb, window, swatch.x + swatch.w / 2, swatch.y + swatch.h / 2)
        # The keyboard only: arrows from there to the last one, then its colour's key.
        _key(xvfb, window, *(ARROWS[a] for a in _arrows(wrong[2], wrong[3])), key[wrong[3]])
        assert _net_shown(xvfb, window, geometry, real) == real

        _key(xvfb, window, "Return")
        text = out.wait_for(lambda t: _solution_line(t[printed:]) is not None, timeout=60)
        second = _solution_line(text[printed:])
        assert second is not None, f"no solution after fixing; stdout: {text[printed:]!r}"
        assert CubeState(real).apply(parse_moves(second)).is_solved, second

        _key(xvfb, window, "Escape")
        assert app.wait(10) == 0
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(5)
