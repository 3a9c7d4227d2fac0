"""Hostile input at the edge: special files, camera values, a missing display, decoder chatter, messages, exit codes.

Every case through the real CLI (``main``), each guarded against hanging; a few through ``python -m qbr`` where
only a real process shows it (file descriptor 2, a strict stdout, Qt).
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from qbr.app.environment import Environment
from qbr.cli import ExitStatus, exit_status_for, main
from qbr.cube.conventions import FACES
from qbr.cube.errors import QbrError

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = ROOT / "tests" / "data" / "photos" / "3x3x3-random-01__2018-02-22"
posix = pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(), reason="needs FIFOs, /dev")
HANG_SECONDS = 10.0  # far above any of these runs (~0.1 s); reaching it means a blocking read


def within(seconds: float, call: Callable[[], object]) -> object:
    """``call()``'s result; fails instead of hanging when it blocks (a FIFO opened for reading, say)."""
    box: list[object] = []
    worker = threading.Thread(target=lambda: box.append(call()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert box, f"no answer within {seconds} s"
    return box[0]


def run(args: list[str], config: Path, **env_fields: object) -> tuple[ExitStatus, str, str]:
    out, err = io.StringIO(), io.StringIO()
    fields = {"has_display": False, **env_fields}
    env = Environment(stdout=out, stderr=err, stdout_isatty=False, config_dir=config, system_language="en",
                      **fields)  # type: ignore[arg-type]
    status = within(HANG_SECONDS, lambda: main(args, env=env))
    assert isinstance(status, ExitStatus) and status is not ExitStatus.INTERNAL, err.getvalue()
    assert "Traceback" not in err.getvalue()
    return status, out.getvalue(), err.getvalue()


def special_files(tmp_path: Path) -> dict[str, Path]:
    """Every kind of file a reader must refuse, and links to each."""
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    found = {"zero": Path("/dev/zero"), "urandom": Path("/dev/urandom"), "fifo": fifo, "directory": tmp_path}
    for name, target in list(found.items()):
        link = tmp_path / f"link-to-{name}.png"
        link.symlink_to(target)
        found[f"link to {name}"] = link
    return found


@posix
def test_special_files_given_to_resolve_and_scan_are_refused_at_once(tmp_path: Path) -> None:
    photos = [str(PHOTOS / f"{face}.png") for face in FACES]
    for name, path in special_files(tmp_path).items():
        for args in (["resolve", str(path)], ["scan", str(path), *photos[1:]], ["scan", *photos[:5], str(path)]):
            status, out, err = run(args, tmp_path / "config")
            assert status is ExitStatus.BAD_INPUT_FILE, (name, args[0], err)
            assert str(path) in err and "not a regular file" in err and out == ""


@posix
@pytest.mark.parametrize("stored", ["palette.json", "settings.json"])
def test_a_stored_file_that_is_a_device_or_fifo_is_reported_and_ignored(tmp_path: Path, stored: str) -> None:
    photos = [str(PHOTOS / f"{face}.png") for face in FACES]
    truth = json.loads((PHOTOS / "truth.json").read_text())["expected_facelets"]
    config = tmp_path / "config"
    config.mkdir()
    (config / stored).symlink_to("/dev/zero")
    status, out, _err = run(["scan", *photos, "--json"], config)
    assert status is ExitStatus.OK and json.loads(out)["facelets"] == truth  # on the default palette
    if stored == "palette.json":
        assert "palette.json" in json.loads(out)["warnings"][0] and "a device" in json.loads(out)["warnings"][0]
    assert os.readlink(config / stored) == "/dev/zero"  # left as it was


@pytest.mark.parametrize(
    ("value", "status", "message"),
    [
        ("2147483648", ExitStatus.USAGE, "a camera number is from 0 to 99"),
        ("-1", ExitStatus.USAGE, "a camera number is from 0 to 99"),
        ("100", ExitStatus.USAGE, "a camera number is from 0 to 99"),
        ("9" * 5000, ExitStatus.USAGE, "a camera number is from 0 to 99"),
        ("²", ExitStatus.BAD_INPUT_FILE, "no such file, nor a camera number"),
        ("٣", ExitStatus.BAD_INPUT_FILE, "no such file, nor a camera number"),
        ("1e3", ExitStatus.BAD_INPUT_FILE, "no such file, nor a camera number"),
        ("", ExitStatus.BAD_INPUT_FILE, "is a directory"),  # "" is the current directory
        ("a\0b", ExitStatus.BAD_INPUT_FILE, "no such file"),
        ("\udcff", ExitStatus.BAD_INPUT_FILE, "no such file"),
    ],
)
def test_hostile_camera_values_get_a_clear_message(tmp_path: Path, value: str, status: ExitStatus,
                                                    message: str) -> None:
    got, _out, err = run(["--camera", value, "--no-window"], tmp_path / "config")
    assert got is status and message in err and len(err) < 400


@pytest.mark.parametrize("value", ["9" * 300, "a\0b", "\udcff", "no such folder"])
def test_hostile_images_folders_get_a_clear_message(tmp_path: Path, value: str) -> None:
    # A name longer than the system allows raised OSError out of Path.is_dir (found by the command-line fuzz test).
    got, _out, err = run(["--images", value, "--no-window"], tmp_path / "config")
    assert got is ExitStatus.BAD_INPUT_FILE and "not a directory" in err and len(err) < 1200


@posix
def test_camera_files_that_are_not_videos_or_cameras(tmp_path: Path) -> None:
    files = special_files(tmp_path)
    for name in ("zero", "link to zero", "urandom"):
        status, _out, err = run(["--camera", str(files[name]), "--no-window"], tmp_path / "config")
        assert status is ExitStatus.BAD_INPUT_FILE and "is a device but not a camera" in err
    for name in ("fifo", "link to fifo"):
        status, _out, err = run(["--camera", str(files[name]), "--no-window"], tmp_path / "config")
        assert status is ExitStatus.BAD_INPUT_FILE and "not a regular file" in err


def test_an_unreachable_display_is_exit_9_before_any_window(tmp_path: Path) -> None:
    status, _out, err = run(["--demo"], tmp_path / "config", has_display=True,
                            display_problem=lambda: "no X server answers on DISPLAY=:97 (Connection refused)")
    assert status is ExitStatus.NO_DISPLAY and "DISPLAY=:97" in err and "--no-window" in err


def _free_display() -> str:
    number = next(n for n in range(97, 200) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    return f":{number}"


def _qbr(args: list[str | bytes], **env: str) -> subprocess.CompletedProcess[bytes]:
    environ = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    return subprocess.run([sys.executable, "-m", "qbr", *args], env=environ, capture_output=True, timeout=60,
                          cwd=ROOT)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 displays")
def test_display_without_a_server_is_exit_9_not_a_qt_abort(tmp_path: Path) -> None:
    display = _free_display()
    done = _qbr(["--demo"], DISPLAY=display, XDG_CONFIG_HOME=str(tmp_path))
    assert done.returncode == ExitStatus.NO_DISPLAY, done.stderr
    assert f"no X server answers on DISPLAY={display}".encode() in done.stderr and b"Traceback" not in done.stderr


def _hostile_png(tmp_path: Path) -> Path:
    import struct
    import zlib

    import cv2

    data = cv2.imencode(".png", np.full((60, 60, 3), 128, np.uint8))[1].tobytes()
    body = b"x\x00\x00" + zlib.compress(b"not a colour profile")
    chunk = struct.pack(">I", len(body)) + b"iCCP" + body + struct.pack(">I", zlib.crc32(b"iCCP" + body))
    path = tmp_path / "iccp.png"
    path.write_bytes(data[:33] + chunk + data[33:])  # after IHDR: libpng warns "iCCP: too short" on fd 2
    return path


def test_decoder_chatter_stays_off_stderr(tmp_path: Path) -> None:
    png = _hostile_png(tmp_path)
    truncated = tmp_path / "cut.avi"
    truncated.write_bytes((ROOT / "assets" / "demo.avi").read_bytes()[:30_000])  # FFmpeg: "overread"
    done = _qbr(["scan", *[str(png)] * 6], XDG_CONFIG_HOME=str(tmp_path))
    assert done.returncode == ExitStatus.NO_FACE_FOUND
    assert done.stderr.decode().splitlines() == [line for line in done.stderr.decode().splitlines()
                                                 if line.startswith("qbr: ")], done.stderr
    done = _qbr(["--camera", str(truncated), "--no-window"], XDG_CONFIG_HOME=str(tmp_path))
    assert done.returncode in (ExitStatus.NO_FACE_FOUND, ExitStatus.INCOMPLETE)
    assert all(line.startswith(b"qbr: ") for line in done.stderr.splitlines()), done.stderr


def test_a_non_utf8_argument_with_json_on_a_strict_stdout(tmp_path: Path) -> None:
    for args in ([b"solve", b"\xff", b"--json"], [b"--camera", b"\xff.avi", b"--json", b"--no-window"]):
        done = _qbr(args, PYTHONIOENCODING="utf-8:strict", XDG_CONFIG_HOME=str(tmp_path))
        assert done.returncode in (ExitStatus.INVALID_CUBE, ExitStatus.BAD_INPUT_FILE), done.stderr
        assert "error" in json.loads(done.stdout) and done.stderr == b""


def test_messages_name_the_cause_once(tmp_path: Path) -> None:
    status, _out, err = run(["bogus"], tmp_path)
    assert status is ExitStatus.USAGE and "qbr: qbr" not in err and "invalid choice: 'bogus'" in err
    status, _out, err = run(["solve"], tmp_path)
    assert status is ExitStatus.USAGE and "qbr: solve: give either FACELETS" in err
    status, _out, err = run(["solve", "--scramble", "R U " * 5000 + "Q"], tmp_path)
    assert status is ExitStatus.USAGE and "'Q' at position 10001 is not a move" in err and len(err) < 1000
    for budget in ("nan", "inf", "-1", "1e308"):
        status, _out, err = run(["solve", "--scramble", "R U", "--budget", budget], tmp_path)
        assert status is ExitStatus.USAGE and "--budget must be from 0 to 3600 seconds" in err


def test_every_error_has_a_documented_exit_code_and_1_is_none_of_them() -> None:
    import qbr.app.errors
    import qbr.solve.errors
    import qbr.vision.errors  # noqa: F401 (every error class is defined by now)

    def subclasses(cls: type) -> list[type]:
        return [cls, *[c for sub in cls.__subclasses__() for c in subclasses(sub)]]

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("| code | meaning |"):].split("\n\n")[0]
    documented = {int(code) for code in re.findall(r"^\| (\d+) \|", table, re.MULTILINE)}
    assert documented == {int(s) for s in ExitStatus} and 1 not in documented
    for cls in subclasses(QbrError)[1:]:  # the base is never raised itself
        if cls.__module__.startswith("qbr") and not cls.__name__.startswith("_"):
            error = cls([]) if cls.__name__ == "InvalidCubeError" else (
                cls("Q", 0, "Q") if cls.__name__ == "MoveSyntaxError" else cls("x"))
            assert exit_status_for(error) not in (ExitStatus.INTERNAL, ExitStatus.OK), cls


def test_solution_header_takes_each_languages_plural_form() -> None:
    from qbr.solve.i18n import LANGUAGES, Translator
    from qbr.solve.solution_text import solution_header

    assert solution_header(Translator("en"), 1, 1) == "Solution (1 move, 1 quarter turn):"
    assert solution_header(Translator("de"), 1, 1) == "Lösung (1 Zug, 1 Vierteldrehung):"
    assert solution_header(Translator("fr"), 1, 1) == "Solution (1 mouvement, 1 quart de tour)\u00a0:"
    assert solution_header(Translator("ar"), 1, 2) == "الحل (حركة واحدة، ربعا دورة):"
    assert solution_header(Translator("nl"), 1, 1) == "Oplossing (1 zet, 1 kwartslag):"
    assert solution_header(Translator("es"), 1, 1) == "Solución (1 movimiento, 1 cuarto de vuelta):"
    for lang in LANGUAGES:  # and no language says "1 moves" in its own words: the one form differs from other
        assert solution_header(Translator(lang), 1, 1) != solution_header(Translator(lang), 2, 2).replace("2", "1") \
            or lang in ("zh-Hans", "zh-Hant", "ja", "hu"), lang  # no plural nouns in these


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 sockets as on Linux")
def test_the_display_probe_finds_a_listening_x_socket_and_names_what_is_missing() -> None:
    import socket

    from qbr.app.display import display_problem

    display = _free_display()
    server = socket.socket(socket.AF_UNIX)
    server.bind(b"\0/tmp/.X11-unix/X" + display[1:].encode())  # the abstract socket an X server also opens
    server.listen(1)
    try:
        assert display_problem({"DISPLAY": display}) is None
        assert display_problem({"DISPLAY": display + ".0"}) is None
    finally:
        server.close()
    assert "no X server answers on DISPLAY=" + display in str(display_problem({"DISPLAY": display}))
    assert "not of the form [host]:N" in str(display_problem({"DISPLAY": "nonsense"}))
    assert "needs X11 (XWayland)" in str(display_problem({"WAYLAND_DISPLAY": "wayland-0"}))
    assert display_problem({}) == "DISPLAY is not set"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_closed_full_or_vanishing_output_is_not_a_traceback(tmp_path: Path) -> None:
    args = ["solve", "--scramble", "R"]
    environ = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CONFIG_HOME": str(tmp_path)}
    command = [sys.executable, "-m", "qbr", *args]
    with open("/dev/full", "wb") as full:
        done = subprocess.run(command, env=environ, stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert done.returncode == ExitStatus.OUTPUT_FAILED and done.stderr == b"qbr: cannot write the output " \
        b"(No space left on device)\n"
    shell = " ".join(map(shlex.quote, command))
    closed = subprocess.run(shell + " >&-", shell=True, env=environ, capture_output=True, timeout=60)
    assert closed.returncode == ExitStatus.OK and b"Traceback" not in closed.stderr
    piped = subprocess.run(shell + " | head -c 1", shell=True, env=environ, capture_output=True, timeout=60)
    assert piped.stdout == b"C" and piped.stderr == b""


def _unlistable() -> Path | None:
    for candidate in (Path("/proc/1/map_files"), Path("/root")):
        try:
            list(candidate.iterdir())
        except PermissionError:
            return candidate
        except OSError:
            continue
    return None


@pytest.mark.skipif(_unlistable() is None, reason="needs a directory this user may not list")
def test_a_photo_folder_that_cannot_be_listed_is_a_message(tmp_path: Path) -> None:
    folder = _unlistable()
    status, _out, err = run(["--images", str(folder), "--no-window"], tmp_path)
    assert status is ExitStatus.BAD_INPUT_FILE and "cannot be listed (Permission denied)" in err
