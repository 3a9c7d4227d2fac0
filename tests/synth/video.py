"""A synthetic scanning session: someone shows the six faces to the webcam, one after another."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from pathlib import Path

import cv2
import numpy as np

from qbr.cube.conventions import FACES, STANDARD_SCHEME
from synth.render import _draw, _model, _scene, held_rotation, pose_rotation, sample_params


def _between(a: np.ndarray, b: np.ndarray, t: float) -> np.ndarray:
    """Rotation a fraction ``t`` of the shortest way from ``a`` to ``b``."""
    axis_angle, _ = cv2.Rodrigues(a.T @ b)
    step, _ = cv2.Rodrigues(axis_angle * t)
    return a @ step


def render_session_frames(facelets: str, rng: np.random.Generator, fps: float = 15, seconds_per_face: float = 1.2,
                          transition_seconds: float = 0.6, tier: str = "easy", width: int = 640,
                          height: int = 480, size: int = 3) -> Iterator[np.ndarray]:
    """BGR frames of a person holding each face (URFDLB) still for a moment, turning the cube in between.

    One room, light and hand for the whole session; small hand jitter while a face is held; during turns the
    cube is at least about 20 degrees away from either held face and motion-blurred. ``size`` 2 shows a 2x2x2
    (``facelets`` then has 24 letters).
    """
    for image, _face in render_session(facelets, rng, fps, seconds_per_face, transition_seconds, tier, width, height,
                                       size):
        yield image


def render_session(facelets: str, rng: np.random.Generator, fps: float = 15, seconds_per_face: float = 1.2,
                   transition_seconds: float = 0.6, tier: str = "easy", width: int = 640,
                   height: int = 480, size: int = 3) -> Iterator[tuple[np.ndarray, str | None]]:
    """Like ``render_session_frames`` but with the truth: (frame, face held square to the camera or None)."""
    count = size * size
    if len(facelets) != 6 * count:
        raise ValueError(f"a cube of size {size} has {6 * count} facelets, got {len(facelets)}")
    base = sample_params(tier, rng, width, height, size=size)
    # Keep the held pose modest so the jitter never pushes the face out of the frame.
    base = dataclasses.replace(base, roll=base.roll * 0.5, yaw=base.yaw * 0.5, pitch=base.pitch * 0.5)
    scene = _scene(base, rng)
    model = _model({face: [STANDARD_SCHEME[x] for x in facelets[count * i: count * i + count]]
                    for i, face in enumerate(FACES)}, size)
    hold = max(1, round(seconds_per_face * fps))
    turn = max(1, round(transition_seconds * fps))
    size = base.sticker_size
    drift = np.zeros(5)  # roll, yaw, pitch, dx, dy: a slow random walk (a hand is never still)
    for k, face in enumerate(FACES):
        for _ in range(hold):
            drift = 0.85 * drift + rng.normal(0, [0.6, 0.6, 0.6, 0.002, 0.002])
            p = dataclasses.replace(base, roll=base.roll + drift[0], yaw=base.yaw + drift[1],
                                    pitch=base.pitch + drift[2],
                                    centre=(base.centre[0] + drift[3], base.centre[1] + drift[4]))
            pose = pose_rotation(p.roll, p.yaw, p.pitch)
            image, *_ = _draw(p, model, pose @ held_rotation(face), scene, rng, face, pose)
            yield image, face
        if k == len(FACES) - 1:
            break
        pose = pose_rotation(base.roll, base.yaw, base.pitch)
        start, end = pose @ held_rotation(face), pose @ held_rotation(FACES[k + 1])
        for j in range(turn):
            t = (j + 1) / (turn + 1)
            # Turning frames stay at least a fifth of the turn (about 20 degrees) away from either held face.
            ease = 0.2 + 0.6 * (0.5 - 0.5 * np.cos(np.pi * t))
            # The cube is pulled back and dips a little while it turns, and blurs with the motion.
            p = dataclasses.replace(base, sticker_size=size * (1 - 0.25 * np.sin(np.pi * t)),
                                    centre=(base.centre[0], base.centre[1] + 0.05 * np.sin(np.pi * t)),
                                    motion=base.motion + 0.012 * np.sin(np.pi * t), motion_angle=rng.uniform(0, 180),
                                    glare=0.0)
            image, *_ = _draw(p, model, _between(start, end, ease), scene, rng, None, pose)
            yield image, None


def write_video(frames: Iterable[np.ndarray], path: Path, fps: float) -> None:
    """Write BGR frames as an MJPG .avi and check that it reads back with the same frame count and size."""
    path = Path(path)
    writer = None
    count = 0
    size = (0, 0)
    try:
        for frame in frames:
            if writer is None:
                size = (frame.shape[1], frame.shape[0])
                writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), float(fps), size)
                if not writer.isOpened():
                    raise OSError(f"cannot write video {path}")
            writer.write(frame)
            count += 1
    finally:
        if writer is not None:
            writer.release()
    capture = cv2.VideoCapture(str(path))
    try:
        read = 0
        while True:
            ok, frame = capture.read()
            if not ok:
                break
            if (frame.shape[1], frame.shape[0]) != size:
                raise OSError(f"{path}: frame size {frame.shape[1]}x{frame.shape[0]}, wrote {size[0]}x{size[1]}")
            read += 1
    finally:
        capture.release()
    if read != count:
        raise OSError(f"{path}: read back {read} frames, wrote {count}")
