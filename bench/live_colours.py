"""Live per-face colour naming (detect -> measure -> classify_face, default palette, no calibration) against truth,
named as the live app names a frame (``qbr.app.analysis``: with each sticker's glare and spot shares and
its samples' spread).

    python bench/live_colours.py [--faces 30] [--jobs 2] [--palette FILE] [--show-failures]
                                  [--phone DIR] [--phone-cameras 20] [--label-crops DIR]
                                  [--cache DIR] [--set FIELD=VALUE] [--sure 0.5] [--show-sure-wrong]
                                  [--tier medium]

Real: the handheld phone photos of ``tests/data/phone-faces`` (a copy of ``../shared/data/phone-faces``;
labels.json: each sticker's box and colour); each detected sticker's centre is matched to the labelled box
containing it (three label errors, checked by eye, are corrected in ``LABEL_FIXES``). Reported for all 36, for
each phone (iPhone ``IMG_*``, Pixel ``PXL_*``) and for the tuning and validation halves (every other photo of each
phone, sorted by name: rules and the palette are tuned on the first half only).
Rendered: single medium-tier faces (``--tier``: easy or hard instead) from ``tests/synth`` (every palette) and
``tests/physcam``, tuning and validation seeds (bench/seeds.py); a face counts when detected in place (every centre
within 30% of a pitch).
Other phones and rooms: each half of the phone photos as ``--phone-cameras`` other phones in other rooms would
have taken them (``tests/synth/camera.py``: lamp cast partly corrected, colour matrix, exposure, tone curve, noise,
JPEG), the tuning half with that module's TUNING seeds, the validation half with its VALIDATION seeds.
Real webcam scans: every face of dwalton76's measured colour scans and rig photos (detected and measured here),
its truth the cube's letters named by the colours its six centres are jointly given against the default palette.
Prints faces with all nine right, sticker accuracy, orange read as red, and the confusion matrix (truth rows).
Then what the preview shows (a sticker is shown sure at confidence ``--sure`` or more, the session's
``unsure_below``): stickers wrong but shown sure (all, and oranges read as red / reds read as orange), stickers right
but shown unsure, and faces with no sticker wrong and sure. ``--cache``: the measured faces are kept there for
reruns (detecting and measuring, and the other cameras, are the slow part; naming is redone each run); ``--set``
changes a naming tunable (``qbr.vision.tunables.Tunables``) for the run. ``--show-sure-wrong``: the sure but wrong
stickers of the tuning rows with their confidence.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the renderers live with the tests
sys.path.insert(0, str(ROOT / "bench"))

import physcam  # noqa: E402
import synth  # noqa: E402
from scipy.optimize import linear_sum_assignment  # noqa: E402
from seeds import cube_seeds, scene_rng  # noqa: E402
from set_tunables import with_set  # noqa: E402
from synth.camera import TUNING_SEEDS as CAMERA_TUNING  # noqa: E402
from synth.camera import VALIDATION_SEEDS as CAMERA_VALIDATION  # noqa: E402
from synth.camera import other_camera  # noqa: E402

from qbr.app.session.config import SessionConfig  # noqa: E402
from qbr.cube.conventions import FACES  # noqa: E402
from qbr.vision.classify import FaceColours, classify_face  # noqa: E402
from qbr.vision.colour import delta_e, srgb_to_lab  # noqa: E402
from qbr.vision.detect import detect_face  # noqa: E402
from qbr.vision.measure import StickerColours, measure_stickers_with_spread  # noqa: E402
from qbr.vision.palette import COLOUR_NAMES, DEFAULT_PALETTE, Palette  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

PHONE_FACES = ROOT / "tests" / "data" / "phone-faces"  # a copy of ../shared/data/phone-faces (CC BY 4.0)
COLOUR_SCANS = ROOT / "tests" / "data" / "colour-scans"  # dwalton76's measured cubes (MIT)
RIG_PHOTOS = ROOT / "tests" / "data" / "photos"  # dwalton76's robot-rig photos (MIT)
TIERS = ("easy", "medium", "hard")  # --tier; medium is the must-show's (a job names another tier as its 5th item)
BASE = [DEFAULT_PALETTE]  # the palette named with (--palette replaces it)
SURE = [SessionConfig().unsure_below]  # the preview shows a sticker sure at this confidence or more (--sure)
T = TypeVar("T")
_ORANGE, _RED = COLOUR_NAMES.index("orange"), COLOUR_NAMES.index("red")
# Hand-label errors found by eye (crops of the face box): (photo, index in labels.json's list) -> the right colour.
LABEL_FIXES = {
    ("IMG_0976.jpg", 8): "white",  # the centre: a white logo sticker, labelled orange (the face has no orange there)
    ("PXL_20221103_100340307-MP.jpg", 6): "yellow",  # bottom row left: plainly yellow, labelled red
    ("PXL_20221103_100340307-MP.jpg", 7): "yellow",  # bottom row middle: plainly yellow, labelled red
}


@dataclass
class Tally:
    """Faces and stickers named right, with the confusion matrix (rows truth, columns named)."""

    faces: int = 0
    faces_right: int = 0
    missed: int = 0
    stickers: int = 0
    stickers_right: int = 0
    confusion: np.ndarray = field(default_factory=lambda: np.zeros((6, 6), dtype=int))
    sure_confusion: np.ndarray = field(default_factory=lambda: np.zeros((6, 6), dtype=int))
    """Stickers shown sure (confidence >= SURE), rows truth, columns named."""
    right_unsure: int = 0
    faces_clean: int = 0
    """Faces with no sticker both wrong and shown sure."""
    failures: list[str] = field(default_factory=list)
    sure_wrong_lines: list[str] = field(default_factory=list)

    def add(self, truth: Sequence[str], got: Sequence[str], label: str,
            confidence: Sequence[float] | None = None) -> None:
        self.faces += 1
        right = [a == b for a, b in zip(truth, got, strict=True)]
        self.faces_right += all(right)
        self.stickers += len(right)
        self.stickers_right += sum(right)
        sure = [True] * len(right) if confidence is None else [float(c) >= SURE[0] for c in confidence]
        for a, b, s in zip(truth, got, sure, strict=True):
            self.confusion[COLOUR_NAMES.index(a), COLOUR_NAMES.index(b)] += 1
            self.sure_confusion[COLOUR_NAMES.index(a), COLOUR_NAMES.index(b)] += s
        self.right_unsure += sum(r and not s for r, s in zip(right, sure, strict=True))
        self.faces_clean += not any(s and not r for r, s in zip(right, sure, strict=True))
        if not all(right):
            wrong = ", ".join(f"{k}:{a}->{b}" for k, (a, b) in enumerate(zip(truth, got, strict=True)) if a != b)
            self.failures.append(f"{label}: {wrong}")
        if confidence is not None and any(s and not r for r, s in zip(right, sure, strict=True)):
            wrong = ", ".join(f"{k}:{a}->{b} {float(c):.2f}" for k, (a, b, c) in
                              enumerate(zip(truth, got, confidence, strict=True)) if a != b and c >= SURE[0])
            self.sure_wrong_lines.append(f"{label}: {wrong}")

    @property
    def orange_as_red(self) -> int:
        return int(self.confusion[COLOUR_NAMES.index("orange"), COLOUR_NAMES.index("red")])

    @property
    def sure_wrong(self) -> int:
        return int(self.sure_confusion.sum() - np.trace(self.sure_confusion))


def phone_reads(folder: Path, tunables: Tunables, seed: int | None = None, photos: Sequence[str] | None = None,
                ) -> list[tuple[str, StickerColours | None, list[str] | None]]:
    """(photo name, the nine stickers measured in the detector's order or None, their labelled colour names).

    ``seed``: each photo as the phone and room of that seed would have taken it (``synth.camera``); ``photos``:
    only these.
    """
    labels = json.loads((folder / "labels.json").read_text())
    out = []
    for name in sorted(labels):
        if photos is not None and name not in photos:
            continue
        image = cv2.imread(str(folder / name))
        if image is not None and seed is not None:
            image = other_camera(image, seed)
        stickers = labels[name]["stickers"]
        detection = detect_face(image, tunables) if image is not None else None
        if detection is None:
            out.append((name, None, None))
            continue
        measured = measure_stickers_with_spread(image, detection, tunables)
        centres = detection.sticker_centres()
        # Each labelled box takes the detected sticker whose centre it contains (the nearest if several).
        order = []
        for sticker in stickers:
            x, y, w, h = sticker["bbox"]
            inside = [(float(np.hypot(*(c - (x + w / 2, y + h / 2)))), k) for k, c in enumerate(centres)
                      if x <= c[0] <= x + w and y <= c[1] <= y + h]
            order.append(min(inside)[1] if inside else -1)
        if -1 in order or len(set(order)) != 9:
            out.append((name, None, None))
            continue
        # Keep the detector's row-major order (the classifier reads the centre as sticker 4).
        truth = [""] * 9
        for index, (sticker, k) in enumerate(zip(stickers, order, strict=True)):
            truth[k] = LABEL_FIXES.get((name, index), sticker["colour"])
        out.append((name, measured, truth))
    return out


def write_label_crops(folder: Path, out: Path) -> None:
    """Each corrected label's sticker box (and a margin of half a box around it) as a PNG, listed with its fix."""
    labels = json.loads((folder / "labels.json").read_text())
    out.mkdir(parents=True, exist_ok=True)
    for (photo, index), colour in sorted(LABEL_FIXES.items()):
        sticker = labels[photo]["stickers"][index]
        x, y, w, h = (round(v) for v in sticker["bbox"])
        image = cv2.imread(str(folder / photo))
        crop = image[max(y - h // 2, 0): y + h + h // 2, max(x - w // 2, 0): x + w + w // 2]
        path = out / f"{Path(photo).stem}-{index}.png"
        cv2.imwrite(str(path), cv2.resize(crop, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST))
        print(f"- {photo} sticker {index}: labelled {sticker['colour']}, is {colour}: {path}")


def _in_place(detection: object, truth: np.ndarray) -> np.ndarray | None:
    """For each truth sticker the detected index within 30% of a pitch, or None when the face is misplaced."""
    got = np.asarray(detection.stickers, float).mean(axis=1)  # type: ignore[attr-defined]
    want = truth.astype(float).mean(axis=1)
    pitch = float(np.linalg.norm(want[4] - want[3]) + np.linalg.norm(want[4] - want[1])) / 2
    gaps = np.linalg.norm(want[:, None, :] - got[None, :, :], axis=2)
    nearest = gaps.argmin(axis=1)
    if len(set(nearest.tolist())) != 9 or not np.all(gaps.min(axis=1) < 0.3 * pitch):
        return None
    return nearest


def rendered_read(job: tuple[str, str, str, int] | tuple[str, str, str, int, str]
                  ) -> tuple[str, str, str, int, StickerColours | None, tuple[str, ...]]:
    """Render one face and measure it: (family, palette, split, seed, stickers in detected order or None, truth).

    ``job``: (family, palette, split, seed), a medium face, or with a tier after them."""
    family, palette, split, seed, *rest = job
    tier = rest[0] if rest else "medium"
    tunables = Tunables()
    rng = scene_rng(seed, family, TIERS.index(tier))
    colours = synth.random_colours(rng)
    if family == "synth":
        shot = synth.render_face(colours, synth.sample_params(tier, rng, palette=palette), rng)
    else:
        shot = physcam.render_face(colours, physcam.sample_params(tier, rng), rng)
    detection = detect_face(shot.image, tunables)
    where = None if detection is None or detection.size != 3 else _in_place(detection, shot.stickers)
    if where is None:
        return family, palette, split, seed, None, shot.colours
    measured = measure_stickers_with_spread(shot.image, detection, tunables)
    truth = [""] * 9
    for k, index in enumerate(where.tolist()):
        truth[index] = shot.colours[k]
    return family, palette, split, seed, measured, tuple(truth)


def camera_read(job: tuple[str, str, int]
                ) -> tuple[str, int, list[tuple[str, StickerColours | None, list[str] | None]]]:
    """One phone-faces half (``job``: folder, split, camera seed) through ``synth.camera.other_camera``."""
    folder, split, seed = job
    path = Path(folder)
    names = sorted(json.loads((path / "labels.json").read_text()))
    half = [n for n in names if phone_split(n, names) == split]
    return split, seed, phone_reads(path, Tunables(), seed, half)


def camera_jobs(folder: Path, seeds: int) -> list[tuple[str, str, int]]:
    """Each half with its own camera seeds: tuning photos x TUNING seeds, validation photos x VALIDATION seeds."""
    return ([(str(folder), "tuning", s) for s in CAMERA_TUNING[:seeds]]
            + [(str(folder), "validation", s) for s in CAMERA_VALIDATION[:seeds]])


def rendered_jobs(faces: int, tier: str = "medium") -> list[tuple]:
    jobs: list[tuple] = []
    more = () if tier == "medium" else (tier,)
    for split in ("tuning", "validation"):
        for palette in synth.PALETTES:
            jobs += [("synth", palette, split, s, *more) for s in cube_seeds(split, faces)]
        jobs += [("physcam", "physcam", split, s, *more) for s in cube_seeds(split, faces * 2)]
    return jobs


def colours_of(measured: StickerColours | np.ndarray) -> np.ndarray:
    """A face's measured sRGB rows (a colour scan's bare RGB is all there is of it)."""
    return measured if isinstance(measured, np.ndarray) else measured.rgb


def name(measured: StickerColours | np.ndarray, tunables: Tunables) -> FaceColours:
    """The names the live preview shows (``qbr.app.analysis``); a colour scan's bare RGB has no glare measured."""
    if isinstance(measured, np.ndarray):
        return classify_face(measured, BASE[0], tunables)
    return classify_face(measured.rgb, BASE[0], tunables, glare=measured.glare, spot=measured.spot,
                         spread=measured.spread)


def cached(cache: Path | None, kind: str, job: object, read: Callable[[object], T]) -> T:
    """``read(job)``, kept in ``cache`` (a pickle per job) when given: measuring is the slow part, naming is not."""
    if cache is None:
        return read(job)
    path = cache / f"{kind}-{hashlib.sha1(repr(job).encode()).hexdigest()[:16]}.pkl"
    if path.is_file():
        return pickle.loads(path.read_bytes())
    out = read(job)
    cache.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(out))
    return out


def _cached_camera(args: tuple[Path | None, tuple[str, str, int]]) -> tuple[str, int, list]:
    return cached(args[0], "camera-measured", args[1], camera_read)  # type: ignore[arg-type]


def _cached_rendered(args: tuple[Path | None, tuple[str, str, str, int]]) -> tuple:
    return cached(args[0], "rendered-measured", args[1], rendered_read)  # type: ignore[arg-type]


def phone_split(photo: str, photos: Sequence[str]) -> str:
    """Every other photo of each phone (sorted by name) is tuning, the rest validation: both phones in both."""
    same_phone = sorted(p for p in photos if p[:3] == photo[:3])
    return "tuning" if same_phone.index(photo) % 2 == 0 else "validation"


Session = list[tuple[StickerColours | np.ndarray | None, tuple[str, ...]]]  # per face, URFDLB: measured, truth


def _names_by_centre(centres: np.ndarray) -> list[str]:
    """The colour name of each of six centres (sRGB), assigned jointly against the default palette."""
    cost = delta_e(srgb_to_lab(centres)[:, None, :], DEFAULT_PALETTE.lab()[None, :, :])
    _, cols = linear_sum_assignment(cost)
    return [COLOUR_NAMES[c] for c in cols.tolist()]


def real_sessions(tunables: Tunables) -> dict[str, Session]:
    """dwalton76's 3x3 cubes: measured colour scans and rig photos (detected and measured here), faces URFDLB."""
    out: dict[str, Session] = {}
    for path in sorted(COLOUR_SCANS.glob("3x3x3-*.json")):
        data = json.loads(path.read_text())
        rgb = [np.asarray(data["rgb"][f], float) for f in FACES]
        out[f"scan {path.stem}"] = labelled(rgb, data["expected_facelets"])
    for folder in sorted(p.parent for p in RIG_PHOTOS.glob("3x3x3-*/truth.json")):
        truth = json.loads((folder / "truth.json").read_text())
        rgb = []
        for face in FACES:
            (path,) = [p for p in folder.iterdir() if p.stem == face]
            image = cv2.imread(str(path))
            detection = detect_face(image, tunables)
            rgb.append(None if detection is None else measure_stickers_with_spread(image, detection, tunables))
        out[f"rig {folder.name}"] = labelled(rgb, truth["expected_facelets"])
    return out


def labelled(rgb: Sequence[StickerColours | np.ndarray | None], facelets: str) -> Session:
    known = [colours_of(r) for r in rgb if r is not None]
    if len(known) < 6:
        return [(None, ("white",) * 9) for _ in rgb]
    colour = dict(zip(FACES, _names_by_centre(np.array([r[4] for r in known])), strict=True))
    return [(r, tuple(colour[x] for x in facelets[9 * i: 9 * i + 9])) for i, r in enumerate(rgb)]


def print_tally(label: str, t: Tally) -> None:
    pct = 100.0 * t.stickers_right / max(t.stickers, 1)
    print(f"| {label} | {t.faces_right}/{t.faces} | {t.missed} | {pct:.1f}% | {t.orange_as_red} |")


def print_sureness(tallies: dict[str, Tally]) -> None:
    """What the preview shows: wrong names shown sure, right names shown unsure, faces with no sure wrong name."""
    print(f"\nShown sure at confidence >= {SURE[0]:g}:\n")
    print("| data | sure but wrong | sure orange->red | sure red->orange | right but unsure | faces no sure wrong |")
    print("|---|---:|---:|---:|---:|---:|")
    for key, t in tallies.items():
        if t.faces:
            right = t.stickers_right
            print(f"| {key} | {t.sure_wrong}/{t.stickers} | {t.sure_confusion[_ORANGE, _RED]} "
                  f"| {t.sure_confusion[_RED, _ORANGE]} | {t.right_unsure}/{right} | {t.faces_clean}/{t.faces} |")


def print_failures(groups: Iterable[tuple[str, Sequence[str]]]) -> None:
    """Each group's failure lines under its title (groups without failures print nothing)."""
    for title, lines in groups:
        if lines:
            print(f"\n{title} failures:")
            for line in lines:
                print(f"- {line}")


def print_confusion(label: str, t: Tally) -> None:
    print(f"\n{label}: confusion (rows truth, columns named)\n")
    print("| truth \\ named | " + " | ".join(COLOUR_NAMES) + " |")
    print("|---|" + "---:|" * 6)
    for i, n in enumerate(COLOUR_NAMES):
        print(f"| {n} | " + " | ".join(str(v) for v in t.confusion[i]) + " |")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phone", type=Path, default=PHONE_FACES, help="folder of phone-faces (labels.json)")
    parser.add_argument("--faces", type=int, default=30,
                        help="rendered faces per synth palette and split (physcam: twice as many)")
    parser.add_argument("--tier", choices=TIERS, default="medium", help="the rendered faces' tier")
    parser.add_argument("--phone-cameras", type=int, default=20,
                        help="other-camera seeds per phone-faces half (synth.camera; 0: none)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--palette", type=Path, help="name with this palette (qbr-palette JSON), not the default")
    parser.add_argument("--show-failures", action="store_true")
    parser.add_argument("--label-crops", type=Path, help="write a crop of each corrected label's sticker here")
    parser.add_argument("--cache", type=Path, help="keep the measured faces here for reruns")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="name with this Tunables field changed (repeatable)")
    parser.add_argument("--sure", type=float, default=SURE[0], help="confidence from which a name is shown sure")
    parser.add_argument("--show-sure-wrong", action="store_true",
                        help="list the tuning rows' stickers wrong but shown sure")
    args = parser.parse_args(argv)
    SURE[0] = args.sure
    if args.label_crops:
        write_label_crops(args.phone, args.label_crops)
    if args.palette:
        BASE[0] = Palette.from_json(json.loads(args.palette.read_text(encoding="utf-8")))
    tunables = Tunables()
    tunables = with_set(tunables, args.set)
    tallies: dict[str, Tally] = {}
    print("| data | faces all right | not detected | stickers right | orange->red |")
    print("|---|---:|---:|---:|---:|")
    if (args.phone / "labels.json").is_file():
        phone = {"phone-faces (all)": Tally(), "  iPhone IMG_*": Tally(), "  Pixel PXL_*": Tally(),
                 "  tuning half": Tally(), "  validation half": Tally()}
        reads = phone_reads(args.phone, tunables)
        photos = [photo for photo, _, _ in reads]
        for photo, rgb, truth in reads:
            for key in ("phone-faces (all)", "  iPhone IMG_*" if photo.startswith("IMG") else "  Pixel PXL_*",
                        f"  {phone_split(photo, photos)} half"):
                if rgb is None or truth is None:
                    phone[key].missed += 1
                else:
                    named = name(rgb, tunables)
                    phone[key].add(truth, named.names, photo, named.confidence)
        if args.phone_cameras > 0:
            phone["  other cameras, tuning"] = Tally()
            phone["  other cameras, validation"] = Tally()
            with ProcessPoolExecutor(args.jobs) as pool:
                jobs = [(args.cache, job) for job in camera_jobs(args.phone, args.phone_cameras)]
                for split, seed, faces in pool.map(_cached_camera, jobs):
                    t = phone[f"  other cameras, {split}"]
                    for photo, rgb, truth in faces:
                        if rgb is None or truth is None:
                            t.missed += 1
                        else:
                            named = name(rgb, tunables)
                            t.add(truth, named.names, f"{photo} camera {seed}", named.confidence)
        for key, t in phone.items():
            print_tally(key, t)
        tallies.update(phone)
    else:
        print(f"| phone-faces: {args.phone} not found | | | | |")
    rendered: dict[str, Tally] = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        jobs = [(args.cache, job) for job in rendered_jobs(args.faces, args.tier)]
        for family, palette, split, seed, rgb, truth in pool.map(_cached_rendered, jobs, chunksize=4):
            for key in (f"{family} {split}", f"  {palette} {split}" if family == "synth" else None):
                if key is None:
                    continue
                t = rendered.setdefault(key, Tally())
                if rgb is None:
                    t.missed += 1
                else:
                    named = name(rgb, tunables)
                    t.add(truth, named.names, f"{family} {palette} seed {seed}", named.confidence)
    for key in sorted(rendered, key=lambda k: (k.strip().split()[-1], k.startswith(" "), k)):
        print_tally(f"{key} ({args.tier})", rendered[key])
    tallies.update(rendered)
    scans: dict[str, Tally] = {}
    for label, faces in real_sessions(tunables).items():
        t = scans.setdefault("dwalton76 colour scans" if label.startswith("scan") else "dwalton76 rig photos", Tally())
        for rgb, truth in faces:
            if rgb is None:
                t.missed += 1
            else:
                named = name(rgb, tunables)
                t.add(truth, named.names, label, named.confidence)
    for key, t in scans.items():
        print_tally(key, t)
    tallies.update(scans)
    print_sureness(tallies)
    for key in ("phone-faces (all)", "  other cameras, tuning", "  other cameras, validation", "synth validation",
                "physcam validation"):
        if key in tallies:
            print_confusion(key.strip(), tallies[key])
    if args.show_failures:
        # Other cameras: the tuning half's only (the validation seeds are frozen: only their figures are reported).
        print_failures((key.strip(), t.failures) for key, t in tallies.items()
                       if not key.startswith(" ") or key == "  other cameras, tuning")
    if args.show_sure_wrong:
        # Tuning rows only: the validation rows' stickers are frozen (their counts are reported above).
        print_failures((f"{key.strip()} sure-but-wrong", t.sure_wrong_lines) for key, t in tallies.items()
                       if "tuning" in key or key.startswith("dwalton76"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
