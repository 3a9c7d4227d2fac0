"""The layer rules and the linter are checked mechanically, as part of the test suite."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    path = shutil.which(name) or str(Path(sys.executable).parent / name)
    if not Path(path).exists():
        pytest.fail(f"{name} is not installed: pip install '.[test]'")
    return path


def test_import_contracts_are_kept():
    run = subprocess.run([_tool("lint-imports")], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff_is_clean():
    run = subprocess.run([_tool("ruff"), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_importing_qbr_does_nothing():
    # Qbr opened the camera on import; importing any qbr module here must not touch cv2 windows or devices.
    code = (
        "import sys, qbr, qbr.cli, qbr.cube.conventions;"
        "assert 'kociemba' not in sys.modules, 'kociemba imported at import time'"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_the_cli_starts_without_numpy_or_opencv():
    # `qbr solve`, `qbr --help` and bad arguments answer at once: heavy libraries load only where they are used.
    code = "import sys, qbr.cli; heavy = {'numpy', 'cv2'} & set(sys.modules); assert not heavy, heavy"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_every_package_ships_in_the_wheel():
    # setuptools lists packages by hand (assets/ ships as qbr._assets): a new package left out breaks installs.
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "qbr").rglob("__init__.py")}
    assert found <= listed, f"packages missing from pyproject's [tool.setuptools] packages: {sorted(found - listed)}"
