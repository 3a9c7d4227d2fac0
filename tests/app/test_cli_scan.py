"""`qbr scan` and `qbr resolve` through the real CLI: real photos and scans, and every kind of bad file."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from cli_runner import run_cli as run

from qbr.cli import ExitStatus
from qbr.cube.conventions import FACES
from qbr.cube.state import CubeState

DATA = Path(__file__).resolve().parents[1] / "data"
PHOTO_SETS = sorted(p for p in (DATA / "photos").glob("3x3x3-*") if p.is_dir())
SCANS = sorted((DATA / "colour-scans").glob("3x3x3-*.json"))
KEYS = {"facelets", "valid", "solution", "moves", "length_htm", "length_qtm", "steps", "orientation", "confidence",
        "uncertain", "colours", "language"}


def photos(folder: Path) -> list[str]:
    return [str(next(folder.glob(f"{face}.*"))) for face in FACES]


def truth(folder: Path) -> str:
    return json.loads((folder / "truth.json").read_text())["expected_facelets"]


def assert_solves(payload: dict, facelets: str) -> None:
    assert payload["facelets"] == facelets
    assert CubeState(facelets).apply(" ".join(payload["moves"])).is_solved
    assert len(payload["steps"]) == len(payload["moves"]) == payload["length_htm"]


@pytest.mark.parametrize("folder", [p for p in PHOTO_SETS if "2018" in p.name], ids=lambda p: p.name)
def test_scan_real_photos_json(folder: Path, tmp_path: Path) -> None:
    status, out, _ = run(["scan", *photos(folder), "--json"], tmp_path)
    payload = json.loads(out)
    assert status is ExitStatus.OK
    assert set(payload) >= KEYS and payload["valid"] is True
    assert len(payload["confidence"]) == 54 and all(0 <= c <= 1 for c in payload["confidence"])
    assert_solves(payload, truth(folder))


def test_scan_full_hd_jpegs_reads_the_right_facelets(tmp_path: Path) -> None:
    folder = DATA / "photos" / "3x3x3-random-01"
    _status, out, _ = run(["scan", *photos(folder), "--json", "--lang", "de"], tmp_path)
    payload = json.loads(out)
    assert payload["facelets"] == truth(folder) and payload["language"] == "de"


def test_scan_text_and_debug_images(tmp_path: Path) -> None:
    folder = DATA / "photos" / "3x3x3-random-02__2018-02-22"
    status, out, err = run(["scan", *photos(folder), "--debug", str(tmp_path / "debug")], tmp_path)
    assert status is ExitStatus.OK and err == ""
    assert truth(folder) in out and "Solution (" in out and " 1. " in out
    written = sorted(p.name for p in (tmp_path / "debug").iterdir())
    assert written == sorted(f"{f}.png" for f in FACES)
    original = cv2.imread(photos(folder)[0])
    annotated = cv2.imread(str(tmp_path / "debug" / "U.png"))
    assert annotated.shape == original.shape and np.abs(annotated.astype(int) - original).sum() > 0


def test_scan_wrong_number_of_files(tmp_path: Path) -> None:
    files = photos(DATA / "photos" / "3x3x3-random-02__2018-02-22")[:5]
    status, out, err = run(["scan", *files], tmp_path)
    assert status is ExitStatus.BAD_INPUT_FILE and "six photos" in err and "got 5" in err
    status, out, _ = run(["scan", *files, files[0], files[0], "--json"], tmp_path)
    assert status is ExitStatus.BAD_INPUT_FILE and json.loads(out)["error"]["kind"] == "bad_input_file"


def test_scan_bad_files_name_the_file(tmp_path: Path) -> None:
    good = photos(DATA / "photos" / "3x3x3-random-02__2018-02-22")
    png = Path(good[0]).read_bytes()
    (tmp_path / "empty.png").write_bytes(b"")
    (tmp_path / "text.png").write_text("I am not a picture")
    (tmp_path / "truncated.png").write_bytes(png[: len(png) // 3])
    (tmp_path / "folder").mkdir()
    for name in ("empty.png", "text.png", "truncated.png", "missing.png", "folder"):
        status, _, err = run(["scan", str(tmp_path / name), *good[1:]], tmp_path)
        assert status is ExitStatus.BAD_INPUT_FILE, name
        assert name in err and "Traceback" not in err


def test_scan_huge_and_faceless_images(tmp_path: Path) -> None:
    good = photos(DATA / "photos" / "3x3x3-random-02__2018-02-22")
    huge = np.full((8000, 8000, 3), 200, np.uint8)
    cv2.imwrite(str(tmp_path / "huge.jpg"), huge)
    cv2.imwrite(str(tmp_path / "blank.jpg"), huge[:600, :800])
    # Two faces lost: nothing fixes them.
    status, out, _err = run(["scan", *good[:3], str(tmp_path / "huge.jpg"), str(tmp_path / "blank.jpg"), good[5],
                             "--json"], tmp_path)
    payload = json.loads(out)
    assert status is ExitStatus.NO_FACE_FOUND
    assert "huge.jpg" in payload["error"]["message"] and "down face D" in payload["error"]["message"]
    assert "blank.jpg" in payload["error"]["message"] and "left face L" in payload["error"]["message"]


@pytest.mark.parametrize("lost", range(6), ids=lambda i: FACES[i])
def test_scan_one_face_not_found_is_deduced_from_the_other_five(lost: int, tmp_path: Path) -> None:
    folder = DATA / "photos" / "3x3x3-random-02__2018-02-22"
    given = photos(folder)
    given[lost] = str(tmp_path / "blank.jpg")
    cv2.imwrite(given[lost], np.full((600, 800, 3), 200, np.uint8))
    status, out, _err = run(["scan", *given, "--json"], tmp_path)
    payload = json.loads(out)
    assert status is ExitStatus.OK
    assert_solves(payload, truth(folder))
    assert payload["deduced"] == list(range(9 * lost, 9 * lost + 9))
    assert payload["notices"][0].startswith(f"The {FACES[lost]} face (") and "was not found" in payload["notices"][0]


def test_scan_one_face_not_found_that_the_other_five_do_not_fix_is_refused_naming_its_photo(tmp_path: Path) -> None:
    # Two of this cube's leftover R edges show the same colour: the five faces seen fit two real cubes.
    folder = DATA / "photos" / "3x3x3-random-03__2018-02-22"
    given = photos(folder)
    given[1] = str(tmp_path / "blank.jpg")
    cv2.imwrite(given[1], np.full((600, 800, 3), 200, np.uint8))
    status, out, _err = run(["scan", *given, "--json"], tmp_path)
    message = json.loads(out)["error"]["message"]
    assert status is ExitStatus.NO_FACE_FOUND
    assert "blank.jpg" in message and "the other five faces do not fix its stickers" in message


@pytest.mark.parametrize("scan", SCANS, ids=lambda p: p.stem)
def test_resolve_every_real_colour_scan(scan: Path, tmp_path: Path) -> None:
    status, out, _ = run(["resolve", str(scan), "--json"], tmp_path)
    payload = json.loads(out)
    assert status is ExitStatus.OK and set(payload) >= KEYS
    assert_solves(payload, json.loads(scan.read_text())["expected_facelets"])


def test_resolve_a_face_given_as_null_is_deduced_two_are_not(tmp_path: Path) -> None:
    data = json.loads(SCANS[2].read_text())
    data["rgb"]["F"] = None  # a robot's camera did not see it
    path = tmp_path / "five.json"
    path.write_text(json.dumps(data))
    status, out, _ = run(["resolve", str(path), "--json"], tmp_path)
    payload = json.loads(out)
    assert status is ExitStatus.OK and payload["deduced"] == list(range(18, 27))
    assert_solves(payload, data["expected_facelets"])
    data["rgb"]["B"] = None
    path.write_text(json.dumps(data))
    status, out, _ = run(["resolve", str(path), "--json"], tmp_path)
    message = json.loads(out)["problems"][0]["message"]  # two faces lost: nothing fixes them, each sticker named
    assert status is ExitStatus.INVALID_CUBE and "19, 20" in message and "53, 54" in message


def test_resolve_impossible_colours_keep_the_best_facelets(tmp_path: Path) -> None:
    data = json.loads(SCANS[0].read_text())
    data["rgb"]["L"] = data["rgb"]["R"]  # two faces with the same centre colour
    path = tmp_path / "dup.json"
    path.write_text(json.dumps(data))
    status, out, _ = run(["resolve", str(path), "--json"], tmp_path)
    payload = json.loads(out)
    assert status is ExitStatus.INVALID_CUBE
    assert payload["valid"] is False and len(payload["facelets"]) == 54 and payload["problems"]
    assert payload["solution"] is None and payload["error"]["kind"]
    status, out, err = run(["resolve", str(path)], tmp_path)
    assert status is ExitStatus.INVALID_CUBE and "Cube: " in out and err.startswith("qbr: ")


def test_resolve_a_scan_with_the_u_photo_turned_reads_it_back_and_says_so(tmp_path: Path) -> None:
    scan = DATA / "colour-scans" / "3x3x3-random-02.json"
    data = json.loads(scan.read_text())
    data["rgb"]["U"] = np.rot90(np.array(data["rgb"]["U"]).reshape(3, 3, 3), -1).reshape(9, 3).tolist()  # clockwise
    path = tmp_path / "turned.json"
    path.write_text(json.dumps(data))
    status, out, _ = run(["resolve", str(path), "--json"], tmp_path)
    payload = json.loads(out)
    assert status is ExitStatus.OK
    assert_solves(payload, data["expected_facelets"])
    assert payload["turned"] == {"U": 1} and payload["doubt"] is None
    colour = payload["colours"]["U"]  # this cube has its blue centre on top
    assert payload["notices"] == [f"The U photo ({colour} centre) was turned a quarter turn clockwise; corrected."]
    status, out, _ = run(["resolve", str(path), "--lang", "de"], tmp_path)
    assert status is ExitStatus.OK and out.splitlines()[0].startswith("Das Foto der Seite U (Mittelfeld in ")


def test_resolve_random_colours_is_refused_with_every_sticker_in_doubt(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    path = tmp_path / "noise.json"
    path.write_text(json.dumps({"rgb": {f: rng.uniform(0, 255, (9, 3)).round().tolist() for f in FACES}}))
    status, out, _ = run(["resolve", str(path), "--json"], tmp_path)
    payload = json.loads(out)
    assert status is ExitStatus.INVALID_CUBE and payload["valid"] is False
    assert payload["doubt"] is not None and payload["doubt"]["stickers"]
    assert len(payload["doubt"]["names"]) == len(payload["doubt"]["stickers"])
    status, out, _ = run(["resolve", str(path)], tmp_path)
    assert "In doubt" in out


def _face(value: object = None) -> list:
    return [[10, 20, 30]] * 9 if value is None else value


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON (line 1"),
        ("[1, 2]", '"rgb"'),
        (json.dumps({"colours": {}}), '"rgb"'),
        (json.dumps({"size": 4, "rgb": {f: _face() for f in FACES}}), "only 2x2x2 and 3x3x3"),
        (json.dumps({"rgb": {f: _face() for f in "URFDL"}}), "lacks face B"),
        (json.dumps({"rgb": {**{f: _face() for f in FACES}, "X": _face()}}), "unknown face X"),
        (json.dumps({"rgb": {**{f: _face() for f in FACES}, "F": _face([[1, 2, 3]] * 8)}}), '"F" must be a list of 9'),
        (json.dumps({"rgb": {**{f: _face() for f in FACES}, "D": _face([[1, 2]] * 9)}}), '"D"[0] must be [r, g, b]'),
        (json.dumps({"rgb": {**{f: _face() for f in FACES}, "U": _face([[1, 2, 300]] * 9)}}), "0-255"),
        (json.dumps({"rgb": {**{f: _face() for f in FACES}, "R": _face([[1, True, 3]] * 9)}}), "numbers"),
    ],
)
def test_resolve_bad_files_say_what_is_wrong(content: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "scan.json"
    path.write_text(content)
    status, _out, err = run(["resolve", str(path)], tmp_path)
    assert status is ExitStatus.BAD_INPUT_FILE
    assert message in err and str(path) in err


def test_resolve_missing_binary_and_directory(tmp_path: Path) -> None:
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00\x01")
    for name, message in (("nothere.json", "no such file"), ("bin.json", "not a text"), (".", "directory")):
        status, _, err = run(["resolve", str(tmp_path / name)], tmp_path)
        assert status is ExitStatus.BAD_INPUT_FILE and message in err


def test_scan_text_shows_the_net_and_the_least_certain_stickers(tmp_path: Path) -> None:
    folder = DATA / "photos" / "3x3x3-random-01"
    expected = truth(folder)
    status, out, _ = run(["scan", *photos(folder)], tmp_path)
    assert status is ExitStatus.OK
    lines = out.splitlines()
    # The net's first row is U1 U2 U3, indented past the L face.
    assert lines[1].split() == list(expected[:3]) and lines[1].startswith("       ")
    uncertain = [line for line in lines if line.startswith("Least certain stickers: ")]
    assert len(uncertain) == 1
    names = [item.split()[0] for item in uncertain[0].split(": ", 1)[1].split(", ")]
    assert 1 <= len(names) <= 5 and all(n[0] in "URFDLB" and n[1] in "123456789" for n in names)
