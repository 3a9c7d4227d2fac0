"""Errors of the application layer: files, cameras, calibration."""

from __future__ import annotations

from qbr.cube.errors import QbrError


class InputFileError(QbrError):
    """A file named by the user cannot be read or is not what it should be; the message names the file."""

    kind = "bad_input_file"


class NoFaceFoundError(QbrError):
    """No cube face was found in an image; the message names the image."""

    kind = "no_face_found"


class NoCameraError(QbrError):
    """No frame source could be opened (no camera, or the video cannot be read)."""

    kind = "no_camera"


class CalibrationError(QbrError):
    """A calibration file is corrupt or foreign; it is reported and ignored, never fatal."""

    kind = "bad_calibration"


class IncompleteScanError(QbrError):
    """The input ended before all six faces were captured."""

    kind = "incomplete"


class NoDisplayError(QbrError):
    """A window was asked for where there is no display."""

    kind = "no_display"


class BadArgumentError(QbrError):
    """A command-line value that is of the right kind but out of range (e.g. --camera 2147483648)."""

    kind = "usage"
