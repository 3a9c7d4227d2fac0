"""Colour resolution: measured sticker colours -> the facelets of a real cube, by stages (a file for each).

The 3x3 (``cube.resolve_cube``), in order:

1. ``measured``: the 54 colours read from the per-face mapping; stickers with no usable value marked. A face
   not found at all (``lost_face``) is deduced from the other five: the descents start from a stand-in for its centre.
2. ``turned``: faces photographed turned are read turned back when that fits a real cube far better.
3. ``descent``: from four starts (the centres, and the stickers ``clusters``-ed nine to a colour, each also with
   each face's light fitted to the palette), the piece ``search`` over ``pieces`` (the cheapest real cube for a
   sticker x colour cost, ``costs``) alternated with refitting the colours and each face's ``light``; ``judge``
   scores each colouring whatever start it came from, and the best wins.
4. ``polish``: a nearly as cheap real cube the judge scores better than the one found replaces it (until none).
5. ``alternatives``: the real cubes nearly as cheap that show a sticker otherwise give its margin (confidence).
6. ``refusal``: measurements not of one real cube (colours alike, centres undecidable, random values) are said so.
7. ``doubt``: the stickers in doubt and the face to show again; ``naming`` names the colours for messages.
8. ``as_seen``: when no real cube fits without forcing many stickers, the stickers as seen instead.
9. ``result``: the ``Resolution`` both sizes return.

The 2x2x2 (``pocket.resolve_pocket``) has no centres: ``pocket_search`` (exact over every colour-to-face map) and
``pocket_fit`` (light, anchors and starts) take the place of ``search`` and ``descent``.
"""

from qbr.vision.resolve.cube import resolve_cube
from qbr.vision.resolve.pocket import colour_looseness, resolve_pocket, resolve_pocket_any_order
from qbr.vision.resolve.result import Doubt, Resolution

__all__ = ["Doubt", "Resolution", "colour_looseness", "resolve_cube", "resolve_pocket", "resolve_pocket_any_order"]
