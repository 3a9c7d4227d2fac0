"""qbr/vision/detect/ as a newcomer reads it: every stage file named in the package's map, in order."""

from __future__ import annotations

import re
from pathlib import Path

import qbr.vision.detect as detect
from qbr.vision.detect import passes
from qbr.vision.tunables import Tunables


def test_the_package_docstring_names_every_stage_file() -> None:
    files = {p.stem for p in Path(detect.__file__).parent.glob("*.py")} - {"__init__"}
    named = set(re.findall(r"``(\w+)``", detect.__doc__ or ""))
    assert files <= named, files - named


def test_every_pass_of_the_cascade_names_a_predicate_and_tunables_that_exist() -> None:
    fields = set(Tunables.__dataclass_fields__)
    kept: set[str] = set()
    for look in passes.PASSES:
        assert look.when in passes._WHEN, look.name
        named = {*look.switches, *look.factors, look.min_piece} - {""}
        assert named <= fields, (look.name, named - fields)
        assert look.find in ("grid", "pocket", "pooled", "regions")
        if look.find == "pocket":
            # Kept earlier, made on equalised planes, or every look's together.
            assert look.among in kept | {"stretch", "pooled"}, look.name
        kept |= {look.keep} - {""}
    assert passes.PASSES[0].trusted and not passes.PASSES[0].photo_only and passes.PASSES[0].when == "always"


def test_the_live_profile_runs_only_the_passes_both_profiles_run() -> None:
    # Nothing found so far, no candidates seen (a bare frame), a closer look possible.
    def run(t: Tunables) -> list[str]:
        return [look.name for look in passes.PASSES if passes._runs(look, passes._Found(), t, True, None)]

    assert run(Tunables().for_video()) == ["first", "2x2x2", "without short edge pieces", "2x2x2, pooled"]
    assert run(Tunables()) == ["first", "stricter edges", "2x2x2", "without short edge pieces",
                               "without short edge pieces, stricter edges", "contrast-equalised, closer", "pooled",
                               "2x2x2, contrast-equalised", "2x2x2, pooled"]
    assert "contrast-equalised, closer" not in run(Tunables(retry_clahe_clip=0.0))


def test_with_the_size_given_as_2_no_look_runs_once_a_2x2x2_face_is_found() -> None:
    found = passes._Found(pocket=object())  # type: ignore[arg-type]
    assert not [look.name for look in passes.PASSES if passes._runs(look, found, Tunables(), True, 2)]
    nothing = passes._Found()  # the closer 2x2x2 look only for a cube known to be one
    assert "2x2x2, closer" in [look.name for look in passes.PASSES if passes._runs(look, nothing, Tunables(), True, 2)]
    # A 2x2x2 session's camera loop: the contrast-equalised 2x2x2 look too, no other photo look.
    live = Tunables().for_video()
    assert [look.name for look in passes.PASSES if passes._runs(look, nothing, live, True, 2)] == [
        "first", "2x2x2", "without short edge pieces", "2x2x2, contrast-equalised", "2x2x2, pooled"]
    assert [look.name for look in passes.PASSES if passes._runs(look, found, Tunables(), True, None)] == [
        "first", "stricter edges", "2x2x2", "without short edge pieces", "without short edge pieces, stricter edges",
        "contrast-equalised, closer", "pooled"]
