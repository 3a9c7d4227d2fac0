"""Translations: choosing a language and looking up its sentences in JSON catalogues.

Catalogues live in ``qbr/solve/locales/<lang>.json`` as ``{"key": "text with {placeholders}"}``; other layers
may add their own directories (``extra_dirs``), whose keys are merged over these. English is the fallback for
any key a language lacks.

A sentence with a counted noun is an object of its plural forms by CLDR category instead of one text,
``{"one": "{count} move", "other": "{count} moves"}``; the ``count`` parameter chooses the form by the language's
rules (``qbr.solve.plural``). Each language lists exactly the categories its rules have (Arabic six, Chinese one).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from qbr.files.limited_json import read_json
from qbr.files.read import UnreadableFile
from qbr.solve.errors import CatalogueError, UnknownLanguageError
from qbr.solve.plural import CATEGORIES, Count, as_count, plural_rule

LANGUAGES: Final = ("en", "zh-Hans", "zh-Hant", "nl", "de", "fr", "es", "hu", "ar", "ja")
"""Every language qbr has sentences for, by BCP 47 code."""

FALLBACK: Final = "en"

RTL_LANGUAGES: Final = frozenset({"ar"})
"""Languages written right to left."""

LOCALE_DIR: Final = Path(__file__).resolve().parent / "locales"

COUNT: Final = "count"
"""The parameter whose number chooses a plural form."""

Entry = str | Mapping[str, str]
"""A catalogue value: one text, or a counted sentence's texts by plural category."""

_MAX_CATALOGUE_BYTES: Final = 1_000_000  # a catalogue is ~10 kB; refuse to parse anything absurd
_MAX_TEXT_CHARS: Final = 2_000  # the longest sentence is ~200 characters; longer is a broken file

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


def _text(path: Path, key: str, value: object) -> str:
    if not isinstance(value, str):
        raise CatalogueError(f"{path}: {key!r} must be a string or an object of plural forms")
    if len(value) > _MAX_TEXT_CHARS:
        raise CatalogueError(f"{path}: {key!r} is longer than {_MAX_TEXT_CHARS} characters")
    return value


def _entry(path: Path, key: str, value: object) -> Entry:
    if not isinstance(value, dict):
        return _text(path, key, value)
    unknown = sorted(set(value) - set(CATEGORIES))
    if unknown:
        raise CatalogueError(f"{path}: {key!r} has {unknown}; plural forms are named {', '.join(CATEGORIES)}")
    if "other" not in value:
        raise CatalogueError(f"{path}: {key!r} has no 'other' plural form")
    return {category: _text(path, f"{key}.{category}", text) for category, text in value.items()}


def _load(path: Path) -> dict[str, Entry]:
    try:
        data: Any = read_json(path, _MAX_CATALOGUE_BYTES, "a catalogue")
    except UnreadableFile as error:
        if error.missing:
            return {}
        raise CatalogueError(str(error)) from None
    if not isinstance(data, dict):
        raise CatalogueError(f"{path}: a catalogue must be a JSON object of texts")
    return {key: _entry(path, key, value) for key, value in data.items()}


def load_catalogue(lang: str, dirs: Sequence[Path]) -> dict[str, Entry]:
    """The keys of ``lang`` from each directory of ``dirs`` in turn, later directories winning.

    Raises CatalogueError for a file that is unreadable, too large, not JSON, or not shaped as described above.
    """
    merged: dict[str, Entry] = {}
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
        self._rules: dict[str, Callable[[Count], str]] = {}  # by language, made when first needed (loads Babel)

    @property
    def rtl(self) -> bool:
        """True when the language is written right to left."""
        return self.lang in RTL_LANGUAGES

    def __contains__(self, key: str) -> bool:
        return key in self._own or key in self._fallback

    def keys(self) -> frozenset[str]:
        """Every key this translator can answer (its own and the English fallback's)."""
        return frozenset(self._own) | frozenset(self._fallback)

    def t(self, key: str, /, **params: object) -> str:
        """The sentence for ``key`` with ``params`` filled in; English if this language lacks it.

        A counted sentence takes the plural form ``params["count"]`` calls for in the language of the text.
        Raises KeyError if English lacks the key too, or if a placeholder (or the count) has no value in
        ``params``; TypeError if the count is not a number.
        """
        lang, entry = self.lang, self._own.get(key)
        if entry is None:
            lang, entry = FALLBACK, self._fallback[key]
        if not isinstance(entry, str):
            if COUNT not in params:
                raise KeyError(f"no value for placeholder {{{COUNT}}} (the count of {key!r})")
            entry = entry.get(self._category(lang, as_count(params[COUNT])), entry["other"])
        return entry.format_map(_Params(params))

    def _category(self, lang: str, count: Count) -> str:
        rule = self._rules.get(lang)
        if rule is None:
            rule = self._rules[lang] = plural_rule(lang)
        return rule(count)

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"


class _Params(dict):
    """Format parameters that name the missing placeholder in the KeyError."""

    def __missing__(self, key: str) -> str:
        raise KeyError(f"no value for placeholder {{{key}}}")


def placeholders(entry: Entry) -> frozenset[str]:
    """The ``{name}`` placeholders of a catalogue text (of all its plural forms together)."""
    import string

    return frozenset(name for text in texts(entry) for _, name, _, _ in string.Formatter().parse(text) if name)


def texts(entry: Entry) -> list[str]:
    """Every text of a catalogue entry: the text itself, or each of its plural forms."""
    return [entry] if isinstance(entry, str) else list(entry.values())


def catalogue(lang: str) -> Mapping[str, Entry]:
    """This layer's own catalogue of ``lang`` (for checks of completeness)."""
    return load_catalogue(lang, (LOCALE_DIR,))
