"""JSON parsed with limits: nesting depth and digits per number bounded before Python's parser sees them.

Without them 100,000 nested brackets raise RecursionError, a 5,000-digit integer ValueError (Python's int
conversion limit) and a 400-digit one OverflowError wherever it later meets a float.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from qbr.files.read import UnreadableFile, read_bytes


@dataclass(frozen=True)
class JsonLimits:
    """How much structure a qbr JSON file may have; every file qbr reads is far inside these."""

    max_depth: int = 16
    """Palettes, settings and colour scans nest 4 levels at most; deeper is not one of them."""
    max_number_chars: int = 32
    """A measurement or setting needs a few digits; longer numbers are refused before int()/float() see them."""


# Possessive, and an open string runs to the end: linear time on any input.
_STRING = re.compile(r'"(?:[^"\\]|\\.?)*+(?:"|\Z)', re.DOTALL)
_BRACKETS = re.compile(r"[^\[\]{}]+")


class _Refused(Exception):
    pass


def _depth(text: str, limit: int) -> int:
    """The deepest bracket nesting of ``text`` (strings ignored), counted no further than ``limit`` + 1."""
    depth = deepest = 0
    for char in _BRACKETS.sub("", _STRING.sub("", text)):
        depth += 1 if char in "[{" else -1
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                break
    return deepest


def _number(limits: JsonLimits, convert: type) -> Any:
    def parse(literal: str) -> Any:
        if len(literal) > limits.max_number_chars:
            raise _Refused(f"has a number {len(literal)} characters long (at most {limits.max_number_chars})")
        value = convert(literal)
        if isinstance(value, float) and not math.isfinite(value):
            raise _Refused(f"has the number {literal}, too large to use")
        return value

    return parse


def _constant(name: str) -> Any:
    raise _Refused(f"has {name}, which is not a number JSON allows")


def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: a message names a bad value, never echoes a whole file."""
    if isinstance(value, int) and abs(value) >= 10**limit:  # str() of a 5,000-digit int raises
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def parse_json(data: bytes, path: Path | str, limits: JsonLimits = JsonLimits()) -> Any:
    """The value in the UTF-8 JSON ``data`` read from ``path``; :class:`UnreadableFile` saying what is wrong."""
    path = Path(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UnreadableFile(path, f"not a text (UTF-8 JSON) file (byte {error.start} is not UTF-8)") from None
    if _depth(text, limits.max_depth) > limits.max_depth:
        raise UnreadableFile(path, f"nested more than {limits.max_depth} levels deep: not a qbr file")
    try:
        return json.loads(
            text,
            parse_int=_number(limits, int),
            parse_float=_number(limits, float),
            parse_constant=_constant,
        )
    except json.JSONDecodeError as error:
        raise UnreadableFile(path, f"not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})") from None
    except _Refused as error:
        raise UnreadableFile(path, str(error)) from None
    except (RecursionError, ValueError, OverflowError) as error:  # beyond what the checks above foresee
        raise UnreadableFile(path, f"cannot be read as JSON ({error.__class__.__name__})") from None


def read_json(path: Path | str, max_bytes: int, what: str, limits: JsonLimits = JsonLimits()) -> Any:
    """:func:`read_bytes` then :func:`parse_json`: the one way qbr reads a JSON file."""
    return parse_json(read_bytes(path, max_bytes, what), path, limits)
