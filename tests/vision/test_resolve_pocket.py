"""2x2 colour resolution against the real 2x2 scans, augmented copies, rendered palettes and garbage."""

import itertools
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import qbr.vision.resolve.pocket_search as rp
from qbr.cube.conventions import FACES, STANDARD_SCHEME
from qbr.cube.pocket.conventions import CORNER_FACELETS, REFERENCE_CORNER
from qbr.cube.pocket.validate import validate
from qbr.vision.resolve import resolve_pocket, resolve_pocket_any_order

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))

from pocket_resolve import augment, load, naive, palette_rgb, random_pocket_facelets, same_cube  # noqa: E402
from synth.palettes import PALETTES  # noqa: E402

DATA = ROOT / "tests" / "data"
SCANS = load(DATA)
SOLVED = "".join(face * 4 for face in FACES)


def test_there_is_real_data_to_test_on():
    assert len(SCANS) == 6  # five colour scans and the photo set's measured colours


@pytest.mark.parametrize(("name", "rgb", "expected"), SCANS, ids=[s[0] for s in SCANS])
def test_real_scans_resolve_to_the_same_cube(name, rgb, expected):
    result = resolve_pocket(rgb)
    assert same_cube(result.facelets, expected), name
    assert result.valid and result.problems == [] and validate(result.facelets) == []
    assert result.confidence.shape == (24,) and ((result.confidence >= 0) & (result.confidence <= 1)).all()
    # The DBL corner names D, B and L; the colour names follow the letters one-to-one as the scans' scheme says.
    assert [result.facelets[i] for i in CORNER_FACELETS[REFERENCE_CORNER]] == ["D", "B", "L"]
    relabel = dict(zip(result.facelets, expected, strict=True))
    assert {face: STANDARD_SCHEME[relabel[face]] for face in FACES} == result.colour_names


def test_the_real_scans_are_hard_for_sticker_by_sticker_naming():
    assert not any(same_cube(naive(rgb), expected) for _, rgb, expected in SCANS)


@pytest.mark.parametrize("strength", ["medium", "strong"])
def test_augmented_real_scans_resolve_exactly(strength):
    rng = np.random.default_rng(7)
    for name, rgb, expected in SCANS:
        for k in range(6):
            result = resolve_pocket(augment(rgb, rng, strength))
            assert same_cube(result.facelets, expected) and result.valid, (name, k)


def test_random_colours_never_make_a_valid_cube():
    rng = np.random.default_rng(3)
    for k in range(12):
        result = resolve_pocket({face: rng.uniform(0, 255, (4, 3)).tolist() for face in FACES})
        assert not result.valid and result.problems, k
        assert len(result.facelets) == 24 and validate(result.facelets), k


@pytest.mark.parametrize("palette", sorted(PALETTES))
def test_a_solved_cube_and_random_cubes_in_every_rendered_palette(palette):
    rng = np.random.default_rng(0)
    solved = resolve_pocket(palette_rgb(SOLVED, PALETTES[palette], rng, 0.0))
    assert solved.facelets == SOLVED and solved.valid and not solved.uncertain
    for k in range(4):
        facelets = random_pocket_facelets(random.Random(k))
        result = resolve_pocket(palette_rgb(facelets, PALETTES[palette], rng, 4.0))
        assert result.facelets == facelets and result.valid, k


def _brute_force(options: np.ndarray) -> float:
    """Every permutation of the seven free pieces, each with its cheapest twists summing to 0 (a DP mod 3)."""
    best = np.inf
    for perm in itertools.permutations(range(7)):
        reach = [0.0, np.inf, np.inf]
        for row in options[np.arange(7), list(perm)].tolist():
            reach = [min(reach[(t - o) % 3] + row[o] for o in range(3)) for t in range(3)]
        best = min(best, reach[0])
    return best


def test_the_exact_search_is_the_cheapest_arrangement_under_each_scheme():
    rng = np.random.default_rng(1)
    options, _ = rp.option_costs(rng.uniform(0, 30, (24, 6)))
    for scheme in (0, 333, 719):
        layers = rp.forward_layers(options[[scheme]])
        assert np.isclose(layers[-1][0, rp.FULL, 0], _brute_force(options[scheme]))


def test_the_cube_found_is_the_cheapest_real_cube_and_traced_back_right():
    rng = np.random.default_rng(2)
    cost = rng.uniform(0, 30, (24, 6))
    colours, scheme, total = rp.solve(cost)
    options, dbl = rp.option_costs(cost)
    everything = rp.forward_layers(options)[-1][:, rp.FULL, 0] + dbl
    assert np.isclose(total, everything.min()) and scheme == int(everything.argmin())
    assert np.isclose(cost[np.arange(24), colours].sum(), total)
    # And it is a real cube: each colour four times, read back through its own scheme.
    assert sorted(np.bincount(colours, minlength=6).tolist()) == [4] * 6


def test_a_sticker_between_colours_is_decided_by_its_piece_and_a_glare_sticker_is_repaired_and_flagged():
    rng = np.random.default_rng(0)
    for seed in range(6):
        facelets = random_pocket_facelets(random.Random(seed))
        rgb = palette_rgb(facelets, PALETTES["standard"], rng, 2.0)
        red = next(i for i, c in enumerate(facelets) if STANDARD_SCHEME[c] == "red")
        blue = next(i for i, c in enumerate(facelets) if STANDARD_SCHEME[c] == "blue")
        # Halfway between red and orange: the other two colours of its corner say which one it is.
        rgb[FACES[red // 4]][red % 4] = list(np.mean([PALETTES["standard"][c] for c in ("red", "orange")], axis=0))
        rgb[FACES[blue // 4]][blue % 4] = [250.0, 250.0, 250.0]  # glare: reads white
        result = resolve_pocket(rgb)
        assert result.facelets == facelets and result.valid, seed
        assert blue in result.uncertain and result.confidence[blue] == 0.0, seed


def test_one_unreadable_sticker_follows_from_its_corner_and_two_are_marked():
    _, rgb, expected = SCANS[1]
    rgb = {face: [list(v) for v in values] for face, values in rgb.items()}
    rgb["F"][2] = [float("nan")] * 3
    result = resolve_pocket(rgb)
    assert result.valid and same_cube(result.facelets, expected) and result.deduced == (10,)
    (corner,) = [c for c in CORNER_FACELETS if 10 in c]
    other = next(i for i in corner if i != 10)
    rgb[FACES[other // 4]][other % 4] = [float("nan")] * 3  # two of one corner: nothing left to tell its piece
    result = resolve_pocket(rgb)
    assert result.facelets[10] == result.facelets[other] == "?" and not result.valid and result.deduced == ()
    rest = [i for i in range(24) if i not in (10, other)]
    assert same_cube("".join(result.facelets[i] for i in rest), "".join(expected[i] for i in rest))


@pytest.mark.parametrize(("name", "rgb", "expected"), SCANS, ids=[s[0] for s in SCANS])
def test_a_face_not_found_follows_from_the_other_five(name, rgb, expected):
    # Each corner has two stickers on the other five faces: they fix its piece and twist, hence the third.
    for i, face in enumerate(FACES):
        five = {f: (np.full((4, 3), np.nan) if f == face else np.asarray(v, float)) for f, v in rgb.items()}
        result = resolve_pocket(five)
        assert result.valid and same_cube(result.facelets, expected), (name, face)
        assert result.deduced == tuple(range(4 * i, 4 * i + 4))
    for two in ("UD", "UF"):  # both colours may be seen nowhere else (a solved cube): not guessed
        result = resolve_pocket({f: (np.full((4, 3), np.nan) if f in two else np.asarray(v, float))
                                 for f, v in rgb.items()})
        assert not result.valid and result.deduced == () and result.facelets.count("?") == 8


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(FACES), st.sampled_from(sorted(PALETTES)))
def test_any_real_2x2_with_one_face_unseen_is_deduced_right(seed: int, face: str, palette: str):
    facelets = random_pocket_facelets(random.Random(seed))
    rgb = palette_rgb(facelets, PALETTES[palette], np.random.default_rng(seed), 4.0)
    rgb[face] = np.full((4, 3), np.nan).tolist()
    result = resolve_pocket(rgb)
    assert result.valid and same_cube(result.facelets, facelets)


@settings(max_examples=8, deadline=None)
@given(arrays(np.float64, (24, 3), elements=st.floats(-50, 300) | st.just(float("nan"))))
def test_any_input_resolves_without_raising(values):
    result = resolve_pocket({face: values[4 * i : 4 * i + 4] for i, face in enumerate(FACES)})
    assert len(result.facelets) == 24 and result.confidence.shape == (24,)


def test_missing_faces_give_problems_not_exceptions():
    result = resolve_pocket({"U": [[1, 2, 3]] * 4})
    assert not result.valid and result.facelets == "?" * 24 and result.problems


@pytest.mark.parametrize(("name", "rgb", "expected"), SCANS[1:2], ids=[s[0] for s in SCANS[1:2]])
def test_faces_shown_in_another_order_are_put_back_and_the_order_given_is_kept(name, rgb, expected):
    order = list(range(6))
    random.Random(name).shuffle(order)
    shuffled = {FACES[i]: rgb[FACES[j]] for i, j in enumerate(order)}
    result = resolve_pocket_any_order(shuffled)
    assert same_cube(result.facelets, expected) and result.valid, order
    kept = resolve_pocket_any_order(rgb)
    assert same_cube(kept.facelets, expected) and kept.valid
