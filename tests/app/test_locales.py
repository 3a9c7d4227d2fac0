"""The app's UI strings: every language has every key, the same placeholders, and real translations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qbr.solve.i18n import LANGUAGES, Translator, placeholders

LOCALES = Path(__file__).resolve().parents[2] / "qbr" / "app" / "locales"
ENGLISH = json.loads((LOCALES / "en.json").read_text(encoding="utf-8"))


def test_every_language_has_a_file() -> None:
    assert sorted(p.stem for p in LOCALES.glob("*.json")) == sorted(LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_same_keys_and_placeholders_no_empty_strings(lang: str) -> None:
    texts = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    assert set(texts) == set(ENGLISH)
    for key, text in texts.items():
        assert text.strip(), key
        assert placeholders(text) == placeholders(ENGLISH[key]), key
    if lang != "en":
        same = [k for k, text in texts.items() if text == ENGLISH[k]]
        assert len(same) <= 1, same  # e.g. French "{n}/{total} faces" is spelled as in English


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_string_formats(lang: str) -> None:
    tr = Translator(lang, extra_dirs=[LOCALES])
    for key, text in ENGLISH.items():
        params = {name: "X" for name in placeholders(text)}
        assert tr.t(key, **params)
    assert tr.t("app.language_name") != ENGLISH["app.language_name"] or lang == "en"
