"""Odd kernel sizes, as filters need them."""

from __future__ import annotations


def odd(value: float, minimum: int = 3) -> int:
    n = max(minimum, round(value))
    return n if n % 2 else n + 1
