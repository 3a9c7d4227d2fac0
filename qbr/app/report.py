"""The result of reading a cube, shared by ``qbr scan``, ``qbr resolve`` and headless mode (same JSON keys)."""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from qbr.app.commands.result import CommandResult
from qbr.app.read_notices import lost_faces, lost_notices, placed_notices, turned_notices
from qbr.cube.conventions import FACES
from qbr.cube.errors import InvalidCubeError, QbrError

if TYPE_CHECKING:
    from qbr.solve.i18n import Translator
    from qbr.solve.solver import Solution
    from qbr.vision.resolve import Resolution


_SHOWN_PROBLEMS = 3  # a garbage scan can have dozens of problems: the first few say enough on one line
_SHOWN_UNCERTAIN = 5  # the stickers worth a second look; more would hide them
_SHOWN_DOUBT = 12  # a garbage scan puts every sticker in doubt: the first dozen say enough on one line


def deduced_notices(resolution: Resolution, tr: Translator, left_out: Collection[str] = ()) -> list[str]:
    """One sentence per face not found (its stickers follow from the other five faces), or found but
    ``left_out`` (it fits no cube with the other five), or sticker not read."""
    from qbr.cube.pocket.conventions import facelet_name as pocket_facelet_name

    deduced = tuple(getattr(resolution, "deduced", None) or ())
    per_face = len(resolution.facelets) // len(FACES)
    faces = lost_faces(deduced, len(resolution.facelets))
    if len(resolution.facelets) != _POCKET_FACELETS:  # a 3x3x3: its lost face named with its centre's colour
        lines = lost_notices(faces, resolution.colour_names, tr)
    else:
        lines = [tr.t("app.notice.left_out_face" if face in left_out else "app.notice.deduced_face", face=face)
                 for face in faces]
    lines += [tr.t("app.notice.deduced_sticker", sticker=pocket_facelet_name(i)) for i in deduced
              if FACES[i // per_face] not in faces]
    return lines


def read_notices(resolution: Resolution, tr: Translator, left_out: Collection[str] = ()) -> list[str]:
    """What the reading corrected or filled in: faces placed by their pieces or turned back, stickers that follow
    from the others."""
    names = resolution.colour_names
    return [*placed_notices(getattr(resolution, "placed", None) or {}, names, tr),
            *turned_notices(getattr(resolution, "turned", None) or {}, names, tr),
            *deduced_notices(resolution, tr, left_out)]


def doubt_line(resolution: Resolution, tr: Translator) -> str | None:
    """The stickers in doubt (another real cube fits nearly as well) and the face to scan again, or None."""
    from qbr.cube.conventions import facelet_name
    from qbr.solve.instructions import colour_name

    doubt = getattr(resolution, "doubt", None)
    if doubt is None:
        return None
    stickers = ", ".join(facelet_name(i) for i in doubt.stickers[:_SHOWN_DOUBT])
    if len(doubt.stickers) > _SHOWN_DOUBT:
        stickers += ", …"
    if doubt.face is None:
        return tr.t("app.report.doubt_any", stickers=stickers)
    colour = colour_name(resolution.colour_names.get(doubt.face, doubt.face), tr)
    return tr.t("app.report.doubt", stickers=stickers, colour=colour)
_POCKET_FACELETS = 24  # a 2x2x2's stickers: its result has the 2x2's keys and net


def _read_lines(resolution: Resolution, tr: Translator, colour: bool, left_out: Collection[str] = ()) -> list[str]:
    """The net of what was read, faces read turned back, and the stickers in doubt or least certain."""
    from qbr.app.terminal import render_net
    from qbr.cube.conventions import facelet_name
    from qbr.cube.pocket.conventions import facelet_name as pocket_facelet_name

    size = 2 if len(resolution.facelets) == _POCKET_FACELETS else 3
    name = pocket_facelet_name if size == 2 else facelet_name
    lines = [*read_notices(resolution, tr, left_out), tr.t("solution.cube", facelets=resolution.facelets),
             render_net(resolution.facelets, colour, size)]
    shown = [
        f"{name(i)} {float(resolution.confidence[i]):.2f}"
        for i in resolution.uncertain[:_SHOWN_UNCERTAIN]
        if math.isfinite(resolution.confidence[i])
    ]
    if shown:
        lines.append(tr.t("app.report.uncertain", stickers=", ".join(shown)))
    doubt = doubt_line(resolution, tr)
    if doubt is not None:
        lines.append(doubt)
    return lines


def empty_payload(lang: str) -> dict[str, Any]:
    """Every key of the result, for a cube not read (yet): scripts can rely on the keys being there."""
    return {
        "facelets": None,
        "valid": False,
        "solution": None,
        "moves": [],
        "length_htm": None,
        "length_qtm": None,
        "steps": [],
        "orientation": None,
        "confidence": [],
        "uncertain": [],
        "doubt": None,
        "turned": {},
        "deduced": [],
        "notices": [],
        "colours": {},
        "language": lang,
    }


def cube_result(
    resolution: Resolution,
    solution: Solution | None,
    error: QbrError | None,
    tr: Translator,
    numbered: bool = True,
    colour: bool = False,
    left_out: Collection[str] = (),
) -> CommandResult:
    """What a command reports about a resolved cube; an unsolvable one still carries its best facelets.
    ``left_out``: faces found in their photos but left out (filled in from the others), named as such."""
    from qbr.app.commands.solve import problems_payload, solution_payload, solution_text
    from qbr.solve.instructions import colour_name

    payload = empty_payload(tr.lang)
    payload.update(
        facelets=resolution.facelets,
        confidence=[round(float(c), 4) if math.isfinite(c) else 0.0 for c in resolution.confidence],
        uncertain=[int(i) for i in resolution.uncertain],
        colours=dict(resolution.colour_names),
        turned=dict(getattr(resolution, "turned", None) or {}),
        notices=read_notices(resolution, tr, left_out),
        deduced=[int(i) for i in getattr(resolution, "deduced", None) or ()],
    )
    doubt = getattr(resolution, "doubt", None)
    if doubt is not None:
        from qbr.cube.conventions import facelet_name

        payload["doubt"] = {"stickers": [int(i) for i in doubt.stickers],
                            "names": [facelet_name(int(i)) for i in doubt.stickers], "face": doubt.face}
    pocket = len(resolution.facelets) == _POCKET_FACELETS
    if solution is not None and error is None:
        names = resolution.colour_names or None
        if pocket:
            from qbr.app.commands.pocket import pocket_payload, pocket_text

            # The 2x2's keys and how to hold it (as scanned: no centres to name); the facelets are as read.
            payload.update(pocket_payload(solution, tr), facelets=resolution.facelets)
            block = "\n".join(pocket_text(solution, tr).splitlines()[1:])  # its first line, the cube, is above
        else:
            payload.update(solution_payload(solution, tr, colour_names=names))
            block = solution_text(solution, tr, numbered=numbered, colour_names=names)
        payload["valid"] = True
        text = "\n".join([*_read_lines(resolution, tr, colour, left_out), "", block])
        return CommandResult(payload=payload, text=text)
    problems = list(getattr(error, "problems", None) or resolution.problems)
    if error is None or (isinstance(error, InvalidCubeError) and len(problems) > _SHOWN_PROBLEMS):
        error = InvalidCubeError(problems[:_SHOWN_PROBLEMS])  # the one-line message; the payload lists them all
    payload["problems"] = problems_payload(problems, tr)
    lines = _read_lines(resolution, tr, colour, left_out)  # the CLI prints the problems on stderr
    if resolution.least_certain_face and not pocket:  # a 2x2's faces have no centre to name them by
        face = resolution.least_certain_face
        colour = colour_name(resolution.colour_names.get(face, face), tr)
        lines.append(tr.t("app.prompt.rescan", colour=colour))
    return CommandResult(payload=payload, text="\n".join(lines), error=error)
