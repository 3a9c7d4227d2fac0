"""Whole-cube colour resolution beyond the few real scans: tuning vs validation seeds, solved cubes, garbage.

    python bench/resolve_accuracy.py [--seeds 50] [--quick]

Rows: the real dev scans (tests/data colour scans and photo-set measurements) as measured; the same scans
augmented (tests/synth/augment.py: per-face exposure and lamp cast 2700-7500 K, gamma, noise, very dark
exposures, colours swapped to another scheme) on the tuning seeds and, separately, on the validation seeds;
solved cubes of every palette in three colour schemes (bright and dark); the rendered measurements; one or two
faces of each dev scan turned; and garbage (random RGB, six identical centres), which must never come out as a
sure cube. "exact" = the facelets are right; "silent" = wrong yet valid with nothing in doubt. The augmented misses
are split into *search* (the whole-cube judge scores the truth better than the cube found) and *model* (it prefers
the wrong cube), for the tuning seeds named too, for the validation seeds counted only.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the augmentation lives with the synthetic data

from synth.augment import SCHEMES, TUNING_SEEDS, VALIDATION_SEEDS, augment, solved_cube  # noqa: E402
from synth.palettes import PALETTES  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from judged_miss import miss_kind  # noqa: E402

from qbr.cube.conventions import FACES, SOLVED  # noqa: E402
from qbr.vision.resolve import Resolution  # noqa: E402
from qbr.vision.resolve import resolve_cube as _resolve  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

DATA = ROOT / "tests" / "data"
TUNABLES = [Tunables()]  # replaced by --set


def resolve_cube(rgb: Mapping) -> Resolution:
    return _resolve(rgb, tunables=TUNABLES[0])


def dev_scans() -> list[tuple[str, dict, str]]:
    """(name, rgb, truth) of every real 3x3 scan with known facelets: colour scans and photo-set measurements."""
    found = []
    paths = sorted((DATA / "colour-scans").glob("3x3x3-*.json")) + sorted((DATA / "photos").glob("3x3x3-*/truth.json"))
    for path in paths:
        data = json.loads(path.read_text("utf-8"))
        name = path.stem if path.stem != "truth" else path.parent.name
        found.append((name, data.get("rgb") or data["expected_sticker_rgb"], data["expected_facelets"]))
    return found


def _silent(result: Resolution, truth: str) -> bool:
    doubt = getattr(result, "doubt", None)
    return result.facelets != truth and result.valid and not result.uncertain and not doubt


def _row(name: str, cases: Iterable[tuple[Mapping, str]], times: list[float],
         misses: list[tuple[str, str]] | None = None, labels: Iterable[str] = ()) -> tuple[str, int, int, int]:
    """Resolve every case; with ``misses``, each wrong cube's (label, search or model) is appended to it."""
    n = exact = silent = 0
    names = iter(labels)
    for rgb, truth in cases:
        label = next(names, "")
        start = time.perf_counter()
        result = resolve_cube(rgb)
        times.append(time.perf_counter() - start)
        n += 1
        exact += result.facelets == truth and result.valid
        silent += _silent(result, truth)
        if misses is not None and not (result.facelets == truth and result.valid):
            misses.append((label, miss_kind(rgb, truth, result.facelets, None, TUNABLES[0])))
    return name, n, exact, silent


def _turned(scans: Sequence[tuple[str, dict, str]], pairs: bool) -> Callable[[], Iterable[tuple[dict, str]]]:
    def cases() -> Iterable[tuple[dict, str]]:
        rng = np.random.default_rng(7)
        for _, rgb, truth in scans:
            for face in FACES if not pairs else range(3):
                turned = dict(rgb)
                chosen = [face] if not pairs else list(rng.choice(list(FACES), 2, replace=False))
                for f in chosen:
                    k = int(rng.integers(1, 4))
                    turned[f] = np.rot90(np.asarray(rgb[f], float).reshape(3, 3, 3), -k).reshape(9, 3)
                yield turned, truth
    return cases


def _lost(cases: Iterable[tuple[str, dict, str]]) -> Iterable[tuple[dict, str]]:
    """Each cube once per face, that face not found (its stickers to be deduced from the other five)."""
    for _, rgb, truth in cases:
        for face in FACES:
            yield {f: v for f, v in rgb.items() if f != face}, truth


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=50, help="augmentation seeds per scan and range")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="override a resolve tunable (e.g. resolve_cast_prior=2), to measure its effect")
    parser.add_argument("--only", choices=["scans", "lost", "all"], default="all",
                        help="scans: dev and augmented rows only; lost: the rows with a face lost only")
    parser.add_argument("--rev", default="", help="also time qbr/vision/resolve of this git revision, interleaved")
    args = parser.parse_args(argv)
    overrides = {}
    for item in args.set:
        name, value = item.split("=", 1)
        overrides[name] = type(getattr(Tunables(), name))(float(value))
    TUNABLES[0] = dataclasses.replace(Tunables(), **overrides)
    scans = dev_scans()
    tuning, validation = TUNING_SEEDS[: args.seeds], VALIDATION_SEEDS[: args.seeds]
    times: list[float] = []
    lost_times: list[float] = []
    tuning_misses: list[tuple[str, str]] = []
    validation_misses: list[tuple[str, str]] = []  # counted only: validation is not looked at (bench/seeds.py)
    rows = [] if args.only == "lost" else [
        _row("dev scans as measured", ((rgb, truth) for _, rgb, truth in scans), times),
        _row(f"augmented, tuning seeds {tuning.start}-{tuning.stop - 1}",
             ((augment(rgb, truth, s), truth) for _, rgb, truth in scans for s in tuning), times,
             tuning_misses, (f"{name}:{s}" for name, _, _ in scans for s in tuning)),
        _row(f"augmented, validation seeds {validation.start}-{validation.stop - 1}",
             ((augment(rgb, truth, s), truth) for _, rgb, truth in scans for s in validation), times,
             validation_misses),
        _row("solved, 6 palettes x 3 schemes, bright",
             ((solved_cube(p, sc, s), SOLVED) for p in PALETTES for sc in SCHEMES for s in range(5)), []),
        _row("solved, 6 palettes x 3 schemes, dark (< 90)",
             ((solved_cube(p, sc, s, dark=True), SOLVED) for p in PALETTES for sc in SCHEMES for s in range(5)), []),
    ]
    if args.only == "scans":
        rows = rows[:3]
    for tier in ("medium", "hard") if args.only == "all" else ():
        data = np.load(DATA / "rendered-measurements" / f"{tier}.npz")
        rows.append(_row(f"rendered measurements, {tier}", (
            ({f: rgb[9 * i : 9 * i + 9].astype(float) for i, f in enumerate(FACES)}, str(truth))
            for truth, rgb in zip(data["truth"], data["rgb"], strict=True)), []))
    if args.only == "all":
        rows.append(_row("dev scans, one face turned", _turned(scans, pairs=False)(), []))
        rows.append(_row("dev scans, two faces turned", _turned(scans, pairs=True)(), []))
    if args.only in ("lost", "all"):
        # A face not found (qbr scan then deduces it): each face of each cube in turn.
        lost = max(args.seeds // 5, 1)  # six resolutions a cube: a fifth of the seeds says enough
        rows.append(_row("dev scans, one face lost", _lost(scans), lost_times))
        rows.append(_row(f"augmented, one face lost, tuning seeds {tuning.start}-{tuning.start + lost - 1}",
                         _lost((n, augment(rgb, truth, s), truth) for n, rgb, truth in scans for s in tuning[:lost]),
                         lost_times))
        rows.append(_row(f"augmented, one face lost, validation seeds {validation.start}-{validation.start + lost - 1}",
                         _lost((n, augment(rgb, truth, s), truth) for n, rgb, truth in scans
                               for s in validation[:lost]), lost_times))
        rows.append(_row("solved, 6 palettes x 3 schemes, bright, one face lost",
                         _lost(("", solved_cube(p, sc, 0), SOLVED) for p in PALETTES for sc in SCHEMES), []))
    print("| data | cubes | exact | silently wrong |")
    print("|---|---:|---:|---:|")
    for name, n, exact, silent in rows:
        print(f"| {name} | {n} | {exact} ({100 * exact / max(n, 1):.1f}%) | {silent} |")
    print()
    # A miss is the search's if the judge scores the truth better than the cube found, else the model's.
    for split, misses in (("tuning", tuning_misses), ("validation", validation_misses)):
        kinds = [kind for _, kind in misses]
        print(f"augmented {split} misses: {kinds.count('search')} search, {kinds.count('model')} model")
    searched = [label for label, kind in tuning_misses if kind == "search"]
    if searched:
        print("tuning search misses: " + ", ".join(searched))
    rng = np.random.default_rng(0)
    garbage = [{f: rng.uniform(0, 255, (9, 3)) for f in FACES} for _ in range(50)]
    sure = sum(1 for rgb in garbage if (r := resolve_cube(rgb)).valid and not getattr(r, "doubt", None))
    print(f"random RGB: {sure}/50 come out as a sure, valid cube")
    lost = sum(1 for rgb, _ in _lost(("", g, "") for g in garbage[:10])
               if (r := resolve_cube(rgb)).valid and not getattr(r, "doubt", None))
    print(f"random RGB, one face lost: {lost}/60 come out as a sure, valid cube")
    same = 0
    for _, rgb, _ in scans:
        alike = {f: np.array(rgb[f], float) for f in FACES}
        for f in FACES:
            alike[f][4] = (128.0, 128.0, 128.0)
        result = resolve_cube(alike)
        same += result.valid and not getattr(result, "doubt", None)
    print(f"six identical centres: {same}/{len(scans)} come out as a sure, valid cube")
    for what, measured in (("dev + augmented", times), ("a face lost", lost_times)):
        if measured:
            print(f"median time per cube ({what}): {1000 * statistics.median(measured):.1f} ms")
    if args.rev:
        compare_speed(args.rev, scans)
    return 0


def compare_speed(rev: str, scans: Sequence[tuple[str, dict, str]]) -> None:
    """Median time per cube of this resolve and the one at ``rev``, cube by cube in turn (a shared machine drifts)."""
    import tempfile

    from vision_speed import REF_PACKAGE, load_reference

    with tempfile.TemporaryDirectory() as where:
        load_reference(rev, Path(where))
        import importlib

        reference = importlib.import_module(f"{REF_PACKAGE}.resolve").resolve_cube
        cubes = [rgb for _, rgb, _ in scans] + [augment(rgb, truth, s) for _, rgb, truth in scans for s in range(3)]
        ours: list[float] = []
        theirs: list[float] = []
        for rgb in cubes:
            for fn, into in ((reference, theirs), (resolve_cube, ours)):
                start = time.perf_counter()
                fn(rgb)
                into.append(time.perf_counter() - start)
        a, b = statistics.median(ours), statistics.median(theirs)
        print(f"\n| resolve | cubes | median ms |\n|---|---:|---:|\n| {rev} | {len(cubes)} | {1000 * b:.1f} |"
              f"\n| this | {len(cubes)} | {1000 * a:.1f} ({a / b:.2f}x) |")


if __name__ == "__main__":
    raise SystemExit(main())
