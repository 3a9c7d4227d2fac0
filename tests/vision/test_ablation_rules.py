"""bench/ablate.py can still switch off every rule it names: its rewrites find their text in qbr as it is now."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import ablate


@pytest.mark.parametrize("rule", [r for r in ablate.RULES if r.patch is not None], ids=lambda r: r.name)
def test_each_rule_can_be_switched_off_and_back_on(rule: ablate.Rule) -> None:
    from qbr.vision.detect.fit import GridFit

    # Every detection module (a rule's function is replaced wherever it was imported) and resolution.
    modules = {name: module for name, module in sys.modules.items()
               if name.startswith(("qbr.vision.detect", "qbr.vision.resolve"))}
    assert {"qbr.vision.detect.passes", "qbr.vision.resolve.cube"} <= modules.keys()

    def now() -> dict[tuple[str, str], object]:
        found = {(m, k): v for m, module in modules.items() for k, v in vars(module).items()}
        return {**found, ("fit", "rank"): GridFit.rank}

    before = now()
    with rule.off():
        changed = {name for (m, name), v in now().items() if before.get((m, name)) is not v}
        assert len(changed) == 1  # one rule: one name...
        stale = [m for (m, name), v in now().items()
                 if m.startswith("qbr.vision.detect") and name in changed and before.get((m, name)) is v]
        assert not stale  # ...replaced in every detection module that imported it
    assert all(before.get(k) is v for k, v in now().items())


def test_every_tunables_field_a_rule_sets_exists() -> None:
    from qbr.vision.tunables import Tunables

    fields = set(Tunables.__dataclass_fields__)
    assert {k for r in ablate.RULES for k in r.tunables} <= fields


@pytest.mark.parametrize("rule", [r for r in ablate.RULES if r.stage == "resolve"], ids=lambda r: r.name)
def test_each_resolution_rule_switched_off_still_resolves_a_real_scan_with_trust(rule: ablate.Rule) -> None:
    # A rule's stand-in must take what the code now passes (once it did not: the trust argument came later).
    import dataclasses
    import json

    import numpy as np

    from qbr.vision.resolve import resolve_cube
    from qbr.vision.tunables import Tunables

    scan = json.loads((Path(__file__).resolve().parents[1] / "data" / "colour-scans" / "3x3x3-random-01.json")
                      .read_text())
    rgb = {face: np.array(v, dtype=float) for face, v in scan["rgb"].items()}
    trust = {face: np.full(len(v), 0.9) for face, v in rgb.items()}
    with rule.off():
        found = resolve_cube(rgb, tunables=dataclasses.replace(Tunables(), **rule.tunables), trust=trust)
    assert len(found.facelets) == 54
