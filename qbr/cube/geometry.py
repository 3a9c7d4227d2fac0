"""Where every sticker of an n x n x n cube sits in space, so moves and piece positions derive from geometry.

Coordinates: x to R, y to U, z to F. A sticker's point is its cubie's centre (odd or even integers
``2c - (n - 1)`` per axis) pushed one unit out along its face's normal, so every point is a distinct
integer triple and a face's stickers lie in the plane at distance ``n`` from the centre.
"""

from __future__ import annotations

import functools
from typing import Final

from qbr.cube.conventions import FACES

Point = tuple[int, int, int]

AXIS: Final[dict[str, Point]] = {
    "U": (0, 1, 0),
    "D": (0, -1, 0),
    "R": (1, 0, 0),
    "L": (-1, 0, 0),
    "F": (0, 0, 1),
    "B": (0, 0, -1),
}
"""Outward normal of each face."""


def _face_point(face: str, r: int, c: int, n: int) -> Point:
    """The point of ``face``'s sticker whose net row and column coordinates are ``r``, ``c`` (centred, step 2)."""
    return {
        "U": (c, n, r),
        "R": (n, -r, -c),
        "F": (c, -r, n),
        "D": (c, -n, -r),
        "L": (-n, -r, c),
        "B": (-c, -r, -n),
    }[face]


@functools.cache
def sticker_points(size: int) -> tuple[Point, ...]:
    """A 3D point per facelet of a ``size`` cube, in facelet-string order (URFDLB, each face row-major)."""
    if size < 2:
        raise ValueError(f"no cube of size {size}")
    points = []
    for face in FACES:
        for row in range(size):
            for col in range(size):
                points.append(_face_point(face, 2 * row - (size - 1), 2 * col - (size - 1), size))
    return tuple(points)


@functools.cache
def point_index(size: int) -> dict[Point, int]:
    """Facelet index of each sticker point of a ``size`` cube."""
    return {p: i for i, p in enumerate(sticker_points(size))}


def quarter_clockwise(axis: Point, v: Point) -> Point:
    """Rotate ``v`` a quarter turn clockwise as seen from the tip of ``axis`` (Rodrigues at -90 degrees)."""
    ax, ay, az = axis
    x, y, z = v
    cross = (ay * z - az * y, az * x - ax * z, ax * y - ay * x)
    dot = ax * x + ay * y + az * z
    return (-cross[0] + ax * dot, -cross[1] + ay * dot, -cross[2] + az * dot)


def along(axis: Point, point: Point) -> int:
    """How far ``point`` lies along ``axis`` (its dot product with it)."""
    return sum(a * p for a, p in zip(axis, point, strict=True))


def corner_facelets(size: int, names: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """Facelet indices of each named corner position of a ``size`` cube, in the order its name lists the faces.

    A corner cubie's centre is ``size - 1`` along each of its faces' axes; its sticker on a face lies one
    unit further out along that face's normal.
    """
    index = point_index(size)
    out = []
    for name in names:
        centre = [0, 0, 0]
        for face in name:
            centre = [c + (size - 1) * a for c, a in zip(centre, AXIS[face], strict=True)]
        stickers = []
        for face in name:
            x, y, z = (c + a for c, a in zip(centre, AXIS[face], strict=True))
            stickers.append(index[(x, y, z)])
        out.append(tuple(stickers))
    return tuple(out)
