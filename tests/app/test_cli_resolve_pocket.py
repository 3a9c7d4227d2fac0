"""`qbr resolve` on 2x2x2 colour scans through the real CLI: the size read from the data, --size, bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runner import run_cli as run

from qbr.cli import ExitStatus
from qbr.cube.conventions import FACES
from qbr.cube.pocket.state import PocketState

DATA = Path(__file__).resolve().parents[1] / "data"
SCANS = sorted((DATA / "colour-scans").glob("2x2x2-*.json"))
KEYS = {"facelets", "valid", "solution", "moves", "length_htm", "length_qtm", "steps", "orientation", "confidence",
        "uncertain", "colours", "language"}


def same_cube(found: str, expected: str) -> bool:
    pairs = set(zip(found, expected, strict=True))
    return len(pairs) == len({a for a, _ in pairs}) == len({b for _, b in pairs})


@pytest.mark.parametrize("scan", SCANS, ids=lambda p: p.stem)
def test_resolve_every_real_2x2_scan(scan: Path, tmp_path: Path) -> None:
    data = json.loads(scan.read_text())
    for extra in ([], ["--size", "2"]):
        status, out, _ = run(["resolve", str(scan), "--json", *extra], tmp_path)
        payload = json.loads(out)
        assert status is ExitStatus.OK and set(payload) >= KEYS
        assert same_cube(payload["facelets"], data["expected_facelets"])
        assert PocketState(payload["facelets"]).apply(" ".join(payload["moves"])).is_solved
        assert len(payload["steps"]) == len(payload["moves"]) == payload["length_htm"] <= 11
        assert len(payload["confidence"]) == 24


def test_the_size_comes_from_the_stickers_when_the_file_does_not_say(tmp_path: Path) -> None:
    data = json.loads(SCANS[0].read_text())
    del data["size"]
    path = tmp_path / "scan.json"
    path.write_text(json.dumps(data))
    status, out, _ = run(["resolve", str(path)], tmp_path)
    assert status is ExitStatus.OK
    lines = out.splitlines()
    # The 2x2 net: U's two rows indented past the L face, then the four side faces two stickers wide.
    assert lines[1].startswith("     ") and len(lines[1].split()) == 2 and len(lines[3].split()) == 8


def _faces(per_face: int) -> dict:
    return {f: [[10, 20, 30]] * per_face for f in FACES}


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        (json.dumps({"rgb": _faces(4)}), ["--size", "3"], '"U" must be a list of 9 stickers (3x3x3), got 4'),
        (json.dumps({"rgb": _faces(9)}), ["--size", "2"], '"U" must be a list of 4 stickers (2x2x2), got 9'),
        (json.dumps({"size": 2, "rgb": _faces(9)}), [], "must be a list of 4 stickers"),
        (json.dumps({"size": 3, "rgb": _faces(4)}), ["--size", "2"], '--size 2 was given, but the file says "size": 3'),
        (json.dumps({"rgb": {**_faces(4), "R": [[1, 2, 3]] * 9}}), [], '"R" must be a list of 4 stickers (2x2x2)'),
        (json.dumps({"rgb": _faces(5)}), [], "4 stickers (2x2x2) or 9 (3x3x3)"),
        (json.dumps({"size": True, "rgb": _faces(4)}), [], "only 2x2x2 and 3x3x3"),
        (json.dumps({"rgb": {**_faces(4), "D": [[1, 2]] * 4}}), [], '"D"[0] must be [r, g, b]'),
    ],
)
def test_bad_2x2_files_say_what_is_wrong(content: str, args: list[str], message: str, tmp_path: Path) -> None:
    path = tmp_path / "scan.json"
    path.write_text(content)
    status, _out, err = run(["resolve", str(path), *args], tmp_path)
    assert status is ExitStatus.BAD_INPUT_FILE
    assert message in err and str(path) in err and "Traceback" not in err


def test_size_must_be_2_or_3(tmp_path: Path) -> None:
    status, _, err = run(["resolve", str(SCANS[0]), "--size", "4"], tmp_path)
    assert status is ExitStatus.USAGE and "--size" in err


def test_random_2x2_colours_are_an_invalid_cube_with_the_best_facelets(tmp_path: Path) -> None:
    import numpy as np

    rng = np.random.default_rng(0)
    path = tmp_path / "garbage.json"
    path.write_text(json.dumps({"rgb": {f: rng.uniform(0, 255, (4, 3)).round().tolist() for f in FACES}}))
    status, out, _ = run(["resolve", str(path), "--json"], tmp_path)
    payload = json.loads(out)
    assert status is ExitStatus.INVALID_CUBE and payload["valid"] is False
    assert len(payload["facelets"]) == 24 and payload["problems"] and payload["solution"] is None
