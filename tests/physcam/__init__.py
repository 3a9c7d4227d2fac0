"""Webcam photos of a Rubik's cube from independent physics (spectra, a sensor), for validating qbr's vision.

Shares nothing with ``tests/synth`` but the truth format; see README.md.
"""

from physcam.sensor import Sensor
from physcam.shoot import (
    CONDITIONS,
    TIERS,
    Shot,
    ShotParams,
    face_radiance,
    render_cube,
    render_face,
    sample_cube,
    sample_params,
)

__all__ = ["CONDITIONS", "TIERS", "Sensor", "Shot", "ShotParams", "face_radiance", "render_cube", "render_face",
           "sample_cube", "sample_params"]
