"""Typographic and terminology rules for the translation catalogues: what a native reader would stumble on.

``lint(lang, entries)`` and ``glossary_problems(lang, entries, glossary)`` return one line per finding (empty when
all is well), so a test can both require a clean catalogue and show that a broken one is reported.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from qbr.solve.i18n import Entry, texts

NBSP, NNBSP = "\u00a0", "\u202f"
CASED = frozenset({"en", "nl", "de", "fr", "es", "hu"})
CJK = frozenset({"zh-Hans", "zh-Hant", "ja"})

FRAGMENTS = ("app.key.", "app.keyname.", "colour.", "direction.", "list.", "solution.moves", "solution.quarter_turns")
"""Keys whose texts are parts of sentences (legend actions, colour names, counted nouns): no capital needed."""

_OPENERS = "«„“‘\"'¡¿([" + NBSP + NNBSP + " "
_SENTENCE_END = re.compile(r"[.!?…](?:[" + NBSP + NNBSP + r"]?[»“”\"'])?\s+(?=\S)")
_CJK_CHAR = "[\u3040-\u30ff\u3400-\u9fff]"
_NUMBER_PLACEHOLDER = re.compile(r"\{(?:count|n|total|expected|htm|qtm)\}")
_PLACEHOLDER = re.compile(r"\{\w+\}")
_CJK_WORD_SPACED = re.compile(r" \{(?:colour|colours|piece|missing|shows_colour|expected_colour|twist|fix)\}"
                              r"|\{(?:colour|colours|piece|missing|shows_colour|expected_colour|twist|fix)\} ")
"""Placeholders filled with words of the language itself (colour names): no space beside them in CJK text."""
_ENDS_IN_NUMBER = re.compile(r"(?:\d|\{(?:count|n|total|expected|htm|qtm)\})$")
_NUMBER_TOUCHES_CJK = re.compile(f"{_CJK_CHAR}\\d|\\d{_CJK_CHAR}")


def _sentence_starts(text: str) -> list[str]:
    """The text of each sentence from its first letter on (opening punctuation skipped).

    A full stop right after a number is an ordinal's ("{n}. lépés"), not a sentence's end.
    """
    starts = [0] + [m.end() for m in _SENTENCE_END.finditer(text) if not _ENDS_IN_NUMBER.search(text[: m.start()])]
    return [text[i:].lstrip(_OPENERS) for i in starts]


def lint_text(lang: str, key: str, text: str) -> list[str]:
    """What is wrong with one text of ``lang`` (``key`` says whether it is a whole sentence)."""
    found = []
    where = f"{lang} {key}: {text!r}"
    if not key.startswith(("list.", "colour.joiner")) and (text != text.strip() or "  " in text):
        found.append(f"{where}: stray spaces")
    if re.search(r"\s[。、，：；！？]", text):
        found.append(f"{where}: space before full-width punctuation")
    if lang == "fr":
        for match in re.finditer(r"(.)([:;!?])", text):
            if match.group(1) not in (NBSP, NNBSP):
                found.append(f"{where}: '{match.group(2)}' needs a no-break space (U+00A0 or U+202F) before it")
        if re.search(r"«(?![" + NBSP + NNBSP + "])", text) or re.search(r"(?<![" + NBSP + NNBSP + "])»", text):
            found.append(f"{where}: « » need no-break spaces inside")
    if lang in CJK:
        if re.search(r"[:,;!?]", text):
            found.append(f"{where}: ASCII punctuation in CJK text (use ：，；！？)")
        numbers_only = _PLACEHOLDER.sub("x", _NUMBER_PLACEHOLDER.sub("0", text))
        if _NUMBER_TOUCHES_CJK.search(numbers_only):
            found.append(f"{where}: a number touches a CJK character (put a space between)")
        if _CJK_WORD_SPACED.search(text):
            found.append(f"{where}: a space beside a placeholder that is filled with CJK words")
    if lang == "ar" and re.search(r"[,;?]", text):
        found.append(f"{where}: Latin punctuation in Arabic (use ، ؛ ؟)")
    if lang in CASED and not key.startswith(FRAGMENTS):
        for sentence in _sentence_starts(text):
            first = sentence[:1]
            if first and first != "{" and not first.isdigit() and not first.isupper():
                found.append(f"{where}: sentence starts in lower case: {sentence[:20]!r}")
    return found


def lint(lang: str, entries: Mapping[str, Entry]) -> list[str]:
    """Every finding in a language's catalogue."""
    return [line for key, entry in entries.items() for text in texts(entry) for line in lint_text(lang, key, text)]


def glossary_problems(lang: str, entries: Mapping[str, Entry], glossary: Mapping[str, Mapping]) -> list[str]:
    """Glossary terms never used, and synonyms the glossary forbids that are used, in ``lang``'s catalogue."""
    found = []
    # Placeholder names ("{stickers}") are code, not words of the language.
    all_texts = [(key, _PLACEHOLDER.sub("", text)) for key, entry in entries.items() for text in texts(entry)]
    for term, rule in glossary.get(lang, {}).items():
        uses = [re.compile(p, re.IGNORECASE) for p in rule["use"]]
        if uses and not any(p.search(text) for p in uses for _, text in all_texts):
            found.append(f"{lang}: glossary term '{term}' ({' | '.join(rule['use'])}) is used nowhere")
        for pattern in rule.get("avoid", ()):
            avoid = re.compile(pattern, re.IGNORECASE)
            found += [f"{lang} {key}: '{avoid.pattern}' instead of the glossary's {term}: {text!r}"
                      for key, text in all_texts if avoid.search(text)]
    return found
