"""Plural categories by CLDR's rules (Babel's data): which form of a counted noun a number takes in a language.

CLDR names the forms ``zero one two few many other``; a language uses some of them (English: one, other;
French: one (0 and 1), many, other; Arabic: all six; Chinese and Japanese: other only). Babel is imported only
when a counted sentence is first needed, so start-up stays light.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Final

CATEGORIES: Final = ("zero", "one", "two", "few", "many", "other")
"""Every CLDR plural category, in CLDR's order."""

Count = int | Decimal


def as_count(value: object) -> Count:
    """``value`` as a number to choose a plural form by: an int, or a numeric string ("3" from a Problem's params).

    Raises TypeError for anything else (a bool, a float, a word), so a wrong parameter is never silently "other".
    """
    if isinstance(value, bool) or not isinstance(value, int | str | Decimal):
        raise TypeError(f"a count must be an integer or a numeric string, not {value!r}")
    if isinstance(value, str):
        try:
            number = Decimal(value.strip())
        except InvalidOperation:
            raise TypeError(f"a count must be an integer or a numeric string, not {value!r}") from None
        if not number.is_finite():
            raise TypeError(f"a count must be finite, not {value!r}")
        return int(number) if number == number.to_integral_value() and "." not in value else number
    return value


def plural_rule(lang: str) -> Callable[[Count], str]:
    """The function from a count to its CLDR plural category in ``lang`` (a BCP 47 code such as "zh-Hant")."""
    from babel import Locale

    rule = Locale.parse(lang, sep="-").plural_form
    return lambda n: rule(abs(n))


def categories(lang: str) -> frozenset[str]:
    """The plural categories ``lang`` distinguishes (always including "other")."""
    from babel import Locale

    return frozenset(Locale.parse(lang, sep="-").plural_form.tags) | {"other"}
