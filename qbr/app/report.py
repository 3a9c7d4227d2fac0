"""The result of reading a cube, shared by ``qbr scan``, ``qbr resolve`` and headless mode (same JSON keys)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from qbr.app.commands.result import CommandResult
from qbr.cube.errors import InvalidCubeError, QbrError

if TYPE_CHECKING:
    from qbr.solve.i18n import Translator
    from qbr.solve.solver import Solution
    from qbr.vision.resolve import Resolution


def solution_payload(solution: Solution, tr: Translator) -> dict[str, Any]:
    """JSON fields of a solution (solution, moves, length_htm, length_qtm, steps, orientation, language)."""
    from qbr.app.commands.solve import solution_payload as payload

    return payload(solution, tr)


def solution_text(solution: Solution, tr: Translator, numbered: bool = True) -> str:
    """The solution block printed in the terminal."""
    from qbr.app.commands.solve import solution_text as text

    return text(solution, tr, numbered=numbered)


def cube_result(
    resolution: Resolution, solution: Solution | None, error: QbrError | None, tr: Translator, numbered: bool = True
) -> CommandResult:
    """What a command reports about a resolved cube; an unsolvable one still carries its best facelets."""
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
        payload.update(solution_payload(solution, tr))
        payload["valid"] = True
        return CommandResult(payload=payload, text=solution_text(solution, tr, numbered=numbered))
    problems = list(getattr(error, "problems", None) or resolution.problems)
    if error is None:
        error = InvalidCubeError(problems)
    payload["problems"] = [
        {"kind": p.kind.value, "message": problem_message(p, tr), "facelets": list(p.facelets)} for p in problems
    ]
    lines = [tr.t("solution.cube", facelets=resolution.facelets)]
    lines += [problem_message(p, tr) for p in problems]
    if resolution.least_certain_face:
        face = resolution.least_certain_face
        colour = colour_name(resolution.colour_names.get(face, face), tr)
        lines.append(tr.t("app.prompt.rescan", colour=colour))
    return CommandResult(payload=payload, text="\n".join(lines), error=error)
