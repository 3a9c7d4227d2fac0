"""The window loop turns mouse clicks on the drawn net into sticker and colour picks and runs the hand-fixed
cube's solve off the UI thread: a real session and the real overlay, a scripted display instead of a window."""

from __future__ import annotations

import io
import time
from pathlib import Path

import numpy as np
from app.test_session_hand_edit import CUBE, WRONG, Driver, changed

from qbr.app.jobs import solve_facelets
from qbr.app.loop import WindowLoop
from qbr.app.session import Mode
from qbr.app.session.hand_edit import net_cell
from qbr.cube.conventions import FACES
from qbr.solve.i18n import LANGUAGES, Translator

LOCALES = Path(__file__).resolve().parents[2] / "qbr" / "app" / "locales"


class ClickDisplay:
    """Shows nothing; hands the loop scripted clicks and keys, one per turn: a click on a sticker or a swatch lands
    on its middle in the picture just shown (wherever the window's size put it), or on a given pixel."""

    def __init__(self, script: list[tuple[str, object]]) -> None:
        self.loop: WindowLoop | None = None  # set once the loop exists: where it drew the net
        self.script = list(script)
        self.shown: list[np.ndarray] = []
        self._clicks: list[tuple[int, int]] = []
        self._key = -1

    def show(self, image: np.ndarray) -> None:
        self.shown.append(image)
        self._clicks, self._key = [], -1
        if self.script:
            kind, value = self.script.pop(0)
            geometry = self.loop.shown_net if self.loop is not None else None
            assert geometry is not None, "the net was not drawn"
            if kind == "key":
                self._key = value
            elif kind == "pixel":
                self._clicks = [value]
            else:
                box = geometry.sticker_box(*net_cell(value, 3)) if kind == "sticker" else geometry.swatch_box(value)
                self._clicks = [(round(box.x + box.w / 2), round(box.y + box.h / 2))]

    def key(self, wait_ms: int) -> int:
        return self._key

    def clicks(self) -> list[tuple[int, int]]:
        return self._clicks

    def closed(self) -> bool:
        return False

    def close(self) -> None:
        pass


class NoFrames:
    is_live = True
    fps = 0.0
    ended = False

    def read(self):
        return None


def test_clicks_on_the_drawn_net_fix_a_sticker_and_enter_solves_the_fixed_cube() -> None:
    translators = {lang: Translator(lang, extra_dirs=[LOCALES]) for lang in LANGUAGES}
    d = Driver(translators)
    d.resolved(changed(CUBE, WRONG, "U" if CUBE[WRONG] != "U" else "D"))
    d.key("e")
    display = ClickDisplay([("sticker", WRONG), ("swatch", FACES.index(CUBE[WRONG])),
                            ("pixel", (2, 2)),  # off the net: nothing happens
                            ("key", 13)])
    out = io.StringIO()
    loop = WindowLoop(d.session, NoFrames(), analyse=lambda image: None, resolve=lambda effect: (None, None, None),
                      solve=lambda e: solve_facelets(e.facelets, e.colour_names, e.size), out=out, display=display)
    display.loop = loop
    for _ in range(3):
        loop.step()
    assert d.view.edit.cursor == WRONG and d.view.edit.changed == {WRONG}
    deadline = time.monotonic() + 30
    while d.session.mode is not Mode.SOLUTION and time.monotonic() < deadline:
        loop.step()
    assert d.session.mode is Mode.SOLUTION
    assert d.session.resolution.facelets == CUBE
    assert d.session.solution.facelets == CUBE
    assert "SolveFacelets" in loop.stats.effects and out.getvalue().strip()
