"""Write assets/demo.avi, the video `qbr --demo` plays: a scrambled cube held by a hand, its six faces shown
one after another in the standard net orientation, rendered by the test renderer (tests/synth).

Run from the repository root: python assets/make_demo.py [--check]
--check only plays the written demo through the headless app and prints what it found.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "assets" / "demo.avi"
SCRAMBLE = "F R' U2 L B' D R2 F' U L2 D' B2 R U'"
SEED = 2024
FPS = 10  # enough for auto-capture (0.5 s steady = 5 frames) and keeps the MJPG file under 3 MB
LIMIT = 3 * 1024 * 1024


def write_demo(path: Path = OUT) -> tuple[str, int]:
    """Render and write the demo; returns the cube's facelets and the number of frames."""
    sys.path.insert(0, str(ROOT / "tests"))
    import synth

    from qbr.cube.state import CubeState

    facelets = CubeState.from_scramble(SCRAMBLE).facelets
    frames = synth.render_session_frames(facelets, np.random.default_rng(SEED), fps=FPS, seconds_per_face=1.6,
                                         transition_seconds=0.8, tier="easy", width=640, height=480)
    frames = list(frames)
    # Hold the last face a moment longer: the window keeps showing it while the user steps through the solution.
    frames += [frames[-1]] * FPS
    synth.write_video(frames, path, FPS)
    return facelets, len(frames)


def check(path: Path = OUT) -> None:
    """Play the demo through the headless app and say whether it found the cube that was rendered."""
    import io

    from qbr.app.environment import Environment
    from qbr.cli import main
    from qbr.cube.state import CubeState

    out = io.StringIO()
    env = Environment(stdout=out, stderr=sys.stderr, stdout_isatty=False, config_dir=Path("/nonexistent/qbr"),
                      system_language="en", has_display=False)
    status = main(["--camera", str(path), "--no-window", "--json", "--lang", "en"], env=env)
    import json

    result = json.loads(out.getvalue())
    truth = CubeState.from_scramble(SCRAMBLE).facelets
    print(f"exit status {int(status)}; facelets {'match' if result.get('facelets') == truth else 'DIFFER'}; "
          f"solution {result.get('solution')}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the existing demo")
    args = parser.parse_args()
    if not args.check:
        facelets, frames = write_demo()
        size = OUT.stat().st_size
        print(f"{OUT.relative_to(ROOT)}: {frames} frames at {FPS} fps, {size / 1e6:.2f} MB, cube {facelets}")
        if size > LIMIT:
            raise SystemExit(f"demo is {size / 1e6:.2f} MB, more than 3 MB: lower FPS or the resolution")
    check()
