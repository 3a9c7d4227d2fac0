"""The benches' ``--set FIELD=VALUE``: a ``Tunables`` with some fields changed for one run."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from qbr.vision.tunables import Tunables


def with_set(tunables: Tunables, items: Iterable[str]) -> Tunables:
    """``tunables`` with each ``FIELD=VALUE`` of ``items`` applied, the value of the field's own type."""
    for item in items:
        key, value = item.split("=", 1)
        if not hasattr(tunables, key):
            raise SystemExit(f"--set {item}: Tunables has no field {key!r}")
        tunables = dataclasses.replace(tunables, **{key: type(getattr(tunables, key))(value)})
    return tunables
