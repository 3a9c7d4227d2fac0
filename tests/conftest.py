"""Fixtures shared by every test directory."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
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


@pytest.fixture(autouse=True)
def _window_tests_have_the_machine(request: pytest.FixtureRequest,
                                   tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A real-window test (one using the ``xvfb`` fixture) runs with no other test beside it on any worker.

    On two cores a window test beside another worker's tests has left its window unpainted for seconds (black after
    a resize, no highlight after a step): the suite runs on every core (pytest-xdist), these as if alone. Other tests
    share the machine with each other. A turnstile lets a waiting window test in before further shared ones.
    """
    if os.name != "posix":  # no window tests there (no Xvfb), and no fcntl
        yield
        return
    import fcntl

    folder = tmp_path_factory.getbasetemp().parent  # shared by the workers of one run
    exclusive = "xvfb" in request.fixturenames
    with open(folder / "qbr-turnstile.lock", "w") as turnstile, open(folder / "qbr-machine.lock", "w") as machine:
        fcntl.flock(turnstile, fcntl.LOCK_EX)
        if exclusive:
            fcntl.flock(machine, fcntl.LOCK_EX)  # waits for the tests running now; the turnstile holds new ones
        else:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
            fcntl.flock(machine, fcntl.LOCK_SH)
        yield
