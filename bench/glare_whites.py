"""Glare-washed coloured stickers the live preview names white with confidence, and true whites it stays sure of.

    nice -n 10 python bench/glare_whites.py [--faces 60] [--cubes 10] [--set FIELD=VALUE]

(1) Strongly glared faces, seeds of both ranges of bench/seeds.py: tests/synth, an easy scene with a specular spot of
1.0-2.5 times white, 0.6-1.2 sticker sizes (its glare clips); tests/physcam, an easy scene with the key lamp's spot at
1.5-3 times white (its auto-exposure keeps the spot below clipping: a coloured sticker under it is pale all over).
Coloured stickers named white with confidence >= 0.5 (the preview's "sure"), with the glare share given to naming as
the preview does, and without it (measurement alone); and the true whites on those faces named a sure white.
(2) Ordinary faces of the scan benchmark (both families, easy/medium/hard, faces found in place): the share of
true whites named white with confidence >= 0.5, and coloured stickers named a sure white.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the renderers live with the tests
sys.path.insert(0, str(ROOT / "bench"))

import physcam  # noqa: E402
import synth  # noqa: E402
from families import render  # noqa: E402
from scan_accuracy import detection_matches  # noqa: E402
from seeds import FIRST, SPLITS, cube_seeds  # noqa: E402
from set_tunables import with_set  # noqa: E402

from qbr.cube.conventions import FACES  # noqa: E402
from qbr.vision.classify import FaceColours, classify_face  # noqa: E402
from qbr.vision.detect import detect_face  # noqa: E402
from qbr.vision.measure import StickerColours, measure_stickers_with_spread  # noqa: E402
from qbr.vision.palette import DEFAULT_PALETTE  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

SURE = 0.5  # the preview's "sure" (below it a sticker is drawn uncertain)


def _name(measured: StickerColours, tunables: Tunables, glare_share: bool) -> FaceColours:
    return classify_face(measured.rgb, DEFAULT_PALETTE, tunables, glare=measured.glare if glare_share else None,
                        spot=measured.spot if glare_share else None, spread=measured.spread if glare_share else None)


def _glared_shot(family: str, seed: int) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """(image, true sticker corners, colours) of one strongly glared easy face of a family."""
    rng = np.random.default_rng([seed, 77])
    colours = synth.random_colours(rng)
    if family == "physcam":
        params = dataclasses.replace(physcam.sample_params("easy", rng), glare=float(rng.uniform(1.5, 3.0)))
        shot = physcam.render_face(colours, params, rng)
    else:
        params = dataclasses.replace(synth.sample_params("easy", rng, palette="standard"),
                                     glare=float(rng.uniform(1.0, 2.5)), glare_size=float(rng.uniform(0.6, 1.2)))
        shot = synth.render_face(colours, params, rng)
    return shot.image, shot.stickers, colours


def glared_reads(family: str, seeds: Iterable[int], tunables: Tunables,
                 ) -> Iterator[tuple[StickerColours, list[tuple[str, int]]]]:
    """Each strongly glared face of ``seeds`` that is found whole: its measurement and, per true sticker, (its true
    colour, the index of the detected sticker nearest it)."""
    for seed in seeds:
        image, stickers, colours = _glared_shot(family, seed)
        detection = detect_face(image, tunables)
        if detection is None or len(detection.stickers) != 9:
            continue
        where = np.linalg.norm(stickers.mean(axis=1)[:, None] - detection.sticker_centres()[None], axis=2)
        yield (measure_stickers_with_spread(image, detection, tunables),
               list(zip(colours, where.argmin(axis=1).tolist(), strict=True)))


def glared_faces(family: str, split: str, faces: int, tunables: Tunables, start: int = 0) -> tuple[int, ...]:
    """(sure false whites with the glare share, without it, faces read, true whites sure, true whites) on strongly
    glared renders of a family: faces ``start .. start+faces-1`` of a split."""
    sure = blind = read = white_sure = whites = 0
    for measured, truths in glared_reads(family, cube_seeds(split, faces, start), tunables):
        read += 1
        told, alone = _name(measured, tunables, True), _name(measured, tunables, False)
        for truth, k in truths:
            is_sure = told.names[k] == "white" and told.confidence[k] >= SURE
            if truth != "white":
                sure += is_sure
                blind += alone.names[k] == "white" and alone.confidence[k] >= SURE
            else:
                whites += 1
                white_sure += is_sure
    return sure, blind, read, white_sure, whites


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
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="name with this Tunables field changed (repeatable)")
    args = parser.parse_args(argv)
    tunables = with_set(Tunables(), args.set)
    print("| glared faces | seeds | faces read | sure false whites | without the glare share | true whites sure |")
    print("|---|---|---:|---:|---:|---:|")
    for family in ("synth", "physcam"):
        for split in SPLITS:
            sure, blind, read, white_sure, whites = glared_faces(family, split, args.faces, tunables)
            print(f"| {family} {split} | {FIRST[split]}.. | {read} | {sure} | {blind} | {white_sure}/{whites} |")
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
