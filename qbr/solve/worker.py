"""The child process of a budgeted solve: ever shorter kociemba solutions, printed as soon as each is found.

kociemba's search below its default depth can run for minutes inside C code that cannot be interrupted, so it
runs here, in a fresh interpreter (``python -m qbr.solve.worker FACELETS``) that the parent kills at its deadline.
A fresh interpreter rather than a fork: forking a process that runs GUI or camera threads can deadlock the child,
and multiprocessing's spawn would re-run the caller's main script.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Final

DONE: Final = "done"
"""The last line the worker prints when it stops by itself."""


def search_shorter(facelets: str, emit: Callable[[str], None], longest: int = 25) -> None:
    """Emit kociemba solutions of fewer than ``longest`` moves, each shorter than the last, until none is found."""
    import kociemba

    depth = longest - 1
    while depth >= 1:
        try:
            answer = kociemba.solve(facelets, max_depth=depth)
        except ValueError:
            return
        emit(answer)
        # The answer may be shorter than asked for: go on below its own length.
        depth = min(depth, len(answer.split())) - 1


def _exit_when_orphaned(seconds: float) -> None:
    """End this process when the parent closes our stdin (it died or is done) or after ``seconds``, whichever first."""

    def watch_stdin() -> None:
        sys.stdin.read()
        os._exit(0)

    # kociemba releases the GIL, so these threads run even while the search is deep in C.
    threading.Thread(target=watch_stdin, daemon=True).start()
    timer = threading.Timer(seconds, os._exit, args=(0,))
    timer.daemon = True
    timer.start()


def main(argv: Sequence[str]) -> int:
    """Entry point of the child: ``FACELETS SECONDS``; one solution per line, then ``done``."""
    facelets = argv[0]
    _exit_when_orphaned(float(argv[1]) if len(argv) > 1 else 60.0)

    def emit(answer: str) -> None:
        print(answer, flush=True)

    search_shorter(facelets, emit)
    print(DONE, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
