"""The result of reading a cube, shared by ``qbr scan``, ``qbr resolve`` and headless mode (same JSON keys)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from qbr.app.commands.result import CommandResult
from qbr.cube.errors import InvalidCubeError, QbrError

if TYPE_CHECKING:
    from qbr.solve.i18n import Translator
    from qbr.solve.solver import Solution
    from qbr.vision.resolve import Resolution


def solution_text(
    solution: Solution, tr: Translator, numbered: bool = True, colour_names: Mapping[str, str] | None = None
) -> str:
    """The solution block printed in the terminal (the same as ``qbr solve`` prints)."""
    from qbr.app.commands.solve import solution_text as text

    return text(solution, tr, numbered=numbered, colour_names=colour_names)


def cube_result(
    resolution: Resolution, solution: Solution | None, error: QbrError | None, tr: Translator, numbered: bool = True
) -> CommandResult:
    """What a command reports about a resolved cube; an unsolvable one still carries its best facelets."""
    from qbr.app.commands.solve import problems_payload, solution_payload
    from qbr.solve.instructions import colour_name, problem_message

    payload: dict[str, Any] = {
        "facelets": resolution.facelets,
        "valid": bool(resolution.valid and solution is not None),
        "solution": None,
        "moves": [],
        "length_htm": None,
        "length_qtm": None,
        "steps": [],
        "orientation": None,
        "confidence": [round(float(c), 4) for c in resolution.confidence],
        "uncertain": [int(i) for i in resolution.uncertain],
        "colours": dict(resolution.colour_names),
        "language": tr.lang,
    }
    if solution is not None and error is None:
        names = resolution.colour_names or None
        payload.update(solution_payload(solution, tr, colour_names=names))
        payload["valid"] = True
        text = tr.t("solution.cube", facelets=resolution.facelets) + "\n" + solution_text(
            solution, tr, numbered=numbered, colour_names=names
        )
        return CommandResult(payload=payload, text=text)
    problems = list(getattr(error, "problems", None) or resolution.problems)
    if error is None:
        error = InvalidCubeError(problems)
    payload["problems"] = problems_payload(problems, tr)
    lines = [tr.t("solution.cube", facelets=resolution.facelets)]
    lines += [problem_message(p, tr) for p in problems]
    if resolution.least_certain_face:
        face = resolution.least_certain_face
        colour = colour_name(resolution.colour_names.get(face, face), tr)
        lines.append(tr.t("app.prompt.rescan", colour=colour))
    return CommandResult(payload=payload, text="\n".join(lines), error=error)
