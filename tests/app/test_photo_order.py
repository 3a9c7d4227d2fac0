"""Photos given to `qbr scan` out of order are placed by their centres, with a notice; never placed wrongly."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from qbr.app.environment import Environment
from qbr.app.photo_order import best_placement, pieces_seen
from qbr.cli import ExitStatus, main
from qbr.cube.conventions import FACES

DATA = Path(__file__).resolve().parents[1] / "data"
SCANS = sorted((DATA / "colour-scans").glob("3x3x3-*.json"))


def scan(path: Path) -> tuple[dict[str, np.ndarray], str]:
    data = json.loads(path.read_text())
    return {face: np.array(v, dtype=float) for face, v in data["rgb"].items()}, data["expected_facelets"]


def swapped(rgb: dict[str, np.ndarray], a: str, b: str) -> dict[str, np.ndarray]:
    out = dict(rgb)
    out[a], out[b] = rgb[b], rgb[a]
    return out


@pytest.mark.parametrize("path", SCANS, ids=lambda p: p.stem)
def test_photos_in_order_are_left_where_they_are(path: Path) -> None:
    assert best_placement(scan(path)[0]) is None


@pytest.mark.parametrize("path", SCANS, ids=lambda p: p.stem)
def test_any_two_photos_swapped_are_placed_back_or_left_never_misplaced(path: Path) -> None:
    rgb, _ = scan(path)
    outcomes = []
    for a, b in itertools.combinations(FACES, 2):
        placed = best_placement(swapped(rgb, a, b))
        if placed is not None:
            assert placed == {face: {a: b, b: a}.get(face, face) for face in FACES}, (a, b, placed)
        outcomes.append(placed is not None)
    # Random cubes read well enough by nearest centre stand out every time; symmetric patterns never do.
    assert all(outcomes) == (pieces_seen(rgb) >= 13 and "random" in path.stem)


def test_a_three_way_shuffle_is_placed_back() -> None:
    rgb, _ = scan(DATA / "colour-scans" / "3x3x3-random-01.json")
    given = {"U": rgb["F"], "R": rgb["U"], "F": rgb["R"], "D": rgb["D"], "L": rgb["B"], "B": rgb["L"]}
    assert best_placement(given) == {"U": "R", "R": "F", "F": "U", "D": "D", "L": "B", "B": "L"}


def run(args: list[str], tmp_path: Path) -> tuple[ExitStatus, str, str]:
    out, err = io.StringIO(), io.StringIO()
    env = Environment(stdout=out, stderr=err, stdout_isatty=False, config_dir=tmp_path, system_language="en",
                      has_display=False)
    return main(args, env=env), out.getvalue(), err.getvalue()


@pytest.mark.parametrize("folder", ["3x3x3-random-01__2018-02-22", "3x3x3-random-01"])
def test_scan_with_photos_in_the_wrong_order_places_them_and_says_so(folder: str, tmp_path: Path) -> None:
    photos = DATA / "photos" / folder
    truth = json.loads((photos / "truth.json").read_text())["expected_facelets"]
    order = [next(photos.glob(f"{face}.*")) for face in "RUFDLB"]
    status, out, err = run(["scan", *map(str, order), "--json"], tmp_path)
    payload = json.loads(out)
    assert status is ExitStatus.OK, err
    assert payload["facelets"] == truth and payload["valid"]
    assert payload["placed"]["U"] == str(order[1]) and payload["placed"]["R"] == str(order[0])
    moved = [n for n in payload["notices"] if "placed by its centre" in n]
    assert len(moved) == 2 and any(n.startswith(f"U{order[1].suffix} (") and "given as face R" in n for n in moved)
    status, out, _ = run(["scan", *map(str, order)], tmp_path)  # in text, the notices come first
    assert out.splitlines()[0].endswith("placed by its centre.")
