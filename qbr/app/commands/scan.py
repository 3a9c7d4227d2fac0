"""``qbr scan`` (six photos) and ``qbr resolve`` (measured colours as JSON): read a cube, name its colours, solve."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from qbr.app.commands.result import CommandResult
from qbr.app.errors import InputFileError, NoFaceFoundError
from qbr.cube.conventions import FACE_NAMES, FACES
from qbr.files.limited_json import read_json, shown
from qbr.files.read import UnreadableFile

if TYPE_CHECKING:
    from qbr.app.environment import Environment
    from qbr.solve.i18n import Translator
    from qbr.vision.detect import FaceDetection
    from qbr.vision.measure import StickerColours
    from qbr.vision.tunables import Tunables

_MAX_JSON_BYTES = 1_000_000  # a colour scan is a few kB; refuse to parse anything absurd
SIZES = (2, 3)  # cubes that can be read: 2x2x2 and 3x3x3


def scan_command(
    paths: list[Path], lang: str, budget: float, debug_dir: Path | None, env: Environment, size: int | None = None
) -> CommandResult:
    """Read six photos (faces U R F D L B, each in the standard net orientation), resolve and solve the cube.

    The cube's size (3x3x3 or 2x2x2) is the size of the grids found, which must agree; ``size`` forces it.
    """
    from qbr.app.debug_images import annotate, write_image
    from qbr.app.headless import translator
    from qbr.app.jobs import resolved_in_order
    from qbr.app.report import cube_result
    from qbr.app.sources import read_image
    from qbr.app.store import Store
    from qbr.vision.classify import classify_face
    from qbr.vision.palette import DEFAULT_PALETTE
    from qbr.vision.tunables import Tunables

    if len(paths) != len(FACES):
        raise InputFileError(
            f"qbr scan needs six photos, one per face in the order U R F D L B; got {len(paths)}"
            + (f" ({', '.join(map(str, paths))})" if paths else "")
        )
    tr = translator(lang)
    stored, notices = Store(env.config_dir).load_palette()
    palette = stored or DEFAULT_PALETTE
    tunables = Tunables()
    images = [read_image(path) for path in paths]  # every file checked before any slow work
    read = read_photos(images, tunables, size)
    rgb, trust, sizes, left_out = read.rgb, read.trust, read.sizes, read.left_out
    if debug_dir is not None:
        for face, path, image in zip(FACES, paths, images, strict=True):
            detection = read.detections[face]
            m = read.measured.get(face)
            names = None if m is None else classify_face(m.rgb, palette, tunables, glare=m.glare, spot=m.spot,
                                                         spread=m.spread).names
            annotated = annotate(image, detection, names, f"{face}: {path.name}", palette)
            write_image(Path(debug_dir) / f"{face}.png", annotated)
    missing = [f"{path} ({FACE_NAMES[face]} face {face})" for face, path in zip(FACES, paths, strict=True)
               if face not in rgb]
    which = "cube" if size is None else f"{size}x{size}x{size}"
    advice = "photograph the face straight on, filling a good part of the picture, in even light"
    not_found = NoFaceFoundError(f"no {which} face found in {'; '.join(missing)}: {advice}")
    # One 3x3x3 face lost: its stickers may follow from the other five (resolution says whether they do).
    if missing and not (len(missing) == 1 and size != 2 and set(sizes.values()) == {3}):
        raise not_found
    by_face = dict(zip(FACES, paths, strict=True))
    cube_size(sizes, by_face)  # photos of two different sizes are refused here
    resolved, placed = resolved_in_order(rgb, palette, budget, trust)
    if missing and (not resolved[0].valid or resolved[0].unsettled):
        # The other five faces do not fix the lost one's stickers: that photo is the problem.
        raise NoFaceFoundError(f"no {which} face found in {missing[0]}, and the other five faces do not fix its "
                               f"stickers: {advice}")
    result = cube_result(*resolved, tr, colour=env.stdout_isatty, left_out=left_out)
    if placed is not None:
        result = _with_order_notices(result, placed, by_face, resolved[0].colour_names, tr)
    if notices:
        result.payload["warnings"] = [tr.t(key, **params) for key, params in notices]
    return result


@dataclasses.dataclass(frozen=True)
class PhotoReads:
    """What the six photos gave, before resolution: face -> stickers (sRGB), per-sticker trust, grid size."""

    rgb: dict[str, np.ndarray]
    """Faces found (or completed), each as finally measured; a face not found is absent."""
    trust: dict[str, np.ndarray]
    """Per sticker, the share of its light not a glare spot's; only for faces kept as first measured."""
    sizes: dict[str, int]
    detections: dict[str, FaceDetection | None]
    """Each photo's first detection (None: nothing found there at first)."""
    measured: dict[str, StickerColours]
    """Each photo's first detection as measured, with its glare and spot shares and spread (for ``--debug``'s names,
    as the live preview gives them)."""
    left_out: tuple[str, ...]
    """Faces found but left out (filled in from the others)."""


def read_photos(images: list[np.ndarray], tunables: Tunables, size: int | None = None) -> PhotoReads:
    """Detect and measure each of the six photos (in the order U R F D L B), as ``qbr scan`` does: a 3x3x3's face
    read as a 2x2 grid searched again, a 2x2x2's missing faces completed."""
    from qbr.vision.detect import detect_face
    from qbr.vision.measure import measure_stickers_with_spread

    rgb: dict[str, np.ndarray] = {}
    trust: dict[str, np.ndarray] = {}  # per sticker, the share of its light not a glare spot's: resolution weighs it so
    sizes: dict[str, int] = {}
    detections: dict[str, FaceDetection | None] = {}
    measured: dict[str, StickerColours] = {}
    for face, image in zip(FACES, images, strict=True):
        detection = detections[face] = detect_face(image, tunables, size)
        if detection is not None:
            sizes[face] = detection.size
            measured[face] = measure_stickers_with_spread(image, detection, tunables)
            # Each sticker's own light (a glare spot's taken off), and how little of it the spot left.
            rgb[face], trust[face] = measured[face].own, 1.0 - measured[face].spot
    first = dict(rgb)  # each face's stickers as first measured, with their spot shares
    settle_cube(images, sizes, rgb, tunables, size)
    left_out = complete_pocket(images, sizes, rgb, tunables, size)
    # A face measured again (settled as a 3x3x3's, or completed) has no spot shares of its own: fully trusted.
    trust = {f: w for f, w in trust.items() if rgb.get(f) is first[f]}
    return PhotoReads(rgb, trust, sizes, detections, measured, left_out)


def settle_cube(images: list[np.ndarray], sizes: dict[str, int], rgb: dict[str, np.ndarray],
                tunables: Tunables, size: int | None) -> None:
    """Four or more photos read as 3x3x3 faces and the others as 2x2 grids: those are searched again for a 3x3x3's
    face only and read as one if it is found, as a 3x3 face's corner block seen alone (glare, a face running off
    the frame) can pass for a 2x2x2's face. One photo still read as a 2x2 beside five 3x3x3 faces is left as not
    found (its face deduced from the other five); two or more are refused with the others (two cubes)."""
    from qbr.vision.detect import detect_face
    from qbr.vision.measure import measure_stickers

    if size is not None or sum(sizes.get(f) == 3 for f in FACES) < len(FACES) - 2:
        return
    for face in [f for f in FACES if sizes.get(f) == 2]:
        image = images[FACES.index(face)]
        found = detect_face(image, tunables, 3)
        if found is not None:
            rgb[face], sizes[face] = measure_stickers(image, found, tunables), 3
    odd = [f for f in FACES if sizes.get(f) == 2]
    if len(odd) == 1 and sum(sizes.get(f) == 3 for f in FACES) == len(FACES) - 1:
        del rgb[odd[0]], sizes[odd[0]]  # five 3x3x3 faces: the lone 2x2 grid is no face of theirs, deduced instead


def complete_pocket(images: list[np.ndarray], sizes: dict[str, int], rgb: dict[str, np.ndarray],
                    tunables: Tunables, size: int | None) -> tuple[str, ...]:
    """Four or five faces of a 2x2x2 found (``sizes``/``rgb``, face -> grid size / stickers) and the rest not:
    completed.

    A photo read as a 3x3 grid (a tiled wall around the face) is searched again for a 2x2x2's face only (unless the
    size was given); then ``complete_faces``: with two faces still lost, one is looked for with the cube's help
    (where its photo shows four stickers that make the cube real); a face still lost is left as unmeasured
    stickers, which the resolution fills in from the other five (two stickers of each corner are on them). Faces
    that make no sure cube while all but one of them do: that one (a grid on something else) is left out likewise.
    Returns the faces found but left out (to be told apart from faces not found).
    """
    from qbr.vision.detect import detect_face
    from qbr.vision.measure import measure_stickers
    from qbr.vision.pocket_recover import complete_faces

    if size == 3 or sum(sizes.get(f) == 2 for f in FACES) < len(FACES) - 2:
        return ()  # not a 2x2x2 as far as the photos tell
    for face in [f for f in FACES if sizes.get(f) != 2]:
        rgb.pop(face, None)
        sizes.pop(face, None)
        if size is None:  # with the size given the first search looked for a 2x2x2's face only already
            image = images[FACES.index(face)]
            found = detect_face(image, tunables, 2)
            if found is not None:
                rgb[face], sizes[face] = measure_stickers(image, found, tunables), 2
    found = set(rgb)
    for face, stickers in complete_faces(dict(zip(FACES, images, strict=True)), rgb, tunables).items():
        rgb[face], sizes[face] = stickers, 2
    return tuple(f for f in FACES if f in found and not np.isfinite(rgb[f]).any())


def _with_order_notices(
    result: CommandResult, placed: Mapping[str, str], paths: Mapping[str, Path], colours: Mapping[str, str],
    tr: Translator,
) -> CommandResult:
    """``result`` saying, first, which photo was read as which face (each moved one, in the user's language)."""
    from qbr.solve.instructions import colour_name

    lines = [
        tr.t("app.notice.reordered", photo=paths[photo].name, colour=colour_name(colours.get(face, face), tr),
             given=photo, face=face)
        for face, photo in placed.items() if face != photo
    ]
    payload = {**result.payload, "notices": [*lines, *result.payload.get("notices", [])],
               "placed": {face: str(paths[photo]) for face, photo in placed.items()}}
    return dataclasses.replace(result, payload=payload, text="\n".join([*lines, result.text]))


def cube_size(sizes: Mapping[str, int], paths: Mapping[str, Path]) -> int:
    """The one grid size of the faces found (3 or 2); InputFileError naming the photos when they disagree."""
    by_size: dict[int, list[str]] = {}
    for face in [f for f in FACES if f in sizes]:  # a face not found has no size
        by_size.setdefault(sizes[face], []).append(f"{paths[face]} ({face})")
    if len(by_size) == 1:
        return next(iter(by_size))
    shown = "; ".join(f"{n}x{n}x{n} in {', '.join(names)}" for n, names in sorted(by_size.items(), reverse=True))
    raise InputFileError(
        f"the photos show faces of different cubes: {shown}; photograph one cube, or say which with --size 2 or 3"
    )


def _number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def _scan_size(data: dict, faces: dict, forced: int | None, path: Path) -> int:
    """The cube's size: ``forced`` (``--size``), else the file's "size", else its stickers per face (4 or 9)."""
    declared = data.get("size")
    if declared is not None and (isinstance(declared, bool) or declared not in SIZES):
        raise InputFileError(f'{path}: only 2x2x2 and 3x3x3 cubes can be solved ("size" is {shown(declared)})')
    counts = Counter(len(v) for v in faces.values() if isinstance(v, list)).most_common(1)
    seen = next((n for n in SIZES if counts and counts[0][0] == n * n), None)  # most faces say; odd ones are named
    size = forced or declared or seen
    if size is None:
        raise InputFileError(
            f'{path}: each face in "rgb" must be a list of 4 stickers (2x2x2) or 9 (3x3x3)'
        )
    if forced is not None and declared is not None and forced != declared:
        raise InputFileError(f'{path}: --size {forced} was given, but the file says "size": {declared}')
    return size


def read_colour_scan(path: Path, size: int | None = None) -> dict[str, np.ndarray]:
    """The per-face sRGB of a colour-scan JSON file, (4,3) per face for a 2x2 and (9,3) for a 3x3.

    The size is ``size`` if given (``--size``), else the file's "size", else its stickers per face;
    InputFileError saying exactly what is wrong.
    """
    path = Path(path)
    try:
        data = read_json(path, _MAX_JSON_BYTES, "a colour scan")
    except UnreadableFile as error:
        raise InputFileError(str(error)) from None
    if not isinstance(data, dict) or "rgb" not in data:
        raise InputFileError(f'{path}: expected a JSON object with "rgb": {{"U": [[r, g, b] x 9], ...}}')
    faces = data["rgb"]
    if not isinstance(faces, dict):
        raise InputFileError(f'{path}: "rgb" must be an object with the faces U R F D L B')
    absent = [f for f in FACES if f not in faces]
    if absent:
        raise InputFileError(f'{path}: "rgb" lacks face {", ".join(absent)} (it needs U R F D L B)')
    extra = sorted(str(f)[:20] for f in faces if f not in FACES)
    if extra:
        raise InputFileError(f'{path}: "rgb" has unknown face {", ".join(extra)} (faces are U R F D L B)')
    size = _scan_size(data, faces, size, path)
    per_face = size * size
    out: dict[str, np.ndarray] = {}
    for face in FACES:
        stickers = faces[face]
        if stickers is None:  # a face not measured (e.g. not seen): its stickers may follow from the other five
            out[face] = np.full((per_face, 3), np.nan)
            continue
        if not isinstance(stickers, list) or len(stickers) != per_face:
            count = len(stickers) if isinstance(stickers, list) else type(stickers).__name__
            raise InputFileError(
                f'{path}: "rgb"."{face}" must be a list of {per_face} stickers ({size}x{size}x{size}), got {count}'
            )
        for i, colour in enumerate(stickers):
            if not (isinstance(colour, list) and len(colour) == 3 and all(_number(v) for v in colour)):
                raise InputFileError(f'{path}: "rgb"."{face}"[{i}] must be [r, g, b] numbers, got {shown(colour)}')
            if not all(0 <= v <= 255 for v in colour):
                raise InputFileError(f'{path}: "rgb"."{face}"[{i}] = {colour}: values must be 0-255 (sRGB)')
        out[face] = np.array(stickers, dtype=float)
    return out


def resolve_command(path: Path, lang: str, budget: float, size: int | None = None) -> CommandResult:
    """Name and solve a cube given its measured sticker colours (JSON, faces U R F D L B, sRGB 0-255).

    A 2x2x2 or a 3x3x3, as ``size`` (``--size``), the file's "size" or its stickers per face say.
    """
    from qbr.app.headless import translator
    from qbr.app.jobs import resolve_and_solve
    from qbr.app.report import cube_result

    rgb = read_colour_scan(path, size)
    return cube_result(*resolve_and_solve(rgb, None, budget), translator(lang))
