"""Solving many 2x2s at once: the whole pipeline (read corners, validate, normalise, descend, verify) in numpy.

Same answers as ``PocketSolver.solve`` in the half-turn metric, for cubes given in face letters (U R F D L B).
Any cube this path cannot take (other letters, wrong length, impossible) goes through ``PocketSolver.solve``
one at a time, which names its problems.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from qbr.cube.conventions import CORNER_NAMES, FACES
from qbr.cube.moves import ALL_FACE_MOVES, facelet_permutation, sequence_permutation
from qbr.cube.pocket.conventions import CORNER_FACELETS, FACELET_COUNT, REFERENCE_CORNER, SIZE, STICKERS_PER_FACE
from qbr.cube.rotations import conjugate, orientations
from qbr.solve.errors import SolveError
from qbr.solve.pocket.coordinates import MOVES, POSITIONS, TWISTS
from qbr.solve.pocket.search import descend_many
from qbr.solve.pocket.solver import PocketSolution, PocketSolver

_NONE = -1


@functools.cache
def _tables() -> dict[str, np.ndarray]:
    """Lookup arrays: letter byte -> face, three faces -> piece*3+twist, sticker -> rotation, move permutations."""
    letter = np.full(256, len(FACES), dtype=np.int64)
    for i, face in enumerate(FACES):
        letter[ord(face)] = i
    corner = np.full(7**3, _NONE, dtype=np.int64)
    for piece, name in enumerate(CORNER_NAMES):
        faces = [FACES.index(f) for f in name]
        for twist in range(3):
            # Twist t: the piece's U/D sticker shows at index t of the position's facelets, the rest clockwise.
            shown = [faces[(k - twist) % 3] for k in range(3)]
            corner[(shown[0] * 7 + shown[1]) * 7 + shown[2]] = 3 * piece + twist
    rotations = orientations()
    target = CORNER_FACELETS[REFERENCE_CORNER][0]
    by_sticker = np.zeros(FACELET_COUNT, dtype=np.int64)
    for r, rotation in enumerate(rotations):
        by_sticker[sequence_permutation(rotation, SIZE)[target]] = r
    rotation_perm = np.array([sequence_permutation(r, SIZE) for r in rotations], dtype=np.int64)
    move_perm = np.array([facelet_permutation(m, SIZE) for m in MOVES] + [tuple(range(FACELET_COUNT))])
    user = np.array([[ALL_FACE_MOVES.index(conjugate(r, m)) for m in MOVES] for r in rotations], dtype=np.int64)
    rank = np.full(8, _NONE, dtype=np.int64)
    rank[list(POSITIONS)] = np.arange(len(POSITIONS))
    return {"letter": letter, "corner": corner, "by_sticker": by_sticker, "rotation_perm": rotation_perm,
            "move_perm": move_perm, "user": user, "rank": rank}


def _corners(faces: np.ndarray) -> np.ndarray:
    """``(N, 8)`` piece*3+twist at each corner position, -1 where no real corner shows."""
    shown = faces[:, np.array(CORNER_FACELETS)]
    return _tables()["corner"][(shown[..., 0] * 7 + shown[..., 1]) * 7 + shown[..., 2]]


def _valid(corners: np.ndarray) -> np.ndarray:
    pieces = corners // 3
    every_piece = (np.sort(pieces, axis=1) == np.arange(8)).all(axis=1)
    return every_piece & (corners >= 0).all(axis=1) & ((corners % 3).sum(axis=1) % 3 == 0)


def _coordinates(corners: np.ndarray) -> np.ndarray:
    """State index of normalised corners (Lehmer rank of the seven pieces, base-3 twists)."""
    rank = _tables()["rank"]
    moving = corners[:, list(POSITIONS)]
    pieces = rank[moving // 3]
    twists = moving % 3
    n = pieces.shape[1]
    perm = np.zeros(len(corners), dtype=np.int64)
    for k in range(n - 1):
        perm = perm * (n - k) + (pieces[:, k + 1 :] < pieces[:, k : k + 1]).sum(axis=1)
    twist = twists[:, :-1] @ (3 ** np.arange(n - 2, -1, -1))
    return perm * TWISTS + twist


def solve_many(solver: PocketSolver, cubes: Sequence[str]) -> list[PocketSolution]:
    """Half-turn-optimal verified solutions of ``cubes``, in order; InvalidCubeError for the first impossible one."""
    tables = _tables()
    simple = [i for i, c in enumerate(cubes) if len(c) == FACELET_COUNT and c.isascii()]
    out: list[PocketSolution | None] = [None] * len(cubes)
    if simple:
        raw = np.frombuffer("".join(cubes[i] for i in simple).encode("ascii"), dtype=np.uint8)
        faces = tables["letter"][raw.reshape(len(simple), FACELET_COUNT)]
        corners = _corners(faces)
        ok = _valid(corners) & (faces < len(FACES)).all(axis=1)
        rows = np.flatnonzero(ok)
        corners, faces = corners[rows], faces[rows]
        reference = np.argmax(corners // 3 == REFERENCE_CORNER, axis=1)
        twist = corners[np.arange(len(rows)), reference] % 3
        sticker = np.array(CORNER_FACELETS)[reference, twist]
        rotation = tables["by_sticker"][sticker]
        normal = np.take_along_axis(faces, tables["rotation_perm"][rotation], axis=1)
        columns = descend_many(solver.tables, _coordinates(_corners(normal)))
        # Verify on the facelet simulator: the moves must leave every face one colour.
        after = normal
        for step in range(columns.shape[1]):
            after = np.take_along_axis(after, tables["move_perm"][columns[:, step]], axis=1)
        by_face = after.reshape(len(rows), 6, STICKERS_PER_FACE)
        if not (by_face == by_face[:, :, :1]).all():
            raise SolveError("the batch 2x2 solver answered a sequence that does not solve its cube")
        user = tables["user"][rotation[:, None], np.maximum(columns, 0)]
        lengths = (columns >= 0).sum(axis=1)
        for row, index in enumerate(rows):
            moves = tuple(ALL_FACE_MOVES[m] for m in user[row, : lengths[row]])
            out[simple[index]] = PocketSolution(cubes[simple[index]], moves, "htm")
    return [s if s is not None else solver.solve(cubes[i]) for i, s in enumerate(out)]
