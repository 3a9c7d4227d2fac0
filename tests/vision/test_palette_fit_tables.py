"""Palette.fit_tables: the cached per-frame arrays agree with the palette's public colours and cannot be mutated."""

import numpy as np
import pytest

from qbr.vision.palette import DEFAULT_PALETTE


def test_fit_tables_match_the_palette_colours() -> None:
    linear, chroma, lab = DEFAULT_PALETTE.fit_tables
    np.testing.assert_array_equal(linear, DEFAULT_PALETTE.linear())
    np.testing.assert_array_equal(lab, DEFAULT_PALETTE.lab())
    np.testing.assert_allclose(chroma.sum(axis=1), 1.0)
    np.testing.assert_allclose(chroma * linear.sum(axis=1, keepdims=True), linear)


def test_fit_tables_are_read_only() -> None:
    # They are shared by every frame classified against this palette: a caller must not be able to change them.
    for table in DEFAULT_PALETTE.fit_tables:
        with pytest.raises(ValueError):
            table[0, 0] = 1.0
