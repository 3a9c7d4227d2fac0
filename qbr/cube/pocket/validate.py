"""Checking 24 letters are a 2x2 a person could hold, and saying precisely what is wrong if not.

Levels, as for the 3x3 (``qbr.cube.validate``), stopping after the first that finds something: (1) length
and characters, (2) colour counts (six colours, four stickers each), (3) corners: impossible colour
combinations and duplicates, (4) twist. A 2x2 has no centres and no parity to check. Any six letters may
name the colours (``pocket.letters`` names them as faces); problems name positions of the cube as given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from qbr.cube.conventions import CORNER_NAMES, FACES, STANDARD_SCHEME
from qbr.cube.errors import InvalidCubeError
from qbr.cube.pocket.conventions import CORNER_FACELETS, FACELET_COUNT, STICKERS_PER_FACE
from qbr.cube.pocket.cubie import pocket_corner_at
from qbr.cube.pocket.letters import COLOUR_INITIALS, Lettering, clean, face_letters
from qbr.cube.validate import Problem, ProblemKind, piece_problems, twist_problem


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _show_char(char: str) -> str:
    return char if char.isprintable() and not char.isspace() else f"U+{ord(char):04X}"


def _is_letter(char: str) -> bool:
    return char.isascii() and char.isalpha()


def _surface_problems(letters: str) -> list[Problem]:
    problems = []
    if len(letters) != FACELET_COUNT:
        problems.append(
            Problem(
                ProblemKind.BAD_LENGTH,
                f"got {_plural(len(letters), 'letter')}: the 2x2 has {FACELET_COUNT} stickers",
                params={"count": str(len(letters)), "expected": str(FACELET_COUNT)},
            )
        )
    where: dict[str, list[int]] = {}
    for i, char in enumerate(letters):
        if not _is_letter(char):
            where.setdefault(char, []).append(i)
    for char, positions in where.items():
        shown = _show_char(char)
        numbers = ", ".join(str(i + 1) for i in positions)
        problems.append(
            Problem(
                ProblemKind.BAD_CHARACTERS,
                f"'{shown}' at {'position' if len(positions) == 1 else 'positions'} {numbers} is not a letter "
                "(name each colour by a letter)",
                facelets=tuple(i for i in positions if i < FACELET_COUNT),
                params={"character": shown, "count": str(len(positions)), "positions": numbers, "any_letter": "yes"},
            )
        )
    return problems


def _colour_name(letter: str) -> str:
    if letter in STANDARD_SCHEME:
        return STANDARD_SCHEME[letter]
    if letter in COLOUR_INITIALS:
        return STANDARD_SCHEME[COLOUR_INITIALS[letter]]
    return letter


def _colour_problems(letters: str) -> list[Problem]:
    counts = Counter(letters)
    # Face letters or colour initials that do not appear at all are missing colours; other letters are counted.
    initials = {face: initial for initial, face in COLOUR_INITIALS.items()}
    if set(letters) <= set(FACES):
        shown = list(FACES)
    elif set(letters) <= set(COLOUR_INITIALS):
        shown = [initials[face] for face in FACES]
    else:
        shown = sorted(counts)
    problems = []
    for letter in shown:
        if counts[letter] != STICKERS_PER_FACE:
            name = _colour_name(letter)
            problems.append(
                Problem(
                    ProblemKind.COLOUR_COUNT,
                    f"{name} ({letter}) appears {_plural(counts[letter], 'time')}, not {STICKERS_PER_FACE}",
                    facelets=tuple(i for i, c in enumerate(letters) if c == letter)
                    if counts[letter] > STICKERS_PER_FACE
                    else (),
                    params={
                        "colour": name,
                        "face": letter,
                        "count": str(counts[letter]),
                        "expected": str(STICKERS_PER_FACE),
                    },
                )
            )
    return problems


def _names(lettering: Lettering, colour_names: Mapping[str, str] | None) -> dict[str, str]:
    names = dict(STANDARD_SCHEME)
    names.update(lettering.colour_names)
    for face in FACES:
        value = (colour_names or {}).get(face)
        if isinstance(value, str) and value:
            names[face] = value
    return names


def _checked(text: str, colour_names: Mapping[str, str] | None) -> tuple[list[Problem], Lettering | None]:
    """The problems of ``text``, and (if it got as far as the pieces) its face letters and colour names."""
    if not isinstance(text, str):
        return [Problem(ProblemKind.BAD_CHARACTERS, "the cube must be given as text", params={})], None
    letters = clean(text)
    problems = _surface_problems(letters) or _colour_problems(letters)
    if problems:
        return problems, None
    lettering = face_letters(letters)
    names = _names(lettering, colour_names)
    lettering = Lettering(lettering.letters, names)
    corners = [pocket_corner_at(lettering.letters, i) for i in range(8)]
    problems = piece_problems(
        lettering.letters,
        names,
        ProblemKind.IMPOSSIBLE_CORNER,
        ProblemKind.DUPLICATE_CORNER,
        CORNER_FACELETS,
        CORNER_NAMES,
        corners,
    )
    if problems:
        return problems, lettering
    twist = twist_problem([c for c in corners if c is not None], CORNER_FACELETS)
    return ([twist] if twist else []), lettering


def validate(text: str, colour_names: Mapping[str, str] | None = None) -> list[Problem]:
    """Everything wrong with the 2x2 ``text`` at the most basic level that has problems; [] if it is a real cube.

    ``colour_names`` (face letter -> colour name) words the messages; by default the names the letters imply.
    """
    return _checked(text, colour_names)[0]


def require_valid(text: str, colour_names: Mapping[str, str] | None = None) -> Lettering:
    """The cube in face letters (and what each face's colour is called), or ``InvalidCubeError`` listing problems."""
    problems, lettering = _checked(text, colour_names)
    if problems or lettering is None:
        raise InvalidCubeError(problems)
    return lettering
