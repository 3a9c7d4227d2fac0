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


def test_a_pocket_face_not_found_follows_from_the_other_five(tmp_path: Path) -> None:
    import cv2
    import numpy as np

    blank = tmp_path / "wall.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 90, np.uint8))  # no cube in it
    truth = json.loads((POCKET / "truth.json").read_text())["expected_facelets"]
    for i, face in enumerate(FACES):
        given = photos(POCKET)
        given[i] = blank
        status, out, _ = run(["scan", *map(str, given), "--json"], tmp_path)
        result = json.loads(out)
        assert status is ExitStatus.OK and same_cube(result["facelets"], truth), face
        assert result["deduced"] == list(range(4 * i, 4 * i + 4))
        assert result["notices"] == [f"No face was found in the {face} photo: a 2x2x2's stickers there follow "
                                     "from the other five faces, so they were filled in."]
    two = photos(POCKET)
    two[0] = two[2] = blank
    status, _, err = run(["scan", *map(str, two)], tmp_path)
    assert status is ExitStatus.NO_FACE_FOUND and "up face U" in err and "front face F" in err  # two: not guessed


def test_a_pocket_face_found_that_fits_no_cube_is_said_to_be_left_out_not_missing(tmp_path: Path) -> None:
    import cv2

    # The D photo replaced by the U photo turned a quarter: a 2x2x2 face is found there, but it is another face's.
    wrong = tmp_path / "D.jpg"
    cv2.imwrite(str(wrong), cv2.rotate(cv2.imread(str(POCKET / "U.jpg")), cv2.ROTATE_90_CLOCKWISE))
    given = photos(POCKET)
    given[FACES.index("D")] = wrong
    status, out, _ = run(["scan", *map(str, given), "--json"], tmp_path)
    result = json.loads(out)
    assert status is ExitStatus.OK
    assert same_cube(result["facelets"], json.loads((POCKET / "truth.json").read_text())["expected_facelets"])
    assert result["deduced"] == list(range(12, 16))
    assert result["notices"] == ["What was found in the D photo does not fit the other five faces (a grid on "
                                 "something else): a 2x2x2's stickers there follow from the other five faces, so "
                                 "they were filled in."]


def test_one_2x2_grid_beside_five_3x3_faces_is_left_out_and_deduced(tmp_path: Path) -> None:
    given = photos(CUBE)
    given[FACES.index("D")] = photos(POCKET)[0]  # a 2x2x2's face where the 3x3x3's D should be
    status, out, _ = run(["scan", *map(str, given), "--json"], tmp_path)
    result = json.loads(out)
    assert status is ExitStatus.OK
    assert result["facelets"] == json.loads((CUBE / "truth.json").read_text())["expected_facelets"]
    assert result["deduced"] == list(range(27, 36)) and result["notices"][0].startswith("The D face (")


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


def test_a_3x3_face_taken_alone_for_a_2x2_is_read_as_a_3x3_beside_five_3x3_faces() -> None:
    import cv2
    import numpy as np
    import synth

    from qbr.app.commands.scan import settle_cube
    from qbr.vision.detect import detect_face
    from qbr.vision.measure import measure_stickers
    from qbr.vision.tunables import Tunables

    # Tuning seed 7989 of bench/pocket_scan.py's hard single faces: alone, part of it is taken for a 2x2x2's.
    rng = np.random.default_rng([7989, 0, 22])
    render = synth.render_face(synth.random_colours(rng), synth.sample_params("hard", rng), rng)
    tunables = Tunables()
    assert detect_face(render.image, tunables).size == 2
    images = [cv2.imread(str(p)) for p in photos(CUBE)]
    images[2] = render.image
    sizes, rgb = {}, {}
    for face, image in zip(FACES, images, strict=True):
        found = detect_face(image, tunables)
        sizes[face], rgb[face] = found.size, measure_stickers(image, found, tunables)
    settle_cube(images, sizes, rgb, tunables, None)
    assert set(sizes.values()) == {3} and rgb["F"].shape == (9, 3)
    found = detect_face(render.image, tunables, 3)
    pitch = np.linalg.norm(render.stickers[0, 1] - render.stickers[0, 0]) / (1 - 2 * render.params.sticker_gap)
    assert (np.linalg.norm(found.sticker_centres() - render.stickers.mean(axis=1), axis=1) < 0.25 * pitch).all()
