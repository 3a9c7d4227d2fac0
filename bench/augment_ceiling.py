"""How many augmented real scans can be read at all: an oracle that knows each variant's light, camera and noise.

    nice -n 10 python bench/augment_ceiling.py [--seeds 50] [--ranking]

The augmentation (tests/synth/augment.py) adds sensor noise of up to 5 sRGB levels to each sticker's mean, and some
scans' colours are closer than that (3x3x3-random-01's two whites differ by ~5 levels in one channel). So some
variants are not decidable from their measurements. The oracle knows all the resolver has to guess: each face's
linear gain, the camera's gamma, the noise sd, and each colour's mean and per-channel spread (the scan's own nine
stickers of it carried through that face's light); it does not know which sticker has which colour. Its cost of a
sticker for a colour is the negative log-likelihood of the measurement (Gaussian per channel, a clipped channel
counts as "at least"), and the cheapest real cube under it (``qbr.vision.resolve.search.solve``) is its reading.
Where it reads a variant wrong, the measurements favour the wrong cube: no judge can be expected to read it.

``--ranking`` also scores the whole-cube judge (``qbr.vision.resolve.judge``) and the oracle on the truth against
the real cubes nearly as cheap around it (up to 25, from the judge's own cost matrix of the truth): a judge that
cannot rank the truth first there loses the cube whatever the search does. It runs in a minute, so a change to the
judge can be tried without running the resolver (``bench/resolve_accuracy.py``). Validation seeds print counts only.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from scipy.stats import norm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from resolve_accuracy import dev_scans  # noqa: E402
from synth.augment import TUNING_SEEDS, VALIDATION_SEEDS, Variant, variant  # noqa: E402
from synth.palettes import linear_to_srgb  # noqa: E402

from qbr.cube.conventions import FACES  # noqa: E402
from qbr.vision.colour import srgb_decode  # noqa: E402
from qbr.vision.resolve.alternatives import find_alternatives  # noqa: E402
from qbr.vision.resolve.judge import judge  # noqa: E402
from qbr.vision.resolve.search import solve  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

MAX_NODES = 400  # as resolve_max_nodes
RIVALS = 25  # real cubes around the truth ranked against it
REACH = 60.0  # how much dearer than the truth (judge's cost matrix) a rival may be


def oracle_costs(made: Variant, truth: str) -> np.ndarray:
    """Sticker x colour negative log-likelihood of the measurements, knowing the variant's light, gamma and noise."""
    measured = np.concatenate([made.rgb[f] for f in FACES])
    letters = np.array(list(truth))
    cost = np.zeros((54, 6))
    for c, letter in enumerate(FACES):
        members = made.linear[letters == letter]
        for f in range(6):
            seen = 255.0 * (linear_to_srgb(members * made.gains[f]) / 255.0) ** made.gamma  # the colour on face f
            sd = np.sqrt(made.noise ** 2 + seen.var(axis=0, ddof=1) + 1.0 / 12.0)  # noise, stickers, rounding
            mean = seen.mean(axis=0)
            y = measured[9 * f : 9 * f + 9]
            loglik = np.where(y >= 255, norm.logsf(254.5, mean, sd),
                              np.where(y <= 0, norm.logcdf(0.5, mean, sd), norm.logpdf(y, mean, sd)))
            cost[9 * f : 9 * f + 9, c] = -loglik.sum(axis=1)
    return cost - cost.min(axis=1, keepdims=True)


def rivals(linear: np.ndarray, truth_colours: np.ndarray, tunables: Tunables) -> list[np.ndarray]:
    """Real cubes nearly as cheap as the truth under the judge's cost matrix of the truth (the closest first)."""
    measured = np.ones(54, dtype=bool)
    honest = judge(linear, measured, truth_colours, tunables)[1]
    found = solve(honest, MAX_NODES)
    if found is None:
        return []
    near = sorted([*find_alternatives(found[1], found[2], MAX_NODES, REACH), (0.0, found[0])], key=lambda a: a[0])
    seen: dict[bytes, np.ndarray] = {}
    for _, colours in near:
        if (colours != truth_colours).any() and len(seen) < RIVALS:
            seen.setdefault(colours.tobytes(), colours)
    return list(seen.values())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=50, help="augmentation seeds per scan and range")
    parser.add_argument("--ranking", action="store_true", help="also rank the truth against its near rivals")
    args = parser.parse_args(argv)
    tunables = Tunables()
    scans = dev_scans()
    print("| seeds | variants | oracle reads exact | judge ranks truth first | oracle ranks truth first |")
    print("|---|---:|---:|---:|---:|")
    for split, seeds in (("tuning", TUNING_SEEDS[: args.seeds]), ("validation", VALIDATION_SEEDS[: args.seeds])):
        n = exact = judged = oracled = 0
        missed: list[str] = []
        for name, rgb, truth in scans:
            truth_colours = np.array([FACES.index(c) for c in truth])
            for seed in seeds:
                made = variant(rgb, truth, seed)
                cost = oracle_costs(made, truth)
                found = solve(cost, MAX_NODES)
                n += 1
                right = found is not None and np.array_equal(found[0], truth_colours)
                exact += right
                if not right:
                    missed.append(f"{name}:{seed}")
                if args.ranking:
                    linear = srgb_decode(np.concatenate([made.rgb[f] for f in FACES]))
                    others = rivals(linear, truth_colours, tunables)
                    scores = [judge(linear, np.ones(54, dtype=bool), c, tunables)[0] for c in [truth_colours, *others]]
                    judged += all(scores[0] < s for s in scores[1:])
                    sums = [float(cost[np.arange(54), c].sum()) for c in [truth_colours, *others]]
                    oracled += all(sums[0] < s for s in sums[1:])
        ranks = (f"{judged} ({100 * judged / n:.1f}%) | {oracled} ({100 * oracled / n:.1f}%)" if args.ranking
                 else "- | -")
        print(f"| {split} {seeds.start}-{seeds.stop - 1} | {n} | {exact} ({100 * exact / n:.1f}%) | {ranks} |")
        if split == "tuning" and missed:
            print("\noracle misses (tuning): " + ", ".join(missed) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
