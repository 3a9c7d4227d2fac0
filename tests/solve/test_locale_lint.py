"""Every catalogue text passes the typographic lint and uses the glossary's terms; broken copies are reported."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from locale_lint import NNBSP, glossary_problems, lint

from qbr.solve.i18n import LANGUAGES, LOCALE_DIR, load_catalogue

APP_LOCALES = Path(__file__).resolve().parents[2] / "qbr" / "app" / "locales"
GLOSSARY = json.loads((LOCALE_DIR / "glossary.json").read_text(encoding="utf-8"))
DIRS = (LOCALE_DIR, APP_LOCALES)


def _both(lang: str) -> dict:
    return load_catalogue(lang, DIRS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_passes_the_lint(lang: str) -> None:
    assert lint(lang, _both(lang)) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_glossary_terms_are_the_ones_used(lang: str) -> None:
    assert set(GLOSSARY[lang]) >= {"face", "centre", "sticker", "corner", "edge", "turn", "quarter_turn", "half_turn"}
    assert glossary_problems(lang, _both(lang), GLOSSARY) == []


def test_the_glossary_covers_every_language_and_nothing_else() -> None:
    assert set(GLOSSARY) - {"_about"} == set(LANGUAGES)


def _broken_copy(tmp_path: Path, lang: str, changes: dict) -> dict:
    """``lang``'s real catalogues copied to ``tmp_path`` with ``changes`` made, loaded back."""
    for source in DIRS:
        target = tmp_path / source.parent.name
        target.mkdir(exist_ok=True)
        data = json.loads((source / f"{lang}.json").read_text(encoding="utf-8"))
        data.update({k: v for k, v in changes.items() if k in data})
        (target / f"{lang}.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return load_catalogue(lang, (tmp_path / "solve", tmp_path / "app"))


@pytest.mark.parametrize(
    ("lang", "key", "text", "reported"),
    [
        ("fr", "app.msg.language", "Langue : {language}", "no-break space"),
        ("fr", "app.prompt.solved", "Terminé\u00a0: le cube est résolu!", "no-break space"),
        ("fr", "problem.parity", f"«{NNBSP}X » est faux.", "« » need no-break spaces"),
        ("zh-Hans", "app.msg.language", "语言:{language}", "ASCII punctuation"),
        ("ja", "app.msg.camera_back", "カメラの映像が戻りました, はい。", "ASCII punctuation"),
        ("ja", "already_solved", "キューブはすでにそろっています 。", "space before full-width"),
        ("ja", "app.msg.no_face", "1つの面をカメラに向けてください。", "number touches"),
        ("zh-Hans", "problem.impossible_edge", "棱块 {position} 的颜色是 {colours}（{letters}）。", "CJK words"),
        ("ar", "app.msg.camera_back", "عادت الكاميرا, أليس كذلك?", "Latin punctuation"),
        ("de", "app.msg.camera_back", "die Kamera ist wieder da.", "lower case"),
        ("hu", "problem.parity", "Két elem fel van cserélve. cserélj vissza két élt.", "lower case"),
        ("en", "app.msg.camera_back", "The camera  is back.", "stray spaces"),
    ],
)
def test_the_lint_reports_a_broken_copy(tmp_path: Path, lang: str, key: str, text: str, reported: str) -> None:
    broken = _broken_copy(tmp_path, lang, {key: text})
    assert broken[key] == text
    findings = lint(lang, broken)
    assert findings and all(key in line for line in findings), findings
    assert any(reported in line for line in findings), findings


@pytest.mark.parametrize(
    ("lang", "key", "text", "reported"),
    [
        ("ar", "app.prompt.rescan", "امسح الوجه ذا المركز {colour} مرة أخرى.", "scan"),
        ("zh-Hant", "app.key.undo", "復原上一面", "undo"),
        ("nl", "problem.centres", "Het middenvlak van zijde {face} toont {shows} ({shows_colour}).", "face"),
        ("de", "move.y2", "Drehe den ganzen Würfel einmal herum.", "half_turn"),
        ("ja", "already_solved", "キューブはすでに揃っています。", "solved"),
        ("hu", "problem.parity", "A(z) URF sarok el van forgatva.", "article"),
    ],
)
def test_the_glossary_reports_a_forbidden_synonym(tmp_path: Path, lang: str, key: str, text: str,
                                                  reported: str) -> None:
    findings = glossary_problems(lang, _broken_copy(tmp_path, lang, {key: text}), GLOSSARY)
    assert any(key in line and reported in line for line in findings), findings


def test_the_glossary_reports_a_term_used_nowhere(tmp_path: Path) -> None:
    catalogue = _both("en")
    def tile(text: str) -> str:
        return re.sub("sticker", "tile", text, flags=re.IGNORECASE)

    renamed = {key: tile(entry) if isinstance(entry, str) else {c: tile(t) for c, t in entry.items()}
               for key, entry in catalogue.items()}
    findings = glossary_problems("en", renamed, GLOSSARY)
    assert any("'sticker'" in line and "used nowhere" in line for line in findings), findings
    assert any("tile" in line for line in findings), findings
