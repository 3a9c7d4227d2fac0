"""What a command hands back to the CLI: the result in two forms, and the error if any."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from qbr.cube.errors import QbrError


@dataclass(frozen=True)
class CommandResult:
    """A command's outcome; the CLI prints ``text`` or ``payload`` as JSON and maps ``error`` to an exit code.

    A command never prints; it may still carry a partial ``payload`` (e.g. best facelets) beside an ``error``.
    """

    payload: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    error: QbrError | None = None
