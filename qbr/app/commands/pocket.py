"""``qbr solve`` and ``qbr show`` for the 2x2x2: the same output and JSON keys as the 3x3, plus the metric used."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from qbr.app.commands.result import CommandResult
from qbr.app.commands.solve import problems_payload
from qbr.app.terminal import render_net
from qbr.cube.errors import InvalidCubeError, QbrError
from qbr.cube.pocket.conventions import SIZE
from qbr.cube.pocket.letters import face_letters
from qbr.cube.pocket.state import PocketState
from qbr.cube.pocket.validate import require_valid, validate
from qbr.solve.i18n import Translator
from qbr.solve.instructions import steps
from qbr.solve.pocket.costs import SAMPLE, load_costs
from qbr.solve.pocket.solver import PocketSolution, PocketSolver
from qbr.solve.solution_text import pocket_text


def pocket_payload(solution: PocketSolution, tr: Translator) -> dict[str, Any]:
    """The JSON form of a 2x2 solution: the 3x3's keys, plus size, metric and (robot metric) cost."""
    payload: dict[str, Any] = {
        "facelets": solution.facelets,
        "solution": solution.notation,
        "moves": [str(m) for m in solution.moves],
        "length_htm": solution.length_htm,
        "length_qtm": solution.length_qtm,
        "steps": steps(solution.moves, tr),
        "orientation": tr.t("orientation.pocket"),
        "language": tr.lang,
        "method": solution.method,
        "size": SIZE,
        "metric": solution.metric,
    }
    if solution.cost is not None:
        payload["cost"] = round(solution.cost, 6)
    return payload


def pocket_solve_command(
    facelets: str | None, scramble: str | None, lang: str, metric: str, costs_path: Path | None
) -> CommandResult:
    """Solve a 2x2 given as 24 letters (any six) or as a scramble, optimally in ``metric``."""
    payload: dict[str, Any] = {"facelets": None, "size": SIZE}
    try:
        tr = Translator(lang)
    except QbrError as error:
        return CommandResult(payload=payload, error=error)
    payload["language"] = tr.lang
    try:
        text = PocketState.from_scramble(scramble).facelets if scramble is not None else facelets or ""
        payload["facelets"] = face_letters(text).letters
        require_valid(text)  # before the tables are built: an impossible cube is answered at once
        costs = load_costs(costs_path or SAMPLE) if metric == "robot" else None
        solution = PocketSolver.build().solve(text, metric, costs)
    except QbrError as error:
        if isinstance(error, InvalidCubeError):
            payload["problems"] = problems_payload(error.problems, tr)
        return CommandResult(payload=payload, error=error)
    return CommandResult(payload=pocket_payload(solution, tr), text=pocket_text(solution, tr))


def pocket_show_command(facelets: str, colour: bool) -> CommandResult:
    """Draw a 2x2 as a net; a cube that cannot exist is still drawn, and its problems reported as the error."""
    letters = face_letters(facelets).letters
    problems = validate(facelets)
    payload = {
        "facelets": letters,
        "size": SIZE,
        "net": render_net(letters, colour=False, size=SIZE).split("\n"),
        "valid": not problems,
        "problems": problems_payload(problems),
    }
    return CommandResult(
        payload=payload,
        text=render_net(letters, colour=colour, size=SIZE),
        error=InvalidCubeError(problems) if problems else None,
    )
