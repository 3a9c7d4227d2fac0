"""Perspective renders of a Rubik's cube held in front of a room, with known sticker positions and colours."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from qbr.cube.conventions import FACES, STANDARD_SCHEME
from synth.palettes import BODY_COLOURS, COLOUR_NAMES, PALETTES, SKIN_TONES, light_gains, linear_to_srgb, srgb_to_linear
from synth.scenes import Finger, Hand, draw_capsules, draw_hand, draw_nails, draw_polygon, make_background, sample_hand

TIERS = ("easy", "medium", "hard")


@dataclass(frozen=True)
class RenderParams:
    """Every knob of one render; sizes are fractions of the frame (or of a sticker pitch), angles in degrees."""

    width: int = 640
    height: int = 480
    size: int = 3
    """Cube order: 3 (3x3x3) or 2 (2x2x2, the pocket cube); ``sticker_size`` stays one cubie's pitch."""
    palette: str = "standard"
    """Key of ``PALETTES``."""
    body: str = "black"
    """Cube plastic: black, white, or stickerless (coloured tiles separated by dark grooves)."""
    sticker_size: float = 0.1
    """Sticker pitch (one cubie) at the front face's centre, as a fraction of the frame width."""
    centre: tuple[float, float] = (0.5, 0.5)
    """Front face centre in the image, as fractions of width and height."""
    roll: float = 0.0
    """In-plane rotation (positive turns the face clockwise in the image)."""
    yaw: float = 0.0
    """Turn about the vertical axis (positive shows the right-hand neighbour face)."""
    pitch: float = 0.0
    """Turn about the horizontal axis (positive shows the top neighbour face)."""
    focal: float = 0.9
    """Focal length as a fraction of the frame width (webcams: about 0.75-1.1)."""
    sticker_gap: float = 0.07
    """Inset of each sticker from its cubie's edge, as a fraction of the pitch."""
    corner_radius: float = 0.2
    """Sticker corner radius as a fraction of the sticker's half-size (1 = nearly round)."""
    bulge: float = 0.0
    """Outward bow of the sticker edges, as a fraction of the sticker's half-size."""
    clutter: float = 0.0
    """0 = plain wall, 1 = busy room with boxes, post-its, shelves, text, tiles."""
    hand: bool = False
    """Fingers and thumb grip the cube."""
    skin: int = 0
    """Index into ``SKIN_TONES``."""
    finger_reach: float = 0.0
    """How far fingertips reach past the front face's outer edge, in pitches (occlusion is capped at 10%)."""
    kelvin: float = 6500.0
    """Colour temperature of the light."""
    cast: float = 0.0
    """Fraction of the light's colour cast left after auto white balance (0 = neutral)."""
    green_tint: float = 0.0
    """Extra green gain of fluorescent tubes."""
    brightness: float = 1.0
    """Exposure: 1 = well exposed, 0.3 = dim, 1.5 = bright."""
    light_gradient: float = 0.0
    """Relative change of illumination across the frame (0.3 = one side 30% brighter than the centre)."""
    light_angle: float = 0.0
    """Direction of that gradient (and of the key light)."""
    ambient: float = 0.6
    """Share of diffuse ambient light; the rest comes from the key light (shades the side faces)."""
    glare: float = 0.0
    """Peak of a specular highlight on the front face, in linear light (1 = saturates white)."""
    glare_size: float = 0.5
    """Glare spot radius as a fraction of the pitch."""
    noise: float = 1.0
    """Sensor noise standard deviation in grey levels."""
    defocus: float = 0.0
    """Gaussian blur sigma as a fraction of the frame width."""
    motion: float = 0.0
    """Motion blur length as a fraction of the frame width."""
    motion_angle: float = 0.0
    jpeg_quality: int | None = None
    """JPEG round trip at this quality (None = lossless)."""
    vignette: float = 0.0
    """Darkening of the corners relative to the centre."""
    logo: bool = False
    """A brand logo (an isometric little cube) printed on the white centre sticker, as on many real cubes."""


@dataclass(frozen=True)
class Rendered:
    """One rendered frame and its truth."""

    image: np.ndarray
    """HxWx3 uint8 BGR."""
    stickers: np.ndarray
    """(n*n, 4, 2) float32 corners of the front face's stickers (n = ``params.size``), row-major in net
    orientation, clockwise from top-left."""
    colours: tuple[str, ...]
    """The front face's n*n colour names, row-major."""
    params: RenderParams
    hand_cover: np.ndarray | None = None
    """(n*n,) fraction of each front sticker hidden by the hand (at most 0.1 by construction)."""


# Each face of the cube held with F towards the camera and U on top (camera axes: x right, y down, z away):
# centre, the face's "right" and "down" directions as seen in its net orientation.
_FACE_FRAMES: dict[str, tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]] = {
    "U": ((0, -1.5, 0), (1, 0, 0), (0, 0, -1)),
    "R": ((1.5, 0, 0), (0, 0, 1), (0, 1, 0)),
    "F": ((0, 0, -1.5), (1, 0, 0), (0, 1, 0)),
    "D": ((0, 1.5, 0), (1, 0, 0), (0, 0, 1)),
    "L": ((-1.5, 0, 0), (0, 0, -1), (0, 1, 0)),
    "B": ((0, 0, 1.5), (-1, 0, 0), (0, 1, 0)),
}


def _face_frame(face: str, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``_FACE_FRAMES[face]`` for a cube of ``size`` cubies a side (centres at half the size from the middle)."""
    centre, right, down = (np.array(v, float) for v in _FACE_FRAMES[face])
    return centre * (size / 3), right, down


def held_rotation(face: str) -> np.ndarray:
    """Rotation that turns the cube so ``face`` looks at the camera in its net orientation."""
    centre, right, down = (np.array(v, float) for v in _FACE_FRAMES[face])
    source = np.stack([right, down, centre / 1.5], axis=1)
    target = np.stack([[1.0, 0, 0], [0, 1.0, 0], [0, 0, -1.0]], axis=1)
    return target @ source.T


def _rot(axis: int, degrees: float) -> np.ndarray:
    c, s = np.cos(np.radians(degrees)), np.sin(np.radians(degrees))
    i, j = [(1, 2), (2, 0), (0, 1)][axis]
    m = np.eye(3)
    m[i, i], m[i, j], m[j, i], m[j, j] = c, -s, s, c
    return m


def pose_rotation(roll: float, yaw: float, pitch: float) -> np.ndarray:
    """Tilt first (so neighbours show), then roll in the image plane (so 'row 0' is the top before roll)."""
    return _rot(2, roll) @ _rot(0, pitch) @ _rot(1, yaw)


def _placement(p: RenderParams, rotation: np.ndarray) -> tuple[np.ndarray, float]:
    """Translation of the cube centre in camera space and the focal length in pixels."""
    f = p.focal * p.width
    depth = f / (p.sticker_size * p.width)  # cube units from camera to the front face centre
    cx, cy = p.width / 2, p.height / 2
    front = np.array([(p.centre[0] * p.width - cx) * depth / f, (p.centre[1] * p.height - cy) * depth / f, depth])
    return front - rotation @ np.array([0, 0, -p.size / 2]), f


def _project(points: np.ndarray, f: float, p: RenderParams) -> np.ndarray:
    z = np.maximum(points[..., 2:3], 1e-3)
    return points[..., :2] * f / z + np.array([p.width / 2, p.height / 2])


def _sticker_outline(half: float, radius: float, bulge: float, n_arc: int = 5) -> np.ndarray:
    """Rounded (optionally bulging) square outline, clockwise from top-left in a y-down frame; (K, 2)."""
    r = np.clip(radius, 0.0, 0.98) * half
    pts = []
    corner_centres = [(-half + r, -half + r), (half - r, -half + r), (half - r, half - r), (-half + r, half - r)]
    start_angles = [180, 270, 0, 90]
    edge_normals = [(0, -1), (1, 0), (0, 1), (-1, 0)]  # edge after each corner: top, right, bottom, left
    for k in range(4):
        cx, cy = corner_centres[k]
        for t in np.linspace(0, 90, n_arc):
            a = np.radians(start_angles[k] + t)
            pts.append((cx + r * np.cos(a), cy + r * np.sin(a)))
        if bulge > 0:
            nx, ny = edge_normals[k]
            p0, p1 = np.array(pts[-1]), np.array([corner_centres[(k + 1) % 4][0], corner_centres[(k + 1) % 4][1]])
            p1 = p1 + np.array([nx, ny]) * r
            for s in np.linspace(0, 1, 6)[1:-1]:
                q = p0 + (p1 - p0) * s + np.array([nx, ny]) * bulge * half * np.sin(np.pi * s)
                pts.append((q[0], q[1]))
    return np.array(pts)


@dataclass(frozen=True)
class _Model:
    """The 6 * size * size stickers of a cube in the held frame (front face towards the camera)."""

    centres: np.ndarray  # (54, 3) for a 3x3x3, (24, 3) for a 2x2x2
    rights: np.ndarray
    downs: np.ndarray
    colours: tuple[str, ...]  # colour name of each sticker, facelet order of ``faces``
    faces: tuple[str, ...]  # which physical face each group of size * size belongs to (URFDLB order)
    size: int = 3  # cubies along an edge


def _model(colours_by_face: Mapping[str, Sequence[str]], size: int = 3) -> _Model:
    centres, rights, downs, colours = [], [], [], []
    mid = (size - 1) / 2
    for face in FACES:
        c, r, d = _face_frame(face, size)
        for row in range(size):
            for col in range(size):
                centres.append(c + (col - mid) * r + (row - mid) * d)
                rights.append(r)
                downs.append(d)
        colours.extend(colours_by_face[face])
    return _Model(np.array(centres), np.array(rights), np.array(downs), tuple(colours), FACES, size)


def _srgb_shade(rgb: Sequence[float], shade: float) -> tuple[float, float, float]:
    return tuple(float(v) for v in linear_to_srgb(srgb_to_linear(np.array(rgb)) * shade))


_LIN_FROM_8 = srgb_to_linear(np.arange(256)).astype(np.float32)


def _aa(points: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(points) * 16).astype(np.int32)


@dataclass(frozen=True)
class _Scene:
    """Per-render random details drawn once (so video frames can keep them)."""

    background: np.ndarray
    palette: dict[str, tuple[float, float, float]]
    sticker_jitter: np.ndarray  # (54, 3) sRGB offsets
    hand: Hand | None
    glare_at: tuple[float, float]  # in front face units
    glare_shape: tuple[float, float, float]  # x scale, y scale, angle
    light_dir: tuple[float, float]
    surface: np.ndarray  # small grid of brightness factors near 1, stretched over the cube


def _scene(p: RenderParams, rng: np.random.Generator, background: np.ndarray | None = None) -> _Scene:
    if background is None:
        background = make_background(p.width, p.height, p.clutter, rng)
    base = PALETTES[p.palette]
    # Each physical cube differs a little from its palette's nominal values.
    palette = {k: tuple(float(np.clip(v + rng.normal(0, 4), 0, 255)) for v in rgb) for k, rgb in base.items()}
    jitter = rng.normal(0, 2.5, (54, 3))
    hand = sample_hand(rng, SKIN_TONES[p.skin % len(SKIN_TONES)], p.finger_reach) if p.hand else None
    glare_at = (float(rng.uniform(-1.3, 1.3)), float(rng.uniform(-1.3, 1.3)))
    glare_shape = (float(rng.uniform(0.7, 1.5)), float(rng.uniform(0.5, 1.0)), float(rng.uniform(0, 180)))
    a = np.radians(p.light_angle)
    surface = (1 + rng.normal(0, rng.uniform(0.01, 0.05), (4, 4))).astype(np.float32)
    return _Scene(background, palette, jitter, hand, glare_at, glare_shape, (float(np.cos(a)), float(np.sin(a))),
                  surface)


def _draw(p: RenderParams, model: _Model, rotation: np.ndarray, scene: _Scene, rng: np.random.Generator,
          front: str | None, pose: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Render the scene; returns the BGR image, the front face's (n*n, 4, 2) sticker corners and hand cover (n*n,).

    ``rotation`` turns the cube model into camera axes; ``pose`` does so for the held frame (the front face at
    z = -size / 2 and the hand's grip), after the model was turned to show ``front``; it defaults to the pose of ``p``.
    """
    if pose is None:
        pose = pose_rotation(p.roll, p.yaw, p.pitch)
    h, w = p.height, p.width
    n = model.size
    translation, f = _placement(p, pose)
    img = scene.background.copy()
    hand = scene.hand if n == 3 or scene.hand is None else _scaled_hand(scene.hand, n / 3)
    finger_px = hand.fingers[0].radius * 2 * p.sticker_size * w if hand is not None else 0.0
    if hand is not None:
        behind, _ = _hand_layer(hand, pose, translation, f, p, [], before=True)
        draw_hand(img, behind, hand.skin, finger_px, rng)
    front_mask, sticker_polys = _draw_cube(img, p, model, rotation, translation, f, scene, front)
    cover = np.zeros(n * n)
    if hand is not None:
        after, nails = _hand_layer(hand, pose, translation, f, p, sticker_polys, before=False)
        draw_hand(img, after, hand.skin, finger_px, rng)
        draw_nails(img, nails, hand.skin)
        if sticker_polys:
            cover = _cover(after, _sticker_labels(sticker_polys, (h, w)), n * n)
    # Truth: the front face's sticker squares (before corner rounding).
    truth = np.zeros((n * n, 4, 2), np.float32)
    if front is not None:
        k = model.faces.index(front)
        _, r, d = (rotation @ np.array(v, float) for v in _FACE_FRAMES[front])
        half = 0.5 - p.sticker_gap
        square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
        for i in range(n * n):
            centre = rotation @ model.centres[n * n * k + i] + translation
            truth[i] = _project(centre + square[:, :1] * r + square[:, 1:] * d, f, p)
    glare = None
    if p.glare > 0 and front is not None:
        at = np.array([*scene.glare_at, -1.5]) * (n / 3)  # drawn for a 3x3 face: the same spot, relatively
        glare = (rotation @ at + translation, front_mask)
    return _camera(img, p, scene, f, glare, rng), truth, cover


def _draw_cube(img: np.ndarray, p: RenderParams, model: _Model, rotation: np.ndarray, translation: np.ndarray,
               f: float, scene: _Scene, front: str | None) -> tuple[np.ndarray, list[np.ndarray]]:
    """Draw the cube's visible faces (sRGB, in place); returns the front face's mask and sticker outlines."""
    h, w = p.height, p.width
    body_rgb = BODY_COLOURS[p.body]
    half = 0.5 - p.sticker_gap
    n = model.size
    outline = _sticker_outline(half, p.corner_radius, p.bulge)
    body_outline = _sticker_outline(n / 2, 0.36 / n, 0.0, 4)  # the cube's own corners are slightly rounded
    light = np.array([scene.light_dir[0] * 0.6, scene.light_dir[1] * 0.6 - 0.4, -1.0])
    light /= np.linalg.norm(light)
    # The whole body's silhouette first, so rounded face corners never let the background through at edges.
    e = n / 2
    cube_corners = np.array([[x, y, z] for x in (-e, e) for y in (-e, e) for z in (-e, e)])
    hull = cv2.convexHull(_project((rotation @ cube_corners.T).T + translation, f, p).astype(np.float32))
    hull = hull.reshape(-1, 2)
    cv2.fillPoly(img, [_aa(hull)], _srgb_shade(body_rgb, p.ambient * 0.8), cv2.LINE_AA, 4)
    front_mask = np.zeros((h, w), np.uint8)
    sticker_polys: list[np.ndarray] = []
    pitch_px = p.sticker_size * w
    edge_px = max(1, round(0.02 * pitch_px))
    rim = pitch_px > 14 and p.body != "stickerless"
    for k, face in enumerate(model.faces):
        c, r, d = (rotation @ v for v in _face_frame(face, n))
        normal = c / e
        if np.dot(c + translation, normal) >= 0:
            continue  # facing away from the camera
        shade = p.ambient + (1 - p.ambient) * max(0.0, float(np.dot(normal, light)))
        poly = _project(c + translation + body_outline[:, :1] * r + body_outline[:, 1:] * d, f, p)
        cv2.fillPoly(img, [_aa(poly)], _srgb_shade(body_rgb, shade), cv2.LINE_AA, 4)
        # The rounded edges of the plastic catch the light (black body) or shade a little (white body).
        edge = np.clip(np.array(_srgb_shade(body_rgb, shade)) + (40 if sum(body_rgb) < 300 else -30), 0, 255)
        cv2.polylines(img, [_aa(poly)], True, tuple(float(v) for v in edge), edge_px, cv2.LINE_AA, 4)
        if face == front:
            cv2.fillPoly(front_mask, [_aa(poly)], 255, cv2.LINE_AA, 4)
        for i in range(n * n):
            s = n * n * k + i
            centre = rotation @ model.centres[s] + translation
            poly = _project(centre + outline[:, :1] * r + outline[:, 1:] * d, f, p)
            rgb = np.clip(np.array(scene.palette[model.colours[s]]) + scene.sticker_jitter[s], 0, 255)
            colour = _srgb_shade(rgb, shade)
            cv2.fillPoly(img, [_aa(poly)], colour, cv2.LINE_AA, 4)
            if rim:  # the sticker's cut edge is a little darker than its face
                cv2.polylines(img, [_aa(poly)], True, tuple(0.8 * v for v in colour), 1, cv2.LINE_AA, 4)
            if p.logo and n == 3 and i == 4 and model.colours[s] == "white":
                _draw_logo(img, centre, r, d, half, shade, scene, f, p)
            if face == front:
                sticker_polys.append(poly)
    _surface_variation(img, hull, scene.surface)
    return front_mask, sticker_polys


def _camera(img: np.ndarray, p: RenderParams, scene: _Scene, f: float,
            glare: tuple[np.ndarray, np.ndarray] | None, rng: np.random.Generator) -> np.ndarray:
    """Light, optics and sensor: illumination and cast, glare, blur, noise, sRGB encoding, JPEG; RGB in, BGR out."""
    h, w = p.height, p.width
    lin = cv2.LUT(img, _LIN_FROM_8)
    xn = (np.arange(w, dtype=np.float32) - w / 2) / w
    yn = (np.arange(h, dtype=np.float32) - h / 2) / w
    lx, ly = scene.light_dir
    gain = p.brightness * (1 + p.light_gradient * 2 * (lx * xn[None, :] + ly * yn[:, None]))
    if p.vignette > 0:
        gain = gain * (1 - p.vignette * (xn[None, :] ** 2 + yn[:, None] ** 2) / 0.3125)
    # Illumination pattern and the light's colour cast in one multiply (the glare has the light's colour too).
    cast = light_gains(p.kelvin, p.cast, p.green_tint).astype(np.float32)
    gain = np.maximum(gain, 0).astype(np.float32)
    cv2.multiply(lin, cv2.merge([gain * c for c in cast]), dst=lin)
    if glare is not None:
        _add_glare(lin, p, scene, _project(glare[0], f, p), glare[1], cast)
    if p.defocus > 0:
        lin = cv2.GaussianBlur(lin, (0, 0), p.defocus * w)
    if p.motion > 0:
        lin = _motion_blur(lin, p.motion * w, p.motion_angle)
    # sRGB encoding (the linear toe below 0.3% only matters for values the noise swamps anyway).
    np.maximum(lin, 1e-6, out=lin)
    offset = np.full((h, w * 3), -0.055 * 255, np.float32)
    if p.noise > 0:
        # cv2's generator is fast; seed it from ``rng`` so renders stay deterministic.
        cv2.setRNGSeed(int(rng.integers(2**31)))
        cv2.randn(offset, -0.055 * 255, float(p.noise))  # one channel: cv2 takes per-channel mean and sigma
    out = cv2.scaleAdd(cv2.pow(lin, 1 / 2.4), 1.055 * 255, offset.reshape(h, w, 3))
    np.maximum(out, 0, out=out)
    bgr = cv2.cvtColor(cv2.convertScaleAbs(out), cv2.COLOR_RGB2BGR)  # rounds and saturates (out is >= 0)
    if p.jpeg_quality is not None:
        _ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(p.jpeg_quality)])
        bgr = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return bgr


def _draw_logo(img: np.ndarray, centre: np.ndarray, right: np.ndarray, down: np.ndarray, half: float, shade: float,
               scene: _Scene, f: float, p: RenderParams) -> None:
    """An isometric cube (three rhombi in a dark hexagon) on a sticker, in perspective."""
    radius = 0.62 * half
    angles = np.radians(-90 + 60 * np.arange(6))
    hexagon = np.stack([np.cos(angles), np.sin(angles)], axis=1) * radius

    def to_image(q: np.ndarray) -> np.ndarray:
        return _project(centre + q[:, :1] * right + q[:, 1:] * down, f, p)

    cv2.fillPoly(img, [_aa(to_image(hexagon * 1.12))], _srgb_shade((30, 30, 30), shade), cv2.LINE_AA, 4)
    o = np.zeros(2)
    rhombi = ((o, hexagon[5], hexagon[0], hexagon[1]), (o, hexagon[1], hexagon[2], hexagon[3]),
              (o, hexagon[3], hexagon[4], hexagon[5]))
    for quad, name in zip(rhombi, ("red", "blue", "green"), strict=True):
        pts = np.array(quad) * 0.9 + np.mean(quad, axis=0) * 0.1  # thin dark lines between the rhombi
        cv2.fillPoly(img, [_aa(to_image(pts))], _srgb_shade(scene.palette[name], shade), cv2.LINE_AA, 4)


def _surface_variation(img: np.ndarray, hull: np.ndarray, field: np.ndarray) -> None:
    """Smooth +-few-percent brightness variation over the cube (reflections of the room, uneven gloss), in place."""
    x, y, bw, bh = cv2.boundingRect(np.round(hull).astype(np.int32))
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + bw, img.shape[1]), min(y + bh, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    factor = cv2.resize(field, (x1 - x0, y1 - y0), interpolation=cv2.INTER_CUBIC)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [_aa(hull - [x0, y0])], 255, cv2.LINE_AA, 4)
    factor = 1 + (factor - 1) * (mask.astype(np.float32) / 255)
    region = img[y0:y1, x0:x1].astype(np.float32) * factor[..., None]
    img[y0:y1, x0:x1] = np.clip(region, 0, 255).astype(np.uint8)


def _add_glare(lin: np.ndarray, p: RenderParams, scene: _Scene, centre: np.ndarray, front_mask: np.ndarray,
               cast: np.ndarray) -> None:
    """Add a specular highlight (an elliptical Gaussian spot at image point ``centre``) on the front face."""
    sx, sy, ang = scene.glare_shape
    size = p.glare_size * p.sticker_size * p.width
    reach = int(np.ceil(2.5 * size * max(sx, sy)))
    x0, x1 = max(int(centre[0]) - reach, 0), min(int(centre[0]) + reach + 1, p.width)
    y0, y1 = max(int(centre[1]) - reach, 0), min(int(centre[1]) + reach + 1, p.height)
    if x1 <= x0 or y1 <= y0:
        return
    xx = np.arange(x0, x1, dtype=np.float32)[None, :] - centre[0]
    yy = np.arange(y0, y1, dtype=np.float32)[:, None] - centre[1]
    ca, sa = np.cos(np.radians(ang)), np.sin(np.radians(ang))
    u = (xx * ca + yy * sa) / (size * sx)
    v = (-xx * sa + yy * ca) / (size * sy)
    spot = np.exp(-(u**2 + v**2) * 2) * (front_mask[y0:y1, x0:x1].astype(np.float32) / 255.0)
    lin[y0:y1, x0:x1] += (p.glare * spot)[..., None] * cast


_Nail = tuple[np.ndarray, np.ndarray, float]


def _hand_layer(hand: Hand, rotation: np.ndarray, translation: np.ndarray, f: float, p: RenderParams,
                stickers: list[np.ndarray], before: bool) -> tuple[np.ndarray, list[_Nail]]:
    """Coverage mask of the hand parts behind the cube (``before``) or in front of it, and the visible nails
    (tip point, unit direction, finger width in pixels).

    Parts in front are pulled back until no front sticker is more than 5% covered by any one finger (at most two
    fingers reach one sticker, so no sticker loses more than 10%).
    """
    shape = (p.height, p.width)
    mask = np.zeros(shape, np.uint8)
    nails: list[_Nail] = []
    if before:
        palm = (rotation @ np.array(hand.palm, float).T).T + translation
        draw_polygon(mask, _project(palm, f, p))
    labels = _sticker_labels(stickers, shape)
    areas = np.bincount(labels.ravel(), minlength=p.size**2 + 1).astype(np.float64)
    for finger in hand.fingers:
        normal = np.array([finger.side, 0.0 if finger.side else 1.0, 0.0])
        centre = rotation @ (p.size / 2 * normal) + translation
        side_visible = float(np.dot(centre, rotation @ normal)) < 0
        pts = np.array(finger.points, float)
        for _ in range(7):
            cam = (rotation @ pts.T).T + translation
            img_pts = _project(cam, f, p)
            thick = 2 * finger.radius * f / np.maximum((cam[:-1, 2] + cam[1:, 2]) / 2, 1e-3)
            if before:
                if not side_visible:
                    draw_capsules(mask, img_pts[:-1], thick[:-1])
                break
            layer = np.zeros(shape, np.uint8)
            if side_visible:
                draw_capsules(layer, img_pts, thick)
            else:
                draw_capsules(layer, img_pts[-2:], thick[-1:])
            if not stickers or _worst_cover(layer, labels, areas) <= 0.05:
                np.maximum(mask, layer, out=mask)
                # The tip curls over the front edge, so its back (and nail) faces the camera.
                direction = img_pts[-1] - img_pts[-2]
                norm = float(np.linalg.norm(direction))
                if norm > 1e-6:
                    nails.append((img_pts[-1], direction / norm, float(thick[-1])))
                break
            # Pull the tip back outwards, away from the front face.
            pts = pts.copy()
            if finger.side:
                pts[-1, 0] += finger.side * 0.1
            else:
                pts[-1, 1] += 0.1
        else:
            if side_visible:
                draw_capsules(mask, img_pts[:-1], thick[:-1])
    return mask, nails


def _scaled_hand(hand: Hand, factor: float) -> Hand:
    """The same grip around a cube ``factor`` times as large (in pitches): a 2x2x2's hand is a 3x3x3's, scaled."""
    fingers = tuple(Finger(tuple(tuple(v * factor for v in pt) for pt in finger.points), finger.radius * factor,
                           finger.side) for finger in hand.fingers)
    return Hand(fingers, tuple(tuple(v * factor for v in pt) for pt in hand.palm), hand.skin)


def _sticker_labels(stickers: list[np.ndarray], shape: tuple[int, int]) -> np.ndarray:
    """Image of sticker numbers (1-9, or 1-4 on a 2x2x2; 0 = no front sticker)."""
    labels = np.zeros(shape, np.uint8)
    for i, poly in enumerate(stickers):
        cv2.fillPoly(labels, [_aa(poly)], i + 1, cv2.LINE_8, 4)
    return labels


def _cover(layer: np.ndarray, labels: np.ndarray, count: int = 9) -> np.ndarray:
    """Fraction of each of the ``count`` front stickers covered by ``layer``."""
    areas = np.bincount(labels.ravel(), minlength=count + 1).astype(np.float64)
    hit = layer > 0
    covered = np.bincount(labels[hit], weights=layer[hit].astype(np.float64) / 255.0, minlength=count + 1)
    return covered[1:] / np.maximum(areas[1:], 1)


def _worst_cover(layer: np.ndarray, labels: np.ndarray, areas: np.ndarray) -> float:
    """Largest fraction of any labelled sticker covered by ``layer``."""
    hit = layer > 0
    if not hit.any():
        return 0.0
    covered = np.bincount(labels[hit], weights=layer[hit].astype(np.float64) / 255.0, minlength=len(areas))
    return float(np.max(covered[1:] / np.maximum(areas[1:], 1)))


def _motion_blur(img: np.ndarray, length: float, angle: float) -> np.ndarray:
    n = max(3, int(np.ceil(length)) | 1)
    kernel = np.zeros((n, n), np.float32)
    c = n // 2
    dx, dy = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    for t in np.linspace(-length / 2, length / 2, 2 * n):
        kernel[round(c + dy * t), round(c + dx * t)] += 1
    return cv2.filter2D(img, -1, kernel / kernel.sum())


def render_face(colours: Sequence[str], params: RenderParams, rng: np.random.Generator) -> Rendered:
    """A photo of a cube whose front face shows ``colours`` (``params.size`` squared names, row-major: nine, or four
    on a 2x2x2); neighbours get random colours."""
    count = params.size**2
    if len(colours) != count or any(c not in COLOUR_NAMES for c in colours):
        raise ValueError(f"need {count} colour names from {COLOUR_NAMES}, got {colours!r}")
    by_face = {face: [COLOUR_NAMES[i] for i in rng.integers(0, 6, count)] for face in FACES}
    by_face["F"] = list(colours)
    model = _model(by_face, params.size)
    rotation = pose_rotation(params.roll, params.yaw, params.pitch)
    image, truth, cover = _draw(params, model, rotation, _scene(params, rng), rng, "F")
    return Rendered(image, truth, tuple(colours), params, cover)


def render_cube(facelets: str, params_for_face: Callable[[str], RenderParams] | RenderParams,
                rng: np.random.Generator, scheme: Mapping[str, str] = STANDARD_SCHEME) -> dict[str, Rendered]:
    """Six photos of the cube ``facelets`` (URFDLB), each face held in its net orientation; neighbours are right.

    54 letters make a 3x3x3, 24 a 2x2x2 (every face's params must then have that ``size``).
    """
    size = {54: 3, 24: 2}.get(len(facelets))
    if size is None:
        raise ValueError("facelets must have 54 letters (3x3x3) or 24 (2x2x2)")
    count = size * size
    by_face = {face: [scheme[x] for x in facelets[count * i: count * i + count]] for i, face in enumerate(FACES)}
    model = _model(by_face, size)
    out = {}
    for face in FACES:
        params = params_for_face(face) if callable(params_for_face) else params_for_face
        if params.size != size:
            raise ValueError(f"{len(facelets)} facelets need params of size {size}, got {params.size}")
        pose = pose_rotation(params.roll, params.yaw, params.pitch)
        image, truth, cover = _draw(params, model, pose @ held_rotation(face), _scene(params, rng), rng, face, pose)
        out[face] = Rendered(image, truth, tuple(by_face[face]), params, cover)
    return out


def front_corners(p: RenderParams) -> np.ndarray:
    """Image corners (4, 2) of the front face's outer edge for these params."""
    rotation = pose_rotation(p.roll, p.yaw, p.pitch)
    translation, f = _placement(p, rotation)
    square = np.array([[-1.5, -1.5, -1.5], [1.5, -1.5, -1.5], [1.5, 1.5, -1.5], [-1.5, 1.5, -1.5]]) * (p.size / 3)
    return _project((rotation @ square.T).T + translation, f, p)


def _fit(p: RenderParams, rng: np.random.Generator, margin: float = 0.03) -> RenderParams:
    """Shrink the face until it fits in the frame, then put it at a random position where it fits."""
    for _ in range(20):
        q = dataclasses.replace(p, centre=(0.5, 0.5))
        c = front_corners(q)
        span = c.max(0) - c.min(0)
        room = np.array([p.width, p.height]) * (1 - 2 * margin)
        ratio = float(np.max(span / room))
        if ratio <= 1:
            break
        p = dataclasses.replace(p, sticker_size=p.sticker_size / ratio * 0.98)
    c = front_corners(dataclasses.replace(p, centre=(0.5, 0.5))) - np.array([p.width / 2, p.height / 2])
    size = np.array([p.width, p.height], float)
    lo = margin * size - c.min(0)
    hi = (1 - margin) * size - c.max(0)
    centre = lo + rng.uniform(0, 1, 2) * np.maximum(hi - lo, 0)
    p = dataclasses.replace(p, centre=(float(centre[0] / size[0]), float(centre[1] / size[1])))
    # Off-centre perspective changes the outline slightly: nudge back in until every corner is inside.
    for _ in range(20):
        c = front_corners(p)
        over = np.maximum(margin * 0.5 * size - c.min(0), 0) - np.maximum(c.max(0) - (1 - margin * 0.5) * size, 0)
        if not np.any(over):
            break
        p = dataclasses.replace(p, centre=(p.centre[0] + over[0] / size[0] * 1.1, p.centre[1] + over[1] / size[1]
                                           * 1.1))
    return p


def sample_params(tier: str, rng: np.random.Generator, width: int = 640, height: int = 480, *,
                  palette: str | None = None, body: str | None = None, size: int = 3) -> RenderParams:
    """Random render settings for a difficulty tier.

    easy: roll <= 5, tilt <= 5 deg, even neutral light, plain-ish wall, sticker 8-15% of the width, mild noise.
    medium: roll +-15, tilt <= 20, colour casts, clutter and a hand, noise, some glare, sticker 5-20%.
    hard: roll +-25, tilt <= 30, dim (with more noise) or bright with glare, defocus and/or motion blur, JPEG
    40-70, strong casts, sticker 4-8% or 20-30% (shrunk until the whole face fits in the frame).
    ``palette`` and ``body`` fix those two (one physical cube across several photos); the rest stays random.
    ``size`` 2 renders a 2x2x2 with the same draws (sizes stay sticker pitches, so its face spans two thirds).
    """
    if tier not in TIERS:
        raise ValueError(f"tier must be one of {TIERS}")
    if size not in (2, 3):
        raise ValueError("size must be 2 (2x2x2) or 3 (3x3x3)")
    u = rng.uniform
    drawn_body = str(rng.choice(["black", "black", "white", "stickerless"]))
    drawn_palette = "stickerless" if drawn_body == "stickerless" and rng.random() < 0.7 else str(
        rng.choice([k for k in PALETTES if k != "stickerless"]))
    body = drawn_body if body is None else body
    palette = drawn_palette if palette is None else palette
    if body not in BODY_COLOURS or palette not in PALETTES:
        raise ValueError(f"unknown body {body!r} or palette {palette!r}")
    stickerless = body == "stickerless"
    tilt_dir = u(0, 2 * np.pi)
    common = {
        "width": width,
        "height": height,
        "size": size,
        "palette": palette,
        "body": body,
        "focal": u(0.75, 1.1),
        "sticker_gap": u(0.02, 0.035) if stickerless else u(0.04, 0.1),
        "corner_radius": u(0.05, 0.3) if stickerless else float(rng.choice([u(0.05, 0.3), u(0.3, 0.75)])),
        "bulge": 0.0 if stickerless or rng.random() < 0.5 else u(0.0, 0.06),
        "skin": int(rng.integers(len(SKIN_TONES))),
        "light_angle": u(0, 360),
        "motion_angle": u(0, 180),
    }
    if tier == "easy":
        tilt = u(0, 5)
        specific = {
            "sticker_size": u(0.08, 0.15), "roll": u(-5, 5), "clutter": u(0, 0.15), "hand": rng.random() < 0.5,
            "finger_reach": 0.0, "kelvin": 6500.0, "cast": 0.0, "green_tint": 0.0, "brightness": u(0.85, 1.1),
            "light_gradient": u(0, 0.05), "ambient": u(0.7, 0.9), "glare": 0.0, "noise": u(0.5, 2.0),
            "defocus": 0.0, "motion": 0.0, "jpeg_quality": int(rng.integers(85, 96)), "vignette": u(0, 0.1),
        }
    elif tier == "medium":
        tilt = u(0, 20)
        specific = {
            "sticker_size": u(0.05, 0.2), "roll": u(-15, 15), "clutter": u(0.3, 1.0), "hand": True,
            "finger_reach": u(0, 0.3), "kelvin": u(2700, 7500), "cast": u(0.15, 0.45),
            "green_tint": u(0, 0.08) if rng.random() < 0.3 else 0.0, "brightness": u(0.6, 1.2),
            "light_gradient": u(0, 0.25), "ambient": u(0.5, 0.8), "glare": u(0.2, 0.8) if rng.random() < 0.3 else 0.0,
            "glare_size": u(0.25, 0.6), "noise": u(1.5, 4.0), "defocus": u(0, 0.008), "motion": 0.0,
            "jpeg_quality": int(rng.integers(70, 96)), "vignette": u(0, 0.3), "logo": rng.random() < 0.3,
        }
    else:
        tilt = u(0, 30)
        dim = rng.random() < 0.5
        blur_kind = rng.choice(["defocus", "motion", "both"])
        specific = {
            "sticker_size": u(0.04, 0.08) if rng.random() < 0.5 else u(0.2, 0.3), "roll": u(-25, 25),
            "clutter": u(0.5, 1.0), "hand": True, "finger_reach": u(0.1, 0.4), "kelvin": u(2700, 7500),
            "cast": u(0.35, 0.7), "green_tint": u(0, 0.15) if rng.random() < 0.4 else 0.0,
            "brightness": u(0.3, 0.55) if dim else u(0.9, 1.4), "light_gradient": u(0.1, 0.4),
            "ambient": u(0.4, 0.7), "glare": 0.0 if dim else u(0.6, 1.5), "glare_size": u(0.2, 0.5),
            "noise": u(3.0, 7.0) if dim else u(2.0, 4.0),
            "defocus": u(0.01, 0.025) if blur_kind != "motion" else 0.0,
            "motion": u(0.03, 0.1) if blur_kind != "defocus" else 0.0,
            "jpeg_quality": int(rng.integers(40, 71)), "vignette": u(0.1, 0.5), "logo": rng.random() < 0.3,
        }
    specific["yaw"] = float(tilt * np.cos(tilt_dir))
    specific["pitch"] = float(tilt * np.sin(tilt_dir))
    params = RenderParams(**{k: (float(v) if isinstance(v, np.floating) else v) for k, v in {**common,
                                                                                          **specific}.items()})
    params = _fit(params, rng)
    # Blur was drawn per sticker pitch: a fixed-focus webcam blurs a close (large) cube more, and the same hand
    # motion moves a close cube across more pixels.
    return dataclasses.replace(params, defocus=params.defocus * params.sticker_size,
                               motion=params.motion * params.sticker_size)


def random_colours(rng: np.random.Generator, size: int = 3) -> tuple[str, ...]:
    """Nine (or, for ``size`` 2, four) random colour names (any mix, for single-face tests)."""
    return tuple(COLOUR_NAMES[i] for i in rng.integers(0, 6, size * size))
