"""The live session without a window: frames in, auto-capture only, the same result as ``qbr scan``."""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from qbr.app.commands.result import CommandResult
from qbr.app.errors import IncompleteScanError, NoFaceFoundError
from qbr.app.session import (
    FrameEvent,
    NoticeEvent,
    ResolveCube,
    ResolvedEvent,
    SaveLanguage,
    SavePalette,
    Session,
    SessionConfig,
    SourceEvent,
)
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
_LOST_AFTER = 1.0  # a live source silent this long is reported as lost


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
    settings: Settings, store: Store, t0: float, all_languages: bool = True, interactive: bool = True
) -> tuple[Session, Mapping[str, Translator]]:
    """A session configured from the settings and what the store remembers."""
    lang, palette, notices = start(settings, store)
    trs = translators() if all_languages else {lang: translator(lang)}
    config = SessionConfig(
        language=lang, normalize=settings.normalize, notices=tuple(notices), interactive=interactive
    )
    return Session(config, trs, palette, t0), trs


def run_headless(
    settings: Settings,
    env: Environment,
    source: FrameSource,
    tunables: Tunables | None = None,
    store: Store | None = None,
) -> CommandResult:
    """Run the session on ``source`` until six faces are captured and resolved, or the input ends."""
    from qbr.app.analysis import analyse_frame
    from qbr.app.jobs import resolve_and_solve
    from qbr.app.report import cube_result, empty_payload
    from qbr.vision.tunables import Tunables

    if tunables is None:
        from qbr.app.sources import ImageFolderSource

        # Still photos get every fallback search; in a video the face comes round again in a moment.
        tunables = Tunables() if isinstance(source, ImageFolderSource) else Tunables().for_video()
    store = store or Store(env.config_dir)
    session, trs = make_session(settings, store, t0=0.0, all_languages=False, interactive=False)
    tr = trs[session.language]
    warning = session.view().message
    if warning:
        env.stderr.write(f"qbr: {warning}\n")
    last: tuple = ()
    silent_since: float | None = None
    lost = False
    with source:
        while True:
            frame = source.read()
            if frame is None:
                if source.ended:
                    break
                now = time.monotonic()
                silent_since = silent_since or now
                if not lost and now - silent_since > _LOST_AFTER:
                    # Say so once: a script waiting on a camera that went silent should not wait in the dark.
                    lost = True
                    session.handle(SourceEvent(now, False))
                    env.stderr.write(f"qbr: {source.name}: {tr.t('app.msg.no_frames')}\n")
                time.sleep(0.01)
                continue
            if silent_since is not None:
                silent_since = None
                if lost:
                    lost = False
                    session.handle(SourceEvent(frame.t, True))
                    env.stderr.write(f"qbr: {source.name}: {tr.t('app.msg.camera_back')}\n")
            effects = session.handle(FrameEvent(frame.t, analyse_frame(frame.image, tunables, session.palette)))
            while effects:
                effect, effects = effects[0], effects[1:]
                if isinstance(effect, ResolveCube):
                    last = resolve_and_solve(effect.rgb, effect.palette, settings.budget, any_order=effect.any_order)
                    effects += session.handle(ResolvedEvent(frame.t, *last))
                    if last[1] is not None and last[2] is None:
                        return cube_result(*last, tr, numbered=settings.normalize, colour=env.stdout_isatty)
                elif isinstance(effect, SavePalette | SaveLanguage):
                    notice = _save(store, effect)
                    if notice is not None:
                        effects += session.handle(NoticeEvent(frame.t, *notice))
    if last:
        return cube_result(*last, tr, numbered=settings.normalize, colour=env.stdout_isatty)
    captured = sorted(session.view().captured)
    error: QbrError = (
        IncompleteScanError(
            f"the input ended after {len(captured)} of 6 faces ({', '.join(captured)}); show every face "
            "for about a second, or press SPACE in the window"
        )
        if captured
        else NoFaceFoundError(f"no cube face was found in {source.name}")
    )
    payload = empty_payload(tr.lang)
    payload["faces_captured"] = captured
    return CommandResult(payload=payload, error=error)


def _save(store: Store, effect: SavePalette | SaveLanguage) -> Notice | None:
    if isinstance(effect, SavePalette):
        return store.save_palette(effect.palette)
    return store.save_language(effect.lang)
