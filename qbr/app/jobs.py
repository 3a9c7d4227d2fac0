"""The slow work of a cube: name its colours and solve it (run off the UI thread by the window loop)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import numpy as np

from qbr.cube.conventions import FACES
from qbr.cube.errors import InvalidCubeError, QbrError

if TYPE_CHECKING:
    from qbr.app.session.effects import ResolveCube
    from qbr.solve.pocket.solver import PocketSolution
    from qbr.solve.solver import Solution
    from qbr.vision.palette import Palette
    from qbr.vision.resolve import Resolution


def cube_size(rgb_by_face: Mapping[str, np.ndarray]) -> int:
    """2 when every face measured four stickers (a 2x2x2), else 3: the size is in the data."""
    faces = [np.asarray(v) for v in rgb_by_face.values()]
    return 2 if faces and all(v.ndim == 2 and v.shape[0] == 4 for v in faces) else 3


def resolve_and_solve(
    rgb_by_face: Mapping[str, np.ndarray], palette: Palette | None, budget: float = 0.0, any_order: bool = False,
    on_progress: Callable[[int], None] | None = None, trust: Mapping[str, np.ndarray] | None = None,
) -> tuple[Resolution, Solution | PocketSolution | None, QbrError | None]:
    """Resolve the measured colours into a cube and solve it; an invalid cube is an error value, never raised.

    A 2x2x2 (four stickers a face) gets its optimal solution; ``budget`` only matters for a 3x3x3. ``any_order``:
    a 2x2x2's faces may have been shown in another order than their letters say (scanned live). ``on_progress``
    is called (from this thread) with the length of each shorter solution a budgeted 3x3x3 search finds. ``trust``
    (face -> per-sticker 0..1, see ``resolve_cube``) weighs a 3x3x3's stickers a glare spot lit less.
    """
    rgb = {f: np.asarray(v, dtype=float) for f, v in rgb_by_face.items()}
    size = cube_size(rgb)
    if size == 2:
        from qbr.vision.resolve import resolve_pocket, resolve_pocket_any_order

        resolution = (resolve_pocket_any_order if any_order else resolve_pocket)(rgb, palette=palette)
    else:
        from qbr.vision.resolve import resolve_cube

        resolution = resolve_cube(rgb, palette=palette, trust=trust)
    if not resolution.valid:
        return resolution, None, InvalidCubeError(resolution.problems)
    try:
        return resolution, _solve(size, resolution, budget, on_progress), None
    except QbrError as error:
        return resolution, None, error


def resolved_in_order(
    rgb: Mapping[str, np.ndarray], palette: Palette | None, budget: float,
    trust: Mapping[str, np.ndarray] | None = None, on_progress: Callable[[int], None] | None = None,
) -> tuple[tuple[Resolution, Solution | PocketSolution | None, QbrError | None], dict[str, str] | None]:
    """The cube as the faces were given or, if one placement of them by their centres stands out and reads a
    real cube more surely, as placed; and the placement used (face -> the given face put there; None: as given)."""
    from qbr.app.photo_order import best_placement

    first = resolve_and_solve(rgb, palette, budget, trust=trust, on_progress=on_progress)
    if any(len(v) != 9 for v in rgb.values()) or len(rgb) != len(FACES):
        return first, None  # a 2x2x2, or a face lost: no six centres to place faces by
    placed = best_placement(rgb)
    if placed is None:
        return first, None
    moved = None if trust is None else {face: trust[photo] for face, photo in placed.items() if photo in trust}
    again = resolve_and_solve({face: rgb[photo] for face, photo in placed.items()}, palette, budget, trust=moved,
                              on_progress=on_progress)
    # The given order may still give some real cube, forced by repairs and far less sure: the surer one wins.
    if again[2] is None and (first[2] is not None or _sureness(again[0]) > _sureness(first[0])):
        return again, placed
    return first, None


def _sureness(resolution: Resolution) -> float:
    return float(np.mean(resolution.confidence)) if len(resolution.confidence) else 0.0


def resolve_effect(
    effect: ResolveCube, budget: float = 0.0, on_progress: Callable[[int], None] | None = None
) -> tuple[Resolution, Solution | PocketSolution | None, QbrError | None]:
    """The session's ResolveCube carried out (the window's and headless mode's alike): its faces, palette, order
    and trust; faces placed by their centres' names may be placed again by the pieces they show."""
    if not effect.placeable:
        return resolve_and_solve(effect.rgb, effect.palette, budget, any_order=effect.any_order,
                                 on_progress=on_progress, trust=effect.trust)
    (resolution, solution, error), placed = resolved_in_order(effect.rgb, effect.palette, budget, effect.trust,
                                                              on_progress)
    moved = {face: given for face, given in (placed or {}).items() if face != given}
    return (dataclasses.replace(resolution, placed=moved) if moved else resolution), solution, error


def solve_facelets(
    facelets: str, colour_names: Mapping[str, str], size: int, budget: float = 0.0,
    on_progress: Callable[[int], None] | None = None,
) -> tuple[Resolution, Solution | PocketSolution | None, QbrError | None]:
    """Validate and solve a cube fixed by hand (face letters, ``colour_names`` naming each face's colour).

    The answer has the shape of ``resolve_and_solve``'s: a Resolution that is certain of every sticker (the user
    set them), the solution, or the problems as an error value.
    """
    from qbr.vision.resolve.result import resolution as resolved

    names = dict(colour_names)
    if size == 2:
        from qbr.cube.pocket.validate import validate as validate_pocket

        problems = validate_pocket(facelets, names)
    else:
        from qbr.cube.validate import validate

        problems = validate(facelets, names)
    resolution = resolved(facelets, problems, np.ones(len(facelets)), (), names)  # the user set every sticker
    if problems:
        return resolution, None, InvalidCubeError(problems)
    try:
        return resolution, _solve(size, resolution, budget, on_progress), None
    except QbrError as error:
        return resolution, None, error


def _solve(
    size: int, resolution: Resolution, budget: float, on_progress: Callable[[int], None] | None
) -> Solution | PocketSolution:
    if size == 2:
        from qbr.solve.pocket.solver import PocketSolver

        # The tables take about half a second to build; this runs off the UI thread, once per cube.
        return PocketSolver.build().solve(resolution.facelets, colour_names=resolution.colour_names)
    from qbr.solve.solver import solve

    progress = None if on_progress is None else (lambda found: on_progress(found.length_htm))
    return solve(resolution.facelets, budget=budget, on_progress=progress)
