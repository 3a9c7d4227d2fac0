"""Errors of the solving and translation layer."""

from __future__ import annotations

from qbr.cube.errors import QbrError


class SolveError(QbrError):
    """The solver failed on a state that validated (should not happen; reported, never hidden)."""

    kind = "solve_failed"


class UnknownLanguageError(QbrError, ValueError):
    """A language was asked for that qbr has no translation for."""

    kind = "unknown_language"


class CatalogueError(QbrError, ValueError):
    """A translation catalogue that cannot be used: unreadable, too large, not JSON, or wrongly shaped."""

    kind = "bad_catalogue"


class RobotCostsError(QbrError):
    """A robot costs file cannot be read or is not what it should be; the message names the file."""

    kind = "bad_costs"
