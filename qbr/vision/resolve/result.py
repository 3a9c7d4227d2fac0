"""The outcome of resolution, for both sizes: the facelets, whether they are a real cube, confidence and doubt."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from qbr.cube.conventions import FACES
from qbr.cube.validate import Problem
from qbr.vision.resolve.measured import unreadable_problem
from qbr.vision.tunables import Tunables


@dataclass(frozen=True)
class Resolution:
    """The resolved cube: facelets (``?`` where nothing usable was measured), whether it is a real cube, and doubt.

    ``confidence`` is per facelet in [0, 1]; ``uncertain`` lists the least certain facelets first;
    ``colour_names`` maps face letter -> colour name as guessed from the centres (for messages); ``doubt`` the
    stickers a nearly as likely real cube shows otherwise and the face to show again; ``turned`` the faces whose
    photos were turned (face letter -> quarter turns clockwise), read turned back in ``facelets``; ``deduced`` the
    facelets not measured but following from the others (a 2x2x2's face not found: its corners' other stickers);
    ``placed`` the faces read from stickers given as another face (face letter -> the letter given), when the
    caller placed them by the pieces they show (``qbr.app.jobs.resolved_in_order``); ``unsettled`` the deduced
    facelets the other faces do not fix (another real cube, the same on every sticker seen, shows them otherwise:
    only the face never seen settles them).
    """

    facelets: str
    valid: bool
    problems: list[Problem]
    confidence: NDArray[np.float64]
    uncertain: tuple[int, ...] = ()
    colour_names: dict[str, str] = field(default_factory=dict)
    least_certain_face: str | None = None
    doubt: Doubt | None = None
    turned: dict[str, int] = field(default_factory=dict)
    deduced: tuple[int, ...] = ()
    placed: dict[str, str] = field(default_factory=dict)
    unsettled: tuple[int, ...] = ()


@dataclass(frozen=True)
class Doubt:
    """Stickers another real cube nearly as likely shows in other colours, and the face best shown again."""

    stickers: tuple[int, ...]
    face: str | None  # None when no one face would settle it (e.g. the centres do not tell the colours apart)


def resolution(
    facelets: str,
    problems: list[Problem],
    confidence: NDArray[np.float64],
    uncertain: tuple[int, ...],
    names: dict[str, str],
    *,
    least_certain_face: str | None = None,
    doubt: Doubt | None = None,
    turned: dict[str, int] | None = None,
    deduced: tuple[int, ...] = (),
    unsettled: tuple[int, ...] = (),
) -> Resolution:
    """The resolution of either size: a real cube when nothing is wrong; the least certain face, unless given, is
    the face of the least certain sticker."""
    per_face = len(facelets) // len(FACES)
    if least_certain_face is None and uncertain:
        least_certain_face = FACES[uncertain[0] // per_face]
    return Resolution(facelets, not problems, problems, confidence, uncertain, names, least_certain_face, doubt,
                      turned or {}, deduced, unsettled=unsettled)


def unreadable(measured: NDArray[np.bool_], facelet_name: Callable[[int], str]) -> Resolution:
    """No cube at all: too little was measured to anchor the colours (the stickers not measured named)."""
    return Resolution("?" * len(measured), False, [unreadable_problem(~measured, facelet_name)],
                      np.zeros(len(measured)))


def least_certain(confidence: NDArray[np.float64], tunables: Tunables) -> tuple[int, ...]:
    """The facelets below ``resolve_uncertain_below``, least certain first (at most ``resolve_max_uncertain``)."""
    order = np.argsort(confidence, kind="stable")
    doubtful = [int(i) for i in order if confidence[i] < tunables.resolve_uncertain_below]
    return tuple(doubtful[: tunables.resolve_max_uncertain])
