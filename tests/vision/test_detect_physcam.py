"""Detection on the independent renderer (tests/physcam) where its physics differ: the smallest faces tilted, and
glare-, blur- and JPEG-broken outlines that no single edge map closes."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import physcam
from physcam.sensor import Sensor
from physcam.shoot import COLOURS

from qbr.vision.detect import FaceDetection, detect_face
from qbr.vision.tunables import Tunables


def _in_place(detection: FaceDetection | None, shot: physcam.Shot) -> bool:
    """Every sticker centre within a quarter pitch of the truth (the bench's test is 30%)."""
    if detection is None or detection.stickers.shape != shot.stickers.shape:
        return False
    got, want = detection.stickers.mean(axis=1), shot.stickers.mean(axis=1)
    pitch = float(np.linalg.norm(want[4] - want[3]))
    return bool((np.linalg.norm(got - want, axis=1) < 0.25 * pitch).all())


def _small_tilted(seed: int) -> physcam.Shot:
    """A face of the hard tier's smallest pitch (4% of the width), wide gaps, tilted 20 degrees both ways: its
    stickers show ~3.4% of the width, in daylight, sharp, good JPEG."""
    rng = np.random.default_rng(seed)
    signs = rng.choice([-1.0, 1.0], 2)
    params = physcam.ShotParams(sticker_size=0.04, gap=0.09, yaw=20.0 * signs[0], pitch=20.0 * signs[1], roll=0.0,
                                background="plain", sensor=Sensor(jpeg_quality=85))
    return physcam.render_face([COLOURS[i] for i in rng.integers(0, 6, 9)], params, rng)


def test_the_smallest_faces_tilted_are_found() -> None:
    shots = [_small_tilted(seed) for seed in range(10)]
    found = sum(_in_place(detect_face(shot.image), shot) for shot in shots)
    assert found >= 8  # the former 3.5% smallest sticker found none of them
    assert not any(_in_place(detect_face(shot.image, Tunables(sticker_min=0.035)), shot) for shot in shots[:3])


def _hard(seed: int) -> physcam.Shot:
    rng = np.random.default_rng([seed, 8])
    return physcam.render_face([COLOURS[i] for i in rng.integers(0, 6, 9)], physcam.sample_params("hard", rng), rng)


def test_stickers_closed_in_different_edge_maps_make_a_face_together() -> None:
    # Small hard-tier faces (glare, blur, JPEG 40-70) that no single look sees five stickers of: the pooled look
    # finds them, switching it off loses them. Of 600 such renders 5 were found by it and none lost.
    shots = [_hard(seed) for seed in (29, 265, 320, 465)]
    assert all(_in_place(detect_face(shot.image), shot) for shot in shots)
    assert not any(_in_place(detect_face(shot.image, Tunables(pool_same=0)), shot) for shot in shots)


def test_a_perspective_no_camera_shows_is_fitted_affinely() -> None:
    # Small hard-tier faces whose glare left five stickers in an L: the homography fitted to them bent the grid
    # off the face (misplaced on main); bounded by the face's size in frame, it is fitted affinely and lands.
    shots = [_hard(seed) for seed in (8, 64, 135)]
    assert all(_in_place(detect_face(shot.image), shot) for shot in shots)
    assert not any(_in_place(detect_face(shot.image, Tunables(grid_max_perspective=0)), shot) for shot in shots)


def test_blurred_small_faces_are_found_at_the_frames_own_width() -> None:
    # Small hard-tier faces whose blurred gaps still run together at 480 pixels wide: the closer look at 640 (a
    # webcam's own width) sees them.
    shots = [_hard(seed) for seed in (213, 422, 481)]
    assert all(_in_place(detect_face(shot.image), shot) for shot in shots)
    assert not any(_in_place(detect_face(shot.image, Tunables(retry_work_width=480)), shot) for shot in shots)


def test_five_stickers_spanning_a_tilted_face_keep_its_perspective() -> None:
    # A face tilted 33 degrees with five stickers seen across it (an L along two sides): an affine grid loses its
    # far sticker (skewed to it), the plausible perspective of the five keeps it and the face is found. (Seed 274,
    # once this test's, is found either way since a grid seen aslant is refused: another look finds it.)
    shot = _hard(154)
    assert _in_place(detect_face(shot.image), shot)
    assert not _in_place(detect_face(shot.image, Tunables(grid_max_perspective=0)), shot)


def test_a_2x2_straddling_a_faces_edge_is_not_a_2x2x2s_face() -> None:
    # A dim tuning cube's face found with six stickers, and a 2x2 of two of them and a note beyond its edge (off its
    # lattice as a whole): the face, not a 2x2x2's, as four of the face's stickers lie outside the 2x2.
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from families import render

    _, faces, _ = render("physcam", "dim", 56)
    shot = faces["D"]
    found = detect_face(shot.image)
    assert found is not None and found.size == 3 and _in_place(found, shot)


def test_a_camera_frame_looks_again_without_short_edge_pieces() -> None:
    # Hard-tier faces (bench/low_light.py's, tuning seeds 21-40) in one camera frame: the live profile's second look
    # drops the glare's and JPEG's short edge pieces that cut small stickers apart (physcam hard tuning faces
    # found in one frame, 200 of them: 152 -> 179).
    def found(t: Tunables) -> int:
        count = 0
        for seed in range(21, 41):
            rng = np.random.default_rng([seed, 1, 2])  # seeds.scene_rng(seed, "physcam", hard)
            colours = [COLOURS[i] for i in rng.integers(0, 6, 9)]
            shot = physcam.render_face(colours, physcam.sample_params("hard", rng), rng)
            count += _in_place(detect_face(shot.image, t.for_video()), shot)
        return count

    with_look, without = found(Tunables()), found(Tunables(retry_edge_piece=0.0))
    assert with_look >= 19  # 20 of 20
    assert with_look >= without + 2  # 17 without it


def test_a_side_face_seen_aslant_is_not_taken_for_the_face_held_up() -> None:
    # Hard tuning cubes tilted 30-40 degrees whose held face (under glare, blurred) closed too few outlines at first:
    # a 2x2 or 3x3 grid on the top or side face, seen at 55-65 degrees, was taken instead; refused as turned away,
    # the search goes on to the held face. (Of 1800 hard tuning faces: 4 found in place, 2 misplaced now not found
    # and deduced, none lost; bench/colour_reads.py --cubes 300 --all.)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from families import render

    shots = [render("physcam", "hard", seed)[1][face] for seed, face in ((42, "L"), (97, "B"), (105, "R"), (291, "L"))]
    assert all(_in_place(detect_face(shot.image), shot) for shot in shots)
    assert not any(_in_place(detect_face(shot.image, Tunables(grid_min_facing=0)), shot) for shot in shots)
