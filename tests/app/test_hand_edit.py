"""Fixing a cube by hand: the editing model (cursor, colour keys, undo) and the net's hit-testing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qbr.app.edit_net import edit_net_geometry
from qbr.app.session.hand_edit import COLOUR_KEYS, HandEdit, net_cell, sticker_at_cell
from qbr.cube.conventions import FACES, SOLVED, facelet_index
from qbr.cube.pocket.conventions import facelet_index as pocket_facelet_index
from qbr.cube.state import CubeState

SCRAMBLED = CubeState.from_scramble("R U2 F' L D2 B R' U F2 D' L2 B'").facelets


def test_net_cells_follow_the_standard_net() -> None:
    # U1 above F's left column, L1 at the far left of the middle band, B9 at the bottom right of the band.
    assert net_cell(facelet_index("U", 0, 0), 3) == (3, 0)
    assert net_cell(facelet_index("L", 0, 0), 3) == (0, 3)
    assert net_cell(facelet_index("B", 2, 2), 3) == (11, 5)
    assert net_cell(facelet_index("D", 2, 2), 3) == (5, 8)
    assert net_cell(pocket_facelet_index("R", 1, 0), 2) == (4, 3)
    assert sticker_at_cell(0, 0, 3) is None  # left of U: no face there
    assert sticker_at_cell(12, 3, 3) is None


@pytest.mark.parametrize("size", [3, 2])
def test_every_sticker_has_one_cell(size: int) -> None:
    cells = [net_cell(i, size) for i in range(6 * size * size)]
    assert len(set(cells)) == len(cells)
    assert all(sticker_at_cell(c, r, size) == i for i, (c, r) in enumerate(cells))


@given(st.sampled_from([3, 2]), st.integers(0, 53), st.integers(320, 2000), st.integers(240, 1200))
def test_a_click_in_a_drawn_sticker_hits_that_sticker(size: int, index: int, width: int, height: int) -> None:
    index %= 6 * size * size
    geometry = edit_net_geometry(width, height, size)
    box = geometry.sticker_box(*net_cell(index, size))
    for fx, fy in ((0.5, 0.5), (0.1, 0.1), (0.9, 0.9)):
        assert geometry.sticker_at(box.x + fx * box.w, box.y + fy * box.h) == index
    assert geometry.x >= 0 and geometry.x + 4 * geometry.face <= width
    assert geometry.bottom <= 0.8 * height  # room below for a message and the key bar


@given(st.integers(320, 2000), st.integers(240, 1200))
def test_swatches_are_hit_and_never_overlap_the_net(width: int, height: int) -> None:
    geometry = edit_net_geometry(width, height, 3)
    for k in range(len(COLOUR_KEYS)):
        box = geometry.swatch_box(k)
        assert geometry.swatch_at(box.x + box.w / 2, box.y + box.h / 2) == k
        assert geometry.sticker_at(box.x + box.w / 2, box.y + box.h / 2) is None
        assert box.y > geometry.net_box().y + geometry.net_box().h
    assert geometry.sticker_at(geometry.x + 1, geometry.y + 1) is None  # the empty corner left of U
    assert geometry.swatch_at(0, 0) is None


@given(st.sampled_from([3, 2]), st.integers(0, 53), st.sampled_from([("left", "right"), ("up", "down")]))
def test_arrow_steps_undo_each_other_and_stay_on_faces(size: int, start: int, pair: tuple[str, str]) -> None:
    start %= 6 * size * size
    edit = HandEdit.start(SOLVED if size == 3 else "".join(f * 4 for f in FACES), size).select(start)
    there = edit.move(pair[0])
    assert there.cursor != start
    assert there.move(pair[1]).cursor == start


def test_arrows_cross_between_faces_as_the_net_joins_them() -> None:
    edit = HandEdit.start(SOLVED, 3)
    assert edit.select(facelet_index("F", 0, 1)).move("up").cursor == facelet_index("U", 2, 1)
    assert edit.select(facelet_index("F", 1, 2)).move("right").cursor == facelet_index("R", 1, 0)
    assert edit.select(facelet_index("B", 1, 2)).move("right").cursor == facelet_index("L", 1, 0)  # round the band
    assert edit.select(facelet_index("U", 0, 0)).move("left").cursor == facelet_index("U", 0, 2)  # nothing beside U
    assert edit.select(facelet_index("D", 2, 1)).move("down").cursor == facelet_index("U", 0, 1)


def test_colour_keys_change_the_cursor_sticker_and_undo_takes_it_back() -> None:
    edit = HandEdit.start(SCRAMBLED, 3).select(facelet_index("R", 0, 0))
    before = edit.facelets[edit.cursor]
    for key, face in zip(COLOUR_KEYS, FACES, strict=True):
        changed = edit.set_colour_key(key)
        assert changed.facelets[edit.cursor] == face
        assert changed.facelets[: edit.cursor] + changed.facelets[edit.cursor + 1 :] == \
            SCRAMBLED[: edit.cursor] + SCRAMBLED[edit.cursor + 1 :]
        assert changed.changed == (frozenset({edit.cursor}) if face != before else frozenset())
    two = edit.set_letter("U" if before != "U" else "D").select(0).set_letter("B" if SCRAMBLED[0] != "B" else "L")
    assert len(two.changed) == 2
    one = two.undo()
    assert one is not None and one.cursor == 0 and one.facelets[0] == SCRAMBLED[0] and len(one.changed) == 1
    none = one.undo()
    assert none is not None and none.cursor == facelet_index("R", 0, 0)
    assert none.facelets == SCRAMBLED and not none.changed
    assert none.undo() is None


def test_centres_of_a_3x3_name_their_faces_and_cannot_change() -> None:
    edit = HandEdit.start("?" * 54, 3)
    assert all(edit.facelets[9 * k + 4] == face for k, face in enumerate(FACES))
    centre = edit.select(facelet_index("F", 1, 1))
    assert not centre.editable() and centre.set_letter("U") == centre
    pocket = HandEdit.start("?" * 24, 2).select(3)  # a 2x2x2 has no centres: every sticker may change
    assert pocket.editable() and pocket.set_letter("U").facelets[3] == "U"


def test_review_puts_the_cursor_on_the_least_certain_sticker_and_forgets_fixed_ones() -> None:
    edit = HandEdit.start(SCRAMBLED, 3, review=(4, 30, 12))
    assert edit.review == (30, 12) and edit.cursor == 30  # a centre is never in doubt
    fixed = edit.set_letter("U" if SCRAMBLED[30] != "U" else "R")
    assert fixed.review == (12,)
    assert fixed.with_review((7, 13)).cursor == 7
    with pytest.raises(ValueError):
        HandEdit.start(SCRAMBLED[:53], 3)
    with pytest.raises(ValueError):
        edit.set_letter("W")
