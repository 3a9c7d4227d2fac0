"""Checking a facelet string is a cube a person could hold, and saying precisely what is wrong if not.

``validate`` works in levels and stops after the first level that finds something, so it never
reports a consequence of an earlier problem: (1) length and characters, (2) colour counts and
centres, (3) pieces: impossible colour combinations and duplicates, then (4) corner twist, edge flip
and permutation parity. Within a level, every problem found is reported.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from qbr.cube.conventions import (
    CENTRES,
    CORNER_FACELETS,
    CORNER_NAMES,
    EDGE_FACELETS,
    EDGE_NAMES,
    FACES,
    STANDARD_SCHEME,
)
from qbr.cube.cubie import corner_at, edge_at, permutation_parity
from qbr.cube.errors import InvalidCubeError
from qbr.cube.state import CubeState


class ProblemKind(enum.StrEnum):
    """What is wrong; upper layers translate messages by kind using ``Problem.params``."""

    BAD_LENGTH = "bad_length"
    BAD_CHARACTERS = "bad_characters"
    COLOUR_COUNT = "colour_count"
    CENTRES = "centres"
    IMPOSSIBLE_CORNER = "impossible_corner"
    IMPOSSIBLE_EDGE = "impossible_edge"
    DUPLICATE_CORNER = "duplicate_corner"
    DUPLICATE_EDGE = "duplicate_edge"
    CORNER_TWIST = "corner_twist"
    EDGE_FLIP = "edge_flip"
    PARITY = "parity"
    COLOURS = "colours"  # measured colours that do not make out six colours of one cube (vision only)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a cube: an English ``message``, the facelet indices involved, and ``params``.

    ``params`` (all strings) per kind:

    - bad_length: ``count`` (letters given), ``expected`` ("54"; "24" for a 2x2).
    - bad_characters: ``character`` (as shown: "X", or "U+00A0" if invisible), ``count``,
      ``positions`` (1-based, comma-separated); ``any_letter`` "yes" where any letter may name a colour (2x2).
    - colour_count: ``colour``, ``face`` (the letter), ``count``, ``expected`` ("9"; "4" for a 2x2).
    - centres: ``face`` (whose centre), ``shows`` (letter there), ``shows_colour``, ``expected_colour``.
    - impossible_corner / impossible_edge: ``position`` (e.g. "URF"), ``colours`` ("white-green-white"),
      ``letters`` ("U-F-U"), ``mirror`` ("yes" for a mirror-image corner, else "no"; corners only).
    - duplicate_corner / duplicate_edge: ``piece`` (colours, e.g. "white-red-green"), ``letters`` ("U-R-F"),
      ``positions`` ("URF, DLF"), ``count``, ``missing`` (colours of the pieces nowhere on the cube, "; "-separated).
    - corner_twist: ``corner`` (the one twisted corner's position, or "" if it cannot be told),
      ``twist`` ("clockwise" or "counter-clockwise": how the corner is turned), ``fix`` (the opposite way).
    - edge_flip: ``edge`` (the one flipped edge's position, or "" if it cannot be told).
    - parity: none.
    """

    kind: ProblemKind
    message: str
    facelets: tuple[int, ...] = ()
    params: Mapping[str, str] = field(default_factory=dict)


_LETTERS = frozenset(FACES)


def normalise_letters(text: str) -> str:
    """Remove whitespace and upper-case; colour-letter strings ("WWW...") are relabelled by their centres."""
    letters = "".join(text.split()).upper()
    if set(letters) <= _LETTERS:
        return letters
    centres = [letters[i] for i in CENTRES] if len(letters) == 54 else []
    if len(set(letters)) == 6 and len(set(centres)) == 6:
        relabel = dict(zip(centres, FACES, strict=True))
        return "".join(relabel[c] for c in letters)
    return letters


def _names(colour_names: Mapping[str, str] | None) -> dict[str, str]:
    """Face letter -> colour name, falling back to the standard scheme for anything missing or odd."""
    names = dict(STANDARD_SCHEME)
    if colour_names:
        for face in FACES:
            value = colour_names.get(face)
            if isinstance(value, str) and value:
                names[face] = value
    return names


def _show_char(char: str) -> str:
    return char if char.isprintable() and not char.isspace() else f"U+{ord(char):04X}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _times(n: int) -> str:
    return {1: "once", 2: "twice", 3: "three times"}.get(n, f"{n} times")


def _surface_problems(facelets: str) -> list[Problem]:
    problems = []
    if len(facelets) != 54:
        problems.append(
            Problem(
                ProblemKind.BAD_LENGTH,
                f"got {_plural(len(facelets), 'letter')}: the cube has 54 stickers",
                params={"count": str(len(facelets)), "expected": "54"},
            )
        )
    where: dict[str, list[int]] = {}
    for i, char in enumerate(facelets):
        if char not in _LETTERS:
            where.setdefault(char, []).append(i)
    for char, positions in where.items():
        shown = _show_char(char)
        numbers = [str(i + 1) for i in positions]
        # Long runs of one bad character (pasted junk) are cut short in the message; params keep them all.
        listed = _join(numbers) if len(numbers) <= 8 else ", ".join(numbers[:6]) + f" and {len(numbers) - 6} more"
        problems.append(
            Problem(
                ProblemKind.BAD_CHARACTERS,
                f"'{shown}' at {'position' if len(numbers) == 1 else 'positions'} {listed} "
                "is not a face letter (use U R F D L B)",
                facelets=tuple(i for i in positions if i < 54),
                params={"character": shown, "count": str(len(positions)), "positions": ", ".join(numbers)},
            )
        )
    return problems


def _colour_problems(facelets: str, names: dict[str, str]) -> list[Problem]:
    problems = []
    counts = Counter(facelets)
    for face in FACES:
        if counts[face] != 9:
            problems.append(
                Problem(
                    ProblemKind.COLOUR_COUNT,
                    f"{names[face]} ({face}) appears {_plural(counts[face], 'time')}, not 9",
                    facelets=tuple(i for i, c in enumerate(facelets) if c == face) if counts[face] > 9 else (),
                    params={"colour": names[face], "face": face, "count": str(counts[face]), "expected": "9"},
                )
            )
    for face, index in zip(FACES, CENTRES, strict=True):
        shown = facelets[index]
        if shown != face:
            problems.append(
                Problem(
                    ProblemKind.CENTRES,
                    f"centre of {face} shows {shown} ({names[shown]}); it should be {face} ({names[face]})",
                    facelets=(index,),
                    params={
                        "face": face,
                        "shows": shown,
                        "shows_colour": names[shown],
                        "expected_colour": names[face],
                    },
                )
            )
    return problems


def _colours(letters: Iterable[str], names: dict[str, str]) -> str:
    return "-".join(names[c] for c in letters)


def piece_problems(
    facelets: str,
    names: dict[str, str],
    kind_impossible: ProblemKind,
    kind_duplicate: ProblemKind,
    piece_facelets: tuple[tuple[int, ...], ...],
    piece_names: tuple[str, ...],
    found: list[tuple[int, int] | None],
) -> list[Problem]:
    """Positions that show no real piece, and pieces that show at more than one position (any cube size)."""
    word = "corner" if kind_impossible is ProblemKind.IMPOSSIBLE_CORNER else "edge"
    problems = []
    for position, piece in enumerate(found):
        if piece is not None:
            continue
        letters = [facelets[i] for i in piece_facelets[position]]
        # A mirror-image corner has a real corner's three colours, but in the wrong order around it.
        mirror = word == "corner" and any(sorted(letters) == sorted(n) for n in piece_names)
        params = {
            "position": piece_names[position],
            "colours": _colours(letters, names),
            "letters": "-".join(letters),
        }
        message = f"{word} {piece_names[position]} shows {params['colours']} ({params['letters']})"
        if word == "corner":
            params["mirror"] = "yes" if mirror else "no"
            if mirror:
                message += ", a mirror image of a real corner: the colours go round it the wrong way"
            else:
                message += ", a combination no real corner has"
        else:
            message += ", a combination no real edge has"
        problems.append(Problem(kind_impossible, message, tuple(piece_facelets[position]), params))
    at: dict[int, list[int]] = {}
    for position, piece in enumerate(found):
        if piece is not None:
            at.setdefault(piece[0], []).append(position)
    missing = [_colours(piece_names[p], names) for p in range(len(piece_names)) if p not in at]
    for piece, positions in sorted(at.items()):
        if len(positions) < 2:
            continue
        where = [piece_names[p] for p in positions]
        colours = _colours(piece_names[piece], names)
        message = f"the {colours} {word} appears {_times(len(positions))}: at {_join(where)}"
        if missing:
            message += f" (missing: {', '.join(missing)})"
        problems.append(
            Problem(
                kind_duplicate,
                message,
                tuple(i for p in positions for i in piece_facelets[p]),
                {
                    "piece": colours,
                    "letters": "-".join(piece_names[piece]),
                    "positions": ", ".join(where),
                    "count": str(len(positions)),
                    "missing": "; ".join(missing),
                },
            )
        )
    return problems


def twist_problem(
    corners: list[tuple[int, int]], corner_facelets: tuple[tuple[int, ...], ...] = CORNER_FACELETS
) -> Problem | None:
    """The corner-twist problem of a complete set of corners, if their twists do not add up (any cube size)."""
    total = sum(twist for _, twist in corners) % 3
    if total == 0:
        return None
    twist, fix = ("clockwise", "counter-clockwise") if total == 1 else ("counter-clockwise", "clockwise")
    turned = [p for p, (_, t) in enumerate(corners) if t != 0]
    if len(turned) == 1:
        name = CORNER_NAMES[turned[0]]
        return Problem(
            ProblemKind.CORNER_TWIST,
            f"corner {name} is twisted {twist}: twist it {fix}",
            corner_facelets[turned[0]],
            {"corner": name, "twist": twist, "fix": fix},
        )
    return Problem(
        ProblemKind.CORNER_TWIST,
        f"one corner is twisted {twist}: twist one corner {fix}",
        (),
        {"corner": "", "twist": twist, "fix": fix},
    )


def _flip_problem(edges: list[tuple[int, int]]) -> Problem | None:
    if sum(flip for _, flip in edges) % 2 == 0:
        return None
    flipped = [p for p, (_, f) in enumerate(edges) if f]
    if len(flipped) == 1:
        name = EDGE_NAMES[flipped[0]]
        return Problem(
            ProblemKind.EDGE_FLIP, f"edge {name} is flipped: flip it", EDGE_FACELETS[flipped[0]], {"edge": name}
        )
    return Problem(ProblemKind.EDGE_FLIP, "one edge is flipped: flip one edge", (), {"edge": ""})


def validate(facelets: str, colour_names: Mapping[str, str] | None = None) -> list[Problem]:
    """Everything wrong with ``facelets`` at the most basic level that has problems; [] if it is a real cube."""
    if not isinstance(facelets, str):
        return [Problem(ProblemKind.BAD_CHARACTERS, "the cube must be given as text", params={})]
    names = _names(colour_names)
    problems = _surface_problems(facelets)
    if problems:
        return problems
    problems = _colour_problems(facelets, names)
    if problems:
        return problems
    corners = [corner_at(facelets, i) for i in range(8)]
    edges = [edge_at(facelets, i) for i in range(12)]
    problems = piece_problems(
        facelets,
        names,
        ProblemKind.IMPOSSIBLE_CORNER,
        ProblemKind.DUPLICATE_CORNER,
        CORNER_FACELETS,
        CORNER_NAMES,
        corners,
    )
    corners_ok = not problems
    edge_problems = piece_problems(
        facelets, names, ProblemKind.IMPOSSIBLE_EDGE, ProblemKind.DUPLICATE_EDGE, EDGE_FACELETS, EDGE_NAMES, edges
    )
    edges_ok = not edge_problems
    problems += edge_problems
    # Twist and flip still mean something for a complete set of one kind of piece; parity needs both.
    known_corners = [c for c in corners if c is not None]
    known_edges = [e for e in edges if e is not None]
    if corners_ok and (twist := twist_problem(known_corners)):
        problems.append(twist)
    if edges_ok and (flip := _flip_problem(known_edges)):
        problems.append(flip)
    if corners_ok and edges_ok:
        cp = [c for c, _ in known_corners]
        ep = [e for e, _ in known_edges]
        if permutation_parity(cp) != permutation_parity(ep):
            problems.append(
                Problem(ProblemKind.PARITY, "two pieces are swapped: swap two edges or two corners back", (), {})
            )
    return problems


def require_valid(facelets: str, colour_names: Mapping[str, str] | None = None) -> CubeState:
    """The normalised cube, or ``InvalidCubeError`` listing every problem found."""
    letters = normalise_letters(facelets)
    problems = validate(letters, colour_names)
    if problems:
        raise InvalidCubeError(problems)
    return CubeState(letters)
