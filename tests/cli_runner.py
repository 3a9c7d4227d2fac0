"""The one way tests run the qbr command line: in-process, with every stream and setting of the run simulated.

``run_cli(args, config_dir)`` returns (status, stdout, stderr); the ``qbr_cli`` fixture (tests/conftest.py) is the
same with the test's own temporary config directory.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from qbr.app.environment import Environment
from qbr.cli import ExitStatus, main


class CliRun(NamedTuple):
    """What one run of the CLI gave: its exit status and everything it wrote."""

    status: ExitStatus
    out: str
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)


def run_cli(args: Sequence[str], config_dir: Path, isatty: bool = False, system_language: str = "en",
            **env: Any) -> CliRun:
    """Run ``qbr args`` with no display, a terminal or not (``isatty``), config in ``config_dir``."""
    out, err = io.StringIO(), io.StringIO()
    settings: dict[str, Any] = {"has_display": False, **env}
    environment = Environment(stdout=out, stderr=err, stdout_isatty=isatty, config_dir=Path(config_dir),
                              system_language=system_language, **settings)
    status = main(list(args), env=environment)
    return CliRun(status, out.getvalue(), err.getvalue())


def run_cli_json(args: Sequence[str], config_dir: Path, **kwargs: Any) -> tuple[ExitStatus, Any]:
    """Run ``qbr args --json``: (status, the parsed JSON)."""
    status, out, _ = run_cli([*args, "--json"], config_dir, **kwargs)
    return status, json.loads(out)
