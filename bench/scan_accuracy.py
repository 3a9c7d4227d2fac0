"""Scan accuracy and speed of qbr's vision against known truth, next to the old app's naive approach.

    nice -n 10 python bench/scan_accuracy.py [--cubes 30] [--jobs 1] [--timing-frames 60] [--timing-repeats 3]
        [--data tests/data] [--no-timing] [--show-failures]

Prints Markdown tables: (1) rendered cubes of both scene families (``tests/synth``, the renderer qbr was tuned on,
and ``tests/physcam``, independent physics) per condition (easy, medium, hard, and dim faces on their own), on the
TUNING and the frozen VALIDATION seed ranges of ``bench/seeds.py`` side by side with the gap, (2) the baselines on
validation, (3) the real scans and photos, (4) per-frame time. A cube with a face not found cannot be resolved
(qbr gives ``?`` for all of it), so "exact when 6/6" separates colour resolution from detection. "faces found"
counts faces detected in place (every sticker centre within 30% of a pitch of the truth); "misplaced" those
detected elsewhere. The baselines use qbr's own detection, so only what comes after it differs:
``naive classify`` = qbr's measurement + nearest palette colour by RGB distance per sticker (the old app);
``naive Lab classify`` = the same with CIEDE2000 distance (qbr's per-face preview, ``classify_face``);
``naive measure+classify`` = the mean of a small patch at each sticker's centre + the same nearest colour.
"faces found, live profile" is how often a single frame shows the face to the camera loop, which runs
``Tunables.for_video()`` (one fallback search; the face is held for many frames). ``--show-failures`` lists
the tuning range's wrong cubes only: the validation range is not for looking at.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the synthetic renderers live with the tests
sys.path.insert(0, str(ROOT / "bench"))

from families import CONDITIONS, render  # noqa: E402
from seeds import FAMILIES, SPLITS, cube_seeds  # noqa: E402
from synth import TIERS, random_colours, render_face, sample_params  # noqa: E402
from synth.scenes import make_background  # noqa: E402

from qbr.app.commands.scan import settle_cube  # noqa: E402
from qbr.cube.conventions import FACES  # noqa: E402
from qbr.vision.classify import classify_face, naive_classify  # noqa: E402
from qbr.vision.detect import FaceDetection, detect_face  # noqa: E402
from qbr.vision.measure import measure_stickers, measure_stickers_with_spread  # noqa: E402
from qbr.vision.palette import DEFAULT_PALETTE  # noqa: E402
from qbr.vision.resolve import resolve_cube  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

TIMING_SEED = 1  # a tuning seed: the timing frames are not for judging accuracy
METHODS = ("qbr", "naive classify", "naive Lab classify", "naive measure+classify")


@dataclass
class Tally:
    """Counts for one method over many cubes."""

    faces: int = 0
    faces_found: int = 0
    facelets: int = 0
    facelets_right: int = 0
    cubes: int = 0
    cubes_right: int = 0
    complete: int = 0
    complete_right: int = 0
    deduced_right: int = 0  # exact with a face not found at all (its stickers deduced from the other five)
    failures: list[str] = field(default_factory=list)

    def add(self, truth: str, got: str, found: int, label: str, lost: int = 0) -> None:
        self.faces += 6
        self.faces_found += found
        self.facelets += 54
        self.facelets_right += sum(a == b for a, b in zip(truth, got, strict=True))
        self.cubes += 1
        if found == 6:
            self.complete += 1
            self.complete_right += got == truth
        if got == truth:
            self.cubes_right += 1
            self.deduced_right += lost > 0
        else:
            self.failures.append(label)


def pct(num: int, den: int) -> str:
    return f"{100.0 * num / den:.1f}" if den else "-"


def ratio(a: int, b: int) -> str:
    if b == 0:
        return "inf" if a else "-"
    return f"{a / b:.2f}"


def centre_patch_rgb(image_bgr: np.ndarray, stickers: np.ndarray) -> np.ndarray:
    """The old app's measurement: mean of a small square at each sticker's centre (no glare or shadow handling)."""
    out = np.empty((9, 3))
    h, w = image_bgr.shape[:2]
    for i, quad in enumerate(np.asarray(stickers, float)):
        cx, cy = quad.mean(axis=0)
        r = max(1, int(0.1 * np.linalg.norm(quad[2] - quad[0])))
        x0, x1 = int(np.clip(cx - r, 0, w - 1)), int(np.clip(cx + r + 1, 1, w))
        y0, y1 = int(np.clip(cy - r, 0, h - 1)), int(np.clip(cy + r + 1, 1, h))
        out[i] = image_bgr[y0:y1, x0:x1].reshape(-1, 3).mean(axis=0)[::-1]
    return out


def naive_letters(names_by_face: Mapping[str, Sequence[str] | None]) -> str:
    """Colour names -> face letters the old way: a colour is the face whose centre was read as that colour."""
    # A face read as a 2x2x2's (four names) has no centre: it is unread, as for a 3x3 cube it is wrong.
    names_by_face = {f: (n if n is not None and len(n) == 9 else None) for f, n in names_by_face.items()}
    centre_of = {}
    for face in FACES:
        names = names_by_face.get(face)
        if names is not None:
            centre_of.setdefault(names[4], face)
    out = []
    for face in FACES:
        names = names_by_face.get(face)
        out.extend("?" * 9 if names is None else (centre_of.get(n, "?") for n in names))
    return "".join(out)


def detection_matches(detection: FaceDetection, truth: np.ndarray) -> bool:
    """All nine detected sticker centres within 30% of a sticker pitch of the truth (a grid of another size: no)."""
    got = np.asarray(detection.stickers, float).mean(axis=1)
    want = truth.astype(float).mean(axis=1)
    if got.shape != want.shape:
        return False  # a 3x3 face taken for a 2x2x2's counts as misplaced
    pitch = float(np.linalg.norm(want[4] - want[3]) + np.linalg.norm(want[4] - want[1])) / 2
    return bool(np.all(np.linalg.norm(got - want, axis=1) < 0.3 * pitch))


@dataclass
class FaceRead:
    detection: FaceDetection | None
    rgb: np.ndarray | None = None
    patch: np.ndarray | None = None
    trust: np.ndarray | None = None  # per sticker, 1 - its spot share (what qbr scan passes)
    own: np.ndarray | None = None  # the stickers' own light, the spot's taken off (what qbr scan resolves)

    @property
    def found(self) -> bool:
        return self.detection is not None


def read_face(image_bgr: np.ndarray, tunables: Tunables) -> FaceRead:
    detection = detect_face(image_bgr, tunables)
    if detection is None:
        return FaceRead(None)
    measured = measure_stickers_with_spread(image_bgr, detection, tunables)
    return FaceRead(detection, measured.rgb, centre_patch_rgb(image_bgr, detection.stickers), 1.0 - measured.spot,
                    measured.own)


def judge_cube(reads: Mapping[str, FaceRead], truth: str, tallies: Mapping[str, Tally], label: str) -> None:
    """Resolve one cube with qbr and the baselines and count the outcome."""
    found = sum(r.found for r in reads.values())
    for method, got in letters_by_method(reads).items():
        tallies[method].add(truth, got, found, label)


@dataclass
class CubeResult:
    """One rendered cube read by qbr and the baselines."""

    truth: str
    got: dict[str, str]  # method -> facelets
    found: int  # faces detected in place
    misplaced: int
    lost: int  # faces not detected at all
    live_found: int
    label: str


def judge_rendered(family: str, condition: str, seed: int) -> CubeResult:
    """Render one cube, read its six photos with the photo and live profiles, resolve it every way."""
    tunables = Tunables()
    live = tunables.for_video()
    truth, renders, label = render(family, condition, seed)
    reads = {}
    misplaced = live_found = found = 0
    for face in FACES:
        read = read_face(renders[face].image, tunables)
        if read.detection is not None:
            placed = detection_matches(read.detection, renders[face].stickers)
            found += placed
            misplaced += not placed
        # The camera loop's profile has one fallback search: how often one video frame shows the face.
        seen_live = detect_face(renders[face].image, live)
        live_found += seen_live is not None and detection_matches(seen_live, renders[face].stickers)
        reads[face] = read
    settle_as_scan(reads, [renders[face].image for face in FACES], tunables)
    return CubeResult(truth, letters_by_method(reads), found, misplaced, 6 - found - misplaced, live_found,
                      f"{condition} {label}")


def settled_faces(images: list[np.ndarray], sizes: Mapping[str, int], rgb: Mapping[str, np.ndarray],
                  tunables: Tunables) -> dict[str, np.ndarray | None]:
    """What ``qbr scan``'s settling of the faces' sizes (``scan.settle_cube``) changes in ``rgb`` (face -> stickers as
    first measured): a face read as a 2x2 grid beside 3x3x3 faces searched again as a 3x3x3's (its stickers as then
    measured), or the one left over left out to be deduced (None)."""
    settled = dict(rgb)
    settle_cube(images, dict(sizes), settled, tunables, None)
    return {f: settled.get(f) for f in rgb if settled.get(f) is not rgb[f]}


def settle_as_scan(reads: dict[str, FaceRead], images: list[np.ndarray], tunables: Tunables) -> None:
    """``reads`` settled as ``qbr scan`` settles them (in place, ``settled_faces``): a face measured again is fully
    trusted. Faces found, misplaced and lost stay as detection first saw them."""
    rgb = {f: r.rgb for f, r in reads.items() if r.rgb is not None}
    sizes = {f: r.detection.size for f, r in reads.items() if r.detection is not None}
    for face, stickers in settled_faces(images, sizes, rgb, tunables).items():
        reads[face] = FaceRead(None, stickers)


def letters_by_method(reads: Mapping[str, FaceRead]) -> dict[str, str]:
    """Facelets as qbr and each baseline read them."""
    resolution = resolve_cube({f: r.own if r.own is not None else r.rgb for f, r in reads.items() if r.rgb is not None},
                              trust={f: r.trust for f, r in reads.items() if r.trust is not None})
    naive = {f: (naive_classify(r.rgb, DEFAULT_PALETTE) if r.rgb is not None else None) for f, r in reads.items()}
    lab = {f: (classify_face(r.rgb, DEFAULT_PALETTE).names if r.rgb is not None else None) for f, r in reads.items()}
    patch = {f: (naive_classify(r.patch, DEFAULT_PALETTE) if r.patch is not None else None) for f, r in reads.items()}
    return {"qbr": resolution.facelets, "naive classify": naive_letters(naive),
            "naive Lab classify": naive_letters(lab), "naive measure+classify": naive_letters(patch)}


@dataclass
class Cell:
    """Tallies of one family x split x condition."""

    methods: dict[str, Tally] = field(default_factory=lambda: {m: Tally() for m in METHODS})
    misplaced: int = 0
    live_found: int = 0


def _judge(job: tuple[str, str, int]) -> CubeResult:
    return judge_rendered(*job)


def rendered(cubes: int, jobs: int) -> dict[tuple[str, str, str], Cell]:
    """Cells for every family, split and condition: ``cubes`` cubes each (seeds from bench/seeds.py)."""
    work = [(family, split, condition, seed) for family in FAMILIES for split in SPLITS for condition in CONDITIONS
            for seed in cube_seeds(split, cubes)]
    args = [(family, condition, seed) for family, _, condition, seed in work]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_judge, args, chunksize=4))
    else:
        results = [_judge(a) for a in args]
    cells: dict[tuple[str, str, str], Cell] = {}
    for (family, split, condition, _), r in zip(work, results, strict=True):
        cell = cells.setdefault((family, split, condition), Cell())
        for method, got in r.got.items():
            cell.methods[method].add(r.truth, got, r.found, r.label, r.lost)
        cell.misplaced += r.misplaced
        cell.live_found += r.live_found
    return cells


def real_scans(data: Path) -> list[tuple[str, bool, bool, bool, int, int, int]]:
    """(name, exact?, facelets right) for qbr, naive RGB and naive Lab, for each 3x3 colour scan."""
    rows = []
    for path in sorted((data / "colour-scans").glob("*.json")):
        scan = json.loads(path.read_text())
        if scan.get("size") != 3:
            continue
        truth = scan["expected_facelets"]
        rgb = {f: np.array(scan["rgb"][f], float) for f in FACES}
        got = resolve_cube(rgb).facelets
        naive = naive_letters({f: naive_classify(rgb[f], DEFAULT_PALETTE) for f in FACES})
        lab = naive_letters({f: classify_face(rgb[f], DEFAULT_PALETTE).names for f in FACES})
        rows.append((path.stem, got == truth, naive == truth, lab == truth,
                     *(sum(a == b for a, b in zip(x, truth, strict=True)) for x in (got, naive, lab))))
    return rows


def real_photos(data: Path, tunables: Tunables) -> tuple[list[tuple[str, dict[str, Tally]]], list[str]]:
    rows = []
    skipped = []
    for folder in sorted(p for p in (data / "photos").iterdir() if p.is_dir()):
        truth_doc = json.loads((folder / "truth.json").read_text())
        if truth_doc.get("size") != 3:
            skipped.append(f"{folder.name} ({truth_doc.get('size')}x{truth_doc.get('size')})")
            continue
        reads = {}
        for face in FACES:
            path = next(folder.glob(f"{face}.*"))
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            reads[face] = read_face(image, tunables)
        tallies = {m: Tally() for m in METHODS}
        judge_cube(reads, truth_doc["expected_facelets"], tallies, folder.name)
        rows.append((folder.name, tallies))
    return rows, skipped


def timing(
    frames: int, seed: int, tunables: Tunables, repeats: int = 3
) -> list[tuple[str, str, str, float, float, float, int]]:
    """Median and p95 ms per frame for detection alone and detection + measurement + classification.

    Both profiles: ``photo`` (every fallback search, what ``qbr scan`` runs) and ``live`` (``for_video()``, what the
    camera loop runs on each frame). All variants run interleaved on each frame, ``repeats`` passes over the frames,
    so a slow spell of this shared machine hits them alike.
    """
    cv2.setNumThreads(1)
    live = tunables.for_video()
    rows = []
    for width, height in ((640, 480), (1920, 1080)):
        rng = np.random.default_rng([seed, width])
        images = []
        attempts = 0
        while len(images) < frames and attempts < frames * 4:
            attempts += 1
            tier = TIERS[attempts % 3]
            r = render_face(random_colours(rng), sample_params(tier, rng, width, height), rng)
            if detect_face(r.image, tunables) is not None:
                images.append(r.image)

        def detect_only(image: np.ndarray, t: Tunables) -> None:
            detect_face(image, t)

        def full(image: np.ndarray, t: Tunables) -> None:
            det = detect_face(image, t)
            if det is not None:
                classify_face(measure_stickers(image, det, t), DEFAULT_PALETTE, t)

        variants = [(profile, name, fn, t) for profile, t in (("photo", tunables), ("live", live))
                    for name, fn in (("detect", detect_only), ("detect+measure+classify", full))]
        times = _times([(fn, t) for _, _, fn, t in variants], images, repeats)
        for (profile, name, _, _), stats in zip(variants, times, strict=True):
            rows.append((f"{width}x{height}", profile, name, *stats, len(images)))
        # Frames without a cube (the cube lowered between faces, a cluttered room): every search comes up empty.
        rooms = [np.ascontiguousarray(make_background(width, height, float(rng.uniform(0.3, 1.0)), rng)[..., ::-1])
                 for _ in range(frames)]
        times = _times([(detect_only, tunables), (detect_only, live)], rooms, repeats)
        for profile, stats in zip(("photo", "live"), times, strict=True):
            rows.append((f"{width}x{height}", profile, "detect, no cube in the frame", *stats, len(rooms)))
    return rows


def _times(
    variants: list[tuple[Callable[[np.ndarray, Tunables], None], Tunables]], images: list[np.ndarray], repeats: int
) -> list[tuple[float, float, float]]:
    """Per variant, wall-clock ms: median and p95 over every run, and the median over frames of each frame's
    fastest run (as ``timeit`` advises: the other runs' extra is the shared machine's doing, not the code's)."""
    if not images:
        return [(float("nan"),) * 3 for _ in variants]
    for image in images[:3]:
        for fn, t in variants:
            fn(image, t)  # warm-up: first calls pay for lazy initialisation
    wall = np.zeros((len(variants), repeats, len(images)))
    for r in range(repeats):
        for i, image in enumerate(images):
            for k, (fn, t) in enumerate(variants):
                start = time.perf_counter()
                fn(image, t)
                wall[k, r, i] = (time.perf_counter() - start) * 1000
    return [(float(np.median(w)), float(np.percentile(w, 95, method="nearest")), float(np.median(w.min(axis=0))))
            for w in wall]


def print_rendered(cells: Mapping[tuple[str, str, str], Cell], cubes: int, show_failures: bool) -> None:
    print(f"## Rendered cubes: tuning vs frozen validation seeds ({cubes} random legal cubes per family, split and "
          "condition, six faces each)\n")
    print("Seeds: tuning from 1, validation from 100000 (bench/seeds.py). Gap = validation - tuning, points.\n")
    print("| family | condition | faces found %: tuning | validation | gap | misplaced: tuning | validation "
          "| cubes exact %: tuning | validation | gap | of them with a face deduced: tuning | validation "
          "| live faces found %: tuning | validation |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for family in FAMILIES:
        for condition in CONDITIONS:
            tu, va = cells[(family, "tuning", condition)], cells[(family, "validation", condition)]
            qt, qv = tu.methods["qbr"], va.methods["qbr"]
            ft, fv = 100 * qt.faces_found / qt.faces, 100 * qv.faces_found / qv.faces
            ct, cv = 100 * qt.cubes_right / qt.cubes, 100 * qv.cubes_right / qv.cubes
            print(f"| {family} | {condition} | {ft:.1f} | {fv:.1f} | {fv - ft:+.1f} | {tu.misplaced} | "
                  f"{va.misplaced} | {ct:.1f} | {cv:.1f} | {cv - ct:+.1f} | {qt.deduced_right} | {qv.deduced_right} | "
                  f"{pct(tu.live_found, qt.faces)} | "
                  f"{pct(va.live_found, qv.faces)} |")
    print("\nOn validation, every method (cubes exact %; the baselines share qbr's detection):\n")
    print("| family | condition | " + " | ".join(METHODS) + " | qbr, when all six faces were found |")
    print("|---|---|" + "---:|" * (len(METHODS) + 1))
    for family in FAMILIES:
        for condition in CONDITIONS:
            m = cells[(family, "validation", condition)].methods
            row = " | ".join(pct(m[k].cubes_right, m[k].cubes) for k in METHODS)
            print(f"| {family} | {condition} | {row} | {pct(m['qbr'].complete_right, m['qbr'].complete)} |")
    if show_failures:
        for family in FAMILIES:
            for condition in CONDITIONS:
                wrong = cells[(family, "tuning", condition)].methods["qbr"].failures
                print(f"\nqbr wrong ({family}, {condition}, tuning): {', '.join(wrong) or 'none'}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cubes", type=int, default=30, help="cubes per family, split and condition (six faces each)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes for the rendered cubes")
    parser.add_argument("--timing-frames", type=int, default=60, help="frames per resolution for the timing table")
    parser.add_argument("--timing-repeats", type=int, default=3, help="passes over those frames (interleaved)")
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1] / "tests" / "data",
                        help="folder with colour-scans/ and photos/ (tests/data holds a copy)")
    parser.add_argument("--no-timing", action="store_true", help="skip the time-per-frame table")
    parser.add_argument("--show-failures", action="store_true", help="list the tuning cubes qbr got wrong")
    args = parser.parse_args(argv)
    if not (args.data / "colour-scans").is_dir():
        args.data = ROOT / "tests" / "data"
    tunables = Tunables()
    cv2.setNumThreads(1)

    started = time.perf_counter()
    print_rendered(rendered(args.cubes, args.jobs), args.cubes, args.show_failures)

    print("\n## Real colour scans (3x3, measured RGB; resolution only)\n")
    print("| scan | qbr exact | naive exact | naive Lab exact | qbr facelets right | naive | naive Lab |")
    print("|---|:---:|:---:|:---:|---:|---:|---:|")
    scans = real_scans(args.data)
    for name, q, n, b, qf, nf, bf in scans:
        print(f"| {name} | {'yes' if q else 'NO'} | {'yes' if n else 'no'} | {'yes' if b else 'no'} | {qf}/54 | "
              f"{nf}/54 | {bf}/54 |")
    totals = " | ".join(f"{sum(r[k] for r in scans)}/{len(scans)}" for k in (1, 2, 3))
    print(f"| **all {len(scans)}** | {totals} | | | |")

    print("\n## Real photo sets (six faces each, robot rig)\n")
    print("| set | method | faces detected | facelets right | exact |")
    print("|---|---|---:|---:|:---:|")
    photos, skipped = real_photos(args.data, tunables)
    for name, tallies in photos:
        for method in METHODS:
            t = tallies[method]
            print(f"| {name} | {method} | {t.faces_found}/6 | {t.facelets_right}/54 | "
                  f"{'yes' if t.cubes_right else 'no'} |")
    if skipped:
        print(f"\nSkipped (not 3x3): {', '.join(skipped)}")

    if args.no_timing:
        print(f"\n(total run time {time.perf_counter() - started:.0f} s)")
        return 0
    print(f"\n## Time per frame (single thread, {args.timing_frames} frames per size and kind, "
          f"{args.timing_repeats} interleaved passes)\n")
    print(f"| frame | profile | stage | median ms | p95 ms | median ms, best of {args.timing_repeats} per frame "
          "| frames |")
    print("|---|---|---|---:|---:|---:|---:|")
    for size, profile, stage, med, p95, best, n in timing(args.timing_frames, TIMING_SEED, tunables,
                                                          args.timing_repeats):
        print(f"| {size} | {profile} | {stage} | {med:.2f} | {p95:.2f} | {best:.2f} | {n} |")
    print(f"\n(total run time {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
