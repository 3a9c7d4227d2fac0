"""bench/ablate.py can still switch off every rule it names: its rewrites find their text in qbr as it is now."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import ablate


@pytest.mark.parametrize("rule", [r for r in ablate.RULES if r.patch is not None], ids=lambda r: r.name)
def test_each_rule_can_be_switched_off_and_back_on(rule: ablate.Rule) -> None:
    import qbr.vision.detect as detect

    # Detection and every stage of resolution (qbr.vision.resolve.*), each name in its own module.
    modules = {name: module for name, module in sys.modules.items()
               if name == "qbr.vision.detect" or name.startswith("qbr.vision.resolve")}
    assert "qbr.vision.resolve.cube" in modules
    before = {(m, k): v for m, module in modules.items() for k, v in vars(module).items()}
    before[("detect", "rank")] = detect._GridFit.rank

    def now() -> dict[tuple[str, str], object]:
        found = {(m, k): v for m, module in modules.items() for k, v in vars(module).items()}
        return {**found, ("detect", "rank"): detect._GridFit.rank}

    with rule.off():
        changed = [k for k, v in now().items() if before.get(k) is not v]
        assert len(changed) == 1
    assert all(before.get(k) is v for k, v in now().items())


def test_every_tunables_field_a_rule_sets_exists() -> None:
    from qbr.vision.tunables import Tunables

    fields = set(Tunables.__dataclass_fields__)
    assert {k for r in ablate.RULES for k in r.tunables} <= fields
