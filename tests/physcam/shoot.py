"""One photo of a cube face: pose, geometry, lamps, painting, then the sensor; and the tiers that sample them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from physcam.scene import BACKGROUNDS, Canvas, paint_background, paint_clutter, paint_palm, skin
from physcam.sensor import Sensor, capture
from physcam.spectra import LAMPS, camera_rgb, lamp_spectrum, reflectance, sensitivities
from qbr.cube.conventions import FACES, STANDARD_SCHEME

TIERS = ("easy", "medium", "hard")
CONDITIONS = (*TIERS, "dim")
COLOURS = ("white", "yellow", "red", "orange", "green", "blue")
SUPERSAMPLE = 2


@dataclass(frozen=True)
class Shot:
    """Same fields as ``synth.Rendered`` (image, stickers, colours, params)."""

    image: np.ndarray
    """HxWx3 uint8 BGR."""
    stickers: np.ndarray
    """(n, 4, 2) float32 sticker corners (n = 9, or 4 on a 2x2x2), row-major in net orientation, clockwise from
    top-left."""
    colours: tuple[str, ...]
    params: ShotParams


@dataclass(frozen=True)
class ShotParams:
    """Everything about one photo. Angles in degrees, sizes as fractions of the frame width."""

    width: int = 640
    height: int = 480
    sticker_size: float = 0.1
    """Cubie pitch at the front face's centre / frame width."""
    size: int = 3
    """Cubies along an edge: 3 (a 3x3x3, nine stickers a face) or 2 (a 2x2x2, four)."""
    centre: tuple[float, float] = (0.5, 0.5)
    roll: float = 0.0
    yaw: float = 0.0
    pitch: float = 0.0
    focal: float = 0.9
    """Focal length / frame width."""
    body: str = "black"
    """black, white or stickerless (tiles on a black core: small gaps)."""
    gap: float = 0.06
    """Body showing around each sticker, fraction of the pitch."""
    squareness: float = 6.0
    """Superellipse exponent of the sticker outline: 3 is round-cornered, 12 nearly square."""
    maker: tuple[float, ...] = (0.0,) * 24
    """Reflectance jitter (4 numbers per colour): sticker makers differ."""
    key_lamp: str = "daylight"
    fill_lamp: str = "daylight"
    fill_share: float = 0.3
    """Share of the light coming from the fill lamp (from the other side)."""
    key_direction: tuple[float, float, float] = (-0.4, -0.5, -0.77)
    """Direction towards the key lamp, camera axes (x right, y down, z away)."""
    ambient: float = 0.5
    """Share of each lamp's light that is diffuse (lights every face alike)."""
    gradient: float = 0.0
    """Key vs fill balance change across the frame (mixed light differs across the scene)."""
    glare: float = 0.0
    """Peak of the key lamp's specular spot on the front face, in units of a white sticker's level."""
    background: str = "plain"
    wall_saturation: float = 0.4
    """How coloured the background is (0 grey): a coloured room pulls grey-world white balance off."""
    clutter: float = 0.0
    hand: bool = False
    rolling_shutter: float = 0.0
    """Horizontal skew from the rows being read out while the cube moves, pixels per frame height."""
    sensor: Sensor = field(default_factory=Sensor)


# Each face's centre, right and down in cube axes (x right, y down, z away from the viewer; F faces the viewer,
# U on top), in the net orientation of qbr/cube/conventions.py.
_FACE_FRAMES = {
    "U": ((0, -1, 0), (1, 0, 0), (0, 0, -1)),
    "R": ((1, 0, 0), (0, 0, 1), (0, 1, 0)),
    "F": ((0, 0, -1), (1, 0, 0), (0, 1, 0)),
    "D": ((0, 1, 0), (1, 0, 0), (0, 0, 1)),
    "L": ((-1, 0, 0), (0, 0, -1), (0, 1, 0)),
    "B": ((0, 0, 1), (-1, 0, 0), (0, 1, 0)),
}


def _axes(face: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return tuple(np.array(v, float) for v in _FACE_FRAMES[face])  # type: ignore[return-value]


def _turn(axis: int, degrees: float) -> np.ndarray:
    c, s = np.cos(np.radians(degrees)), np.sin(np.radians(degrees))
    m = np.eye(3)
    i, j = (axis + 1) % 3, (axis + 2) % 3
    m[i, i], m[i, j], m[j, i], m[j, j] = c, -s, s, c
    return m


def orientation(face: str, p: ShotParams) -> np.ndarray:
    """Cube axes -> camera axes, for ``face`` towards the camera in its net orientation, then tilted and rolled."""
    n, r, d = _axes(face)
    hold = np.stack([r, d, -n])  # hold @ r = x, hold @ d = y, hold @ n = -z: the face looks at the camera
    return _turn(2, p.roll) @ _turn(0, p.pitch) @ _turn(1, p.yaw) @ hold


class _Camera:
    def __init__(self, p: ShotParams, face: str) -> None:
        self.p, self.rotation = p, orientation(face, p)
        self.f = p.focal * p.width
        depth = p.focal / p.sticker_size  # cubie units from the camera to the front face's centre
        front = np.array([(p.centre[0] - 0.5) * p.width / self.f * depth,
                          (p.centre[1] - 0.5) * p.height / self.f * depth, depth])
        # The cube's centre lies half an edge behind the front face's centre, along that face's normal.
        self.translation = front - p.size / 2 * (self.rotation @ _axes(face)[0])

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        return points @ self.rotation.T + self.translation

    def project(self, points: np.ndarray) -> np.ndarray:
        """Cube points (N, 3) -> image points (N, 2), with the rolling shutter's skew."""
        c = self.to_camera(points)
        xy = c[:, :2] * self.f / np.maximum(c[:, 2:3], 1e-3) + (self.p.width / 2, self.p.height / 2)
        xy[:, 0] += self.p.rolling_shutter * (xy[:, 1] / self.p.height - 0.5)
        return xy


def _sticker_outline(cx: float, cy: float, half: float, exponent: float, n: int = 28) -> np.ndarray:
    """Superellipse |u|^e + |v|^e = 1 around (cx, cy) in face units."""
    t = np.linspace(0, 2 * np.pi, n, endpoint=False) + np.pi / 4
    c, s = np.cos(t), np.sin(t)
    u = np.sign(c) * np.abs(c) ** (2 / exponent)
    v = np.sign(s) * np.abs(s) ** (2 / exponent)
    return np.stack([cx + half * u, cy + half * v], axis=1)


def _face_points(face: str, uv: np.ndarray, size: int) -> np.ndarray:
    """Face-plane coordinates (u right, v down, -size/2..size/2) -> cube points."""
    n, r, d = _axes(face)
    return size / 2 * n + uv[:, :1] * r + uv[:, 1:2] * d


def _square(size: int) -> np.ndarray:
    """A face's outline in face-plane coordinates, clockwise from top-left."""
    h = size / 2
    return np.array([[-h, -h], [h, -h], [h, h], [-h, h]])


def front_corners(face: str, p: ShotParams) -> np.ndarray:
    cam = _Camera(p, face)
    return cam.project(_face_points(face, _square(p.size), p.size))


def _lambert(normal_cam: np.ndarray, p: ShotParams) -> tuple[float, float]:
    """(key, fill) light on a face with this outward normal (camera axes)."""
    key = np.asarray(p.key_direction, float)
    key /= np.linalg.norm(key)
    fill = key * np.array([-1.0, 0.3, 1.0])  # from the other side, also in front of the cube
    fill /= np.linalg.norm(fill)
    out = []
    for direction, share in ((key, 1 - p.fill_share), (fill, p.fill_share)):
        out.append(share * (p.ambient + (1 - p.ambient) * max(0.0, float(-normal_cam @ -direction)) * 1.6))
    return out[0], out[1]


def shoot(colours_by_face: Mapping[str, Sequence[str]], face: str, p: ShotParams,
          rng: np.random.Generator) -> Shot:
    """Photograph ``face`` of the cube whose stickers are ``colours_by_face`` (names, net order)."""
    radiance, stickers_truth = scene_radiance(colours_by_face, face, p, rng)
    image = capture(radiance, p.sensor, rng)
    return Shot(image, stickers_truth, tuple(colours_by_face[face]), p)


def scene_radiance(colours_by_face: Mapping[str, Sequence[str]], face: str, p: ShotParams,
                   rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """What reaches the sensor when ``shoot`` photographs ``face``: (H, W, 3) linear camera RGB and the truth quads;
    ``sensor.capture(radiance, p.sensor, rng)`` makes a frame of it (each generator its own noise)."""
    s = SUPERSAMPLE
    w, h = p.width * s, p.height * s
    sens = sensitivities(p.sensor.filter_shift)
    lamps = []
    for name in (p.key_lamp, p.fill_lamp):
        spd = lamp_spectrum(name)
        lamps.append(spd / camera_rgb(np.ones_like(spd), spd, sens)[1])
    canvas = Canvas(np.zeros((h, w, 3), np.float32), np.zeros((h, w, 3), np.float32), (lamps[0], lamps[1]), sens)
    cam = _Camera(p, face)
    pitch_px = p.sticker_size * w
    paint_background(canvas, p.background, p.wall_saturation, rng, s)
    paint_clutter(canvas, p.clutter, pitch_px, rng)
    corners = cam.project(_face_points(face, _square(p.size), p.size))
    skin_refl = skin(rng)
    if p.hand:
        paint_palm(canvas, corners * s, skin_refl, rng, (0.8, 0.8))
    maker = np.asarray(p.maker, float).reshape(6, 4)
    body = reflectance("white_body" if p.body == "white" else "black_body", maker[0])
    gap = 0.025 if p.body == "stickerless" else p.gap
    stickers_truth = None
    front_mask = np.zeros((h, w), np.uint8)
    for other in FACES:
        n_cam = cam.rotation @ _axes(other)[0]
        centre_cam = cam.to_camera(p.size / 2 * _axes(other)[0][None])[0]
        if n_cam @ centre_cam >= -1e-6:
            continue  # faces away from the camera
        shade = _lambert(n_cam, p)
        outline = cam.project(_face_points(other, _square(p.size), p.size)) * s
        canvas.fill_poly(outline, body, shade)
        if other == face:
            cv2.fillPoly(front_mask, [np.round(outline).astype(np.int32)], 255)
        # A smooth change of sheen across the face (the plastic is not perfectly matte).
        tilt = rng.normal(0, 0.04, 2)
        quads = []
        for k in range(p.size**2):
            row, col = divmod(k, p.size)
            cx, cy = col - (p.size - 1) / 2, row - (p.size - 1) / 2
            name = colours_by_face[other][k]
            refl = reflectance(name, maker[COLOURS.index(name)]) * (1 + rng.normal(0, 0.02))
            sheen = 1 + tilt[0] * cx + tilt[1] * cy
            pts = cam.project(_face_points(other, _sticker_outline(cx, cy, 0.5 - gap, p.squareness), p.size)) * s
            canvas.fill_poly(pts, refl, (shade[0] * sheen, shade[1] * sheen))
            half = 0.5 - gap
            quads.append(cam.project(_face_points(other, np.array(
                [[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half], [cx - half, cy + half]]),
                p.size)))
        if other == face:
            stickers_truth = np.array(quads, np.float32)
    assert stickers_truth is not None
    if p.hand:
        _thumb(canvas, corners * s, skin_refl, rng, pitch_px)
    if p.glare > 0:
        _glare(canvas, front_mask, corners * s, p.glare, rng, pitch_px)
    key = cv2.resize(canvas.key, (p.width, p.height), interpolation=cv2.INTER_AREA)
    fill = cv2.resize(canvas.fill, (p.width, p.height), interpolation=cv2.INTER_AREA)
    # Mixed light: the key lamp's share changes across the frame (a window on one side, a lamp on the other).
    a = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(a) * (np.arange(p.width, dtype=np.float32) / p.width - 0.5)[None, :]
            + np.sin(a) * (np.arange(p.height, dtype=np.float32) / p.height - 0.5)[:, None]) * p.gradient
    radiance = key * (1 + ramp)[..., None] + fill * (1 - ramp)[..., None]
    return radiance, stickers_truth


def _thumb(canvas: Canvas, corners: np.ndarray, refl: np.ndarray, rng: np.random.Generator, pitch: float) -> None:
    """A thumb over one side edge of the face, reaching at most a tenth of a pitch onto the outer stickers."""
    side = rng.integers(0, 4)
    a, b = corners[side], corners[(side + 1) % 4]
    centre = corners.mean(axis=0)
    along = rng.uniform(0.3, 0.7)
    edge_point = a + (b - a) * along
    outward = edge_point - centre
    outward /= max(float(np.linalg.norm(outward)), 1e-6)
    width = pitch * rng.uniform(0.5, 0.7)
    tip = edge_point - outward * (pitch * 0.1 - width / 2)  # the round cap's inner edge stops 0.1 pitch inside
    base = tip + outward * pitch * rng.uniform(1.5, 2.5)
    canvas.stroke(tip, base, width, refl, (0.8, 0.8))


def _glare(canvas: Canvas, mask: np.ndarray, corners: np.ndarray, peak: float, rng: np.random.Generator,
           pitch: float) -> None:
    """The key lamp's specular spot on the front face: the lamp's own colour, not the sticker's."""
    h, w = mask.shape
    centre = corners.mean(axis=0) + rng.uniform(-1, 1, 2) * pitch
    radius = pitch * rng.uniform(0.3, 0.8)
    x0, x1 = (int(np.clip(centre[0] + k * 3 * radius, 0, w)) for k in (-1, 1))
    y0, y1 = (int(np.clip(centre[1] + k * 3 * radius, 0, h)) for k in (-1, 1))
    if x1 <= x0 or y1 <= y0:
        return
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    spot = peak * np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * radius**2))
    spot *= mask[y0:y1, x0:x1] / 255.0
    white = canvas.rgb(np.ones(len(canvas.lamps[0])))[0]
    canvas.key[y0:y1, x0:x1] += (spot[..., None] * white).astype(np.float32)


def render_face(colours: Sequence[str], params: ShotParams, rng: np.random.Generator) -> Shot:
    """One face of ``params.size`` squared given colours (the neighbours' stickers random), like
    ``synth.render_face``."""
    _check_count(len(colours), params)
    return shoot(_with_neighbours(colours, rng), "F", params, rng)


def _check_count(count: int, params: ShotParams) -> None:
    if count != params.size**2:
        raise ValueError(f"a face of a size-{params.size} cube has {params.size**2} stickers, got {count}")


def face_radiance(colours: Sequence[str], params: ShotParams,
                  rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``render_face``'s scene before the sensor (``scene_radiance``), for several frames of one steady face."""
    _check_count(len(colours), params)
    return scene_radiance(_with_neighbours(colours, rng), "F", params, rng)


def _with_neighbours(colours: Sequence[str], rng: np.random.Generator) -> dict[str, list[str]]:
    others = {f: [COLOURS[i] for i in rng.integers(0, 6, len(colours))] for f in FACES}
    others["F"] = list(colours)
    return others


def render_cube(facelets: str, params_for_face: Callable[[str], ShotParams] | ShotParams, rng: np.random.Generator,
                scheme: Mapping[str, str] = STANDARD_SCHEME) -> dict[str, Shot]:
    """Six photos of the cube ``facelets`` (URFDLB), each face in its net orientation, like ``synth.render_cube``:
    54 letters make a 3x3x3, 24 a 2x2x2 (every face's params must then have that ``size``)."""
    size = {54: 3, 24: 2}.get(len(facelets))
    if size is None:
        raise ValueError("facelets must have 54 letters (a 3x3x3) or 24 (a 2x2x2)")
    n = size**2
    by_face = {face: [scheme[x] for x in facelets[n * i: n * i + n]] for i, face in enumerate(FACES)}
    shots = {}
    for face in FACES:
        params = params_for_face(face) if callable(params_for_face) else params_for_face
        _check_count(n, params)
        shots[face] = shoot(by_face, face, params, rng)
    return shots


def _fit_in_frame(p: ShotParams, rng: np.random.Generator, margin: float = 0.04) -> ShotParams:
    """Shrink the face until it fits, then put it anywhere it fits (corners of the front face only)."""
    for _ in range(20):
        c = front_corners("F", dataclasses.replace(p, centre=(0.5, 0.5)))
        room = np.array([p.width, p.height]) * (1 - 2 * margin)
        ratio = float(np.max((c.max(0) - c.min(0)) / room))
        if ratio <= 1:
            break
        p = dataclasses.replace(p, sticker_size=p.sticker_size / ratio * 0.97)
    c = front_corners("F", dataclasses.replace(p, centre=(0.5, 0.5))) - np.array([p.width, p.height]) / 2
    size = np.array([p.width, p.height], float)
    lo, hi = margin * size - c.min(0), (1 - margin) * size - c.max(0)
    pos = lo + rng.uniform(0, 1, 2) * np.maximum(hi - lo, 0)
    return dataclasses.replace(p, centre=(float(pos[0] / p.width), float(pos[1] / p.height)))


def sample_params(condition: str, rng: np.random.Generator, width: int = 640, height: int = 480, *,
                  body: str | None = None, maker: Sequence[float] | None = None, size: int = 3) -> ShotParams:
    """Random params of a tier (easy, medium, hard: as synth's README) or the ``dim`` condition; ``size`` 2 for a
    2x2x2 (the same draws: its cubies are as big in the frame, so its face spans two pitches, not three)."""
    if size not in (2, 3):
        raise ValueError(f"size must be 2 or 3, got {size!r}")
    u = rng.uniform
    body = body or str(rng.choice(["black", "black", "white", "stickerless"]))
    maker = tuple(maker) if maker is not None else tuple(rng.normal(0, 1, 24))
    common = dict(width=width, height=height, body=body, maker=maker, focal=u(0.75, 1.1),
                  gap=u(0.04, 0.09), squareness=u(3.0, 12.0))
    tilt = {"easy": 5, "medium": 20, "hard": 30, "dim": 20}[condition]
    roll = {"easy": 5, "medium": 15, "hard": 25, "dim": 15}[condition]
    # Tilt split between yaw and pitch, its total bounded.
    total, angle = u(0, tilt), u(0, 2 * np.pi)
    pose = dict(roll=u(-roll, roll), yaw=total * np.cos(angle), pitch=total * np.sin(angle))
    key_dir = (u(-0.7, 0.7), u(-0.8, 0.2), -1.0)
    if condition == "easy":
        lamp = str(rng.choice(["daylight", "cool_led", "warm_led"]))
        p = ShotParams(**common, **pose, sticker_size=u(0.08, 0.15), key_lamp=lamp, fill_lamp=lamp,
                       fill_share=u(0.3, 0.5), key_direction=key_dir, ambient=u(0.6, 0.8),
                       background=str(rng.choice(["plain", "noise"])), wall_saturation=u(0, 0.15),
                       sensor=Sensor(photons=u(3000, 8000), read_noise=u(2, 4), awb_strength=u(0.85, 1.0),
                                     filter_shift=u(-4, 4), gamma=u(2.0, 2.4), jpeg_quality=int(rng.integers(85, 96))))
    elif condition == "medium":
        p = ShotParams(**common, **pose, sticker_size=u(0.05, 0.2), key_lamp=str(rng.choice(LAMPS)),
                       fill_lamp=str(rng.choice(LAMPS)), fill_share=u(0.15, 0.5), key_direction=key_dir,
                       ambient=u(0.35, 0.7), gradient=u(0, 0.4), glare=u(0.2, 0.8) if u() < 0.3 else 0.0,
                       background=str(rng.choice(BACKGROUNDS)), wall_saturation=u(0, 0.7),
                       clutter=u(0.3, 0.8), hand=bool(u() < 0.7),
                       sensor=Sensor(photons=u(1000, 6000), read_noise=u(2, 5), exposure=u(0.75, 1.15),
                                     awb_strength=u(0.5, 0.9), filter_shift=u(-6, 6), gamma=u(1.9, 2.5),
                                     contrast=u(-0.1, 0.25), sharpen=u(0, 0.6), defocus=u(0, 1.0),
                                     motion=u(0, 2.0), motion_angle=u(0, 180), jpeg_quality=int(rng.integers(70, 91))))
    elif condition == "hard":
        dim = u() < 0.5
        pitch = u(0.04, 0.08) if u() < 0.5 else u(0.2, 0.3)
        p = ShotParams(**common, **pose, sticker_size=pitch, key_lamp=str(rng.choice(LAMPS)),
                       fill_lamp=str(rng.choice(LAMPS)), fill_share=u(0.1, 0.5), key_direction=key_dir,
                       ambient=u(0.25, 0.6), gradient=u(0.1, 0.6), glare=0.0 if dim else u(0.8, 2.5),
                       background=str(rng.choice(BACKGROUNDS)), wall_saturation=u(0, 0.7),
                       clutter=u(0.5, 1.0), hand=bool(u() < 0.8),
                       rolling_shutter=u(-0.02, 0.02) * width,
                       sensor=Sensor(photons=u(200, 800) if dim else u(2000, 6000), read_noise=u(3, 7),
                                     exposure=u(0.5, 0.8) if dim else u(0.9, 1.3), awb_strength=u(0.4, 0.85),
                                     filter_shift=u(-8, 8), gamma=u(1.8, 2.6), contrast=u(-0.15, 0.3),
                                     sharpen=u(0, 0.8), defocus=u(0.5, 2.0), motion=u(1.0, 5.0),
                                     motion_angle=u(0, 180), jpeg_quality=int(rng.integers(40, 71))))
    elif condition == "dim":
        blur_motion = u() < 0.5
        p = ShotParams(**common, **pose, sticker_size=u(0.06, 0.15), key_lamp="tungsten",
                       fill_lamp=str(rng.choice(["tungsten", "warm_led"])), fill_share=u(0.1, 0.4),
                       key_direction=key_dir, ambient=u(0.4, 0.7), gradient=u(0, 0.3),
                       background=str(rng.choice(BACKGROUNDS)), wall_saturation=u(0, 0.7),
                       clutter=u(0.2, 0.6), hand=bool(u() < 0.5),
                       sensor=Sensor(photons=u(80, 300), read_noise=u(3, 6), exposure=u(0.35, 0.45),
                                     awb_strength=u(0.4, 0.8), filter_shift=u(-6, 6), gamma=u(2.0, 2.4),
                                     defocus=0.0 if blur_motion else u(1.0, 1.5),
                                     motion=u(2.0, 3.0) if blur_motion else 0.0, motion_angle=u(0, 180),
                                     jpeg_quality=int(rng.integers(60, 86))))
    else:
        raise ValueError(f"unknown condition {condition!r}")
    return _fit_in_frame(dataclasses.replace(p, size=size), rng)


def sample_cube(condition: str, rng: np.random.Generator, size: int = 3) -> Callable[[str], ShotParams]:
    """Params per face for one cube: one body and one sticker maker, each photo its own pose, light and camera."""
    body = str(rng.choice(["black", "black", "white", "stickerless"]))
    maker = tuple(rng.normal(0, 1, 24))
    return lambda face: sample_params(condition, rng, body=body, maker=maker, size=size)
