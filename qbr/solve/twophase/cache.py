"""The two-phase tables on disk: built once, kept in the user's cache directory, checked on every load.

The file is ``MAGIC``, a SHA-256 of the payload, then the payload (an uncompressed ``.npz``). Whatever is wrong
with it (missing, truncated, corrupt, another version, not a regular file, unreadable, unwritable) the tables
are rebuilt in memory and, if the directory allows, written again atomically; nothing here raises to the caller.
"""

from __future__ import annotations

import functools
import hashlib
import io
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np

from qbr.files.read import UnreadableFile, read_bytes
from qbr.files.write import write_atomically
from qbr.solve.twophase.tables import Tables, build_tables, layout

TABLES_VERSION: Final = 2
"""Bumped whenever a table's meaning or layout changes: older files are then ignored and replaced."""

MAGIC: Final = b"qbr-twophase-tables\n"
MAX_BYTES: Final = 64_000_000
"""The tables take about 23 MB; a larger file is not ours."""

_DIGEST_BYTES: Final = 32


@dataclass(frozen=True)
class CacheReport:
    """What loading did: ``source`` is "cache", "built" (and saved) or "built_unsaved"; ``problem`` says why a
    cached file was not used, if there was one."""

    source: str
    path: Path
    seconds: float = 0.0
    problem: str | None = None


def cache_path(cache_dir: Path) -> Path:
    return cache_dir / f"twophase-tables-v{TABLES_VERSION}.bin"


def _decode(data: bytes) -> Tables:
    """The tables in ``data``; ValueError unless it is a complete, intact file with the expected arrays."""
    head = len(MAGIC) + _DIGEST_BYTES
    if not data.startswith(MAGIC) or len(data) < head:
        raise ValueError("not a table file")
    payload = data[head:]
    if hashlib.sha256(payload).digest() != data[len(MAGIC) : head]:
        raise ValueError("checksum mismatch (truncated or corrupt)")
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except Exception as error:
        raise ValueError(f"unreadable archive: {error}") from error
    for name, (shape, dtype) in layout().items():
        got = arrays.get(name)
        if got is None or got.shape != shape or got.dtype != dtype:
            raise ValueError(f"table {name} missing or of the wrong shape")
    return Tables.from_arrays(arrays)


def _encode(tables: Tables) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, allow_pickle=False, **tables.arrays())
    payload = buffer.getvalue()
    return MAGIC + hashlib.sha256(payload).digest() + payload


def load_tables(cache_dir: Path) -> tuple[Tables, CacheReport]:
    """The tables from ``cache_dir`` if a sound file is there, else built (and saved there if possible)."""
    path = cache_path(cache_dir)
    problem: str | None = None
    try:
        return _decode(read_bytes(path, MAX_BYTES, "a table file")), CacheReport("cache", path)
    except UnreadableFile as error:
        problem = None if error.missing else error.reason
    except ValueError as error:
        problem = str(error) or type(error).__name__
    started = time.perf_counter()
    tables = build_tables()
    seconds = time.perf_counter() - started
    try:
        write_atomically(path, _encode(tables))
    except OSError:
        return tables, CacheReport("built_unsaved", path, seconds, problem)
    return tables, CacheReport("built", path, seconds, problem)


_LOCK: Final = threading.Lock()


@functools.cache
def _loaded(cache_dir: Path) -> tuple[Tables, CacheReport]:
    return load_tables(cache_dir)


def shared_tables(cache_dir: Path) -> tuple[Tables, CacheReport]:
    """``load_tables`` at most once per directory in this process, whichever thread asks first."""
    with _LOCK:
        return _loaded(cache_dir)
