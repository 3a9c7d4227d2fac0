"""Colour resolution alone on rendered cubes, in a minute: each cube's photos are rendered and detected once (cached),
then measured and resolved with the code as it is now, so a change to measurement or resolution is judged on many
cubes without re-rendering them (the full scan bench takes ~17 minutes on this machine).

    nice -n 10 python bench/colour_reads.py [--family physcam] [--condition hard] [--split tuning] [--cubes 90]
        [--start 0] [--jobs 2] [--cache /tmp/qbr-colour-reads] [--misses] [--all]

Counts the cubes whose six faces were all detected in place (``scan_accuracy``'s test) and how many of them qbr
resolves exactly; ``--all``: also every cube as ``qbr scan`` reads it (faces settled as it settles them, a face not
found deduced). On the tuning split it also names each wrong cube's seed and says whether the whole-cube judge
(``qbr.vision.resolve.judge``) scores the true colouring better than the one found (*search*: the descents did not
reach it) or not (*model*: the measurements, as judged, favour the wrong cube), and whether the wrong cube was
reported in doubt (a sticker in doubt or uncertain, or no valid cube) or given *silently*; ``--misses`` lists each
wrong sticker of those cubes: truth and given colour, its confidence, the shares ``spot``, ``glare`` and ``clipped``,
``paled``, its measured RGB and, where a spot's light was taken off, its own (``StickerColours.own``). The
validation split prints counts only: it is for reporting, not for looking at (bench/seeds.py). The cache is keyed by
the sources of detection, the tunables and both renderers, so it is rebuilt when any of them changes.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import pickle
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from families import CONDITIONS, render  # noqa: E402
from judged_miss import miss_kind  # noqa: E402
from scan_accuracy import detection_matches, settled_faces  # noqa: E402
from seeds import FAMILIES, SPLITS, cube_seeds  # noqa: E402

from qbr.cube.conventions import FACES, facelet_name  # noqa: E402
from qbr.vision.detect import detect_face  # noqa: E402
from qbr.vision.measure import StickerColours, measure_stickers_with_spread  # noqa: E402
from qbr.vision.resolve import Resolution, resolve_cube  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

CACHE_FORMAT = b"3"  # 3: qbr scan's settling of the faces' sizes kept; 2: the detection moved with its crop
KEYED = ("qbr/vision/detect", "qbr/vision/tunables.py", "tests/physcam", "tests/synth", "bench/families.py",
         "bench/seeds.py", "qbr/app/commands/scan.py")


def _sources_key() -> str:
    """A hash of every source the cached reads depend on (detection, tunables, the renderers)."""
    digest = hashlib.sha256(CACHE_FORMAT)
    for name in KEYED:
        path = ROOT / name
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(file.read_bytes())
    return digest.hexdigest()[:12]


def _read(job: tuple[str, str, int]) -> tuple[str, dict[str, Any], dict[str, np.ndarray | None]]:
    """One cube rendered and detected: truth, per face the detection with the crop it covers (or None), and what
    ``qbr scan``'s settling of the faces' sizes changes (``scan.settle_cube``: a face read as a 2x2 grid beside
    3x3x3 faces searched again as a 3x3x3's, its stickers as then measured; None: left out, deduced)."""
    family, condition, seed = job
    cv2.setNumThreads(1)
    truth, renders, _ = render(family, condition, seed)
    faces: dict[str, Any] = {}
    images = [renders[face].image for face in FACES]
    first: dict[str, np.ndarray] = {}
    sizes: dict[str, int] = {}
    for face, image in zip(FACES, images, strict=True):
        detection = detect_face(image, Tunables())
        if detection is None:
            faces[face] = None
            continue
        sizes[face] = detection.size
        first[face] = np.zeros((detection.size ** 2, 3))  # a stand-in: only whether settling replaces it counts
        corners = np.asarray(detection.stickers, float).reshape(-1, 2)
        x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 2, 0)
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 3
        crop = np.ascontiguousarray(image[y0:y1, x0:x1])
        # Every pixel position the detection holds moves with the crop (the spot's share reads the gaps by its
        # homography).
        shift = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]])
        moved = dataclasses.replace(detection, stickers=np.asarray(detection.stickers, float) - (x0, y0),
                                    outline=np.asarray(detection.outline, float) - (x0, y0),
                                    homography=shift @ np.asarray(detection.homography, float))
        faces[face] = (crop, moved, detection_matches(detection, renders[face].stickers))
    return truth, faces, settled_faces(images, sizes, first, Tunables())


def cached_reads(family: str, condition: str, seeds: range, jobs: int, cache: Path,
                 ) -> list[tuple[int, str, dict, dict]]:
    """(seed, truth, faces, settled) per cube, rendered and detected once per version of the sources."""
    folder = cache / _sources_key()
    folder.mkdir(parents=True, exist_ok=True)
    missing = [s for s in seeds if not (folder / f"{family}-{condition}-{s}.pkl").exists()]
    if missing:
        with ProcessPoolExecutor(jobs) as pool:
            for seed, read in zip(missing, pool.map(_read, [(family, condition, s) for s in missing]), strict=True):
                (folder / f"{family}-{condition}-{seed}.pkl").write_bytes(pickle.dumps(read))
    return [(s, *pickle.loads((folder / f"{family}-{condition}-{s}.pkl").read_bytes())) for s in seeds]


def silent(result: Resolution, truth: str) -> bool:
    """Wrong, yet a valid cube with nothing in doubt or uncertain (``bench/resolve_accuracy.py``'s test)."""
    return result.facelets != truth and result.valid and not result.uncertain and result.doubt is None


def miss_lines(truth: str, result: Resolution, measured: dict[str, StickerColours]) -> list[str]:
    """One line per wrong sticker: where, truth -> given colour, confidence, glare measures and the measured RGB."""
    lines = []
    for i, (want, got) in enumerate(zip(truth, result.facelets, strict=True)):
        if want == got:
            continue
        m = measured[FACES[i // 9]]
        k = i % 9
        r, g, b = m.rgb[k]
        own = "" if np.allclose(m.own[k], m.rgb[k]) else " own ({:.0f}, {:.0f}, {:.0f})".format(*m.own[k])
        lines.append(f"  {facelet_name(i)} {want}->{got} conf {result.confidence[i]:.2f} spot {m.spot[k]:.2f} "
                     f"glare {m.glare[k]:.2f} clipped {m.clipped[k]:.2f}{' paled' if m.paled[k] else ''} "
                     f"rgb ({r:.0f}, {g:.0f}, {b:.0f}){own}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--family", choices=FAMILIES, default="physcam")
    parser.add_argument("--condition", choices=CONDITIONS, default="hard")
    parser.add_argument("--split", choices=SPLITS, default="tuning")
    parser.add_argument("--cubes", type=int, default=90)
    parser.add_argument("--start", type=int, default=0, help="first cube of the split (0: its first seed)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes for rendering and detection")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/qbr-colour-reads"))
    parser.add_argument("--misses", action="store_true", help="list each wrong sticker of the wrong cubes (tuning)")
    parser.add_argument("--all", action="store_true",
                        help="also every cube as qbr scan reads it: faces found anywhere, one not found deduced")
    args = parser.parse_args(argv)
    tunables = Tunables()
    complete = exact = quiet = 0
    details: list[str] = []
    wrong: list[tuple[int, str]] = []
    seeds = cube_seeds(args.split, args.cubes, args.start)
    every: list[bool] = []  # with --all: each cube read exactly as qbr scan reads it
    every_silent = 0
    by_kind: dict[tuple[int, int], list[bool]] = {}  # with --all: (faces not found, found elsewhere) -> exact or not
    for seed, truth, faces, settled in cached_reads(args.family, args.condition, seeds, args.jobs, args.cache):
        if args.all:
            found = {f: measure_stickers_with_spread(crop, d, tunables) for f, read in faces.items() if read is not None
                     for crop, d, _ in [read]}
            rgb = {f: m.own for f, m in found.items()}
            trust = {f: 1.0 - m.spot for f, m in found.items()}
            for face, stickers in settled.items():  # as qbr scan settles: measured again as a 3x3x3's, or left out
                trust.pop(face)
                if stickers is None:
                    del rgb[face]
                else:
                    rgb[face] = stickers
            read = resolve_cube(rgb, tunables=tunables, trust=trust)
            every.append(read.facelets == truth)
            every_silent += silent(read, truth)
            # Detection's share of the misses: faces not found, and found elsewhere (a grid off the face).
            kind = (sum(r is None for r in faces.values()), sum(r is not None and not r[2] for r in faces.values()))
            by_kind.setdefault(kind, []).append(every[-1])
        if not all(read is not None and read[2] for read in faces.values()):
            continue  # a face not found or found elsewhere: detection's miss, not colour's
        complete += 1
        measured = {f: measure_stickers_with_spread(crop, d, tunables) for f, (crop, d, _) in faces.items()}
        # As qbr scan resolves: each sticker's own light (the spot's taken off), one mostly lit by a spot weighs less.
        rgb = {f: m.own for f, m in measured.items()}
        trust = {f: 1.0 - m.spot for f, m in measured.items()}
        result = resolve_cube(rgb, tunables=tunables, trust=trust)
        got = result.facelets
        quiet += silent(result, truth)
        if got == truth:
            exact += 1
        elif args.split == "tuning":
            kind = miss_kind(rgb, truth, got, trust, tunables) + (", silent" if silent(result, truth) else "")
            wrong.append((seed, kind))
            if args.misses:
                details += [f"{seed} ({kind}):", *miss_lines(truth, result, measured)]
    print(f"{args.family} {args.condition} {args.split} seeds {seeds.start}-{seeds.stop - 1}: "
          f"{complete} with six faces in place, {exact} of them exact, {quiet} silently wrong")
    if every:
        blocks = [sum(every[i : i + 30]) for i in range(0, len(every), 30)]
        print(f"every cube as qbr scan reads it (a face not found deduced): {sum(every)} of {len(every)} exact "
              f"({100 * sum(every) / len(every):.1f}%), {every_silent} silently wrong; by 30 cubes: {blocks}")
        print("by faces not found / found elsewhere: " + ", ".join(
            f"{lost}/{off}: {sum(v)} of {len(v)} exact" for (lost, off), v in sorted(by_kind.items())))
    if wrong:
        print("wrong: " + ", ".join(f"{seed} ({kind})" for seed, kind in wrong))
    print("\n".join(details))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
