"""Every counted message in every language takes the plural form CLDR's rules call for: never "1 moves".

Rendered with counts 0, 1, 2, 3, 11 and 100 (and a million, where a language has a "many" form for it), compared
with hand-checked text in English, French (0 and 1 singular) and Arabic (six forms).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from qbr.solve.i18n import LANGUAGES, LOCALE_DIR, Translator, load_catalogue, placeholders
from qbr.solve.plural import categories, plural_rule

APP_LOCALES = Path(__file__).resolve().parents[2] / "qbr" / "app" / "locales"
ENGLISH = load_catalogue("en", (LOCALE_DIR, APP_LOCALES))
COUNTED = sorted(key for key, entry in ENGLISH.items() if not isinstance(entry, str))
COUNTS = (0, 1, 2, 3, 11, 100)
PARAMS = {"expected": 54, "character": "X", "positions": "URF, DLF", "piece": "P", "missing": "M", "n": 3}

# Texts with numbers but no counted noun beside them (a number alone reads right in every language).
BARE_NUMBERS = {
    "step": "Step 3 of 19",
    "problem.colour_count": "...: 8 instead of 9",
    "app.status.calibrating": "Calibrating colours 2/6",
    "app.msg.pocket_captured": "Face 2 of 6 captured.",
    # "after 4 of 6 faces": the noun goes with the total, always 6 faces.
    "app.ended.video": "The video ended after 4 of 6 faces. Missing: white, yellow.",
    "app.ended.video.pocket": "The video ended after 2 of 6 faces.",
    "app.ended.photos": "The photos ran out after 4 of 6 faces. Missing: white, yellow.",
    "app.ended.photos.pocket": "The photos ran out after 2 of 6 faces.",
}
NUMBER_PARAMS = frozenset({"count", "n", "total", "expected", "htm", "qtm"})

EXPECTED = {
    "en": {
        "problem.bad_characters.any_letter": (
            "'X' is not a letter (name each colour by a letter); positions: URF, DLF.",
            "'X' is not a letter (name each colour by a letter); position: URF, DLF.",
            "'X' is not a letter (name each colour by a letter); positions: URF, DLF.",
            "'X' is not a letter (name each colour by a letter); positions: URF, DLF.",
            "'X' is not a letter (name each colour by a letter); positions: URF, DLF.",
            "'X' is not a letter (name each colour by a letter); positions: URF, DLF.",
        ),
        "solution.moves": (
            '0 moves',
            '1 move',
            '2 moves',
            '3 moves',
            '11 moves',
            '100 moves',
        ),
        "solution.quarter_turns": (
            '0 quarter turns',
            '1 quarter turn',
            '2 quarter turns',
            '3 quarter turns',
            '11 quarter turns',
            '100 quarter turns',
        ),
        "problem.bad_length": (
            'The cube needs 54 letters, one per sticker, but 0 letters were given.',
            'The cube needs 54 letters, one per sticker, but 1 letter was given.',
            'The cube needs 54 letters, one per sticker, but 2 letters were given.',
            'The cube needs 54 letters, one per sticker, but 3 letters were given.',
            'The cube needs 54 letters, one per sticker, but 11 letters were given.',
            'The cube needs 54 letters, one per sticker, but 100 letters were given.',
        ),
        "problem.bad_characters": (
            "'X' is not a face letter (use U R F D L B); positions: URF, DLF.",
            "'X' is not a face letter (use U R F D L B); position: URF, DLF.",
            "'X' is not a face letter (use U R F D L B); positions: URF, DLF.",
            "'X' is not a face letter (use U R F D L B); positions: URF, DLF.",
            "'X' is not a face letter (use U R F D L B); positions: URF, DLF.",
            "'X' is not a face letter (use U R F D L B); positions: URF, DLF.",
        ),
        "problem.duplicate_corner": (
            'The P corner appears 0 times: at URF, DLF.',
            'The P corner appears once: at URF, DLF.',
            'The P corner appears 2 times: at URF, DLF.',
            'The P corner appears 3 times: at URF, DLF.',
            'The P corner appears 11 times: at URF, DLF.',
            'The P corner appears 100 times: at URF, DLF.',
        ),
        "problem.duplicate_corner.missing": (
            'The P corner appears 0 times: at URF, DLF. Missing: M.',
            'The P corner appears once: at URF, DLF. Missing: M.',
            'The P corner appears 2 times: at URF, DLF. Missing: M.',
            'The P corner appears 3 times: at URF, DLF. Missing: M.',
            'The P corner appears 11 times: at URF, DLF. Missing: M.',
            'The P corner appears 100 times: at URF, DLF. Missing: M.',
        ),
        "problem.duplicate_edge": (
            'The P edge appears 0 times: at URF, DLF.',
            'The P edge appears once: at URF, DLF.',
            'The P edge appears 2 times: at URF, DLF.',
            'The P edge appears 3 times: at URF, DLF.',
            'The P edge appears 11 times: at URF, DLF.',
            'The P edge appears 100 times: at URF, DLF.',
        ),
        "problem.duplicate_edge.missing": (
            'The P edge appears 0 times: at URF, DLF. Missing: M.',
            'The P edge appears once: at URF, DLF. Missing: M.',
            'The P edge appears 2 times: at URF, DLF. Missing: M.',
            'The P edge appears 3 times: at URF, DLF. Missing: M.',
            'The P edge appears 11 times: at URF, DLF. Missing: M.',
            'The P edge appears 100 times: at URF, DLF. Missing: M.',
        ),
        "app.status.faces": (
            '3/0 faces',
            '3/1 face',
            '3/2 faces',
            '3/3 faces',
            '3/11 faces',
            '3/100 faces',
        ),
        "app.prompt.solving_best": (
            'Looking for a shorter solution. Shortest so far: 0 moves',
            'Looking for a shorter solution. Shortest so far: 1 move',
            'Looking for a shorter solution. Shortest so far: 2 moves',
            'Looking for a shorter solution. Shortest so far: 3 moves',
            'Looking for a shorter solution. Shortest so far: 11 moves',
            'Looking for a shorter solution. Shortest so far: 100 moves',
        ),
        "app.status.solution": (
            'Solution: 0 moves',
            'Solution: 1 move',
            'Solution: 2 moves',
            'Solution: 3 moves',
            'Solution: 11 moves',
            'Solution: 100 moves',
        ),
        "app.msg.review": (
            '0 stickers were hard to read: press E to check them on the net.',
            '1 sticker was hard to read: press E to check it on the net.',
            '2 stickers were hard to read: press E to check them on the net.',
            '3 stickers were hard to read: press E to check them on the net.',
            '11 stickers were hard to read: press E to check them on the net.',
            '100 stickers were hard to read: press E to check them on the net.',
        ),
    },
    "fr": {
        "problem.bad_characters.any_letter": (
            "«\u202fX\u202f» n'est pas une lettre (nommez chaque couleur par"
            ' une lettre)\u202f; position\xa0: URF, DLF.',
            "«\u202fX\u202f» n'est pas une lettre (nommez chaque couleur par"
            ' une lettre)\u202f; position\xa0: URF, DLF.',
            "«\u202fX\u202f» n'est pas une lettre (nommez chaque couleur par"
            ' une lettre)\u202f; positions\xa0: URF, DLF.',
            "«\u202fX\u202f» n'est pas une lettre (nommez chaque couleur par"
            ' une lettre)\u202f; positions\xa0: URF, DLF.',
            "«\u202fX\u202f» n'est pas une lettre (nommez chaque couleur par"
            ' une lettre)\u202f; positions\xa0: URF, DLF.',
            "«\u202fX\u202f» n'est pas une lettre (nommez chaque couleur par"
            ' une lettre)\u202f; positions\xa0: URF, DLF.',
        ),
        "solution.moves": (
            '0 mouvement',
            '1 mouvement',
            '2 mouvements',
            '3 mouvements',
            '11 mouvements',
            '100 mouvements',
        ),
        "solution.quarter_turns": (
            '0 quart de tour',
            '1 quart de tour',
            '2 quarts de tour',
            '3 quarts de tour',
            '11 quarts de tour',
            '100 quarts de tour',
        ),
        "problem.bad_length": (
            'Le cube demande 54 lettres, une par autocollant, mais 0 lettre a été donnée.',
            'Le cube demande 54 lettres, une par autocollant, mais 1 lettre a été donnée.',
            'Le cube demande 54 lettres, une par autocollant, mais 2 lettres ont été données.',
            'Le cube demande 54 lettres, une par autocollant, mais 3 lettres ont été données.',
            'Le cube demande 54 lettres, une par autocollant, mais 11 lettres ont été données.',
            'Le cube demande 54 lettres, une par autocollant, mais 100 lettres ont été données.',
        ),
        "problem.bad_characters": (
            "«\u202fX\u202f» n'est pas une lettre de face (utilisez U R F D L B)\u202f; position\xa0: URF, DLF.",
            "«\u202fX\u202f» n'est pas une lettre de face (utilisez U R F D L B)\u202f; position\xa0: URF, DLF.",
            "«\u202fX\u202f» n'est pas une lettre de face (utilisez U R F D L B)\u202f; positions\xa0: URF, DLF.",
            "«\u202fX\u202f» n'est pas une lettre de face (utilisez U R F D L B)\u202f; positions\xa0: URF, DLF.",
            "«\u202fX\u202f» n'est pas une lettre de face (utilisez U R F D L B)\u202f; positions\xa0: URF, DLF.",
            "«\u202fX\u202f» n'est pas une lettre de face (utilisez U R F D L B)\u202f; positions\xa0: URF, DLF.",
        ),
        "problem.duplicate_corner": (
            'Le coin P apparaît 0 fois\xa0: en URF, DLF.',
            'Le coin P apparaît 1 fois\xa0: en URF, DLF.',
            'Le coin P apparaît 2 fois\xa0: en URF, DLF.',
            'Le coin P apparaît 3 fois\xa0: en URF, DLF.',
            'Le coin P apparaît 11 fois\xa0: en URF, DLF.',
            'Le coin P apparaît 100 fois\xa0: en URF, DLF.',
        ),
        "problem.duplicate_corner.missing": (
            'Le coin P apparaît 0 fois\xa0: en URF, DLF. Il manque\xa0: M.',
            'Le coin P apparaît 1 fois\xa0: en URF, DLF. Il manque\xa0: M.',
            'Le coin P apparaît 2 fois\xa0: en URF, DLF. Il manque\xa0: M.',
            'Le coin P apparaît 3 fois\xa0: en URF, DLF. Il manque\xa0: M.',
            'Le coin P apparaît 11 fois\xa0: en URF, DLF. Il manque\xa0: M.',
            'Le coin P apparaît 100 fois\xa0: en URF, DLF. Il manque\xa0: M.',
        ),
        "problem.duplicate_edge": (
            "L'arête P apparaît 0 fois\xa0: en URF, DLF.",
            "L'arête P apparaît 1 fois\xa0: en URF, DLF.",
            "L'arête P apparaît 2 fois\xa0: en URF, DLF.",
            "L'arête P apparaît 3 fois\xa0: en URF, DLF.",
            "L'arête P apparaît 11 fois\xa0: en URF, DLF.",
            "L'arête P apparaît 100 fois\xa0: en URF, DLF.",
        ),
        "problem.duplicate_edge.missing": (
            "L'arête P apparaît 0 fois\xa0: en URF, DLF. Il manque\xa0: M.",
            "L'arête P apparaît 1 fois\xa0: en URF, DLF. Il manque\xa0: M.",
            "L'arête P apparaît 2 fois\xa0: en URF, DLF. Il manque\xa0: M.",
            "L'arête P apparaît 3 fois\xa0: en URF, DLF. Il manque\xa0: M.",
            "L'arête P apparaît 11 fois\xa0: en URF, DLF. Il manque\xa0: M.",
            "L'arête P apparaît 100 fois\xa0: en URF, DLF. Il manque\xa0: M.",
        ),
        "app.status.faces": (
            '3/0 face',
            '3/1 face',
            '3/2 faces',
            '3/3 faces',
            '3/11 faces',
            '3/100 faces',
        ),
        "app.prompt.solving_best": (
            'Recherche d’une solution plus courte. La plus courte pour l’instant\xa0: 0 mouvement',
            'Recherche d’une solution plus courte. La plus courte pour l’instant\xa0: 1 mouvement',
            'Recherche d’une solution plus courte. La plus courte pour l’instant\xa0: 2 mouvements',
            'Recherche d’une solution plus courte. La plus courte pour l’instant\xa0: 3 mouvements',
            'Recherche d’une solution plus courte. La plus courte pour l’instant\xa0: 11 mouvements',
            'Recherche d’une solution plus courte. La plus courte pour l’instant\xa0: 100 mouvements',
        ),
        "app.status.solution": (
            'Solution\xa0: 0 mouvement',
            'Solution\xa0: 1 mouvement',
            'Solution\xa0: 2 mouvements',
            'Solution\xa0: 3 mouvements',
            'Solution\xa0: 11 mouvements',
            'Solution\xa0: 100 mouvements',
        ),
        "app.msg.review": (
            '0 autocollant était difficile à lire\xa0: appuyez sur E pour le vérifier sur le patron.',
            '1 autocollant était difficile à lire\xa0: appuyez sur E pour le vérifier sur le patron.',
            '2 autocollants étaient difficiles à lire\xa0: appuyez sur E pour les vérifier sur le patron.',
            '3 autocollants étaient difficiles à lire\xa0: appuyez sur E pour les vérifier sur le patron.',
            '11 autocollants étaient difficiles à lire\xa0: appuyez sur E pour les vérifier sur le patron.',
            '100 autocollants étaient difficiles à lire\xa0: appuyez sur E pour les vérifier sur le patron.',
        ),
    },
    "ar": {
        "problem.bad_characters.any_letter": (
            '«X» ليس حرفًا (سمِّ كل لون بحرف)؛ المواضع: URF, DLF.',
            '«X» ليس حرفًا (سمِّ كل لون بحرف)؛ الموضع: URF, DLF.',
            '«X» ليس حرفًا (سمِّ كل لون بحرف)؛ الموضعان: URF, DLF.',
            '«X» ليس حرفًا (سمِّ كل لون بحرف)؛ المواضع: URF, DLF.',
            '«X» ليس حرفًا (سمِّ كل لون بحرف)؛ المواضع: URF, DLF.',
            '«X» ليس حرفًا (سمِّ كل لون بحرف)؛ المواضع: URF, DLF.',
        ),
        "solution.moves": (
            'لا حركات',
            'حركة واحدة',
            'حركتان',
            '3 حركات',
            '11 حركة',
            '100 حركة',
        ),
        "solution.quarter_turns": (
            'لا أرباع دورة',
            'ربع دورة واحد',
            'ربعا دورة',
            '3 أرباع دورة',
            '11 ربع دورة',
            '100 ربع دورة',
        ),
        "problem.bad_length": (
            'يحتاج المكعب إلى 54 حرفًا، حرف لكل ملصق، لكن لم يُعطَ أي حرف.',
            'يحتاج المكعب إلى 54 حرفًا، حرف لكل ملصق، لكن أُعطي حرف واحد.',
            'يحتاج المكعب إلى 54 حرفًا، حرف لكل ملصق، لكن أُعطي حرفان.',
            'يحتاج المكعب إلى 54 حرفًا، حرف لكل ملصق، لكن أُعطيت 3 أحرف.',
            'يحتاج المكعب إلى 54 حرفًا، حرف لكل ملصق، لكن أُعطي 11 حرفًا.',
            'يحتاج المكعب إلى 54 حرفًا، حرف لكل ملصق، لكن أُعطي 100 حرف.',
        ),
        "problem.bad_characters": (
            '«X» ليس حرف وجه (استخدم U R F D L B)؛ المواضع: URF, DLF.',
            '«X» ليس حرف وجه (استخدم U R F D L B)؛ الموضع: URF, DLF.',
            '«X» ليس حرف وجه (استخدم U R F D L B)؛ الموضعان: URF, DLF.',
            '«X» ليس حرف وجه (استخدم U R F D L B)؛ المواضع: URF, DLF.',
            '«X» ليس حرف وجه (استخدم U R F D L B)؛ المواضع: URF, DLF.',
            '«X» ليس حرف وجه (استخدم U R F D L B)؛ المواضع: URF, DLF.',
        ),
        "problem.duplicate_corner": (
            'زاوية P لا تظهر: في URF, DLF.',
            'زاوية P تظهر مرة واحدة: في URF, DLF.',
            'زاوية P تظهر مرتين: في URF, DLF.',
            'زاوية P تظهر 3 مرات: في URF, DLF.',
            'زاوية P تظهر 11 مرة: في URF, DLF.',
            'زاوية P تظهر 100 مرة: في URF, DLF.',
        ),
        "problem.duplicate_corner.missing": (
            'زاوية P لا تظهر: في URF, DLF. الناقص: M.',
            'زاوية P تظهر مرة واحدة: في URF, DLF. الناقص: M.',
            'زاوية P تظهر مرتين: في URF, DLF. الناقص: M.',
            'زاوية P تظهر 3 مرات: في URF, DLF. الناقص: M.',
            'زاوية P تظهر 11 مرة: في URF, DLF. الناقص: M.',
            'زاوية P تظهر 100 مرة: في URF, DLF. الناقص: M.',
        ),
        "problem.duplicate_edge": (
            'حافة P لا تظهر: في URF, DLF.',
            'حافة P تظهر مرة واحدة: في URF, DLF.',
            'حافة P تظهر مرتين: في URF, DLF.',
            'حافة P تظهر 3 مرات: في URF, DLF.',
            'حافة P تظهر 11 مرة: في URF, DLF.',
            'حافة P تظهر 100 مرة: في URF, DLF.',
        ),
        "problem.duplicate_edge.missing": (
            'حافة P لا تظهر: في URF, DLF. الناقص: M.',
            'حافة P تظهر مرة واحدة: في URF, DLF. الناقص: M.',
            'حافة P تظهر مرتين: في URF, DLF. الناقص: M.',
            'حافة P تظهر 3 مرات: في URF, DLF. الناقص: M.',
            'حافة P تظهر 11 مرة: في URF, DLF. الناقص: M.',
            'حافة P تظهر 100 مرة: في URF, DLF. الناقص: M.',
        ),
        "app.status.faces": (
            'الأوجه: 3/0',
            'الأوجه: 3/1',
            'الأوجه: 3/2',
            'الأوجه: 3/3',
            'الأوجه: 3/11',
            'الأوجه: 3/100',
        ),
        "app.prompt.solving_best": (
            'جارٍ البحث عن حل أقصر… الأقصر حتى الآن: لا حركات',
            'جارٍ البحث عن حل أقصر… الأقصر حتى الآن: حركة واحدة',
            'جارٍ البحث عن حل أقصر… الأقصر حتى الآن: حركتان',
            'جارٍ البحث عن حل أقصر… الأقصر حتى الآن: 3 حركات',
            'جارٍ البحث عن حل أقصر… الأقصر حتى الآن: 11 حركة',
            'جارٍ البحث عن حل أقصر… الأقصر حتى الآن: 100 حركة',
        ),
        "app.status.solution": (
            'الحل: لا حركات',
            'الحل: حركة واحدة',
            'الحل: حركتان',
            'الحل: 3 حركات',
            'الحل: 11 حركة',
            'الحل: 100 حركة',
        ),
        "app.msg.review": (
            'عدد الملصقات الصعبة القراءة: 0. اضغط E لمراجعتها على شبكة المكعب.',
            'عدد الملصقات الصعبة القراءة: 1. اضغط E لمراجعتها على شبكة المكعب.',
            'عدد الملصقات الصعبة القراءة: 2. اضغط E لمراجعتها على شبكة المكعب.',
            'عدد الملصقات الصعبة القراءة: 3. اضغط E لمراجعتها على شبكة المكعب.',
            'عدد الملصقات الصعبة القراءة: 11. اضغط E لمراجعتها على شبكة المكعب.',
            'عدد الملصقات الصعبة القراءة: 100. اضغط E لمراجعتها على شبكة المكعب.',
        ),
    },
}


def test_the_counted_messages_are_the_expected_ones():
    # A new message with a count must be a plural entry, or say here why its numbers need no plural.
    with_numbers = {key for key, entry in ENGLISH.items() if placeholders(entry) & NUMBER_PARAMS}
    assert with_numbers - set(COUNTED) == set(BARE_NUMBERS), with_numbers - set(COUNTED)
    assert set(EXPECTED["en"]) == set(COUNTED)


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
@pytest.mark.parametrize("key", COUNTED)
def test_counted_messages_read_as_expected(lang: str, key: str) -> None:
    tr = Translator(lang, extra_dirs=[APP_LOCALES])
    assert tuple(tr.t(key, **PARAMS, count=n) for n in COUNTS) == EXPECTED[lang][key]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_counted_message_renders_its_own_form_for_every_count(lang: str) -> None:
    tr = Translator(lang, extra_dirs=[APP_LOCALES])
    own = load_catalogue(lang, (LOCALE_DIR, APP_LOCALES))
    rule = plural_rule(lang)
    for key in COUNTED:
        forms = own[key]
        assert set(forms) == categories(lang), (lang, key)
        for n in (*COUNTS, 1_000_000):
            text = tr.t(key, **PARAMS, count=n)
            assert text == forms[rule(n)].format(**PARAMS, count=n), (lang, key, n)
            # Only Arabic's zero, one and two forms say the number in words ("حركتان").
            if "{count}" in forms["other"] and (n > 2 or lang != "ar"):
                assert str(n) in text or rule(n) == "one", (lang, key, n, text)


@pytest.mark.parametrize("key", COUNTED)
def test_no_english_singular_count_with_a_plural_noun(key: str) -> None:
    tr = Translator("en", extra_dirs=[APP_LOCALES])
    plural = r"(moves|quarter turns|letters|times|faces|positions|stickers)\b"
    assert not re.search(r"\b1 " + plural, tr.t(key, **PARAMS, count=1))
    assert not re.search(r"\bpositions\b", tr.t(key, **PARAMS, count=1))
    assert re.search(r"\b2 " + plural, tr.t(key, **PARAMS, count=2)) or "bad_characters" in key


def test_string_counts_from_problem_params_choose_forms_too():
    tr = Translator("ar")
    assert tr.t("solution.moves", count="2") == "حركتان"
    assert tr.t("solution.moves", count="11") == "11 حركة"
