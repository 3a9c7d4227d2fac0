"""Glare-washed coloured stickers the live preview names white with confidence, and true whites it stays sure of.

    nice -n 10 python bench/glare_whites.py [--faces 60] [--cubes 10]

(1) Strongly glared faces (tests/synth, an easy scene with a specular spot of 1.0-2.5 times white, 0.6-1.2 sticker
sizes), seeds of both ranges of bench/seeds.py: coloured stickers named white with confidence >= 0.5 (the preview's
"sure"), with the glare share given to naming as the preview does, and without it (measurement alone).
(2) Ordinary faces of the scan benchmark (both families, easy/medium/hard, faces found in place): the share of
true whites named white with confidence >= 0.5, and coloured stickers named a sure white.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the renderers live with the tests
sys.path.insert(0, str(ROOT / "bench"))

import synth  # noqa: E402
from families import render  # noqa: E402
from scan_accuracy import detection_matches  # noqa: E402
from seeds import FIRST, SPLITS, cube_seeds  # noqa: E402

from qbr.cube.conventions import FACES  # noqa: E402
from qbr.vision.classify import FaceColours, classify_face  # noqa: E402
from qbr.vision.detect import detect_face  # noqa: E402
from qbr.vision.measure import StickerColours, measure_stickers_with_spread  # noqa: E402
from qbr.vision.palette import DEFAULT_PALETTE  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

SURE = 0.5  # the preview's "sure" (below it a sticker is drawn uncertain)


def _name(measured: StickerColours, tunables: Tunables, glare_share: bool) -> FaceColours:
    return classify_face(measured.rgb, DEFAULT_PALETTE, tunables, glare=measured.glare if glare_share else None)


def glared_faces(split: str, faces: int, tunables: Tunables) -> tuple[int, int, int]:
    """(sure false whites with the glare share, without it, faces read) on strongly glared renders."""
    sure = blind = read = 0
    for seed in cube_seeds(split, faces):
        rng = np.random.default_rng([seed, 77])
        colours = synth.random_colours(rng)
        params = dataclasses.replace(synth.sample_params("easy", rng, palette="standard"),
                                     glare=float(rng.uniform(1.0, 2.5)), glare_size=float(rng.uniform(0.6, 1.2)))
        shot = synth.render_face(colours, params, rng)
        detection = detect_face(shot.image, tunables)
        if detection is None:
            continue
        read += 1
        where = np.linalg.norm(shot.stickers.mean(axis=1)[:, None] - detection.sticker_centres()[None], axis=2)
        measured = measure_stickers_with_spread(shot.image, detection, tunables)
        told, alone = _name(measured, tunables, True), _name(measured, tunables, False)
        for truth, k in zip(colours, where.argmin(axis=1).tolist(), strict=True):
            if truth != "white":
                sure += told.names[k] == "white" and told.confidence[k] >= SURE
                blind += alone.names[k] == "white" and alone.confidence[k] >= SURE
    return sure, blind, read


def ordinary_whites(family: str, condition: str, split: str, cubes: int, tunables: Tunables) -> tuple[int, ...]:
    """(true whites named a sure white, true whites, coloured named a sure white, coloured) on the scan bench's
    faces found in place; the standard scheme's white is the U face's colour."""
    sure = whites = false = coloured = 0
    for seed in cube_seeds(split, cubes):
        truth, renders, _ = render(family, condition, seed)
        for i, face in enumerate(FACES):
            detection = detect_face(renders[face].image, tunables)
            if detection is None or not detection_matches(detection, renders[face].stickers):
                continue
            named = _name(measure_stickers_with_spread(renders[face].image, detection, tunables), tunables, True)
            for k in range(9):
                white = truth[9 * i + k] == "U"
                is_sure = named.names[k] == "white" and named.confidence[k] >= SURE
                whites += white
                sure += white and is_sure
                coloured += not white
                false += (not white) and is_sure
    return sure, whites, false, coloured


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--faces", type=int, default=60, help="glared faces per seed range")
    parser.add_argument("--cubes", type=int, default=10, help="scan-bench cubes per family, condition and range")
    args = parser.parse_args(argv)
    tunables = Tunables()
    print("| glared faces (synth) | seeds | faces read | sure false whites | without the glare share |")
    print("|---|---|---:|---:|---:|")
    for split in SPLITS:
        sure, blind, read = glared_faces(split, args.faces, tunables)
        print(f"| {split} | {FIRST[split]}.. | {read} | {sure} | {blind} |")
    print()
    print("| family | condition | true whites sure: tuning | validation "
          "| coloured named sure white: tuning | validation |")
    print("|---|---|---:|---:|---:|---:|")
    for family in ("synth", "physcam"):
        for condition in ("easy", "medium", "hard"):
            cells = [ordinary_whites(family, condition, split, args.cubes, tunables) for split in SPLITS]
            whites = " | ".join(f"{s}/{w} ({100 * s / max(w, 1):.1f}%)" for s, w, _, _ in cells)
            false = " | ".join(f"{f}/{c}" for _, _, f, c in cells)
            print(f"| {family} | {condition} | {whites} | {false} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
