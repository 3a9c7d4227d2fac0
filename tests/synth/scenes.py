"""Backgrounds (plain walls to cluttered rooms) and the hand that holds the cube, drawn in sRGB (RGB order)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

_WALLS = (
    (226, 222, 212),
    (205, 200, 190),
    (180, 176, 170),
    (238, 236, 230),
    (196, 206, 214),
    (200, 214, 196),
    (216, 196, 170),
    (120, 110, 100),
    (70, 66, 64),
)
_WOOD = ((120, 80, 48), (150, 104, 64), (84, 56, 36), (188, 150, 104))
_POSTIT = ((250, 232, 60), (250, 120, 170), (120, 220, 100), (255, 150, 40), (80, 180, 240), (235, 40, 40))
_WORDS = ("QBR", "NOTES", "Physics", "TODO", "2024", "Menu", "Lab", "kitchen", "SALE", "Box 3", "milk", "ok")


def _aa(points: np.ndarray) -> np.ndarray:
    """Sub-pixel fixed-point polygon for cv2 drawing with shift=4."""
    return np.round(np.asarray(points) * 16).astype(np.int32)


def _rot_rect(cx: float, cy: float, w: float, h: float, angle: float) -> np.ndarray:
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    pts = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    return pts @ np.array([[c, s], [-s, c]]) + [cx, cy]


def _colour(rng: np.random.Generator, saturated: bool) -> tuple[int, int, int]:
    if saturated:
        hsv = np.uint8([[[rng.integers(0, 180), rng.integers(120, 256), rng.integers(90, 250)]]])
    else:
        hsv = np.uint8([[[rng.integers(0, 180), rng.integers(0, 90), rng.integers(30, 240)]]])
    return tuple(int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)[0, 0])


def make_background(width: int, height: int, clutter: float, rng: np.random.Generator) -> np.ndarray:
    """A room behind the cube: a wall with a light gradient, then ``clutter`` (0-1) worth of objects; RGB uint8."""
    wall = np.array(_WALLS[rng.integers(len(_WALLS))], dtype=np.float32) + rng.normal(0, 8, 3)
    angle = rng.uniform(0, 2 * np.pi)
    xs = np.arange(width, dtype=np.float32) / width
    ys = np.arange(height, dtype=np.float32) / height
    ramp = (np.cos(angle) * xs[None, :] + np.sin(angle) * ys[:, None]) * np.float32(rng.uniform(-0.35, 0.35))
    # Plaster / fabric texture: low-frequency blotches.
    low = cv2.resize(rng.normal(0, 1, (6, 8)).astype(np.float32), (width, height), interpolation=cv2.INTER_CUBIC)
    shade = (1 + ramp) + low * np.float32(rng.uniform(2, 10) / 200)
    img = cv2.merge([cv2.convertScaleAbs(shade, alpha=float(c)) for c in wall])  # shade > 0: saturating cast

    n = round(clutter * rng.uniform(10, 30))
    if clutter > 0.3 and rng.random() < 0.6:
        _draw_shelf(img, rng)
    if clutter > 0 and rng.random() < 0.5:
        _draw_table(img, rng)
    for _ in range(n):
        kind = rng.choice(["box", "postit", "line", "text", "circle", "book", "tiles"], p=[0.22, 0.2, 0.16, 0.14, 0.1,
                                                                                           0.12, 0.06])
        if kind == "tiles" and clutter < 0.3:
            kind = "box"  # grid decoys belong to busy rooms, not to the plain walls of the easy tier
        {"box": _draw_box, "postit": _draw_postit, "line": _draw_line, "text": _draw_text, "circle": _draw_circle,
         "book": _draw_books, "tiles": _draw_tiles}[str(kind)](img, rng)
    # Uneven room light over everything, plus mid-frequency texture (fabric, paper, wood grain).
    light = cv2.resize(rng.normal(0, 1, (3, 4)).astype(np.float32), (width, height), interpolation=cv2.INTER_CUBIC)
    grain = cv2.resize(rng.normal(0, 1, (height // 8, width // 8)).astype(np.float32), (width, height),
                       interpolation=cv2.INTER_LINEAR)
    field = 1 + light * np.float32(rng.uniform(0.05, 0.2)) + grain * np.float32(rng.uniform(0.01, 0.04))
    img = cv2.merge([cv2.multiply(plane, field, dtype=cv2.CV_8U) for plane in cv2.split(img)])
    # The room is further away than the cube: slightly out of focus.
    sigma = rng.uniform(0.3, 2.0) * width / 640
    return cv2.GaussianBlur(img, (0, 0), sigma)


def _draw_shelf(img: np.ndarray, rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    wood = _WOOD[rng.integers(len(_WOOD))]
    y = rng.uniform(0.1, 0.6) * h
    thick = rng.uniform(0.02, 0.05) * h
    x0, x1 = sorted(rng.uniform(-0.2, 1.2, 2) * w)
    cv2.fillPoly(img, [_aa([[x0, y], [x1, y], [x1, y + thick], [x0, y + thick]])], wood, cv2.LINE_AA, 4)
    x = x0
    while x < x1:
        bw = rng.uniform(0.015, 0.05) * w
        bh = rng.uniform(0.08, 0.25) * h
        if rng.random() < 0.8:
            cv2.fillPoly(img, [_aa([[x, y - bh], [x + bw, y - bh], [x + bw, y], [x, y]])], _colour(rng, rng.random()
                                                                                                   < 0.5), cv2.LINE_AA,
                         4)
        x += bw + rng.uniform(0, 0.01) * w


def _draw_table(img: np.ndarray, rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    y = rng.uniform(0.65, 0.95) * h
    colour = _WOOD[rng.integers(len(_WOOD))] if rng.random() < 0.6 else _colour(rng, False)
    tilt = rng.uniform(-0.05, 0.05) * h
    cv2.fillPoly(img, [_aa([[0, y], [w, y + tilt], [w, h], [0, h]])], colour, cv2.LINE_AA, 4)


def _draw_box(img: np.ndarray, rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    bw, bh = rng.uniform(0.05, 0.4, 2) * w
    if rng.random() < 0.4:
        bh = bw * rng.uniform(0.85, 1.15)  # square-ish: a decoy for square detectors
    pts = _rot_rect(rng.uniform(0, w), rng.uniform(0, h), bw, bh, rng.uniform(-30, 30))
    colour = _colour(rng, rng.random() < 0.5)
    cv2.fillPoly(img, [_aa(pts)], colour, cv2.LINE_AA, 4)
    if rng.random() < 0.6:
        edge = tuple(int(c * 0.6) for c in colour)
        cv2.polylines(img, [_aa(pts)], True, edge, max(1, int(w / 400)), cv2.LINE_AA, 4)
    if rng.random() < 0.3:
        label = _rot_rect(*pts.mean(0), bw * 0.5, bh * 0.3, rng.uniform(-10, 10))
        cv2.fillPoly(img, [_aa(label)], _colour(rng, True), cv2.LINE_AA, 4)


def _draw_postit(img: np.ndarray, rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    size = rng.uniform(0.03, 0.12) * w
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    colour = _POSTIT[rng.integers(len(_POSTIT))]
    for k in range(int(rng.integers(1, 4))):
        pts = _rot_rect(cx + k * size * 1.1, cy + rng.normal(0, 0.05) * size, size, size, rng.uniform(-15, 15))
        shadow = pts + size * 0.04
        cv2.fillPoly(img, [_aa(shadow)], (40, 40, 40), cv2.LINE_AA, 4)
        cv2.fillPoly(img, [_aa(pts)], colour, cv2.LINE_AA, 4)
        if rng.random() < 0.5:
            colour = _POSTIT[rng.integers(len(_POSTIT))]


def _draw_line(img: np.ndarray, rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    p0 = rng.uniform(-0.2, 1.2, 2) * [w, h]
    p1 = rng.uniform(-0.2, 1.2, 2) * [w, h]
    thick = int(max(1, rng.uniform(0.002, 0.02) * w))
    colour = _colour(rng, False) if rng.random() < 0.7 else (20, 20, 20)
    cv2.line(img, tuple(_aa(p0)), tuple(_aa(p1)), colour, thick, cv2.LINE_AA, 4)


def _draw_text(img: np.ndarray, rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    word = _WORDS[rng.integers(len(_WORDS))]
    scale = rng.uniform(0.4, 2.0) * w / 640
    org = (int(rng.uniform(-0.1, 0.9) * w), int(rng.uniform(0.05, 1.0) * h))
    font = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX)[rng.integers(3)]
    cv2.putText(img, word, org, font, scale, _colour(rng, rng.random() < 0.5), max(1, int(scale * 2)), cv2.LINE_AA)


def _draw_circle(img: np.ndarray, rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    centre = (rng.uniform(0, w), rng.uniform(0, h))
    r = rng.uniform(0.02, 0.15) * w
    cv2.circle(img, tuple(_aa(centre)), int(r * 16), _colour(rng, rng.random() < 0.4), -1, cv2.LINE_AA, 4)


def _draw_books(img: np.ndarray, rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    x, y = rng.uniform(0, w), rng.uniform(0.2, 1.0) * h
    for _ in range(int(rng.integers(2, 7))):
        bw, bh = rng.uniform(0.015, 0.05) * w, rng.uniform(0.1, 0.3) * h
        pts = _rot_rect(x, y - bh / 2, bw, bh, rng.uniform(-6, 6))
        cv2.fillPoly(img, [_aa(pts)], _colour(rng, rng.random() < 0.6), cv2.LINE_AA, 4)
        x += bw * rng.uniform(1.0, 1.2)


def _draw_tiles(img: np.ndarray, rng: np.random.Generator) -> None:
    """A tiled wall or window panes: a regular grid of squares, the nastiest decoy for a grid detector."""
    h, w = img.shape[:2]
    cell = rng.uniform(0.03, 0.1) * w
    n, m = int(rng.integers(2, 6)), int(rng.integers(2, 6))
    x0, y0 = rng.uniform(-0.1, 0.9) * w, rng.uniform(-0.1, 0.9) * h
    grout = _colour(rng, False)
    base = np.array(_colour(rng, rng.random() < 0.3), dtype=np.float64)
    cv2.rectangle(img, (int(x0), int(y0)), (int(x0 + n * cell), int(y0 + m * cell)), grout, -1)
    for i in range(n):
        for j in range(m):
            c = tuple(int(v) for v in np.clip(base + rng.normal(0, 6, 3), 0, 255))
            pts = np.array([[i, j], [i + 1, j], [i + 1, j + 1], [i, j + 1]]) * cell + [x0, y0]
            inset = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]]) * cell * 0.06
            cv2.fillPoly(img, [_aa(pts + inset)], c, cv2.LINE_AA, 4)


@dataclass(frozen=True)
class Finger:
    """One finger (or thumb): a bent capsule in the held cube's frame (cube units, x right, y down, z away)."""

    points: tuple[tuple[float, float, float], ...]
    """Centreline from the knuckle behind the cube to the tip that wraps onto the front face."""
    radius: float
    """Half the finger's width."""
    side: int
    """Which cube face it rests on: +1 right, -1 left, 0 bottom."""


@dataclass(frozen=True)
class Hand:
    """Where the fingers grip the cube, the palm behind it, and the skin tone."""

    fingers: tuple[Finger, ...]
    palm: tuple[tuple[float, float, float], ...]
    skin: tuple[int, int, int]


def _finger(side: int, along: float, reach: float, radius: float, rng: np.random.Generator) -> Finger:
    """A finger lying on the side (or bottom) face, its tip curling ``reach`` past the front face's edge."""
    edge = 1.5 + radius  # resting on the surface
    tip_in = 1.5 - reach + radius  # the tip's cap ends ``reach`` inside the front face
    # From the palm beside and behind the cube, sweeping in and up to the front edge.
    out, rise = rng.uniform(0.8, 1.4), rng.uniform(0.6, 1.4)
    pts = [(edge + out, along + rise, 1.8), (edge + 0.35 * out, along + 0.45 * rise, -0.2),
           (edge, along + 0.15 * rise, -1.2), (tip_in, along, -1.5 - 0.6 * radius)]
    if side == 0:  # from below: x is ``along``, y is the bottom face
        return Finger(tuple((a, e, z) for e, a, z in pts), radius, 0)
    return Finger(tuple((side * e, a, z) for e, a, z in pts), radius, side)


def sample_hand(rng: np.random.Generator, skin: tuple[int, int, int], reach: float) -> Hand:
    """A grip on the cube's sides or bottom; fingertips end ``reach`` pitches inside the front face's edge."""
    side = 1 if rng.random() < 0.5 else -1  # the fingers' side; the thumb is opposite
    bottom_grip = rng.random() < 0.35
    r_thumb = rng.uniform(0.42, 0.52)
    r_finger = rng.uniform(0.34, 0.42)
    fingers = [_finger(-side, rng.uniform(0.0, 1.0), reach * rng.uniform(0.5, 1.0), r_thumb, rng)]
    count = int(rng.integers(2, 5))
    if bottom_grip:
        for x in np.linspace(-0.9, 0.9, count) * side:
            fingers.append(_finger(0, float(x + rng.normal(0, 0.1)), reach * rng.uniform(0, 1), r_finger, rng))
    else:
        for y in np.linspace(-1.0, 1.0, 4)[4 - count:]:
            fingers.append(_finger(side, float(y + rng.normal(0, 0.1)), reach * rng.uniform(0.3, 1.0), r_finger, rng))
    # Palm behind the cube, then a narrower wrist and the forearm reaching down out of the frame.
    px = side * rng.uniform(0.8, 2.0) if not bottom_grip else rng.uniform(-0.5, 0.5)
    py = rng.uniform(1.2, 2.2)
    lean = rng.uniform(-0.8, 0.8)
    t = np.linspace(np.pi * 1.05, np.pi * 1.95, 9)  # the upper rim of the palm, an arc
    rim = [(px + 2.1 * np.cos(a), py + 1.8 * np.sin(a), 2.4) for a in t]
    wrist = [(px + 1.9 + 0.3 * lean, py + 1.9, 2.6), (px + 1.5 + lean, py + 3.2, 2.8),
             (px + 1.8 + 2 * lean, 10.0, 3.5), (px - 1.8 + 2 * lean, 10.0, 3.5), (px - 1.4 + lean, py + 3.2, 2.8),
             (px - 2.0 + 0.3 * lean, py + 1.9, 2.6)]
    return Hand(tuple(fingers), tuple(rim + wrist), skin)


def soft_blur(img: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur whose cost does not grow with sigma (large sigmas blur a downscaled copy)."""
    if sigma <= 3:
        return cv2.GaussianBlur(img, (0, 0), sigma)
    k = sigma / 2
    h, w = img.shape[:2]
    small = cv2.resize(img, (max(1, int(w / k)), max(1, int(h / k))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 2.0)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def draw_capsules(mask: np.ndarray, points: np.ndarray, thickness: np.ndarray) -> None:
    """Anti-aliased thick polyline (rounded joints) into a uint8 mask, one thickness per segment (pixels)."""
    for a, b, t in zip(points[:-1], points[1:], thickness, strict=False):
        cv2.line(mask, tuple(_aa(a)), tuple(_aa(b)), 255, max(2, round(t)), cv2.LINE_AA, 4)


def draw_polygon(mask: np.ndarray, points: np.ndarray) -> None:
    """Anti-aliased filled polygon into a uint8 mask."""
    cv2.fillPoly(mask, [_aa(points)], 255, cv2.LINE_AA, 4)


def draw_hand(img: np.ndarray, mask: np.ndarray, skin: tuple[int, int, int], finger_px: float,
              rng: np.random.Generator) -> None:
    """Composite a shaded skin-coloured hand through ``mask`` onto ``img`` (RGB uint8, in place)."""
    bx, by, bw, bh = cv2.boundingRect(mask)
    if bw == 0 or bh == 0:
        return
    pad = int(3 * finger_px) + 2
    y0, y1 = max(by - pad, 0), min(by + bh + pad, mask.shape[0])
    x0, x1 = max(bx - pad, 0), min(bx + bw + pad, mask.shape[1])
    alpha = mask[y0:y1, x0:x1].astype(np.float32) * np.float32(1 / 255)
    sigma = max(1.0, 0.35 * finger_px)
    # Fingers are cylinders: brightest along their middle, darker towards the silhouette.
    depth = soft_blur(alpha, sigma)
    shade = np.float32(0.6) + np.float32(0.45) * np.clip(depth * np.float32(1.8) - np.float32(0.4), 0, 1)
    # Soft contact shadow the hand casts on the cube and the wall.
    shadow = soft_blur(alpha, sigma * 2)
    keep = (1 - np.float32(0.4) * shadow) * (1 - alpha)
    cover = shade * alpha
    skin_v = np.array(skin, np.float64) * rng.uniform(0.92, 1.08)
    # Channel by channel: single-channel cv2 arithmetic is several times faster than 3-channel broadcasting.
    planes = [cv2.convertScaleAbs(cv2.scaleAdd(cover, float(s), cv2.multiply(plane, keep, dtype=cv2.CV_32F)))
              for plane, s in zip(cv2.split(img[y0:y1, x0:x1]), skin_v, strict=True)]  # >= 0: saturating casts
    img[y0:y1, x0:x1] = cv2.merge(planes)


def draw_nails(img: np.ndarray, nails: list[tuple[np.ndarray, np.ndarray, float]], skin: tuple[int, int, int]) -> None:
    """Pale, slightly pink nails on fingertips that face the camera (tip point, direction, finger width)."""
    nail = tuple(float(0.88 * s + 0.12 * c) for s, c in zip(skin, (250, 215, 210), strict=True))
    rim = tuple(0.94 * v for v in skin)
    for tip, direction, width in nails:
        if width < 8:
            continue  # too small to see
        centre = tip - direction * 0.05 * width
        angle = float(np.degrees(np.arctan2(direction[1], direction[0])))
        axes = (round(0.2 * width * 16), round(0.16 * width * 16))
        c = (round(centre[0] * 16), round(centre[1] * 16))
        cv2.ellipse(img, c, axes, angle, 0, 360, rim, max(1, int(width / 30)), cv2.LINE_AA, 4)
        cv2.ellipse(img, c, axes, angle, 0, 360, nail, -1, cv2.LINE_AA, 4)
