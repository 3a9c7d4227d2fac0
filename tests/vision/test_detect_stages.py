"""qbr/vision/detect/ as a newcomer reads it: every stage file named in the package's map, in order."""

from __future__ import annotations

import re
from pathlib import Path

import qbr.vision.detect as detect


def test_the_package_docstring_names_every_stage_file() -> None:
    files = {p.stem for p in Path(detect.__file__).parent.glob("*.py")} - {"__init__"}
    named = set(re.findall(r"``(\w+)``", detect.__doc__ or ""))
    assert files <= named, files - named
