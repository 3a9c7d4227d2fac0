"""`qbr --camera VIDEO --no-window` on a rendered 2x2x2 session: recognised, read and solved optimally."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
import synth
from cli_runner import run_cli as run

from qbr.cli import ExitStatus
from qbr.cube.pocket.generate import random_pocket_state
from qbr.cube.pocket.state import PocketState
from qbr.solve.pocket.solver import PocketSolver

FPS = 15


@pytest.fixture(scope="module")
def pocket_video(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    facelets = random_pocket_state(random.Random(5)).facelets
    frames = synth.render_session_frames(facelets, np.random.default_rng(5), fps=FPS, seconds_per_face=0.9,
                                         transition_seconds=0.4, width=320, height=240, size=2)
    path = tmp_path_factory.mktemp("video") / "pocket.avi"
    synth.write_video(frames, path, FPS)
    return facelets, path


def test_headless_reads_a_2x2_and_solves_it_optimally(pocket_video, tmp_path: Path) -> None:
    facelets, video = pocket_video
    status, out, err = run(["--camera", str(video), "--no-window", "--json"], tmp_path)
    payload = json.loads(out)
    assert status is ExitStatus.OK, (payload, err)
    # The faces are shown U R F D L B, not in the guide's order: the resolution puts them back.
    assert payload["facelets"] == facelets and payload["valid"] is True
    assert PocketState(facelets).apply(" ".join(payload["moves"])).is_solved
    assert payload["length_htm"] == len(PocketSolver.build().solve(facelets).moves)  # optimal
    assert len(payload["confidence"]) == 24


def test_headless_text_shows_the_2x2_net(pocket_video, tmp_path: Path) -> None:
    facelets, video = pocket_video
    status, out, _ = run(["--camera", str(video), "--no-window"], tmp_path)
    assert status is ExitStatus.OK
    lines = out.splitlines()
    assert lines[1].split() == list(facelets[:2]) and lines[3].split()[:2] == list(facelets[16:18])
