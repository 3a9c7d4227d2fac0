"""Sticker palettes: the sRGB colour of each of the six sticker colours, with a versioned JSON form.

A palette names colours; it never decides the cube: resolution anchors on the six centres it measured.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from qbr.files.limited_json import shown as _short
from qbr.vision.colour import glare_free_hue, srgb_decode, srgb_to_lab
from qbr.vision.errors import PaletteFormatError

COLOUR_NAMES: Final = ("white", "yellow", "red", "orange", "green", "blue")
"""The six sticker colours every palette has, in a fixed order."""

FORMAT: Final = "qbr-palette"
VERSION: Final = 1

MAX_SAMPLES: Final = 64
"""Samples per colour a palette may hold: calibrating keeps 9 a face; more only slow every frame's naming."""
MAX_NAME_CHARS: Final = 200
"""A palette's name is shown in one line of the window."""

RGB = tuple[float, float, float]


def _rgb(value: Any, where: str) -> RGB:
    if isinstance(value, str | bytes) or not hasattr(value, "__len__") or len(value) != 3:
        raise PaletteFormatError(f"{where} must be a list of three numbers [r, g, b], got {_short(value)}")
    out = []
    for channel in value:
        if isinstance(channel, bool) or not isinstance(channel, int | float | np.integer | np.floating):
            raise PaletteFormatError(f"{where} must hold numbers, got {_short(channel)}")
        if not (0 <= channel <= 255 and math.isfinite(channel)):  # range first: a huge int overflows isfinite
            raise PaletteFormatError(f"{where} has {_short(channel)}: each channel must be between 0 and 255")
        out.append(float(channel))
    return (out[0], out[1], out[2])


def _colour_map(data: Any, what: str, parse: Any) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise PaletteFormatError(f"'{what}' must be an object mapping colour names to values")
    missing = [name for name in COLOUR_NAMES if name not in data]
    if missing:
        raise PaletteFormatError(f"'{what}' is missing {', '.join(missing)} (a palette needs all six colours)")
    unknown = sorted(str(name)[:20] for name in data if name not in COLOUR_NAMES)
    if unknown:
        raise PaletteFormatError(f"'{what}' has unknown colour {', '.join(unknown)} (known: {', '.join(COLOUR_NAMES)})")
    return {name: parse(data[name], f"{what}.{name}") for name in COLOUR_NAMES}


def _samples(value: Any, where: str) -> tuple[RGB, ...]:
    if isinstance(value, str | bytes) or not hasattr(value, "__iter__"):
        raise PaletteFormatError(f"{where} must be a list of [r, g, b] samples")
    if hasattr(value, "__len__") and len(value) > MAX_SAMPLES:
        raise PaletteFormatError(f"{where} has {len(value)} samples; a palette keeps at most {MAX_SAMPLES} a colour")
    samples = tuple(_rgb(v, f"{where}[{i}]") for i, v in enumerate(value))
    if not samples:
        raise PaletteFormatError(f"{where} is empty: give at least one sample or leave 'samples' out")
    return samples


@dataclass(frozen=True)
class Palette:
    """The sRGB (0-255) colour of each sticker colour; ``samples`` optionally holds several measurements per colour."""

    colours: Mapping[str, RGB]
    name: str = "custom"
    samples: Mapping[str, tuple[RGB, ...]] = field(default_factory=dict)
    red_orange_hue: float | None = None
    """Glare-free hue (degrees) where red ends and orange begins, as measured; None: midway between the two."""

    def __post_init__(self) -> None:
        # Validate and freeze: a palette built in code gets the same checks as one read from a file.
        if not isinstance(self.name, str) or not self.name.strip() or len(self.name) > MAX_NAME_CHARS:
            raise PaletteFormatError(
                f"a palette name must be a non-empty string of at most {MAX_NAME_CHARS} characters, "
                f"got {_short(self.name)}"
            )
        hue = self.red_orange_hue
        if hue is not None and (isinstance(hue, bool) or not isinstance(hue, int | float)
                                or not (0 <= hue <= 90 and math.isfinite(hue))):
            raise PaletteFormatError(f"'red_orange_hue' must be a number of degrees from 0 to 90, got {_short(hue)}")
        object.__setattr__(self, "colours", MappingProxyType(_colour_map(self.colours, "colours", _rgb)))
        samples = _colour_map(self.samples, "samples", _samples) if self.samples else {}
        object.__setattr__(self, "samples", MappingProxyType(samples))

    def __hash__(self) -> int:
        return hash((self.name, tuple(self.colours.items()), tuple(self.samples.items()), self.red_orange_hue))

    def __reduce__(self) -> tuple[Any, ...]:
        # Read-only mapping proxies cannot be pickled: rebuild from plain dicts (for copies and worker processes).
        return (type(self), (dict(self.colours), self.name, dict(self.samples), self.red_orange_hue))

    def with_colours(self, colours: Mapping[str, RGB], name: str) -> Palette:
        """This palette with some colours replaced; a measured red/orange hue is kept only if both are unchanged."""
        merged = {**self.colours, **colours}
        same = all(merged[n] == self.colours[n] for n in ("red", "orange"))
        return Palette(colours=merged, name=name, samples=self.samples,
                       red_orange_hue=self.red_orange_hue if same else None)

    @cached_property
    def warm_boundary(self) -> float:
        """Glare-free CIELAB hue (degrees) splitting red from orange: as measured, or midway between the two."""
        if self.red_orange_hue is not None:
            return float(self.red_orange_hue)
        return float(np.mean(glare_free_hue(self._linear[[COLOUR_NAMES.index("red"), COLOUR_NAMES.index("orange")]])))

    @cached_property
    def yellow_boundary(self) -> float:
        """Glare-free CIELAB hue (degrees) splitting orange from yellow: midway between the two; NaN when this
        palette's yellow is not the yellower (a calibration taken on the wrong centres): hue tells them nothing."""
        orange, yellow = glare_free_hue(self._linear[[COLOUR_NAMES.index("orange"), COLOUR_NAMES.index("yellow")]])
        return float((orange + yellow) / 2) if yellow > orange else float("nan")

    def references(self) -> tuple[tuple[str, ...], NDArray[np.float64]]:
        """Every reference colour as (colour name per row, Lab rows): the main colours, then any samples."""
        names, lab, _ = self._references
        return names, lab.copy()

    def reference_index(self) -> NDArray[np.intp]:
        """For each row of :meth:`references`, the index of its colour in :data:`COLOUR_NAMES`."""
        return self._references[2].copy()

    def lab(self) -> NDArray[np.float64]:
        """Lab of the six main colours, rows in :data:`COLOUR_NAMES` order."""
        return self._references[1][: len(COLOUR_NAMES)].copy()

    def linear(self) -> NDArray[np.float64]:
        """Linear sRGB (0-1) of the six main colours, rows in :data:`COLOUR_NAMES` order."""
        return self._linear.copy()

    @cached_property
    def fit_tables(self) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        """Read-only per-palette arrays for the per-frame light fit, computed once.

        Linear rows of the six colours, their chromaticities (rows sum to 1) and their Lab rows.
        """
        linear = self._linear
        chroma = linear / np.maximum(linear.sum(axis=1, keepdims=True), 1e-9)
        tables = (linear.copy(), chroma, self._references[1][: len(COLOUR_NAMES)].copy())
        for table in tables:
            table.flags.writeable = False
        return tables

    @cached_property
    def _linear(self) -> NDArray[np.float64]:
        return srgb_decode(np.array([self.colours[n] for n in COLOUR_NAMES]))

    @cached_property
    def _references(self) -> tuple[tuple[str, ...], NDArray[np.float64], NDArray[np.intp]]:
        # Computed once per palette: classification runs every frame against the same palette.
        names = list(COLOUR_NAMES)
        rgb = [self.colours[n] for n in COLOUR_NAMES]
        for n in COLOUR_NAMES:
            for sample in self.samples.get(n, ()):
                names.append(n)
                rgb.append(sample)
        index = np.array([COLOUR_NAMES.index(n) for n in names], dtype=np.intp)
        return tuple(names), srgb_to_lab(np.array(rgb)), index

    def to_json(self) -> dict[str, Any]:
        """The versioned JSON object (see calibration/README.md); :meth:`from_json` reads it back equal."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "name": self.name,
            "colours": {n: list(self.colours[n]) for n in COLOUR_NAMES},
        }
        if self.samples:
            data["samples"] = {n: [list(s) for s in self.samples[n]] for n in COLOUR_NAMES}
        if self.red_orange_hue is not None:
            data["red_orange_hue"] = self.red_orange_hue
        return data

    @classmethod
    def from_json(cls, data: Any) -> Palette:
        """Read a palette from its JSON object; raises :class:`PaletteFormatError` saying what is wrong."""
        if not isinstance(data, Mapping):
            raise PaletteFormatError(f"a palette must be a JSON object, got {type(data).__name__}")
        if data.get("format") != FORMAT:
            found = _short(data.get("format"))
            raise PaletteFormatError(f"not a qbr palette: 'format' is {found}, expected {FORMAT!r}")
        version = data.get("version")
        if isinstance(version, bool) or not isinstance(version, int):
            raise PaletteFormatError(f"'version' must be an integer, got {_short(version)}")
        if version > VERSION:
            raise PaletteFormatError(f"palette format version {version} is newer than this qbr reads ({VERSION})")
        if version != VERSION:
            raise PaletteFormatError(f"unknown palette format version {version} (this qbr reads {VERSION})")
        unknown = sorted(set(data) - {"format", "version", "name", "colours", "samples", "red_orange_hue"})
        if unknown:
            raise PaletteFormatError(f"unknown palette field {', '.join(map(_short, unknown))}")
        if "colours" not in data:
            raise PaletteFormatError("palette has no 'colours'")
        name = data.get("name", "custom")
        return cls(colours=data["colours"], name=name, samples=data.get("samples") or {},
                   red_orange_hue=data.get("red_orange_hue"))


DEFAULT_PALETTE: Final = Palette(
    name="default",
    colours={
        # Typical webcam readings of standard stickers under indoor light (not the printed brand colours).
        "white": (235.0, 235.0, 235.0),
        "yellow": (230.0, 215.0, 50.0),
        "red": (200.0, 30.0, 35.0),
        "orange": (245.0, 120.0, 25.0),
        "green": (30.0, 160.0, 90.0),
        "blue": (35.0, 75.0, 170.0),
    },
    # Measured on real stickers (bench/measure_palette.py): phones show reds up to 41 degrees, oranges from 43.
    red_orange_hue=42.0,
)
"""The palette used until the user calibrates; equal to calibration/default.json."""
