"""A drawn window picture and where its clickable parts were drawn, so the window loop hit-tests a click against
what the user saw rather than against a second guess at the layout (the loop has no fonts to lay text out)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from qbr.app.edit_net import EditNetGeometry


@dataclass(frozen=True)
class Picture:
    """The window's picture (BGR) and the editable net on it, if one was drawn."""

    image: np.ndarray
    net: EditNetGeometry | None = None
