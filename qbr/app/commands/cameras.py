"""``qbr --list-cameras``: the cameras that open, with the --camera index to use; none found is an answer too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from qbr.app.commands.result import CommandResult

if TYPE_CHECKING:
    from qbr.app.environment import Environment


def list_cameras_command(env: Environment) -> CommandResult:
    """Probe the cameras (Environment.cameras) and list them; exit code 0 either way."""
    cameras = env.cameras()
    payload = {"cameras": [{"index": c.index, "width": c.width, "height": c.height, "name": c.name}
                           for c in cameras]}
    if not cameras:
        text = ("No camera found. Without one: --camera FILE reads a video, --images DIR steps through photos, "
                "--demo plays the demo.")
        return CommandResult(payload=payload, text=text)
    lines = ["Cameras (use --camera N):"]
    for c in cameras:
        size = f"{c.width}x{c.height}" if c.width and c.height else "resolution unknown"
        lines.append(f"  {c.index}: {size}" + (f"  {c.name}" if c.name else ""))
    return CommandResult(payload=payload, text="\n".join(lines))
