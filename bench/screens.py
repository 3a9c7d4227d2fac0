"""Screenshots of the live window's scanning and solution screens (and calibration, in English) in English, German,
Japanese and Arabic, in a 640x480 window on a 640x480 camera and a 1280x720 window on a 1280x720 camera.

Run: python bench/screens.py [OUT_DIR]   (default: assets/screens/)

No window is opened: the real Session (real translations, real per-frame analysis) is driven with synthetic
photos of a known scrambled cube from tests/synth, and each screen is composed by the same ``overlay.draw`` at
the window's size that the window shows (it draws at its real size, so the picture is what Qt puts on screen).
The Xvfb end-to-end test (tests/app/test_e2e_window.py) checks the real window separately. Prints a table of
what was saved, how long the overlay took to draw, and whether every panel stayed off the detected face.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import synth  # noqa: E402

from qbr.app.analysis import analyse_frame  # noqa: E402
from qbr.app.jobs import resolve_and_solve  # noqa: E402
from qbr.app.layout import intersects, layout  # noqa: E402
from qbr.app.overlay import draw  # noqa: E402
from qbr.app.session import (  # noqa: E402
    FrameEvent,
    KeyEvent,
    ResolveCube,
    ResolvedEvent,
    Session,
    SessionConfig,
    ViewModel,
)
from qbr.app.text import Fonts  # noqa: E402
from qbr.cube.state import CubeState  # noqa: E402
from qbr.solve.i18n import Translator  # noqa: E402
from qbr.vision.palette import DEFAULT_PALETTE  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

LANGUAGES = ("en", "de", "ja", "ar")
WINDOWS = ((640, 480), (1280, 720))
CALIBRATION_LANGUAGES = ("en",)  # one calibration screen is enough to show it
SCRAMBLE = "R U2 F' L D2 B R' U F2 D' L2 B'"
LOCALES = ROOT / "qbr" / "app" / "locales"


def photos(width: int, height: int) -> dict[str, np.ndarray]:
    """One synthetic webcam photo per face of the scrambled cube, each held in its net orientation."""
    rng = np.random.default_rng(7)
    facelets = CubeState.from_scramble(SCRAMBLE).facelets
    params = synth.RenderParams(width=width, height=height, sticker_size=0.085, centre=(0.42, 0.55), hand=True,
                                clutter=0.3, yaw=8.0, pitch=6.0)
    return {face: r.image for face, r in synth.render_cube(facelets, params, rng).items()}


class Driver:
    """A real session fed with photos at 10 frames a second."""

    def __init__(self, lang: str) -> None:
        translators = {lang: Translator(lang, extra_dirs=[LOCALES])}
        self.session = Session(SessionConfig(language=lang, languages=(lang,)), translators, DEFAULT_PALETTE, 0.0)
        self.t = 0.0
        self.tunables = Tunables()

    def show(self, image: np.ndarray, seconds: float) -> list:
        effects = []
        for _ in range(max(1, round(seconds * 10))):
            self.t += 0.1
            analysis = analyse_frame(image, self.tunables, self.session.palette)
            effects += self.session.handle(FrameEvent(self.t, analysis))
        return effects

    def key(self, key: str) -> list:
        self.t += 0.05
        return self.session.handle(KeyEvent(self.t, key))


def screens(lang: str, shots: dict[str, np.ndarray], fonts: Fonts) -> Iterator[tuple[str, np.ndarray, ViewModel]]:
    """(name, screenshot, view) of each screen, in the order a user meets them."""
    d = Driver(lang)
    order = ("F", "R", "B", "L", "U", "D")
    for face in order[:2]:
        d.show(shots[face], 1.0)
        d.show(np.zeros_like(shots[face]), 0.2)  # cube lowered between faces
    d.show(shots[order[2]], 0.3)
    yield "scanning", shots[order[2]], d.session.view()

    cal = Driver(lang)
    cal.key("c")
    cal.show(shots["F"], 0.3)
    yield "calibration", shots["F"], cal.session.view()

    review = Driver(lang)  # every colour shown in turn: the new colours beside their faces, before Y saves them
    review.key("c")
    for face in ("U", "D", "R", "L", "F", "B"):  # white, yellow, red, orange, green, blue
        review.show(shots[face], 1.5)
        review.show(np.zeros_like(shots[face]), 0.2)
    yield "calibration-review", shots["F"], review.session.view()

    effects = []
    for face in order[2:]:
        effects += d.show(shots[face], 1.0)
        d.show(np.zeros_like(shots[face]), 0.2)
    job = next((e for e in effects if isinstance(e, ResolveCube)), None)
    if job is None:
        raise SystemExit(f"{lang}: the session did not capture all six faces (effects: {effects})")
    resolution, solution, error = resolve_and_solve(job.rgb, job.palette, 0.0)
    d.t += 0.1
    d.session.handle(ResolvedEvent(d.t, resolution, solution, error))
    d.key("right")
    d.key("right")
    view = d.session.view()
    # Show the step on a photo of the face it turns when that face is in hand, else on the front face.
    face = view.step.face if view.step is not None else "F"
    d.show(shots[face], 0.2)
    yield "solution", shots[face], d.session.view()


def face_clear(frame: np.ndarray, view: ViewModel, window: tuple[int, int], fonts: Fonts) -> str:
    """"yes" if no panel's rectangle touches the detected face's outline, "no" if one does, "-" with no face."""
    if view.preview is None or view.preview.outline is None:
        return "-"
    p = layout(view, window, (frame.shape[1], frame.shape[0]), fonts.directed(view.rtl))
    pts = p.to_window(np.asarray(view.preview.outline, np.float32))
    x0, y0 = np.floor(pts.min(axis=0)).astype(int)
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
    from qbr.app.text import Rect

    face = Rect(int(x0), int(y0), int(x1 - x0), int(y1 - y0))
    return "no" if any(intersects(r, face) for r in p.panels().values()) else "yes"


def main() -> None:
    out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "assets" / "screens"
    out_dir.mkdir(parents=True, exist_ok=True)
    fonts = Fonts()
    print(f"{'file':<34} {'window':>9} {'draw ms':>8} {'face clear':>10}")
    failed = []
    for window in WINDOWS:
        shots = photos(*window)
        for lang in LANGUAGES:
            made = screens(lang, shots, fonts)
            while True:
                try:
                    name, frame, view = next(made)
                except StopIteration:
                    break
                except Exception as error:  # report and carry on with the other languages
                    failed.append(f"{lang}: {type(error).__name__}: {error}")
                    break
                if name.startswith("calibration") and lang not in CALIBRATION_LANGUAGES:
                    continue
                image = draw(frame, view, fonts, size=window)  # the first draw of a text measures and wraps it
                start = time.perf_counter()
                for _ in range(5):
                    image = draw(frame, view, fonts, size=window)
                ms = (time.perf_counter() - start) / 5 * 1000
                path = out_dir / f"{name}-{lang}-{window[0]}x{window[1]}.png"
                cv2.imwrite(str(path), image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
                clear = face_clear(frame, view, window, fonts)
                if clear == "no":
                    failed.append(f"{path.name}: a panel touches the face")
                print(f"{path.name:<34} {image.shape[1]:>4}x{image.shape[0]:<4} {ms:8.1f} {clear:>10}")
    for line in failed:
        print("FAILED", line)
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
