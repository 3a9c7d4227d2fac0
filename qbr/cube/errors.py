"""Typed exceptions shared by every layer (the lowest layer defines them so all may raise them)."""

from __future__ import annotations


class QbrError(Exception):
    """Base of every error qbr reports to a user; ``kind`` is a stable machine-readable name."""

    kind: str = "error"


_SHOWN_CHARS = 80  # a message quotes the user's text only up to this long: the token and position say the rest


class MoveSyntaxError(QbrError, ValueError):
    """A move sequence contains a token that is not a move."""

    kind = "bad_move"

    def __init__(self, token: str, position: int, text: str) -> None:
        self.token = token
        self.position = position
        self.text = text
        shown_token = token if len(token) <= _SHOWN_CHARS else token[: _SHOWN_CHARS - 3] + "..."
        where = f' of "{text}"' if len(text) <= _SHOWN_CHARS else ""  # a 10,000-move scramble is not echoed
        super().__init__(
            f"'{shown_token}' at position {position + 1}{where} is not a move "
            "(use U R F D L B, optionally followed by ' or 2 or 2'; x y z rotate the cube)"
        )


class InvalidCubeError(QbrError, ValueError):
    """Facelets that no real cube can show; ``problems`` (from ``qbr.cube.validate``) say what and where."""

    kind = "invalid_cube"

    def __init__(self, problems: list) -> None:  # list[Problem]; typed loosely to avoid an import cycle
        self.problems = list(problems)
        if self.problems:
            # The first problem's kind is the most basic one found: that is what a machine reader switches on.
            self.kind = self.problems[0].kind.value
        super().__init__("; ".join(p.message for p in self.problems) or "invalid cube")
