"""A dim face held steady for a few frames: each frame read alone vs the face held through frames detection misses.

    nice -n 10 python bench/steady_low_light.py [--faces 100] [--frames 8] [--families synth,physcam]
                                                [--jitter 1.0] [--condition dim] [--set FIELD=VALUE]
                                                [--captures 30]

Each face is ``bench/low_light.py``'s dim face (same seeds, ``bench/seeds.py``: the tuning split beside the frozen
validation split), filmed ``--frames`` times: the scene before the sensor is rendered once, each frame gets its own
sensor noise (frame 1 is the single photo ``low_light.py`` reads) and a steady hand's tremor (a random walk of
``--jitter`` pixels and 0.3 degrees a frame about the face's centre; the truth follows it). Read with the live
profile (``Tunables().for_video()``), as the camera loop does:

- **single**: each frame on its own (detect, measure, name): found = every sticker centre within 30% of a pitch of
  the truth; colours right = found and the nine names (``classify_face``, default palette) right.
  Columns "single, last frame" read the last frame only; "single, any frame" averages over every frame.
- **held**: the frames through ``qbr.vision.held_face`` in turn (``hold_face``), read at the last frame: found = the
  held face's grid in place; colours as above. "no carry" (``held_carry=0``): the same without measuring frames
  missed by detection with the last detection (so exactly "single, last frame").

``--condition hard`` holds physcam's hard faces instead (small, glared, blurred, JPEG 40-70: the scene before the
sensor rendered once as for dim; synth renders its noise into the scene, so it has no hard faces here);
``--set`` changes a ``Tunables`` field of the live profile (repeatable).

``--captures N``: each face held N frames (15 fps, own noise and tremor a frame) in front of a live session
(``StreamAnalyser`` and ``Session``, as the camera loop runs them): is it captured by itself (steady, not SPACE),
and how many frames that took.

A last table reads ``--sessions`` dim session videos per split end to end, as ``qbr --camera VIDEO --no-window``
does (auto-capture, resolution): a medium-tier ``synth.render_session`` brought down to 35-45% exposure and passed
through one webcam's sensor (``synth.dim``), each frame with its own noise; each frame analysed alone (the loop
before) vs through ``StreamAnalyser`` (the face held).
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import itertools
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the renderers live with the tests
sys.path.insert(0, str(ROOT / "bench"))

import physcam  # noqa: E402
from physcam.sensor import capture  # noqa: E402
from scan_accuracy import detection_matches  # noqa: E402
from seeds import FAMILIES, SPLITS, cube_seeds, scene_rng, state_rng  # noqa: E402
from set_tunables import with_set  # noqa: E402
from synth import render_session_frames  # noqa: E402
from synth.dim import WebcamSensor, render_dim_scene  # noqa: E402

from qbr.app.analysis import StreamAnalyser  # noqa: E402
from qbr.app.environment import Environment  # noqa: E402
from qbr.app.headless import run_headless  # noqa: E402
from qbr.app.session import FrameEvent, Session, SessionConfig  # noqa: E402
from qbr.app.settings import Settings  # noqa: E402
from qbr.app.sources import Frame, FrameSource  # noqa: E402
from qbr.cube.conventions import FACES  # noqa: E402
from qbr.cube.generate import random_state  # noqa: E402
from qbr.vision.classify import classify_face  # noqa: E402
from qbr.vision.detect import FaceDetection, detect_face  # noqa: E402
from qbr.vision.held_face import HeldFace, hold_face  # noqa: E402
from qbr.vision.measure import measure_stickers_with_spread  # noqa: E402
from qbr.vision.palette import DEFAULT_PALETTE  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

DIM = 3
"""Condition index of the dim faces in ``seeds.scene_rng`` (as ``bench/low_light.py``)."""
SESSION_TIER = 30
"""Index of the dim sessions in ``seeds.scene_rng``: their own scenes, apart from every single-photo benchmark's."""
SESSION_FPS = 15

Expose = Callable[[np.ndarray, np.random.Generator], np.ndarray]
"""A scene (before the sensor) -> one frame, its noise drawn from the generator."""


@dataclasses.dataclass(frozen=True)
class SteadyScene:
    scene: np.ndarray
    """What the sensor sees (synth: a noiseless 8-bit render; physcam: linear radiance), HxWx3."""
    stickers: np.ndarray
    colours: tuple[str, ...]
    expose: Expose
    rng: np.random.Generator
    """The scene's generator after rendering: frame 1's noise (the single photo of ``bench/low_light.py``)."""


def _synth(seed: int) -> SteadyScene:
    rng = scene_rng(seed, "synth", DIM)
    rendered, sensor = render_dim_scene(rng)
    return SteadyScene(rendered.image, rendered.stickers, tuple(rendered.colours), sensor.expose, rng)


def _physcam(seed: int, condition: str = "dim") -> SteadyScene:
    rng = scene_rng(seed, "physcam", physcam.CONDITIONS.index(condition))
    colours = tuple(physcam.shoot.COLOURS[i] for i in rng.integers(0, 6, 9))
    params = physcam.sample_params(condition, rng)
    radiance, stickers = physcam.face_radiance(colours, params, rng)

    def expose(scene: np.ndarray, noise: np.random.Generator) -> np.ndarray:
        return capture(scene, params.sensor, noise)

    return SteadyScene(radiance, stickers, colours, expose, rng)


SCENES: dict[str, Callable[..., SteadyScene]] = {"synth": _synth, "physcam": _physcam}


def scene_of(family: str, seed: int, condition: str) -> SteadyScene:
    """The face of ``seed``: dim in either family, or physcam's other conditions."""
    return SCENES[family](seed) if condition == "dim" else SCENES[family](seed, condition)


def tremor(count: int, centre: np.ndarray, jitter: float, rng: np.random.Generator) -> list[np.ndarray]:
    """2x3 affine maps of a steady hand's ``count`` frames: the first is the identity, then a damped random walk."""
    maps, drift = [], np.zeros(3)  # dx, dy (pixels), turn (degrees)
    for k in range(count):
        if k:
            drift = 0.85 * drift + rng.normal(0, [jitter, jitter, 0.3])
        m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), float(drift[2]), 1.0)
        m[:, 2] += drift[:2]
        maps.append(m)
    return maps


@dataclasses.dataclass
class Reading:
    found: bool = False
    right: bool = False


def _read(detection: FaceDetection | None, rgb: np.ndarray | None, truth: np.ndarray, colours: tuple[str, ...],
          t: Tunables) -> Reading:
    if detection is None or rgb is None or not detection_matches(detection, truth):
        return Reading()
    return Reading(True, tuple(classify_face(rgb, DEFAULT_PALETTE, t).names) == colours)


REPEATS = 3
"""Timing runs per frame and chain, interleaved; the fastest counts (the others' extra is the shared machine's)."""


def _alone(image: np.ndarray, detection: FaceDetection | None, t: Tunables) -> None:
    """The live chain after detection before: the frame measured and named alone."""
    if detection is not None:
        measured = measure_stickers_with_spread(image, detection, t)
        classify_face(measured.rgb, DEFAULT_PALETTE, t, glare=measured.glare)


def _held(previous: HeldFace | None, image: np.ndarray, detection: FaceDetection | None, t: Tunables) -> None:
    """The live chain after detection now: the face held (measured with the last detection if missed) and named."""
    held = hold_face(previous, image, detection, t)
    if held is not None:
        classify_face(held.colours.rgb, DEFAULT_PALETTE, t, glare=held.colours.glare)


def _best_of(repeats: int, *chains: Callable[[], None]) -> list[float]:
    best = [float("inf")] * len(chains)
    for _ in range(repeats):
        for i, chain in enumerate(chains):
            start = time.perf_counter()
            chain()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def held_frames(scene: SteadyScene, count: int, jitter: float, seed: int, family: str,
                stream: int = 0) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``count`` frames of the face held steady: each image (its own noise; frame 1 takes the scene's generator, the
    single photo) and the hand's affine map for it; ``stream`` picks other tremor and noise draws."""
    centre = scene.stickers[4].mean(axis=0)
    fam = FAMILIES.index(family)
    maps = tremor(count, centre, jitter, np.random.default_rng([seed, fam, DIM, 1 + 2 * stream]))
    h, w = scene.scene.shape[:2]
    for k, m in enumerate(maps):
        moved = scene.scene if k == 0 else cv2.warpAffine(scene.scene, m, (w, h), flags=cv2.INTER_LINEAR,
                                                           borderMode=cv2.BORDER_REFLECT)
        noise = scene.rng if k == 0 else np.random.default_rng([seed, fam, DIM, 2 + 2 * stream, k])
        yield scene.expose(moved, noise), m


def run_face(scene: SteadyScene, frames: int, jitter: float, seed: int, family: str,
             t: Tunables) -> tuple[list[Reading], list[Reading], np.ndarray]:
    """(each frame read alone, (the face held at the last frame, the same without carrying), ms per frame (frames,
    3): detection, then measuring and naming the frame alone, then holding the face and naming (best of
    ``REPEATS``))."""
    singles: list[Reading] = []
    held: HeldFace | None = None
    plain: HeldFace | None = None  # the same without frames carried with the last detection
    no_carry = dataclasses.replace(t, held_carry=0)
    kept = [Reading(), Reading()]
    ms = np.zeros((frames, 3))
    for k, (image, m) in enumerate(held_frames(scene, frames, jitter, seed, family)):
        truth = cv2.transform(scene.stickers.reshape(-1, 1, 2).astype(np.float64), m).reshape(-1, 4, 2)
        start = time.perf_counter()
        detection = detect_face(image, t)
        ms[k, 0] = time.perf_counter() - start
        previous = held
        held = hold_face(previous, image, detection, t)
        plain = hold_face(plain, image, detection, no_carry)
        ms[k, 1:] = _best_of(REPEATS, partial(_alone, image, detection, t), partial(_held, previous, image,
                                                                                  detection, t))
        rgb = measure_stickers_with_spread(image, detection, t).rgb if detection is not None else None
        singles.append(_read(detection, rgb, truth, scene.colours, t))
        if k == frames - 1:
            kept = [_read(h.detection if h else None, h.colours.rgb if h else None, truth, scene.colours, t)
                    for h in (held, plain)]
    return singles, kept, ms * 1000


class _Frames(FrameSource):
    """A rendered session's frames at its pace, as a video file gives them."""

    kind = "video"

    def __init__(self, frames: list[np.ndarray], fps: float) -> None:
        self._frames, self.fps, self._i = frames, fps, 0

    def read(self) -> Frame | None:
        if self._i >= len(self._frames):
            return None
        self._i += 1
        return Frame(self._frames[self._i - 1], self._i / self.fps)

    @property
    def ended(self) -> bool:
        return self._i >= len(self._frames)


def dim_session(seed: int, split_rng: np.random.Generator) -> tuple[str, list[np.ndarray]]:
    """A medium-tier session video (``synth.render_session``) in a dim room: each frame's light brought down to
    35-45% exposure (the dim faces' range), then through one webcam's sensor (``synth.dim``), its own noise a frame."""
    facelets = random_state(state_rng(seed, "synth", DIM)).facelets
    rng = split_rng
    frames = list(render_session_frames(facelets, rng, fps=SESSION_FPS, tier="medium"))
    exposure = float(rng.uniform(0.35, 0.45))
    sensor = WebcamSensor.sample(rng, float(rng.uniform(800, 2500)), float(rng.uniform(2, 6)),
                                 int(rng.integers(60, 91)))
    # Exposure is of the encoded levels: the darker frame is the same picture at that share of its grey levels.
    dark = [np.clip(np.rint(f.astype(np.float32) * exposure), 0, 255).astype(np.uint8) for f in frames]
    return facelets, [sensor.expose(f, rng) for f in dark]


def session_rows(sessions: int, t: Tunables) -> list[str]:
    """Rendered dim sessions read headless as ``qbr --camera VIDEO --no-window`` does: frames alone vs held."""
    import qbr.app.analysis as analysis

    rows = []
    streamed = analysis.frame_analyser
    variants = {"each frame alone": lambda t, photos: streamed(t, True), "face held over missed frames": streamed}
    for split in SPLITS:
        exact = dict.fromkeys(variants, 0)
        captured = dict.fromkeys(variants, 0)
        for seed in cube_seeds(split, sessions):
            facelets, frames = dim_session(seed, scene_rng(seed, "synth", SESSION_TIER))
            for name, analyser in variants.items():
                analysis.frame_analyser = analyser  # the one choice run_headless makes by the source's kind
                try:
                    env = Environment(stdout=io.StringIO(), stderr=io.StringIO(), stdout_isatty=False,
                                      config_dir=Path(tempfile.mkdtemp()), system_language="en", has_display=False,
                                      clock=lambda: 0.0, sleep=lambda _s: None)
                    result = run_headless(Settings(lang="en", window=False), env, _Frames(frames, SESSION_FPS), t)
                finally:
                    analysis.frame_analyser = streamed
                payload = result.payload
                exact[name] += payload.get("facelets") == facelets
                captured[name] += len(payload.get("faces_captured") or (FACES if payload.get("facelets") else ()))
        for name in variants:
            rows.append(f"| {split} | {name} | {sessions} | {captured[name]} of {6 * sessions} "
                        f"| {exact[name]} |")
    return rows


def captured_after(scene: SteadyScene, frames: int, jitter: float, seed: int, family: str, t: Tunables) -> int | None:
    """The frame (1-based) at which a live session captures ``scene``'s face held ``frames`` frames at SESSION_FPS
    by itself, or None."""
    from qbr.app.headless import translator

    analyse = StreamAnalyser(t)
    session = Session(SessionConfig(), {"en": translator("en")}, DEFAULT_PALETTE, 0.0)
    for k, (image, _) in enumerate(held_frames(scene, frames, jitter, seed, family, stream=1)):
        session.handle(FrameEvent((k + 1) / SESSION_FPS, analyse(image, DEFAULT_PALETTE)))
        if session.view().captured:
            return k + 1
    return None


def capture_rows(args: argparse.Namespace, t: Tunables) -> list[str]:
    """Per family and split: faces a live session captured by itself within ``--captures`` frames, and when."""
    rows = []
    for family, split in itertools.product(args.families.split(","), SPLITS):
        after = []
        for seed in cube_seeds(split, args.faces):
            scene = scene_of(family, seed, args.condition)
            after.append(captured_after(scene, args.captures, args.jitter, seed, family, t))
        done = [k for k in after if k is not None]
        median = f"{np.median(done) / SESSION_FPS:.2f} s" if done else "-"
        rows.append(f"| {family} | {split} | {len(done)} of {len(after)} | {median} |")
    return rows


def _pct(values: Sequence[bool]) -> str:
    return f"{100 * np.mean(values):.1f}%" if values else "-"


def face_tables(args: argparse.Namespace, t: Tunables) -> None:
    """The faces table and the live chain's time per frame."""
    print(f"## A {args.condition} face held steady: {args.frames} frames, each read alone vs the face held "
          f"({args.faces} faces per family and split, tremor {args.jitter} px)\n")
    print("| family | split | found: single, last frame | single, any frame | held | no carry "
          "| colours right: single, last | single, any | held | no carry |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    times: list[np.ndarray] = []
    for family, split in itertools.product(args.families.split(","), SPLITS):
        last: list[Reading] = []
        every: list[Reading] = []
        held: list[Reading] = []
        plain: list[Reading] = []
        for seed in cube_seeds(split, args.faces):
            scene = scene_of(family, seed, args.condition)
            singles, kept, ms = run_face(scene, args.frames, args.jitter, seed, family, t)
            last.append(singles[-1])
            every.extend(singles)
            held.append(kept[0])
            plain.append(kept[1])
            times.append(ms)
        print(f"| {family} | {split} | {_pct([r.found for r in last])} | {_pct([r.found for r in every])} "
              f"| {_pct([r.found for r in held])} | {_pct([r.found for r in plain])} "
              f"| {_pct([r.right for r in last])} | {_pct([r.right for r in every])} "
              f"| {_pct([r.right for r in held])} | {_pct([r.right for r in plain])} |", flush=True)
    ms = np.concatenate(times)
    alone, kept_ms = ms[:, 0] + ms[:, 1], ms[:, 0] + ms[:, 2]
    print(f"\n## Live chain per frame (these {len(ms)} {args.condition} 640x480 frames, one thread; after detection: "
          f"the fastest of {REPEATS} interleaved runs per frame)\n")
    print("| chain | median ms | p95 ms |\n|---|---:|---:|")
    print(f"| detect + measure + name (each frame alone) | {np.median(alone):.2f} "
          f"| {np.percentile(alone, 95):.2f} |")
    print(f"| detect + hold the face + name | {np.median(kept_ms):.2f} | {np.percentile(kept_ms, 95):.2f} |")
    print(f"| of which measure + name / hold + name | {np.median(ms[:, 1]):.2f} / {np.median(ms[:, 2]):.2f} | |")
    print(f"\nratio held / alone: median {np.median(kept_ms) / np.median(alone):.3f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--faces", type=int, default=100, help="dim faces per family and split")
    parser.add_argument("--frames", type=int, default=8, help="frames of each face held steady (0: no faces table)")
    parser.add_argument("--families", default=",".join(FAMILIES), help="comma-separated: synth, physcam")
    parser.add_argument("--jitter", type=float, default=1.0, help="hand tremor, pixels per frame (random walk)")
    parser.add_argument("--sessions", type=int, default=10, help="dim session videos per split read headless")
    parser.add_argument("--condition", choices=("dim", "hard"), default="dim",
                        help="the faces held: dim (both families), or physcam's hard faces")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="the live profile with this Tunables field changed (repeatable)")
    parser.add_argument("--captures", type=int, default=0,
                        help="frames each face is held in front of a live session (0: no such table)")
    args = parser.parse_args(argv)
    if args.condition == "hard" and "synth" in args.families.split(","):
        parser.error("--condition hard holds physcam's faces only: add --families physcam")
    cv2.setNumThreads(1)
    t = Tunables()
    t = with_set(t, args.set)
    t = t.for_video()
    if args.faces > 0 and args.frames > 0:
        face_tables(args, t)
    if args.faces > 0 and args.captures > 0:
        print(f"\n## Each {args.condition} face held {args.captures} frames ({SESSION_FPS} fps) in front of a live "
              "session: captured by itself\n")
        print("| family | split | captured | median time to capture |\n|---|---|---:|---:|")
        for row in capture_rows(args, t):
            print(row, flush=True)
    if args.sessions > 0:
        print(f"\n## Dim session videos read headless ({SESSION_FPS} fps, medium tier at 35-45% exposure through a "
              "noisy webcam)\n")
        print("| split | analysis | sessions | faces captured | cubes exact |\n|---|---|---:|---:|---:|")
        for row in session_rows(args.sessions, t):
            print(row, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
