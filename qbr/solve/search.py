"""Optimal solutions for cubes a few face turns from solved (what the solver tries before two-phase search).

IDA* over the whole cube (``qbr.solve.twophase.optimal``): pruned by phase 1's tables seen along all three axes
and by the exact distance of every cube within five turns, it proves a cube further than ``MAX_DEPTH`` turns in
a few tens of milliseconds, and finds a shortest solution of a nearer one as fast.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Final

from qbr.cube.conventions import SOLVED
from qbr.cube.cubie import CubieCube
from qbr.cube.moves import Move
from qbr.solve.twophase.cache import shared_tables
from qbr.solve.twophase.optimal import optimal

MAX_DEPTH: Final = 10
"""Default reach of ``optimal_solution``: every scramble of up to 10 turns gets a solution no longer than it."""

SEARCH_SECONDS: Final = 5.0
"""A cube within reach is found in well under a second; past this the search gives up (returns None)."""


def optimal_solution(facelets: str, max_depth: int = MAX_DEPTH, *, cache_dir: Path) -> tuple[Move, ...] | None:
    """A shortest sequence of face turns (HTM) that solves ``facelets``, or None if it needs more than
    ``max_depth`` (or the search ran out of time). ``facelets`` must be a valid cube with centres in place."""
    if facelets == SOLVED:
        return ()
    tables, _ = shared_tables(cache_dir)
    return optimal(CubieCube.from_facelets(facelets), tables, max_depth, time.monotonic() + SEARCH_SECONDS)
