"""qbr.files: regular files only, refused before opening (never a hang), bounded while read; JSON with limits."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qbr.files.limited_json import JsonLimits, parse_json, read_json, shown
from qbr.files.read import UnreadableFile, read_bytes

posix = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and /dev")


def test_regular_file_is_read_whole_up_to_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(b"x" * 100)
    assert read_bytes(path, 100) == b"x" * 100
    with pytest.raises(UnreadableFile, match=r"too large for a palette \(over 99 bytes\)"):
        read_bytes(path, 99, "a palette")


def test_missing_file_is_marked_missing(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFile) as caught:
        read_bytes(tmp_path / "absent", 10)
    assert caught.value.missing and caught.value.reason == "no such file"
    (tmp_path / "file").write_text("")
    with pytest.raises(UnreadableFile) as caught:
        read_bytes(tmp_path / "file" / "below", 10)  # a config "directory" that is a file
    assert caught.value.missing


@pytest.mark.skipif(not Path("/proc/self/maps").is_file(), reason="needs Linux /proc")
def test_the_size_is_counted_while_reading_not_taken_from_stat() -> None:
    assert os.stat("/proc/self/maps").st_size == 0  # a regular file that says it is empty
    with pytest.raises(UnreadableFile, match="too large"):
        read_bytes("/proc/self/maps", 100)


@posix
@pytest.mark.parametrize(("target", "kind"), [("/dev/zero", "a device"), ("/dev/urandom", "a device"),
                                              ("/dev/null", "a device")])
def test_devices_and_links_to_them_are_refused_unread(tmp_path: Path, target: str, kind: str) -> None:
    link = tmp_path / "palette.json"
    link.symlink_to(target)
    for path in (Path(target), link):
        started = time.monotonic()
        with pytest.raises(UnreadableFile, match=f"is {kind}.*not a regular file") as caught:
            read_bytes(path, 10**9)
        assert time.monotonic() - started < 1 and not caught.value.missing
    assert "through a link" in UnreadableFile.__str__(_refusal(link))


def _refusal(path: Path) -> UnreadableFile:
    try:
        read_bytes(path, 10)
    except UnreadableFile as error:
        return error
    raise AssertionError(f"{path} was read")


@posix
def test_fifo_directory_and_socket_are_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    sock_path = tmp_path / "s"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock_path))
    try:
        for path, kind in ((fifo, "a named pipe"), (tmp_path, "a directory"), (sock_path, "a socket")):
            done: list[UnreadableFile] = []
            worker = threading.Thread(target=lambda p=path, out=done: out.append(_refusal(p)), daemon=True)
            worker.start()
            worker.join(1.0)
            assert done, f"{path} blocked"
            assert f"is {kind}" in done[0].reason
    finally:
        server.close()


def test_deep_nesting_long_numbers_and_non_numbers_are_refused() -> None:
    cases = {
        b"[" * 100_000 + b"]" * 100_000: "nested more than 16 levels",
        b"[" + b"9" * 400 + b"]": "number 400 characters long",
        b'{"a": ' + b"9" * 5000 + b"}": "number 5000 characters long",
        b"[1e400]": "too large to use",
        b"[NaN]": "NaN",
        b"[-Infinity]": "-Infinity",
        b"\xff{}": "not a text (UTF-8 JSON) file",
        b"{bad": "not valid JSON (line 1, column 2",
    }
    for data, reason in cases.items():
        with pytest.raises(UnreadableFile, match=re.escape(reason)):
            parse_json(data, "x.json")


def test_limits_leave_real_files_alone_and_brackets_in_strings_do_not_count() -> None:
    deep_text = {"name": "[" * 1000, "values": [[[1, 2.5, -3]]]}
    assert parse_json(json.dumps(deep_text).encode(), "x") == deep_text
    assert parse_json(b"[[[1]]]", "x", JsonLimits(max_depth=3)) == [[[1]]]
    with pytest.raises(UnreadableFile, match="nested more than 2"):
        parse_json(b"[[[1]]]", "x", JsonLimits(max_depth=2))


def test_hostile_strings_are_parsed_in_linear_time() -> None:
    for data in (b'"' + b'\\"' * 300_000, b'"\\' * 300_000, b'"' * 600_000, b"[]" * 300_000):
        started = time.monotonic()
        with pytest.raises(UnreadableFile):
            parse_json(data, "x")
        assert time.monotonic() - started < 1.0


def test_read_json_reads_bounded_then_parses(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text('{"a": [1, 2]}')
    assert read_json(path, 100, "a scan") == {"a": [1, 2]}
    with pytest.raises(UnreadableFile, match="too large for a scan"):
        read_json(path, 5, "a scan")


def test_shown_values_are_short() -> None:
    assert shown("x" * 1000).endswith("...") and len(shown("x" * 1000)) == 60
    assert shown(10**5000) == "a number of about 5001 digits"
    assert shown([1, 2]) == "[1, 2]"


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300) | st.text(alphabet='[]{}",:0123456789.eE-+ \\anulltrefs', max_size=300).map(str.encode))
def test_any_bytes_give_a_value_or_unreadable_file(data: bytes) -> None:
    with contextlib.suppress(UnreadableFile):  # anything else (RecursionError, ValueError, ...) fails the test
        parse_json(data, "x")


def test_no_reader_in_qbr_bypasses_qbr_files() -> None:
    # The one reader: nothing else in the package opens or parses a file the user or the config dir names.
    root = Path(__file__).resolve().parents[2] / "qbr"
    allowed = {root / "files" / "read.py", root / "files" / "limited_json.py"}
    patterns = ("read_bytes()", "read_text(", "json.load(", "json.loads(", "cv2.imread(", "np.load(path", "open(path)",
                "os.O_RDONLY |")  # the last: a file opened for reading by hand (store fsyncs its directory alone)
    found = [
        f"{path.relative_to(root)}: {pattern}"
        for path in sorted(root.rglob("*.py")) if path not in allowed
        for pattern in patterns if pattern in path.read_text(encoding="utf-8")
    ]
    assert found == [], found


def test_a_regular_file_stated_too_large_is_refused_unread(tmp_path: Path) -> None:
    sparse = tmp_path / "sparse.json"
    with sparse.open("wb") as handle:
        handle.truncate(20 * 1024**3)  # 20 GB of holes: no disk used, and reading it would take minutes
    started = time.monotonic()
    with pytest.raises(UnreadableFile, match="too large for a scan"):
        read_bytes(sparse, 1000, "a scan")
    assert time.monotonic() - started < 1.0
