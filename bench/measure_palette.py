"""Measure the default palette on real stickers in several lights, and check each face's light fit against it.

    python bench/measure_palette.py [--rounds 3] [--write calibration/default.json]

Sources (each a camera and its lights; labelled stickers only):
  iPhone, Pixel  the TUNING half of ``tests/data/phone-faces`` (every other photo of each phone, as in
                 bench/live_colours.py: the other half only validates), daylight and room light, handheld;
  scans          dwalton76's measured 3x3 colour scans (``tests/data/colour-scans``: webcams and a colour sensor);
  rig            dwalton76's robot-rig photos (``tests/data/photos``), detected and measured here.
How: start from the current default; fit every face's light (exposure and cast, ``adapt_to_palette``, the fit the
live preview does) to the palette; each colour becomes the median, per channel in linear RGB, of the median of
each source's fitted stickers of that colour (every source weighs the same, whatever its count); repeat, each
round fitting against the palette of the round before. Printed: each source's colours, the palette, and how far
each face's fitted stickers lie from it (CIEDE2000: the light fit checked against the palette).
The red/orange boundary (``red_orange_hue``: the glare-free hue, as measured, where a red or orange alone on a
face changes name) is the middle of the range of hues that misnames fewest red and orange stickers of the phones'
tuning half (each phone weighing the same); it is checked leaving each of the 36 photos out in turn (the boundary
measured on the other 35, then that photo named with it).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import live_colours  # noqa: E402

from qbr.vision.classify import adapt_to_palette, classify_face  # noqa: E402
from qbr.vision.colour import delta_e, glare_free_hue, linear_to_lab, srgb_decode, srgb_encode  # noqa: E402
from qbr.vision.palette import COLOUR_NAMES, DEFAULT_PALETTE, Palette  # noqa: E402
from qbr.vision.tunables import Tunables  # noqa: E402

Face = tuple[np.ndarray, tuple[str, ...]]  # nine measured sRGB stickers and their colour names


def sources(tunables: Tunables) -> dict[str, list[Face]]:
    """Labelled faces of each source (the phone photos' tuning half only)."""
    out: dict[str, list[Face]] = {"iPhone": [], "Pixel": [], "scans": [], "rig": []}
    reads = live_colours.phone_reads(live_colours.PHONE_FACES, tunables)
    photos = [photo for photo, _, _ in reads]
    for photo, rgb, truth in reads:
        if rgb is not None and truth is not None and live_colours.phone_split(photo, photos) == "tuning":
            out["iPhone" if photo.startswith("IMG") else "Pixel"].append((live_colours.colours_of(rgb), tuple(truth)))
    for label, faces in live_colours.real_sessions(tunables).items():
        for rgb, truth in faces:
            if rgb is not None:
                out["scans" if label.startswith("scan") else "rig"].append((live_colours.colours_of(rgb), truth))
    return out


def fitted(faces: list[Face], palette: Palette, tunables: Tunables) -> list[tuple[np.ndarray, tuple[str, ...]]]:
    """Each face's stickers in linear RGB with its light fitted to ``palette``."""
    return [(adapt_to_palette(srgb_decode(rgb), palette, tunables), truth) for rgb, truth in faces]


def source_colours(faces: list[tuple[np.ndarray, tuple[str, ...]]]) -> dict[str, np.ndarray]:
    """Per colour the per-channel median of the source's fitted stickers of that colour."""
    out = {}
    for name in COLOUR_NAMES:
        rows = [linear[k] for linear, truth in faces for k in range(len(truth)) if truth[k] == name]
        if rows:
            out[name] = np.median(np.array(rows), axis=0)
    return out


def measure(data: dict[str, list[Face]], rounds: int, tunables: Tunables) -> tuple[Palette, dict[str, dict]]:
    palette = DEFAULT_PALETTE
    per_source: dict[str, dict[str, np.ndarray]] = {}
    for _ in range(rounds):
        per_source = {s: source_colours(fitted(faces, palette, tunables)) for s, faces in data.items() if faces}
        colours = {}
        for name in COLOUR_NAMES:
            linear = np.median(np.array([c[name] for c in per_source.values() if name in c]), axis=0)
            colours[name] = tuple(round(float(v), 1) for v in np.clip(srgb_encode(linear), 0, 255))
        palette = Palette(colours=colours, name="default")
    return palette, per_source


def print_palette_table(palette: Palette, per_source: dict[str, dict[str, np.ndarray]]) -> None:
    print("| colour | " + " | ".join(per_source) + " | measured default | old default | dE00 old->new |")
    print("|---|" + "---|" * (len(per_source) + 3))
    for name in COLOUR_NAMES:
        cells = [" ".join(f"{v:.0f}" for v in srgb_encode(c[name])) if name in c else "-"
                 for c in per_source.values()]
        new, old = np.array(palette.colours[name]), np.array(DEFAULT_PALETTE.colours[name])
        gap = float(delta_e(linear_to_lab(srgb_decode(new)), linear_to_lab(srgb_decode(old))))
        print(f"| {name} | " + " | ".join(cells) + f" | {' '.join(f'{v:.0f}' for v in new)} | "
              f"{' '.join(f'{v:.0f}' for v in old)} | {gap:.1f} |")


def print_fit_check(data: dict[str, list[Face]], palettes: dict[str, Palette], tunables: Tunables) -> None:
    """Median and 90th-percentile CIEDE2000 of fitted stickers to their own colour, and nearest-colour errors."""
    print("\nPer-face light fit checked against each palette (stickers after the fit vs their labelled colour)\n")
    print("| source | faces | " + " | ".join(f"{p}: median / p90 dE00, nearest wrong" for p in palettes) + " |")
    print("|---|---:|" + "---:|" * len(palettes))
    for source, faces in data.items():
        cells = []
        for palette in palettes.values():
            gaps, wrong = [], 0
            lab_refs = palette.lab()
            for linear, truth in fitted(faces, palette, tunables):
                to_refs = delta_e(linear_to_lab(linear)[:, None, :], lab_refs[None, :, :])
                index = [COLOUR_NAMES.index(n) for n in truth]
                gaps += to_refs[np.arange(len(index)), index].tolist()
                wrong += int((to_refs.argmin(axis=1) != np.array(index)).sum())
            cells.append(f"{np.median(gaps):.1f} / {np.percentile(gaps, 90):.1f}, {wrong}")
        print(f"| {source} | {len(faces)} | " + " | ".join(cells) + " |")


HUES = np.arange(30.0, 60.0, 0.25)  # candidate boundaries, degrees


def warm_hues(faces: list[Face]) -> tuple[np.ndarray, np.ndarray]:
    """Glare-free hues, as measured, of the faces' red stickers and of their orange ones."""
    pairs = [(n, float(glare_free_hue(srgb_decode(rgb[k])))) for rgb, truth in faces for k, n in enumerate(truth)
             if n in ("red", "orange")]
    return (np.array([h for n, h in pairs if n == "red"]), np.array([h for n, h in pairs if n == "orange"]))


def boundary(groups: Sequence[list[Face]]) -> float:
    """The middle of the hue range misnaming the smallest share of reds and oranges, each group weighing the same."""
    cost = np.zeros(len(HUES))
    for faces in groups:
        reds, oranges = warm_hues(faces)
        wrong = (reds[None, :] >= HUES[:, None]).sum(axis=1) + (oranges[None, :] < HUES[:, None]).sum(axis=1)
        cost += wrong / max(len(reds) + len(oranges), 1)
    best = np.flatnonzero(cost <= cost.min() + 1e-12)
    run = best[: int(np.argmax(np.diff(np.append(best, best[-1] + 2)) > 1)) + 1]  # the first unbroken range
    return float((HUES[run[0]] + HUES[run[-1]]) / 2)


def print_boundary(data: dict[str, list[Face]], tunables: Tunables) -> None:
    print("\nRed/orange: glare-free hue as measured (degrees), per source\n")
    print("| source | reds: median / max | oranges: min / median |")
    print("|---|---:|---:|")
    for source, faces in data.items():
        reds, oranges = warm_hues(faces)
        if len(reds) and len(oranges):
            print(f"| {source} | {np.median(reds):.1f} / {reds.max():.1f} | {oranges.min():.1f} / "
                  f"{np.median(oranges):.1f} |")
    phones = [data[p] for p in ("iPhone", "Pixel") if data.get(p)]
    print(f"\nMeasured red_orange_hue (phones' tuning half): {boundary(phones):.2f} "
          f"(default palette: {DEFAULT_PALETTE.red_orange_hue})")
    reads = [(photo, measured.rgb, truth) for photo, measured, truth
             in live_colours.phone_reads(live_colours.PHONE_FACES, tunables)
             if measured is not None and truth is not None]
    right = orange_red = 0
    for photo, rgb, truth in reads:
        others = [[(r, tuple(t)) for p, r, t in reads if p != photo and p[:3] == phone] for phone in ("IMG", "PXL")]
        palette = Palette(colours=DEFAULT_PALETTE.colours, name="loo", red_orange_hue=boundary(others))
        names = classify_face(rgb, palette, tunables).names
        right += tuple(truth) == names
        orange_red += sum(a == "orange" and b == "red" for a, b in zip(truth, names, strict=True))
    print(f"Leave-one-out over the {len(reads)} phone photos: {right}/{len(reads)} faces all right, "
          f"orange read as red {orange_red}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="fit-and-measure rounds")
    parser.add_argument("--write", type=Path, help="write the measured palette here (qbr-palette JSON)")
    parser.add_argument("--sources", default="iPhone,Pixel,scans,rig", help="comma-separated sources to measure on")
    parser.add_argument("--samples", action="store_true",
                        help="keep the old default's colours and add each source's as samples")
    args = parser.parse_args(argv)
    tunables = Tunables()
    data = {k: v for k, v in sources(tunables).items() if k in args.sources.split(",")}
    palette, per_source = measure(data, args.rounds, tunables)
    if args.samples:
        samples = {n: tuple(tuple(float(v) for v in np.clip(srgb_encode(c[n]), 0, 255)) for c in per_source.values())
                   for n in COLOUR_NAMES}
        palette = Palette(colours=dict(DEFAULT_PALETTE.colours), name="default", samples=samples)
    print_palette_table(palette, per_source)
    print_boundary(data, tunables)
    print_fit_check(data, {"old default": DEFAULT_PALETTE, "measured": palette}, tunables)
    if args.write:
        args.write.write_text(json.dumps(palette.to_json(), indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {args.write}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
