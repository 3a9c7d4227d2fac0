"""What a partly scanned cube rules out, and the face held turned that it reveals (qbr/cube/partial.py)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from qbr.cube.conventions import FACES, SOLVED
from qbr.cube.generate import random_state
from qbr.cube.partial import UNKNOWN, impossible_pieces, turned_back, turned_face

EVIDENCE = 2


def turned_cw(stickers: str, k: int) -> str:
    """What the camera sees of a face held ``k`` quarter turns clockwise (the inverse of turned_back)."""
    for _ in range(k):
        stickers = "".join(stickers[r * 3 + c] for c in range(3) for r in range(2, -1, -1))
    return stickers


def known_only(facelets: str, faces: str) -> str:
    return "".join(ch if FACES[i // 9] in faces else UNKNOWN for i, ch in enumerate(facelets))


def test_turning_back_undoes_turning_and_keeps_the_centre() -> None:
    face = "abcdefghi"
    assert turned_cw(face, 1) == "gdahebifc"  # the left column becomes the top row
    for k in (1, 2, 3):
        assert turned_back(turned_cw(face, k), k) == face and turned_back(face, k)[4] == "e"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sets(st.sampled_from(FACES), min_size=1))
def test_a_real_cube_rules_nothing_out_however_little_is_known(seed: int, faces: set[str]) -> None:
    facelets = random_state(random.Random(seed)).facelets
    assert impossible_pieces(known_only(facelets, "".join(faces))) == 0


def test_a_solved_cube_has_no_impossible_piece_and_a_bad_one_is_counted() -> None:
    assert impossible_pieces(SOLVED) == 0
    white_white = "U" * 9 + "U" + SOLVED[10:]  # R1 white beside U9 white: that corner clashes
    assert impossible_pieces(white_white) >= 1
    twin = list(SOLVED)
    twin[9 + 1] = "F"  # the U-R edge shows white-green: a real edge, but the U-F edge is that one already
    assert impossible_pieces("".join(twin)) == 1


def test_a_mirror_image_corner_is_impossible() -> None:
    # URF read as U, F, R clockwise: those colours exist together, but only the other way round.
    facelets = list(SOLVED)
    facelets[9 + 0], facelets[18 + 2] = "F", "R"  # R1 shows green, F3 shows red
    assert impossible_pieces("".join(facelets)) >= 1


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(FACES), st.integers(1, 3))
def test_a_face_held_turned_among_its_four_neighbours_is_caught(seed: int, face: str, k: int) -> None:
    facelets = random_state(random.Random(seed)).facelets
    start = 9 * FACES.index(face)
    seen = facelets[:start] + turned_cw(facelets[start : start + 9], k) + facelets[start + 9 :]
    found = turned_face(seen, face, EVIDENCE)
    assert found in (k, None)  # never a wrong turn
    if found is None:
        # Only when turning could not be told apart: another turn also fits, or the turn harms no piece.
        others = [j for j in (1, 2, 3) if impossible_pieces(
            seen[:start] + turned_back(seen[start : start + 9], j) + seen[start + 9 :]) == 0]
        assert len(others) > 1 or impossible_pieces(seen) < EVIDENCE


def test_most_turned_faces_are_caught_once_the_side_faces_are_known() -> None:
    caught = total = 0
    rng = random.Random(3)
    for _ in range(200):
        facelets = random_state(rng).facelets
        k = rng.choice((1, 2, 3))
        partial = known_only(facelets, "FRBLU")  # the usual order: the sides, then the top, held turned
        seen = partial[:0] + turned_cw(partial[0:9], k) + partial[9:]
        total += 1
        caught += turned_face(seen, "U", EVIDENCE) == k
    assert caught / total > 0.95


def test_a_face_held_upright_is_left_alone() -> None:
    rng = random.Random(5)
    for _ in range(200):
        facelets = random_state(rng).facelets
        assert turned_face(known_only(facelets, "FRU"), "U", EVIDENCE) is None
