"""A solution as the terminal shows it: the length line, the notation, how to hold the cube and each step."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from qbr.solve.instructions import orientation_sentence, steps

if TYPE_CHECKING:
    from qbr.solve.i18n import Translator
    from qbr.solve.pocket.solver import PocketSolution
    from qbr.solve.solver import Solution


def solution_header(tr: Translator, htm: int, qtm: int) -> str:
    """The length line, "Solution (1 move, 1 quarter turn):": each count with its noun in the plural form it takes."""
    moves, quarter_turns = tr.t("solution.moves", count=htm), tr.t("solution.quarter_turns", count=qtm)
    return tr.t("solution.header", moves=moves, quarter_turns=quarter_turns)


def solution_text(
    solution: Solution, tr: Translator, numbered: bool = True, colour_names: Mapping[str, str] | None = None
) -> str:
    """The solution for a terminal: length and notation, then (``numbered``) how to hold the cube and each step."""
    if not solution.moves:
        return tr.t("already_solved")
    lines = [solution_header(tr, solution.length_htm, solution.length_qtm), solution.notation]
    if numbered:
        lines += ["", tr.t("solution.steps"), orientation_sentence(tr, colour_names=colour_names)]
        width = len(str(len(solution.moves)))
        lines += [f"{n:>{width}}. {sentence}" for n, sentence in enumerate(steps(solution.moves, tr), start=1)]
    return "\n".join(lines)


def pocket_text(solution: PocketSolution, tr: Translator) -> str:
    """The 2x2x2 solution for a terminal, as the 3x3's: cube, length and notation, how to hold it, each step."""
    lines = [tr.t("solution.cube", facelets=solution.facelets)]
    if not solution.moves:
        return "\n".join([*lines, tr.t("already_solved")])
    lines += [solution_header(tr, solution.length_htm, solution.length_qtm), solution.notation]
    if solution.cost is not None:
        lines.append(tr.t("solution.cost", cost=f"{solution.cost:g}"))
    lines += ["", tr.t("solution.steps"), tr.t("orientation.pocket")]
    width = len(str(len(solution.moves)))
    lines += [f"{n:>{width}}. {sentence}" for n, sentence in enumerate(steps(solution.moves, tr), start=1)]
    return "\n".join(lines)
