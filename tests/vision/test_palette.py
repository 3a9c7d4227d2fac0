"""Palettes: JSON round trip, specific errors for malformed files, and the shipped default."""

import json
from pathlib import Path

import pytest

from qbr.cube.errors import QbrError
from qbr.vision.palette import COLOUR_NAMES, DEFAULT_PALETTE, Palette, PaletteFormatError

CALIBRATION = Path(__file__).resolve().parents[2] / "calibration"


def _good() -> dict:
    return DEFAULT_PALETTE.to_json()


def test_default_palette_equals_the_shipped_default_json():
    assert Palette.from_json(json.loads((CALIBRATION / "default.json").read_text("utf-8"))) == DEFAULT_PALETTE


@pytest.mark.parametrize("path", sorted(CALIBRATION.glob("*.json")), ids=lambda p: p.name)
def test_every_shipped_palette_loads_and_round_trips(path):
    palette = Palette.from_json(json.loads(path.read_text("utf-8")))
    assert palette.name == path.stem
    assert Palette.from_json(json.loads(json.dumps(palette.to_json()))) == palette


def test_round_trip_with_samples_keeps_everything():
    samples = {n: ((10.0, 20.0, 30.0), (11.5, 21.0, 31.0)) for n in COLOUR_NAMES}
    palette = Palette(colours=DEFAULT_PALETTE.colours, name="mine", samples=samples)
    back = Palette.from_json(json.loads(json.dumps(palette.to_json())))
    assert back == palette
    assert back.samples["blue"] == ((10.0, 20.0, 30.0), (11.5, 21.0, 31.0))
    names, lab = back.references()
    assert len(names) == lab.shape[0] == 6 + 12
    assert names[:6] == COLOUR_NAMES


def test_the_red_orange_boundary_round_trips_and_is_dropped_when_red_or_orange_change():
    palette = Palette(colours=DEFAULT_PALETTE.colours, name="mine", red_orange_hue=40.5)
    back = Palette.from_json(json.loads(json.dumps(palette.to_json())))
    assert back == palette and back.warm_boundary == 40.5
    assert DEFAULT_PALETTE.warm_boundary == 42.0  # measured on real stickers (bench/measure_palette.py)
    assert palette.with_colours({"blue": (0.0, 0.0, 200.0)}, "b").red_orange_hue == 40.5
    # A calibrated red: the boundary is then midway between the palette's own red and orange (default: ~48 deg).
    moved = palette.with_colours({"red": (190.0, 20.0, 30.0)}, "r")
    assert moved.red_orange_hue is None and moved.colours["red"] == (190.0, 20.0, 30.0)
    assert 44.0 < Palette(colours=DEFAULT_PALETTE.colours).warm_boundary < 52.0


def test_palette_survives_pickle_and_deepcopy():
    import copy
    import pickle

    samples = {n: ((1.0, 2.0, 3.0),) for n in COLOUR_NAMES}
    palette = Palette(colours=DEFAULT_PALETTE.colours, name="mine", samples=samples)
    palette.references()  # a cached value must not get in the way
    assert pickle.loads(pickle.dumps(palette)) == palette
    assert copy.deepcopy(palette) == palette


def test_palette_is_immutable_and_hashable():
    with pytest.raises(TypeError):
        DEFAULT_PALETTE.colours["red"] = (0.0, 0.0, 0.0)  # type: ignore[index]
    assert hash(DEFAULT_PALETTE) == hash(Palette.from_json(_good()))


def _with(**changes) -> dict:
    data = _good()
    data.update(changes)
    return data


def _colours(**changes) -> dict:
    colours = dict(_good()["colours"])
    colours.update(changes)
    return _with(colours=colours)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2, 3], "must be a JSON object"),
        (_with(format="something-else"), "not a qbr palette"),
        ({k: v for k, v in _good().items() if k != "format"}, "not a qbr palette"),
        (_with(version=2), "newer than this qbr reads"),
        (_with(version=0), "unknown palette format version 0"),
        (_with(version="1"), "'version' must be an integer"),
        ({k: v for k, v in _good().items() if k != "colours"}, "no 'colours'"),
        (_with(colours=[1, 2]), "must be an object"),
        (_with(colours={k: v for k, v in _good()["colours"].items() if k != "orange"}), "missing orange"),
        (_colours(purple=[1, 2, 3]), "unknown colour purple"),
        (_colours(red=[300, 0, 0]), "colours.red has 300"),
        (_colours(red=[-1, 0, 0]), "between 0 and 255"),
        (_colours(green=[0, 0]), "colours.green must be a list of three numbers"),
        (_colours(blue=[0, "x", 0]), "colours.blue must hold numbers"),
        (_colours(white=[float("nan"), 0, 0]), "between 0 and 255"),
        (_with(name=""), "non-empty string"),
        (_with(extra=1), "unknown palette field 'extra'"),
        (_with(samples={n: [] for n in COLOUR_NAMES}), "samples.white is empty"),
        (_with(red_orange_hue="40"), "'red_orange_hue' must be a number"),
        (_with(red_orange_hue=True), "'red_orange_hue' must be a number"),
        (_with(red_orange_hue=91), "from 0 to 90"),
        (_with(red_orange_hue=float("nan")), "from 0 to 90"),
    ],
)
def test_malformed_palettes_raise_a_specific_error(data, message):
    with pytest.raises(PaletteFormatError, match=message) as info:
        Palette.from_json(data)
    assert isinstance(info.value, QbrError)
    assert info.value.kind == "bad_palette"


def test_building_a_bad_palette_in_code_raises_the_same_error():
    with pytest.raises(PaletteFormatError, match="missing"):
        Palette(colours={"white": (1, 2, 3)})


def test_samples_are_capped_and_huge_or_long_values_named_briefly():
    from qbr.vision.palette import MAX_SAMPLES

    base = DEFAULT_PALETTE.to_json()
    ok = {**base, "samples": {n: [list(DEFAULT_PALETTE.colours[n])] * MAX_SAMPLES for n in COLOUR_NAMES}}
    assert len(Palette.from_json(ok).references()[0]) == 6 + 6 * MAX_SAMPLES
    over = {**base, "samples": {n: [list(DEFAULT_PALETTE.colours[n])] * 5000 for n in COLOUR_NAMES}}
    with pytest.raises(PaletteFormatError, match=f"5000 samples; a palette keeps at most {MAX_SAMPLES}"):
        Palette.from_json(over)
    huge = {**base, "colours": {**base["colours"], "red": [10**400, 0, 0]}}
    with pytest.raises(PaletteFormatError, match=r"about 401 digits.*between 0 and 255"):
        Palette.from_json(huge)
    with pytest.raises(PaletteFormatError, match=r"at most 200 characters, got 'xxx.*\.\.\.$"):
        Palette.from_json({**base, "name": "x" * 10_000})


def test_the_orange_yellow_boundary_is_midway_and_none_when_the_palettes_yellow_is_not_the_yellower():
    assert 78.0 < DEFAULT_PALETTE.yellow_boundary < 78.6  # the default orange at 58.3 degrees, its yellow at 98.3
    # A calibration taken on the wrong centres (its "yellow" a red): hue cannot tell its orange and yellow apart.
    wrong = DEFAULT_PALETTE.with_colours({"yellow": DEFAULT_PALETTE.colours["red"]}, "calibrated")
    assert wrong.yellow_boundary != wrong.yellow_boundary  # NaN
