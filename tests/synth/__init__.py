"""Synthetic webcam photos of a Rubik's cube with known truth, for tests, benchmarks and demos."""

from synth.palettes import COLOUR_NAMES, PALETTES, SKIN_TONES
from synth.render import (
    TIERS,
    Rendered,
    RenderParams,
    front_corners,
    held_rotation,
    random_colours,
    render_cube,
    render_face,
    sample_params,
)
from synth.video import render_session, render_session_frames, write_video

__all__ = [
    "COLOUR_NAMES",
    "PALETTES",
    "SKIN_TONES",
    "TIERS",
    "RenderParams",
    "Rendered",
    "front_corners",
    "held_rotation",
    "random_colours",
    "render_cube",
    "render_face",
    "render_session",
    "render_session_frames",
    "sample_params",
    "write_video",
]
