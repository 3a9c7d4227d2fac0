"""Plural rules (CLDR via Babel), plural entries in catalogues, and the loader's checks on a catalogue's shape."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from qbr.solve.errors import CatalogueError
from qbr.solve.i18n import Translator, load_catalogue
from qbr.solve.plural import as_count, categories, plural_rule


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", {"one", "other"}),
        ("nl", {"one", "other"}),
        ("de", {"one", "other"}),
        ("hu", {"one", "other"}),
        ("fr", {"one", "many", "other"}),
        ("es", {"one", "many", "other"}),
        ("ar", {"zero", "one", "two", "few", "many", "other"}),
        ("zh-Hans", {"other"}),
        ("zh-Hant", {"other"}),
        ("ja", {"other"}),
    ],
)
def test_categories_per_language(lang: str, expected: set[str]) -> None:
    assert categories(lang) == expected


@pytest.mark.parametrize(
    ("lang", "numbers"),
    [
        ("en", {0: "other", 1: "one", 2: "other", 21: "other"}),
        ("fr", {0: "one", 1: "one", 2: "other", 100: "other", 1_000_000: "many"}),
        ("es", {0: "other", 1: "one", 2: "other", 1_000_000: "many"}),
        # Arabic (CLDR): 3-10 few, 11-99 many, also by the last two digits (103 few, 111 many, 100-102 other).
        ("ar", {0: "zero", 1: "one", 2: "two", 3: "few", 10: "few", 11: "many", 99: "many", 100: "other",
                102: "other", 103: "few", 111: "many"}),
        ("ja", {0: "other", 1: "other", 2: "other"}),
    ],
)
def test_plural_rules_match_cldr(lang: str, numbers: dict[int, str]) -> None:
    rule = plural_rule(lang)
    assert {n: rule(n) for n in numbers} == numbers


def test_counts_from_strings_and_bad_counts() -> None:
    assert as_count("3") == 3 and as_count(" 11 ") == 11 and as_count(7) == 7
    assert as_count("1.5") == Decimal("1.5")
    for bad in ("three", "", "nan", "inf", True, 2.0, None):
        with pytest.raises(TypeError):
            as_count(bad)


def _catalogue(tmp_path: Path, lang: str, data: object) -> Path:
    (tmp_path / f"{lang}.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return tmp_path


def test_translator_picks_the_form_of_the_count(tmp_path: Path) -> None:
    _catalogue(tmp_path, "en", {"x.n": {"one": "{count} cat", "other": "{count} cats"}})
    _catalogue(tmp_path, "fr", {"x.n": {"one": "{count} chat", "many": "{count} de chats", "other": "{count} chats"}})
    en, fr = Translator("en", [tmp_path]), Translator("fr", [tmp_path])
    assert [en.t("x.n", count=n) for n in (0, 1, 2)] == ["0 cats", "1 cat", "2 cats"]
    assert [fr.t("x.n", count=n) for n in (0, 1, 2, 1_000_000)] == ["0 chat", "1 chat", "2 chats", "1000000 de chats"]
    # German lacks the key: English's forms by English's rules.
    assert Translator("de", [tmp_path]).t("x.n", count=1) == "1 cat"
    with pytest.raises(KeyError, match="count"):
        en.t("x.n")
    with pytest.raises(TypeError):
        en.t("x.n", count="many")


def test_a_missing_form_falls_back_to_other(tmp_path: Path) -> None:
    _catalogue(tmp_path, "ar", {"x.n": {"one": "واحد", "other": "{count}"}})
    tr = Translator("ar", [tmp_path])
    assert tr.t("x.n", count=1) == "واحد" and tr.t("x.n", count=2) == "2"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "JSON object"),
        ({"k": 3}, "string or an object"),
        ({"k": {"one": "a"}}, "no 'other'"),
        ({"k": {"single": "a", "other": "b"}}, "plural forms are named"),
        ({"k": {"one": ["a"], "other": "b"}}, "string or an object"),
        ({"k": "x" * 2001}, "longer than"),
    ],
)
def test_the_loader_refuses_a_wrongly_shaped_catalogue(tmp_path: Path, data: object, message: str) -> None:
    with pytest.raises(CatalogueError, match=message) as info:
        load_catalogue("en", [_catalogue(tmp_path, "en", data)])
    assert info.value.kind == "bad_catalogue"


def test_the_loader_refuses_broken_large_and_irregular_files(tmp_path: Path) -> None:
    (tmp_path / "en.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(CatalogueError, match="not valid JSON"):
        load_catalogue("en", [tmp_path])
    (tmp_path / "en.json").write_bytes(b'{"k": "\xff"}')
    with pytest.raises(CatalogueError, match="not UTF-8"):
        load_catalogue("en", [tmp_path])
    (tmp_path / "en.json").write_text(json.dumps({"k": "a" * 1500}) + " " * 1_000_000, encoding="utf-8")
    with pytest.raises(CatalogueError, match="too large for a catalogue"):
        load_catalogue("en", [tmp_path])
    (tmp_path / "en.json").unlink()
    (tmp_path / "en.json").mkdir()
    with pytest.raises(CatalogueError):
        load_catalogue("en", [tmp_path])
    assert load_catalogue("de", [tmp_path]) == {}  # no file: nothing from this directory


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_the_loader_refuses_a_pipe_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "en.json")
    code = ("import sys; from qbr.solve.i18n import load_catalogue\n"
            "try:\n    load_catalogue('en', [sys.argv[1]])\nexcept Exception as e:\n    print(type(e).__name__)")
    run = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=20,
                         stdin=subprocess.DEVNULL)
    assert run.stdout.strip() == "CatalogueError", run.stderr


def test_babel_loads_only_when_a_counted_sentence_is_needed() -> None:
    code = (
        "import sys, qbr.cli\n"
        "from qbr.solve.i18n import Translator\n"
        "tr = Translator('ar'); tr.t('step', n=1, total=2)\n"
        "assert 'babel' not in sys.modules, 'babel imported before a counted sentence'\n"
        "tr.t('solution.moves', count=3)\n"
        "assert 'babel' in sys.modules\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
