"""A 3x3's pieces as index tables: which facelets each corner and edge position holds, and what each piece shows."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from qbr.cube.conventions import CENTRES, CORNER_FACELETS, CORNER_NAMES, EDGE_FACELETS, EDGE_NAMES, FACE_INDEX


def _option_colours(names: tuple[str, ...], size: int) -> NDArray[np.intp]:
    # [piece, orientation, slot] -> colour (face index) shown at that slot of the position; a piece's colour j
    # sits at slot (j + orientation) % size, the convention of qbr.cube.cubie.
    return np.array(
        [[[FACE_INDEX[name[(k - o) % size]] for k in range(size)] for o in range(size)] for name in names],
        dtype=np.intp,
    )


CORNER_SLOTS = np.array(CORNER_FACELETS, dtype=np.intp)
EDGE_SLOTS = np.array(EDGE_FACELETS, dtype=np.intp)
CORNER_COLOURS = _option_colours(CORNER_NAMES, 3)
EDGE_COLOURS = _option_colours(EDGE_NAMES, 2)
CENTRE_SLOTS = np.array(CENTRES, dtype=np.intp)
FACE_OF = np.repeat(np.arange(6), 9)
PIECE_FACELETS = np.setdiff1d(np.arange(54), CENTRE_SLOTS)


def option_costs(cost: NDArray[np.float64], slots: NDArray[np.intp], colours: NDArray[np.intp]) -> NDArray:
    """[position, piece, orientation] -> summed cost of the stickers the position would show."""
    return cost[slots[:, None, None, :], colours[None, :, :, :]].sum(axis=-1)
