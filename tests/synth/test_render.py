"""The synthetic renderer tells the truth: its sticker quads sit on the colours it claims, deterministically."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from qbr.cube.conventions import FACES, STANDARD_SCHEME
from synth import (
    PALETTES,
    TIERS,
    RenderParams,
    front_corners,
    random_colours,
    render_cube,
    render_face,
    render_session,
    sample_params,
    write_video,
)
from synth.palettes import light_gains, linear_to_srgb, srgb_to_linear


def _centre_rgb(image_bgr: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Mean RGB of a small patch around the centre of a sticker quad."""
    c = quad.mean(axis=0)
    r = max(1, int(0.15 * np.linalg.norm(quad[2] - quad[0]) / np.sqrt(2)))
    x, y = round(c[0]), round(c[1])
    patch = image_bgr[y - r: y + r + 1, x - r: x + r + 1].reshape(-1, 3).astype(float)
    return patch.mean(axis=0)[::-1]


def _nearest(rgb: np.ndarray, palette: dict[str, tuple[int, int, int]]) -> str:
    return min(palette, key=lambda name: float(np.sum((np.array(palette[name], float) - rgb) ** 2)))


@pytest.mark.parametrize("seed", range(12))
def test_easy_truth_quads_sit_on_their_colours(seed: int) -> None:
    rng = np.random.default_rng(seed)
    params = sample_params("easy", rng)
    colours = random_colours(rng)
    out = render_face(colours, params, rng)
    assert out.image.shape == (params.height, params.width, 3) and out.image.dtype == np.uint8
    assert out.colours == colours
    # Exposure scales all albedos alike; undo it before matching against the palette.
    scale = float(linear_to_srgb(srgb_to_linear(np.array([128.0])) * params.brightness)[0]) / 128
    palette = {k: tuple(np.array(v) * scale) for k, v in PALETTES[params.palette].items()}
    seen = tuple(_nearest(_centre_rgb(out.image, q), palette) for q in out.stickers)
    assert seen == colours


@pytest.mark.parametrize("tier", TIERS)
def test_truth_quads_are_clockwise_row_major_and_in_frame(tier: str) -> None:
    rng = np.random.default_rng(7)
    for _ in range(5):
        params = sample_params(tier, rng)
        out = render_face(random_colours(rng), params, rng)
        q = out.stickers
        assert q.shape == (9, 4, 2) and q.dtype == np.float32
        assert np.all(q >= 0) and np.all(q[..., 0] < params.width) and np.all(q[..., 1] < params.height)
        # Clockwise in image coordinates (y down) means a positive shoelace sum.
        x, y = q[..., 0], q[..., 1]
        area = np.sum(x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y, axis=1)
        assert np.all(area > 0)
        # Row-major in the face's own frame: undo the roll, then columns go right and rows go down.
        centres = q.mean(axis=1)
        a = np.radians(params.roll)
        unroll = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
        local = (centres - centres[4]) @ unroll.T
        grid = local.reshape(3, 3, 2)
        assert np.all(np.diff(grid[..., 0], axis=1) > 0)
        assert np.all(np.diff(grid[..., 1], axis=0) > 0)


def test_renders_are_deterministic_by_seed() -> None:
    def once(seed: int) -> np.ndarray:
        rng = np.random.default_rng(seed)
        return render_face(random_colours(rng), sample_params("hard", rng), rng).image

    assert np.array_equal(once(3), once(3))
    assert not np.array_equal(once(3), once(4))


@pytest.mark.parametrize("tier", TIERS)
def test_tier_parameter_ranges(tier: str) -> None:
    limits = {"easy": (5, 5, 0.08, 0.15), "medium": (15, 20, 0.05, 0.2), "hard": (25, 30, 0.04, 0.3)}
    max_roll, max_tilt, smallest, largest = limits[tier]
    rng = np.random.default_rng(11)
    for _ in range(60):
        p = sample_params(tier, rng)
        assert abs(p.roll) <= max_roll
        assert np.hypot(p.yaw, p.pitch) <= max_tilt + 1e-9
        # The largest sizes are shrunk until the whole face fits in the frame.
        assert smallest * 0.7 <= p.sticker_size <= largest
        corners = front_corners(p)
        assert np.all(corners >= 0) and np.all(corners[:, 0] <= p.width) and np.all(corners[:, 1] <= p.height)
        if tier == "easy":
            assert p.cast == 0 and p.glare == 0 and p.defocus == 0 and p.motion == 0 and not p.logo
        if tier == "hard":
            assert p.jpeg_quality is not None and 40 <= p.jpeg_quality <= 70
            assert p.brightness <= 0.55 or p.glare > 0
            assert p.defocus > 0 or p.motion > 0


def test_render_cube_shows_each_face_in_net_orientation() -> None:
    rng = np.random.default_rng(5)
    facelets = "".join(rng.permutation(list("".join(f * 9 for f in FACES))))
    params = dataclasses.replace(sample_params("easy", rng), roll=0.0, yaw=0.0, pitch=0.0)
    out = render_cube(facelets, params, rng)
    assert list(out) == list(FACES)
    for i, face in enumerate(FACES):
        expected = tuple(STANDARD_SCHEME[x] for x in facelets[9 * i: 9 * i + 9])
        assert out[face].colours == expected
        scale = float(linear_to_srgb(srgb_to_linear(np.array([128.0])) * params.brightness)[0]) / 128
        palette = {k: tuple(np.array(v) * scale) for k, v in PALETTES[params.palette].items()}
        seen = tuple(_nearest(_centre_rgb(out[face].image, q), palette) for q in out[face].stickers)
        assert seen == expected


def test_render_cube_neighbours_show_the_right_colours() -> None:
    # Tilt the cube to show the top neighbour of F (which must be U's bottom row, as in the net).
    rng = np.random.default_rng(9)
    base = RenderParams(sticker_size=0.12, pitch=25.0, centre=(0.5, 0.6), noise=0.0, ambient=1.0)
    facelets = "".join(rng.permutation(list("".join(f * 9 for f in FACES))))
    out = render_cube(facelets, lambda face: base, rng)
    front = out["F"]
    q = front.stickers
    # Just above F1, F2, F3 we must see U7, U8, U9.
    up = q[0].mean(0) - q[3].mean(0)
    palette = PALETTES[base.palette]
    for col in range(3):
        # F's edge is half a pitch up; U's first row, foreshortened by sin(25 deg), is about 0.2 pitch further.
        centre = q[col].mean(0) + 0.72 * up
        quad = (q[col] - q[col].mean(0)) * 0.3 + centre
        # Side faces are shaded; compare by nearest after normalising brightness.
        rgb = _centre_rgb(front.image, quad)
        seen = _nearest(rgb * 255 / max(rgb.max(), 1), {k: np.array(v) * 255 / max(v) for k, v in palette.items()})
        assert seen == STANDARD_SCHEME[facelets[6 + col]]


def test_light_gains_keep_luminance_and_warm_up_with_low_kelvin() -> None:
    warm = light_gains(2700, 0.5, 0.0)
    neutral = light_gains(6500, 0.5, 0.0)
    assert warm[0] > warm[2]
    assert np.allclose(neutral, 1.0, atol=0.03)
    assert abs(float(warm @ [0.2126, 0.7152, 0.0722]) - 1.0) < 1e-9


def test_session_video_round_trip(tmp_path) -> None:
    rng = np.random.default_rng(2)
    facelets = "".join(rng.permutation(list("".join(f * 9 for f in FACES))))
    frames = list(render_session(facelets, rng, fps=4, seconds_per_face=0.5, transition_seconds=0.5,
                                 width=320, height=240))
    faces = [face for _, face in frames]
    # Each face is held for two frames, in URFDLB order, with two turning frames in between.
    assert faces == [x for i, f in enumerate(FACES) for x in [f, f] + ([None, None] if i < 5 else [])]
    path = tmp_path / "session.avi"
    write_video((image for image, _ in frames), path, fps=4)
    capture = cv2.VideoCapture(str(path))
    read = []
    while True:
        ok, image = capture.read()
        if not ok:
            break
        read.append(image)
    capture.release()
    assert len(read) == len(frames)
    # MJPG is lossy but close: every frame comes back as itself, not as a neighbour.
    for k, (image, _) in enumerate(frames):
        errors = [np.abs(r.astype(int) - image.astype(int)).mean() for r in read]
        assert int(np.argmin(errors)) == k and errors[k] < 6


def test_hand_hides_at_most_a_tenth_of_any_sticker_and_sometimes_some() -> None:
    rng = np.random.default_rng(13)
    worst = []
    for _ in range(12):
        params = dataclasses.replace(sample_params("medium", rng), finger_reach=0.4, jpeg_quality=None)
        out = render_face(random_colours(rng), params, rng)
        assert out.hand_cover is not None and out.hand_cover.shape == (9,)
        worst.append(float(out.hand_cover.max()))
        assert out.hand_cover[4] == 0  # the centre sticker is never touched
    assert max(worst) <= 0.101
    assert sum(w > 0.005 for w in worst) >= 2  # fingers do reach over the edge stickers now and then


def test_palette_and_body_can_be_fixed_without_changing_the_rest() -> None:
    free = sample_params("medium", np.random.default_rng(8))
    fixed = sample_params("medium", np.random.default_rng(8), palette="faded", body="white")
    assert (fixed.palette, fixed.body) == ("faded", "white")
    assert fixed.roll == free.roll and fixed.kelvin == free.kelvin and fixed.hand == free.hand
    with pytest.raises(ValueError):
        sample_params("medium", np.random.default_rng(8), palette="neon")


@pytest.mark.parametrize("body", ["black", "white", "stickerless"])
def test_pocket_cube_truth_quads_sit_on_their_four_colours(body: str) -> None:
    for seed in range(4):
        rng = np.random.default_rng(100 + seed)
        params = sample_params("easy", rng, body=body, size=2)
        colours = random_colours(rng, 2)
        out = render_face(colours, params, rng)
        assert out.stickers.shape == (4, 4, 2) and out.hand_cover is not None and out.hand_cover.shape == (4,)
        scale = float(linear_to_srgb(srgb_to_linear(np.array([128.0])) * params.brightness)[0]) / 128
        palette = {k: tuple(np.array(v) * scale) for k, v in PALETTES[params.palette].items()}
        assert tuple(_nearest(_centre_rgb(out.image, q), palette) for q in out.stickers) == colours
        # Row-major, clockwise from top-left: the second sticker is right of the first, the third below it.
        centres = out.stickers.mean(axis=1)
        a = np.radians(params.roll)
        local = centres @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]]).T
        assert local[1, 0] > local[0, 0] and local[2, 1] > local[0, 1] and local[3, 0] > local[2, 0]


def test_pocket_cube_face_spans_two_pitches() -> None:
    p = RenderParams(size=2, sticker_size=0.1)
    corners = front_corners(p)
    assert np.allclose(corners[1, 0] - corners[0, 0], 2 * 0.1 * p.width, rtol=1e-6)
    rng = np.random.default_rng(4)
    out = render_face(random_colours(rng, 2), p, rng)
    # The stickers' outer corners lie the inset (sticker_gap) inside the face's outline.
    assert np.allclose(out.stickers[0, 0], corners[0] + p.sticker_gap * 0.1 * p.width, atol=0.5)


def test_render_cube_draws_a_pocket_cube_in_net_orientation_with_the_right_neighbours() -> None:
    rng = np.random.default_rng(6)
    facelets = "".join(rng.permutation(list("".join(f * 4 for f in FACES))))
    params = RenderParams(size=2, sticker_size=0.15, pitch=25.0, centre=(0.5, 0.6), noise=0.0, ambient=1.0)
    out = render_cube(facelets, params, rng)
    palette = PALETTES[params.palette]
    for i, face in enumerate(FACES):
        expected = tuple(STANDARD_SCHEME[x] for x in facelets[4 * i: 4 * i + 4])
        assert out[face].colours == expected
        # Facing the camera straight the front stickers are brightest; normalise brightness as for the neighbours.
        rgb = [_centre_rgb(out[face].image, q) for q in out[face].stickers]
        norm = {k: np.array(v) * 255 / max(v) for k, v in palette.items()}
        assert tuple(_nearest(c * 255 / max(c.max(), 1), norm) for c in rgb) == expected
    # Above F1 and F2 (tilted towards the camera) lie U3 and U4, U's bottom row in the net.
    q = out["F"].stickers
    up = q[0].mean(0) - q[2].mean(0)
    for col in range(2):
        centre = q[col].mean(0) + 0.72 * up
        rgb = _centre_rgb(out["F"].image, (q[col] - q[col].mean(0)) * 0.3 + centre)
        seen = _nearest(rgb * 255 / max(rgb.max(), 1), {k: np.array(v) * 255 / max(v) for k, v in palette.items()})
        assert seen == STANDARD_SCHEME[facelets[2 + col]]


def test_pocket_cube_sizes_must_agree() -> None:
    rng = np.random.default_rng(1)
    with pytest.raises(ValueError):
        render_face(random_colours(rng), RenderParams(size=2), rng)  # nine colours for a 2x2x2
    with pytest.raises(ValueError):
        render_cube("U" * 24, RenderParams(), rng)  # 24 facelets with 3x3x3 params
    with pytest.raises(ValueError):
        sample_params("easy", rng, size=4)


def test_pocket_session_holds_each_face_with_four_stickers() -> None:
    rng = np.random.default_rng(3)
    facelets = "".join(f * 4 for f in FACES)
    frames = list(render_session(facelets, rng, fps=2, seconds_per_face=0.5, transition_seconds=0.5, width=320,
                                 height=240, size=2))
    assert [face for _, face in frames][:3] == ["U", None, "R"]
    assert all(image.shape == (240, 320, 3) for image, _ in frames)
    with pytest.raises(ValueError):
        next(render_session(facelets, rng, size=3))
