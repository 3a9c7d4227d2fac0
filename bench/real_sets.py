"""The real photo sets as other cameras would have taken them, read end to end as ``qbr scan`` reads them.

    nice -n 10 python bench/real_sets.py [--seeds 20] [--jobs 1] [--data tests/data] [--show-failures]

The photo sets of ``tests/data/photos`` (six photos of one cube each, all from dwalton76's robot rig and one camera)
are changed by ``tests/synth/camera.py`` (``other_camera``: lamp cast partly corrected, another colour matrix,
exposure, tone curve, noise and JPEG, in linear light) and read by ``scan.read_photos`` and
``jobs.resolved_in_order``: detection, measurement with glare trust, the 3x3/2x2 settling, resolution and the
placement by centres, as ``qbr scan`` does (the 2x2x2 set as ``qbr scan --size 2``). Two cases per camera seed:

* *one camera*: all six photos through the camera of the seed (a person at a desk);
* *a camera per photo*: each photo its own camera (auto white balance and exposure differ from photo to photo),
  drawn from sub-seeds of the seed (``photo_seed``) that meet neither seed range nor each other.

The first ``--seeds`` of ``synth.camera.TUNING_SEEDS`` and of its frozen ``VALIDATION_SEEDS``, side by side.
"faces found" = photos in which a face was detected (the sets have no sticker boxes to place them by; a 2x2x2 face
completed from the other five counts, one left unmeasured does not); "exact" = the cube's facelets are the truth
(a 2x2x2's up to a relabelling of its colours) and it is valid; "in doubt" = wrong but reported (stickers in doubt,
or refused: a face not found, no real cube); "silently wrong" = wrong facelets given as a valid cube with nothing in
doubt, the worst outcome. ``--show-failures`` lists the tuning seeds' misses only: validation is not for looking at.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the camera model lives with the tests
sys.path.insert(0, str(ROOT / "bench"))

from pocket_resolve import same_cube  # noqa: E402
from synth.camera import TUNING_SEEDS, VALIDATION_SEEDS, other_camera  # noqa: E402

from qbr.app.commands.scan import read_photos  # noqa: E402
from qbr.app.jobs import resolved_in_order  # noqa: E402
from qbr.cube.conventions import FACES  # noqa: E402
from qbr.vision.palette import DEFAULT_PALETTE  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

CASES = ("one camera", "a camera per photo")
DATA = ROOT / "tests" / "data"


def photo_seed(seed: int, photo: int) -> int:
    """The camera of photo ``photo`` (0-5) under camera seed ``seed`` in the per-photo case: far above both seed
    ranges, and one apart per photo (8 per seed), so no two seeds or photos share a camera."""
    return 1_000_000 + 8 * seed + photo


@dataclass(frozen=True)
class Outcome:
    """One cube read: faces found (of six), and exactly one of exact / in doubt / silently wrong."""

    found: int
    exact: bool
    doubt: bool
    silent: bool
    note: str = ""


@cache
def load_sets(data: Path) -> tuple[tuple[str, tuple[np.ndarray, ...], str, int], ...]:
    """(name, six BGR photos U R F D L B, true facelets, size) per photo set."""
    sets = []
    for folder in sorted(p for p in (data / "photos").iterdir() if p.is_dir()):
        truth = json.loads((folder / "truth.json").read_text())
        images = tuple(cv2.imread(str(next(folder.glob(f"{face}.*"))), cv2.IMREAD_COLOR) for face in FACES)
        sets.append((folder.name, images, truth["expected_facelets"], int(truth["size"])))
    return tuple(sets)


def judge(images: Sequence[np.ndarray], truth: str, size: int, tunables: Tunables) -> Outcome:
    """Read the six photos as ``qbr scan`` does (``--size 2`` for a 2x2x2) and judge the cube against ``truth``."""
    read = read_photos(list(images), tunables, 2 if size == 2 else None)
    found = sum(f in read.rgb and bool(np.isfinite(read.rgb[f]).any()) for f in FACES)
    missing = [f for f in FACES if f not in read.rgb]
    if missing:
        return Outcome(found, False, True, False, f"no face in {''.join(missing)}")
    if len(set(read.sizes.values())) > 1:
        return Outcome(found, False, True, False, f"sizes {read.sizes}")
    (resolution, _, error), placed = resolved_in_order(read.rgb, DEFAULT_PALETTE, 0.0, read.trust)
    got = resolution.facelets
    right = got == truth if size == 3 else same_cube(got, truth)
    valid = error is None
    said = bool(resolution.uncertain) or getattr(resolution, "doubt", None) is not None
    wrong = sum(a != b for a, b in zip(got, truth, strict=True)) if size == 3 else int(not right)
    note = f"{wrong} facelets wrong" + ("" if valid else ", refused") + (", in doubt" if said else "") + \
        ("" if placed is None else f", placed {placed}")
    if right and valid:
        return Outcome(found, True, False, False, note)
    return Outcome(found, False, said or not valid, valid and not said, note)


def _camera_images(images: Sequence[np.ndarray], seed: int, case: str) -> list[np.ndarray]:
    if case == CASES[0]:
        return [other_camera(image, seed) for image in images]
    return [other_camera(image, photo_seed(seed, i)) for i, image in enumerate(images)]


def _run(job: tuple[Path, int, str, int]) -> tuple[int, str, int, Outcome]:
    data, index, case, seed = job
    cv2.setNumThreads(1)
    _, images, truth, size = load_sets(data)[index]
    return index, case, seed, judge(_camera_images(images, seed, case), truth, size, Tunables())


def run(data: Path, seeds: int, jobs: int, tuning_only: bool = False
        ) -> dict[tuple[str, str, str], list[tuple[int, Outcome]]]:
    """(set, case, split) -> [(seed, outcome)] for the first ``seeds`` of each split."""
    sets = load_sets(data)
    splits = {"tuning": list(TUNING_SEEDS)[:seeds], "validation": [] if tuning_only else list(VALIDATION_SEEDS)[:seeds]}
    work = [(data, i, case, seed) for i in range(len(sets)) for case in CASES for ranged in splits.values()
            for seed in ranged]
    split_of = {seed: name for name, ranged in splits.items() for seed in ranged}
    out: dict[tuple[str, str, str], list[tuple[int, Outcome]]] = {}
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_run, work, chunksize=2))
    else:
        results = [_run(job) for job in work]
    for index, case, seed, outcome in results:
        out.setdefault((sets[index][0], case, split_of[seed]), []).append((seed, outcome))
    return out


def _cell(outcomes: list[tuple[int, Outcome]]) -> str:
    n = len(outcomes)
    if not n:
        return "| | |"
    found = sum(o.found for _, o in outcomes)
    exact = sum(o.exact for _, o in outcomes)
    doubt = sum(o.doubt for _, o in outcomes)
    silent = sum(o.silent for _, o in outcomes)
    return f"{found}/{6 * n} | {exact}/{n} | {doubt} | {silent}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20, help="camera seeds per split (each set, each case)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--data", type=Path, default=DATA, help="folder with photos/ (tests/data holds a copy)")
    parser.add_argument("--show-failures", action="store_true", help="list the tuning seeds' misses")
    parser.add_argument("--tuning-only", action="store_true", help="skip the validation seeds (while tuning)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    started = time.perf_counter()
    cells = run(args.data.resolve(), args.seeds, args.jobs, args.tuning_only)
    names = [name for name, *_ in load_sets(args.data.resolve())]
    print(f"## Real photo sets through other cameras ({args.seeds} camera seeds per split)\n")
    print("| set | case | tuning: faces found | exact | in doubt | silently wrong "
          "| validation: faces found | exact | in doubt | silently wrong |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for case in CASES:
        for name in names:
            print(f"| {name} | {case} | {_cell(cells[name, case, 'tuning'])} | "
                  f"{_cell(cells.get((name, case, 'validation'), []))} |")
        both = {split: [x for name in names for x in cells.get((name, case, split), [])]
                for split in ("tuning", "validation")}
        print(f"| **all** | {case} | {_cell(both['tuning'])} | {_cell(both['validation'])} |")
    if args.show_failures:
        print("\nTuning misses:")
        for (name, case, split), outcomes in sorted(cells.items()):
            for seed, outcome in outcomes:
                if split == "tuning" and not outcome.exact:
                    kind = "SILENT" if outcome.silent else "doubt"
                    print(f"  {name} | {case} | seed {seed} | {kind} | {outcome.found}/6 | {outcome.note}")
    print(f"\n(total run time {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
