"""What qbr remembers between runs: the calibrated palette, the language and mirroring, in the user's config dir.

Files are versioned JSON written atomically (temporary file in the same directory, fsync, ``os.replace``), so a
crash mid-save leaves the previous file intact. A corrupt or foreign file is reported as a notice and ignored,
never overwritten until the user saves a new one; a directory that cannot be written is a notice too, and the
value is kept for this run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from qbr.files.limited_json import read_json, shown
from qbr.files.read import UnreadableFile
from qbr.files.write import write_atomically as write_bytes_atomically

if TYPE_CHECKING:
    from qbr.vision.palette import Palette

PALETTE_FILE: Final = "palette.json"
SETTINGS_FILE: Final = "settings.json"
SETTINGS_FORMAT: Final = "qbr-settings"
SETTINGS_VERSION: Final = 1


Notice = tuple[str, dict[str, str]]
"""A UI string key of qbr/app/locales and its parameters (shown by the session, e.g. "app.warn.bad_file")."""


class _Unusable(Exception):
    """A stored file that exists but cannot be used; the message says why."""


def _bad(path: Path, reason: object) -> Notice:
    return ("app.warn.bad_file", {"path": str(path), "reason": str(reason)})


MAX_FILE_BYTES: Final = 1_000_000
"""A palette with capped samples or a settings file is a few kB; anything this big is not one."""


_NOTHING_STORED: Final = object()
"""What :func:`_read_json` gives for a file that does not exist (a file holding JSON ``null`` is unusable)."""


def _read_json(path: Path) -> Any:
    """The JSON in ``path``, or _NOTHING_STORED; raises _Unusable with a reason otherwise (file untouched)."""
    try:
        data = read_json(path, MAX_FILE_BYTES, "a qbr file")
    except UnreadableFile as error:
        if error.missing:
            return _NOTHING_STORED  # nothing was ever stored (or the config "directory" is a file)
        raise _Unusable(error.reason) from None
    if data is None:
        raise _Unusable("holds only null")
    return data


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` (UTF-8) so that readers (and a crash) see either the old or the new file."""
    write_bytes_atomically(path, text.encode("utf-8"))


class Store:
    """The palette and settings files of one config directory (``Environment.config_dir``)."""

    def __init__(self, config_dir: Path) -> None:
        self.config_dir = Path(config_dir)

    @property
    def palette_path(self) -> Path:
        return self.config_dir / PALETTE_FILE

    @property
    def settings_path(self) -> Path:
        return self.config_dir / SETTINGS_FILE

    # --------------------------------------------------------------------------------------------- palette

    def load_palette(self) -> tuple[Palette | None, list[Notice]]:
        """The calibrated palette, or None (use the default) with a notice if the file is unusable."""
        from qbr.vision.errors import PaletteFormatError
        from qbr.vision.palette import Palette

        path = self.palette_path
        try:
            data = _read_json(path)
            return (None if data is _NOTHING_STORED else Palette.from_json(data)), []
        except (_Unusable, PaletteFormatError) as error:
            return None, [_bad(path, error)]

    def save_palette(self, palette: Palette | None) -> Notice | None:
        """Store ``palette`` (None: delete the file, back to the defaults); a notice if that failed."""
        path = self.palette_path
        try:
            if palette is None:
                path.unlink(missing_ok=True)
            else:
                write_atomically(path, json.dumps(palette.to_json(), indent=1) + "\n")
        except OSError as error:
            return ("app.warn.cannot_save", {"path": str(path), "reason": error.strerror or str(error)})
        return None

    # -------------------------------------------------------------------------------------------- settings

    def _settings(self) -> dict[str, Any]:
        data = _read_json(self.settings_path)
        if data is _NOTHING_STORED:
            return {}
        if not isinstance(data, dict) or data.get("format") != SETTINGS_FORMAT:
            raise _Unusable(f"not a qbr settings file (expected \"format\": \"{SETTINGS_FORMAT}\")")
        if data.get("version") != SETTINGS_VERSION:
            version = shown(data.get("version"))
            raise _Unusable(f"unknown settings version {version} (this qbr reads {SETTINGS_VERSION})")
        return data

    def load_language(self) -> tuple[str | None, list[Notice]]:
        """The language chosen in an earlier run, or None; a notice if the settings file is unusable."""
        from qbr.solve.i18n import LANGUAGES

        try:
            lang = self._settings().get("language")
        except _Unusable as error:
            return None, [_bad(self.settings_path, error)]
        if lang is None:
            return None, []
        if lang not in LANGUAGES:
            return None, [_bad(self.settings_path, f"unknown language {shown(lang)}")]
        return lang, []

    def save_language(self, lang: str) -> Notice | None:
        """Remember ``lang``; a notice if it could not be saved."""
        return self._save_setting("language", lang)

    def load_mirror(self) -> tuple[bool | None, list[Notice]]:
        """Whether the camera's picture was mirrored back in an earlier run, or None; a notice if unusable."""
        try:
            mirror = self._settings().get("mirror")
        except _Unusable as error:
            return None, [_bad(self.settings_path, error)]
        if mirror is None:
            return None, []
        if not isinstance(mirror, bool):
            return None, [_bad(self.settings_path, f"\"mirror\" must be true or false, not {mirror!r}")]
        return mirror, []

    def save_mirror(self, mirror: bool) -> Notice | None:
        """Remember whether the camera's picture is mirrored back; a notice if it could not be saved."""
        return self._save_setting("mirror", bool(mirror))

    def _save_setting(self, key: str, value: Any) -> Notice | None:
        path = self.settings_path
        try:
            data = self._settings()
        except _Unusable:
            data = {}  # the user chose anew: replacing the unusable file is what they asked for
        data.update({"format": SETTINGS_FORMAT, "version": SETTINGS_VERSION, key: value})
        try:
            write_atomically(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        except OSError as error:
            return ("app.warn.cannot_save", {"path": str(path), "reason": error.strerror or str(error)})
        return None
