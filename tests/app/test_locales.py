"""The app's UI strings: every language has every key, the same placeholders, and real translations."""

from __future__ import annotations

from pathlib import Path

import pytest

from qbr.solve.i18n import LANGUAGES, Translator, load_catalogue, placeholders, texts
from qbr.solve.plural import categories

LOCALES = Path(__file__).resolve().parents[2] / "qbr" / "app" / "locales"
ENGLISH = load_catalogue("en", [LOCALES])


def test_every_language_has_a_file() -> None:
    assert sorted(p.stem for p in LOCALES.glob("*.json")) == sorted(LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_same_keys_and_placeholders_no_empty_strings(lang: str) -> None:
    entries = load_catalogue(lang, [LOCALES])
    assert set(entries) == set(ENGLISH)
    rules = categories(lang)
    for key, entry in entries.items():
        assert all(text.strip() for text in texts(entry)), key
        assert placeholders(entry) == placeholders(ENGLISH[key]), key
        assert isinstance(entry, str) == isinstance(ENGLISH[key], str) or not isinstance(entry, str), key
        if not isinstance(entry, str):
            assert set(entry) == rules, (key, sorted(entry), sorted(rules))
    if lang != "en":
        shared = ("app.keyname.", "app.legend.")  # "ESC", "{key} {action}": the same in many languages
        same = [k for k, entry in entries.items() if entry == ENGLISH[k] and not k.startswith(shared)]
        assert len(same) <= 1, same  # e.g. French "{n}/{total} faces" is spelled as in English


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_string_formats(lang: str) -> None:
    tr = Translator(lang, extra_dirs=[LOCALES])
    for key, entry in ENGLISH.items():
        params: dict[str, object] = {name: "X" for name in placeholders(entry)}
        if not isinstance(entry, str):
            params["count"] = 2
        assert tr.t(key, **params)
    assert tr.t("app.language_name") != ENGLISH["app.language_name"] or lang == "en"
