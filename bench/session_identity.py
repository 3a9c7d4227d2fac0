"""Which face the session says each captured centre is, capture by capture, against truth (issue #13 item 3).

    python bench/session_identity.py [--cubes 40] [--jobs 2] [--cache DIR] [--set FIELD=VALUE] [--split S]
                                      [--resolve] [--resolve-only] [--show-failures] [--show-stalls]

Reads the same rendered cubes as bench/session_colours.py (and its ``--cache``: rendering is the slow part). Each
cube's detected faces are named with the default palette as the live chain names them (classify_face with glare,
spot and spread), captured one by one in two orders (URFDLB, and one shuffled per cube), and after each capture
placed by qbr.app.session.identity.faces_by_centre as the session places them. Counted per group and split: "announced
wrong", the new face placed on a face of another colour when it is captured (what "captured <colour>" says);
"held wrong", capture steps after which any captured face is misplaced (what the preview and the next question
rest on); and "wrong after six", cubes whose six faces end misplaced. Tuning and validation seeds side by side.
Each capture keeps its stickers' spot shares and their colours without the spot's light, as the session's do
(``faces_by_centre`` places centres by the latter).

``--resolve`` adds a last table: each physcam hard cube's live session (``qbr.app.session.Session`` fed the faces
as frames, auto-capture) and the resolution of the cube it asks for, exact against the truth, without the trust
(every sticker weighed alike, the session before branch livetrust), with it (1 - each sticker's spot share) on the
colours as measured (before branch hardcolour), on the colours with the spot's light taken off, and also with the
faces placed by the pieces they show where that stands out (the session's resolution job as it is).
"six detected": cubes whose six photos were all detected in place, the most the session can capture (each face is
shown once: a face not detected is never seen); ``--set`` reaches these sessions' identity too. ``--show-stalls``
lists, for the tuning cubes not captured whole, why each missing face was not (not detected, or held and not taken).
The last two columns: the same sessions with the source ending after the faces, as a video does (five faces
captured: the session resolves them, the sixth deduced from their pieces), and how many of those read exactly.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from families import CONDITIONS
from seeds import state_rng
from session_colours import GROUPS, Face, Job, group_label, read_all

from qbr.app.analysis import FrameAnalysis
from qbr.app.headless import translator
from qbr.app.jobs import resolve_effect
from qbr.app.session import EndedEvent, FrameEvent, ResolveCube, Session, SessionConfig
from qbr.app.session.identity import CapturedFace, IdentityTunables, faces_by_centre
from qbr.cube.conventions import FACES, STANDARD_SCHEME
from qbr.cube.generate import random_state
from qbr.vision.classify import classify_face
from qbr.vision.palette import DEFAULT_PALETTE
from qbr.vision.resolve import resolve_cube
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
        rgb, glare, spot, names, without, spread = face
        read = classify_face(rgb, DEFAULT_PALETTE, Tunables(), glare=glare, spot=spot, spread=spread)
        captures.append(CapturedFace(tuple(read.names), rgb, spot=spot, own=without, spread=spread))
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


def live_session(faces: Sequence[Face], identity: IdentityTunables = IdentityTunables(),  # noqa: B008
                 missed: list[str] | None = None, own: bool = True, ended: bool = False) -> ResolveCube | None:
    """The cube a live session asks to resolve after each detected face is held up for 0.8 s (URFDLB, a second
    without a face between them), each frame analysed as the live chain reads it (names with glare and spot, the
    spot shares kept; with ``own`` also the colours without the spot's light). None: the session did not capture six
    faces. ``missed`` gets why each face shown was not captured: not detected in place, or held and not taken (its
    centre as read, the faces captured before it). ``ended``: the source then ends, as a video does (five faces
    captured: the session resolves them, the sixth to be deduced)."""
    session = Session(SessionConfig(interactive=False, ask_again=False, identity=identity),
                      {"en": translator("en")}, DEFAULT_PALETTE, 0.0)
    t, asked = 0.0, []
    for letter, face in zip(FACES, faces, strict=True):
        if face is None:
            if missed is not None:
                missed.append(f"{letter} not detected")
            continue
        rgb, glare, spot, names, without, spread = face
        before = session.view().captured
        read = classify_face(rgb, DEFAULT_PALETTE, Tunables(), glare=glare, spot=spot, spread=spread)
        frame = FrameAnalysis(None, rgb, tuple(read.names), read.confidence, spot=spot, own=without if own else None,
                              spread=spread)
        for _ in range(12):
            t += 1 / 15
            asked += session.handle(FrameEvent(t, frame))
        if missed is not None and len(session.view().captured) == len(before):
            missed.append(f"{letter} ({names[4]} centre read {read.names[4]} {read.confidence[4]:.2f}) not taken, "
                          f"captured before: {' '.join(f'{f}={c[4]}' for f, c in before.items())}")
        t += 1.0
        asked += session.handle(FrameEvent(t, None))
    if ended:
        asked += session.handle(EndedEvent(t, "video"))
    return next((e for e in asked if isinstance(e, ResolveCube)), None)


RESOLVE_GROUPS = (("physcam", "hard", None, "each"), ("physcam", "hard", None, "one"))
"""The groups whose live sessions are resolved (``--resolve``): a lamp's spot lies on their faces."""


def resolve_job(item: tuple[Job, list[Face], IdentityTunables]
                ) -> tuple[Job, tuple[bool, bool, bool, bool] | None, bool | None]:
    """Whether the cube a live session captured resolves exactly without the trust (before branch livetrust), with
    it (before branch hardcolour), with it on the colours without the spot's light, and also with the faces placed
    by the pieces they show where that stands out (the session's job as it is, ``jobs.resolve_effect``); None: six
    faces not captured; and whether the session reads the cube exactly when the source ends after the faces, as a
    video does (None: fewer than five captured)."""
    job, faces, identity = item
    family, condition = job[0], job[1]
    truth = random_state(state_rng(job[5], family, CONDITIONS.index(condition))).facelets
    at_end = live_session(faces, identity, ended=True)
    ended = None if at_end is None else resolve_effect(at_end)[0].facelets == truth
    measured, asked = live_session(faces, identity, own=False), live_session(faces, identity)
    if measured is None or asked is None:
        return job, None, ended
    return job, (resolve_cube(dict(measured.rgb), palette=measured.palette).facelets == truth,
                 resolve_cube(dict(measured.rgb), palette=measured.palette, trust=measured.trust).facelets == truth,
                 resolve_cube(dict(asked.rgb), palette=asked.palette, trust=asked.trust).facelets == truth,
                 resolve_effect(asked)[0].facelets == truth), ended


def resolve_table(reads: dict[Job, list[Face]], jobs: int, identity: IdentityTunables, stalls: bool) -> None:
    """Cubes a live session reads exactly, per physcam hard group and split: before -> after."""
    todo = [(j, f, identity) for j, f in reads.items() if j[:4] in RESOLVE_GROUPS]
    with ProcessPoolExecutor(jobs) as pool:
        done = list(pool.map(resolve_job, todo, chunksize=2))
    print("\n| group | split | cubes | six detected | six captured | exact without trust | exact with trust "
          "| with trust, spot taken off | and placed by pieces | exact only without | five or six at a video's end "
          "| exact at a video's end |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for group in RESOLVE_GROUPS:
        for split in ("tuning", "validation"):
            rows = [r for j, r, _ in done if j[:4] == group and j[4] == split]
            ends = [e for j, _, e in done if j[:4] == group and j[4] == split and e is not None]
            six = [r for r in rows if r is not None]
            seen = sum(all(f is not None for f in reads[j]) for j in reads if j[:4] == group and j[4] == split)
            print(f"| {group_label(*group)} | {split} | {len(rows)} | {seen} | {len(six)} | "
                  + " | ".join(f"{sum(r[k] for r in six)} ({100 * sum(r[k] for r in six) / max(len(rows), 1):.1f}%)"
                               for k in range(4)) + f" | {sum(r[0] and not r[3] for r in six)} | {len(ends)} | "
                  f"{sum(ends)} ({100 * sum(ends) / max(len(rows), 1):.1f}%) |")
    if not stalls:
        return
    for job, result, _ in done:
        if result is None and job[4] == "tuning":
            missed: list[str] = []
            live_session(reads[job], identity, missed)
            print(f"- {group_label(*job[:4])} seed {job[5]}: " + "; ".join(missed))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cubes", type=int, default=40, help="cubes per group and split")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path, help="keep the measurements here for reruns (session_colours' cache)")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="override an IdentityTunables field")
    parser.add_argument("--split", choices=("tuning", "validation", "both"), default="both")
    parser.add_argument("--show-failures", action="store_true", help="list the tuning seeds' wrong announcements")
    parser.add_argument("--show-stalls", action="store_true",
                        help="with --resolve: why each tuning session that stopped short missed its faces")
    parser.add_argument("--resolve", action="store_true",
                        help="also run each physcam hard cube's live session and resolve what it captured")
    parser.add_argument("--resolve-only", action="store_true",
                        help="only those physcam hard groups' sessions (--resolve), not the identity tables")
    args = parser.parse_args(argv)
    identity = IdentityTunables()
    for item in args.set:
        key, value = item.split("=", 1)
        identity = dataclasses.replace(identity, **{key: type(getattr(identity, key))(value)})
    counts: dict[tuple[str, str], Count] = {}
    if args.resolve_only:
        resolve_table(read_all(args.cubes, args.jobs, args.cache, RESOLVE_GROUPS), args.jobs, identity,
                      args.show_stalls)
        return 0
    reads = read_all(args.cubes, args.jobs, args.cache)
    for (family, condition, palette, light, split, seed), faces in reads.items():
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
    if args.resolve:
        resolve_table(reads, args.jobs, identity, args.show_stalls)
    if args.show_failures:
        for (group, split), c in sorted(counts.items()):
            if split == "tuning" and c.failures:
                print(f"\n{group} | tuning:")
                for line in c.failures:
                    print(f"- {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
