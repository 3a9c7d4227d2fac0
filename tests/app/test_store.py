"""Remembered palette and language: atomic saves, corrupt/foreign files ignored, unwritable dirs survived."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from qbr.app.store import Store
from qbr.vision.palette import DEFAULT_PALETTE, Palette

CALIBRATED = Palette(colours={**DEFAULT_PALETTE.colours, "orange": (250.0, 140.0, 40.0)}, name="calibrated")


def test_palette_round_trip_and_reset(tmp_path: Path) -> None:
    store = Store(tmp_path / "qbr")
    assert store.load_palette() == (None, [])
    assert store.save_palette(CALIBRATED) is None
    assert store.load_palette() == (CALIBRATED, [])
    assert store.save_palette(None) is None
    assert store.load_palette() == (None, [])
    assert [p.name for p in (tmp_path / "qbr").iterdir()] == []  # no temporary files left behind


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe\x00garbage", "not a text (UTF-8 JSON) file"),
        (json.dumps({"format": "something-else", "version": 1}).encode(), "not a qbr palette"),
        (json.dumps([1, 2, 3]).encode(), "must be a JSON object"),
        (json.dumps({"format": "qbr-palette", "version": 1, "colours": {"white": [1, 2, 3]}}).encode(), "missing"),
    ],
)
def test_corrupt_or_foreign_palette_is_reported_ignored_and_kept(tmp_path: Path, content: bytes, reason: str) -> None:
    store = Store(tmp_path)
    store.palette_path.write_bytes(content)
    palette, notices = store.load_palette()
    assert palette is None
    ((key, params),) = notices
    assert key == "app.warn.bad_file" and params["path"] == str(store.palette_path) and reason in params["reason"]
    assert store.palette_path.read_bytes() == content  # never overwritten by loading


def test_language_round_trip_and_bad_settings(tmp_path: Path) -> None:
    store = Store(tmp_path)
    assert store.load_language() == (None, [])
    assert store.save_language("zh-Hant") is None
    assert store.load_language() == ("zh-Hant", [])
    store.settings_path.write_text('{"format": "qbr-settings", "version": 1, "language": "klingon"}')
    lang, notices = store.load_language()
    assert lang is None and "klingon" in notices[0][1]["reason"]
    store.settings_path.write_text('{"theme": "dark"}')
    lang, notices = store.load_language()
    assert lang is None and "not a qbr settings file" in notices[0][1]["reason"]
    assert store.save_language("ar") is None  # the user chose anew: the foreign file is replaced
    assert store.load_language() == ("ar", [])


def test_unwritable_config_dir_is_a_notice_not_a_crash(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    store = Store(blocker / "qbr")  # a config dir whose parent is a file cannot be created, even by root
    assert store.load_palette() == (None, [])
    assert store.load_language() == (None, [])
    for notice in (store.save_palette(CALIBRATED), store.save_language("de")):
        assert notice is not None and notice[0] == "app.warn.cannot_save" and str(blocker) in notice[1]["path"]


def test_failed_replace_keeps_the_previous_palette(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path)
    store.save_palette(CALIBRATED)

    def broken(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    notice = store.save_palette(DEFAULT_PALETTE)
    assert notice is not None and "No space left" in notice[1]["reason"]
    monkeypatch.undo()
    assert store.load_palette() == (CALIBRATED, [])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["palette.json"]


def test_process_killed_mid_save_keeps_the_previous_palette(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save_palette(CALIBRATED)
    # The child is killed (SIGKILL, no cleanup) after writing the new file's bytes, before the rename.
    child = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "from qbr.app.store import Store\n"
        "from qbr.vision.palette import DEFAULT_PALETTE\n"
        "os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)\n"
        "Store(Path(sys.argv[1])).save_palette(DEFAULT_PALETTE)\n"
    )
    done = subprocess.run([sys.executable, "-c", child, str(tmp_path)], capture_output=True, timeout=60)
    assert done.returncode == -9
    (leftover,) = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # it really died mid-save
    assert store.load_palette() == (CALIBRATED, [])
    os.utime(leftover, (0, 0))  # long ago: the next save tidies it away
    assert store.save_palette(DEFAULT_PALETTE) is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["palette.json"]
