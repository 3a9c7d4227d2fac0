"""Face-grid geometry: how squarely a fitted grid faces the camera."""

from __future__ import annotations

import numpy as np
import pytest

from qbr.vision.detect.geometry import facing


def _turned(tilt: float, roll: float, scale: float = 40.0) -> np.ndarray:
    """A square grid foreshortened by cos(tilt) across one axis, then rolled and placed (affine: no perspective)."""
    c, s = np.cos(np.radians(roll)), np.sin(np.radians(roll))
    m = scale * np.array([[c, -s], [s, c]]) @ np.diag([1.0, np.cos(np.radians(tilt))])
    return np.array([[m[0, 0], m[0, 1], 100.0], [m[1, 0], m[1, 1], 80.0], [0.0, 0.0, 1.0]])


def test_facing_is_the_cosine_of_a_grids_tilt() -> None:
    assert facing(_turned(0, 25)) == pytest.approx(1.0)
    assert facing(_turned(60, 0)) == pytest.approx(0.5)
    assert facing(_turned(45, 70, 3.0), size=2) == pytest.approx(np.cos(np.radians(45)))


def test_facing_sees_a_tilt_across_a_diagonal_too() -> None:
    # Squashed along a diagonal of the grid (a face seen aslant at a roll): sheared, not shortened along an axis.
    h = _turned(50, 0)
    a = 0.7
    h[:2, :2] = h[:2, :2] @ np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    assert facing(h) == pytest.approx(np.cos(np.radians(50)))


def test_facing_is_the_tilt_of_a_face_seen_through_a_pinhole_camera() -> None:
    # A face turned 40 degrees about the vertical, its centre on the optical axis 30 cm away (focal 600 px, 2 cm
    # stickers): perspective bends the grid's far side, but about its centre it is foreshortened by cos(40).
    t = np.radians(40)
    rotation = np.array([[np.cos(t), 0.0, np.sin(t)], [0.0, 1.0, 0.0], [-np.sin(t), 0.0, np.cos(t)]])
    to_plane = np.array([[2.0, 0.0, -3.0], [0.0, 2.0, -3.0], [0.0, 0.0, 1.0]])  # grid cells -> cm, centred
    h = np.diag([600.0, 600.0, 1.0]) @ np.column_stack((rotation[:, 0], rotation[:, 1], (0.0, 0.0, 30.0))) @ to_plane
    assert facing(h / h[2, 2]) == pytest.approx(np.cos(t), rel=1e-9)
