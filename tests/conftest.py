"""Fixtures shared by every test directory."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_runner import CliRun, run_cli
from hypothesis import settings

# In CI the property tests draw the same examples every run: a landing is not decided by a lucky draw (locally
# they keep exploring new ones).
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture()
def qbr_cli(tmp_path: Path) -> Callable[..., CliRun]:
    """``qbr_cli(["solve", ...])`` runs the CLI in-process with this test's own config directory (see cli_runner)."""
    return functools.partial(run_cli, config_dir=tmp_path / "config")
