"""Every threshold and size of the vision layer, in one frozen dataclass with a one-line reason per field.

Sizes are fractions of the image (or of a sticker), never absolute pixels, so the same values work at any
resolution.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Tunables:
    """Vision tunables; pass an instance explicitly (no global), replace fields with ``dataclasses.replace``."""

    # --- detection (qbr/vision/detect/) ---
    work_width: int = 320
    """Frames are resized to this width before detection: bounds per-frame time whatever the camera gives."""
    blur_size: float = 0.006
    """Gaussian blur kernel before Canny, as a fraction of the work width: suppresses sensor noise and JPEG blocks."""
    canny_low: float = 0.66
    """Canny low threshold as a fraction of the frame's grey-level standard deviation: follows the scene contrast."""
    canny_high: float = 1.33
    """Canny high threshold as a fraction of the grey-level standard deviation (pairs with ``canny_low``)."""
    canny_floor: float = 12.0
    """Lowest allowed Canny low threshold (grey levels): keeps flat, noisy frames from exploding into edges."""
    canny_extra_factor: float = 2.0
    """Threshold multiplier for the blue-yellow plane: it only has to split yellow from white, and is the noisiest."""
    noise_ratio: float = 0.045
    """A plane whose median step between pixels two apart exceeds this fraction of its grey-level spread is
    noise-limited: a dim room's gained-up frame (clean frames measure ~0.015-0.04); its Canny thresholds are set
    above the noise (below). 0: off."""
    noise_texture_scale: int = 2
    """...counting only the part of that step that does not grow when the plane is area-averaged this many times
    smaller: a scene texture's (a Lego frame, wood grain) does, a dim sensor's noise does not (photos of real rigs:
    coarse/fine step ~1.9-2.2, dim frames ~0.4-1.1). 1: every step counts as noise."""
    noise_blur_ratio: float = 0.055
    """A plane whose median step exceeds this fraction of its spread is very noisy (dim frames: ~0.06-0.16)..."""
    noise_blur_size: float = 0.015
    """...and gets a bilateral filter then a Gaussian blur of this kernel size (fraction of the work width) to average
    its noise: milder noise keeps the light blur, which leaves small stickers' thin gaps open."""
    noise_bilateral_range: float = 6.0
    """Range sigma of that bilateral filter, as a multiple of the plane's median step: differences of the noise's
    size are smoothed, a sticker's outline or a stickerless cube's thin groove (far larger) is not. 0: none."""
    noise_canny_low: float = 8.0
    """Canny low threshold of a noise-limited plane, at least this multiple of its median step after that blur
    (Canny's Sobel gradient of noise is ~8 such steps)."""
    noise_canny_high: float = 24.0
    """...and the high one this multiple: only edges well above the noise start an outline, weak ones continue it."""
    photo_passes: bool = True
    """Every pass of the detection cascade (qbr/vision/detect/passes.py): a still photo is the only chance to see
    its face; ``for_video`` runs only the passes both profiles run (the first look, the look without short edge
    pieces and the 2x2x2's search)."""
    retry_canny_factor: float = 1.5
    """When no face is found, search once more with Canny thresholds times this (noise-broken outlines); 1: off."""
    retry_edge_piece: float = 0.06
    """When the first search finds no face, search again with Canny edge pieces of fewer pixels than this share of
    the work width dropped: noise, JPEG blocks and glare leave such specks inside small stickers, cutting them apart
    (a sticker's outline is one piece, 0.14+ of the width around the smallest); 0: off."""
    retry_far_scales: tuple[float, ...] = (0.75, 0.5)
    """When no look finds a face in a still photo, every look again at these shares of the work width in turn: a
    face held close to the camera is out of focus in proportion to its size, and seen smaller its stickers'
    blurred, broken outlines close."""
    retry_far_min_pitch: float = 0.15
    """...and a face found so is taken only when its sticker pitch is at least this share of the frame's width: only
    a face held close is blurred so (the tiers' close faces: 0.2-0.3), while a room's tiles and notes seen smaller
    make small 2x2 and 3x3 grids (pitch 0.05-0.13 in 300 rendered tuning rooms)."""
    retry_work_width: int = 640
    """When still nothing is found among small candidates, search once more at this width (0: never): small
    stickers' gaps run together at the work width (hard faces: ~+4% found; costs as much again as the search);
    the last-resort search on contrast-equalised planes also runs at this width. A webcam's own 640: blurred small
    stickers' gaps still run together at 480 (physcam hard tuning, 150 cubes: 868 -> 873 of 900 faces)."""
    retry_small_size: float = 0.08
    """Candidates smaller than this fraction of the width count as small stickers, worth that closer look."""
    retry_small_min: int = 4
    """Fewest small candidates for the closer look: about half of the frames without a cube skip it."""
    retry_min_found: int = 7
    """Stickers the second search must see directly: its sparser edges make small decoy grids easier to fit."""
    retry_min_variety: float = 60.0
    """...or this colour spread (RMS grey levels) of its stickers: a scrambled face has it, a wall of tiles not."""
    retry_clahe_clip: float = 2.0
    """When all else finds nothing, search once more on contrast-equalised planes with this CLAHE clip (0: off)."""
    retry_clahe_tiles: int = 4
    """CLAHE tiles per side for that search: a face spans one or two tiles, so its own contrast sets the stretch."""
    retry_low_canny_factor: float = 0.7
    """...and then once with Canny thresholds times this (blurred outlines are weak edges); 0: off."""
    retry_weak_min: int = 4
    """Fewest sticker candidates the first search must see for those two: a bare or flat frame skips them."""
    retry_weak_max: int = 20
    """...and most: a cluttered room yields many, and is costly to search again (blurred faces show 5-20)."""
    pool_same: float = 0.3
    """When every search finds nothing, search once more among all their candidates at once (glare, blur and JPEG
    break different outlines in each edge map); a candidate within this share of its size of an earlier one's
    centre is the same sticker, counted once. 0: off."""
    region_views: tuple[tuple[float, float], ...] = ((1.0, 0.015), (0.5, 0.025), (0.5, 0.04))
    """Views of a noisy frame searched for stable colour regions (``regions.py``), all regions pooled: (share of the
    work width it is seen at, Gaussian blur as a fraction of that width). The light blur keeps small stickers apart,
    the heavier ones keep a dark sticker on a black body whole, at half size (a quarter of the cost, as many faces).
    Synth dim tuning misses of 200: the first view alone 6, with a second 4, all three 3; a fourth (0.06) 3."""
    region_evolution: int = 200
    """MSCR's evolution steps (OpenCV's default): how far the merging runs before the regions are read."""
    region_area_threshold: float = 1.01
    """MSCR's area threshold (OpenCV's default): a region must grow by this factor to be re-examined; 1.05 found
    fewer dim tuning faces."""
    region_min_margin: float = 0.003
    """MSCR's least margin (OpenCV's default): how long a region must stay unchanged to count as stable."""
    region_edge_blur: float = 0.015
    """MSCR's edge blur (fraction of the work width, OpenCV's 5 px at 320): smooths the colour differences merged."""
    region_look: bool = True
    """When no face is found on a noise-limited frame, look for stickers as stable colour regions (photo only)."""
    dilate_size: float = 0.006
    """Edge dilation kernel as a fraction of the work width: closes broken sticker outlines and thin grooves."""
    sticker_min: float = 0.028
    """Smallest sticker side accepted, as a fraction of the frame width: the smallest faces (4% pitch) tilted 30 degrees
    show stickers of ~3.1% (physcam hard: 3 of 19 missed tuning faces below the former 3.5%)."""
    sticker_max: float = 0.32
    """Largest sticker side accepted, as a fraction of the frame width (product range ends at 30%)."""
    quad_solidity: float = 0.82
    """Minimum area / convex-hull area of a sticker candidate: stickers are convex, clutter blobs rarely are."""
    quad_fill: float = 0.78
    """Minimum hull area / fitted-quad area (and 2 minus it the maximum): rejects discs, triangles, ragged blobs."""
    quad_max_aspect: float = 2.6
    """Largest ratio of a candidate's two side lengths: 30-degree tilt plus perspective stays well below this."""
    grid_residual: float = 0.3
    """Largest distance (in sticker pitches) of a candidate's centre from its grid cell centre to count as a fit."""
    grid_size_ratio: float = 1.6
    """Largest size ratio between a candidate and the cell the grid predicts for it."""
    grid_square: float = 1.3
    """Largest side ratio of a sticker mapped into grid space: a neighbouring face's stickers are squashed."""
    grid_min_found: int = 5
    """Fewest stickers seen directly before a face is accepted (the rest are recovered from the grid fit)."""
    grid_max_rms: float = 0.05
    """Largest RMS distance (in pitches) of found stickers from their fitted cells: real faces fit far better."""
    grid_min_fill: float = 0.6
    """Smallest sticker side / grid cell side: a lattice at twice the real pitch (skipping stickers) falls below."""
    grid_max_perspective: float = 1.2
    """Largest foreshortening of a face grid (its far side over its near side, less 1) per share of the frame's
    width it spans: a camera's field of view bounds it (rendered truth: 0.81 at most, phone photos 0.2); a
    perspective fitted beyond it to few stickers is noise, fitted affinely instead (physcam hard tuning: the same
    faces found at 0.9-1.2, fewer at 1.5 and 2); one within it, fitted to five stickers spanning the face, is
    taken where it keeps more stickers than the affine fit. 0: off (and five stickers fitted affinely)."""
    grid_min_facing: float = 0.6
    """Fewest of a face grid's smaller stretch over its larger (the cosine of its tilt, ``geometry.facing``): the face
    held up is turned under 45 degrees (0.71), its neighbours more; 0.6 leaves room for fit noise (physcam hard tuning
    faces in place: 0.69 at least, 0.76 at the 0.5th percentile). 0: off."""
    grid_max_extra: int = 1
    """Most grid-consistent squares allowed outside the 3x3 face before it counts as tiles or a keyboard."""
    grid_min_variety: float = 25.0
    """Colour spread (RMS grey levels) below which a face's stickers are all alike: tiles, or a solved face (scrambled
    faces measure 37+); such a grid must also pass the dark-gaps test below."""
    variety_exposure: float = 160.0
    """Colour spreads above are those of a frame whose bright end (below) reaches at least this (0-255): a dim
    frame's are scaled up to it, as low exposure shrinks every colour difference alike (dim rooms' frames reach
    85-180, the tiers' 145-255); 0: as measured."""
    variety_exposure_share: float = 0.99
    """That bright end: the level this share of the pixels' largest channel lies below (a few glints excepted)."""
    solved_gap_ratio: float = 0.6
    """An all-alike grid counts as a (solved) face only if its inner gaps are this much darker than its cells: a
    cube body shows between stickers, tile walls have light grout; calibrating with a solved cube needs this.
    The same ratio tells a dark body, whose gaps alone then place a window that could slide."""
    solved_min_saturation: float = 0.45
    """...or its cells this saturated ((max-min)/max of BGR): coloured stickers on a white body, not grey tiles."""
    solved_tint_spread: float = 0.04
    """...or its cells' tints (colour / its mean level) all but one within this of their median: the pale stickers
    of one plastic, only shaded, on a light body (tuning faces: 0.033 at most); tiles vary more (tuning: 0.041 up)."""
    solved_extra_found: int = 7
    """...and one with a square on its lattice beside it (a neighbouring face's sticker seen aslant, a note) only when
    it sees this many stickers, joined by a dark body (tuning: such faces 7-9 seen; dark-grouted tile panels cut by
    clutter, one square left of their next row, 5-6)."""
    slide_gap_match: float = 40.0
    """Largest mean colour distance (0-255) of an unseen line's gaps from the body's to place a sliding window."""
    slide_gap_ratio: float = 2.0
    """...and the other side's gaps must differ this many times more: background, not body, lies past the face."""
    slide_edge_min: float = 40.0
    """...else the window goes where its far side shows the face's outline: a colour step this large (0-255)..."""
    slide_edge_ratio: float = 2.0
    """...and this many times the other window's far side, which lies in the background..."""
    slide_edge_sure: float = 3.0
    """...or this many times, which overrules even the gaps (past a white body a hand can pass for body colour)."""
    slide_min_variety: float = 40.0
    """Colour spread (RMS grey levels) a sliding window's stickers need: two lines of alike tiles stay refused."""
    pocket_min_found: int = 3
    """Fewest stickers of a 2x2x2's face seen directly (the fourth is placed by the grid); 0: never look for one."""
    pocket_stretch_look: bool = True
    """When no face is found, a 2x2x2's is also sought on contrast-equalised planes: light stickers on a light body
    (white on white, faded, glare) have edges too weak for Canny otherwise."""
    pocket_pooled_look: bool = True
    """When no face is found, a 2x2x2's is sought among every look's sticker candidates together: glare, blur and
    JPEG break a different sticker's outline in each edge map, and a 2x2x2 has no spare stickers to lose (physcam
    hard 2x2x2 faces, tuning cubes: 67.8 -> 79.4% found in a photo, 60.0 -> 69.4% in one camera frame)."""
    pocket_closer_look: bool = True
    """When no face is found in a photo of a cube known to be a 2x2x2, its face is sought among the candidates of the
    closer looks, at their width: a small face's stickers (pitch 4-8% of the width) are a dozen pixels at the work
    width (not otherwise: it takes 2x2 panels in rooms about as often, 1 of 150)."""
    pocket_solved_faces: bool = True
    """When the cube is known to be a 2x2x2 (``size=2``), four alike stickers between dark gaps (or vivid ones) are a
    solved face; otherwise they are refused, as rendered rooms' 2x2 tile panels and windows look the same."""
    pocket_overrule_found: int = 6
    """A 3x3 grid with this few stickers seen may be a 2x2x2's face plus a side face's sticker: a 2x2x2 is sought."""
    pocket_overrule_step: float = 55.0
    """...and it takes that grid's place only if its gaps step this clearly (0-255) from its stickers: in a blurred
    3x3 face what lies past a 2x2 block cannot be told (rendered: such 2x2x2s 61+, blurred 3x3 faces 45-)."""
    pocket_block_residual: float = 0.15
    """A 2x2 grid whose cell centres lie within this (pitches) of a 3x3 grid's cell centres is on that lattice..."""
    pocket_block_beyond: int = 2
    """...and is that 3x3 face's corner block, never a 2x2x2's face, when this many of the 3x3's found stickers lie
    beyond it (a 2x2x2's face and a stray sticker beside it make one)."""
    pocket_max_rms: float = 0.06
    """Largest RMS distance (in pitches) of a 2x2x2's stickers from an affine grid: perspective stays below it."""
    pocket_max_extra: int = 0
    """Most squares on a 2x2x2's lattice just outside it (a finger beside it can pass for one; tiles make many)."""
    pocket_cell_even: float = 40.0
    """A cell beyond a 2x2 grid's side is sticker-like when its points differ less than this (0-255) from their mean;"""
    pocket_cell_end: float = 80.0
    """...and a point past its far end differs more than this (0-255) from it: a 3x3 face's next stickers step 97+
    (95% of rendered ones), a finger or a part of a rig beside a 2x2x2 reaches on;"""
    pocket_side_cells: int = 1
    """...a side continues the grid (a bigger face) when this many of its two cells are sticker-like..."""
    pocket_gap_depth: float = 0.5
    """...and the gap between them is at least this share as marked (colour step to the cells) as the grid's own..."""
    pocket_gap_match: float = 45.0
    """...and within this colour distance (0-255) of the grid's own gap colour: the body, a 3x3 face's next line..."""
    pocket_gap_share: float = 0.6
    """...or within this share of its gaps' step from its stickers: blur and noise move both gap colours apart
    (rendered 3x3 sessions: 2 of 120 turning frames taken for a 2x2x2 without it, none with it)."""

    # --- a 2x2x2's lost faces found again with the cube's help (qbr/vision/pocket_recover.py) ---
    pocket_recover_fill: float = 0.88
    """Sticker side over cell pitch assumed when one sticker-like region proposes a face's grid (stickered 2x2x2s
    render 0.8-0.95; the measured inner square is half a sticker, so a tenth off still lands inside)."""
    pocket_recover_square: float = 1.3
    """A region whose sides differ less than this ratio is one sticker..."""
    pocket_recover_pair_low: float = 1.6
    """...one whose sides differ this ratio or more (up to the next) is two alike stickers run together..."""
    pocket_recover_pair_high: float = 2.6
    """...(stickerless cubes have no gap between them); longer regions are neither."""
    pocket_recover_repeat: float = 0.25
    """Guesses whose sticker centres all lie within this (pitches) of an earlier guess's repeat it."""
    pocket_recover_spread: float = 30.0
    """Largest colour spread (RMS, 0-255) of a guessed sticker's samples: more lies across an edge or a finger."""
    pocket_recover_tries: int = 8
    """Guesses per photo resolved in full (~40 ms each), those whose stickers lie nearest the other faces' first."""
    pocket_recover_looser: float = 1.5
    """Most a guess may raise how loosely the cube's colours fit its stickers (mean CIEDE2000, light fitted)."""
    pocket_recover_sure: float = 0.0
    """A guess is taken only if each of its stickers is read with more confidence than this (0: none repaired)."""

    # --- measurement (qbr/vision/measure.py) ---
    measure_inner: float = 0.56
    """Side of the sampled square as a fraction of the sticker: keeps clear of edge shadows and black gaps."""
    measure_samples: int = 9
    """Samples per side of the sampled square (9 x 9 = 81 pixels per sticker): enough for a robust median."""
    glare_value: float = 0.9
    """Samples brighter than this fraction of 255 (max channel) can be glare if also much paler than the sticker."""
    glare_chroma: float = 0.5
    """A bright sample is glare when its chroma is below this fraction of the sticker's reference chroma (below)."""
    glare_reference: float = 0.9
    """Quantile of a sticker's sample chroma that is its reference: its least glared part (0.5: the median, which a
    highlight over half the sticker pulls pale)."""
    glare_min_chroma: float = 0.12
    """A sticker whose reference chroma (max - min channel, fraction of 255) is below this has no colour for glare
    to wash out (a white one: its chroma is noise); none of its samples is glare then."""
    clip_level: float = 0.98
    """A sample with every channel above this fraction of 255 is clipped: white whatever the sticker's colour."""
    glare_clipped_share: float = 0.5
    """Clipped samples count as lost to glare once they are more than this share of a sticker: below it the rest
    shows the sticker's colour (tuning renders: 0.25 made 7 of 483 true whites unsure, no false white sure)."""
    paled_chroma_shift: float = 0.02
    """A sticker whose brightest quarter's chromaticity (linear channel shares) is farther than this from its dimmer
    part's is paled by a highlight, if also lifted (below): a white's chromaticity does not change with its light."""
    paled_lift: float = 1.3
    """The brightest quarter must be at least this much brighter (luminance) than the dimmer part: a spot's falloff."""
    paled_print_lift: float = 3.5
    """Parts of a sticker more than this much darker than its brightest are a print (a logo), not a spot's falloff."""
    spot_gap_samples: int = 7
    """Samples along each gap between two stickers (``spot_light``): its median is the gap's light."""
    spot_gap_span: float = 0.7
    """Middle share of a sticker's side sampled as its gap: the ends meet other gaps and the face's corners."""
    spot_gap_reach: float = 0.04
    """Gap samples also this far (a sticker cell's side) either side of the grid line; the darkest of the three is
    the gap (narrow gaps, a grid a pixel off)."""
    spot_floor_rank: int = 2
    """The face's unlit gaps: this darkest but one of its inner gaps (0: the darkest), as one gap in a hand's shadow
    is darker than the body is."""
    spot_floor_shading: float = 1.5
    """Gaps up to this many times the unlit ones are the body in other light (shading scales a body's light, a spot
    adds to it): they show no spot (a white body's gaps are as bright as its whites, and shaded unevenly)."""
    spot_min_light: float = 0.2
    """A gap lifted by less than this share of the face's brightest sticker (linear luminance) is no spot's: a lamp's
    spot adds light like a white's (a white body's gaps by a dark logo centre read 0.1 above the unlit)."""
    trim_dark: float = 0.2
    """Share of the darkest remaining samples dropped: shadows and gap pixels that reach into the sampled area."""

    # --- a face held through frames its detection misses (qbr/vision/held_face.py) ---
    held_change: float = 0.1
    """A sticker whose colour moved by more than this fraction of 255 (any channel) since the last frame ends the
    hold: another face, or the grid slid off its stickers (a steady dim face's noise: at most 0.03)."""
    held_carry: int = 4
    """Frames in a row without a detection of their own measured with the last one (a steady hand moves the face a
    pixel or two a frame): a dim face missed in some frames stays seen."""

    # --- colour classification and resolution (qbr/vision/colour.py, classify.py, resolve.py) ---
    classify_margin_scale: float = 6.0
    """CIEDE2000 margin (best vs runner-up colour) at which confidence reaches 63%: a just-noticeable gap is ~2."""
    classify_calibration_rounds: int = 3
    """Rounds of fitting a face's light to the palette before naming (0: none); real scans gain little after 3."""
    classify_gain_step: float = 1.4
    """Largest per-round change of a channel gain in that fit: a face without white cannot be dragged far."""
    classify_logo_chroma: float = 12.0
    """A face's centre greyer than this (CIELAB chroma as measured) is a white one under a logo: no sticker is grey.
    Only where the samples' spread is not known (a colour scan's bare RGB); else ``classify_logo_pattern``."""
    classify_logo_pattern: float = 0.15
    """A centre whose samples spread (RMS, ``StickerColours.spread``) more than this share of the face's brightest
    level is printed on: a logo (rendered logos 0.26 at least, real ones 0.27; plain centres 0.09 at most without
    glare, glare-hit ones to 0.23 but saturated, see below)."""
    classify_logo_pattern_chroma: float = 24.0
    """Such a printed centre greyer than this (CIELAB chroma as measured) is a white one under a logo, whatever its
    ink's colours (a coloured logo averages greyish: rendered up to 23.6, real 8.7-11.5; a glare-hit orange or yellow
    centre so spread keeps 31+)."""
    classify_warm_gap: float = 4.0
    """Hue gap (degrees, glare-free, as measured) splitting a face's reds from its oranges: the redder side is red."""
    classify_warm_lighter: float = 0.5
    """Such a gap with every hue on one side of the boundary (else one pale colour's spread) still splits when its
    yellower side's median luminance is this log ratio above the redder side's (x1.65): oranges reflect green too
    (tuning faces across the gap, two colours: median 0.57-0.83; one colour's, shading and glare: 95% below 0.31,
    at most 0.64)."""
    classify_camera_hue: float = 4.8
    """Degrees another camera moves a red's or orange's hue (mean absolute, phone faces on 20 tuning cameras): a red
    or orange the face cannot split is 63% sure this far past the boundary (sure, >= 0.5, from 3.3 degrees)."""
    classify_yellow_hue_chroma: float = 20.0
    """Oranges and yellows at least this saturated (CIELAB chroma as measured) are told apart by hue alone: a
    camera's tone curve moves their lightness, which CIEDE2000 weighs (a webcam's yellows 5-8x darker than its
    whites read orange); paler ones are whites' and glare's business (20 and 35: the same on every tuning source)."""
    classify_yellow_gap: float = 20.0
    """Hue gap (degrees, glare-free, as measured) splitting a face's oranges from its yellows: the yellower is yellow.
    One colour's spread on a face: 20 at most (a real webcam's oranges; renders 12); the two colours' gap 24+ (a
    few camera faces closer: left unsplit); 15 and 25 the same on tuning faces but one camera face at 15."""
    classify_cool_gap: float = 30.0
    """Hue gap (degrees, glare-free, as measured) splitting a face's greens from its blues: the greener is green."""
    classify_warm_chroma_share: float = 0.6
    """Reds and oranges below this share of the face's most saturated one do not place that gap (glare-hit ones)."""
    classify_warm_hue_chroma: float = 65.0
    """Reds and oranges at least this saturated (light-fitted CIELAB) and nothing to split against go by hue alone."""
    classify_white_pull: float = 0.5
    """Share of the way the light fit is moved to make the face's whites neutral (0: not): both are estimates."""
    classify_white_raw_chroma: float = 20.0
    """Whites the camera saw greyer than this (CIELAB chroma as measured) set the face's neutral; washed ones not."""
    classify_wash_chroma: float = 17.0
    """A sticker named white with more chroma than this after the light fit is a washed-out colour, not white."""
    classify_wash_raw_chroma: float = 28.0
    """The same, as measured, off a white under the light of the face's other stickers (the fit may call it white)."""
    classify_glare_luminance: float = 0.9
    """A sticker named white brighter than this (linear luminance as measured) may be any colour under glare."""
    classify_glare_ratio: float = 1.2
    """So may one brighter than this times the median of the face's other whites (one light lights them alike)."""
    classify_white_tint: float = 6.0
    """A white whose CIELAB (a, b) is farther than this from the median of the face's whites (3+) is unsure."""
    classify_glare_share: float = 0.25
    """A sticker named white with more than this share of its samples clipped or washed by glare is unsure: glare on
    any light colour clips to the same white (rendered faces: 2% of true whites, 0.1% of other stickers above it)."""
    classify_spot_white: float = 0.4
    """A sticker named white whose gaps show a spot adding more than this share of its light is unsure: a pale colour
    so lit is named white (tuning glared physcam faces: shares 0.53-0.65; physcam hard and medium faces 0.42-0.49)."""
    classify_spot_logo: float = 0.35
    """A grey centre (a logo's white, itself "worth a look") whose gaps show a spot adding more than this share of
    its light is unsure: a lit yellow centre reads grey from 0.37 (tuning glared faces), so true logo whites lit
    0.35-0.46 are shown unsure too."""
    classify_wash_confidence: float = 0.2
    """Confidence of a washed-out sticker's name (its nearest colour by hue): the preview shows it uncertain."""
    resolve_iterations: int = 6
    """Most rounds of assign / re-estimate colours and face light; real scans settle in 2-3, more only cost time."""
    resolve_face_gain_step: float = 2.0
    """Largest change per round of a face's channel gain (the 2x2's resolution): a dark face cannot blow up noise."""
    resolve_cast_prior: float = 1.0
    """Stickers' worth of evidence a face's warm/cool cast must overcome to differ from the others' (exposure is free):
    without it a colour seen on one face only (a solved cube) takes any cast, and any colouring fits itself."""
    resolve_tint_prior: float = 30.0
    """...the same for a green or magenta cast: lamps and white balance err along the warm/cool axis, rarely off it."""
    resolve_exposure_prior: float = 0.3
    """...and for a face brighter or darker than the others: auto-exposure varies freely, so only a weak pull."""
    resolve_cast_cost: float = 10.0
    """CIEDE2000 a colouring's score pays per unit of (prior-weighted) face cast: light that must differ is likelier
    wrong."""
    resolve_noise_floor: float = 0.004
    """Linear level (about 12 of 255 sRGB) below which a channel is mostly noise: its log is floored, it counts less."""
    resolve_max_gain: float = 4.0
    """Most the light fit brightens a scan by: a very dark scan's sensor noise, brought up to 0.8, passes for colour."""
    resolve_brightest: float = 0.8
    """Linear value the brightest colour is brought to: overall exposure is arbitrary, but CIELAB hides dark gaps."""
    resolve_max_nodes: int = 400
    """Most ranked assignments examined per piece type: bounds the time if many near-ties must be sorted out."""
    resolve_margin_scale: float = 8.0
    """Piece-cost margin (summed CIEDE2000) at which a facelet's confidence reaches 63% (the 2x2's resolution)."""
    resolve_sticker_margin_scale: float = 3.0
    """Evidence per sticker (CIEDE2000 an alternative cube costs more, shared by the stickers it changes) at which
    a 3x3 facelet's confidence reaches 63%: real scans' stickers scatter 2-5 about their colour."""
    resolve_alternative_stickers: float = 3.0
    """Alternatives are looked for up to this many stickers' worth of the confidence cap: bounds the search."""
    resolve_rejudged: int = 6
    """Closest alternative cubes judged again with their own light fitted: more find rarer doubts, each costs ~1 ms."""
    resolve_polish_rounds: int = 3
    """Most moves to a nearly as cheap real cube the judge scores better (``polish``): each costs its alternatives."""
    resolve_uncertain_below: float = 0.5
    """Facelets less confident than this are reported as uncertain (the UI asks to check them)."""
    resolve_max_uncertain: int = 6
    """At most this many uncertain facelets are reported: more would not help a person check the cube."""
    resolve_alike_spread: float = 0.25
    """Two colours whose means are closer than this many times their stickers' median spread cannot be told apart."""
    resolve_doubt_below: float = 0.5
    """Stickers less confident than this are in doubt: a nearly as cheap real cube shows them in another colour."""
    resolve_free_colour_cost: float = 20.0
    """What a colour costs a colouring when stickers show it but no measured centre pins it (a lost face's): fitted
    freely it takes any few stickers perfectly, so it must earn its place; one misfit's worth (``resolve_misfit``)."""
    resolve_lost_doubt_below: float = 0.8
    """The same when a face was lost (its stickers deduced): its pieces' other stickers are each read once, so a
    misread there shows in no other sticker and a cube this close is no surer (physcam hard tuning drops)."""
    resolve_max_misfit_share: float = 0.35
    """Median own-colour distance / (own + nearest other) above which the colours are not a cube's (noise: 0.4+)."""
    resolve_centre_margin: float = 10.0
    """CIEDE2000 by which the centres must prefer their colours to any renaming of the scheme that keeps the pieces."""
    resolve_max_misread_centres: int = 2
    """Most centres far off their own colour (logos, glare) for the others to still say which colour is whose."""
    resolve_turn_candidates: int = 4
    """Turned readings (of 18 per round) judged with their own light fitted, the cheapest first: each costs ~1 ms."""
    resolve_turn_gain: float = 40.0
    """Cost (summed capped CIEDE2000) a face read turned back must save to count as turned: two clashing stickers."""
    resolve_misfit: float = 20.0
    """CIEDE2000 a sticker may fit its colour worse than its nearest one: real scans stay < 16, a turned face 25+."""
    resolve_trust_floor: float = 0.4
    """Least weight a sticker mostly lit by a glare spot keeps in resolution (1 - its spot share): its hue still says
    something (tuning, physcam hard: 0.2-0.5 alike)."""
    resolve_max_misfits: int = 1
    """Clashing stickers repaired by the pieces without further checks (one glare or misread sticker)."""
    resolve_max_repairs: int = 3
    """Most clashing stickers repaired (and flagged) when no face read turned explains them; more: not one cube."""
    resolve_cluster_rounds: int = 8
    """Most rounds of the nine-per-colour clustering that seeds the anchors; it settles in 2-4 on rendered cubes."""
    resolve_margin_cap: float = 6.0
    """Margin scales up to which alternative cubes are looked for: beyond it a facelet's confidence is above 0.997."""
    resolve_palette_gain_limit: float = 20.0
    """A face's channel gains towards the default palette stay within 1/this..this: a black or empty face keeps its
    light as measured."""
    resolve_turn_screened: int = 2
    """Turned readings solved exactly per one judged in full (``resolve_turn_candidates``): the cheap bound that
    ranks them first is rough."""
    resolve_pocket_min_measured: float = 0.5
    """Share of a 2x2's stickers that must be measured to resolve it: fewer leave too few of each colour to anchor."""
    resolve_pocket_max_looseness: float = 8.5
    """Largest mean CIEDE2000 of a 2x2's stickers from their colours (light fitted; each counted at most
    ``resolve_misfit``): real scans, even strongly augmented, stay below 7; random colours measure 10+. Above it the
    stickers are not one real cube."""
    resolve_pocket_gain_ridge: float = 0.5
    """How strongly a 2x2 face's channel gains are drawn to its exposure gain, relative to its mean channel
    energy: four stickers seldom span all channels (a face of reds has no blue to fit)."""
    resolve_pocket_screen_orders: int = 40
    """Orders of a 2x2's faces shown out of order whose cheapest real cube is searched exactly, the lowest lower
    bounds first (the bound alone ranked the right order up to ~120th under augmentation)."""
    resolve_pocket_max_orders: int = 3
    """Orders of a 2x2's faces shown out of order resolved in full, the most promising by a lower bound first (on
    the real scans shuffled, the right order always ranks first)."""

    def for_video(self) -> Tunables:
        """These tunables for a live stream: one extra search (without short edge pieces) where the first finds
        nothing, not the photo's whole cascade.

        A still photo is the only chance to see its face, so it gets every fallback; a video shows the same face
        again in a moment, and the extra searches triple the cost of the many frames without a cube (even the
        stricter-edges retry alone: cluttered frames without a cube 4.1 -> 2.7 ms median, p95 14.7 -> 8.0 ms,
        for 2% of hard faces fewer per frame). The one kept finds most of what they find on small, glared, JPEG'd
        faces (physcam hard tuning faces in one frame 152 -> 179 of 200, for ~0.7 ms on frames where it runs).
        """
        return replace(self, photo_passes=False)
