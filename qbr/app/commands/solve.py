"""``qbr solve`` and ``qbr show``, and the solution block every command prints the same way."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from qbr.app.commands.result import CommandResult
from qbr.app.terminal import render_net
from qbr.cube.conventions import CENTRES, FACES, STANDARD_SCHEME
from qbr.cube.errors import InvalidCubeError, QbrError
from qbr.cube.state import CubeState
from qbr.cube.validate import Problem, normalise_letters, validate
from qbr.solve.i18n import Translator
from qbr.solve.instructions import orientation_sentence, problem_message, steps
from qbr.solve.solution_text import solution_text
from qbr.solve.solver import Solution, solve

# Colour initials people type instead of face letters ("WWWWWWWWWRRR..."), in English.
_COLOUR_LETTERS: Final = {"W": "white", "Y": "yellow", "R": "red", "O": "orange", "G": "green", "B": "blue"}


def solution_payload(
    solution: Solution, tr: Translator, colour_names: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The JSON form of a solution: notation, moves, lengths, translated steps and starting orientation."""
    return {
        "solution": solution.notation,
        "moves": [str(m) for m in solution.moves],
        "length_htm": solution.length_htm,
        "length_qtm": solution.length_qtm,
        "steps": steps(solution.moves, tr),
        "orientation": orientation_sentence(tr, colour_names=colour_names),
        "language": tr.lang,
    }


def problems_payload(problems: list[Problem], tr: Translator | None = None) -> list[dict[str, Any]]:
    """Validation problems for JSON: kind, message (translated when ``tr`` is given) and facelet indices."""
    return [
        {
            "kind": p.kind.value,
            "message": problem_message(p, tr) if tr is not None else p.message,
            "facelets": list(p.facelets),
        }
        for p in problems
    ]


def _typed_colours(text: str) -> dict[str, str] | None:
    """Face -> colour name when the cube was typed with colour initials (W Y R O G B) and its centres show them."""
    letters = "".join(text.split()).upper()
    if len(letters) != 54 or set(letters) <= set(FACES) or not set(letters) <= set(_COLOUR_LETTERS):
        return None
    centres = [letters[i] for i in CENTRES]
    if len(set(centres)) != 6:
        return None
    return {face: _COLOUR_LETTERS[c] for face, c in zip(FACES, centres, strict=True)}


def _reoriented(cube: CubeState) -> tuple[CubeState, dict[str, str]]:
    """A scrambled cube whose centres moved (the scramble turned the whole cube) relabelled as now held.

    Returns the cube with each letter renamed to the face its centre is now on, and face -> colour name.
    """
    centres = [cube.facelets[i] for i in CENTRES]
    rename = dict(zip(centres, FACES, strict=True))
    colours = {face: STANDARD_SCHEME[letter] for face, letter in zip(FACES, centres, strict=True)}
    return CubeState("".join(rename[c] for c in cube.facelets)), colours


def solve_command(facelets: str | None, scramble: str | None, lang: str, budget: float) -> CommandResult:
    """Solve a cube given as 54 facelets (face or colour letters) or as the scramble that made it."""
    known: str | None = None
    payload: dict[str, Any] = {"facelets": None}
    try:
        tr = Translator(lang)
    except QbrError as error:
        return CommandResult(payload=payload, error=error)
    payload["language"] = tr.lang
    colour_names: dict[str, str] | None = None
    try:
        if scramble is not None:
            cube, colour_names = _reoriented(CubeState.from_scramble(scramble))
        else:
            text = facelets or ""
            known = normalise_letters(text)
            colour_names = _typed_colours(text)
            cube = CubeState(known)
        known = cube.facelets
        solution = solve(cube, budget=budget)
    except QbrError as error:
        payload["facelets"] = known
        if isinstance(error, InvalidCubeError):
            payload["problems"] = problems_payload(error.problems, tr)
        return CommandResult(payload=payload, error=error)
    payload = {"facelets": solution.facelets, **solution_payload(solution, tr, colour_names)}
    payload["method"] = solution.method
    text = tr.t("solution.cube", facelets=solution.facelets) + "\n" + solution_text(solution, tr, True, colour_names)
    return CommandResult(payload=payload, text=text)


def show_command(facelets: str, colour: bool) -> CommandResult:
    """Draw a cube as a net; a cube that cannot exist is still drawn, and its problems reported as the error."""
    letters = normalise_letters(facelets)
    problems = validate(letters)
    payload = {
        "facelets": letters,
        "net": render_net(letters, colour=False).split("\n"),
        "valid": not problems,
        "problems": problems_payload(problems),
    }
    return CommandResult(
        payload=payload,
        text=render_net(letters, colour=colour),
        error=InvalidCubeError(problems) if problems else None,
    )
