"""The video profile of the tunables drops only the extra searches for frames where nothing was found."""

import dataclasses

import numpy as np
import synth

from qbr.vision.detect import detect_face
from qbr.vision.tunables import Tunables


def test_video_profile_changes_only_the_fallback_searches():
    full, video = Tunables(), Tunables().for_video()
    changed = {f.name for f in dataclasses.fields(Tunables) if getattr(full, f.name) != getattr(video, f.name)}
    assert changed == {"photo_passes"}  # the cascade's photo-only passes (qbr/vision/detect/passes.py)


def test_a_face_only_the_fallbacks_find_is_left_to_the_next_frame_in_video():
    rng = np.random.default_rng(29)  # a heavily blurred hard face (see test_detect_synth)
    rendered = synth.render_face(synth.random_colours(rng), synth.sample_params("hard", rng), rng)
    assert detect_face(rendered.image) is not None
    assert detect_face(rendered.image, Tunables().for_video()) is None


def test_video_profile_still_finds_ordinary_faces():
    for seed in range(10):
        rng = np.random.default_rng(seed)
        rendered = synth.render_face(synth.random_colours(rng), synth.sample_params("medium", rng), rng)
        found = detect_face(rendered.image, Tunables().for_video())
        assert found is not None, seed
        centres = found.stickers.mean(axis=1)
        assert np.abs(centres - rendered.stickers.mean(axis=1)).max() < 0.3 * np.ptp(rendered.stickers[:, :, 0]) / 3
