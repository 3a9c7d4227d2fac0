"""Solving a 2x2 as given: validate, normalise, search the tables, turn the answer back into the cube as held, verify.

The tables are built once per ``PocketSolver`` (about half a second), never at import. Every solution is optimal
in its metric and has been applied to the cube as given with the facelet simulator before it is returned.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from qbr.cube.moves import Move, format_moves
from qbr.cube.pocket.cubie import PocketCubie
from qbr.cube.pocket.normalise import Normalised, normalise
from qbr.cube.pocket.state import PocketState
from qbr.cube.pocket.validate import require_valid
from qbr.cube.rotations import conjugate
from qbr.solve.errors import SolveError
from qbr.solve.move_sequence import MoveSequence
from qbr.solve.pocket.coordinates import MOVES, coordinate
from qbr.solve.pocket.costs import RobotCosts
from qbr.solve.pocket.search import Lookup, cheapest, descend, merge_quarter_turns, projected_costs
from qbr.solve.pocket.tables import DistanceTables

METRICS: Final = ("htm", "qtm", "robot")
"""Half-turn metric, quarter-turn metric, and the robot's costs (``costs``)."""

COST_TOLERANCE: Final = 1e-6
"""Relative difference allowed between the search's running cost and the answer re-priced (float sums differ)."""

MAX_KEPT_BOUNDS: Final = 48
"""Robot bounds kept per solver: one per way the cube is held (24) for two costs files, then start again."""


@dataclass(frozen=True)
class PocketSolution(MoveSequence):
    """A verified solution of ``facelets`` (face letters, the cube as given), optimal in ``metric``."""

    facelets: str
    moves: tuple[Move, ...]
    metric: str
    cost: float | None = None
    method: str = "optimal_table"
    colour_names: Mapping[str, str] | None = None


class PocketSolver:
    """Optimal 2x2 solutions from complete distance tables (build once, solve many)."""

    def __init__(self, tables: DistanceTables) -> None:
        self.tables = tables
        self._lookup = Lookup.of(tables)
        self._quarter_lookup: Lookup | None = None  # its table is built on the first quarter-turn solve
        self._bounds: dict[tuple[float, ...], tuple[list[tuple[float, ...]], list[tuple[float, ...]]]] = {}

    def _robot_bounds(self, costs: list[float], regrip: float) -> tuple[list[tuple[float, ...]], ...]:
        """Per-coordinate lower bounds for these column costs (milliseconds; kept for the next cube)."""
        key = (*costs, regrip)
        if key not in self._bounds:
            if len(self._bounds) >= MAX_KEPT_BOUNDS:
                self._bounds.clear()
            self._bounds[key] = (
                projected_costs(self.tables.moves.perm, costs, regrip),
                projected_costs(self.tables.moves.twist, costs, regrip),
            )
        return self._bounds[key]

    def _quarter_turns(self) -> Lookup:
        if self._quarter_lookup is None:
            self._quarter_lookup = Lookup.of(self.tables, quarter_turns=True)
        return self._quarter_lookup

    @classmethod
    def build(cls) -> PocketSolver:
        return cls(DistanceTables.build())

    def state_of(self, normalised: Normalised) -> int:
        """The table index of a normalised cube."""
        return coordinate(PocketCubie.from_facelets(normalised.facelets))

    def columns(
        self, state: int, metric: str = "htm", costs: RobotCosts | None = None, rotation: tuple[Move, ...] = ()
    ) -> tuple[list[int], float | None]:
        """Move columns solving ``state`` optimally in ``metric``, and the robot cost (robot metric only).

        The robot's costs are those of the turns of the cube as held, which ``rotation`` normalised.
        """
        if metric == "htm":
            return descend(self._lookup, state), None
        if metric == "qtm":
            return merge_quarter_turns(descend(self._quarter_turns(), state, quarter_turns=True)), None
        if metric == "robot":
            if costs is None:
                raise ValueError("the robot metric needs costs")
            column_costs = [costs.moves[str(conjugate(rotation, m))] for m in MOVES]
            bounds = self._robot_bounds(column_costs, costs.regrip)
            return cheapest(self._lookup, state, column_costs, costs.regrip, bounds)
        raise ValueError(f"no metric {metric!r}; metrics are {', '.join(METRICS)}")

    def solve(self, facelets: str, metric: str = "htm", costs: RobotCosts | None = None,
              colour_names: Mapping[str, str] | None = None) -> PocketSolution:
        """A verified optimal solution of the 2x2 ``facelets`` (any six letters), turns of the cube as held.

        Raises InvalidCubeError for a cube that cannot exist, SolveError if the answer does not solve it (a bug).
        """
        lettering = require_valid(facelets, colour_names)
        normalised = normalise(lettering.letters)
        columns, cost = self.columns(self.state_of(normalised), metric, costs, normalised.rotation)
        moves = normalised.user_moves(MOVES[c] for c in columns)
        if not PocketState(lettering.letters).apply(moves).is_solved:
            raise SolveError(f"the 2x2 tables answered '{format_moves(moves)}', which does not solve {facelets}")
        if costs is not None and cost is not None and abs(costs.cost(moves) - cost) > COST_TOLERANCE * max(1.0, cost):
            raise SolveError(f"the robot search priced '{format_moves(moves)}' at {cost}, not {costs.cost(moves)}")
        return PocketSolution(lettering.letters, moves, metric, cost, colour_names=lettering.colour_names)
