"""`qbr --images DIR` takes photos by `qbr scan`'s rules: a photo named for a face (U.jpg) is that face, held as in
the net, whatever its centre; unnamed photos are placed by their centres (standard colour scheme)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from qbr.app.sources import named_faces
from qbr.cli import ExitStatus
from qbr.cube.conventions import FACES

DATA = Path(__file__).resolve().parents[1] / "data" / "photos"
PHOTO_SETS = sorted(p for p in DATA.iterdir() if p.is_dir() and (p / "truth.json").is_file())


@pytest.mark.parametrize("folder", PHOTO_SETS, ids=lambda p: p.name)
def test_a_photo_folder_reads_as_qbr_scan_reads_its_photos(folder: Path, qbr_cli) -> None:
    photos = [str(next(folder.glob(f"{face}.*"))) for face in FACES]
    scan_status, scan_out, _ = qbr_cli(["scan", *photos, "--json"])
    status, out, err = qbr_cli(["--images", str(folder), "--no-window", "--json"])
    assert scan_status is ExitStatus.OK
    assert status is ExitStatus.OK, err
    assert json.loads(out)["facelets"] == json.loads(scan_out)["facelets"]
    if "3x3x3" in folder.name:  # (a 2x2's letters are named by its pieces, not by the truth file's letters)
        assert json.loads(out)["facelets"] == json.loads((folder / "truth.json").read_text())["expected_facelets"]


def test_named_photos_keep_their_names_in_any_order(tmp_path: Path, qbr_cli) -> None:
    # Orange on top in this rig: placed by centre the faces would be others; by name they are the truth.
    source = DATA / "3x3x3-random-02__2018-02-22"
    for i, face in enumerate("BLUDFR"):
        photo = next(source.glob(f"{face}.*"))
        shutil.copy(photo, tmp_path / f"{i}-{face.lower()}{photo.suffix}")
    status, out, err = qbr_cli(["--images", str(tmp_path), "--no-window", "--json"])
    truth = json.loads((source / "truth.json").read_text())["expected_facelets"]
    assert status is ExitStatus.OK and json.loads(out)["facelets"] == truth, err


@pytest.mark.parametrize(("names", "faces"), [
    (["U", "R", "F", "D", "L", "B"], ["U", "R", "F", "D", "L", "B"]),
    (["1_b", "2_u", "cube-F", "x.D", "L", "r"], ["B", "U", "F", "D", "L", "R"]),
    (["U", "R", "F", "D", "L", "L2"], None),  # not six distinct face names
    (["U", "R", "F", "D", "L", "B", "extra"], None),
    (["IMG_0001", "IMG_0002", "IMG_0003", "IMG_0004", "IMG_0005", "IMG_0006"], None),
    (["front", "back", "up", "down", "left", "right"], None),
])
def test_which_photo_names_name_faces(names: list[str], faces: list[str] | None) -> None:
    assert named_faces([Path(f"{n}.jpg") for n in names]) == faces
