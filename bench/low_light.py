"""Faces found in a dim room (low exposure, tungsten light, webcam sensor noise, 2-3 px blur), tuning beside validation.

    python bench/low_light.py [--faces 200] [--families synth,physcam] [--conditions dim] [--without all]
                              [--timing-frames 150] [--rooms 0]

Two scene families, each with its own dim condition: ``tests/synth/dim.py`` (the renderer of the tiers through a
webcam sensor model: tuned on) and ``tests/physcam``'s ``dim`` (independent physics: never tuned on). Seeds come
from ``bench/seeds.py``: the tuning split first, the frozen validation split beside it. A face counts as found when
all nine sticker centres are within 30% of a pitch of the truth. Each face is read with qbr's photo profile (what
``qbr scan`` runs) and its live profile (one camera frame), with and without the noise-limited edges
(``Tunables(noise_ratio=0)``: the detector before them; ``--without`` switches off one part instead), and the live
detection's time per frame is taken for both, interleaved (one thread). ``--conditions`` adds the tiers (easy,
medium, hard) of both families, to check that faces in ordinary light are found as before. A last table times the
live chain (detect + measure + classify) on the tiers' ordinary frames, as ``bench/scan_accuracy.py``'s timing does,
with and without them. ``--rooms`` adds rooms without a cube in a dim room (``bench/ablate.py``'s rooms, each
through the webcam sensor model of ``tests/synth/dim.py`` at 35-45% exposure under a warm lamp): faces found there
are false faces; and the photo profile's time on them (the looks a noisy frame gets when nothing is found).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the renderers live with the tests
sys.path.insert(0, str(ROOT / "bench"))

import physcam  # noqa: E402
from scan_accuracy import _times, detection_matches  # noqa: E402
from seeds import FAMILIES, SPLITS, cube_seeds, scene_rng  # noqa: E402
from synth import TIERS, random_colours, render_face, sample_params  # noqa: E402
from synth.dim import _LIN_FROM_8, WebcamSensor, render_dim_face  # noqa: E402
from synth.scenes import make_background  # noqa: E402

from qbr.vision.classify import classify_face  # noqa: E402
from qbr.vision.detect import detect_face  # noqa: E402
from qbr.vision.measure import measure_stickers  # noqa: E402
from qbr.vision.palette import DEFAULT_PALETTE  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

DIM = 3
"""Condition index of the dim faces in ``seeds.scene_rng`` (physcam's CONDITIONS: easy, medium, hard, dim)."""


def _synth(seed: int, condition: str) -> tuple[np.ndarray, np.ndarray]:
    if condition == "dim":
        shot = render_dim_face(scene_rng(seed, "synth", DIM))
    else:
        rng = scene_rng(seed, "synth", TIERS.index(condition))
        shot = render_face(random_colours(rng), sample_params(condition, rng), rng)
    return shot.image, shot.stickers


def _physcam(seed: int, condition: str) -> tuple[np.ndarray, np.ndarray]:
    rng = scene_rng(seed, "physcam", physcam.CONDITIONS.index(condition))
    colours = tuple(physcam.shoot.COLOURS[i] for i in rng.integers(0, 6, 9))
    shot = physcam.render_face(colours, physcam.sample_params(condition, rng), rng)
    return shot.image, shot.stickers


RENDERERS: dict[str, Callable[[int, str], tuple[np.ndarray, np.ndarray]]] = {"synth": _synth, "physcam": _physcam}
WITHOUT: dict[str, dict[str, float]] = {
    "all": {"noise_ratio": 0.0},
    "thresholds": {"noise_canny_low": 0.0, "noise_canny_high": 0.0},
    "smoothing": {"noise_blur_ratio": float("inf")},
    "bilateral": {"noise_bilateral_range": 0.0},
    "texture": {"noise_texture_scale": 1},
    "exposure": {"variety_exposure": 0.0},
    "regions": {"region_look": False},
    "facing": {"grid_min_facing": 0.0},
}
"""Parts of the noise-limited edges to switch off, as tunables (and the refusal of grids seen aslant)."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--faces", type=int, default=200, help="dim faces per family and split")
    parser.add_argument("--families", default=",".join(FAMILIES), help="comma-separated: synth, physcam")
    parser.add_argument("--timing-frames", type=int, default=150, help="ordinary frames for the last table")
    parser.add_argument("--conditions", default="dim", help="comma-separated: dim and/or the tiers easy, medium, hard")
    parser.add_argument("--rooms", type=int, default=0, help="dim rooms without a cube per split")
    parser.add_argument("--without", choices=sorted(WITHOUT), default="all",
                        help="the part switched off in the 'without' column (ablation); all: the detector before")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    now, before = Tunables(), Tunables(**WITHOUT[args.without])
    variants = {"photo": (now, before), "live": (now.for_video(), before.for_video())}
    print(f"## Faces found in a single photo ({args.faces} per condition, family and split)\n")
    print(f"| condition | family | split | profile | found: qbr | without ({args.without}) | live ms: qbr "
          "| without |")
    print("|---|---|---|---|---:|---:|---:|---:|")
    cells = itertools.product(args.conditions.split(","), args.families.split(","), SPLITS) if args.faces else ()
    for condition, family, split in cells:
        found = {(p, k): 0 for p in variants for k in range(2)}
        times: list[list[float]] = [[], []]
        for seed in cube_seeds(split, args.faces):
            image, truth = RENDERERS[family](seed, condition)
            for profile, pair in variants.items():
                for k, t in enumerate(pair):
                    start = time.perf_counter()
                    detection = detect_face(image, t)
                    if profile == "live":
                        times[k].append((time.perf_counter() - start) * 1000)
                    found[profile, k] += (detection is not None and len(detection.stickers) == len(truth)
                                      and detection_matches(detection, truth))  # not part of it taken for a 2x2x2
        for profile in variants:
            ms = [f"{np.median(times[k]):.2f}" if profile == "live" else "" for k in range(2)]
            print(f"| {condition} | {family} | {split} | {profile} | {100 * found[profile, 0] / args.faces:.1f}% "
                  f"| {100 * found[profile, 1] / args.faces:.1f}% | {ms[0]} | {ms[1]} |", flush=True)
    if args.rooms > 0:
        _dim_rooms(args.rooms, variants, args.without)
    if args.timing_frames > 0:
        _ordinary_frames_timing(args.timing_frames, now.for_video(), before.for_video())
    return 0


ROOM_SEED_OFFSET = 70_000
"""bench/ablate.py's rooms without a cube (the same seeds, the same rooms), here photographed in a dim room."""


def dim_room(seed: int, n: int) -> np.ndarray:
    """Room ``n`` of a split without a cube, at 35-45% exposure under a warm lamp, through a noisy webcam."""
    room = make_background(640, 480, (0.0, 0.5, 1.0, 1.0)[n % 4], np.random.default_rng(seed))[..., ::-1]
    rng = np.random.default_rng([seed, DIM])
    # Linear light scaled down, blue weakest (tungsten); the sensor's white balance lifts it back, with its noise.
    lin = _LIN_FROM_8[room] * np.float32(rng.uniform(0.35, 0.45)) * np.array([0.6, 0.85, 1.0], np.float32)
    image = np.clip(255 * (1.055 * lin ** (1 / 2.4) - 0.055), 0, 255).round().astype(np.uint8)
    sensor = WebcamSensor.sample(rng, float(rng.uniform(800, 2500)), float(rng.uniform(2, 6)),
                                 int(rng.integers(60, 91)))
    return sensor.expose(image, rng)


def _dim_rooms(count: int, variants: dict[str, tuple[Tunables, Tunables]], without: str) -> None:
    print(f"\n## Dim rooms without a cube ({count} per split): false faces, and the photo profile's time\n")
    print(f"| split | profile | false faces: qbr | without ({without}) | median ms: qbr | without |")
    print("|---|---|---:|---:|---:|---:|")
    for split in SPLITS:
        images = [dim_room(seed, n) for n, seed in enumerate(cube_seeds(split, count, ROOM_SEED_OFFSET))]
        for profile, pair in variants.items():
            found, times = [0, 0], [[], []]
            for image in images:
                for k, t in enumerate(pair):
                    start = time.perf_counter()
                    found[k] += detect_face(image, t) is not None
                    times[k].append((time.perf_counter() - start) * 1000)
            print(f"| {split} | {profile} | {found[0]} | {found[1]} | {np.median(times[0]):.1f} "
                  f"| {np.median(times[1]):.1f} |", flush=True)


def _chain(image: np.ndarray, t: Tunables) -> None:
    detection = detect_face(image, t)
    if detection is not None:
        classify_face(measure_stickers(image, detection, t), DEFAULT_PALETTE, t)


def _ordinary_frames_timing(frames: int, now: Tunables, before: Tunables) -> None:
    rng = np.random.default_rng([1, 640])
    images = []
    for n in range(frames):
        r = render_face(random_colours(rng), sample_params(TIERS[n % 3], rng), rng)
        images.append(r.image)
    stats = _times([(_chain, now), (_chain, before)], images, 3)
    print(f"\n## Live chain on the tiers' frames (640x480, {frames} frames, 3 interleaved passes)\n")
    print("| variant | median ms | p95 ms | median ms, best of 3 per frame |")
    print("|---|---:|---:|---:|")
    for name, (median, p95, best) in zip(("qbr", "without noise-limited edges"), stats, strict=True):
        print(f"| {name} | {median:.2f} | {p95:.2f} | {best:.2f} |")
    print(f"\nratio qbr / without: median {stats[0][0] / stats[1][0]:.2f}, best-of-3 {stats[0][2] / stats[1][2]:.2f}")


if __name__ == "__main__":
    raise SystemExit(main())
