"""Render cubes, measure their stickers with qbr's detection and keep those read fully: test data for resolve.

    python bench/rendered_measurements.py [--cubes 60] [--seed 3] [--tier hard] [--out tests/data/...]

Writes an .npz with, per kept cube, the truth facelets, the 54 measured sRGB colours (facelet order), the
palette name and the tier. A cube is kept only if all six faces were detected with every sticker in place
(centres within 30% of a pitch of the truth), so the file tests colour resolution alone.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the synthetic renderer lives with the tests
sys.path.insert(0, str(ROOT / "bench"))

from scan_accuracy import detection_matches  # noqa: E402
from synth import PALETTES, TIERS, RenderParams, render_cube, sample_params  # noqa: E402

from qbr.cube.conventions import FACES  # noqa: E402
from qbr.cube.generate import random_state  # noqa: E402
from qbr.vision.detect import detect_face  # noqa: E402
from qbr.vision.measure import measure_stickers  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402


def sample_params_for(tier: str, rng: np.random.Generator, palette: str, body: str) -> Callable[[str], RenderParams]:
    """Each face's own random light and pose, on one cube (one palette, one body)."""
    return lambda face: sample_params(tier, rng, palette=palette, body=body)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cubes", type=int, default=60, help="cubes rendered (those not fully detected are dropped)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--tier", choices=TIERS, default="hard")
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "data" / "rendered-measurements" / "hard.npz")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    tunables = Tunables()
    rng = np.random.default_rng([args.seed, TIERS.index(args.tier)])
    state_rng = random.Random(args.seed)
    kept: list[tuple[str, np.ndarray, str]] = []
    for _ in range(args.cubes):
        truth = random_state(state_rng).facelets
        palette = str(rng.choice(list(PALETTES)))
        body = "stickerless" if palette == "stickerless" else str(rng.choice(["black", "black", "white"]))
        params = sample_params_for(args.tier, rng, palette, body)
        renders = render_cube(truth, params, rng)
        rgb = []
        for face in FACES:
            detection = detect_face(renders[face].image, tunables)
            if detection is None or not detection_matches(detection, renders[face].stickers):
                break
            rgb.append(measure_stickers(renders[face].image, detection, tunables))
        else:
            kept.append((truth, np.concatenate(rgb), palette))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        args.out,
        truth=np.array([k[0] for k in kept]),
        rgb=np.array([k[1] for k in kept]).round(2).astype(np.float32),
        palette=np.array([k[2] for k in kept]),
        tier=np.array([args.tier] * len(kept)),
    )
    print(f"kept {len(kept)} of {args.cubes} {args.tier} cubes (seed {args.seed}) -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
