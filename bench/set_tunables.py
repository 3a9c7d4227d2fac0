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
        tunables = dataclasses.replace(tunables, **{key: _parse(value, getattr(tunables, key), item)})
    return tunables


def _parse(value: str, current: object, item: str) -> object:
    """``value`` as the type of ``current``; a switch takes True/False (bool("False") would be True)."""
    if isinstance(current, tuple):
        return tuple(float(v) for v in value.split(",") if v.strip())  # e.g. retry_far_scales=0.75,0.5 ("": none)
    if isinstance(current, bool):
        if value.lower() not in ("true", "false", "1", "0"):
            raise SystemExit(f"--set {item}: a switch takes True or False")
        return value.lower() in ("true", "1")
    return type(current)(value)
