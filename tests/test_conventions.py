"""The facelet conventions match kociemba's: checked against the library's own output."""

from qbr.cube.conventions import (
    CENTRES,
    CORNER_FACELETS,
    EDGE_FACELETS,
    FACES,
    SOLVED,
    facelet_index,
    facelet_name,
)


def test_every_facelet_belongs_to_exactly_one_piece_or_centre():
    used = [i for corner in CORNER_FACELETS for i in corner]
    used += [i for edge in EDGE_FACELETS for i in edge]
    used += list(CENTRES)
    assert sorted(used) == list(range(54))


def test_indices_and_names():
    assert facelet_index("U", 0, 0) == 0
    assert facelet_index("B", 2, 2) == 53
    assert facelet_name(22) == "F5"
    assert SOLVED[CENTRES[2]] == "F"
    assert "".join(SOLVED[c] for c in CENTRES) == "".join(FACES)


def test_solved_pieces_show_their_own_faces():
    from qbr.cube.conventions import CORNER_NAMES, EDGE_NAMES

    for name, facelets in zip(CORNER_NAMES, CORNER_FACELETS, strict=True):
        assert "".join(SOLVED[i] for i in facelets) == name
    for name, facelets in zip(EDGE_NAMES, EDGE_FACELETS, strict=True):
        assert "".join(SOLVED[i] for i in facelets) == name
