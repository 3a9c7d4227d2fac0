"""Faces of rendered TUNING cubes that detection misses, with what was in each photo, saved as PNGs to look at.

    nice -n 10 python bench/missed_faces.py [--family physcam] [--condition hard] [--cubes 30] [--start 0]
        [--jobs 2] [--out /tmp/missed] [--solved] [--why]

``--solved``: solved cubes instead, medium scenes, the seeds bench/ablate.py's ``--solved --split tuning`` reads.
``--why``: also where each face was lost (``why``), and a count of each kind at the end.

Prints one line per face not found in place (seed, face, missed or misplaced, and the photo's params that matter
to detection: sticker size, light, blur, noise, JPEG, background, body) and writes ``<out>/<seed>-<face>.png``.
Tuning seeds only: the validation range is not for looking at (bench/seeds.py).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from families import CONDITIONS, render  # noqa: E402
from scan_accuracy import detection_matches  # noqa: E402
from seeds import FAMILIES, cube_seeds  # noqa: E402

from qbr.cube.conventions import FACES  # noqa: E402
from qbr.vision.detect import detect_face, passes  # noqa: E402
from qbr.vision.detect.candidates import Candidates  # noqa: E402
from qbr.vision.detect.colours import colour_variety, exposure_gain  # noqa: E402
from qbr.vision.detect.fit import fit_grid  # noqa: E402
from qbr.vision.detect.kernel import odd  # noqa: E402
from qbr.vision.detect.lattice import hypotheses  # noqa: E402
from qbr.vision.detect.plausible import alike_tiles, loose_fit, plain_face, trusted_retry  # noqa: E402
from qbr.vision.detect.window import settle_window  # noqa: E402
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


_POOLED: list[Candidates] = []  # the pooled look's candidates in each cascade of the last detect_face call


def _spy_pooled(looks: list[tuple[Candidates, float]], same: float) -> Candidates:
    found = _pooled(looks, same)
    _POOLED.append(found)
    return found


_pooled = passes.pooled
passes.pooled = _spy_pooled  # inside this benchmark only


def why(image: np.ndarray, truth: np.ndarray, t: Tunables) -> str:
    """Where detection lost a face: ``other grid`` (a look found a grid elsewhere: the pooled look never ran), or
    how many of its stickers every edge look's candidates hold together (the pooled look's: a candidate within 30%
    of a pitch of a sticker's centre; ``few in the pool``: fewer than a grid needs), and what refused the lattice
    proposal holding most of them: ``no proposal``
    (no candidate's lattice takes five), ``fit refused`` (re-collected by position, size and shape, fewer than
    four stayed), ``loose``, ``tiles``, ``window`` (two lines seen, not placed), ``retry gate``, ``plain``."""
    _POOLED.clear()
    detect_face(image, t)
    if not _POOLED:
        return "other grid"
    cands = _POOLED[0]  # the work width's cascade (a photo with nothing found is looked at again, seen smaller)
    work = passes.downscale(image, t.work_width)
    want = truth.astype(float).mean(axis=1) * work.shape[1] / image.shape[1]
    pitch = float(np.linalg.norm(want[4] - want[3]) + np.linalg.norm(want[4] - want[1])) / 2
    if not len(cands.sizes):
        return "few in the pool (0)"
    dist = np.linalg.norm(cands.centres[:, None] - want[None], axis=2)
    sticker = np.where(dist.min(axis=1) < 0.3 * pitch, dist.argmin(axis=1), -1)
    held = len(set(sticker[sticker >= 0].tolist()))
    if held < t.grid_min_found:
        return f"few in the pool ({held})"
    dilation = odd(t.dilate_size * work.shape[1])
    best: tuple[int, str] = (0, "no proposal")
    for _, _, cells_of in hypotheses(cands, t):
        found, cells = cells_of()
        on_face = int((sticker[found] >= 0).sum())
        if on_face < t.grid_min_found or on_face <= best[0]:
            continue
        fit = fit_grid(cands, found, cells, t, dilation, work.shape[1])
        if fit is None:
            stage = "fit refused"
        elif loose_fit(fit, t, t.grid_max_rms):
            stage = "loose"
        else:
            variety = colour_variety(work, cands.centres[fit.found], exposure_gain(work, t))
            fit = dataclasses.replace(fit, variety=variety, alike=variety < t.grid_min_variety)
            if alike_tiles(work, fit, t):
                stage = "tiles"
            elif not fit.spans_face() and settle_window(work, fit, t) is None:
                stage = "window"
            elif not trusted_retry(fit, t):
                stage = "retry gate"
            elif plain_face(work, fit, t) is None:
                stage = "plain"
            else:
                stage = "outranked"
        best = (on_face, stage)
    return f"{best[1]} ({held} in the pool)"


def misses(job: tuple[str, str, int, str, bool, bool]) -> list[str]:
    family, condition, seed, out, solved, explain = job
    _, renders, _ = render(family, condition, seed, SOLVED if solved else None)
    lines = []
    for face in FACES:
        shot = renders[face]
        got = detect_face(shot.image, Tunables())
        if got is not None and detection_matches(got, shot.stickers):
            continue
        what = "missed" if got is None else "misplaced"
        cv2.imwrite(str(Path(out) / f"{seed}-{face}.png"), shot.image)
        reason = f" [{why(shot.image, shot.stickers, Tunables())}]" if explain else ""
        lines.append(f"{seed} {face} {what}{reason}: {describe(shot.params)}")
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
    ap.add_argument("--why", action="store_true", help="where each face was lost, and a count of each kind")
    a = ap.parse_args()
    Path(a.out).mkdir(parents=True, exist_ok=True)
    condition, offset = ("medium", SOLVED_SEED_OFFSET) if a.solved else (a.condition, 0)
    jobs = [(a.family, condition, s, a.out, a.solved, a.why) for s in cube_seeds("tuning", a.cubes, a.start + offset)]
    total = 0
    kinds: Counter[str] = Counter()
    with ProcessPoolExecutor(a.jobs) as pool:
        for lines in pool.map(misses, jobs):
            total += len(lines)
            for line in lines:
                print(line, flush=True)
                if a.why:
                    kinds[line.split("[", 1)[1].split("]", 1)[0].split(" (")[0]] += 1
    print(f"{total} of {6 * a.cubes} faces not found in place")
    for kind, count in kinds.most_common():
        print(f"  {kind}: {count}")


if __name__ == "__main__":
    main()
