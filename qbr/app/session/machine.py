"""The live session as a pure state machine: events in, effects and a view model out.

No I/O, no windows, no threads and no clock reads: time arrives inside the events, so a scripted sequence of
events replays exactly (tests, headless mode and the window loop all drive the same machine).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import numpy as np

from qbr.app.read_notices import TURN_KEYS, lost_faces, lost_notices, placed_notices, turned_notices
from qbr.app.session.calibration import Calibration
from qbr.app.session.config import SessionConfig
from qbr.app.session.effects import (
    Effect,
    PrintText,
    Quit,
    ResolveCube,
    SaveLanguage,
    SavePalette,
    SetMirror,
    SolveFacelets,
)
from qbr.app.session.events import (
    ColourClickEvent,
    EndedEvent,
    Event,
    FrameEvent,
    KeyEvent,
    NoticeEvent,
    ResolvedEvent,
    SolvingEvent,
    SourceEvent,
    StickerClickEvent,
    TickEvent,
)
from qbr.app.session.hand_edit import COLOUR_KEYS, HandEdit, edit_view
from qbr.app.session.identity import (
    CapturedFace,
    faces_by_centre,
    identity,
    nearest_by_centre,
    nearest_by_stickers,
    ring_matches,
    same_face,
    seen_before,
)
from qbr.app.session.mode import Mode
from qbr.app.session.steady import SteadyTrack, follow
from qbr.app.session.turned_capture import held_turned, turned_upright
from qbr.app.session.view_model import CalibrationReview, Guide, Preview, ReviewRow, Step, ViewModel
from qbr.cube.conventions import FACES, NEIGHBOURS, STANDARD_SCHEME
from qbr.cube.moves import apply_to_facelets
from qbr.solve.instructions import colour_name, move_sentence, orientation_sentence, problem_message
from qbr.solve.solution_text import pocket_text, solution_text

if TYPE_CHECKING:
    from qbr.app.analysis import FrameAnalysis
    from qbr.solve.i18n import Translator
    from qbr.solve.solver import Solution
    from qbr.vision.palette import Palette
    from qbr.vision.resolve import Resolution


_CAPTURED_TURNED_KEYS = {1: "app.msg.captured_turned_cw", 2: "app.msg.captured_turned_half",
                         3: "app.msg.captured_turned_ccw"}


class Session:
    """The state machine; ``handle`` each event in time order, draw ``view()``, carry out the returned effects."""

    def __init__(
        self, config: SessionConfig, translators: Mapping[str, Translator], palette: Palette, t0: float
    ) -> None:
        if not translators:
            raise ValueError("a session needs at least one translator")
        self._cfg = config
        self._translators = dict(translators)
        self._languages = tuple(lang for lang in config.languages if lang in self._translators) or tuple(
            self._translators
        )
        self._lang = config.language if config.language in self._translators else self._languages[0]
        self._palette = palette
        self._t = t0
        self._mode = Mode.SCANNING
        self._back_to = Mode.SCANNING  # where CONFIRM_REPLACE and CALIBRATING return to
        self._source_ok = True
        self._scheme = dict(config.scheme)
        self._size = 3  # the cube being scanned: a steady face of the other size switches it
        self._by_centre = self._scheme == STANDARD_SCHEME
        self._captures: list[CapturedFace] = []  # in the order they were captured
        self._faces: dict[str, CapturedFace] = {}  # face letter -> capture, derived from _captures by _reassign
        self._track: SteadyTrack | None = None
        self._last: FrameAnalysis | None = None
        self._pending: tuple[int, CapturedFace] | None = None  # (index in _captures, the new reading)
        self._message: tuple[Callable[[Translator], str], float | None] | None = None
        self._highlight: str | None = None
        self._resolution: Resolution | None = None
        self._doubt_asked = False  # a face in doubt is asked for again once, then the cube is taken as read
        self._unsettled_asked = False  # a face the other five do not fix is asked for once, then taken as deduced
        self._solution: Solution | None = None
        self._solving_best: int | None = None  # length of the shortest solution found so far while solving
        self._step = 0
        self._cal: Calibration | None = None
        self._cal_palette: Palette | None = None  # the new colours, shown for review until saved or discarded
        self._edit: HandEdit | None = None  # the cube being fixed by hand, kept until the next scan resolves
        self._edit_back = Mode.INVALID  # where leaving EDITING returns to
        self._from_hand = False  # the cube being resolved was fixed by hand
        self._mirror = config.mirror
        self._label: str | None = None  # the face the latest frame is named for (photos named U.jpg ...)
        self._named = False  # faces came named (photos): each is the face its name says, not found by centre
        self._ended: tuple[str, float] | None = None  # (kind of source, since when) once a video or photos ended
        if config.notices:
            notices = tuple((key, dict(params)) for key, params in config.notices)
            self._message = (lambda tr: _sentences(tr, *(tr.t(key, **params) for key, params in notices)), None)

    # ------------------------------------------------------------------------------------------ events

    def handle(self, event: Event) -> list[Effect]:
        """Advance on ``event``; return the effects for the loop to carry out, in order."""
        self._t = max(self._t, event.t)
        if isinstance(event, FrameEvent):
            if not self._source_ok:
                self._source_ok = True
            return self._on_frame(event)
        if isinstance(event, KeyEvent):
            return self._on_key(event.key)
        if isinstance(event, SourceEvent):
            if event.ok != self._source_ok:
                self._source_ok = event.ok
                self._track = None
                self._last = None
                if event.ok:
                    self._say("app.msg.camera_back")
            return []
        if isinstance(event, ResolvedEvent):
            self._solving_best = None
            return self._on_resolved(event)
        if isinstance(event, SolvingEvent):
            # Only while this cube is being solved: a late report from an earlier search changes nothing.
            if self._mode is Mode.RESOLVING:
                self._solving_best = event.moves
            return []
        if isinstance(event, EndedEvent):
            return self._on_ended(event)
        if isinstance(event, TickEvent):
            ended = self._ended if self._mode is Mode.ENDED and not self._fixable() else None
            return [Quit()] if ended is not None and event.t - ended[1] >= self._cfg.ended_seconds else []
        if isinstance(event, NoticeEvent):
            self._say(event.key, persistent=True, **event.params)
        edit = self._edit if self._mode is Mode.EDITING else None
        if isinstance(event, StickerClickEvent) and edit is not None and 0 <= event.index < len(edit.facelets):
            self._edit = edit.select(event.index)
        if isinstance(event, ColourClickEvent) and self._mode is Mode.EDITING and 0 <= event.slot < len(COLOUR_KEYS):
            return self._on_edit_key(COLOUR_KEYS[event.slot])
        return []

    def _on_frame(self, event: FrameEvent) -> list[Effect]:
        a = event.analysis
        seen = a is not None and a.colours is not None and a.rgb is not None
        self._label = event.face if event.face in FACES else None
        self._last = a if seen else None
        if self._mode is Mode.CALIBRATING:
            if seen:
                self._calibrate(event.t, np.asarray(a.rgb, dtype=float))
            elif self._cal is not None:
                self._cal.lost()
            return []
        if self._mode is Mode.CONFIRM_CALIBRATION:
            return []
        if not seen:
            if self._track is not None and event.t - self._track.last_t > self._cfg.frame_gap_seconds:
                self._track = None
            return []
        track, taken = follow(self._track, event.t, _read(a), self._cfg)
        self._track = track
        if not taken:
            return []
        if track.done:
            return []  # captured (or answered) already: no vote to count
        agreed = track.agreed(self._cfg)
        if agreed is None:
            return []
        if track.size != self._size:
            # Another kind of cube, held steady (a stray frame never gets this far); once faces are captured,
            # only if held longer still: they are dropped.
            if self._mode not in (Mode.SCANNING, Mode.INVALID) or (
                self._captures and track.last_t - track.since < self._cfg.size_switch_seconds
            ):
                return []
            self._switch_size(track.size)
        if self._cfg.auto_capture and self._mode in (Mode.SCANNING, Mode.INVALID):
            track.done = True  # one capture per holding: a reading that drifts as the cube turns away is not a new face
            return self._capture(agreed, explicit=False)
        return []

    def _on_key(self, key: str) -> list[Effect]:
        mode = self._mode
        if mode is Mode.EDITING and key != "l":
            return self._on_edit_key(key)  # ESC leaves the net, the arrows move its cursor
        if key == "esc":
            if mode is Mode.CONFIRM_REPLACE:  # ESC answers "no" to the question; a second ESC quits
                return self._answer(False)
            if mode is Mode.CONFIRM_CALIBRATION:
                return self._keep_calibration(False)
            return [Quit()]
        if key == "l":
            i = self._languages.index(self._lang) if self._lang in self._languages else -1
            self._lang = self._languages[(i + 1) % len(self._languages)]
            self._say("app.msg.language")
            return [SaveLanguage(self._lang)]
        if key == "e" and (mode in (Mode.INVALID, Mode.SOLUTION) or (mode is Mode.ENDED and self._fixable())):
            return self._start_edit()
        if key == "m":
            self._mirror = not self._mirror
            self._track = None  # the face held reads differently mirrored: held steady anew
            self._say("app.msg.mirror_on" if self._mirror else "app.msg.mirror_off")
            return [SetMirror(self._mirror)]
        if mode is Mode.CONFIRM_REPLACE:
            if key in ("y", "enter"):
                return self._answer(True)
            if key in ("n", "backspace"):
                return self._answer(False)
            return []
        if mode is Mode.CONFIRM_CALIBRATION:
            if key in ("y", "enter"):
                return self._keep_calibration(True)
            if key in ("n", "backspace", "c"):
                return self._keep_calibration(False)
            if key == "r":
                return self._reset_colours()
            return []
        if mode is Mode.CALIBRATING:
            if key == "c":
                self._cal = None
                self._mode = self._back_to
                self._say("app.msg.calibration_cancelled")
            elif key == "r":
                return self._reset_colours()
            return []
        if key == "r" and mode is Mode.INVALID and self._calibrated():
            return self._reset_colours()  # the hint under a cube that does not resolve says R resets the colours
        if key == "n" and self._new_cube_possible():
            self._new_cube()
            return []
        if key == "c" and mode in (Mode.SCANNING, Mode.INVALID, Mode.SOLUTION):
            self._back_to = mode
            self._mode = Mode.CALIBRATING
            self._cal = Calibration(tuple(self._palette.colours))
            self._track = None
            return []
        if mode in (Mode.SCANNING, Mode.INVALID):
            if key == "space":
                if self._last is None:
                    self._say("app.msg.no_face")
                    return []
                agreed = self._track.consensus(self._cfg.steady_agreement) if self._track is not None else None
                if self._track is not None:
                    self._track.done = True
                if agreed is not None and identity(agreed.colours) == identity(tuple(self._last.colours)):
                    return self._capture(agreed, explicit=True)
                return self._capture(_read(self._last), explicit=True)
            if key == "backspace" and mode is Mode.SCANNING:
                self._undo()
            if key == "d" and self._deducible():
                return self._resolve()  # the face that will not be found: its stickers from the other five's pieces
            return []
        if mode is Mode.SOLUTION and self._solution is not None:
            total = len(self._solution.moves)
            if key in ("right", "enter", "space"):
                self._step = min(total, self._step + 1)
            elif key in ("left", "backspace"):
                self._step = max(0, self._step - 1)
            if self._message is not None and self._message[1] is None:
                self._message = None  # the user moved on: a standing note (stickers to review) would hide the video
        return []

    # ------------------------------------------------------------------------------------ fixing by hand

    def _start_edit(self) -> list[Effect]:
        """Fix the cube as resolved (or as the last edit left it) by hand."""
        resolution = self._resolution
        if self._edit is None:
            if resolution is None or len(resolution.facelets) != 6 * self._size ** 2:
                return []
            self._edit = HandEdit.start(resolution.facelets, self._size, tuple(resolution.uncertain))
        if self._mode is Mode.SOLUTION:
            self._message = None  # "press E to check them": done; an invalid cube's problem stays in view
        self._edit_back = self._mode
        self._mode = Mode.EDITING
        return []

    def _on_edit_key(self, key: str) -> list[Effect]:
        edit = self._edit
        assert edit is not None
        if key in ("up", "down", "left", "right"):
            self._edit = edit.move(key)
        elif key in COLOUR_KEYS:
            if not edit.editable():
                self._say("app.msg.centre_fixed")
            else:
                self._edit = edit.set_colour_key(key)
                self._message = None
        elif key == "backspace":
            undone = edit.undo()
            if undone is None:
                self._say("app.msg.no_change")
            else:
                self._edit = undone
        elif key == "enter":
            solved = self._solution
            if self._edit_back is Mode.SOLUTION and solved is not None and solved.facelets == edit.facelets:
                self._mode = Mode.SOLUTION  # checked and left as it was: the same solution, at the same step
                return []
            self._mode = Mode.RESOLVING
            self._from_hand = True
            self._message = None
            return [SolveFacelets(edit.facelets, self._edit_colours(), self._size)]
        elif key in ("e", "esc"):
            self._mode = self._edit_back
            self._say("app.msg.edit_left")
            if self._mode is Mode.INVALID and self._ended is not None:
                self._end()  # the source ended meanwhile: no face can be shown again
        return []

    def _fixable(self) -> bool:
        """Someone at the window can fix the cube read from six faces by hand (headless runs cannot)."""
        resolution = self._resolution
        return (self._cfg.interactive and resolution is not None and len(self._faces) == len(FACES)
                and len(resolution.facelets) == len(FACES) * self._size ** 2)

    def _edit_colours(self) -> dict[str, str]:
        """Face letter -> colour name of the cube being fixed (a 2x2x2's as its pieces named them)."""
        names = dict(self._scheme)
        if self._size == 2 and self._resolution is not None and self._resolution.colour_names:
            names.update(self._resolution.colour_names)
        return names

    # ---------------------------------------------------------------------------------------- scanning

    def _next_face(self) -> str | None:
        if self._mode is Mode.INVALID and self._highlight is not None:
            return self._highlight
        return next((f for f in self._cfg.order if f not in self._faces), None)

    def _reassign(self) -> None:
        """Which face each capture is: by centre colour (standard scheme), else by the guided order."""
        if self._by_centre:
            letters = faces_by_centre(self._captures, self._scheme, self._palette, self._cfg.identity)
        else:
            letters = [c.letter or "" for c in self._captures]
        self._faces = {letter: capture for letter, capture in zip(letters, self._captures, strict=True)}

    def _letter(self, capture: CapturedFace) -> str:
        return next(f for f, c in self._faces.items() if c is capture)

    def _switch_size(self, size: int) -> None:
        """Scan a cube of ``size`` from now on: what was captured of the other cube is dropped."""
        self._size = size
        self._captures, self._faces, self._pending, self._highlight = [], {}, None, None
        self._scheme = dict(self._cfg.scheme)
        self._by_centre = size == 3 and self._scheme == STANDARD_SCHEME
        self._mode = Mode.SCANNING
        self._say("app.msg.pocket" if size == 2 else "app.msg.cube")

    def _capture(self, new: CapturedFace, explicit: bool) -> list[Effect]:
        colours = new.colours
        if len(colours) != self._size ** 2:
            return []  # a face of the other cube, captured by hand: not part of this one
        if self._size == 2:
            return self._capture_pocket(new, explicit)
        if self._label is not None:
            return self._capture_named(new, self._label, explicit)
        if self._mode is Mode.INVALID:  # the user was asked to scan again: replace without a question
            same = same_face(new, self._captures, self._cfg.identity)
            index = same if same is not None else nearest_by_centre(new, self._captures)
            new.letter = self._captures[index].letter
            self._captures[index] = new
            self._reassign()
            self._say("app.msg.rescanned", colour=self._scheme[self._letter(new)])
            return self._resolve()
        same = same_face(new, self._captures, self._cfg.identity)
        if same is not None:
            old = self._captures[same]
            colour = self._scheme[self._letter(old)]
            # Compared at the best of the face's four turns: it may have been stored turned upright.
            differ = len(colours) - 1 - ring_matches(colours, old.colours) + (colours[4] != old.colours[4])
            if differ == 0:
                if explicit:
                    self._say("app.msg.already_captured", colour=colour)
                return []
            if not explicit and (differ <= self._cfg.reread_stickers or not self._cfg.interactive):
                return []  # the same face shown again and read a little differently: not worth a question
            self._pending = (same, new)
            self._back_to = self._mode
            self._mode = Mode.CONFIRM_REPLACE
            return []
        if len(self._captures) == len(FACES):
            return []
        if not self._by_centre:
            new.letter = self._next_face()
            self._scheme[new.letter] = colours[4]
        self._captures.append(new)
        self._reassign()
        letter = self._letter(new)
        turns = held_turned(letter, self._faces, self._scheme, self._cfg.turned_evidence)
        if turns is not None:  # its neighbours leave one way to read it: held turned, so stored upright
            self._captures[-1] = turned_upright(new, turns)
            self._reassign()
        key = _CAPTURED_TURNED_KEYS[turns] if turns is not None else "app.msg.captured"
        self._say(key, colour=self._scheme[letter])
        return self._resolve() if len(self._captures) == len(FACES) else []

    def _capture_named(self, new: CapturedFace, face: str, explicit: bool) -> list[Effect]:
        """A 3x3x3 face from a photo named for it: that face, whatever its centre (``qbr scan``'s rule)."""
        self._named, self._by_centre = True, False
        new.letter = face
        old = self._faces.get(face)
        if old is not None and self._mode is not Mode.INVALID:
            if explicit:
                self._say("app.msg.already_captured", colour=self._scheme[face])
            return []  # the same photo again: it was captured
        if old is not None:
            self._captures[self._captures.index(old)] = new
        elif len(self._captures) == len(FACES):
            return []
        else:
            self._captures.append(new)
        self._scheme[face] = new.colours[4]
        self._reassign()
        self._say("app.msg.rescanned" if old is not None else "app.msg.captured", colour=self._scheme[face])
        return self._resolve() if len(self._captures) == len(FACES) else []

    def _capture_pocket(self, new: CapturedFace, explicit: bool) -> list[Effect]:
        """A 2x2x2 face: no centre says which it is, so it is the face the guide asked for."""
        if self._mode is Mode.INVALID:  # the user was asked to show a face again: replace it
            index = next((i for i, c in enumerate(self._captures) if c.letter == self._highlight), None)
            if index is None:
                index = nearest_by_stickers(new, self._captures)
            new.letter = self._captures[index].letter
            self._captures[index] = new
            self._reassign()
            self._say("app.msg.pocket_captured", n=str(len(self._captures)), total=str(len(FACES)))
            return self._resolve()
        if seen_before(new, self._captures, self._cfg.identity):
            if explicit:
                self._say("app.msg.pocket_already")
            return []  # the face just captured, seen again (every sticker alike)
        if len(self._captures) == len(FACES) or self._label in self._faces:
            return []
        self._named = self._named or self._label is not None
        new.letter = self._label or self._next_face()
        self._captures.append(new)
        self._reassign()
        self._say("app.msg.pocket_captured", n=str(len(self._captures)), total=str(len(FACES)))
        return self._resolve() if len(self._captures) == len(FACES) else []

    def _answer(self, yes: bool) -> list[Effect]:
        assert self._pending is not None
        index, new = self._pending
        self._pending = None
        self._mode = self._back_to
        colour = self._scheme[self._letter(self._captures[index])]
        if not yes:
            self._say("app.msg.kept", colour=colour)
            return []
        new.letter = self._captures[index].letter
        self._captures[index] = new
        self._reassign()
        turns = (held_turned(self._letter(new), self._faces, self._scheme, self._cfg.turned_evidence)
                 if self._size == 3 else None)
        if turns is not None:
            self._captures[index] = turned_upright(new, turns)
            self._reassign()
        self._say("app.msg.replaced", colour=colour)
        return self._resolve() if len(self._captures) == len(FACES) else []

    def _undo(self) -> None:
        if not self._captures:
            self._say("app.msg.nothing_to_undo")
            return
        last = self._captures[-1]
        face = self._letter(last)
        colour = self._scheme[face]
        self._captures.pop()
        if self._size == 2:
            self._reassign()
            self._track = None
            self._say("app.msg.pocket_undone")
            return
        if not self._by_centre:
            self._scheme[face] = self._cfg.scheme.get(face, colour)
        self._reassign()
        self._track = None  # the face still held is captured again only after being held steady anew
        self._say("app.msg.undone", colour=colour)

    def _resolve(self) -> list[Effect]:
        self._mode = Mode.RESOLVING
        self._track = None
        held = [f for f in FACES if f in self._faces]  # all six, or five: the sixth to be deduced
        rgb = {f: self._faces[f].resolved_rgb() for f in held}  # a lamp's spot taken off, as qbr scan does
        trust = {f: self._faces[f].trust() for f in held}  # a sticker a lamp's spot lit weighs less
        return [ResolveCube(rgb=rgb, palette=self._palette, any_order=self._size == 2 and not self._named,
                            trust=trust, placeable=self._by_centre)]

    def _on_resolved(self, event: ResolvedEvent) -> list[Effect]:
        if self._mode is not Mode.RESOLVING:
            return []  # an answer nobody waits for any more
        from_hand, self._from_hand = self._from_hand, False
        if from_hand and (event.solution is None or event.error is not None):
            return self._edit_refused(event)
        if not from_hand:
            self._edit = None  # a new scan: an earlier fix by hand no longer applies
        self._resolution = event.resolution
        turned = dict(getattr(event.resolution, "turned", None) or {})
        placed = dict(getattr(event.resolution, "placed", None) or {})
        if placed:  # faces placed by the pieces they show, not by their centres' names: the session follows
            held = dict(self._faces)
            self._faces = {face: held[placed.get(face, face)] for face in held}
        if event.solution is not None and event.error is None:
            doubt = getattr(event.resolution, "doubt", None)
            # A face that can't be shown again (the video or photos are over) is not asked for: taken as read.
            # Nor is one when a face was deduced (its notice says to check it; E fixes stickers by hand).
            can_ask = self._cfg.ask_again and self._ended is None and not self._one_lost()
            if (getattr(event.resolution, "unsettled", ()) and self._one_lost() and self._ended is None
                    and not self._unsettled_asked and not from_hand):
                # The five faces fit more than one real cube: only the face never seen settles it; D again takes
                # the cube as deduced.
                self._unsettled_asked = True
                self._mode = Mode.SCANNING
                missing = next(f for f in FACES if f not in self._faces)
                self._say("app.msg.deduce_failed", persistent=True, colour=self._unseen_colour(missing))
                return []
            if doubt is not None and doubt.face is not None and not self._doubt_asked and can_ask:
                # Another real cube fits nearly as well: one more look at the face that decides, once.
                self._doubt_asked = True
                self._mode = Mode.INVALID
                self._highlight = doubt.face
                self._say("app.msg.doubt", persistent=True, colour=self._scheme.get(doubt.face, doubt.face))
                return []
            self._doubt_asked = self._unsettled_asked = False
            self._solution = event.solution
            self._step = 0
            self._highlight = None
            self._mode = Mode.SOLUTION
            self._message = None
            if self._size == 2 and event.resolution.colour_names:
                self._scheme = dict(event.resolution.colour_names)  # no centres: the cube's pieces named them
            if self._size == 2:
                return [PrintText(pocket_text(event.solution, self._tr()))]
            lost = lost_faces(getattr(event.resolution, "deduced", None) or (), len(event.resolution.facelets))
            # A face never captured has its colour from the cube's pieces, not the default scheme's guess.
            self._scheme.update({f: event.resolution.colour_names[f] for f in lost
                                 if f in event.resolution.colour_names})
            notices = [*placed_notices(placed, self._scheme, self._tr()),
                       *turned_notices(turned, self._scheme, self._tr()),
                       *lost_notices(lost, self._scheme, self._tr())]
            if lost:
                face = lost[0]
                self._say("app.notice.deduced_cube_face", face=face, colour=self._scheme.get(face, face))
            elif placed:
                face, given = next(iter(placed.items()))
                # Centres named for each other: a calibration's doing when there is one; say how to undo it.
                hint = ("app.msg.calibration_hint",) if self._calibrated() else ()
                self._message = (lambda tr: _sentences(tr, *placed_notices({face: given}, self._scheme, tr),
                                                       *(tr.t(k) for k in hint)), None)
            elif turned:
                face, k = next(iter(turned.items()))
                self._say(TURN_KEYS[k], face=face, colour=self._scheme.get(face, face))
            elif not from_hand and event.resolution.uncertain:
                # The stickers the resolver is least sure of: worth a look on the net before solving.
                review = len(event.resolution.uncertain)
                self._message = (lambda tr: tr.t("app.msg.review", count=review), None)
            text = solution_text(event.solution, self._tr(), self._cfg.normalize, self._scheme)
            return [PrintText("\n".join([*notices, text]))]
        if self._one_lost():  # the other five faces do not fix the one never seen
            if self._ended is not None:
                self._end()  # say what is missing
            else:
                self._mode = Mode.SCANNING  # it can still be shown
                missing = next(f for f in FACES if f not in self._faces)
                self._say("app.msg.deduce_failed", persistent=True, colour=self._unseen_colour(missing))
            return []
        self._mode = Mode.INVALID
        self._highlight = getattr(event.resolution, "least_certain_face", None)
        problems = list(getattr(event.error, "problems", None) or getattr(event.resolution, "problems", None) or [])
        error = event.error
        if problems:
            first = problems[0]
            self._message = (lambda tr: problem_message(first, tr), None)
        elif error is not None:
            self._message = (lambda tr: str(error), None)
        else:
            self._say("app.msg.invalid", persistent=True)
        said = self._message
        if said is not None and self._calibrated():
            # A bad calibration makes every later cube fail to resolve: say so, and how to undo it.
            self._message = (lambda tr: _sentences(tr, said[0](tr), tr.t("app.msg.calibration_hint")), None)
        if self._ended is None and self._named and not self._cfg.ask_again:
            self._ended = ("photos", self._t)  # six photos named for their faces, all used: none can come again
        if self._ended is not None:
            self._end()
        return []

    def _one_lost(self) -> bool:
        """Five faces of a 3x3x3 captured: the sixth's stickers may follow from their pieces (or are being deduced)."""
        return self._size == 3 and len(self._faces) == len(FACES) - 1

    def _unseen_colour(self, face: str) -> str:
        """The colour of a face not captured: the one colour no captured centre shows when only one is left (photos
        named for their faces keep their own centres, so the default scheme's guess can be taken), else that guess."""
        seen = {self._scheme[f] for f in self._faces}
        left = [c for c in dict.fromkeys(self._cfg.scheme.values()) if c not in seen]
        return left[0] if len(left) == 1 else self._scheme.get(face, face)

    def _deducible(self) -> bool:
        """Scanning with one face lost: it can be deduced now (D, or the source's end)."""
        return self._mode is Mode.SCANNING and self._one_lost()

    def _new_cube_possible(self) -> bool:
        """On the Done screen, while the source can still show another cube (a video or photos that ended cannot)."""
        sol = self._solution
        return self._mode is Mode.SOLUTION and sol is not None and self._step >= len(sol.moves) and self._ended is None

    def _new_cube(self) -> None:
        """Done with this cube: scan another one, keeping the language, colours and cube size."""
        self._captures, self._faces, self._pending, self._highlight = [], {}, None, None
        self._resolution, self._solution, self._step, self._doubt_asked = None, None, 0, False
        self._unsettled_asked = False
        self._edit, self._from_hand = None, False  # a fix by hand belonged to the cube just solved
        self._scheme = dict(self._cfg.scheme)
        self._by_centre = self._size == 3 and self._scheme == STANDARD_SCHEME
        if self._track is not None:
            self._track.done = True  # the solved cube still held is not the new cube's first face
        self._mode = Mode.SCANNING
        self._say("app.msg.new_cube")
    def _edit_refused(self, event: ResolvedEvent) -> list[Effect]:
        """A cube fixed by hand that is still not a real one: back to the net, what is wrong said and marked."""
        self._mode = Mode.EDITING
        problems = list(getattr(event.error, "problems", None) or event.resolution.problems or [])
        if problems:
            first = problems[0]
            self._message = (lambda tr: problem_message(first, tr), None)
            if self._edit is not None:
                self._edit = self._edit.with_review(tuple(i for p in problems for i in p.facelets))
        elif event.error is not None:
            error = event.error
            self._message = (lambda tr: str(error), None)
        return []

    def _on_ended(self, event: EndedEvent) -> list[Effect]:
        """The video or photos are over: nothing more can be captured, so say what is missing, then quit."""
        if self._ended is None:
            self._ended = (event.source, event.t)
        if self._mode in (Mode.SOLUTION, Mode.RESOLVING, Mode.ENDED, Mode.EDITING):
            return []  # solved (the solution stays to step through), decided when the answer comes or the net is left
        if self._deducible():
            return self._resolve()  # one face never seen: the other five faces' pieces may fix its stickers
        self._end()
        return []

    def _end(self) -> None:
        assert self._ended is not None
        if self._mode is not Mode.INVALID:
            self._message = None  # an invalid cube's problem stays shown beside the end
        self._ended = (self._ended[0], self._t)  # what is missing is shown from now, for ended_seconds
        self._mode = Mode.ENDED
        self._cal = None
        self._pending = None
        self._track = None

    # ------------------------------------------------------------------------------------- calibration

    def _calibrate(self, t: float, rgb: np.ndarray) -> None:
        cal = self._cal
        assert cal is not None
        if cal.add(t, rgb, self._cfg):
            # Nothing changes yet: the new colours are shown beside the faces they came from, saved on Y.
            self._cal_palette = cal.palette(self._palette)
            self._mode = Mode.CONFIRM_CALIBRATION
            alike = cal.too_alike(self._cal_palette, self._cfg)
            if alike is not None:
                a, b = alike
                self._message = (lambda tr: tr.t("app.msg.calibration_alike", colour=_colour_name(tr, a),
                                                 other=_colour_name(tr, b)), None)
            else:
                self._message = None

    def _keep_calibration(self, yes: bool) -> list[Effect]:
        cal, palette = self._cal, self._cal_palette
        assert cal is not None and palette is not None
        if yes and cal.too_alike(palette, self._cfg) is not None:
            return []  # the message says which two colours came out alike: only N (or C again) leaves
        self._cal, self._cal_palette = None, None
        self._mode = self._back_to
        if not yes:
            self._say("app.msg.calibration_discarded")
            return []
        self._palette = palette
        self._reassign()  # the new colours may tell the captured centres apart better
        self._say("app.msg.calibration_saved")
        return [SavePalette(self._palette), *self._resolve_again()]

    def _reset_colours(self) -> list[Effect]:
        from qbr.vision.palette import DEFAULT_PALETTE

        self._cal, self._cal_palette = None, None
        self._palette = DEFAULT_PALETTE
        self._reassign()
        if self._mode in (Mode.CALIBRATING, Mode.CONFIRM_CALIBRATION):
            self._mode = self._back_to
        self._say("app.msg.calibration_reset")
        return [SavePalette(None), *self._resolve_again()]

    def _calibrated(self) -> bool:
        """The colours are the user's calibration, not the defaults (what a cube that does not resolve may owe)."""
        from qbr.vision.palette import DEFAULT_PALETTE

        return self._palette != DEFAULT_PALETTE

    def _resolve_again(self) -> list[Effect]:
        # New colours may be what an unreadable cube needed: read the captured faces again with them.
        return self._resolve() if self._mode is Mode.INVALID and len(self._faces) == len(FACES) else []

    # ------------------------------------------------------------------------------------------- view

    def _tr(self) -> Translator:
        return self._translators[self._lang]

    def _say(self, key: str, persistent: bool = False, **params: str) -> None:
        def text(tr: Translator) -> str:
            shown = {k: (_colour_name(tr, v) if k == "colour" else v) for k, v in params.items()}
            if key == "app.msg.language":
                shown["language"] = tr.t("app.language_name")
            return tr.t(key, **shown)

        self._message = (text, None if persistent else self._t + self._cfg.message_seconds)

    @property
    def mode(self) -> Mode:
        """The current mode (NO_FRAMES is only shown, never a mode of its own)."""
        return self._mode

    @property
    def mirror(self) -> bool:
        """Frames are flipped left to right before they are read (a mirrored webcam turned back)."""
        return self._mirror

    @property
    def ended(self) -> bool:
        """The source ended before the cube was solved (the session then quits by itself)."""
        return self._mode is Mode.ENDED

    @property
    def size(self) -> int:
        """The cube being scanned: 3 or 2 (switched by a face of the other size held steady)."""
        return self._size

    @property
    def captured_count(self) -> int:
        return len(self._faces)

    @property
    def resolution(self) -> Resolution | None:
        return self._resolution

    @property
    def solution(self) -> Solution | None:
        return self._solution

    @property
    def palette(self) -> Palette:
        return self._palette

    @property
    def language(self) -> str:
        return self._lang

    def captured_rgb(self) -> dict[str, np.ndarray]:
        """Mean sRGB of each captured face."""
        return {f: face.rgb.copy() for f, face in self._faces.items()}

    def view(self) -> ViewModel:
        """What to draw now."""
        tr = self._tr()
        mode = self._mode
        shown = mode
        if not self._source_ok and mode in (Mode.SCANNING, Mode.INVALID, Mode.CALIBRATING, Mode.CONFIRM_REPLACE):
            shown = Mode.NO_FRAMES
        message = None
        if self._message is not None and (self._message[1] is None or self._t < self._message[1]):
            message = self._message[0](tr)
        if shown is Mode.NO_FRAMES:
            message = tr.t("app.msg.no_frames")
        elif mode is Mode.CALIBRATING and self._cal is not None and self._cal.refusal is not None:
            message = self._refusal_text(tr)
        guide = None
        if mode in (Mode.SCANNING, Mode.INVALID, Mode.CONFIRM_REPLACE):
            face = self._next_face()
            guide = self._guide(face, tr) if face is not None else None
        return ViewModel(
            mode=shown,
            language=self._lang,
            rtl=tr.rtl,
            status=self._status(tr),
            prompt=self._prompt(tr, guide),
            message=message,
            guide=guide,
            preview=self._preview(),
            captured={f: face.colours for f, face in self._faces.items()},
            highlight_face=self._highlight if mode is Mode.INVALID else None,
            review=tuple(self._resolution.uncertain)
            if mode in (Mode.INVALID, Mode.ENDED) and self._resolution is not None
            else (),
            step=self._current_step(tr),
            solution=tuple(str(m) for m in self._solution.moves) if self._solution is not None else (),
            legend=self._legend(tr),
            legend_item=tr.t("app.legend.item", key="{key}", action="{action}"),  # the template, for the overlay
            colour_rgb={n: tuple(round(float(v)) for v in rgb) for n, rgb in self._palette.colours.items()},
            scheme=dict(self._scheme),
            calibration=(self._cal.colour, self._cal.index, len(self._cal.names))
            if self._cal is not None
            else None,
            size=self._size,
            calibration_review=self._review(tr),
            edit=edit_view(self._edit, self._edit_colours())
            if mode is Mode.EDITING and self._edit is not None
            else None,
        )

    def _refusal_text(self, tr: Translator) -> str:
        cal = self._cal
        assert cal is not None and cal.refusal is not None
        key = "app.msg.calibration_too_close" if cal.refusal.reason == "too_close" else "app.msg.calibration_looks_like"
        return tr.t(key, colour=_colour_name(tr, cal.colour), other=_colour_name(tr, cal.refusal.other or ""))

    def _review(self, tr: Translator) -> CalibrationReview | None:
        cal, palette = self._cal, self._cal_palette
        if self._mode is not Mode.CONFIRM_CALIBRATION or cal is None or palette is None:
            return None

        def rgb(values: object) -> tuple[int, int, int]:
            r, g, b = (round(float(v)) for v in np.asarray(values, dtype=float))
            return (r, g, b)

        rows = tuple(ReviewRow(name=name, label=_colour_name(tr, name), new=rgb(palette.colours[name]),
                               old=rgb(self._palette.colours[name]),
                               face=tuple(rgb(v) for v in cal.faces[name])) for name in cal.names)
        return CalibrationReview(rows=rows, title=tr.t("app.review.title"), new_label=tr.t("app.review.new"),
                                 old_label=tr.t("app.review.old"))

    def _guide(self, face: str, tr: Translator) -> Guide:
        top, right = NEIGHBOURS[face][0], NEIGHBOURS[face][1]
        if self._size == 2:
            # No centres to name: how to turn the cube from the way the first face was held.
            return Guide(face=face, front=self._scheme[face], top=self._scheme[top], right=self._scheme[right],
                         text=tr.t(f"app.guide.pocket.{face}"))
        return Guide(
            face=face,
            front=self._scheme[face],
            top=self._scheme[top],
            right=self._scheme[right],
            text=_orientation(tr, face, top, self._scheme),
        )

    def _preview(self) -> Preview | None:
        a = self._last
        if a is None or not self._source_ok:
            return None
        det = a.detection
        if self._mode is Mode.CALIBRATING and self._cal is not None:
            steady = min(1.0, self._cal.frames / max(1, self._cfg.calibration_min_frames))
        elif self._track is not None and not self._track.done:
            steady = self._track.held(self._cfg.steady_seconds)
            if steady >= 1.0 and self._track.agreed(self._cfg) is None:
                steady = 0.95  # held long enough, but the colours still flicker
        else:
            steady = 0.0
        return Preview(
            stickers=getattr(det, "stickers", None),
            outline=getattr(det, "outline", None),
            colours=tuple(a.colours) if a.colours is not None else None,
            steady=steady,
            unsure=None if a.confidence is None else tuple(
                bool(c < self._cfg.unsure_below) for c in np.asarray(a.confidence)),
        )

    def _status(self, tr: Translator) -> str:
        if self._mode is Mode.CALIBRATING and self._cal is not None:
            return tr.t("app.status.calibrating", n=self._cal.index + 1, total=len(self._cal.names))
        if self._mode is Mode.SOLUTION and self._solution is not None:
            return tr.t("app.status.solution", count=len(self._solution.moves))
        return tr.t("app.status.faces", n=len(self._faces), count=len(FACES))

    def _ended_text(self, tr: Translator) -> str:
        """What the ended source left undone: "The video ended after 4 of 6 faces. Missing: red, blue."."""
        kind = self._ended[0] if self._ended is not None else "video"
        n, total = len(self._faces), len(FACES)
        if n == 0:
            return tr.t(f"app.ended.{kind}.none")
        if n == total:
            return tr.t(f"app.ended.{kind}.unreadable")
        if self._size == 2:
            return tr.t(f"app.ended.{kind}.pocket", n=n, total=total)
        missing = [f for f in self._cfg.order if f not in self._faces]
        names = tr.t("list.separator").join(_colour_name(tr, self._unseen_colour(f)) for f in missing)
        return tr.t(f"app.ended.{kind}", n=n, total=total, missing=names)

    def _prompt(self, tr: Translator, guide: Guide | None) -> str:
        mode = self._mode
        if mode is Mode.ENDED:
            return self._ended_text(tr)
        if mode is Mode.CONFIRM_REPLACE and self._pending is not None:
            face = self._letter(self._captures[self._pending[0]])
            return tr.t("app.prompt.replace", colour=_colour_name(tr, self._scheme[face]))
        if mode is Mode.CALIBRATING and self._cal is not None:
            return tr.t("app.prompt.calibrate", colour=_colour_name(tr, self._cal.colour))
        if mode is Mode.CONFIRM_CALIBRATION:
            return tr.t("app.prompt.calibration_review")
        if mode is Mode.RESOLVING:
            if self._solving_best is not None:
                return tr.t("app.prompt.solving_best", count=self._solving_best)
            return tr.t("app.prompt.resolving")
        if mode is Mode.EDITING:
            return tr.t("app.prompt.edit")
        if mode is Mode.INVALID:
            if guide is not None and self._highlight is not None:
                if self._size == 2:
                    return guide.text
                return tr.t("app.prompt.rescan", colour=_colour_name(tr, guide.front))
            return tr.t("app.prompt.rescan_any")
        if mode is Mode.SOLUTION and self._solution is not None:
            if not self._solution.moves:
                return tr.t("app.prompt.already_solved")
            if self._step >= len(self._solution.moves):
                return tr.t("app.prompt.solved")
            said = []
            if self._step == 0:
                said.append(self._hold(tr))  # before the first move: how to hold the cube (the small cube marks it)
            if self._step == len(self._solution.moves) - 1:
                said.append(tr.t("app.prompt.solution_last"))
            return _sentences(tr, *said) if said else tr.t("app.prompt.solution")
        if not self._faces:
            return tr.t("app.prompt.first_face")
        return tr.t("app.prompt.scan")

    def _legend(self, tr: Translator) -> tuple[tuple[str, str], ...]:
        mode = self._mode
        keys: list[tuple[str, str]]
        if mode is Mode.CONFIRM_REPLACE:
            keys = [("Y", "app.key.replace"), ("N", "app.key.keep")]
        elif mode is Mode.CALIBRATING:
            keys = [("C", "app.key.leave_calibration"), ("R", "app.key.reset_colours")]
        elif mode is Mode.CONFIRM_CALIBRATION:
            keys = [("Y", "app.key.save_colours"), ("N", "app.key.discard_colours"), ("R", "app.key.reset_colours")]
        elif mode is Mode.ENDED and self._fixable():
            keys = [("E", "app.key.fix_by_hand")]  # no face can be shown again, but stickers can be fixed
        elif mode in (Mode.RESOLVING, Mode.ENDED):
            keys = []
        elif mode is Mode.SOLUTION:
            done = self._solution is None or self._step >= len(self._solution.moves)
            keys = [] if done else [("app.keyname.right", "app.key.next")]
            if self._step > 0:
                keys.append(("app.keyname.left", "app.key.previous"))
            if self._new_cube_possible():
                keys.append(("N", "app.key.new_cube"))
            keys += [("E", "app.key.fix_by_hand"), ("C", "app.key.calibrate")]
        elif mode is Mode.EDITING:
            keys = [(f"{COLOUR_KEYS[0]}-{COLOUR_KEYS[-1]}", "app.key.set_colour"),  # "-" keeps 1-6 in order in RTL
                    ("app.keyname.arrows", "app.key.move"), ("app.keyname.enter", "app.key.check_solve"),
                    ("app.keyname.backspace", "app.key.undo_change"), ("app.keyname.esc", "app.key.leave_edit"),
                    ("L", "app.key.language")]
            return tuple((tr.t(label) if label in tr else label, tr.t(key)) for label, key in keys)
        else:
            keys = [("app.keyname.space", "app.key.capture")]
            if mode is Mode.INVALID and self._resolution is not None:
                keys.insert(0, ("E", "app.key.fix_by_hand"))  # instead of scanning again
            if mode is Mode.SCANNING and self._captures:
                keys.append(("app.keyname.backspace", "app.key.undo"))
            if self._deducible():
                keys.append(("D", "app.key.deduce"))
            keys.append(("C", "app.key.calibrate"))
            if mode is Mode.INVALID and self._calibrated():
                keys.append(("R", "app.key.reset_colours"))
            if not self._captures:
                keys.append(("M", "app.key.mirror"))  # before the first face, when a mirrored webcam is noticed
        keys += [("L", "app.key.language"), ("app.keyname.esc", "app.key.quit")]
        # Letter keys are shown as printed on the key, named keys (app.keyname.*) in the language's words.
        return tuple((tr.t(label) if label in tr else label, tr.t(key)) for label, key in keys)

    def _current_step(self, tr: Translator) -> Step | None:
        sol = self._solution
        if self._mode is not Mode.SOLUTION or sol is None or self._step >= len(sol.moves):
            return None
        move = sol.moves[self._step]
        total = len(sol.moves)
        return Step(
            index=self._step,
            total=total,
            move=str(move),
            face=move.face,
            turns=move.turns,
            sentence=move_sentence(move, tr),
            counter=tr.t("step", n=self._step + 1, total=total),
            facelets_before=apply_to_facelets(sol.facelets, sol.moves[: self._step], self._size),
            # Face turns never change how the cube is held: it is said (and marked) before the first move.
            hold=self._hold(tr) if self._step == 0 else None,
        )

    def _hold(self, tr: Translator) -> str:
        """How to hold the cube for the solution, as the terminal says it."""
        if self._size == 2:
            return tr.t("orientation.pocket")
        return _orientation(tr, "F", "U", self._scheme)


def _read(a: FrameAnalysis) -> CapturedFace:
    """The face as a frame read it: names, mean sRGB, each sticker's spot share and its colour without the spot."""
    spot = None if a.spot is None else np.asarray(a.spot, dtype=float)
    own = None if a.own is None else np.asarray(a.own, dtype=float)
    spread = None if a.spread is None else np.asarray(a.spread, dtype=float)
    return CapturedFace(tuple(a.colours or ()), np.asarray(a.rgb, dtype=float), spot=spot, own=own, spread=spread)


def _sentences(tr: Translator, *texts: str) -> str:
    """Sentences run together as the language writes them (no space after a full-width full stop)."""
    return ("" if tr.lang in ("zh-Hans", "zh-Hant", "ja") else " ").join(texts)


def _colour_name(tr: Translator, name: str) -> str:
    return colour_name(name, tr)


def _orientation(tr: Translator, front: str, top: str, scheme: Mapping[str, str]) -> str:
    return orientation_sentence(tr, front, top, scheme)
