"""``qbr`` with no command: the camera window, or headless with --no-window."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from qbr.app.commands.result import CommandResult
from qbr.app.errors import NoDisplayError

if TYPE_CHECKING:
    from qbr.app.environment import Environment
    from qbr.app.settings import Settings


def run_live(settings: Settings, env: Environment) -> CommandResult:
    """Open the frame source, then run the window (F2's loop) or the headless session on it."""
    from qbr.app.store import Store

    if settings.window and not env.has_display:
        if not settings.demo:
            raise NoDisplayError(
                "no display to open a window on; run with --no-window to scan without one "
                "(e.g. qbr --camera video.avi --no-window)"
            )
        env.stderr.write("qbr: no display found: playing the demo without a window (as with --no-window)\n")
        settings = dataclasses.replace(settings, window=False)
    if settings.window:
        problem = env.display_problem()  # before Qt is touched: it aborts the process when the server is missing
        if problem is not None:
            raise NoDisplayError(f"{problem}; start qbr where a display is, or scan without a window: --no-window")
    store = Store(env.config_dir)
    source = env.open_source(settings)
    if not settings.window:
        from qbr.app.headless import run_headless

        return run_headless(settings, env, source, store=store)
    from qbr.app.loop import run_window

    return run_window(settings, env, source=source, store=store)
