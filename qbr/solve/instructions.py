"""Moves and problems in plain words of the user's language, for someone holding the cube front face towards them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from qbr.cube.conventions import STANDARD_SCHEME
from qbr.cube.moves import Move
from qbr.cube.validate import Problem, ProblemKind
from qbr.solve.i18n import Translator

# Params of a Problem that hold colour names, alone or joined: "-" joins one piece's colours, "; " joins pieces.
_COLOUR_PARAMS = ("colour", "shows_colour", "expected_colour", "colours", "piece", "missing")
_DIRECTION_PARAMS = ("twist", "fix")


def move_sentence(move: Move, tr: Translator) -> str:
    """One move as a sentence: ``R`` -> "Turn the right face a quarter turn away from you."."""
    return tr.t(f"move.{move}")


def steps(moves: Iterable[Move], tr: Translator) -> list[str]:
    """The sentence of each move, in order."""
    return [move_sentence(m, tr) for m in moves]


def colour_name(name: str, tr: Translator) -> str:
    """A colour name ("white") in the user's language; names qbr has no word for are kept as they are."""
    key = f"colour.{name}"
    return tr.t(key) if key in tr else name


def orientation_sentence(
    tr: Translator, front: str = "F", top: str = "U", colour_names: Mapping[str, str] | None = None
) -> str:
    """How to hold the cube before the first move: the colours of the ``front`` and ``top`` faces' centres."""
    names = dict(STANDARD_SCHEME)
    if colour_names:
        names.update(colour_names)
    return tr.t("orientation", front=colour_name(names[front], tr), top=colour_name(names[top], tr))


def _translate_colours(value: str, tr: Translator) -> str:
    pieces = value.split("; ")
    return "; ".join("-".join(colour_name(c, tr) for c in piece.split("-")) for piece in pieces)


def problem_message(problem: Problem, tr: Translator) -> str:
    """What is wrong with the cube, in the user's language (the English message if the kind has no sentence)."""
    params = dict(problem.params)
    for name in _COLOUR_PARAMS:
        if params.get(name):
            params[name] = _translate_colours(params[name], tr)
    for name in _DIRECTION_PARAMS:
        if name in params and f"direction.{params[name]}" in tr:
            params[name] = tr.t(f"direction.{params[name]}")
    kind = problem.kind
    key = f"problem.{kind.value}"
    if kind is ProblemKind.IMPOSSIBLE_CORNER and params.get("mirror") == "yes":
        key += ".mirror"
    elif (kind is ProblemKind.CORNER_TWIST and not params.get("corner")) or (
        kind is ProblemKind.EDGE_FLIP and not params.get("edge")
    ):
        key += ".unknown"
    elif kind is ProblemKind.BAD_CHARACTERS and params.get("any_letter") == "yes":
        key += ".any_letter"
    elif kind in (ProblemKind.DUPLICATE_CORNER, ProblemKind.DUPLICATE_EDGE) and params.get("missing"):
        key += ".missing"
    elif kind is ProblemKind.COLOURS and params.get("reason") == "centres":
        key += ".centres"
    try:
        return tr.t(key, **params)
    except KeyError:
        return problem.message
