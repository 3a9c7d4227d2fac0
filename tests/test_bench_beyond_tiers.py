"""bench/beyond_tiers.py renders what each row says: the tier's scene itself, or it in another frame or tilt."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import beyond_tiers  # noqa: E402
import families  # noqa: E402
import synth  # noqa: E402
from physcam import shoot  # noqa: E402

from qbr.vision.detect import FaceDetection, apply_homography  # noqa: E402


@pytest.fixture
def restored(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench patches both renderers' samplers in its workers; here they are put back after each test."""
    monkeypatch.setattr(shoot, "sample_params", shoot.sample_params)
    monkeypatch.setattr(synth, "sample_params", synth.sample_params)


def _tilt(params: object) -> float:
    return float(np.hypot(params.yaw, params.pitch))  # type: ignore[attr-defined]


@pytest.mark.parametrize("family", ["physcam", "synth"])
def test_the_plain_row_is_the_tier(family: str, restored: None) -> None:
    _, plain, _ = families.render(family, "medium", 3)
    beyond_tiers._patch({})
    _, again, _ = families.render(family, "medium", 3)
    assert np.array_equal(plain["F"].image, again["F"].image)


@pytest.mark.parametrize("family", ["physcam", "synth"])
def test_rows_change_the_frame_and_the_tilt(family: str, restored: None) -> None:
    beyond_tiers._patch({"size": (480, 640)})
    _, portrait, _ = families.render(family, "medium", 3)
    assert portrait["U"].image.shape[:2] == (640, 480)
    beyond_tiers._patch({"tilt": (40.0, 50.0)})
    _, tilted, _ = families.render(family, "medium", 3)
    assert all(40.0 <= _tilt(tilted[face].params) <= 50.0 for face in "URFDLB")
    assert tilted["U"].image.shape[:2] == (480, 640)


def _quads(homography: np.ndarray) -> np.ndarray:
    """(9, 4, 2) sticker quads of a face seen through ``homography`` (grid -> pixels)."""
    corners = np.array([(c + dx, r + dy) for r in range(3) for c in range(3)
                        for dx, dy in ((0.2, 0.2), (0.8, 0.2), (0.8, 0.8), (0.2, 0.8))])
    return apply_homography(homography, corners).reshape(9, 4, 2)


def _face(homography: np.ndarray) -> FaceDetection:
    return FaceDetection(_quads(homography), np.zeros((4, 2), np.float32), 1.0, homography)


def test_a_grid_elsewhere_counts_as_squarely_only_when_it_faces_the_camera_as_much() -> None:
    square = np.array([[40.0, 0.0, 100.0], [0.0, 40.0, 100.0], [0.0, 0.0, 1.0]])
    aslant = np.array([[40.0, 0.0, 300.0], [0.0, 24.0, 100.0], [0.0, 0.0, 1.0]])  # squashed: cos 0.6
    more_aslant = np.array([[40.0, 0.0, 300.0], [0.0, 16.0, 300.0], [0.0, 0.0, 1.0]])  # cos 0.4
    held = _quads(aslant)
    assert beyond_tiers.as_squarely(_face(square), held)
    assert not beyond_tiers.as_squarely(_face(more_aslant), held)
