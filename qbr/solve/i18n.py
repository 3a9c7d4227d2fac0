"""Translations: choosing a language and looking up its sentences in flat JSON catalogues.

Catalogues live in ``qbr/solve/locales/<lang>.json`` as ``{"key": "text with {placeholders}"}``; other layers
may add their own directories (``extra_dirs``), whose keys are merged over these. English is the fallback for
any key a language lacks.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from qbr.solve.errors import UnknownLanguageError

LANGUAGES: Final = ("en", "zh-Hans", "zh-Hant", "nl", "de", "fr", "es", "hu", "ar", "ja")
"""Every language qbr has sentences for, by BCP 47 code."""

FALLBACK: Final = "en"

RTL_LANGUAGES: Final = frozenset({"ar"})
"""Languages written right to left."""

LOCALE_DIR: Final = Path(__file__).resolve().parent / "locales"

_BY_LOWER: Final = {code.lower(): code for code in LANGUAGES}
# Chinese regions and scripts: Taiwan, Hong Kong and Macau write traditional characters.
_TRADITIONAL: Final = frozenset({"hant", "tw", "hk", "mo"})


def _match(code: str) -> str | None:
    """The supported language a locale code means, or None (``zh_TW.UTF-8`` -> zh-Hant, ``de_DE`` -> de)."""
    cleaned = code.strip().split(".")[0].split("@")[0].replace("_", "-").lower()
    if not cleaned:
        return None
    if cleaned in _BY_LOWER:
        return _BY_LOWER[cleaned]
    parts = cleaned.split("-")
    if parts[0] == "zh":
        return "zh-Hant" if _TRADITIONAL.intersection(parts[1:]) else "zh-Hans"
    return _BY_LOWER.get(parts[0])


def resolve_language(requested: str | None, system: str) -> str:
    """The language to use: ``requested`` if given (unknown raises), else the system's, else English."""
    if requested is not None:
        found = _match(requested)
        if found is None:
            raise UnknownLanguageError(
                f"no translation for language '{requested}'; available: {', '.join(LANGUAGES)}"
            )
        return found
    return _match(system or "") or FALLBACK


def _load(path: Path) -> dict[str, str]:
    if not path.is_file():
        return {}
    data: Any = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ValueError(f"{path}: a catalogue must be a flat JSON object of strings")
    return data


def load_catalogue(lang: str, dirs: Sequence[Path]) -> dict[str, str]:
    """The keys of ``lang`` from each directory of ``dirs`` in turn, later directories winning."""
    merged: dict[str, str] = {}
    for directory in dirs:
        merged.update(_load(Path(directory) / f"{lang}.json"))
    return merged


class Translator:
    """Sentences of one language; ``t("step", n=3, total=19)`` -> "Step 3 of 19"."""

    def __init__(self, lang: str, extra_dirs: Sequence[Path] = ()) -> None:
        if lang not in LANGUAGES:
            raise UnknownLanguageError(f"no translation for language '{lang}'; available: {', '.join(LANGUAGES)}")
        self.lang = lang
        dirs = (LOCALE_DIR, *extra_dirs)
        self._fallback = load_catalogue(FALLBACK, dirs)
        self._own = self._fallback if lang == FALLBACK else load_catalogue(lang, dirs)

    @property
    def rtl(self) -> bool:
        """True when the language is written right to left."""
        return self.lang in RTL_LANGUAGES

    def __contains__(self, key: str) -> bool:
        return key in self._own or key in self._fallback

    def keys(self) -> frozenset[str]:
        """Every key this translator can answer (its own and the English fallback's)."""
        return frozenset(self._own) | frozenset(self._fallback)

    def t(self, key: str, **params: object) -> str:
        """The sentence for ``key`` with ``params`` filled in; English if this language lacks it.

        Raises KeyError if English lacks the key too, or if a placeholder has no value in ``params``.
        """
        text = self._own.get(key)
        if text is None:
            text = self._fallback[key]
        return text.format_map(_Params(params))

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"


class _Params(dict):
    """Format parameters that name the missing placeholder in the KeyError."""

    def __missing__(self, key: str) -> str:
        raise KeyError(f"no value for placeholder {{{key}}}")


def placeholders(text: str) -> frozenset[str]:
    """The ``{name}`` placeholders of a catalogue text."""
    import string

    return frozenset(name for _, name, _, _ in string.Formatter().parse(text) if name)


def catalogue(lang: str) -> Mapping[str, str]:
    """This layer's own catalogue of ``lang`` (for checks of completeness)."""
    return load_catalogue(lang, (LOCALE_DIR,))
