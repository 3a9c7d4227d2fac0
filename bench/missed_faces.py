"""Faces of rendered TUNING cubes that detection misses, with what was in each photo, saved as PNGs to look at.

    nice -n 10 python bench/missed_faces.py [--family physcam] [--condition hard] [--cubes 30] [--start 0]
        [--jobs 2] [--out /tmp/missed] [--solved]

``--solved``: solved cubes instead, medium scenes, the seeds bench/ablate.py's ``--solved --split tuning`` reads.

Prints one line per face not found in place (seed, face, missed or misplaced, and the photo's params that matter
to detection: sticker size, light, blur, noise, JPEG, background, body) and writes ``<out>/<seed>-<face>.png``.
Tuning seeds only: the validation range is not for looking at (bench/seeds.py).
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from families import CONDITIONS, render  # noqa: E402
from scan_accuracy import detection_matches  # noqa: E402
from seeds import FAMILIES, cube_seeds  # noqa: E402

from qbr.cube.conventions import FACES  # noqa: E402
from qbr.vision.detect import detect_face  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402


def describe(params: object) -> str:
    """The params of one photo that matter to detection, in one line (both families' params objects)."""
    p = params
    s = getattr(p, "sensor", None)
    bits = [f"size {p.sticker_size:.3f}", f"body {p.body}", f"bg {getattr(p, 'background', '-')}"]
    if getattr(p, "palette", None) is not None:
        bits += [f"palette {p.palette}", f"kelvin {p.kelvin:.0f}", f"cast {p.cast:.2f}"]
    if getattr(p, "key_lamp", None) is not None:
        bits += [f"lamps {p.key_lamp}/{p.fill_lamp}", f"wall sat {p.wall_saturation:.2f}"]
    if s is not None:
        bits += [f"photons {s.photons:.0f}", f"exp {s.exposure:.2f}", f"defocus {s.defocus:.1f}",
                 f"motion {s.motion:.1f}", f"jpeg {s.jpeg_quality}", f"glare {p.glare:.1f}",
                 f"clutter {p.clutter:.1f}", f"hand {int(p.hand)}", f"roll {p.roll:.0f}",
                 f"tilt {abs(p.yaw) + abs(p.pitch):.0f}"]
    return ", ".join(bits)


SOLVED = "".join(f * 9 for f in FACES)
SOLVED_SEED_OFFSET = 50_000  # as bench/ablate.py: solved cubes take seeds of their own


def misses(job: tuple[str, str, int, str, bool]) -> list[str]:
    family, condition, seed, out, solved = job
    _, renders, _ = render(family, condition, seed, SOLVED if solved else None)
    lines = []
    for face in FACES:
        shot = renders[face]
        got = detect_face(shot.image, Tunables())
        if got is not None and detection_matches(got, shot.stickers):
            continue
        what = "missed" if got is None else "misplaced"
        cv2.imwrite(str(Path(out) / f"{seed}-{face}.png"), shot.image)
        lines.append(f"{seed} {face} {what}: {describe(shot.params)}")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--family", choices=FAMILIES, default="physcam")
    ap.add_argument("--condition", choices=CONDITIONS, default="hard")
    ap.add_argument("--cubes", type=int, default=30)
    ap.add_argument("--start", type=int, default=0, help="first tuning cube (0-based)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default="/tmp/missed")
    ap.add_argument("--solved", action="store_true", help="solved cubes (medium scenes), as bench/ablate.py --solved")
    a = ap.parse_args()
    Path(a.out).mkdir(parents=True, exist_ok=True)
    condition, offset = ("medium", SOLVED_SEED_OFFSET) if a.solved else (a.condition, 0)
    jobs = [(a.family, condition, s, a.out, a.solved) for s in cube_seeds("tuning", a.cubes, a.start + offset)]
    total = 0
    with ProcessPoolExecutor(a.jobs) as pool:
        for lines in pool.map(misses, jobs):
            total += len(lines)
            for line in lines:
                print(line, flush=True)
    print(f"{total} of {6 * a.cubes} faces not found in place")


if __name__ == "__main__":
    main()
