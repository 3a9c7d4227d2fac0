"""Faces found when a photo is changed as neither renderer makes it: other sizes, lens distortion, portrait, fringes.

    nice -n 10 python bench/image_changes.py [--cubes 10] [--families synth,physcam] [--conditions medium,hard]
        [--jobs 1]

Both scene families render 640x480 landscape photos through an ideal pinhole. Cameras people own do not: phones
give 1920x1440 portrait photos, webcams 320x240 or 1280x720, cheap lenses bend straight lines (barrel or pincushion
distortion) and fringe edges with colour (lateral chromatic aberration). Each rendered face (tuning and frozen
validation seeds, ``bench/seeds.py``) is detected as rendered and after each change, its truth moved with it; a face
counts when every sticker centre lies within 30% of a pitch of the truth (photo profile, as ``qbr scan``). Nothing
was tuned on this bench: it only reports whether detection's image-relative sizes hold.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from families import render  # noqa: E402
from scan_accuracy import detection_matches  # noqa: E402
from seeds import FAMILIES, SPLITS, cube_seeds  # noqa: E402

from qbr.vision.detect import detect_face  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

Change = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def _scaled(factor: float) -> Change:
    def change(image: np.ndarray, quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        interpolation = cv2.INTER_CUBIC if factor > 1 else cv2.INTER_AREA
        return cv2.resize(image, None, fx=factor, fy=factor, interpolation=interpolation), quads * factor
    return change


def _radial(k1: float) -> Change:
    """Radial lens distortion r_d = r (1 + k1 r^2) in widths from the centre (k1 < 0 barrel, > 0 pincushion)."""
    def change(image: np.ndarray, quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h, w = image.shape[:2]
        centre = np.array([w / 2, h / 2])
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
        xd, yd = (xs - centre[0]) / w, (ys - centre[1]) / w
        xu, yu = xd.copy(), yd.copy()
        for _ in range(10):  # the undistorted point each output pixel shows, by fixed-point iteration
            scale = 1 + k1 * (xu * xu + yu * yu)
            xu, yu = xd / scale, yd / scale
        out = cv2.remap(image, (xu * w + centre[0]).astype(np.float32), (yu * w + centre[1]).astype(np.float32),
                        cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        p = (quads - centre) / w
        moved = p * (1 + k1 * (p ** 2).sum(axis=-1, keepdims=True)) * w + centre
        return out, moved
    return change


def _portrait(image: np.ndarray, quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h = image.shape[0]
    turned = quads.copy()
    turned[..., 0], turned[..., 1] = h - 1 - quads[..., 1], quads[..., 0]
    return np.ascontiguousarray(np.rot90(image, -1)), turned


def _fringes(image: np.ndarray, quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lateral chromatic aberration: red magnified and blue shrunk by 0.4% about the centre."""
    h, w = image.shape[:2]
    out = image.copy()
    for channel, scale in ((2, 1.004), (0, 0.996)):
        matrix = cv2.getRotationMatrix2D((w / 2, h / 2), 0, scale)
        out[..., channel] = cv2.warpAffine(image[..., channel], matrix, (w, h), borderMode=cv2.BORDER_REFLECT)
    return out, quads


CHANGES: dict[str, Change] = {
    "as rendered (640x480)": lambda image, quads: (image, quads),
    "2x larger (1280x960)": _scaled(2.0),
    "3x larger (1920x1440)": _scaled(3.0),
    "half size (320x240)": _scaled(0.5),
    "barrel distortion (k1 -0.25)": _radial(-0.25),
    "pincushion distortion (k1 +0.15)": _radial(0.15),
    "portrait (turned a quarter)": _portrait,
    "colour fringes (0.4%)": _fringes,
}


def _found_in_place(detection: object, quads: np.ndarray) -> bool:
    """In place whatever sticker order (a portrait photo lists them turned): each centre near a true one."""
    if detection is None:
        return False
    if detection_matches(detection, quads):
        return True
    got = np.asarray(detection.stickers, float).mean(axis=1)
    want = quads.astype(float).mean(axis=1)
    if got.shape != want.shape:
        return False
    pitch = float(np.linalg.norm(want[4] - want[3]) + np.linalg.norm(want[4] - want[1])) / 2
    nearest = np.linalg.norm(got[:, None] - want[None], axis=2).min(axis=1)
    return bool(np.all(nearest < 0.3 * pitch))


def _read(job: tuple[str, str, str, int]) -> tuple[str, str, str, dict[str, tuple[int, int]]]:
    family, condition, split, seed = job
    _, faces, _ = render(family, condition, seed)
    tunables = Tunables()
    counts: dict[str, tuple[int, int]] = {}
    for shot in faces.values():
        for name, change in CHANGES.items():
            image, quads = change(shot.image, np.asarray(shot.stickers, np.float64))
            found = _found_in_place(detect_face(np.ascontiguousarray(image), tunables), quads)
            got, total = counts.get(name, (0, 0))
            counts[name] = (got + found, total + 1)
    return family, condition, split, counts


def _jobs(families: list[str], conditions: list[str], cubes: int) -> Iterator[tuple[str, str, str, int]]:
    for family in families:
        for condition in conditions:
            for split in SPLITS:
                for seed in cube_seeds(split, cubes):
                    yield family, condition, split, seed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cubes", type=int, default=10, help="cubes (six faces each) per family, condition, split")
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--conditions", default="medium,hard")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    families, conditions = args.families.split(","), args.conditions.split(",")
    totals: dict[tuple[str, str, str, str], list[int]] = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for family, condition, split, counts in pool.map(_read, _jobs(families, conditions, args.cubes)):
            for name, (got, total) in counts.items():
                cell = totals.setdefault((family, condition, name, split), [0, 0])
                cell[0] += got
                cell[1] += total
    print("| family | condition | photo | faces found: tuning | validation |")
    print("|---|---|---|---:|---:|")
    for family in families:
        for condition in conditions:
            for name in CHANGES:
                cells = [totals[(family, condition, name, split)] for split in SPLITS]
                shown = " | ".join(f"{100 * got / total:.1f}% ({got}/{total})" for got, total in cells)
                print(f"| {family} | {condition} | {name} | {shown} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
