"""Fixtures shared by the solving tests: the 2x2 tables are built once per session (about half a second)."""

import pytest

from qbr.solve.pocket.solver import PocketSolver


@pytest.fixture(scope="session")
def pocket_solver() -> PocketSolver:
    return PocketSolver.build()


@pytest.fixture(scope="session")
def quarter_turn_distances(pocket_solver):
    return pocket_solver.tables.quarter_turn_distances()
