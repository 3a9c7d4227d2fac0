"""2x2x2 faces: found on rendered 2x2x2 photos, never found on 3x3x3 ones, and what the 2x2 search costs per frame.

    python bench/pocket_scan.py [--cubes 30] [--solved 20] [--rooms 150] [--faces 100] [--sessions 20] [--frames 60]
                                [--repeats 3] [--family physcam] [--tiers easy,medium] [--size-given]
                                [--set FIELD=VALUE]
    (0 solved/rooms/faces/sessions/frames: skip that section)

Seeds from ``bench/seeds.py``: the 2x2 search was tuned on tuning seeds only (renderer seeds 1000-1299, and the
tests' 7000-7500); the validation range is frozen and printed beside the tuning range (a gap means overfitting).

1. 2x2x2 cubes (``--cubes`` per tier and range), each face photographed once (``synth.render_cube`` with 24
   facelets of a random real 2x2): faces found as 2x2 with all four stickers within a quarter pitch of the truth,
   faces taken for a 3x3, faces misplaced, cubes whose six faces were all found in place, and cubes EXACT end to
   end (detect -> measure_stickers -> resolve_pocket, as ``qbr scan`` does; equal to the truth up to a relabelling
   of the letters, valid; a face not found as a 2x2 leaves its stickers unmeasured), and cubes silently wrong
   (read as another real cube, no sticker reported uncertain: nothing tells the user to look again; as
   ``bench/colour_reads.py`` counts them for the 3x3x3).
   ``--family physcam``: the cubes (and the solved cubes of 2.) rendered by ``tests/physcam`` instead
   (independent physics, never tuned on; its ``size=2``), with its own seeds (``scene_rng(seed, "physcam", ...)``).
   ``--size-given``: each face detected with the size given (``qbr scan --size 2``, a live session switched to a
   2x2x2) instead of decided by the grid.
2. Solved 2x2x2 cubes (``--solved``, photo profile, ``size=2`` given): faces in place and cubes EXACT; rooms
   without a cube (``--rooms``) taken for a 2x2x2 face, the size decided by the grid and given.
3. Single 3x3x3 faces (``--faces`` per tier and range): how many are taken for a 2x2x2 face, photo and live profile,
   and how many of those still are when searched again for a 3x3's face, as ``qbr scan`` does beside five 3x3 faces.
4. 3x3x3 sessions (``--sessions`` per range, easy and medium alternately, 6 frames a second as in the tests): every
   frame of a person showing the six faces and turning the cube between them, how many are taken for a 2x2x2 face
   (turning frames show a 2x2 block of a face sharp, the rest foreshortened and blurred).
5. Time per 640x480 frame, the 2x2 search on (default tunables) and off (``pocket_min_found=0``), interleaved per
   frame over ``--repeats`` passes (single thread), on 3x3 faces, rooms without a cube, and 2x2 faces.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the synthetic renderer lives with the tests
sys.path.insert(0, str(ROOT / "bench"))

import physcam  # noqa: E402
from pocket_resolve import same_cube  # noqa: E402
from seeds import SPLITS, cube_seeds, scene_rng, state_rng  # noqa: E402
from set_tunables import with_set  # noqa: E402
from synth import random_colours, render_cube, render_face, render_session, sample_params  # noqa: E402
from synth.scenes import make_background  # noqa: E402

from qbr.app.commands.scan import complete_pocket  # noqa: E402
from qbr.cube.conventions import FACES  # noqa: E402
from qbr.cube.pocket.generate import random_pocket_state  # noqa: E402
from qbr.vision.detect import FaceDetection, detect_face  # noqa: E402
from qbr.vision.measure import measure_stickers  # noqa: E402
from qbr.vision.resolve import resolve_pocket  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

POCKET_TIERS = ("easy", "medium")
TIERS = ("easy", "medium", "hard")
PROFILES = {"photo": Tunables(), "live": Tunables().for_video()}
TOLERANCE = 0.25  # pitches


def _in_place(det: FaceDetection | None, stickers: np.ndarray, gap: float, size: int) -> str:
    if det is None:
        return "missed"
    if det.size != size:
        return "other size"
    pitch = np.linalg.norm(stickers[0, 1] - stickers[0, 0]) / (1 - 2 * gap)
    err = np.linalg.norm(det.stickers.mean(axis=1) - stickers.mean(axis=1), axis=1) / pitch
    return "in place" if err.max() < TOLERANCE else "misplaced"


def _pocket_facelets(seed: int, tier: int, family: str = "synth") -> str:
    """A uniformly random real 2x2 (resolution needs one)."""
    return random_pocket_state(state_rng(seed, family, tier)).facelets


def _gap(params: object) -> float:
    """The body showing around a sticker, a share of the pitch (each renderer names it its own way)."""
    return float(params.sticker_gap if hasattr(params, "sticker_gap") else params.gap)  # type: ignore[attr-defined]


def _render_pocket(family: str, facelets: str, tier: str, rng: np.random.Generator) -> dict:
    """Six photos of a 2x2x2 (one body and palette or sticker maker for the cube, each photo its own scene)."""
    if family == "physcam":
        return physcam.render_cube(facelets, physcam.sample_cube(tier, rng, size=2), rng)
    base = sample_params(tier, rng, size=2)
    return render_cube(facelets, lambda _f, b=base, r=rng, x=tier: sample_params(
        x, r, palette=b.palette, body=b.body, size=2), rng)


def _read(faces: dict, detections: list[FaceDetection | None], truth: str, tunables: Tunables,
          size: int | None = None) -> str:
    """"exact" when the cube measured from these detections resolves to ``truth`` (up to relabelling), valid, as
    ``qbr scan`` reads it: a face not found or read as a 3x3 grid beside five 2x2x2 faces searched again for a
    2x2x2's, else filled in from the other five (complete_pocket); any other face not of a 2x2x2 left unmeasured.
    "sure wrong" when it resolves to another real cube with no sticker reported uncertain; else "not read"."""
    images = [render.image for render in faces.values()]
    rgb = {face: measure_stickers(render.image, det, tunables)
           for (face, render), det in zip(faces.items(), detections, strict=True) if det is not None}
    sizes = {face: det.size for face, det in zip(faces, detections, strict=True) if det is not None}
    complete_pocket(images, sizes, rgb, tunables, size)
    rgb = {face: rgb[face] if sizes.get(face) == 2 else np.full((4, 3), np.nan) for face in faces}
    result = resolve_pocket(rgb, tunables=tunables)
    if result.valid and same_cube(result.facelets, truth):
        return "exact"
    return "sure wrong" if result.valid and not result.uncertain else "not read"


def pocket_rows(cubes: int, family: str = "synth", tiers: Sequence[str] = POCKET_TIERS,
                size: int | None = None) -> list[tuple[str, ...]]:
    rows = []
    for split in SPLITS:
        for tier in tiers:
            t = TIERS.index(tier)  # easy 0, medium 1, hard 2: each tier its own scenes
            counts = {p: {"in place": 0, "other size": 0, "misplaced": 0, "missed": 0} for p in PROFILES}
            whole = dict.fromkeys(PROFILES, 0)
            exact = dict.fromkeys(PROFILES, 0)
            sure_wrong = dict.fromkeys(PROFILES, 0)
            for seed in cube_seeds(split, cubes, start=5000):
                rng = scene_rng(seed, family, 10 + t)
                truth = _pocket_facelets(seed, t, family)
                faces = _render_pocket(family, truth, tier, rng)
                for profile, tunables in PROFILES.items():
                    detections = [detect_face(r.image, tunables, size) for r in faces.values()]
                    outcome = [_in_place(d, r.stickers, _gap(r.params), 2)
                               for d, r in zip(detections, faces.values(), strict=True)]
                    read = _read(faces, detections, truth, tunables, size)
                    exact[profile] += read == "exact"
                    sure_wrong[profile] += read == "sure wrong"
                    for o in outcome:
                        counts[profile][o] += 1
                    whole[profile] += all(o == "in place" for o in outcome)
            for profile in PROFILES:
                c, n = counts[profile], 6 * cubes
                rows.append((split, tier, profile, f"{100 * c['in place'] / n:.1f}%", str(c["other size"]),
                             str(c["misplaced"]), str(c["missed"]), f"{100 * whole[profile] / cubes:.1f}%",
                             f"{100 * exact[profile] / cubes:.1f}%", str(sure_wrong[profile])))
    return rows


def solved_rows(cubes: int, family: str = "synth", tiers: Sequence[str] = POCKET_TIERS) -> list[tuple[str, ...]]:
    """Solved 2x2x2 cubes (four alike stickers on every face), photo profile, the size given (``qbr scan --size 2``,
    a live session switched to a 2x2x2): faces in place and cubes EXACT."""
    rows = []
    solved = "".join(f * 4 for f in FACES)
    tunables = PROFILES["photo"]
    for split in SPLITS:
        for tier in tiers:
            t = TIERS.index(tier)
            in_place = exact = 0
            for seed in cube_seeds(split, cubes, start=5500):
                rng = scene_rng(seed, family, 40 + t)
                faces = _render_pocket(family, solved, tier, rng)
                detections = [detect_face(r.image, tunables, 2) for r in faces.values()]  # as ``--size 2``
                in_place += sum(_in_place(d, r.stickers, _gap(r.params), 2) == "in place"
                                for d, r in zip(detections, faces.values(), strict=True))
                exact += _read(faces, detections, solved, tunables, 2) == "exact"
            rows.append((split, tier, f"{100 * in_place / (6 * cubes):.1f}%", f"{100 * exact / cubes:.1f}%"))
    return rows


def room_rows(rooms: int) -> list[tuple[str, ...]]:
    """Rendered rooms without a cube: how many are taken for a 2x2x2 face, per profile, and with the size given."""
    rows = []
    for split in SPLITS:
        images = []
        for seed in cube_seeds(split, rooms, start=8000):
            rng = scene_rng(seed, "synth", 30)
            images.append(np.ascontiguousarray(make_background(640, 480, float(rng.uniform(0, 1)), rng)[..., ::-1]))
        for profile, tunables in PROFILES.items():
            taken = sum((d := detect_face(image, tunables)) is not None and d.size == 2 for image in images)
            given = sum(detect_face(image, tunables, 2) is not None for image in images)  # solved faces too
            rows.append((split, profile, str(rooms), str(taken), str(given)))
    return rows


def cube_rows(faces: int) -> list[tuple[str, ...]]:
    rows = []
    for split in SPLITS:
        for t, tier in enumerate(TIERS):
            renders = []
            for seed in cube_seeds(split, faces, start=6000):
                rng = scene_rng(seed, "synth", 20 + t)
                renders.append(render_face(random_colours(rng), sample_params(tier, rng), rng))
            for profile, tunables in PROFILES.items():
                outcome = [_in_place(detect_face(r.image, tunables), r.stickers, r.params.sticker_gap, 3)
                           for r in renders]
                # As `qbr scan` reads it beside five 3x3 faces (scan.settle_cube): searched again for a 3x3's face.
                scanned = sum(detect_face(r.image, tunables, 3) is None
                              for r, o in zip(renders, outcome, strict=True) if o == "other size")
                rows.append((split, tier, profile, str(faces), str(outcome.count("other size")), str(scanned),
                             f"{100 * outcome.count('in place') / faces:.1f}%"))
    return rows


def session_rows(sessions: int) -> list[tuple[str, ...]]:
    """Frames of rendered 3x3x3 sessions (holding each face, turning between them) taken for a 2x2x2 face."""
    rows = []
    for split in SPLITS:
        frames = 0
        taken = dict.fromkeys(PROFILES, 0)
        for k, seed in enumerate(cube_seeds(split, sessions, start=9000)):
            rng = scene_rng(seed, "synth", 50)
            facelets = "".join(rng.permutation(list("".join(f * 9 for f in FACES))))
            for image, _face in render_session(facelets, rng, fps=6, tier=POCKET_TIERS[k % 2]):
                frames += 1
                for profile, tunables in PROFILES.items():
                    taken[profile] += (d := detect_face(image, tunables)) is not None and d.size == 2
        rows += [(split, profile, str(frames), str(taken[profile])) for profile in PROFILES]
    return rows


def timing_rows(frames: int, repeats: int) -> list[tuple[str, ...]]:
    groups: dict[str, list[np.ndarray]] = {"3x3 face": [], "no cube": [], "2x2 face": []}
    for k, seed in enumerate(cube_seeds("tuning", frames, start=8000)):
        rng = scene_rng(seed, "synth", 30)
        tier = TIERS[k % 3]
        groups["3x3 face"].append(render_face(random_colours(rng), sample_params(tier, rng), rng).image)
        room = make_background(640, 480, float(rng.uniform(0, 1)), rng)
        groups["no cube"].append(np.ascontiguousarray(room[..., ::-1]))
        groups["2x2 face"].append(render_face(random_colours(rng, 2), sample_params(
            POCKET_TIERS[k % 2], rng, size=2), rng).image)
    rows = []
    for profile, on in PROFILES.items():
        off = dataclasses.replace(on, pocket_min_found=0)
        for group, images in groups.items():
            took: dict[str, list[float]] = {"on": [], "off": []}
            for _ in range(repeats):
                for image in images:
                    for name, tunables in (("off", off), ("on", on)) if len(took["on"]) % 2 else (("on", on),
                                                                                                 ("off", off)):
                        start = time.perf_counter()
                        detect_face(image, tunables)
                        took[name].append((time.perf_counter() - start) * 1000)
            med_on, med_off = statistics.median(took["on"]), statistics.median(took["off"])
            p95_on = float(np.percentile(took["on"], 95))
            p95_off = float(np.percentile(took["off"], 95))
            rows.append((profile, group, f"{med_off:.2f}", f"{med_on:.2f}", f"{med_on / med_off:.2f}x",
                         f"{p95_off:.2f}", f"{p95_on:.2f}"))
    return rows


def _table(header: Sequence[str], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cubes", type=int, default=30, help="2x2x2 cubes per tier and seed range")
    parser.add_argument("--faces", type=int, default=100, help="single 3x3x3 faces per tier and seed range")
    parser.add_argument("--solved", type=int, default=20, help="solved 2x2x2 cubes per tier and seed range")
    parser.add_argument("--rooms", type=int, default=150, help="rooms without a cube per seed range")
    parser.add_argument("--sessions", type=int, default=20, help="rendered 3x3x3 sessions per seed range")
    parser.add_argument("--frames", type=int, default=60, help="timed frames per kind")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved timing passes")
    parser.add_argument("--family", choices=("synth", "physcam"), default="synth",
                        help="the renderer of the 2x2x2 cubes and solved cubes (physcam: independent physics)")
    parser.add_argument("--tiers", default=",".join(POCKET_TIERS),
                        help="tiers of the 2x2x2 cubes and solved cubes, comma-separated (easy, medium, hard)")
    parser.add_argument("--size-given", action="store_true",
                        help="the 2x2x2 cubes detected with the size given (qbr scan --size 2, a live session switched "
                             "to a 2x2x2) instead of decided by the grid")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="change a detection tunable for this run (both profiles)")
    args = parser.parse_args(argv)
    PROFILES.update(photo=with_set(Tunables(), args.set), live=with_set(Tunables(), args.set).for_video())
    cv2.setNumThreads(1)
    tiers = [t.strip() for t in args.tiers.split(",") if t.strip()]
    if unknown := sorted(set(tiers) - set(TIERS)):
        parser.error(f"unknown tier {', '.join(unknown)}: choose from {', '.join(TIERS)}")
    if args.cubes:  # 0 skips a section
        given = "; size 2 given" if args.size_given else ""
        print(f"### 2x2x2 cubes ({args.family}{given}), each face photographed once\n")
        header = ("seeds", "tier", "profile", "faces in place", "taken for 3x3", "misplaced", "missed",
                  "cubes with all six in place", "cubes EXACT", "cubes silently wrong")
        print(_table(header, pocket_rows(args.cubes, args.family, tiers, 2 if args.size_given else None)))
    if args.solved:
        print(f"\n### Solved 2x2x2 cubes ({args.family}; photo profile, size 2 given)\n")
        print(_table(("seeds", "tier", "faces in place", "cubes EXACT"), solved_rows(args.solved, args.family, tiers)))
    if args.rooms:
        print("\n### Rooms without a cube: taken for a 2x2x2 face\n")
        print(_table(("seeds", "profile", "rooms", "taken for 2x2", "taken for 2x2, size 2 given"),
                     room_rows(args.rooms)))
    if args.faces:
        print("\n### Single 3x3x3 faces: taken for a 2x2x2 face\n")
        print(_table(("seeds", "tier", "profile", "faces", "taken for 2x2", "still, beside five 3x3 faces (scan)",
                      "found in place"), cube_rows(args.faces)))
    if args.sessions:
        print("\n### 3x3x3 sessions (holding and turning): frames taken for a 2x2x2 face\n")
        print(_table(("seeds", "profile", "frames", "taken for 2x2"), session_rows(args.sessions)))
    if args.frames:
        print("\n### Detection time per 640x480 frame, 2x2 search off / on (interleaved, single thread)\n")
        print(_table(("profile", "frame", "median ms, off", "median ms, on", "ratio", "p95 off", "p95 on"),
                     timing_rows(args.frames, args.repeats)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
