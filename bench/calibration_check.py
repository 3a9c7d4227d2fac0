"""Calibration's face check (qbr/vision/calibration_check.py) on faces of known colour under many lights.

    python bench/calibration_check.py [--seeds 30] [--set margin=12]

Cubes: the real 3x3 scans (tests/data: 10 colour scans, 4 photo sets' measurements; each centre's colour named
by the best distinct assignment to the default palette on the scan as measured) and solved cubes of the six
renderer palettes in the Western scheme, each under the light and camera of tests/synth/augment.py (per-face
exposure and lamp cast 2700-7500 K, gamma, noise, very dark exposures). Seeds whose draw recolours the scan to
another scheme are skipped (its colours' names are unknown then). Tuning seeds 0.., validation seeds 1000.. (only
reported). For each cube the six faces are shown in calibration order (white first): *right face accepted* counts
faces accepted when asked for with the right ones taken before; *wrong face refused* counts, at each step, every
face not yet taken held instead (the faces already taken are refused as too close: the same measurement).
A cube *calibrates* when all six right faces are accepted.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import statistics
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the light augmentation lives with the tests
DATA = ROOT / "tests" / "data"

from synth.augment import TUNING_SEEDS, VALIDATION_SEEDS, augment, solved_cube  # noqa: E402
from synth.palettes import PALETTES  # noqa: E402

from qbr.vision.calibration_check import CalibrationCheck, check_face  # noqa: E402
from qbr.vision.colour import delta_e, srgb_to_lab  # noqa: E402
from qbr.vision.palette import COLOUR_NAMES, DEFAULT_PALETTE  # noqa: E402

FACES = "URFDLB"
Cube = dict[str, np.ndarray]  # colour name -> the face's nine sRGB rows


def _names(centres: np.ndarray) -> list[str]:
    """Each centre's colour: the distinct assignment to the default palette of least total CIEDE2000."""
    cost = delta_e(srgb_to_lab(centres)[:, None, :], DEFAULT_PALETTE.lab()[None, :, :])
    best = min(itertools.permutations(range(6)), key=lambda p: sum(cost[i, p[i]] for i in range(6)))
    return [COLOUR_NAMES[j] for j in best]


def dev_scans() -> list[tuple[str, dict, str, list[str]]]:
    """(name, rgb per face letter, truth facelets, colour name per face in URFDLB order)."""
    found = []
    paths = sorted((DATA / "colour-scans").glob("3x3x3-*.json")) + sorted((DATA / "photos").glob("3x3x3-*/truth.json"))
    for path in paths:
        data = json.loads(path.read_text("utf-8"))
        rgb = data.get("rgb") or data["expected_sticker_rgb"]
        name = path.stem if path.stem != "truth" else path.parent.name
        found.append((name, rgb, data["expected_facelets"], _names(np.array([rgb[f][4] for f in FACES], float))))
    return found


def _swapped(seed: int) -> bool:
    return bool(np.random.default_rng(seed).random() < 0.3)  # augment's first draw: recolour to another scheme


def cubes(seeds: range) -> Iterator[tuple[str, Cube]]:
    for name, rgb, truth, colours in dev_scans():
        for seed in seeds:
            if not _swapped(seed):
                faces = augment(rgb, truth, seed)
                yield name, {colours[i]: faces[f] for i, f in enumerate(FACES)}
    western = {"U": "white", "R": "red", "F": "green", "D": "yellow", "L": "orange", "B": "blue"}
    for palette in PALETTES:
        for seed in seeds[:5]:
            for dark in (False, True):
                faces = solved_cube(palette, "western", seed, dark=dark)
                yield f"solved {palette}{' dark' if dark else ''}", {western[f]: faces[f] for f in FACES}


@dataclasses.dataclass
class Tally:
    cubes: int = 0
    calibrated: int = 0
    right: int = 0
    right_accepted: int = 0
    wrong: int = 0
    wrong_refused: int = 0
    failures: dict[str, int] = dataclasses.field(default_factory=dict)

    def run(self, label: str, cube: Mapping[str, np.ndarray], check: CalibrationCheck) -> None:
        self.cubes += 1
        taken: dict[str, np.ndarray] = {}
        ok = True
        for asked in COLOUR_NAMES:
            for other in COLOUR_NAMES:
                if other == asked or other in taken:
                    continue  # a face already taken held again is refused as too close (tests/app show it)
                self.wrong += 1
                refused = not check_face(asked, cube[other], taken, check).accepted
                self.wrong_refused += refused
                if not refused:
                    key = f"wrong accepted: {other} as {asked}"
                    self.failures[key] = self.failures.get(key, 0) + 1
            self.right += 1
            verdict = check_face(asked, cube[asked], taken, check)
            self.right_accepted += verdict.accepted
            if not verdict.accepted:
                ok = False
                key = f"right refused: {asked} ({verdict.reason} {verdict.other}) {label}"
                self.failures[key] = self.failures.get(key, 0) + 1
                break  # calibration stops here for this user
            taken[asked] = cube[asked][4]
        self.calibrated += ok


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=30, help="light seeds per cube and range")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="override a tunable")
    parser.add_argument("--show-failures", action="store_true")
    args = parser.parse_args(argv)
    check = dataclasses.replace(CalibrationCheck(), **{k: float(v) for k, v in (s.split("=", 1) for s in args.set)})
    print(f"check: {check}\n")
    print("| data | cubes | cubes calibrated | right face accepted | wrong face refused |")
    print("|---|---:|---:|---:|---:|")
    for split, seeds in (("tuning", TUNING_SEEDS[: args.seeds]), ("validation", VALIDATION_SEEDS[: args.seeds])):
        for family in ("real scans", "solved"):
            t = Tally()
            for label, cube in cubes(seeds):
                if label.startswith("solved") == (family == "solved"):
                    t.run(label, cube, check)
            print(f"| {family}, {split} | {t.cubes} | {t.calibrated} ({100 * t.calibrated / t.cubes:.1f}%) | "
                  f"{t.right_accepted}/{t.right} | {t.wrong_refused}/{t.wrong} "
                  f"({100 * t.wrong_refused / t.wrong:.1f}%) |")
            if args.show_failures:
                for key, n in sorted(t.failures.items(), key=lambda kv: -kv[1])[:25]:
                    print(f"    {n:4d}  {key}")
    # What the live loop pays per calibration frame, at the last colour (the most centres to name together).
    taken = {n: np.array(DEFAULT_PALETTE.colours[n]) for n in COLOUR_NAMES[:-1]}
    face = np.tile(np.array(DEFAULT_PALETTE.colours[COLOUR_NAMES[-1]]), (9, 1))
    times = []
    for _ in range(200):
        start = time.perf_counter()
        check_face(COLOUR_NAMES[-1], face, taken, check)
        times.append(time.perf_counter() - start)
    print(f"\ncheck_face with five colours taken: median {1e3 * statistics.median(times):.2f} ms per frame")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
