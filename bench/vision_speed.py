"""Per-frame speed of detect / measure / classify against a reference git revision, with an equality check.

    python bench/vision_speed.py [--frames 200] [--empty 40] [--seed 1] [--rev HEAD] [--live] [--size 2]
                                 [--no-timing]

Renders 640x480 frames across the three tiers as ``bench/scan_accuracy.py``'s ``timing`` does, plus frames of
rooms without a cube. The reference implementation (qbr/vision at ``--rev``) is loaded from git into a temporary
package and run next to the working tree: (a) equality on every frame (face found or not by both; stickers and
outline within 1e-3 px; measured RGB within 1e-9; colour names identical, distances and confidences within 1e-9),
exit 1 on any difference; (b) interleaved A/B timing per frame and stage (single thread), printed as a Markdown
table of medians, p95 and new/old ratios. ``--live``: both with the camera loop's tunables (``for_video()``).
``--size 2``: 2x2x2 faces rendered and detected with the size given (``qbr scan --size 2``, a live session switched
to a 2x2x2); ``--size 3`` likewise for the 3x3x3.
Measure and classify are the live app's (``qbr.app.analysis``): measured with the samples' spread and shares, named
with whichever of the glare and spot shares and the spread the revision's ``classify_face`` takes.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the synthetic renderer lives with the tests

from synth import TIERS, random_colours, render_face, sample_params  # noqa: E402
from synth.scenes import make_background  # noqa: E402

from qbr.vision import classify, detect, measure, palette, tunables  # noqa: E402

REF_PACKAGE = "_qbr_vision_ref"
MODULES = ("tunables", "colour", "palette", "detect", "measure", "classify")


def load_reference(rev: str, where: Path) -> dict[str, ModuleType]:
    """qbr/vision at git revision ``rev`` as a separate package (imports of qbr.vision rewritten to it)."""
    package = where / REF_PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text("")
    # Every module of qbr/vision at that revision: which ones exist (and import each other) differs between them.
    # Its subpackages too (qbr/vision/detect/, qbr/vision/resolve/), at any depth, with their own __init__.py.
    listing = subprocess.run(["git", "ls-tree", "-r", "--name-only", f"{rev}:qbr/vision"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.split()
    for filename in (f for f in listing if f.endswith(".py") and f != "__init__.py"):
        source = subprocess.run(["git", "show", f"{rev}:qbr/vision/{filename}"], cwd=ROOT, check=True,
                                capture_output=True, text=True).stdout
        (package / filename).parent.mkdir(parents=True, exist_ok=True)
        (package / filename).write_text(source.replace("qbr.vision.", f"{REF_PACKAGE}."))
    sys.path.insert(0, str(where))
    return {name: importlib.import_module(f"{REF_PACKAGE}.{name}") for name in MODULES}


def render_frames(frames: int, empty: int, seed: int, size: int | None = None) -> list[tuple[str, np.ndarray]]:
    """(tier, BGR image): ``frames`` faces (of a 2x2x2 for ``size`` 2) cycling the tiers as scan_accuracy's timing
    does, then empty rooms."""
    n = size or 3
    rng = np.random.default_rng([seed, 640])
    out = []
    for attempt in range(1, frames + 1):
        tier = TIERS[attempt % 3]
        out.append((tier, render_face(random_colours(rng, n), sample_params(tier, rng, 640, 480, size=n), rng).image))
    for _ in range(empty):
        room = make_background(640, 480, float(rng.uniform(0, 1)), rng)
        out.append(("no cube", np.ascontiguousarray(room[..., ::-1])))
    return out


class Chain:
    """One implementation's stages, with the tunables and palette of its own revision."""

    def __init__(self, mods: dict[str, ModuleType], live: bool = False, size: int | None = None) -> None:
        self.size = size
        self.t = mods["tunables"].Tunables().for_video() if live else mods["tunables"].Tunables()
        self.palette = mods["palette"].DEFAULT_PALETTE
        self.detect_face = mods["detect"].detect_face
        self.measure = mods["measure"].measure_stickers_with_spread
        self.classify_face = mods["classify"].classify_face
        taken = inspect.signature(self.classify_face).parameters
        self.shares = [k for k in ("glare", "spot", "spread") if k in taken]

    def detect(self, image: np.ndarray) -> Any:
        return self.detect_face(image, self.t, self.size)

    def measure_on(self, image: np.ndarray, det: Any) -> Any:
        return self.measure(image, det, self.t)

    def classify(self, measured: Any) -> Any:
        return self.classify_face(measured.rgb, self.palette, self.t, **{k: getattr(measured, k) for k in self.shares})

    def chain(self, image: np.ndarray) -> Any:
        det = self.detect(image)
        if det is None:
            return None
        return self.classify(self.measure_on(image, det))


def _max_diff(a: np.ndarray, b: np.ndarray) -> float:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a.shape != b.shape:
        return float("inf")
    same_nan = np.isnan(a) & np.isnan(b)
    return float(np.max(np.where(same_nan, 0.0, np.abs(a - b)), initial=0.0))


def compare(old: Chain, new: Chain, frames: list[tuple[str, np.ndarray]]) -> tuple[list[str], dict[str, float]]:
    """Differences between the two implementations on every frame, and the largest numeric gaps seen."""
    problems: list[str] = []
    worst = dict.fromkeys(("stickers", "outline", "homography", "confidence", "rgb", "distances", "colour conf"),
                          0.0)
    for k, (tier, image) in enumerate(frames):
        a, b = old.detect(image), new.detect(image)
        if (a is None) != (b is None):
            problems.append(f"frame {k} ({tier}): face found by {'old' if b is None else 'new'} only")
            continue
        if a is None:
            continue
        gaps = {"stickers": _max_diff(a.stickers, b.stickers), "outline": _max_diff(a.outline, b.outline),
                "homography": _max_diff(a.homography, b.homography),
                "confidence": abs(a.confidence - b.confidence)}
        rgb_a, rgb_b = old.measure_on(image, a), new.measure_on(image, b)
        gaps["rgb"] = _max_diff(rgb_a.rgb, rgb_b.rgb)
        col_a, col_b = old.classify(rgb_a), new.classify(rgb_b)
        gaps["distances"] = _max_diff(col_a.distances, col_b.distances)
        gaps["colour conf"] = _max_diff(col_a.confidence, col_b.confidence)
        for key, value in gaps.items():
            worst[key] = max(worst[key], value)
        limits = {"stickers": 1e-3, "outline": 1e-3, "rgb": 1e-9, "distances": 1e-9, "colour conf": 1e-9}
        for key, limit in limits.items():
            if not gaps[key] <= limit:
                problems.append(f"frame {k} ({tier}): {key} differ by {gaps[key]:.3g}")
        if col_a.names != col_b.names:
            problems.append(f"frame {k} ({tier}): colour names {col_a.names} != {col_b.names}")
    return problems, worst


def _stats(values: list[float]) -> tuple[float, float]:
    values = sorted(values)
    return statistics.median(values), values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]


def timing(old: Chain, new: Chain, frames: list[tuple[str, np.ndarray]], repeats: int) -> list[tuple[Any, ...]]:
    """Interleaved A/B times (ms) per stage: every call of one implementation is next to the other's."""
    with_face = []
    for _, image in frames:
        det = old.detect(image)
        if det is not None:
            rgb = old.measure_on(image, det)
            with_face.append((image, det, rgb))
    empty = [image for tier, image in frames if tier == "no cube"]
    stages: list[tuple[str, list[tuple[Callable[[], Any], Callable[[], Any]]]]] = [
        ("detect", [(lambda i=i: old.detect(i), lambda i=i: new.detect(i)) for i, _, _ in with_face]),
        ("measure", [(lambda i=i, d=d: old.measure_on(i, d), lambda i=i, d=d: new.measure_on(i, d))
                     for i, d, _ in with_face]),
        ("classify", [(lambda r=r: old.classify(r), lambda r=r: new.classify(r)) for _, _, r in with_face]),
        ("detect+measure+classify", [(lambda i=i: old.chain(i), lambda i=i: new.chain(i)) for i, _, _ in with_face]),
        ("detect, no cube", [(lambda i=i: old.detect(i), lambda i=i: new.detect(i)) for i in empty]),
    ]
    rows = []
    for name, pairs in stages:
        if not pairs:
            continue
        for fa, fb in pairs[:3]:
            fa(), fb()  # warm-up: first calls pay for lazy initialisation
        times: tuple[list[float], list[float]] = ([], [])
        ratios = []
        for r in range(repeats):
            for k, pair in enumerate(pairs):
                # Alternate which goes first, so neither always runs on a cache the other warmed.
                order = (0, 1) if (k + r) % 2 == 0 else (1, 0)
                took = [0.0, 0.0]
                for which in order:
                    start = time.perf_counter()
                    pair[which]()
                    took[which] = (time.perf_counter() - start) * 1000
                times[0].append(took[0])
                times[1].append(took[1])
                ratios.append(took[1] / took[0])
        (om, op), (nm, np95) = _stats(times[0]), _stats(times[1])
        rows.append((name, len(pairs), om, nm, nm / om, op, np95, np95 / op, statistics.median(ratios)))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frames", type=int, default=200, help="rendered frames with a cube (tiers in turn)")
    parser.add_argument("--empty", type=int, default=40, help="rendered rooms without a cube")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rev", default="HEAD",
                        help="git revision of the reference qbr/vision (default: the last commit, so an uncommitted "
                        "change is checked against it)")
    parser.add_argument("--repeats", type=int, default=1, help="timing passes over the frames")
    parser.add_argument("--no-timing", action="store_true", help="only check equality")
    parser.add_argument("--live", action="store_true", help="the live profile (for_video) instead of the photo one")
    parser.add_argument("--size", type=int, choices=(2, 3), help="the cube's size given to detection (2: 2x2x2 faces)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    frames = render_frames(args.frames, args.empty, args.seed, args.size)
    with tempfile.TemporaryDirectory() as tmp:
        old = Chain(load_reference(args.rev, Path(tmp)), args.live, args.size)
        new = Chain({"tunables": tunables, "palette": palette, "detect": detect, "measure": measure,
                     "classify": classify}, args.live, args.size)
        problems, worst = compare(old, new, frames)
        counts = {tier: sum(t == tier for t, _ in frames) for tier in (*TIERS, "no cube")}
        print(f"## Equality with {args.rev} ({', '.join(f'{n} {t}' for t, n in counts.items())} frames)\n")
        print("largest differences: " + ", ".join(f"{k} {v:.3g}" for k, v in worst.items()))
        print(f"differences beyond tolerance: {len(problems)}")
        for line in problems[:30]:
            print(f"- {line}")
        if not args.no_timing:
            print(f"\n## Time per frame, ms (640x480, one thread, old = {args.rev}, new = working tree, interleaved)\n")
            print("| stage | frames | old median | new median | new/old | old p95 | new p95 | new/old p95 "
                  "| median of per-frame new/old |")
            print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
            for name, n, om, nm, rm, op, np95, rp, rr in timing(old, new, frames, args.repeats):
                print(f"| {name} | {n} | {om:.3f} | {nm:.3f} | {rm:.2f} | {op:.3f} | {np95:.3f} | {rp:.2f} "
                      f"| {rr:.2f} |")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
