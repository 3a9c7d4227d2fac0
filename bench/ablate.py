"""Ablation: the measured effect of each detection, measurement and resolution rule on the frozen validation range.

    nice -n 10 python bench/ablate.py [--cubes 25] [--solved 10] [--only NAME ...]

Renders ``--cubes`` validation cubes per scene family (tests/synth and tests/physcam) and condition (easy,
medium, hard, dim), plus ``--solved`` solved cubes per family (medium scenes: a solved face is what the
solved-face rules are for), and reads them with qbr as it is and with each rule switched off in turn. Rules are
switched off inside this script only (a Tunables field, a function replaced, or a rule's source line rewritten
on the fly), never by editing qbr. Resolution rules are also judged on the real colour scans (tests/data; dev
data) and on "turned" cubes: validation cubes read in full, one face's stickers given a quarter or half turn,
counted right when the resolution reads it turned back (the right cube, that face named turned); and on the dev
scans augmented with ``--augmented`` validation seeds each (tests/synth/augment.py: per-face exposure and lamp
cast, gamma, noise, very dark exposures, other colour schemes). Detection rules are also judged on ``--rooms``
rooms without a cube (tests/synth's backgrounds: walls, shelves, notes, tiles, text; photo profile): a face
found there is a false face. A rule whose row equals the baseline has no measured effect.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import inspect
import json
import sys
import textwrap
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))  # the augmentation lives with the synthetic data

from families import CONDITIONS, render  # noqa: E402
from resolve_accuracy import dev_scans  # noqa: E402
from scan_accuracy import detection_matches  # noqa: E402
from seeds import FAMILIES, SPLITS, cube_seeds  # noqa: E402
from synth.augment import VALIDATION_SEEDS, augment  # noqa: E402
from synth.scenes import make_background  # noqa: E402

import qbr.vision.detect as detect  # noqa: E402
import qbr.vision.detect.planes as detect_planes  # noqa: E402
import qbr.vision.detect.plausible as detect_plausible  # noqa: E402
import qbr.vision.detect.window as detect_window  # noqa: E402
import qbr.vision.resolve as resolve  # noqa: E402
import qbr.vision.resolve.clusters as clusters  # noqa: E402
import qbr.vision.resolve.cube as resolve_3x3  # noqa: E402
import qbr.vision.resolve.descent as descent  # noqa: E402
import qbr.vision.resolve.light as light  # noqa: E402
import qbr.vision.resolve.lost_face as lost_face  # noqa: E402
import qbr.vision.resolve.turned as turned  # noqa: E402
from qbr.cube.conventions import FACES  # noqa: E402
from qbr.vision.classify import classify_face  # noqa: E402
from qbr.vision.colour import linear_to_lab  # noqa: E402
from qbr.vision.measure import measure_stickers_with_spread  # noqa: E402
from qbr.vision.palette import DEFAULT_PALETTE  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

SOLVED = "".join(f * 9 for f in FACES)
SOLVED_SEED_OFFSET = 50_000  # solved cubes take validation seeds of their own


def _rewritten(owner: Any, name: str, old: str, new: str, namespace: dict[str, Any]) -> Any:
    """``owner.name`` compiled again from its source with ``old`` replaced by ``new`` (which must occur once)."""
    source = textwrap.dedent(inspect.getsource(getattr(owner, name)))
    if source.count(old) != 1:
        raise RuntimeError(f"{name}: the rule's text {old!r} is not in qbr any more; update bench/ablate.py")
    scope = dict(namespace)
    exec(compile(source.replace(old, new), f"<ablated {name}>", "exec"), scope)
    return scope[name]


@contextlib.contextmanager
def _patched(owner: Any, name: str, value: Any) -> Iterator[None]:
    saved = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, saved)


@dataclass(frozen=True)
class Rule:
    name: str
    stage: str  # detect, measure or resolve: what must be run again
    tunables: dict[str, Any] = dataclasses.field(default_factory=dict)
    patch: Callable[[], contextlib.AbstractContextManager[None]] | None = None

    def off(self) -> contextlib.AbstractContextManager[None]:
        return self.patch() if self.patch else contextlib.nullcontext()


def _function(module: Any, name: str, value: Any) -> Callable[[], contextlib.AbstractContextManager[None]]:
    return lambda: _patched(module, name, value)


def _source(module: Any, name: str, old: str, new: str) -> Callable[[], contextlib.AbstractContextManager[None]]:
    return lambda: _patched(module, name, _rewritten(module, name, old, new, vars(module)))


@contextlib.contextmanager
def _patched_everywhere(module: Any, name: str, value: Any) -> Iterator[None]:
    """``module.name`` replaced in every detection module that imported it too (qbr.vision.detect.*)."""
    saved = getattr(module, name)
    owners = [m for k, m in sorted(sys.modules.items())
              if k.startswith("qbr.vision.detect") and vars(m).get(name) is saved]
    for owner in owners:
        setattr(owner, name, value)
    try:
        yield
    finally:
        for owner in owners:
            setattr(owner, name, saved)


def _detect_function(module: Any, name: str, value: Any) -> Callable[[], contextlib.AbstractContextManager[None]]:
    return lambda: _patched_everywhere(module, name, value)


def _detect_source(module: Any, name: str, old: str, new: str) -> Callable[[], contextlib.AbstractContextManager[None]]:
    return lambda: _patched_everywhere(module, name, _rewritten(module, name, old, new, vars(module)))


def _centre_starts(linear: np.ndarray, measured: np.ndarray, gains: np.ndarray, tunables: Tunables,
                   stand_in: int | None = None) -> tuple:
    """In place of the clustering start: the centres as measured (duplicates the other starts)."""
    return lost_face.seeded_centres(linear_to_lab(linear * gains), measured, stand_in), gains


RULES = (
    Rule("grid_min_fill", "detect", {"grid_min_fill": 0.0}),
    Rule("a grid seen more aslant than a face held up (grid_min_facing)", "detect", {"grid_min_facing": 0.0}),
    Rule("grid_max_rms", "detect", {"grid_max_rms": 1e12}),
    Rule("settle_window (sliding windows taken as fitted)", "detect",
         patch=_detect_function(detect_window, "settle_window", lambda work, fit, t: fit)),
    Rule("outline placement (_border_strength)", "detect",
         patch=_detect_function(detect_window, "_border_strength", lambda work, h, axis, border: 0.0)),
    Rule("solved-face acceptance (dark_gaps)", "detect",
         patch=_detect_function(detect_plausible, "dark_gaps", lambda w, f, t: False)),
    Rule("alike squares taken for tiles (alike_tiles)", "detect",
         patch=_detect_function(detect_plausible, "alike_tiles", lambda w, f, t: False)),
    Rule("pale solved face between light gaps (pale_face)", "detect",
         patch=_detect_function(detect_plausible, "pale_face", lambda w, f, t: False)),
    Rule("a solved face seen whole over a less sure many-coloured grid (preferred)", "detect",
         patch=_detect_function(detect_plausible, "preferred", lambda fit, best: best is None or (
             not fit.alike, fit.rank()) > (not best.alike, best.rank()))),
    Rule("a solved face with a square beside it, on a dark body (alike_tiles' extras)", "detect",
         patch=_detect_source(detect_plausible, "alike_tiles",
                              "return len(fit.found) < t.solved_extra_found or not dark_joints(work, fit, t)",
                              "return True")),
    Rule("a solved face in the last-resort looks (plain_face)", "detect",
         patch=_detect_source(detect_plausible, "plain_face", "if fit is None or fit.extras:",
                              "if fit is None or fit.alike or fit.extras:")),
    Rule("2x2 grids with squares around or inside (crowded_pocket)", "detect",
         patch=_detect_function(detect_plausible, "crowded_pocket", lambda f, t: False)),
    Rule("stricter-edges retry (retry_canny_factor)", "detect", {"retry_canny_factor": 1.0}),
    Rule("closer look (retry_work_width)", "detect", {"retry_work_width": 0}),
    Rule("CLAHE passes (retry_clahe_clip)", "detect", {"retry_clahe_clip": 0.0}),
    Rule("weaker-edges retry (retry_low_canny_factor)", "detect", {"retry_low_canny_factor": 0.0}),
    Rule("all photo-only passes (the live profile, photo_passes)", "detect", {"photo_passes": False}),
    Rule("retry without short edge pieces (retry_edge_piece)", "detect", {"retry_edge_piece": 0.0}),
    Rule("pooled look: every look's candidates at once (pool_same)", "detect", {"pool_same": 0.0}),
    Rule("a 2x2x2's face among every look's candidates (pocket_pooled_look)", "detect", {"pocket_pooled_look": False}),
    Rule("every look again, seen smaller, for a face held close (retry_far_scales)", "detect",
         {"retry_far_scales": ()}),
    Rule("stable colour regions of noisy frames (region_look)", "detect", {"region_look": False}),
    Rule("retry gates (retry_min_found / retry_min_variety)", "detect", {"retry_min_found": 0}),
    Rule("last-resort tile check (plain_face)", "detect",
         patch=_detect_function(detect_plausible, "plain_face", lambda work, fit, t: fit)),
    Rule("noise-limited edges (noise_ratio)", "detect", {"noise_ratio": 0.0}),
    Rule("noise thresholds (noise_canny_low/high)", "detect", {"noise_canny_low": 0.0, "noise_canny_high": 0.0}),
    Rule("wider smoothing of very noisy planes (noise_blur_ratio)", "detect", {"noise_blur_ratio": float("inf")}),
    Rule("bilateral filter of very noisy planes (noise_bilateral_range)", "detect", {"noise_bilateral_range": 0.0}),
    Rule("texture discount of the noise estimate (noise_texture_scale)", "detect", {"noise_texture_scale": 1}),
    Rule("colour spreads relative to the frame's exposure (variety_exposure)", "detect", {"variety_exposure": 0.0}),
    Rule("3x3 corner blocks never a 2x2x2's face (pocket_block_beyond)", "detect", {"pocket_block_beyond": 10**6}),
    Rule("perspective a camera can show, else affine; five stickers' if it keeps more (grid_max_perspective)", "detect",
         {"grid_max_perspective": 0.0}),
    Rule("blue-yellow plane in the edges", "detect",
         patch=_detect_source(detect_planes, "edge_planes", ", _blue_yellow(work_bgr)]", "]")),
    Rule("glare rejection in measure (glare_value)", "measure", {"glare_value": 2.0}),
    Rule("dark trim in measure (trim_dark)", "measure", {"trim_dark": 0.0}),
    Rule("cluster starts (balanced_clusters)", "resolve", patch=_function(clusters, "balanced_clusters",
                                                                          _centre_starts)),
    Rule("palette-fit starts (palette_gains)", "resolve",
         patch=_function(light, "palette_gains", lambda linear, measured, t: np.ones((len(linear), 3)))),
    Rule("per-face light (fitted_gains)", "resolve",
         patch=_function(light, "fitted_gains",
                         lambda linear, colours, weight, t, trust=None: np.ones((54, 3)))),
    Rule("a colour no centre pins pays to be used (resolve_free_colour_cost)", "resolve",
         {"resolve_free_colour_cost": 0.0}),
    Rule("stand-ins for a lost face's centre (lost_centre_stand_ins)", "resolve",
         patch=_function(descent, "lost_centre_stand_ins", lambda linear, measured, t: [None])),
    Rule("faces read turned (read_turned_back)", "resolve", patch=_function(
        resolve_3x3, "read_turned_back",
        lambda st, ms, t, trust=None: turned.Read(st, ms, trust, descent.fit_cube(st, ms, t, trust), {}, []))),
    Rule("priors on each face's cast and exposure", "resolve",
         {"resolve_cast_prior": 0.0, "resolve_tint_prior": 0.0, "resolve_exposure_prior": 0.0}),
    Rule("alternatives re-judged with their own light (resolve_rejudged)", "resolve", {"resolve_rejudged": 0}),
    Rule("polish towards a cube the judge prefers (resolve_polish_rounds)", "resolve", {"resolve_polish_rounds": 0}),
)


@dataclass
class Face:
    png: bytes
    truth: np.ndarray
    colours: tuple[str, ...]

    def image(self) -> np.ndarray:
        return cv2.imdecode(np.frombuffer(self.png, np.uint8), cv2.IMREAD_COLOR)


@dataclass
class Cube:
    family: str
    kind: str  # a condition, or "solved"
    truth: str
    faces: dict[str, Face]


@dataclass
class Reads:
    """One reading of every cube: per cube, per face (placed?, misplaced?, rgb or None); and the facelets."""

    faces: list[dict[str, tuple[bool, bool, np.ndarray | None, Any, int]]]  # ..., the detection, preview right
    facelets: list[str]


def build(cubes: int, solved: int, families: Sequence[str] = FAMILIES, conditions: Sequence[str] = CONDITIONS,
          split: str = "validation") -> list[Cube]:
    out = []
    jobs = [(f, c, s, None) for f in families for c in conditions for s in cube_seeds(split, cubes)]
    jobs += [(f, "medium", s, SOLVED) for f in families for s in cube_seeds(split, solved, SOLVED_SEED_OFFSET)]
    for family, condition, seed, facelets in jobs:
        truth, renders, _ = render(family, condition, seed, facelets)
        faces = {f: Face(cv2.imencode(".png", renders[f].image, [cv2.IMWRITE_PNG_COMPRESSION, 1])[1].tobytes(),
                         np.asarray(renders[f].stickers), tuple(renders[f].colours)) for f in FACES}
        out.append(Cube(family, "solved" if facelets else condition, truth, faces))
    return out


def _same_rgb(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and np.array_equal(a, b))


def read(data: list[Cube], t: Tunables, stage: str, base: Reads | None, rule: Rule | None) -> Reads:
    """Read every cube; with ``base``, reuse what the rule cannot change (detections, or all the rgb)."""
    faces, facelets = [], []
    with rule.off() if rule else contextlib.nullcontext():
        for n, cube in enumerate(data):
            per_face = {}
            for face, f in cube.faces.items():
                if base is not None and stage == "resolve":
                    per_face[face] = base.faces[n][face]
                    continue
                image = f.image()
                reuse = base is not None and stage == "measure"  # the rule cannot change the detection
                det = base.faces[n][face][3] if reuse else detect.detect_face(image, t)
                if det is None:
                    per_face[face] = (False, False, None, None, 0, None)
                    continue
                placed = detection_matches(det, f.truth)
                measured = measure_stickers_with_spread(image, det, t)
                # The live preview names each face's stickers on its own (classify_face): measurement shows there.
                names = classify_face(measured.rgb, DEFAULT_PALETTE, t).names if placed else ("",) * 9
                right = sum(a == b for a, b in zip(names, f.colours, strict=True))
                # Resolved as qbr scan resolves: each sticker's own light (a spot's taken off), weighed by 1 - spot.
                per_face[face] = (placed, not placed, measured.own, det, right, 1.0 - measured.spot)
            same = base is not None and all(_same_rgb(a[2], b[2])
                                            for a, b in zip(per_face.values(), base.faces[n].values(), strict=True))
            if same and stage != "resolve":
                facelets.append(base.facelets[n])  # the same measurements resolve the same
            else:
                rgb = {face: v[2] for face, v in per_face.items() if v[2] is not None}
                trust = {face: v[5] for face, v in per_face.items() if v[5] is not None}
                facelets.append(resolve.resolve_cube(rgb, tunables=t, trust=trust).facelets)
            faces.append(per_face)
    return Reads(faces, facelets)


def turned_named(data: list[Cube], base: Reads, t: Tunables, rule: Rule | None) -> tuple[int, int]:
    """Cubes read in full, one face turned (face and turn from the cube's index): how many are read turned back."""
    right = total = 0
    with rule.off() if rule else contextlib.nullcontext():
        for n, cube in enumerate(data):
            reads = base.faces[n]
            if cube.kind == "solved" or not all(v[0] for v in reads.values()) or base.facelets[n] != cube.truth:
                continue
            face = FACES[n % 6]
            k = 1 + n % 3
            rgb = {f: v[2] for f, v in reads.items()}
            trust = {f: v[5] for f, v in reads.items()}
            rgb[face] = np.rot90(rgb[face].reshape(3, 3, 3), k).reshape(9, 3)
            trust[face] = np.rot90(trust[face].reshape(3, 3), k).ravel()
            result = resolve.resolve_cube(rgb, tunables=t, trust=trust)
            total += 1
            # Read turned back: the right cube, with that face named as turned (the notice the user sees).
            right += result.valid and result.facelets == cube.truth and face in (result.turned or {})
    return right, total


def real_scans(t: Tunables, rule: Rule | None) -> tuple[int, int]:
    right = total = 0
    with rule.off() if rule else contextlib.nullcontext():
        for path in sorted((ROOT / "tests" / "data" / "colour-scans").glob("*.json")):
            scan = json.loads(path.read_text())
            if scan.get("size") != 3:
                continue
            total += 1
            rgb = {f: np.array(scan["rgb"][f], float) for f in FACES}
            right += resolve.resolve_cube(rgb, tunables=t).facelets == scan["expected_facelets"]
    return right, total


def augmented(seeds: int, t: Tunables, rule: Rule | None) -> tuple[int, int]:
    """The dev scans (colour scans and photo sets' measurements), each augmented by ``seeds`` validation seeds."""
    cases = [(augment(rgb, truth, s), truth) for _, rgb, truth in dev_scans() for s in VALIDATION_SEEDS[:seeds]]
    with rule.off() if rule else contextlib.nullcontext():
        right = sum(resolve.resolve_cube(rgb, tunables=t).facelets == truth for rgb, truth in cases)
    return right, len(cases)


ROOM_SEED_OFFSET = 70_000  # rooms without a cube take seeds of their own in each range


def rooms(count: int, split: str) -> list[np.ndarray]:
    """Rooms without a cube, BGR, from quiet walls to busy rooms, with a little sensor noise."""
    out = []
    for n, seed in enumerate(cube_seeds(split, count, ROOM_SEED_OFFSET)):
        rng = np.random.default_rng(seed)
        room = make_background(640, 480, (0.0, 0.5, 1.0, 1.0)[n % 4], rng)
        noisy = room[..., ::-1].astype(np.float32) + rng.normal(0, 2.0, room.shape).astype(np.float32)
        out.append(np.clip(noisy, 0, 255).astype(np.uint8))
    return out


def false_faces(images: list[np.ndarray], t: Tunables, rule: Rule | None) -> int:
    with rule.off() if rule else contextlib.nullcontext():
        return sum(detect.detect_face(image, t) is not None for image in images)


def summary(data: list[Cube], reads: Reads, groups: Sequence[str] = ()) -> dict[str, tuple[int, ...]]:
    """Per group (family, or 'solved'): faces found in place, faces misplaced, cubes exact, preview stickers right."""
    out: dict[str, list[int]] = {g: [0, 0, 0, 0] for g in groups}
    for cube, faces, got in zip(data, reads.faces, reads.facelets, strict=True):
        key = "solved" if cube.kind == "solved" else cube.family
        row = out.setdefault(key, [0, 0, 0, 0])
        row[0] += sum(v[0] for v in faces.values())
        row[1] += sum(v[1] for v in faces.values())
        row[2] += got == cube.truth
        row[3] += sum(v[4] for v in faces.values())
    return {k: tuple(v) for k, v in out.items()}


def _cell(value: int, base: int) -> str:
    return f"{value}" if value == base else f"**{value} ({value - base:+d})**"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cubes", type=int, default=25, help="validation cubes per family and condition")
    parser.add_argument("--solved", type=int, default=10, help="solved validation cubes per family")
    parser.add_argument("--augmented", type=int, default=10, help="validation seeds per dev scan augmented")
    parser.add_argument("--rooms", type=int, default=60, help="rooms without a cube (detection rules)")
    parser.add_argument("--only", nargs="*", help="rules whose name contains one of these")
    parser.add_argument("--split", default="validation", choices=SPLITS,
                        help="tuning: to diagnose a rule's effect on the scenes that may be looked at")
    parser.add_argument("--families", nargs="*", default=list(FAMILIES), choices=FAMILIES)
    parser.add_argument("--conditions", nargs="*", default=list(CONDITIONS), choices=CONDITIONS)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    started = time.perf_counter()
    data = build(args.cubes, args.solved, args.families, args.conditions, args.split)
    rendered = time.perf_counter() - started
    t0 = Tunables()
    base = read(data, t0, "detect", None, None)
    groups = [*args.families, *(["solved"] if args.solved else [])]
    base_sum = summary(data, base, groups)
    base_turned = turned_named(data, base, t0, None)
    base_real = real_scans(t0, None)
    base_aug = augmented(args.augmented, t0, None)
    empty = rooms(args.rooms, args.split)
    base_false = false_faces(empty, t0, None)
    counts = {g: sum(1 for c in data if (c.kind == "solved") == (g == "solved") and (g == "solved" or c.family == g))
              for g in groups}
    print(f"## Ablation on the {args.split} range ({args.cubes} cubes per family and condition "
          f"({', '.join(args.conditions)}): " + " and ".join(f"{counts[f]} {f}" for f in args.families)
          + f" cubes, {6 * sum(counts[f] for f in args.families)} faces; plus {args.solved * len(args.families)} "
          "solved cubes)\n")
    print("Each cell: faces found in place / faces misplaced / cubes exact; **bold** where switching the rule off "
          "changes it. Preview: stickers of faces found in place named right by the live preview (classify_face, "
          "default palette) on their own. Turned: cubes with one face turned read right and that face named turned. "
          "Real: dev colour scans exact. Augmented: dev scans in other light exact. "
          "False faces: rooms without a cube where a face is found.\n")
    header = " | ".join(f"{g}: found | misplaced | exact" for g in groups)
    print(f"| rule off | stage | {header} | preview stickers right | turned named | real scans exact | augmented exact "
          "| false faces | effect |")
    print("|---|---|" + "---:|" * (3 * len(groups) + 5) + "---|")

    def row(name: str, stage: str, sums: dict[str, tuple[int, ...]], turned: tuple[int, int],
            real: tuple[int, int], aug: tuple[int, int], false: int) -> None:
        cells = []
        changed = turned != base_turned or real != base_real or aug != base_aug or false != base_false
        for g in groups:
            for k in range(3):
                cells.append(_cell(sums[g][k], base_sum[g][k]))
                changed |= sums[g][k] != base_sum[g][k]
        preview, base_preview = sum(sums[g][3] for g in groups), sum(base_sum[g][3] for g in groups)
        changed |= preview != base_preview
        cells.append(_cell(preview, base_preview))
        effect = "baseline" if name == "(none: qbr as it is)" else ("measured" if changed else "**none measured**")
        print(f"| {name} | {stage} | {' | '.join(cells)} | {_cell(turned[0], base_turned[0])}/{turned[1]} | "
              f"{_cell(real[0], base_real[0])}/{real[1]} | {_cell(aug[0], base_aug[0])}/{aug[1]} | "
              f"{_cell(false, base_false)}/{len(empty)} | {effect} |",
              flush=True)

    row("(none: qbr as it is)", "-", base_sum, base_turned, base_real, base_aug, base_false)
    for rule in RULES:
        if args.only and not any(o.lower() in rule.name.lower() for o in args.only):
            continue
        t = dataclasses.replace(t0, **rule.tunables)
        reads = read(data, t, rule.stage, base, rule)
        if rule.stage == "resolve":
            turned, real = turned_named(data, base, t, rule), real_scans(t, rule)
            aug = augmented(args.augmented, t, rule)
        else:
            turned, real, aug = base_turned, base_real, base_aug
        false = false_faces(empty, t, rule) if rule.stage == "detect" else base_false
        row(rule.name, rule.stage, summary(data, reads, groups), turned, real, aug, false)
    print(f"\n(rendering {rendered:.0f} s, total run time {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
