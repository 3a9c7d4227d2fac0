"""A face's colour names as a session test shows it, read off a cube's facelets (either size)."""

from qbr.cube.conventions import FACES, STANDARD_SCHEME


def face_colours(face: str, facelets: str) -> tuple[str, ...]:
    """The colour names of ``face``'s stickers in ``facelets`` (URFDLB, 9 or 4 a face), standard scheme."""
    n = len(facelets) // 6
    return tuple(STANDARD_SCHEME[c] for c in facelets[n * FACES.index(face): n * FACES.index(face) + n])
