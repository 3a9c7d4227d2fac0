"""Face detection: one cube face (a 3x3 grid of stickers, or a 2x2x2's 2x2) in a camera frame, by stages.

In order:

1. ``planes``: the frame at the work width, its grey and blue-yellow planes (contrast-equalised for later passes).
2. ``edges`` (``noise``, ``kernel``): blurred Canny edges of every plane, thresholds above sensor noise, dilated.
3. ``candidates``: sticker-like quads, the regions between edges that are convex, four-sided and of a sticker's size;
   ``regions``: the same quads from stable colour regions instead of edges (a noisy still photo's last look).
4. ``lattice``: every candidate proposes the lattice spanned by its own axes; the best window of each, best first.
5. ``fit`` (``geometry``): a homography fitted to the window's stickers, collecting every candidate that agrees
   with it in position, size and shape; it places all nine stickers, so missed or merged ones are recovered.
6. ``plausible`` (``colours``): one named predicate per refusal — a loose fit, alike tiles, a bigger lattice, a
   crowded 2x2, an untrusted retry, a one-coloured last resort (dark gaps tell a solved face); ``window``: a grid
   seen in two lines only, placed by the body's gaps or the face's outline.
7. ``search``: the best grid among one edge map's candidates (big and fully seen wins), over a pass's Canny factors.
8. ``pocket`` (``pocket_fit``, ``overrule``): a 2x2x2's face among the same candidates, taken when no sure 3x3 is.
9. ``passes``: ``detect_face``, the cascade of search passes as a table (stricter edges, the 2x2x2, without short
   edge pieces, closer, contrast-equalised, weaker edges, stable colour regions, all their candidates pooled),
   walked by one loop while no sure face is found; the live profile runs only the rows marked for both profiles.
10. ``result``: the ``FaceDetection`` in the frame's own pixels.

Apart: ``pocket_guesses``, every place a 2x2x2's face could lie, refused or not, for the cube's faces to decide.
"""

from qbr.vision.detect.geometry import apply_homography
from qbr.vision.detect.passes import detect_face
from qbr.vision.detect.pocket_guesses import face_guesses
from qbr.vision.detect.result import FaceDetection

__all__ = ["FaceDetection", "apply_homography", "detect_face", "face_guesses"]
