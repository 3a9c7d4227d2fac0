"""A robot's costs: seconds (or any unit) per face turn, and a regrip cost whenever the turned face changes.

The costs file is JSON::

    {"format": "qbr-robot-costs", "version": 1,
     "moves": {"U": 0.9, "U'": 0.9, "U2": 1.5, ... every one of the 18 face turns ...},
     "regrip": 1.2}

Every turn of U R F D L B, ``'`` and ``2`` must be named, each cost a number above 0 and at most
``MAX_COST``; ``regrip`` from 0 to ``MAX_COST``. Other keys (say "about") are ignored. ``robot-costs.json``
beside this module is a sample.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from qbr.cube.moves import ALL_FACE_MOVES, Move
from qbr.files.limited_json import read_json
from qbr.files.read import UnreadableFile
from qbr.solve.errors import RobotCostsError

FORMAT: Final = "qbr-robot-costs"
VERSION: Final = 1

MAX_COST: Final = 1e6
"""Far above any real robot's seconds per move; keeps sums of a few dozen costs exact enough in floats."""

MAX_FILE_BYTES: Final = 64 * 1024
"""A costs file is well under 1 kB; anything this big is not one."""

SAMPLE: Final = Path(__file__).resolve().parent / "robot-costs.json"


@dataclass(frozen=True)
class RobotCosts:
    """``moves``: cost of each face turn by its notation ("R'"); ``regrip``: added when the face turned changes."""

    moves: dict[str, float]
    regrip: float

    def cost(self, moves: tuple[Move, ...]) -> float:
        """What ``moves`` cost the robot (no regrip before the first move)."""
        total = sum(self.moves[str(m)] for m in moves)
        return total + self.regrip * sum(1 for a, b in itertools.pairwise(moves) if a.face != b.face)


def _number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def parse_costs(data: Any, where: str) -> RobotCosts:
    """Costs from decoded JSON; ``RobotCostsError`` naming ``where`` and exactly what is wrong."""
    if not isinstance(data, dict):
        raise RobotCostsError(f'{where}: expected a JSON object with "moves" and "regrip"')
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise RobotCostsError(f'{where}: not a costs file (needs "format": "{FORMAT}", "version": {VERSION})')
    moves = data.get("moves")
    if not isinstance(moves, dict):
        raise RobotCostsError(f'{where}: "moves" must be an object naming every face turn')
    names = [str(m) for m in ALL_FACE_MOVES]
    missing = [n for n in names if n not in moves]
    if missing:
        raise RobotCostsError(f'{where}: "moves" lacks {", ".join(missing)} (all 18 face turns are needed)')
    unknown = sorted(str(k) for k in moves if k not in names)
    if unknown:
        raise RobotCostsError(f'{where}: "moves" has unknown move {", ".join(unknown)}')
    for name in names:
        value = moves[name]
        if not _number(value) or not 0 < value <= MAX_COST:
            raise RobotCostsError(f'{where}: cost of {name} must be a number above 0 and at most {MAX_COST:g}')
    regrip = data.get("regrip")
    if not _number(regrip) or not 0 <= regrip <= MAX_COST:
        raise RobotCostsError(f'{where}: "regrip" must be a number from 0 to {MAX_COST:g}')
    return RobotCosts({n: float(moves[n]) for n in names}, float(regrip))


def load_costs(path: Path | str) -> RobotCosts:
    """The costs in ``path`` (read bounded, regular files only); ``RobotCostsError`` if it is not a costs file."""
    path = Path(path)
    try:
        decoded = read_json(path, MAX_FILE_BYTES, "a costs file")
    except UnreadableFile as error:
        raise RobotCostsError(str(error)) from None
    return parse_costs(decoded, str(path))
