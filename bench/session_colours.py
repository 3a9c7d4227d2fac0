"""Live colour names within a session: each rendered cube's six faces named in capture order, without and with the
palette learnt from the faces captured before (bench/session_learner.py, an experiment qbr does not use), against truth.

    python bench/session_colours.py [--cubes 20] [--jobs 2] [--cache DIR] [--show-failures]

Each cube (bench/families.py's scenes) is detected and measured as the live chain does (detect -> measure with
glare -> classify_face); a face counts when detected in place (every centre within 30% of a pitch), a missed face
is not captured. Faces are named in two orders, URFDLB and one shuffled per cube: each with the base palette
("base"), then with the palette learnt from the faces before it ("learnt"), their centres named as the session
names them (jointly, qbr.app.session.identity). Groups: synth medium (each cube's palette drawn from all), synth
medium with the close red/orange palette, physcam medium and hard; each either with every photo under its own light
and camera (the scenes of every other benchmark) or under one light and camera for the whole session (a webcam at
a desk; poses, hand and glare per photo). Tuning and validation seeds side by side (bench/seeds.py). ``--cache``
keeps the measurements (rendering is the slow part) for reruns; ``--set FIELD=VALUE`` overrides a tunable
(the learner's or the vision's); ``--knowing-the-rest`` learns each face's palette from the cube's other five
centres with their true colours instead (an upper bound: the best the captures could teach; order then irrelevant).
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the renderers live with the tests
sys.path.insert(0, str(ROOT / "bench"))

import physcam  # noqa: E402
import synth  # noqa: E402
from families import CONDITIONS  # noqa: E402
from live_colours import Tally, _in_place, print_failures  # noqa: E402
from seeds import cube_seeds, scene_rng, state_rng  # noqa: E402
from session_learner import CapturedCentre, LearnerTunables, session_palette  # noqa: E402

from qbr.app.session.identity import CapturedFace, faces_by_centre  # noqa: E402
from qbr.cube.conventions import FACES, STANDARD_SCHEME  # noqa: E402
from qbr.cube.generate import random_state  # noqa: E402
from qbr.vision.classify import classify_face  # noqa: E402
from qbr.vision.detect import detect_face  # noqa: E402
from qbr.vision.measure import measure_stickers_with_spread  # noqa: E402
from qbr.vision.palette import DEFAULT_PALETTE  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

# (family, tier, synth palette or None: drawn per cube, light): "each" photo its own light and camera (the scenes
# of every other benchmark), or "one" light and camera for the whole session (a webcam at a desk), poses per photo.
GROUPS = tuple((family, tier, palette, light) for light in ("each", "one") for family, tier, palette in (
    ("synth", "medium", None), ("synth", "medium", "close_red_orange"), ("physcam", "medium", None),
    ("physcam", "hard", None)))
# What one light and camera keep from photo to photo (the rest, pose, hand, glare spot and blur, is per photo).
SYNTH_LIGHT = ("kelvin", "cast", "green_tint", "brightness", "light_gradient", "light_angle", "ambient", "noise",
               "jpeg_quality", "vignette", "focal")
PHYSCAM_LIGHT = ("key_lamp", "fill_lamp", "fill_share", "key_direction", "ambient", "gradient", "background",
                 "wall_saturation", "focal")
PHYSCAM_SENSOR = ("photons", "read_noise", "exposure", "awb_strength", "filter_shift", "gamma", "contrast", "sharpen",
                  "jpeg_quality")
TUNABLES = [Tunables()]

Face = tuple[np.ndarray, np.ndarray, np.ndarray, tuple[str, ...], np.ndarray, np.ndarray] | None
"""Measured rgb, glare share, spot share, truth names (detected order), rgb with the spot's light taken off, the
samples' spread."""


def _one_light(first: object, face: object, fields: Sequence[str]) -> object:
    return dataclasses.replace(face, **{f: getattr(first, f) for f in fields})  # type: ignore[type-var]


def _render(family: str, condition: str, palette: str | None, light: str, seed: int) -> dict[str, object]:
    tier = CONDITIONS.index(condition)
    truth = random_state(state_rng(seed, family, tier)).facelets
    rng = scene_rng(seed, family, tier)
    if family == "physcam":
        each = physcam.sample_cube(condition, rng)
        if light == "each":
            return physcam.render_cube(truth, each, rng)
        first = each("F")

        def one(_face: str) -> object:
            p = each(_face)
            sensor = _one_light(first.sensor, p.sensor, PHYSCAM_SENSOR)
            return dataclasses.replace(_one_light(first, p, PHYSCAM_LIGHT), sensor=sensor)

        return physcam.render_cube(truth, one, rng)
    drawn = str(rng.choice(list(synth.PALETTES)))
    chosen = palette or drawn
    body = "stickerless" if chosen == "stickerless" else str(rng.choice(["black", "black", "white"]))
    # Drawn only for one light: the scenes with a light per photo stay those of bench/families.py's draws.
    first = synth.sample_params(condition, rng, palette=chosen, body=body) if light == "one" else None

    def params(_face: str) -> object:
        p = synth.sample_params(condition, rng, palette=chosen, body=body)
        return p if first is None else _one_light(first, p, SYNTH_LIGHT)

    return synth.render_cube(truth, params, rng)


Job = tuple[str, str, str | None, str, str, int]  # family, tier, palette, light, split, seed


def cube_read(job: Job) -> tuple[Job, list[Face]]:
    """Render one cube and measure its six faces (URFDLB) as the live chain does."""
    family, condition, palette, light, _split, seed = job
    tunables = TUNABLES[0]
    faces: list[Face] = []
    renders = _render(family, condition, palette, light, seed)
    for face in FACES:
        shot = renders[face]
        detection = detect_face(shot.image, tunables)
        where = None if detection is None or detection.size != 3 else _in_place(detection, shot.stickers)
        if where is None:
            faces.append(None)
            continue
        measured = measure_stickers_with_spread(shot.image, detection, tunables)
        truth = [""] * 9
        for k, index in enumerate(where.tolist()):
            truth[index] = shot.colours[k]
        faces.append((np.asarray(measured.rgb, float), np.asarray(measured.glare, float),
                      np.asarray(measured.spot, float), tuple(truth), np.asarray(measured.own, float),
                      np.asarray(measured.spread, float)))
    return job, faces


def jobs(cubes: int, groups: Sequence[tuple[str, str, str | None, str]] = GROUPS) -> list[Job]:
    return [(family, condition, palette, light, split, seed) for split in ("tuning", "validation")
            for family, condition, palette, light in groups for seed in cube_seeds(split, cubes)]


def read_all(cubes: int, workers: int, cache: Path | None,
             groups: Sequence[tuple[str, str, str | None, str]] = GROUPS) -> dict[Job, list[Face]]:
    done: dict[Job, list[Face]] = {}
    path = cache / "session_colours_4.pkl" if cache else None  # 4: with the spot shares, own colours and spreads
    if path is not None and path.is_file():
        done = pickle.loads(path.read_bytes())
    todo = [j for j in jobs(cubes, groups) if j not in done]
    if todo:
        with ProcessPoolExecutor(workers) as pool:
            for job, faces in pool.map(cube_read, todo, chunksize=2):
                done[job] = faces
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(pickle.dumps(done))
    return {j: done[j] for j in jobs(cubes, groups)}


def name_session(faces: Sequence[Face], order: Sequence[int], learn: bool, tunables: Tunables,
                 learner: LearnerTunables = LearnerTunables()  # noqa: B008
                 ) -> list[tuple[int, tuple[str, ...]]]:
    """(face index, names) for each detected face in ``order``, each named with the palette of the faces before."""
    captures: list[CapturedFace] = []
    out = []
    for k in order:
        face = faces[k]
        if face is None:
            continue
        rgb, glare, spot = face[:3]
        palette = DEFAULT_PALETTE
        if learn and captures:
            # The session's colour of each capture's centre: the six centres given distinct colours jointly.
            letters = faces_by_centre(captures, STANDARD_SCHEME, DEFAULT_PALETTE)
            palette = session_palette(DEFAULT_PALETTE, [CapturedCentre(rgb=c.rgb, name=STANDARD_SCHEME[x],
                                                                       named=c.colours[4])
                                                        for c, x in zip(captures, letters, strict=True)],
                                      learner, tunables)
        names = classify_face(rgb, palette, tunables, glare=glare, spot=spot, spread=face[5]).names
        out.append((k, names))
        captures.append(CapturedFace(tuple(names), rgb, own=face[4], spread=face[5]))
    return out


def name_knowing_the_rest(faces: Sequence[Face], tunables: Tunables, learner: LearnerTunables
                          ) -> list[tuple[int, tuple[str, ...]]]:
    """Upper bound of learning: each face named with the palette learnt from the cube's other five centres, each
    given its true colour (what no session knows: the best its captures could teach)."""
    out = []
    for k, face in enumerate(faces):
        if face is None:
            continue
        others = [CapturedCentre(rgb=f[0], name=f[3][4]) for j, f in enumerate(faces) if j != k and f is not None]
        palette = session_palette(DEFAULT_PALETTE, others, learner, tunables)
        out.append((k, classify_face(face[0], palette, tunables, glare=face[1], spot=face[2],
                                     spread=face[5]).names))
    return out


def group_label(family: str, condition: str, palette: str | None, light: str) -> str:
    return f"{family} {condition}" + (f" {palette}" if palette else "") + f", {light} light"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cubes", type=int, default=20, help="cubes per group and split")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path, help="keep the measurements here for reruns")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE", help="override a tunable")
    parser.add_argument("--split", choices=("tuning", "validation", "both"), default="both")
    parser.add_argument("--knowing-the-rest", action="store_true",
                        help="learnt: from the other five faces' centres with their true colours (an upper bound)")
    parser.add_argument("--show-failures", action="store_true")
    args = parser.parse_args(argv)
    tunables, learner = Tunables(), LearnerTunables()
    for item in args.set:
        key, value = item.split("=", 1)
        if hasattr(learner, key):
            kind = type(getattr(learner, key))
            learner = dataclasses.replace(learner, **{key: value.lower() in ("1", "true") if kind is bool
                                                      else kind(value)})
        else:
            tunables = dataclasses.replace(tunables, **{key: type(getattr(tunables, key))(value)})
    reads = read_all(args.cubes, args.jobs, args.cache)
    tallies: dict[str, Tally] = {}
    for (family, condition, palette, light, split, seed), faces in reads.items():
        if args.split != "both" and split != args.split:
            continue
        shuffled = np.random.default_rng(seed).permutation(6).tolist()
        for order_name, order in (("URFDLB", list(range(6))), ("shuffled", shuffled)):
            for learn in (False, True):
                key = f"{group_label(family, condition, palette, light)} | {split} | {order_name} | " + (
                    "learnt" if learn else "base")
                t = tallies.setdefault(key, Tally())
                named = (name_knowing_the_rest(faces, tunables, learner) if learn and args.knowing_the_rest
                         else name_session(faces, order, learn, tunables, learner))
                t.missed += sum(f is None for f in faces)
                for k, names in named:
                    face = faces[k]
                    assert face is not None
                    t.add(face[3], names, f"seed {seed} {FACES[k]} (order {''.join(FACES[i] for i in order)})")
    print("| group | split | order | faces all right: base -> learnt | stickers right: base -> learnt |")
    print("|---|---|---|---:|---:|")
    for key in sorted({k.rsplit(" | ", 1)[0] for k in tallies}, key=lambda k: (k.split(" | ")[0], k.split(" | ")[2],
                                                                            k.split(" | ")[1])):
        base, learnt = tallies[f"{key} | base"], tallies[f"{key} | learnt"]
        group, split, order = key.split(" | ")
        print(f"| {group} | {split} | {order} | {base.faces_right}/{base.faces} -> {learnt.faces_right}/"
              f"{learnt.faces} | {100 * base.stickers_right / max(base.stickers, 1):.1f}% -> "
              f"{100 * learnt.stickers_right / max(learnt.stickers, 1):.1f}% |")
    if args.show_failures:
        print_failures((key, t.failures) for key, t in sorted(tallies.items()) if "tuning" in key)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
