"""Text rendering: CJK and Arabic really draw, Arabic is joined and right-to-left, layout helpers measure."""

from __future__ import annotations

import numpy as np
import pytest

from qbr.app.text import Fonts, Rect, draw_text, draw_text_box, has_arabic, shape, text_size, wrap

ARABIC = "الخطوة 3 من 19"


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    return Fonts()


def _ink(text: str, fonts: Fonts, size: int = 24) -> np.ndarray:
    img = np.zeros((60, 400, 3), np.uint8)
    draw_text(img, fonts, text, (5, 5), size, (255, 255, 255))
    return img


@pytest.mark.parametrize("text", ["你好 繁體", "こんにちは", ARABIC, "Step 3 of 19"])
def test_text_draws_pixels(fonts, text):
    assert np.count_nonzero(_ink(text, fonts)) > 50


def test_cjk_is_not_drawn_as_question_marks(fonts):
    assert not np.array_equal(_ink("你好", fonts), _ink("??", fonts))


def test_arabic_is_shaped_into_joined_forms_in_visual_order():
    shaped = shape("من")  # meem then noon, logically right to left
    assert shaped != "من"
    # Presentation forms: noon final (U+FEE6) is drawn first (leftmost), meem initial (U+FEE3) after it.
    assert shaped == "\ufee6\ufee3"
    assert shape(ARABIC).startswith("19")  # the number at the logical end stands leftmost


def test_unjoined_fallback_still_reverses():
    assert shape("من", joined=False) == "نم"


def test_latin_is_left_alone():
    assert shape("R' turn") == "R' turn"
    assert not has_arabic("你好 R2")
    assert has_arabic(ARABIC)


def test_arabic_with_a_joining_font_differs_from_question_marks(fonts):
    if fonts.arabic_font is None:
        pytest.skip("no installed font has Arabic presentation forms (install fonts-dejavu-core)")
    assert not np.array_equal(_ink("من", fonts), _ink("??", fonts))


def test_alignment_right_ends_at_org(fonts):
    img = np.zeros((60, 400, 3), np.uint8)
    rect = draw_text(img, fonts, "Hello", (300, 5), 24, (255, 255, 255), align="right")
    assert rect.right == 300
    cols = np.flatnonzero(img.any(axis=(0, 2)))
    assert cols.max() <= 300 and cols.min() >= rect.x - 1


def test_text_size_grows_with_size_and_length(fonts):
    w1, h1 = text_size(fonts, "abc", 20)
    w2, h2 = text_size(fonts, "abc", 40)
    w3, _ = text_size(fonts, "abcabc", 20)
    assert w2 > w1 and h2 > h1 and w3 > w1


def test_box_darkens_background_and_contains_text(fonts):
    img = np.full((120, 400, 3), 200, np.uint8)
    box = draw_text_box(img, fonts, ["one", "two lines"], (10, 10), 20, (255, 255, 255), alpha=0.5)
    assert isinstance(box, Rect)
    corner = img[box.y + 1, box.x + 1]
    assert 90 <= int(corner[0]) <= 110  # half way between 200 and black
    assert img[box.bottom + 2, box.x + 1].tolist() == [200, 200, 200]


def test_wrap_respects_width(fonts):
    text = "Hold the cube with the green centre towards you and white on top"
    lines = wrap(fonts, text, 20, 200)
    assert len(lines) > 1 and " ".join(lines) == text
    assert all(text_size(fonts, line, 20)[0] <= 200 for line in lines)
    cjk = wrap(fonts, "把绿色中心朝向你白色在上面然后按空格键", 20, 100)
    assert len(cjk) > 1 and "".join(cjk) == "把绿色中心朝向你白色在上面然后按空格键"


def test_wrap_breaks_cjk_with_spaces_inside(fonts):
    text = "把右层朝远离你的方向转 90 度。"
    lines = wrap(fonts, text, 20, 120)
    assert len(lines) > 1
    assert all(text_size(fonts, line, 20)[0] <= 120 for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_rtl_line_starting_with_latin_reads_right_to_left():
    # An Arabic legend item "SPACE <action>": in an RTL layout the key name stands at the right end.
    line = "SPACE التقاط"
    assert shape(line, rtl=True).endswith("SPACE")
    assert shape(line, rtl=False).startswith("SPACE")


def test_narrow_no_break_space_is_drawn_as_a_space_not_a_question_mark(fonts):
    narrow, plain = _ink("Terminé\u202f!", fonts), _ink("Terminé\u00a0!", fonts)
    assert np.array_equal(narrow, plain)
    assert not np.array_equal(narrow, _ink("Terminé?!", fonts))


def test_wrap_never_breaks_at_a_no_break_space(fonts):
    text = "Gardez la face immobile jusqu'à sa capture, ou appuyez sur «\u202fESPACE\u202f»\u202f! Langue\u00a0: fr"
    widest = max(text_size(fonts, word, 24)[0] for word in text.split(" "))
    for width in range(widest, 400, 20):
        lines = wrap(fonts, text, 24, width)
        assert " ".join(lines) == text
        assert not any(line.startswith(("!", ":", "»", "\u202f", "\u00a0")) for line in lines), lines


@pytest.mark.parametrize("width", range(30, 200, 7))
def test_a_word_wider_than_the_line_is_cut_never_left_to_overflow(fonts, width):
    text = "Donaudampfschifffahrtsgesellschaftskapitän hält die Seite"
    lines = wrap(fonts, text, 20, width)
    assert all(text_size(fonts, line, 20)[0] <= width for line in lines if len(line) > 1), lines
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


CJK_SENTENCES = [
    "把右层朝远离你的方向转 90 度。然后按右方向键进入下一步。",
    "右の面を奥へ 90 度回してください。次の手順へは、右矢印キーを押します。",
    "将魔方白色中心朝上、绿色中心朝向你，保持不动，直到这一面被捕获。",
    "面を静止させてください（「スペース」キーでも取り込めます）。",
]
CLOSING = tuple("、。，．！？）」』】〉》ー々ぁぃぅぇぉっゃゅょァィゥェォッャュョ")
OPENING = tuple("（「『【〈《")
HANGING = "、。，．！？）」』】〉》 "


@pytest.mark.parametrize("text", CJK_SENTENCES)
@pytest.mark.parametrize("width", [90, 110, 130, 170, 230])
def test_cjk_lines_break_by_kinsoku(fonts, text, width):
    lines = wrap(fonts, text, 20, width)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    for i, line in enumerate(lines):
        assert text_size(fonts, line.rstrip(HANGING), 20)[0] <= width, line  # only punctuation may hang
        assert not line.startswith(CLOSING), lines  # no line opens with closing punctuation or a small kana
        assert not line.endswith(OPENING), lines  # no line ends on an opening bracket
        assert line.strip(), lines  # no empty line, so no lone "。" after a cut either
        if i + 1 < len(lines):
            assert not (line.rstrip()[-1:].isdigit() and lines[i + 1][:1] in "度步回"), lines  # "90" / "度"


def test_a_full_stop_never_stands_alone_on_a_line(fonts):
    text = "保持不动。"
    for width in range(20, 120, 3):
        lines = wrap(fonts, text, 20, width)
        assert all(line.strip() != "。" for line in lines), (width, lines)


@pytest.mark.parametrize("text", CJK_SENTENCES)
def test_a_paragraph_never_ends_on_a_lone_letter(fonts, text):
    for width in range(90, 400, 13):
        lines = wrap(fonts, text, 20, width)
        if len(lines) > 1:
            assert sum(ch.isalnum() for ch in lines[-1]) >= 2, (width, lines)  # "い。" alone: never
