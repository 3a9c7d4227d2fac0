"""Live per-face preview: name each of a face's nine stickers against a palette (CIEDE2000).

This is only the preview shown while scanning; the cube itself is decided by ``resolve.resolve_cube`` once all
six faces are in, which also uses the centres and the pieces.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from qbr.vision.colour import (
    delta_e,
    encoded_hue,
    glare_free_hue,
    linear_to_lab,
    luminance,
    srgb_decode,
    srgb_to_lab,
)
from qbr.vision.palette import COLOUR_NAMES, Palette
from qbr.vision.tunables import Tunables


@dataclass(frozen=True)
class FaceColours:
    """Colour name, CIEDE2000 distance to that colour, and confidence in [0, 1] for each of nine stickers."""

    names: tuple[str, ...]
    distances: NDArray[np.float64]
    confidence: NDArray[np.float64]
    to_colours: NDArray[np.float64]
    """(stickers, len(COLOUR_NAMES)): CIEDE2000 to each palette colour after the face's light fit (NaN: unmeasured)."""


def _as_stickers(rgb: ArrayLike) -> NDArray[np.float64]:
    stickers = np.asarray(rgb, dtype=np.float64)
    if stickers.ndim != 2 or stickers.shape[1] != 3:
        raise ValueError(f"expected sticker colours of shape (n, 3), got {stickers.shape}")
    # Measured means can overshoot slightly after white balance or interpolation; non-finite values become NaN.
    # np.minimum/np.maximum rather than np.clip: same values, less per-call overhead on nine stickers.
    return np.where(np.isfinite(stickers), np.minimum(np.maximum(stickers, 0.0), 255.0), np.nan)


def _lab_distances(lab: NDArray[np.float64], palette: Palette) -> NDArray[np.float64]:
    _, references = palette.references()
    to_refs = delta_e(lab[:, None, :], references[None, :, :])
    if to_refs.shape[1] == len(COLOUR_NAMES):
        return to_refs
    index = palette.reference_index()
    return np.stack([to_refs[:, index == k].min(axis=1) for k in range(len(COLOUR_NAMES))], axis=1)


def colour_distances(rgb: ArrayLike, palette: Palette) -> NDArray[np.float64]:
    """CIEDE2000 from each sticker to each of the six colours, ``(n, 6)`` in ``COLOUR_NAMES`` order.

    A colour with calibration samples counts as near as its nearest sample.
    """
    return _lab_distances(srgb_to_lab(_as_stickers(rgb)), palette)


def adapt_to_palette(linear: NDArray[np.float64], palette: Palette, tunables: Tunables) -> NDArray[np.float64]:
    """Remove one face's exposure and colour cast (linear sRGB rows in, rows out) by fitting it to the palette.

    The brightest sticker is first brought to the luminance of the palette colour nearest it in chromaticity;
    then, a few times, each sticker is matched to its nearest palette colour and per-channel gains (von Kries)
    are fitted to those matches, each round's change limited so a face without white cannot be dragged far. On
    the real scans this cuts per-sticker errors against a fixed palette by about a third (202 -> 131 of 756);
    anchoring on the centre sticker alone made things worse (217).
    """
    if linear.shape[0] == 0 or tunables.classify_calibration_rounds <= 0:
        return linear
    targets, chroma, main_lab = palette.fit_tables
    # Exposure: bring the brightest sticker to the brightness of the palette colour of the nearest chromaticity
    # (a white one to white; on a face of reds, a red one to red, so it does not turn orange).
    brightest = linear[int(luminance(linear).argmax())]
    like = int(((chroma - brightest / max(float(brightest.sum()), 1e-9)) ** 2).sum(axis=1).argmin())
    adapted = linear * (luminance(targets[like]) / max(float(luminance(brightest)), 1e-6))
    step = tunables.classify_gain_step
    for _ in range(tunables.classify_calibration_rounds):
        # Plain Lab distance for the intermediate matches: CIEDE2000 costs more and changed nothing measured here.
        nearest = ((linear_to_lab(adapted)[:, None, :] - main_lab[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
        target = targets[nearest]
        gains = (adapted * target).sum(axis=0) / np.maximum((adapted * adapted).sum(axis=0), 1e-9)
        adapted = adapted * np.minimum(np.maximum(gains, 1 / step), step)
    return adapted


def _off_the_light(measured: NDArray[np.float64], candidates: NDArray[np.bool_], usable: NDArray[np.bool_],
                   palette: Palette, tunables: Tunables) -> NDArray[np.float64]:
    """How far each candidate as measured lies (CIELAB a, b) from a white of its brightness under the light of the
    face's other stickers (others: 0).

    Under a tungsten lamp a white is measured deep yellow, so the camera's reading alone says nothing; the light
    comes from the other stickers (the fit with this one would take a glare-washed yellow, the brightest, for white).
    """
    off = np.zeros(len(measured))
    for k in np.flatnonzero(candidates).tolist():
        others = usable.copy()
        others[k] = False
        if not others.any():
            off[k] = float(np.hypot(*linear_to_lab(measured[k])[1:]))
            continue
        fitted = adapt_to_palette(measured[others], palette, tunables)
        light = measured[others].sum(axis=0) / np.maximum(fitted.sum(axis=0), 1e-12)
        white = light * (float(luminance(measured[k])) / max(float(luminance(light)), 1e-12))
        off[k] = float(np.hypot(*(linear_to_lab(measured[k])[1:] - linear_to_lab(white)[1:])))
    return off


def _towards_whites(linear: NDArray[np.float64], measured: NDArray[np.float64], usable: NDArray[np.bool_],
                    palette: Palette, tunables: Tunables) -> NDArray[np.float64]:
    """The face's light fit moved part way to making its whites neutral (rows in, rows out).

    The fit matches every sticker to the palette, so a cube whose colours differ from the palette's (pinker
    reds, brighter blues) tints the fit, and with it the whites, which read yellow or blue; whites are alike on
    every cube. The whites: stickers nearest white after the fit that the camera itself saw nearly grey (a
    glare-washed colour keeps some of its own); ``classify_white_pull`` of the way to neutral, since either
    estimate of the light may be the wrong one.
    """
    pull = tunables.classify_white_pull
    if pull <= 0 or not usable.any():
        return linear
    main_lab = palette.fit_tables[2]
    fitted = linear_to_lab(linear[usable])
    nearest = ((fitted[:, None, :] - main_lab[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
    raw = linear_to_lab(measured[usable])
    whites = (nearest == _WHITE) & (np.hypot(raw[:, 1], raw[:, 2]) < tunables.classify_white_raw_chroma)
    if not whites.any():
        return linear
    white = linear[usable][whites].mean(axis=0)
    return linear * (float(luminance(white)) / np.maximum(white, 1e-9)) ** pull


def classify_face(rgb: ArrayLike, palette: Palette, tunables: Tunables = Tunables(),  # noqa: B008
                  glare: ArrayLike | None = None, spot: ArrayLike | None = None,
                  spread: ArrayLike | None = None) -> FaceColours:
    """Name each sticker by its nearest palette colour after removing the face's light (see :func:`adapt_to_palette`).

    ``distances`` are CIEDE2000 to the chosen colour after that correction. Confidence is
    ``1 - exp(-margin / classify_margin_scale)`` with margin the gap to the runner-up colour: 0 for a tie, near 1
    for a clear winner. A red or orange the face cannot split by a hue gap is named by its hue, and is only as sure as
    that hue lies past the red/orange boundary (another camera moves it a few degrees, ``classify_camera_hue``); one
    split by a gap, only as sure as that gap is wider than any other that would name it otherwise (oranges and
    yellows are told apart by hue too, ``_orange_or_yellow``). A sticker with a non-finite measurement gets
    confidence 0 and distance NaN. ``glare`` (each
    sticker's share lost to glare, ``StickerColours.glare``): a sticker named white with much of it clipped or
    washed may be any light colour, so its confidence is capped (a white merely bright loses nothing). ``spot``
    (each sticker's share of light a glare spot adds, ``StickerColours.spot``): a white half lit by a spot, or a
    grey centre a third lit by one, may be any colour too (capped the same). ``spread`` (each sticker's samples'
    spread, ``StickerColours.spread``): a greyish centre printed on is a white under a logo (without it, a grey one).
    """
    raw = np.asarray(rgb, dtype=np.float64)
    finite: NDArray[np.bool_] | None = None  # None: every sticker finite, the usual live frame
    if raw.ndim == 2 and raw.shape[1] == 3 and np.isfinite(raw).all():
        # No masks or masked copies then: numpy's per-call overhead dominates at nine stickers.
        stickers = np.minimum(np.maximum(raw, 0.0), 255.0)
        measured = srgb_decode(stickers)
    else:
        stickers = _as_stickers(rgb)
        finite = np.isfinite(stickers).all(axis=1)
        measured = np.zeros_like(stickers)
        measured[finite] = srgb_decode(stickers[finite])
    logo = False
    if len(stickers) == 9 and (finite is None or finite[4]):
        # A printed logo makes the white centre read dark grey or a colourless mix of its inks (nearest blue); it
        # would also mislead the light fit.
        lab = linear_to_lab(measured[4])
        chroma = math.hypot(lab[1], lab[2])
        if spread is not None:
            # Ink on white is a pattern: its samples spread as no plain sticker's do, glare-hit or not.
            bright = float(np.nanmax(stickers))
            logo = (chroma < tunables.classify_logo_pattern_chroma
                    and float(np.asarray(spread)[4]) > tunables.classify_logo_pattern * bright)
        else:
            logo = chroma < tunables.classify_logo_chroma
            # A centre clipped by glare is as grey as a logo, but bright: it may be any colour.
            logo &= glare is None or float(np.asarray(glare)[4]) <= tunables.classify_glare_share
    if finite is None and not logo:
        linear = adapt_to_palette(measured, palette, tunables)
    else:
        fitted = np.ones(len(stickers), dtype=bool) if finite is None else finite.copy()
        if logo:
            fitted[4] = False
        linear = np.zeros_like(stickers)
        linear[fitted] = adapt_to_palette(measured[fitted], palette, tunables)
        if logo:
            gains = linear[fitted].sum(axis=0) / np.maximum(measured[fitted].sum(axis=0), 1e-9)
            linear[4] = measured[4] * gains
    usable = np.ones(len(stickers), dtype=bool) if finite is None else finite.copy()
    if logo:
        usable[4] = False
    linear = _towards_whites(linear, measured, usable, palette, tunables)
    adapted_lab = linear_to_lab(linear)
    distances = _lab_distances(adapted_lab, palette)
    order = np.argsort(distances, axis=1)
    rows = np.arange(len(distances))
    chosen = order[:, 0].copy()
    best = distances[rows, chosen]
    margin = distances[rows, order[:, 1]] - best
    confidence = 1.0 - np.exp(-margin / tunables.classify_margin_scale)
    # Stickers lost to glare carry the lamp's light: no reference for the cast the face's whites share.
    lost = (np.zeros(len(stickers), dtype=bool) if glare is None
            else np.asarray(glare, dtype=np.float64) > tunables.classify_glare_share)
    lit = (np.zeros(len(stickers), dtype=bool) if spot is None
           else np.asarray(spot, dtype=np.float64) > tunables.classify_spot_white)
    _orange_or_yellow(chosen, confidence, measured, usable & ~lost, palette, tunables)
    _relative_names(chosen, confidence, linear, measured, adapted_lab, usable, lost, palette, tunables)
    _split_green_blue(chosen, confidence, measured, usable, tunables)
    if glare is not None or spot is not None:
        # Clipped or washed by glare, or mostly a spot's light: the sensor saw white where the sticker may be any
        # light colour (cap only).
        washed = (lost | lit) & (chosen == _WHITE)
        confidence[washed] = np.minimum(confidence[washed], tunables.classify_wash_confidence)
    best = distances[rows, chosen]
    if finite is not None:
        confidence = np.where(finite, confidence, 0.0)
        best = np.where(finite, best, np.nan)
        distances = np.where(finite[:, None], distances, np.nan)
    names = [COLOUR_NAMES[k] for k in chosen.tolist()]
    if logo:
        names[4], best[4] = "white", distances[4, _WHITE]
        distances[4, _WHITE] = distances[4].min()  # the logo greys the white: as near white as to any colour
        confidence[4] = 0.5  # a grey centre is white on every cube, but it was not seen as white: worth a look
        if spot is not None and float(np.asarray(spot)[4]) > tunables.classify_spot_logo:
            confidence[4] = tunables.classify_wash_confidence  # lit by a spot: a colour's grey as likely as a logo's
        if glare is not None and float(np.asarray(glare)[4]) > tunables.classify_glare_share:
            confidence[4] = tunables.classify_wash_confidence  # glare spreads and greys a colour too
    return FaceColours(names=tuple(names), distances=best, confidence=confidence, to_colours=distances)


_WHITE = COLOUR_NAMES.index("white")
_YELLOW = COLOUR_NAMES.index("yellow")
_RED = COLOUR_NAMES.index("red")
_ORANGE = COLOUR_NAMES.index("orange")
_GREEN = COLOUR_NAMES.index("green")
_BLUE = COLOUR_NAMES.index("blue")


def _orange_or_yellow(chosen: NDArray[np.intp], confidence: NDArray[np.float64], measured: NDArray[np.float64],
                      usable: NDArray[np.bool_], palette: Palette, tunables: Tunables) -> None:
    """Name a face's vivid oranges and yellows (in place) by their glare-free hue at the palette's boundary between
    the two, before the reds and oranges are split.

    CIEDE2000 weighs lightness, which a camera's tone curve moves: a webcam that renders yellow 5-8x darker than
    white (dwalton76's scans) makes it nearer orange, and a yellow so named then joins the face's reds and oranges,
    whose widest hue gap (up to the yellow) names the oranges red. Hue as measured (the camera's own white balance),
    as for a lone red or orange; a renamed sticker is only as sure as its hue lies past the boundary. Then, as for
    reds and oranges, a face's saturated oranges and yellows (above the red/orange boundary: a red named orange is
    not one of them) are split at their widest hue gap when it is wider than one colour's spread
    (``classify_yellow_gap``): the yellower side is yellow, whatever the light (a dim face under a warm lamp puts
    its yellows at 72-78 degrees, short of the boundary, and its oranges at 42-52).
    """
    boundary = palette.yellow_boundary
    if not math.isfinite(boundary):
        return
    pick = np.flatnonzero(usable & ((chosen == _ORANGE) | (chosen == _YELLOW)))
    if len(pick) == 0:
        return
    lab = linear_to_lab(measured[pick])
    chroma = np.hypot(lab[:, 1], lab[:, 2])
    hues = glare_free_hue(measured[pick])
    moved = (chosen[pick] == _ORANGE) & (chroma >= tunables.classify_yellow_hue_chroma) & (hues >= boundary)
    chosen[pick[moved]] = _YELLOW
    confidence[pick[moved]] = np.minimum(confidence[pick[moved]],
                                         1.0 - np.exp(-(hues[moved] - boundary) / tunables.classify_camera_hue))
    # The saturated ones only (a glare-paled sticker's hue is the least reliable), as for reds and oranges.
    keep = (chroma >= tunables.classify_warm_chroma_share * chroma.max()) & (hues >= palette.warm_boundary)
    _split_at_widest_gap(chosen, confidence, hues[keep], pick[keep], (_ORANGE, _YELLOW), tunables.classify_yellow_gap)


def _relative_names(chosen: NDArray[np.intp], confidence: NDArray[np.float64], linear: NDArray[np.float64],
                    measured: NDArray[np.float64], adapted: NDArray[np.float64], usable: NDArray[np.bool_],
                    lost: NDArray[np.bool_], palette: Palette, tunables: Tunables) -> None:
    """Revise names (in place) from the face's stickers together: washed-out colours, then red against orange.

    A sticker named white that still carries colour (after the light fit, or as measured: the fit may have taken
    it for the white) is a glare-washed colour: it gets the coloured name nearest its hue, with low confidence.
    Then the reds and oranges are split (:func:`_red_or_orange`), a glare-hit one's glare taken as the colour of
    the face's whites when it has any (synth medium validation faces all right 586 -> 589 of 600, physcam 186 ->
    187 of 200, other cameras 799 -> 804 of 900; phone photos 36 of 36 as before), and in doubt where taking it as
    white names it otherwise (without this cap other cameras' validation faces with a sure wrong sticker 15 -> 21).
    """
    palette_hue = glare_free_hue(palette.fit_tables[0])
    white = usable & (chosen == _WHITE)
    washed = np.zeros_like(white)
    glare = np.zeros_like(white)
    if white.any():
        raw = linear_to_lab(measured)
        adapted_chroma = np.hypot(adapted[:, 1], adapted[:, 2])
        raw_chroma = np.hypot(raw[:, 1], raw[:, 2])
        tinted = white & (raw_chroma > tunables.classify_wash_raw_chroma)
        washed = white & ((adapted_chroma > tunables.classify_wash_chroma)
                          | (_off_the_light(measured, tinted, usable, palette, tunables)
                             > tunables.classify_wash_raw_chroma))
        # Glare: a white far brighter than the face's other whites, or near the sensor's top, shows no colour at all.
        bright = luminance(measured)
        others = np.array([np.median(np.delete(bright[white], i)) if white.sum() > 1 else np.inf
                           for i in range(int(white.sum()))])
        glare[white] = (bright[white] > tunables.classify_glare_luminance) | (
            bright[white] > tunables.classify_glare_ratio * others)
        # A tint of its own: the face's whites share one light's cast, a glare-washed colour keeps some of its hue.
        # The cast is the whites' not lost to glare: pale colours under a spot would pull it off the true whites.
        cast = white & ~lost
        tint = np.zeros_like(white)
        if cast.sum() > 2:
            tint[white] = np.hypot(*(adapted[white, 1:] - np.median(adapted[cast, 1:], axis=0)).T
                                   ) > tunables.classify_white_tint
        glare |= tint
        confidence[glare] = np.minimum(confidence[glare], tunables.classify_wash_confidence)
        for k in np.flatnonzero(washed).tolist():
            # The hue of whichever reading kept more colour; white itself has no hue to compare.
            seen = linear[k] if adapted_chroma[k] >= raw_chroma[k] else measured[k]
            gaps = np.abs((glare_free_hue(seen) - palette_hue + 180.0) % 360.0 - 180.0)
            gaps[_WHITE] = np.inf
            chosen[k] = int(gaps.argmin())
            confidence[k] = min(float(confidence[k]), tunables.classify_wash_confidence)
    warm = np.flatnonzero(usable & ((chosen == _RED) | (chosen == _ORANGE)))
    if len(warm) == 0:
        return
    # Glare mirrors the lamp: a warm lamp moves a glare-hit red's hue to orange, not pink. The lamp is what the
    # face's plain whites show; a sticker that removing it names otherwise than removing white is in doubt.
    plain = white & ~washed & ~lost & ~glare
    lamp = measured[plain].mean(axis=0) if lost[warm].any() and plain.any() else None
    if lamp is None:
        _red_or_orange(chosen, confidence, measured, adapted, warm, washed, lost, None, palette, tunables)
        return
    neutral, neutral_confidence = chosen.copy(), confidence.copy()
    _red_or_orange(neutral, neutral_confidence, measured, adapted, warm, washed, lost, None, palette, tunables)
    _red_or_orange(chosen, confidence, measured, adapted, warm, washed, lost, lamp, palette, tunables)
    differ = chosen != neutral
    confidence[differ] = np.minimum(confidence[differ], tunables.classify_wash_confidence)


def _red_or_orange(chosen: NDArray[np.intp], confidence: NDArray[np.float64], measured: NDArray[np.float64],
                   adapted: NDArray[np.float64], warm: NDArray[np.intp], washed: NDArray[np.bool_],
                   lost: NDArray[np.bool_], lamp: NDArray[np.float64] | None, palette: Palette,
                   tunables: Tunables) -> None:
    """Split the face's reds and oranges (``warm``, in place) at the widest hue gap between them when it is wide
    enough and not one colour's spread: in one face under one light the redder side is red, whatever the absolute
    hue (phones differ by ~10 degrees); otherwise each by its own hue. The glare of stickers ``lost`` to it is
    removed as the ``lamp``'s colour (linear RGB; None: white)."""
    # As measured: one camera, one light, so the order holds without the fit (which may pull a glare-hit one).
    hues = glare_free_hue(measured[warm])
    order = encoded_hue(measured[warm])  # where the gap is: as encoded, saturated oranges keep their green
    if lamp is not None:
        hit = lost[warm]
        hues[hit] = glare_free_hue(measured[warm[hit]], lamp)
        order[hit] = encoded_hue(measured[warm[hit]], lamp)
    chroma = np.hypot(adapted[warm, 1], adapted[warm, 2])
    # Only the well-saturated decide where the gap is: a glare-hit sticker's hue is the least reliable.
    sure = chroma >= tunables.classify_warm_chroma_share * chroma.max()
    sure_hues, sure_order = hues[sure], order[sure]
    ordered = np.sort(sure_order)
    steps = np.diff(ordered)
    cut = int(steps.argmax()) if len(steps) else -1
    gap = cut >= 0 and steps[cut] >= tunables.classify_warm_gap
    # Pale reds (or oranges) alone spread several degrees: a gap is one colour's spread, not two colours, when
    # every hue is on one side of the palette's boundary and the nearest colours agree, unless the yellower side
    # is much lighter: an orange reflects green too, a red's spread keeps its lightness (another camera moves a
    # face's reds and oranges together to one side of the boundary, not their lightness).
    one_colour = gap and (sure_hues.min() >= palette.warm_boundary or sure_hues.max() < palette.warm_boundary
                          ) and len(set(chosen[warm].tolist())) == 1 and (
        _lightness_step(measured[warm[sure]], sure_order, cut) < tunables.classify_warm_lighter)
    if not gap or one_colour:
        vivid = warm[chroma >= tunables.classify_warm_hue_chroma]  # a pale colour's hue is the least reliable
        _absolute_warm(chosen, confidence, vivid, measured, palette)
        # Washed-out ones named from white are left: glare moved their hue (either way) as much as it paled them.
        _pale_beyond(chosen, confidence, hues, chroma, warm, sure, ~sure & ~washed[warm], tunables)
        # Nothing on the face tells these two apart but where the camera put their hue (washed ones are unsure).
        seen = ~washed[warm]
        _hue_doubt(chosen, confidence, hues[seen], warm[seen], palette.warm_boundary, tunables.classify_camera_hue)
        return
    # Sure only as far as the two sides differ to the eye (CIELAB hue): a camera that clipped an orange's green
    # leaves it apart as encoded, yet nearly the red's colour.
    upper = sure_order > (ordered[cut] + ordered[cut + 1]) / 2
    seen_apart = float(sure_hues[upper].min() - sure_hues[~upper].max())
    scale = tunables.classify_warm_gap * float(steps[cut]) / max(seen_apart, 1e-9)
    _split_at_gap(chosen, confidence, order, warm, ordered, cut, (_RED, _ORANGE), scale)
    _rival_cut_doubt(confidence, order, warm, ordered, steps, cut, scale)


def _hue_doubt(chosen: NDArray[np.intp], confidence: NDArray[np.float64], hues: NDArray[np.float64],
               stickers: NDArray[np.intp], boundary: float, scale: float) -> None:
    """Cap each red or orange (in place) by how far its hue lies past the boundary on its name's side (nothing on
    the other side): ``1 - exp(-degrees / scale)``, ``scale`` the degrees another camera moves such a hue."""
    past = np.where(chosen[stickers] == _RED, boundary - hues, hues - boundary)
    confidence[stickers] = np.minimum(confidence[stickers], 1.0 - np.exp(-np.maximum(past, 0.0) / scale))


def _rival_cut_doubt(confidence: NDArray[np.float64], hues: NDArray[np.float64], stickers: NDArray[np.intp],
                     ordered: NDArray[np.float64], steps: NDArray[np.float64], cut: int, scale: float) -> None:
    """Cap each split sticker (in place) by how much wider the face's widest hue gap is than the widest other gap
    that, cut instead, would name it otherwise: two gaps nearly as wide leave the stickers between them in doubt
    (another camera narrows one and widens the other)."""
    middles = (ordered[:-1] + ordered[1:]) / 2
    for hue, k in zip(hues.tolist(), stickers.tolist(), strict=True):
        # A cut renames the stickers between it and the widest gap's.
        rivals = [float(steps[i]) for i in range(len(steps))
                  if i != cut and min(middles[i], middles[cut]) <= hue < max(middles[i], middles[cut])]
        if rivals:
            margin = float(steps[cut]) - max(rivals)
            confidence[k] = min(float(confidence[k]), 1.0 - math.exp(-margin / scale))


def _lightness_step(linear: NDArray[np.float64], hues: NDArray[np.float64], cut: int) -> float:
    """Log ratio of the median luminance of ``linear`` rows past the ``cut``-th hue (in hue order) to the rest's."""
    bright = luminance(linear)[np.argsort(hues)]
    return math.log(max(float(np.median(bright[cut + 1:])), 1e-12) / max(float(np.median(bright[: cut + 1])), 1e-12))


def _pale_beyond(chosen: NDArray[np.intp], confidence: NDArray[np.float64], hues: NDArray[np.float64],
                 chroma: NDArray[np.float64], warm: NDArray[np.intp], sure: NDArray[np.bool_],
                 pale: NDArray[np.bool_], tunables: Tunables) -> None:
    """A ``pale`` red or orange far redder than all the face's ``sure`` (saturated) ones is red (in place).

    Too pale to place the gap, its hue still holds to within the gap scaled by how much paler it is (hue noise
    grows as chroma falls); the saturated ones keep their names: one pale sticker cannot say which colour they are.
    Only redder: "far yellower is orange" changed nothing measured (physcam and synth tuning faces).
    """
    if not pale.any() or not sure.any():
        return
    low = float(hues[sure].min())
    floor = tunables.classify_warm_chroma_share * float(chroma.max())
    for hue, own, k in zip(hues[pale].tolist(), chroma[pale].tolist(), warm[pale].tolist(), strict=True):
        need = tunables.classify_warm_gap * floor / max(own, 1e-9)
        if hue < low - need and chosen[k] != _RED:
            chosen[k] = _RED
            confidence[k] = min(float(confidence[k]), 1.0 - math.exp(-(low - hue) / need))


def _split_green_blue(chosen: NDArray[np.intp], confidence: NDArray[np.float64], measured: NDArray[np.float64],
                      usable: NDArray[np.bool_], tunables: Tunables) -> None:
    """Split a face's greens and blues (in place) at the widest hue gap between them, when it is wide enough.

    Greens differ by cube far more than the palette allows (a teal green lies between its green and its blue, and
    a cool light takes it to blue), but on one face in one light a cube's green is always greener than its blue:
    the greener side of a wide gap is green. A face with one of the two only keeps its names.
    """
    cool = np.flatnonzero(usable & ((chosen == _GREEN) | (chosen == _BLUE)))
    if len(cool) < 2:
        return
    # As measured, glare-free, in 0..360 degrees: greens near 150, blues near 290, no wrap between them.
    hues = glare_free_hue(measured[cool]) % 360.0
    _split_at_widest_gap(chosen, confidence, hues, cool, (_GREEN, _BLUE), tunables.classify_cool_gap)


def _split_at_widest_gap(chosen: NDArray[np.intp], confidence: NDArray[np.float64], hues: NDArray[np.float64],
                         stickers: NDArray[np.intp], names: tuple[int, int], gap: float) -> None:
    """Split ``stickers`` (in place) at their widest hue gap when it is ``gap`` or wider (see :func:`_split_at_gap`;
    fewer than two: nothing to split)."""
    if len(stickers) < 2:
        return
    ordered = np.sort(hues)
    steps = np.diff(ordered)
    cut = int(steps.argmax())
    if steps[cut] >= gap:
        _split_at_gap(chosen, confidence, hues, stickers, ordered, cut, names, gap)


def _split_at_gap(chosen: NDArray[np.intp], confidence: NDArray[np.float64], hues: NDArray[np.float64],
                  stickers: NDArray[np.intp], ordered: NDArray[np.float64], cut: int, names: tuple[int, int],
                  scale: float) -> None:
    """Name ``stickers`` (in place) ``names[0]`` below the hue gap after ``ordered[cut]``, ``names[1]`` above; a
    renamed sticker is as sure as the gap is wide (``scale``: the gap that counts)."""
    boundary = (ordered[cut] + ordered[cut + 1]) / 2
    split = 1.0 - math.exp(-float(ordered[cut + 1] - ordered[cut]) / scale)
    for hue, k in zip(hues.tolist(), stickers.tolist(), strict=True):
        relative = names[0] if hue < boundary else names[1]
        if chosen[k] != relative:
            chosen[k] = relative
            confidence[k] = min(float(confidence[k]), split)


def _absolute_warm(chosen: NDArray[np.intp], confidence: NDArray[np.float64], warm: NDArray[np.intp],
                   measured: NDArray[np.float64], palette: Palette) -> None:
    """Vivid reds and oranges the face cannot split: each named by its glare-free hue at the palette's boundary.

    CIEDE2000 weighs lightness and chroma too, which differ from camera to camera (a phone that renders orange dark
    reads it red). The hue as measured (the camera's own white balance): on the real phone photos it separates the
    two (reds <= 41 degrees, oranges >= 43); the light-fitted one does not (the fit, pulled by a face's other
    colours, spreads them). Names only: their confidence is the hue's distance to the boundary (``_hue_doubt``).
    """
    boundary = palette.warm_boundary
    for hue, k in zip(glare_free_hue(measured[warm]).tolist(), warm.tolist(), strict=True):
        chosen[k] = _RED if hue < boundary else _ORANGE


def naive_classify(rgb9: ArrayLike, palette: Palette) -> tuple[str, ...]:
    """The old app's method, kept as a benchmark baseline: nearest palette colour by RGB distance, per sticker."""
    stickers = np.asarray(rgb9, dtype=np.float64)
    references = np.array([palette.colours[n] for n in COLOUR_NAMES])
    nearest = np.argmin(((stickers[:, None, :] - references[None, :, :]) ** 2).sum(axis=2), axis=1)
    return tuple(COLOUR_NAMES[k] for k in nearest)
