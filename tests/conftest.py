"""Fixtures shared by every test directory."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_runner import CliRun, run_cli


@pytest.fixture()
def qbr_cli(tmp_path: Path) -> Callable[..., CliRun]:
    """``qbr_cli(["solve", ...])`` runs the CLI in-process with this test's own config directory (see cli_runner)."""
    return functools.partial(run_cli, config_dir=tmp_path / "config")
