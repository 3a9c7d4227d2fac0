"""A dim face held steady for a few frames: one frame read alone vs the frames averaged on the face's grid.

    nice -n 10 python bench/steady_low_light.py [--faces 100] [--frames 8] [--families synth,physcam]
                                                [--jitter 1.0]

Each face is ``bench/low_light.py``'s dim face (same seeds, ``bench/seeds.py``: the tuning split beside the frozen
validation split), filmed ``--frames`` times: the scene before the sensor is rendered once, each frame gets its own
sensor noise (frame 1 is the single photo ``low_light.py`` reads) and a steady hand's tremor (a random walk of
``--jitter`` pixels and 0.3 degrees a frame about the face's centre; the truth follows it). Read with the live
profile (``Tunables().for_video()``), as the camera loop does:

- **single**: each frame on its own (detect, measure, name): found = every sticker centre within 30% of a pitch of
  the truth; colours right = found and the nine names (``classify_face``, default palette) right; error = median
  over stickers of the sRGB distance of the measurement to the same stickers measured on the noiseless frame.
  Columns "single, last frame" read the last frame only; "single, any frame" averages over every frame.
- **stacked**: the frames through ``qbr.vision.stack`` in turn (``stack_frame``, then ``measure_stack`` on the last
  frame): found = the stack's grid in place at the last frame; colours and error as above from the average.
  "no carry" (``stack_carry=0``): the same without measuring frames missed by detection on the last grid.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import sys
import time
from collections.abc import Callable, Sequence
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
from seeds import FAMILIES, SPLITS, cube_seeds, scene_rng  # noqa: E402
from synth.dim import render_dim_scene  # noqa: E402

from qbr.vision.classify import classify_face  # noqa: E402
from qbr.vision.detect import FaceDetection, detect_face  # noqa: E402
from qbr.vision.measure import measure_stickers_with_spread  # noqa: E402
from qbr.vision.palette import DEFAULT_PALETTE  # noqa: E402
from qbr.vision.stack import FaceStack, measure_stack, stack_frame  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

DIM = 3
"""Condition index of the dim faces in ``seeds.scene_rng`` (as ``bench/low_light.py``)."""

Expose = Callable[[np.ndarray, np.random.Generator | None], np.ndarray]
"""A scene (before the sensor) -> one frame; no generator: the noiseless frame."""


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
    quiet = dataclasses.replace(sensor, electrons=1e9, read_noise=0.0)

    def expose(scene: np.ndarray, noise: np.random.Generator | None) -> np.ndarray:
        return sensor.expose(scene, noise) if noise is not None else quiet.expose(scene, np.random.default_rng(0))

    return SteadyScene(rendered.image, rendered.stickers, tuple(rendered.colours), expose, rng)


def _physcam(seed: int) -> SteadyScene:
    rng = scene_rng(seed, "physcam", DIM)
    colours = tuple(physcam.shoot.COLOURS[i] for i in rng.integers(0, 6, 9))
    params = physcam.sample_params("dim", rng)
    radiance, stickers = physcam.face_radiance(colours, params, rng)
    quiet = dataclasses.replace(params.sensor, photons=1e9, read_noise=0.0)

    def expose(scene: np.ndarray, noise: np.random.Generator | None) -> np.ndarray:
        if noise is None:
            return capture(scene, quiet, np.random.default_rng(0))
        return capture(scene, params.sensor, noise)

    return SteadyScene(radiance, stickers, colours, expose, rng)


SCENES: dict[str, Callable[[int], SteadyScene]] = {"synth": _synth, "physcam": _physcam}


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
    error: float = float("nan")


def _read(image: np.ndarray, quiet: np.ndarray, detection: FaceDetection | None, rgb: np.ndarray | None,
          truth: np.ndarray, colours: tuple[str, ...], t: Tunables) -> Reading:
    if detection is None or rgb is None or not detection_matches(detection, truth):
        return Reading()
    names = tuple(classify_face(rgb, DEFAULT_PALETTE, t).names)
    reference = measure_stickers_with_spread(quiet, detection, t).rgb
    return Reading(True, names == colours, float(np.median(np.linalg.norm(rgb - reference, axis=1))))


REPEATS = 3
"""Timing runs per frame and chain, interleaved; the fastest counts (the others' extra is the shared machine's)."""


def _alone(image: np.ndarray, detection: FaceDetection | None, t: Tunables) -> None:
    """The live chain after detection before: the frame measured and named alone."""
    if detection is not None:
        measured = measure_stickers_with_spread(image, detection, t)
        classify_face(measured.rgb, DEFAULT_PALETTE, t, glare=measured.glare)


def _averaged(previous: FaceStack | None, image: np.ndarray, detection: FaceDetection | None, t: Tunables) -> None:
    """The live chain after detection now: the frame stacked, the average measured and named."""
    stack = stack_frame(previous, image, detection, t)
    if stack is not None:
        measured = measure_stack(stack, t)
        classify_face(measured.rgb, DEFAULT_PALETTE, t, glare=measured.glare)


def _best_of(repeats: int, *chains: Callable[[], None]) -> list[float]:
    best = [float("inf")] * len(chains)
    for _ in range(repeats):
        for i, chain in enumerate(chains):
            start = time.perf_counter()
            chain()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def run_face(scene: SteadyScene, frames: int, jitter: float, seed: int, family: str,
             t: Tunables) -> tuple[list[Reading], list[Reading], np.ndarray]:
    """(each frame read alone, the stack at the last frame and the same without carrying, ms per frame
    (frames, 3): detection, then measuring and naming the frame alone, then stacking, measuring the average and
    naming (best of ``REPEATS``))."""
    centre = scene.stickers[4].mean(axis=0)
    maps = tremor(frames, centre, jitter, np.random.default_rng([seed, FAMILIES.index(family), DIM, 1]))
    singles: list[Reading] = []
    stack: FaceStack | None = None
    plain: FaceStack | None = None  # the same without frames carried on the last grid
    no_carry = dataclasses.replace(t, stack_carry=0)
    stacked = [Reading(), Reading()]
    ms = np.zeros((frames, 3))
    h, w = scene.scene.shape[:2]
    for k, m in enumerate(maps):
        moved = scene.scene if k == 0 else cv2.warpAffine(scene.scene, m, (w, h), flags=cv2.INTER_LINEAR,
                                                           borderMode=cv2.BORDER_REFLECT)
        noise = scene.rng if k == 0 else np.random.default_rng([seed, FAMILIES.index(family), DIM, 2, k])
        image, quiet = scene.expose(moved, noise), scene.expose(moved, None)
        truth = cv2.transform(scene.stickers.reshape(-1, 1, 2).astype(np.float64), m).reshape(-1, 4, 2)
        start = time.perf_counter()
        detection = detect_face(image, t)
        ms[k, 0] = time.perf_counter() - start
        previous = stack
        stack = stack_frame(previous, image, detection, t)
        plain = stack_frame(plain, image, detection, no_carry)
        ms[k, 1:] = _best_of(REPEATS, partial(_alone, image, detection, t), partial(_averaged, previous, image,
                                                                                      detection, t))
        rgb = measure_stickers_with_spread(image, detection, t).rgb if detection is not None else None
        singles.append(_read(image, quiet, detection, rgb, truth, scene.colours, t))
        if k == frames - 1:
            stacked = [_read(image, quiet, s.detection if s else None, measure_stack(s, t).rgb if s else None, truth,
                             scene.colours, t) for s in (stack, plain)]
    return singles, stacked, ms * 1000


def _pct(values: Sequence[bool]) -> str:
    return f"{100 * np.mean(values):.1f}%" if values else "-"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--faces", type=int, default=100, help="dim faces per family and split")
    parser.add_argument("--frames", type=int, default=8, help="frames of each face held steady")
    parser.add_argument("--families", default=",".join(FAMILIES), help="comma-separated: synth, physcam")
    parser.add_argument("--jitter", type=float, default=1.0, help="hand tremor, pixels per frame (random walk)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    t = Tunables().for_video()
    print(f"## A dim face held steady: {args.frames} frames, one read alone vs averaged ({args.faces} faces per "
          f"family and split, tremor {args.jitter} px)\n")
    print("| family | split | found: single, last frame | single, any frame | stacked | stacked, no carry "
          "| colours right: single, last | single, any | stacked | stacked, no carry | median error: single, last "
          "| stacked |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    times: list[np.ndarray] = []
    for family, split in itertools.product(args.families.split(","), SPLITS):
        last: list[Reading] = []
        every: list[Reading] = []
        stacked: list[Reading] = []
        plain: list[Reading] = []
        for seed in cube_seeds(split, args.faces):
            singles, together, ms = run_face(SCENES[family](seed), args.frames, args.jitter, seed, family, t)
            last.append(singles[-1])
            every.extend(singles)
            stacked.append(together[0])
            plain.append(together[1])
            times.append(ms)
        both = [(a.error, b.error) for a, b in zip(last, stacked, strict=True) if a.found and b.found]
        errors = np.array(both) if both else np.full((1, 2), np.nan)
        print(f"| {family} | {split} | {_pct([r.found for r in last])} | {_pct([r.found for r in every])} "
              f"| {_pct([r.found for r in stacked])} | {_pct([r.found for r in plain])} "
              f"| {_pct([r.right for r in last])} "
              f"| {_pct([r.right for r in every])} | {_pct([r.right for r in stacked])} "
              f"| {_pct([r.right for r in plain])} "
              f"| {np.median(errors[:, 0]):.1f} | {np.median(errors[:, 1]):.1f} |", flush=True)
    print("\nerror: median over faces found by both of the median sticker's sRGB distance from the noiseless frame.")
    ms = np.concatenate(times)
    alone, averaged = ms[:, 0] + ms[:, 1], ms[:, 0] + ms[:, 2]
    print(f"\n## Live chain per frame (these {len(ms)} dim 640x480 frames, one thread; after detection: the "
          f"fastest of {REPEATS} interleaved runs per frame)\n")
    print("| chain | median ms | p95 ms |\n|---|---:|---:|")
    print(f"| detect + measure + name (each frame alone) | {np.median(alone):.2f} "
          f"| {np.percentile(alone, 95):.2f} |")
    print(f"| detect + stack + measure the average + name | {np.median(averaged):.2f} "
          f"| {np.percentile(averaged, 95):.2f} |")
    print(f"| of which measure + name / stack + measure + name | {np.median(ms[:, 1]):.2f} / "
          f"{np.median(ms[:, 2]):.2f} | |")
    print(f"\nratio averaged / alone: median {np.median(averaged) / np.median(alone):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
