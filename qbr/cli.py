"""Command line: argparse to settings to the app or a command; exceptions become exit codes.

``main(argv, env) -> ExitStatus`` never raises for user input and never prints a traceback for it.
"""

from __future__ import annotations

import argparse
import contextlib
import enum
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from qbr import __version__
from qbr.app.commands.result import CommandResult
from qbr.app.environment import Environment
from qbr.app.errors import (
    BadArgumentError,
    CalibrationError,
    IncompleteScanError,
    InputFileError,
    NoCameraError,
    NoDisplayError,
    NoFaceFoundError,
)
from qbr.cube.errors import InvalidCubeError, MoveSyntaxError, QbrError
from qbr.solve.errors import CatalogueError, RobotCostsError, SolveError, UnknownLanguageError
from qbr.vision.errors import PaletteFormatError


class ExitStatus(enum.IntEnum):
    """Process exit codes; stable, documented in README."""

    OK = 0
    USAGE = 2
    INVALID_CUBE = 3
    NO_FACE_FOUND = 4
    BAD_INPUT_FILE = 5
    NO_CAMERA = 6
    SOLVE_FAILED = 7
    INCOMPLETE = 8
    NO_DISPLAY = 9
    INTERNAL = 70
    OUTPUT_FAILED = 74
    """The answer could not be written (a full disk, a closed or broken output)."""
    """A bug in qbr, never the input's fault (1 is never used: Python's own code for an uncaught error)."""
    INTERRUPTED = 130


_EXIT_FOR: tuple[tuple[type[QbrError], ExitStatus], ...] = (
    (InvalidCubeError, ExitStatus.INVALID_CUBE),
    (MoveSyntaxError, ExitStatus.USAGE),
    (BadArgumentError, ExitStatus.USAGE),
    (UnknownLanguageError, ExitStatus.USAGE),
    (NoFaceFoundError, ExitStatus.NO_FACE_FOUND),
    (InputFileError, ExitStatus.BAD_INPUT_FILE),
    (CalibrationError, ExitStatus.BAD_INPUT_FILE),
    (PaletteFormatError, ExitStatus.BAD_INPUT_FILE),
    (RobotCostsError, ExitStatus.BAD_INPUT_FILE),
    (CatalogueError, ExitStatus.BAD_INPUT_FILE),
    (NoCameraError, ExitStatus.NO_CAMERA),
    (NoDisplayError, ExitStatus.NO_DISPLAY),
    (IncompleteScanError, ExitStatus.INCOMPLETE),
    (SolveError, ExitStatus.SOLVE_FAILED),
)


def exit_status_for(error: QbrError) -> ExitStatus:
    """The exit code that reports ``error``."""
    for cls, status in _EXIT_FOR:
        if isinstance(error, cls):
            return status
    return getattr(error, "exit_status", ExitStatus.INTERNAL)  # a new error class nobody mapped is a bug


class _UsageError(QbrError):
    kind = "usage"
    exit_status = ExitStatus.USAGE


class _InternalError(QbrError):
    kind = "internal"
    exit_status = ExitStatus.INTERNAL


class _Parser(argparse.ArgumentParser):
    """An argparse parser that raises instead of exiting, so --json can report usage errors too."""

    def error(self, message: str) -> None:  # type: ignore[override]
        # The CLI prefixes "qbr: " to every message; a subcommand adds its name ("solve: ...").
        command = self.prog.partition(" ")[2]
        raise _UsageError(f"{command}: {message}" if command else message)


def _common(parser: argparse.ArgumentParser, suppress: bool) -> None:
    # Subcommands repeat the common options with SUPPRESS so they do not overwrite values given before them.
    default: Any = argparse.SUPPRESS if suppress else None
    parser.add_argument("--json", action="store_true", default=argparse.SUPPRESS if suppress else False,
                        help="print machine-readable JSON instead of text")
    parser.add_argument("--lang", default=default,
                        help="language of instructions (en, zh-Hans, zh-Hant, nl, de, fr, es, hu, ar, ja); "
                             "default: the system's")
    parser.add_argument("--budget", type=float, default=argparse.SUPPRESS if suppress else None,
                        metavar="SECONDS",
                        help="spend up to this long looking for a shorter solution (default: the first "
                             "solution found for solve, scan and resolve; 1 s in the live window)")


def _size(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=int, choices=(2, 3), default=None,
                        help="cube size (default: 2 for 24 letters, else 3; a scramble is for a 3x3 unless told)")


def _cube_size(args: argparse.Namespace) -> int:
    """The size asked for, else the one the letters imply (24 stickers: a 2x2)."""
    if args.size is not None:
        return int(args.size)
    text = getattr(args, "facelets", None)
    return 2 if text is not None and len("".join(text.split())) == 24 else 3


def build_parser() -> argparse.ArgumentParser:
    """The full command-line grammar."""
    parser = _Parser(
        prog="qbr",
        description="Scan a Rubik's cube with a webcam and get its solution move by move. "
        "With no command, opens the camera window.",
    )
    parser.add_argument("--version", action="version", version=f"qbr {__version__}")
    _common(parser, suppress=False)
    src = parser.add_mutually_exclusive_group()
    src.add_argument("--camera", metavar="N|FILE", default=None,
                     help="camera index (default 0) or a video file to read as if it were the camera")
    src.add_argument("--images", metavar="DIR", type=Path, default=None,
                     help="step through the still photos in DIR instead of a camera (taken as by 'qbr scan': "
                          "a photo named U.jpg, R.jpg, ... is that face)")
    src.add_argument("--demo", action="store_true", help="play the bundled demo video (no camera needed)")
    parser.add_argument("--no-window", action="store_true",
                        help="headless: no window, auto-capture only; print the result like 'qbr scan'")
    parser.add_argument("--mirror", action="store_true",
                        help="flip the picture left to right (a webcam that shows a mirror image; M in the window "
                             "toggles it and it is remembered for cameras)")
    parser.add_argument("--list-cameras", action="store_true",
                        help="list the cameras that open (index, resolution, name where the system gives one)")
    parser.add_argument("-n", "--normalize", action="store_true",
                        help="also print the solution as numbered sentences in the terminal")

    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("solve", help="solve a cube given as 54 facelets (24 for a 2x2) or a scramble")
    p.add_argument("facelets", nargs="?", help="54 letters (2x2: 24), faces in URFDLB order (see 'qbr show --help')")
    p.add_argument("--scramble", metavar="MOVES", help="solve the cube this scramble makes, e.g. \"R U R' U'\"")
    _size(p)
    p.add_argument("--metric", choices=("htm", "qtm", "robot"), default=None,
                   help="2x2: optimal in half turns (default), quarter turns, or the robot's costs (--costs)")
    p.add_argument("--costs", metavar="FILE", type=Path, default=None,
                   help="2x2 robot metric: JSON costs per move and per regrip (default: the bundled sample)")
    _common(p, suppress=True)

    p = sub.add_parser("show", help="print a cube as a coloured net")
    p.add_argument("facelets", help="54 letters (2x2: 24), faces in URFDLB order")
    _size(p)
    _common(p, suppress=True)

    p = sub.add_parser("scan", help="read the cube from six photos, faces in URFDLB order, and solve it")
    p.add_argument("images", nargs="+", type=Path, metavar="IMAGE", help="U R F D L B photos")
    p.add_argument("--debug", metavar="DIR", type=Path, help="write annotated images of what was found")
    p.add_argument("--size", type=int, choices=(2, 3), help="the cube is a 2x2x2 or a 3x3x3 (default: as found)")
    _common(p, suppress=True)

    p = sub.add_parser("resolve", help="name a cube's colours from measured sticker colours (JSON) and solve it")
    p.add_argument("file", type=Path, help='JSON with {"rgb": {"U": [[r,g,b] x9], ...}} (x4 for a 2x2x2)')
    p.add_argument("--size", type=int, choices=(2, 3), default=None,
                   help="the cube's size (default: the file's \"size\", else 4 or 9 stickers per face)")
    _common(p, suppress=True)
    return parser


MAX_BUDGET = 3600.0
"""An hour: the search finds nothing shorter after a few seconds; an infinite budget would never answer."""


def _run(args: argparse.Namespace, env: Environment) -> CommandResult:
    from qbr.solve.i18n import resolve_language

    explicit_lang = getattr(args, "lang", None)
    lang = resolve_language(explicit_lang, env.system_language)
    given_budget = getattr(args, "budget", None)
    if given_budget is not None and not 0 <= given_budget <= MAX_BUDGET:  # NaN fails both comparisons
        raise _UsageError(f"--budget must be from 0 to {MAX_BUDGET:g} seconds")
    budget = 0.0 if given_budget is None else float(given_budget)
    command = args.command
    if command == "solve":
        from qbr.app.commands.solve import solve_command

        if (args.facelets is None) == (args.scramble is None):
            raise _UsageError("solve: give either FACELETS or --scramble MOVES")
        metric = args.metric or ("robot" if args.costs is not None else "htm")
        if args.costs is not None and metric != "robot":
            raise _UsageError("solve: --costs is for --metric robot")
        if _cube_size(args) == 2:
            from qbr.app.commands.pocket import pocket_solve_command

            return pocket_solve_command(args.facelets, args.scramble, lang, metric, args.costs)
        if metric != "htm":
            raise _UsageError("solve: --metric qtm and robot are for the 2x2 (--size 2)")
        return solve_command(facelets=args.facelets, scramble=args.scramble, lang=lang, budget=budget)
    if command == "show":
        from qbr.app.commands.solve import show_command

        if _cube_size(args) == 2:
            from qbr.app.commands.pocket import pocket_show_command

            return pocket_show_command(args.facelets, colour=env.stdout_isatty)
        return show_command(args.facelets, colour=env.stdout_isatty)
    if command == "scan":
        from qbr.app.commands.scan import scan_command

        return scan_command(args.images, lang=lang, budget=budget, debug_dir=args.debug, env=env, size=args.size)
    if command == "resolve":
        from qbr.app.commands.scan import resolve_command

        return resolve_command(args.file, lang=lang, budget=budget, size=args.size)

    if args.list_cameras:
        from qbr.app.commands.cameras import list_cameras_command

        return list_cameras_command(env)
    from qbr.app.commands.live import run_live
    from qbr.app.settings import Settings

    settings = Settings.from_args(
        camera=args.camera,
        images=args.images,
        demo=args.demo,
        window=not args.no_window,
        json=args.json,
        lang=lang,
        lang_explicit=explicit_lang is not None,
        normalize=args.normalize,
        budget=given_budget,
        mirror=args.mirror,
    )
    return run_live(settings, env)


_MAX_PROBLEM_LINES = 5
"""A garbage scan can have dozens of problems; the first few say enough on a terminal."""


def _write(stream: TextIO, text: str) -> None:
    """``text`` on ``stream`` whatever its encoding: bytes of a non-UTF-8 argument (lone surrogates) and characters
    the stream cannot encode are written as backslash escapes (in JSON strings, valid \\u escapes) instead of
    raising."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        stream.write(text)
    except UnicodeEncodeError:
        stream.write(text.encode(encoding, "backslashreplace").decode(encoding, "replace"))


def _emit(result: CommandResult, as_json: bool, env: Environment) -> None:
    if as_json:
        payload = dict(result.payload)
        if result.error is not None:
            payload["error"] = {"kind": result.error.kind, "message": str(result.error)}
        _write(env.stdout, json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
        return
    if result.text:
        _write(env.stdout, result.text.rstrip("\n") + "\n")
    if result.error is not None:
        # Commands put translated problem messages in the payload; the exception text is the English fallback.
        problems = [p.get("message") for p in result.payload.get("problems", ()) if isinstance(p, dict)]
        lines = [m for m in problems if m] or [str(result.error)]
        for line in lines[:_MAX_PROBLEM_LINES]:
            _write(env.stderr, f"qbr: {line}\n")
        if len(lines) > _MAX_PROBLEM_LINES:
            _write(env.stderr, f"qbr: ... and {len(lines) - _MAX_PROBLEM_LINES} more (--json lists them all)\n")


def main(argv: Sequence[str] | None = None, env: Environment | None = None) -> ExitStatus:
    """Run qbr with ``argv`` (default: the process arguments) in ``env``; return the exit status."""
    env = env or Environment()
    argv = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in argv
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        as_json = bool(getattr(args, "json", False))
        result = _run(args, env)
    except KeyboardInterrupt:
        return ExitStatus.INTERRUPTED
    except QbrError as error:
        result = CommandResult(error=error)
        if isinstance(error, _UsageError) and not as_json:
            _write(env.stderr, parser.format_usage())
    except Exception as error:  # a bug, never the input's fault: a one-line report instead of a traceback
        result = CommandResult(error=_InternalError(
            f"internal error ({type(error).__name__}: {str(error)[:200]}); please report it with the command run"
        ))
    try:
        _emit(result, as_json, env)
    except BrokenPipeError:
        raise  # the reader went away: main_entry ends quietly
    except OSError as error:
        with contextlib.suppress(OSError, ValueError):
            env.stderr.write(f"qbr: cannot write the output ({error.strerror or error})\n")
        return ExitStatus.OUTPUT_FAILED
    return ExitStatus.OK if result.error is None else exit_status_for(result.error)


def main_entry() -> None:
    """Console-script entry point (also ``python -m qbr``)."""
    for name in ("stdout", "stderr"):  # started with the stream closed (qbr ... >&-): write nowhere, not crash
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 (lives as long as the run)
    try:
        status = int(main())
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (qbr ... | head): not an error of qbr's, and no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = ExitStatus.OK
    except OSError as error:  # the last of the answer could not be written (a full disk)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the exit's own flush cannot fail too
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write(f"qbr: cannot write the output ({error.strerror or error})\n")
        status = ExitStatus.OUTPUT_FAILED
    sys.exit(status)
