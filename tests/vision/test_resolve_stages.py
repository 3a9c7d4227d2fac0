"""qbr/vision/resolve/ as a newcomer reads it: every stage named in the package's map, one result for both sizes."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

import qbr.vision.resolve as resolve
from qbr.cube.conventions import SOLVED
from qbr.cube.validate import Problem, ProblemKind
from qbr.vision.resolve.result import resolution, unreadable


def test_the_package_docstring_names_every_stage_file() -> None:
    files = {p.stem for p in Path(resolve.__file__).parent.glob("*.py")} - {"__init__"}
    named = set(re.findall(r"``(\w+)[`.]", resolve.__doc__ or ""))
    assert files <= named, files - named


def test_the_least_certain_face_is_that_of_the_least_certain_sticker_for_either_size() -> None:
    pocket = resolution("U" * 24, [], np.ones(24), (13, 2), {})
    cube = resolution(SOLVED, [], np.ones(54), (13, 2), {})
    assert (pocket.least_certain_face, cube.least_certain_face) == ("D", "R")  # URFDLB: 13 // 4 is D, 13 // 9 is R
    assert pocket.valid and cube.valid
    given = resolution(SOLVED, [], np.ones(54), (13,), {}, least_certain_face="D")
    assert given.least_certain_face == "D"


def test_a_cube_with_problems_is_not_valid_and_nothing_measured_is_unreadable() -> None:
    problem = Problem(ProblemKind.COLOURS, "no", (), {"reason": "spread"})
    assert not resolution(SOLVED, [problem], np.ones(54), (), {}).valid
    measured = np.ones(24, dtype=bool)
    measured[:4] = False
    empty = unreadable(measured, str)
    assert empty.facelets == "?" * 24 and not empty.valid
    assert empty.problems[0].facelets == (0, 1, 2, 3) and not empty.confidence.any()
