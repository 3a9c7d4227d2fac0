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
    import qbr.vision.resolve as resolve

    before = {**vars(detect), **{f"resolve.{k}": v for k, v in vars(resolve).items()}, "rank": detect._GridFit.rank}
    with rule.off():
        changed = [k for k, v in vars(detect).items() if before.get(k) is not v]
        changed += [k for k, v in vars(resolve).items() if before.get(f"resolve.{k}") is not v]
        changed += ["rank"] if detect._GridFit.rank is not before["rank"] else []
        assert len(changed) == 1
    assert all(vars(detect)[k] is v for k, v in before.items() if k in vars(detect) and not k.startswith("resolve."))
    assert detect._GridFit.rank is before["rank"]


def test_every_tunables_field_a_rule_sets_exists() -> None:
    from qbr.vision.tunables import Tunables

    fields = set(Tunables.__dataclass_fields__)
    assert {k for r in ablate.RULES for k in r.tunables} <= fields
