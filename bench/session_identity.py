"""Which face the session says each captured centre is, capture by capture, against truth (issue #13 item 3).

    python bench/session_identity.py [--cubes 40] [--jobs 2] [--cache DIR] [--set FIELD=VALUE] [--split S]
                                      [--show-failures]

Reads the same rendered cubes as bench/session_colours.py (and its ``--cache``: rendering is the slow part). Each
cube's detected faces are named with the default palette as the live chain names them (classify_face with glare),
captured one by one in two orders (URFDLB, and one shuffled per cube), and after each capture placed by
qbr.app.session.identity.faces_by_centre as the session places them. Counted per group and split: "announced
wrong", the new face placed on a face of another colour when it is captured (what "captured <colour>" says);
"held wrong", capture steps after which any captured face is misplaced (what the preview and the next question
rest on); and "wrong after six", cubes whose six faces end misplaced. Tuning and validation seeds side by side.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from session_colours import GROUPS, Face, group_label, read_all

from qbr.app.session.identity import CapturedFace, IdentityTunables, faces_by_centre
from qbr.cube.conventions import FACES, STANDARD_SCHEME
from qbr.vision.classify import classify_face
from qbr.vision.palette import DEFAULT_PALETTE
from qbr.vision.tunables import Tunables


@dataclass
class Count:
    captures: int = 0
    announced_wrong: int = 0
    steps: int = 0
    held_wrong: int = 0
    sessions: int = 0
    full: int = 0
    final_wrong: int = 0
    by_step: list[int] = field(default_factory=lambda: [0] * 6)  # announced wrong at the k-th capture
    failures: list[str] = field(default_factory=list)


def session(faces: Sequence[Face], order: Sequence[int], count: Count, tag: str,
            identity: IdentityTunables = IdentityTunables()) -> None:  # noqa: B008
    """Capture the detected faces in ``order``, placing all captured centres after each one; tally the errors."""
    captures: list[CapturedFace] = []
    truth: list[str] = []
    count.sessions += 1
    for k in order:
        face = faces[k]
        if face is None:
            continue
        rgb, glare, names = face
        read = classify_face(rgb, DEFAULT_PALETTE, Tunables(), glare=glare)
        captures.append(CapturedFace(tuple(read.names), rgb))
        truth.append(names[4])
        placed = [STANDARD_SCHEME[f] for f in faces_by_centre(captures, STANDARD_SCHEME, DEFAULT_PALETTE, identity)]
        wrong = [p != t for p, t in zip(placed, truth, strict=True)]
        count.captures += 1
        count.steps += 1
        count.held_wrong += any(wrong)
        if wrong[-1]:
            count.announced_wrong += 1
            count.by_step[len(captures) - 1] += 1
            count.failures.append(f"{tag} capture {len(captures)} ({FACES[k]}): {truth[-1]} centre (named "
                                  f"{read.names[4]}, {read.confidence[4]:.2f}) announced {placed[-1]}")
    if len(captures) == len(FACES):
        count.full += 1
        count.final_wrong += any(wrong)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cubes", type=int, default=40, help="cubes per group and split")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path, help="keep the measurements here for reruns (session_colours' cache)")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="override an IdentityTunables field")
    parser.add_argument("--split", choices=("tuning", "validation", "both"), default="both")
    parser.add_argument("--show-failures", action="store_true", help="list the tuning seeds' wrong announcements")
    args = parser.parse_args(argv)
    identity = IdentityTunables()
    for item in args.set:
        key, value = item.split("=", 1)
        identity = dataclasses.replace(identity, **{key: type(getattr(identity, key))(value)})
    counts: dict[tuple[str, str], Count] = {}
    for (family, condition, palette, light, split, seed), faces in read_all(args.cubes, args.jobs, args.cache).items():
        if args.split != "both" and split != args.split:
            continue
        count = counts.setdefault((group_label(family, condition, palette, light), split), Count())
        shuffled = np.random.default_rng(seed).permutation(6).tolist()
        for name, order in (("URFDLB", list(range(6))), ("shuffled", shuffled)):
            session(faces, order, count, f"seed {seed} {name}", identity)
    print("| group | split | announced wrong (of captures) | by capture 1..6 | steps held wrong | wrong after six |")
    print("|---|---|---:|---|---:|---:|")
    for group in [group_label(*g) for g in GROUPS]:
        for split in ("tuning", "validation"):
            c = counts.get((group, split))
            if c is None:
                continue
            print(f"| {group} | {split} | {c.announced_wrong}/{c.captures} | {' '.join(map(str, c.by_step))} | "
                  f"{c.held_wrong}/{c.steps} | {c.final_wrong}/{c.full} |")
    total = {s: sum(c.announced_wrong for (g, sp), c in counts.items() if sp == s) for s in ("tuning", "validation")}
    print(f"\nannounced wrong in all: tuning {total['tuning']}, validation {total['validation']}")
    if args.show_failures:
        for (group, split), c in sorted(counts.items()):
            if split == "tuning" and c.failures:
                print(f"\n{group} | tuning:")
                for line in c.failures:
                    print(f"- {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
