"""The live session without a window: frames in, auto-capture only, the same result as ``qbr scan``."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from qbr.app.commands.result import CommandResult
from qbr.app.errors import IncompleteScanError, NoFaceFoundError
from qbr.app.runtime import Runtime, Unattended
from qbr.app.session import ResolveCube, ResolvedEvent, Session, SessionConfig
from qbr.app.store import Notice, Store
from qbr.cube.errors import QbrError

if TYPE_CHECKING:
    from qbr.app.environment import Environment
    from qbr.app.settings import Settings
    from qbr.app.sources import FrameSource
    from qbr.solve.i18n import Translator
    from qbr.vision.palette import Palette
    from qbr.vision.tunables import Tunables

LOCALE_DIR = Path(__file__).resolve().parent / "locales"


def translator(lang: str) -> Translator:
    """The translator of ``lang`` with the app's UI strings."""
    from qbr.solve.i18n import Translator

    return Translator(lang, extra_dirs=[LOCALE_DIR])


def translators() -> dict[str, Translator]:
    """A translator for every language (L cycles through them in the window)."""
    from qbr.solve.i18n import LANGUAGES

    return {lang: translator(lang) for lang in LANGUAGES}


def start(settings: Settings, store: Store) -> tuple[str, Palette, list[Notice]]:
    """The language (explicit --lang, else the remembered one, else the system's) and palette of a live run."""
    from qbr.vision.palette import DEFAULT_PALETTE

    palette, notices = store.load_palette()
    lang = settings.lang
    if not settings.lang_explicit:
        remembered, more = store.load_language()
        notices += more
        lang = remembered or lang
    return lang, palette or DEFAULT_PALETTE, notices


def make_session(
    settings: Settings, store: Store, t0: float, all_languages: bool = True, interactive: bool = True,
    live: bool = True, ended_seconds: float | None = None,
) -> tuple[Session, Mapping[str, Translator]]:
    """A session configured from the settings and what the store remembers.

    ``live``: faces can be shown again (a camera), so a face in doubt is asked for; ``ended_seconds``: how long
    what a finished video or photo folder left missing is shown before the session quits (default: the config's).
    """
    lang, palette, notices = start(settings, store)
    mirror = settings.mirror
    if live and not mirror:  # M remembers it for the webcam; a video file is mirrored only when asked
        remembered, more = store.load_mirror()
        notices += [notice for notice in more if notice not in notices]
        mirror = remembered is True
    trs = translators() if all_languages else {lang: translator(lang)}
    config = SessionConfig(
        language=lang, normalize=settings.normalize, notices=tuple(notices), interactive=interactive, ask_again=live,
        mirror=mirror,
    )
    if ended_seconds is not None:
        config = dataclasses.replace(config, ended_seconds=ended_seconds)
    return Session(config, trs, palette, t0), trs


def ended_error(session: Session, source: FrameSource) -> QbrError:
    """Why a run on a video or photos ended without a solution, in the session's words and language."""
    captured = session.view().captured
    text = session.view().prompt if session.ended else ""
    if not captured:
        return NoFaceFoundError(f"{source.name}: {text}" if text else f"no cube face was found in {source.name}")
    return IncompleteScanError(f"{source.name}: {text}" if text else
                               f"the input ended after {len(captured)} of 6 faces ({', '.join(sorted(captured))})")


def run_headless(
    settings: Settings,
    env: Environment,
    source: FrameSource,
    tunables: Tunables | None = None,
    store: Store | None = None,
) -> CommandResult:
    """Run the session on ``source`` until six faces are captured and resolved, or the input ends."""
    from qbr.app.analysis import frame_analyser
    from qbr.app.jobs import resolve_effect
    from qbr.app.report import cube_result, empty_payload
    from qbr.app.sources import ImageFolderSource
    from qbr.vision.palette import DEFAULT_PALETTE
    from qbr.vision.tunables import Tunables

    photos = isinstance(source, ImageFolderSource)
    if tunables is None:
        # Still photos get every fallback search; in a video the face comes round again in a moment.
        tunables = Tunables() if photos else Tunables().for_video()
    analyser = frame_analyser(tunables, photos)
    store = store or Store(env.config_dir)
    # Nobody to read a message: the session quits as soon as the source has ended.
    session, trs = make_session(settings, store, t0=0.0, all_languages=False, interactive=False,
                                live=source.is_live, ended_seconds=0.0)
    tr = trs[session.language]
    warning = session.view().message
    if warning:
        env.stderr.write(f"qbr: {warning}\n")
    last: list[tuple] = []

    def resolved(event: ResolvedEvent) -> bool:
        last[:] = [(event.resolution, event.solution, event.error)]
        return event.solution is not None and event.error is None  # the first solution ends the run

    def said(ok: bool) -> None:
        # Say so once: a script waiting on a camera that went silent should not wait in the dark.
        env.stderr.write(f"qbr: {source.name}: {tr.t('app.msg.camera_back' if ok else 'app.msg.no_frames')}\n")

    def resolve(effect: ResolveCube) -> tuple:
        return resolve_effect(effect, settings.budget)

    with source:
        Runtime(session, source, analyse=lambda image: analyser(image, session.palette),
                resolve=resolve, front=Unattended(env.sleep), out=io.StringIO(), save_palette=store.save_palette,
                save_language=store.save_language, save_mirror=store.save_mirror, mirror=session.mirror,
                clock=env.clock, paced=False, threaded=False,
                on_source=said, on_resolved=resolved).run()
    if session.palette != DEFAULT_PALETTE and (not last or last[0][2] is not None or last[0][0].placed):
        # A bad calibration makes every cube fail to read or resolve, or names centres for each other: say so.
        env.stderr.write(f"qbr: {tr.t('app.msg.calibration_hint_headless', path=str(store.palette_path))}\n")
    if last:
        return cube_result(*last[0], tr, numbered=settings.normalize, colour=env.stdout_isatty)
    payload = empty_payload(tr.lang)
    payload["faces_captured"] = sorted(session.view().captured)
    return CommandResult(payload=payload, error=ended_error(session, source))
