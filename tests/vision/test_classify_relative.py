"""Naming a face's colours from its stickers together: red against orange, glare-washed colours never sure white."""

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest

from qbr.vision.classify import classify_face
from qbr.vision.detect import detect_face
from qbr.vision.measure import measure_stickers_with_spread
from qbr.vision.palette import DEFAULT_PALETTE
from qbr.vision.tunables import Tunables

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import synth
from live_colours import PHONE_FACES, phone_reads

OFF = dataclasses.replace(Tunables(), classify_warm_gap=np.inf, classify_wash_chroma=np.inf,
                          classify_wash_raw_chroma=np.inf, classify_glare_luminance=np.inf,
                          classify_glare_ratio=np.inf, classify_white_tint=np.inf, classify_warm_hue_chroma=np.inf)
NO_HUE = dataclasses.replace(Tunables(), classify_warm_hue_chroma=np.inf)  # reds and oranges alone: CIEDE2000


def _score(tunables: Tunables) -> tuple[int, int, int]:
    faces = stickers = orange_red = 0
    for _, measured, truth in phone_reads(PHONE_FACES, Tunables()):
        assert measured is not None and truth is not None  # every face is found and matched to its labels
        names = classify_face(measured.rgb, DEFAULT_PALETTE, tunables).names
        right = [a == b for a, b in zip(truth, names, strict=True)]
        faces += all(right)
        stickers += sum(right)
        orange_red += sum(a == "orange" and b == "red" for a, b in zip(truth, names, strict=True))
    return faces, stickers, orange_red


def test_real_phone_faces_are_named_from_the_face_as_a_whole():
    faces, stickers, orange_red = _score(Tunables())
    # Measured: 35/36 faces, 323/324 stickers, 0 orange->red; without the hue of reds and oranges alone 34/36, 321,
    # 2 (a Pixel face of oranges alone); without any of the face-wide rules 26/36, 306, 15.
    assert faces >= 35 and stickers >= 323 and orange_red == 0
    assert _score(NO_HUE)[2] == 2
    assert _score(OFF)[0] <= faces - 5


def test_oranges_alone_from_a_phone_that_renders_them_dark_are_orange():
    # phone-faces PXL_20221103_095845155 (tuning half): two oranges, no red; CIEDE2000 finds them nearer red.
    face = np.array([[199, 65, 37], [9, 164, 38], [238, 235, 169], [1, 69, 153], [195, 59, 29], [214, 207, 51],
                     [170, 163, 11], [178, 187, 194], [198, 206, 209]], dtype=float)
    assert classify_face(face, DEFAULT_PALETTE, NO_HUE).names[0] == "red"
    names = classify_face(face, DEFAULT_PALETTE).names
    assert names == ("orange", "green", "yellow", "blue", "orange", "yellow", "yellow", "white", "white")


def test_a_red_alone_stays_red_and_the_boundary_is_the_palettes():
    # phone-faces IMG_0986 (tuning half): one red among yellows and blues.
    face = np.array([[1, 100, 246], [226, 34, 38], [247, 225, 45], [236, 215, 38], [232, 211, 37], [238, 217, 40],
                     [1, 92, 231], [229, 207, 35], [235, 213, 39]], dtype=float)
    assert classify_face(face, DEFAULT_PALETTE).names[1] == "red"
    # Its glare-free hue is 38.4 degrees: a palette whose red ends at 35 names it orange, with little confidence.
    early = dataclasses.replace(DEFAULT_PALETTE, red_orange_hue=35.0)
    result = classify_face(face, early)
    assert result.names[1] == "orange" and result.confidence[1] < 0.8


def test_a_darker_phone_orange_next_to_red_is_orange():
    # A Pixel photo's stickers (phone-faces PXL_..._095458271): its oranges are nearer the palette's red.
    face = np.array([[210, 205, 30], [213, 81, 54], [35, 168, 59], [0, 69, 150], [1, 148, 15], [189, 23, 43],
                     [167, 37, 9], [184, 50, 21], [210, 200, 22]], dtype=float)
    assert classify_face(face, DEFAULT_PALETTE, OFF).names[6:8] == ("red", "red")
    names = classify_face(face, DEFAULT_PALETTE).names
    assert names == ("yellow", "orange", "green", "blue", "green", "red", "orange", "orange", "yellow")


def _confident_false_whites(tunables: Tunables, seeds: range, glare_share: bool = True) -> tuple[int, int]:
    """Coloured stickers named white with confidence >= 0.5 on faces with strong glare, and faces read.

    ``glare_share``: naming is told how much of each sticker glare clipped or washed, as the live preview is.
    """
    tun = Tunables()
    bad = read = 0
    for seed in seeds:
        rng = np.random.default_rng([seed, 77])
        colours = synth.random_colours(rng)
        params = dataclasses.replace(synth.sample_params("easy", rng, palette="standard"),
                                     glare=float(rng.uniform(1.0, 2.5)), glare_size=float(rng.uniform(0.6, 1.2)))
        shot = synth.render_face(colours, params, rng)
        detection = detect_face(shot.image, tun)
        if detection is None:
            continue
        read += 1
        where = np.linalg.norm(shot.stickers.mean(axis=1)[:, None] - detection.sticker_centres()[None], axis=2)
        measured = measure_stickers_with_spread(shot.image, detection, tun)
        result = classify_face(measured.rgb, DEFAULT_PALETTE, tunables, glare=measured.glare if glare_share else None)
        for truth, k in zip(colours, where.argmin(axis=1).tolist(), strict=True):
            bad += truth != "white" and result.names[k] == "white" and result.confidence[k] >= 0.5
    return bad, read


def test_glare_washed_coloured_stickers_are_never_sure_whites():
    seeds = range(1, 21)
    bad, read = _confident_false_whites(Tunables(), seeds)
    blind, _ = _confident_false_whites(Tunables(), seeds, glare_share=False)
    before, _ = _confident_false_whites(OFF, seeds, glare_share=False)
    # Measured on these 20 renders (19 read): 0; 4 without the glare share (centres clipped white, read as a logo's
    # grey; stickers clipped over a third), 16 without any of the face-wide rules either.
    assert read >= 15
    assert bad == 0 and blind >= 2 and before >= 10


def test_glare_on_other_renders_leaves_no_sure_false_white_and_needs_the_glare_share():
    seeds = range(21, 61)  # tuning seeds beyond the ones above
    bad, read = _confident_false_whites(Tunables(), seeds)
    blind, _ = _confident_false_whites(Tunables(), seeds, glare_share=False)
    # Measured: 0 on 40 faces (40 read); 3 without the glare share.
    assert read >= 30 and bad == 0 and blind >= 2



def test_a_pale_spot_below_clipping_is_no_sure_white_and_leaves_the_true_whites_sure():
    # tests/physcam glared faces (bench/glare_whites.py's kind: easy scene, the lamp's spot 1.5-3x white): the
    # camera's auto-exposure keeps the spot below clipping, so a coloured sticker under it is pale all over, neither
    # clipped nor washed; only its falloff inside the sticker (brighter and of another chromaticity) tells.
    from glare_whites import glared_reads

    tun = Tunables()
    bad = unpaled_bad = sure = unpaled_sure = whites = read = 0
    for measured, truths in glared_reads("physcam", range(301, 341), tun):  # tuning seeds not used elsewhere
        read += 1
        told = classify_face(measured.rgb, DEFAULT_PALETTE, tun, glare=measured.glare)
        unpaled = classify_face(measured.rgb, DEFAULT_PALETTE, tun,
                                glare=np.maximum(measured.clipped, measured.washed))
        for truth, k in truths:
            named, was = told.names[k] == "white" and told.confidence[k] >= 0.5, (
                unpaled.names[k] == "white" and unpaled.confidence[k] >= 0.5)
            whites += truth == "white"
            sure += truth == "white" and named
            unpaled_sure += truth == "white" and was
            bad += truth != "white" and named
            unpaled_bad += truth != "white" and was
    # Measured on these 40 renders (37 read, 56 true whites): 10 sure false whites, 23 unpaled (main: 23); true
    # whites sure 40, 34 unpaled (main: 34).
    assert read >= 35
    assert bad <= 12 and unpaled_bad >= bad + 10
    assert sure >= unpaled_sure + 3


def test_a_pale_red_far_redder_than_the_faces_other_warm_stickers_is_red():
    # tests/physcam medium faces (tuning seeds, as bench/live_colours.py renders them): one red paler than the
    # face's other reds or oranges (light-fitted chroma 21-45 against 55-80), too pale to place the red/orange gap
    # but 5-56 degrees of hue redder than all of them; CIEDE2000 alone names it orange (as main did).
    from live_colours import rendered_read

    for seed in (6, 29, 177, 190):
        _, _, _, _, measured, truth = rendered_read(("physcam", "physcam", "tuning", seed))
        assert measured is not None  # found in place
        assert classify_face(measured.rgb, DEFAULT_PALETTE).names == truth, seed


def test_a_webcams_dark_yellows_are_yellow_and_its_oranges_orange():
    # dwalton76's webcam scans (tests/data, MIT): its yellows measure 5-8x darker than its whites (L 41-52, hue
    # 79-95), so CIEDE2000 names them orange; so named they joined the face's reds and oranges, whose widest hue gap
    # then fell below them and named the oranges red. Told by hue at the palette's orange/yellow midpoint (78).
    from live_colours import real_sessions

    off = dataclasses.replace(Tunables(), classify_yellow_hue_chroma=np.inf)
    scans = real_sessions(Tunables())
    fixed = 0
    for name, faces in ((n, f) for n, f in scans.items() if n.startswith("scan")):
        for rgb, truth in faces:
            now = classify_face(rgb, DEFAULT_PALETTE).names
            before = classify_face(rgb, DEFAULT_PALETTE, off).names
            right_now, right_before = now == tuple(truth), before == tuple(truth)
            assert right_now or not right_before, name  # no face read right before is read wrong now
            fixed += right_now and not right_before
    assert fixed == 9  # of the 60 faces (three cubes from the darkest scans: random-02, -03, -05)
    assert abs(DEFAULT_PALETTE.yellow_boundary - 78.3) < 0.1  # midway between the palette's orange and yellow


@pytest.mark.parametrize("rgb", [
    # tests/synth hard faces (tuning seed 62, standard and dark palettes: dim, under a warm lamp, no white on them)
    [[162, 62, 2], [3, 87, 25], [135, 7, 8], [8, 39, 77], [1, 87, 24], [135, 4, 4], [158, 112, 3], [0, 89, 25],
     [168, 115, 8]],
    [[138, 44, 3], [8, 61, 17], [106, 6, 5], [15, 25, 50], [12, 59, 15], [103, 3, 3], [142, 98, 6], [5, 62, 20],
     [151, 103, 5]],
])
def test_a_dim_faces_yellows_far_above_its_orange_are_yellow(rgb):
    # Its yellows lie at 77-78 degrees of hue, short of the palette's orange/yellow midpoint (78.3), its orange at
    # 46-52: CIEDE2000 named the dark yellows orange. On one face the yellower side of a wide gap is yellow.
    truth = ("orange", "green", "red", "blue", "green", "red", "yellow", "green", "yellow")
    assert classify_face(np.array(rgb, float), DEFAULT_PALETTE).names == truth
    off = dataclasses.replace(Tunables(), classify_yellow_gap=np.inf)
    assert classify_face(np.array(rgb, float), DEFAULT_PALETTE, off).names != truth


@pytest.mark.parametrize("palette", ["close_red_orange", "dark"])
def test_a_glare_hit_red_is_not_named_orange_by_the_glare_of_a_tinted_lamp(palette):
    # tests/synth medium faces (tuning seed 11, as bench/live_colours.py renders them): a red with its glare
    # (glare share 1.0, sRGB ~(180, 116, 112)) beside two whites that show the lamp's slight tint. Its glare removed
    # as white, its hue lies on the orange side of the face's red/orange gap; removed as the whites' colour, red.
    # The two ways disagree, so it is shown unsure.
    from live_colours import rendered_read

    _, _, _, _, measured, truth = rendered_read(("synth", palette, "tuning", 11))
    assert measured is not None and measured.glare[1] > 0.9 and truth[1] == "red"
    named = classify_face(measured.rgb, DEFAULT_PALETTE, glare=measured.glare, spot=measured.spot,
                          spread=measured.spread)
    assert named.names == truth
    assert named.confidence[1] < 0.5
    unmeasured = classify_face(measured.rgb, DEFAULT_PALETTE, spot=measured.spot, spread=measured.spread)
    assert unmeasured.names[1] == "orange"  # without the glare share, as before
