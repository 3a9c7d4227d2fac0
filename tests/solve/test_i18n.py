"""Language choice, catalogue completeness, fallbacks, and direction words checked against the move simulator."""

import json

import pytest

from qbr.cube.conventions import FACES, OPPOSITE
from qbr.cube.moves import Move
from qbr.cube.state import CubeState
from qbr.solve.errors import UnknownLanguageError
from qbr.solve.i18n import LANGUAGES, LOCALE_DIR, Translator, catalogue, placeholders, resolve_language, texts
from qbr.solve.plural import categories

EN = catalogue("en")


COLOUR_NAMES = [key.split(".")[1] for key in EN if key.count(".") == 1 and key.startswith("colour.")]
# Forms a language may add where its words agree with the piece they name (Spanish "esquina blanca"); English has
# none, so a language without them falls back to its own plain colour names, never to English.
OPTIONAL = {f"colour.{name}.piece" for name in COLOUR_NAMES} | {"colour.joiner.piece"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_locale_has_every_key_with_the_same_placeholders(lang):
    entries = catalogue(lang)
    missing, extra = set(EN) - set(entries), set(entries) - set(EN) - OPTIONAL
    assert not missing and not extra, f"{lang}: missing {missing}, extra {extra}"
    assert not OPTIONAL & set(EN)
    rules = categories(lang)
    for key, entry in entries.items():
        if key not in ("colour.joiner.piece",):
            assert all(text.strip() for text in texts(entry)), f"{lang}: {key} is empty"
        assert placeholders(entry) == placeholders(EN.get(key, entry)), f"{lang}: {key} placeholders differ"
        if not isinstance(EN.get(key, ""), str):
            assert not isinstance(entry, str), f"{lang}: {key} is counted in English but has no plural forms"
        if not isinstance(entry, str):
            assert set(entry) == rules, f"{lang}: {key} has forms {sorted(entry)}, CLDR's are {sorted(rules)}"


def test_every_language_has_a_file_and_no_file_is_unlisted():
    assert sorted(p.stem for p in LOCALE_DIR.glob("*.json") if p.stem != "glossary") == sorted(LANGUAGES)


@pytest.mark.parametrize(
    ("requested", "system", "expected"),
    [
        ("de", "en_US", "de"),
        ("DE", "en", "de"),
        ("zh", "en", "zh-Hans"),
        ("zh_CN", "en", "zh-Hans"),
        ("zh-cn", "en", "zh-Hans"),
        ("zh-hans", "en", "zh-Hans"),
        ("zh_TW", "en", "zh-Hant"),
        ("zh_HK", "en", "zh-Hant"),
        ("zh-Hant-TW", "en", "zh-Hant"),
        ("de_DE", "fr", "de"),
        ("ja_JP.UTF-8", "en", "ja"),
        (None, "hu_HU.UTF-8", "hu"),
        (None, "zh_TW", "zh-Hant"),
        (None, "ar_EG", "ar"),
        (None, "pt_BR", "en"),
        (None, "C", "en"),
        (None, "", "en"),
        (None, "nl_BE@euro", "nl"),
    ],
)
def test_resolve_language(requested, system, expected):
    assert resolve_language(requested, system) == expected


@pytest.mark.parametrize("requested", ["pt", "klingon", "", "x-unknown"])
def test_an_explicit_unknown_language_is_an_error_listing_the_choices(requested):
    with pytest.raises(UnknownLanguageError) as info:
        resolve_language(requested, "de")
    assert info.value.kind == "unknown_language"
    for code in LANGUAGES:
        assert code in str(info.value)


def test_translation_and_parameters():
    assert Translator("en").t("step", n=3, total=19) == "Step 3 of 19"
    assert Translator("de").t("step", n=3, total=19) == "Schritt 3 von 19"
    assert Translator("ar").rtl and not Translator("ja").rtl


def test_missing_parameter_and_missing_key_raise_key_error():
    tr = Translator("fr")
    with pytest.raises(KeyError):
        tr.t("step", n=1)
    with pytest.raises(KeyError):
        tr.t("no.such.key")


def test_extra_directories_merge_over_and_fall_back_to_english(tmp_path):
    (tmp_path / "en.json").write_text(json.dumps({"app.only": "Only {x}", "step": "S{n}/{total}"}), encoding="utf-8")
    (tmp_path / "de.json").write_text(json.dumps({"app.german": "Nur Deutsch"}), encoding="utf-8")
    de = Translator("de", extra_dirs=[tmp_path])
    assert de.t("app.only", x=1) == "Only 1"  # missing in German: English
    assert de.t("app.german") == "Nur Deutsch"
    assert de.t("step", n=1, total=2) == "Schritt 1 von 2"  # the solve layer's German still wins over extra English
    assert Translator("en", extra_dirs=[tmp_path]).t("step", n=1, total=2) == "S1/2"
    with pytest.raises(KeyError):
        Translator("en", extra_dirs=[tmp_path]).t("app.german")


def test_unknown_translator_language():
    with pytest.raises(UnknownLanguageError):
        Translator("xx")


# --- Direction words against the simulator -------------------------------------------------------------------

# Per language: the words for where a face turn takes the layer (see _direction below).
WORDS = {
    "en": {"left": "to the left", "right": "to the right", "away": "away from you", "towards": "towards you",
           "cw": "clockwise", "ccw": "counter-clockwise"},
    "de": {"left": "nach links", "right": "nach rechts", "away": "von dir weg", "towards": "zu dir hin",
           "cw": "im Uhrzeigersinn", "ccw": "gegen den Uhrzeigersinn"},
    "nl": {"left": "naar links", "right": "naar rechts", "away": "van je af", "towards": "naar je toe",
           "cw": "met de klok mee", "ccw": "tegen de klok in"},
    "fr": {"left": "vers la gauche", "right": "vers la droite", "away": "en l'éloignant de vous",
           "towards": "vers vous", "cw": "dans le sens des aiguilles", "ccw": "dans le sens inverse des aiguilles"},
    "es": {"left": "hacia la izquierda", "right": "hacia la derecha", "away": "alejándola de ti",
           "towards": "hacia ti", "cw": "en el sentido de las agujas", "ccw": "en sentido contrario"},
    "hu": {"left": "balra", "right": "jobbra", "away": "tőled elfelé", "towards": "magad felé",
           "cw": "megegyező irányba", "ccw": "ellentétes irányba"},
    "ja": {"left": "左へ", "right": "右へ", "away": "奥へ", "towards": "手前へ", "cw": "時計回り", "ccw": "反時計回り"},
    "zh-Hans": {"left": "向左", "right": "向右", "away": "远离你", "towards": "朝你的方向", "cw": "顺时针",
                "ccw": "逆时针"},
    "zh-Hant": {"left": "向左", "right": "向右", "away": "遠離你", "towards": "朝你的方向", "cw": "順時針",
                "ccw": "逆時針"},
    "ar": {"left": "إلى اليسار", "right": "إلى اليمين", "away": "بعيدًا عنك", "towards": "نحوك",
           "cw": "في اتجاه عقارب الساعة", "ccw": "عكس اتجاه عقارب الساعة"},
}
OPPOSITE_WORD = {"left": "right", "right": "left", "away": "towards", "towards": "away", "cw": "ccw", "ccw": "cw"}


def _where_stickers_go(move: Move, tracked: str) -> str:
    """The face the ``tracked`` face's turned stickers land on (first one that is not ``tracked`` itself)."""
    # Colour the solved cube so only the tracked face has its letter, then see where that letter appears.
    after = CubeState.solved().apply((move,))
    faces = [f for f in FACES if f != tracked and tracked in after.face(f)]
    assert len(faces) == 1
    return faces[0]


def _direction(move: Move) -> str:
    """The physical direction of a quarter turn, read off the simulator (holding F towards you, U on top)."""
    face = move.face
    if face in "UD":  # where the front stickers go: sideways
        return {"L": "left", "R": "right"}[_where_stickers_go(move, "F")]
    if face in "RL":  # front stickers going up means the top goes away from you
        return {"U": "away", "D": "towards"}[_where_stickers_go(move, "F")]
    if face == "F":  # top stickers going right means clockwise as seen from the front
        return {"R": "cw", "L": "ccw"}[_where_stickers_go(move, "U")]
    return {"L": "left", "R": "right"}[_where_stickers_go(move, "U")]  # B: where its top goes, seen from front


def _mentions(sentence: str, word: str, other: str) -> bool:
    if word in other:  # e.g. "clockwise" inside "counter-clockwise"
        sentence = sentence.replace(other, "")
    return word in sentence


def test_simulator_directions_are_as_expected_by_the_english_wording():
    # A fixed point for the derivation itself: the standard meaning of each move.
    derived = {f: _direction(Move(f, 1)) for f in FACES}
    assert derived == {"U": "left", "R": "away", "F": "cw", "D": "right", "L": "towards", "B": "left"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("face", FACES)
def test_direction_sentences_match_the_simulator(lang, face):
    tr = Translator(lang)
    words = WORDS[lang]
    for turns in (1, 3):
        move = Move(face, turns)
        direction = _direction(move)
        sentence = tr.t(f"move.{move}")
        assert _mentions(sentence, words[direction], words[OPPOSITE_WORD[direction]]), (lang, str(move), sentence)
        assert not _mentions(sentence, words[OPPOSITE_WORD[direction]], words[direction]), (lang, str(move))
    half = tr.t(f"move.{face}2")
    assert not any(_mentions(half, w, "\0") for w in words.values()), (lang, half)
    # Opposite faces turned the same way read opposite directions (for U/D and R/L) from the front.
    if face in "UR":
        assert _direction(Move(face, 1)) == OPPOSITE_WORD[_direction(Move(OPPOSITE[face], 1))]


FACE_WORD = {"U": "top", "D": "bottom", "F": "front", "B": "back", "L": "left", "R": "right"}


@pytest.mark.parametrize("rotation", [Move(f, t) for f in "xyz" for t in (1, 2, 3)], ids=str)
def test_english_rotation_sentences_say_which_face_comes_where(rotation):
    after = CubeState.solved().apply((rotation,))
    new_top, new_front = after.face("U")[4], after.face("F")[4]
    sentence = Translator("en").t(f"move.{rotation}")
    claims = []
    if new_top != "U":
        claims.append(f"the {FACE_WORD[new_top]} face comes to the top")
    if new_front != "F":
        claims.append(f"the {FACE_WORD[new_front]} face comes to the front")
    assert any(c in sentence for c in claims), (str(rotation), sentence, claims)
    if new_front == "F" and rotation.turns == 2:  # upside down, but not x2: say the front stays
        assert "front face stays in front" in sentence
