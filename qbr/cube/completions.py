"""Whether the other five faces fix a face never seen: the real cubes its hidden edge stickers could complete.

The lost face's corners show two stickers each on the faces beside it, which name the corner (the cyclic order of
its colours tells it from its mirror image) and its twist, so their third stickers follow. An edge shows only one:
the edges left over are placed by the colours they show, the cube's flip and its permutation parity, which do not
always decide between two leftover edges that show the same colour (about one random cube in eight, by face).
"""

from __future__ import annotations

from itertools import permutations

from qbr.cube.conventions import FACES
from qbr.cube.validate import validate

_EDGE_SPOTS = (1, 3, 5, 7)
"""A face's edge stickers (row-major, the centre at 4)."""


def unsettled_stickers(facelets: str, face: str) -> tuple[int, ...]:
    """The facelets of ``face``'s edge stickers that another real cube, the same on every other sticker, shows in
    other colours: empty when the other five faces fix ``face`` (or ``facelets`` is not a real cube)."""
    if validate(facelets):
        return ()
    spots = [9 * FACES.index(face) + k for k in _EDGE_SPOTS]
    hidden = [facelets[i] for i in spots]
    # Every colour is on nine stickers: the hidden ones are the colours the other stickers leave, in some order.
    differ: set[int] = set()
    cells = list(facelets)
    for order in set(permutations(hidden)):
        if list(order) == hidden:
            continue
        for i, colour in zip(spots, order, strict=True):
            cells[i] = colour
        if not validate("".join(cells)):
            differ.update(i for i, colour in zip(spots, order, strict=True) if facelets[i] != colour)
    return tuple(sorted(differ))
