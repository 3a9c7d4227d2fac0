"""`qbr scan` reads the cube's size from the grids found in its photos (all six must agree); --size forces it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runner import run_cli as run

from qbr.app.commands.scan import cube_size
from qbr.app.errors import InputFileError
from qbr.cli import ExitStatus
from qbr.cube.conventions import FACES
from tests.app.test_cli_resolve_pocket import same_cube
from tests.app.test_cli_scan import DATA, photos

POCKET = DATA / "photos" / "2x2x2-random-01"
CUBE = DATA / "photos" / "3x3x3-random-02__2018-02-22"


def test_the_size_is_the_grids_and_they_must_agree() -> None:
    paths = {face: Path(f"{face}.png") for face in FACES}
    assert cube_size(dict.fromkeys(FACES, 2), paths) == 2
    assert cube_size(dict.fromkeys(FACES, 3), paths) == 3
    expected = r"3x3x3 in F\.png \(F\), D\.png \(D\), L\.png \(L\), B\.png \(B\); 2x2x2 in U\.png \(U\), R\.png \(R\);"
    with pytest.raises(InputFileError, match=expected):
        cube_size({"U": 2, "R": 2, "F": 3, "D": 3, "L": 3, "B": 3}, paths)


def test_scan_reads_a_pocket_cube_from_its_photos(tmp_path: Path) -> None:
    status, out, _ = run(["scan", *photos(POCKET), "--json"], tmp_path)
    result = json.loads(out)
    assert status is ExitStatus.OK
    assert result["size"] == 2
    assert same_cube(result["facelets"], json.loads((POCKET / "truth.json").read_text())["expected_facelets"])


def test_photos_of_two_cubes_are_refused_with_the_faces_named(tmp_path: Path) -> None:
    mixed = photos(POCKET)[:3] + photos(CUBE)[3:]
    status, out, _ = run(["scan", *mixed, "--json"], tmp_path)
    message = json.loads(out)["error"]["message"]
    assert status is ExitStatus.BAD_INPUT_FILE
    assert "different cubes" in message and "--size" in message
    assert all(Path(p).name in message for p in mixed)


@pytest.mark.parametrize(("folder", "size"), [(POCKET, "3"), (CUBE, "2")], ids=["pocket-as-3", "cube-as-2"])
def test_a_forced_size_looks_for_that_cube_only(folder: Path, size: str, tmp_path: Path) -> None:
    status, out, _ = run(["scan", *photos(folder), "--size", size, "--json"], tmp_path)
    assert status is ExitStatus.NO_FACE_FOUND
    assert f"no {size}x{size}x{size} face found" in json.loads(out)["error"]["message"]


def test_a_forced_size_of_three_reads_a_3x3_as_before(tmp_path: Path) -> None:
    status, out, _ = run(["scan", *photos(CUBE), "--size", "3", "--json"], tmp_path)
    assert status is ExitStatus.OK
    assert json.loads(out)["facelets"] == json.loads((CUBE / "truth.json").read_text())["expected_facelets"]


def test_an_unknown_size_is_a_usage_error(tmp_path: Path) -> None:
    status, _, _ = run(["scan", *photos(CUBE), "--size", "4"], tmp_path)
    assert status is ExitStatus.USAGE
