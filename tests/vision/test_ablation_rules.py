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
