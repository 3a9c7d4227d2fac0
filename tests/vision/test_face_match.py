"""Face matching by colour: centres placed on their faces, distances that are zero only for the same colours."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from qbr.cube.conventions import FACES, STANDARD_SCHEME
from qbr.vision.face_match import assign_centres, centre_distances, face_distances
from qbr.vision.palette import COLOUR_NAMES, DEFAULT_PALETTE


def _to_colours(rgb: np.ndarray) -> np.ndarray:
    """CIEDE2000 of one sRGB colour to each palette colour, as a face's light fit would give a centre."""
    return np.array([centre_distances(rgb, [np.array(DEFAULT_PALETTE.colours[n], dtype=float)])[0]
                     for n in COLOUR_NAMES])


@given(st.permutations(FACES))
def test_palette_centres_in_any_order_go_to_their_faces(order):
    centres = [_to_colours(np.array(DEFAULT_PALETTE.colours[STANDARD_SCHEME[f]], dtype=float)) for f in order]
    names = [STANDARD_SCHEME[f] for f in order]
    assert assign_centres(centres, names, STANDARD_SCHEME, DEFAULT_PALETTE, 10.0) == list(order)


def test_the_centre_named_otherwise_gives_way():
    # Two centres that both measure white: the one the classifier named white gets the white face.
    white = np.array(DEFAULT_PALETTE.colours["white"], dtype=float)
    faces = assign_centres([_to_colours(white * 0.99), _to_colours(white)], ["yellow", "white"], STANDARD_SCHEME,
                           DEFAULT_PALETTE, 10.0)
    assert faces[1] == "U" and faces[0] != "U"


def test_more_centres_than_faces_is_refused():
    white = _to_colours(np.array(DEFAULT_PALETTE.colours["white"], dtype=float))
    with pytest.raises(ValueError):
        assign_centres([white] * 7, ["white"] * 7, STANDARD_SCHEME, DEFAULT_PALETTE, 10.0)


def test_distances_are_zero_for_the_same_colours_only():
    red = np.array(DEFAULT_PALETTE.colours["red"], dtype=float)
    blue = np.array(DEFAULT_PALETTE.colours["blue"], dtype=float)
    assert centre_distances(red, [red, blue]).tolist()[0] == pytest.approx(0.0, abs=1e-9)
    assert centre_distances(red, [blue])[0] > 30
    face = np.stack([red] * 4)
    other = face.copy()
    other[2] = blue  # one sticker differs: the face distance is that sticker's
    assert face_distances(face, [face, other]).tolist() == pytest.approx([0.0, centre_distances(red, [blue])[0]])
