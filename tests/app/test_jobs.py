"""The resolve-and-solve job: answers, never raises, for real scans and for garbage."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from qbr.app.jobs import resolve_and_solve
from qbr.cube.conventions import FACES
from qbr.cube.errors import InvalidCubeError
from qbr.cube.state import CubeState

SCAN = Path(__file__).resolve().parents[1] / "data" / "colour-scans" / "3x3x3-random-02.json"


def test_real_scan_is_resolved_and_solved() -> None:
    data = json.loads(SCAN.read_text())
    resolution, solution, error = resolve_and_solve({f: np.array(v) for f, v in data["rgb"].items()}, None)
    assert error is None and resolution.valid and resolution.facelets == data["expected_facelets"]
    assert CubeState(resolution.facelets).apply(solution.moves).is_solved


def test_garbage_is_an_error_value() -> None:
    for rgb in ({f: np.full((9, 3), 128.0) for f in FACES}, {f: np.full((9, 3), np.nan) for f in FACES}):
        resolution, solution, error = resolve_and_solve(rgb, None)
        assert solution is None and isinstance(error, InvalidCubeError) and error.problems
        assert not resolution.valid and len(resolution.facelets) == 54
