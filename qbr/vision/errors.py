"""Errors of the vision layer, importable without numpy or OpenCV (the CLI maps them to exit codes at start-up)."""

from __future__ import annotations

from qbr.cube.errors import QbrError


class PaletteFormatError(QbrError, ValueError):
    """A palette (usually a JSON file) is not a valid qbr palette; the message says exactly what is wrong."""

    kind = "bad_palette"
