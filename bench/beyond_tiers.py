"""Faces found in place when one scene parameter goes past what the tiers draw: the frame's size and shape, the tilt.

    nice -n 10 python bench/beyond_tiers.py [--cubes 30] [--conditions medium hard] [--families physcam synth]
        [--jobs 2] [--variants 0 5] [--set FIELD=VALUE] [--split validation]

Both renderers draw every photo 640x480 (landscape) with the face tilted at most 20 degrees (medium) or 30 (hard);
photos made elsewhere need not be. Each row renders the same cubes as the tier does (bench/seeds.py: ``--split``,
tuning unless said), with one change: the frame's width x height (sizes and blur stay fractions of the width in
``synth``; ``physcam``'s blur and noise are in pixels, so a smaller frame is a blurrier one), or the face's tilt
drawn from another range (yaw and pitch shared as the tiers share them). Prints, per family and condition, the faces
found in place (``scan_accuracy``'s test) and the cubes with all six, beside the unchanged tier in the same run, and
the faces found elsewhere on a grid that faces the camera at least as squarely as the face held up (``as_squarely``:
the renderers tilt a face against the camera's axis, not the line of sight to it; such a photo does not say which
face is held up).
Detection only, nothing here was tuned on. ``--variants``: only these rows (indices into ``VARIANTS``); ``--set``: a
detection tunable changed for the run.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import families  # noqa: E402
import synth  # noqa: E402
from physcam import shoot  # noqa: E402
from scan_accuracy import detection_matches  # noqa: E402
from seeds import SPLITS, cube_seeds  # noqa: E402
from set_tunables import with_set  # noqa: E402

from qbr.cube.conventions import FACES  # noqa: E402
from qbr.vision.detect import FaceDetection, detect_face  # noqa: E402
from qbr.vision.detect.geometry import CELLS, facing, fit_homography  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("as the tier (640x480)", {}),
    ("1280x720", {"size": (1280, 720)}),
    ("480x360", {"size": (480, 360)}),
    ("portrait 480x640", {"size": (480, 640)}),
    ("portrait 960x1280", {"size": (960, 1280)}),
    ("tilt 30-40 degrees", {"tilt": (30.0, 40.0)}),
    ("tilt 40-50 degrees", {"tilt": (40.0, 50.0)}),
)


_ORIGINAL = {"physcam": shoot.sample_params, "synth": synth.sample_params}  # as imported, before any patch


def _patch(change: dict[str, Any]) -> None:
    """Make both renderers draw their params with the variant's change (in this worker process; each job sets its
    own). A new tilt is drawn from the scene's generator after the tier's draws, then the face is fitted in the
    frame again, as each renderer fits its own."""
    width, height = change.get("size", (640, 480))

    def changed(family: str, fit: Any) -> Any:
        def sample(condition: str, rng: np.random.Generator, *args: Any, **kwargs: Any) -> Any:
            p = _ORIGINAL[family](condition, rng, width, height, **kwargs)
            if "tilt" in change:
                total, angle = rng.uniform(*change["tilt"]), rng.uniform(0, 2 * np.pi)
                p = fit(dataclasses.replace(p, yaw=total * np.cos(angle), pitch=total * np.sin(angle)), rng)
            return p
        return sample

    shoot.sample_params = changed("physcam", shoot._fit_in_frame)  # physcam.sample_cube looks it up there
    synth.sample_params = changed("synth", synth.render._fit)  # bench/families calls it through the package


def as_squarely(got: FaceDetection, stickers: np.ndarray) -> bool:
    """Whether a grid found elsewhere faces the camera at least as squarely as the face held up, as the photo shows
    them (``geometry.facing`` of each one's homography): the renderers tilt a face against the camera's axis, so a
    face placed far off it is seen more aslant than its tilt, and a neighbour can face the line of sight more."""
    held = fit_homography(CELLS[3], np.asarray(stickers, dtype=np.float64).reshape(9, -1, 2).mean(axis=1))
    return held is not None and facing(got.homography, got.size) >= facing(held)


def found(job: tuple[str, str, int, int, tuple[str, ...]]) -> tuple[int, int]:
    """How many of one cube's six faces are found in place under variant ``job[3]`` (``job[4]``: ``--set``), and how
    many are found elsewhere on a grid that faces the camera as squarely (``as_squarely``)."""
    family, condition, seed, variant, changes = job
    _patch(VARIANTS[variant][1])
    _, renders, _ = families.render(family, condition, seed)
    tunables = with_set(Tunables(), changes)
    hits = squarely = 0
    for face in FACES:
        shot = renders[face]
        got = detect_face(shot.image, tunables)
        if got is not None and detection_matches(got, shot.stickers):
            hits += 1
        elif got is not None and got.size == 3 and as_squarely(got, shot.stickers):
            squarely += 1
    return hits, squarely


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cubes", type=int, default=30)
    ap.add_argument("--conditions", nargs="+", default=["medium", "hard"], choices=families.CONDITIONS)
    ap.add_argument("--families", nargs="+", default=["physcam", "synth"], choices=["physcam", "synth"])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--variants", type=int, nargs="+", default=list(range(len(VARIANTS))))
    ap.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE")
    ap.add_argument("--split", choices=SPLITS, default="tuning")
    a = ap.parse_args()
    print(f"{a.split} seeds" + (f", {' '.join(a.set)}" if a.set else ""))
    print("| family | condition | scene | faces found in place | cubes with all six | elsewhere, as squarely |")
    print("|---|---|---|---:|---:|---:|")
    with ProcessPoolExecutor(a.jobs) as pool:
        for family in a.families:
            for condition in a.conditions:
                for k in a.variants:
                    label = VARIANTS[k][0]
                    jobs = [(family, condition, s, k, tuple(a.set)) for s in cube_seeds(a.split, a.cubes)]
                    counts = list(pool.map(found, jobs))
                    hits = [h for h, _ in counts]
                    print(f"| {family} | {condition} | {label} | {sum(hits)}/{6 * a.cubes} "
                          f"({100 * sum(hits) / (6 * a.cubes):.1f}%) | {sum(h == 6 for h in hits)}/{a.cubes} "
                          f"| {sum(s for _, s in counts)} |", flush=True)


if __name__ == "__main__":
    main()
