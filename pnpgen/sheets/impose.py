"""Impose cards on sheets: how many fit, where each front and back goes, and where the
cut marks are. Pure geometry in millimetres, page coordinates with the origin at the
page's bottom-left and y up (as in PDF); no drawing happens here.

A slot's `transform` maps card coordinates (mm, origin at the trim's bottom-left, y up)
onto the page, so a rotated card is just another transform. The back of the card in
front slot i is placed by reflecting that slot across the flip axis of the sheet and
mirroring the card about its own vertical axis, which is exactly what happens to the
paper in a duplex printer; tests check the registration numerically.

Cut lines are marked in the page margins (crop marks) where there is room. Where there
is not (three 88.9 mm rows on Letter, or three poker rows), the outer bleed on that axis
shrinks to what the printer can print, and each cut line gets a short tick inside that
bleed instead: it is cut away with the bleed, so it never shows on a card.

`impose` fits a grid to the page; `place` builds the same kind of Sheet from slots placed
by hand (a custom sheet layout, read by sheetlayout.py), with the same backs and marks."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import InputError

MARK_GAP = 1.0       # between the bleed edge and the start of a crop mark, mm
MARK_MIN = 3.0       # shortest useful crop mark, mm
MARK_MAX = 5.0
TICK_BLEED = 1.0     # least outer bleed that still holds a cut tick, mm
TICK_GAP = 0.3       # between the trim line and the start of a tick, mm
SLUG_ROOM = 2.6      # height a slug line needs, mm

Affine = tuple  # (a, b, c, d, e, f): x' = a*u + c*v + e, y' = b*u + d*v + f


def compose(p: Affine, q: Affine) -> Affine:
    """p after q."""
    a1, b1, c1, d1, e1, f1 = p
    a2, b2, c2, d2, e2, f2 = q
    return (a1 * a2 + c1 * b2, b1 * a2 + d1 * b2,
            a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
            a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1)


def apply(t: Affine, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = t
    return (a * x + c * y + e, b * x + d * y + f)


def flip_transform(page, flip: str) -> Affine:
    """Front page -> back page (and back again: it is its own inverse): the point of the
    back page that is printed behind a point of the front after a duplex flip."""
    W, H = page
    if flip == "long":   # portrait page turned about its long (vertical) side
        return (-1, 0, 0, 1, W, 0)
    return (1, 0, 0, -1, 0, H)   # turned about its short (horizontal) side


def shift_slot(slot: "Slot", dx: float, dy: float) -> "Slot":
    """The same slot moved by (dx, dy) mm on its page: how a back offset moves a back."""
    if not dx and not dy:
        return slot
    x, y, w, h = slot.trim
    cx, cy, cw, ch = slot.clip
    a, b, c, d, e, f = slot.transform
    path = tuple((px + dx, py + dy) for px, py in slot.path)
    return Slot((x + dx, y + dy, w, h), (cx + dx, cy + dy, cw, ch), (a, b, c, d, e + dx, f + dy), path)


@dataclass(frozen=True)
class Slot:
    """Where one card goes on a sheet: trim, clip, transform and turn."""

    trim: tuple       # (x, y, w, h) of the trimmed card on the page
    clip: tuple       # (x, y, w, h): the trim plus the bleed that this slot has room for
    transform: Affine # card mm -> page mm
    path: tuple = ()  # a polygon's clip, its outline plus bleed ((x, y), ...) on the page; () for a box

    @property
    def turned(self) -> bool:
        """The card is turned a quarter on the page, so its trim box is its h x w."""
        return abs(self.transform[0]) < 0.5


def back_slot(front: Slot, card_w: float, flip_t: Affine) -> Slot:
    """Where the back of the card in `front` goes on the back page: the slot reflected across
    the flip axis, the card turned over about its own vertical axis (`card_w` wide)."""
    mirror = (-1, 0, 0, 1, card_w, 0)
    return Slot(_flip_rect(front.trim, flip_t), _flip_rect(front.clip, flip_t),
                compose(flip_t, compose(front.transform, mirror)), tuple(apply(flip_t, *p) for p in front.path))


@dataclass(frozen=True)
class Slug:
    """Where a sheet's slug line goes: position, angle, height."""

    x: float          # anchor: centre of the slug line's baseline
    y: float
    angle: float      # 0 along the bottom/top edge, 90 up the left edge, 270 down the right
    length: float     # room along the line, mm
    height: float     # room across the line, mm


@dataclass(frozen=True)
class Sheet:
    """Where everything goes on a sheet; the same for every sheet of a deck. Made by
    `impose` (a grid fitted to the page) or `place` (a custom layout's slots)."""

    page: tuple[float, float]
    card: tuple[float, float]
    bleed: float
    flip: str
    fronts: tuple          # Slot per card position, in the order cards fill them
    backs: tuple           # backs[i] is where the back of fronts[i] goes on the back page
    marks: tuple           # crop marks ((x0, y0), (x1, y1)) in the front page's margins
    ticks: tuple           # cut ticks ((x0, y0), (x1, y1)) in the outer bleed, front page
    slug: Slug
    flip_t: Affine         # front page -> back page
    butted: tuple = ()     # per front slot: ((side, j), ...) where slot j's trim shares that whole
                           # edge (one cut for both), so the clip stops at the trim
    # the grid `impose` chose (a custom layout has none)
    cut: str = "layout"    # "shared", "gutter" or "layout"
    rotated: bool = False  # cards turned 90 degrees on the sheet
    cols: int = 0
    rows: int = 0
    outer: tuple = (0.0, 0.0)  # (x, y): bleed kept outside the grid's outer cards on each axis

    @property
    def per_sheet(self) -> int:
        return len(self.fronts)

    def slots_for(self, used: int, back_offset=(0.0, 0.0)) -> tuple[list[Slot], list[Slot]]:
        """Front and back slots of a sheet holding its first `used` cards, the backs moved
        by `back_offset` (mm, back-page axes) to cancel a duplexer's error."""
        fronts, backs = self._slots_for(used)
        return fronts, [shift_slot(s, *back_offset) for s in backs]

    def _slots_for(self, used: int) -> tuple[list[Slot], list[Slot]]:
        """A card's edge shared with a neighbour takes the neighbour's art only where the
        neighbour is printed; an edge next to an empty slot gets the full bleed (into it)."""
        if used >= len(self.fronts) or not any(self.butted):
            return list(self.fronts[:used]), list(self.backs[:used])
        fronts, backs = [], []
        for i, slot in enumerate(self.fronts[:used]):
            x, y, w, h = slot.clip
            for side, j in self.butted[i]:
                if j < used:
                    continue
                if side == "right":
                    w += self.bleed
                elif side == "bottom":
                    y -= self.bleed
                    h += self.bleed
                elif side == "left":
                    x -= self.bleed
                    w += self.bleed
                else:   # top
                    h += self.bleed
            clip = (x, y, w, h)
            fronts.append(Slot(slot.trim, clip, slot.transform))
            backs.append(Slot(self.backs[i].trim, _flip_rect(clip, self.flip_t), self.backs[i].transform))
        return fronts, backs

    def _lines_for(self, segments, used: int) -> tuple:
        if used >= len(self.fronts):
            return segments
        slots = self.fronts[:used]
        xs = {round(v, 6) for s in slots for v in (s.trim[0], s.trim[0] + s.trim[2])}
        ys = {round(v, 6) for s in slots for v in (s.trim[1], s.trim[1] + s.trim[3])}
        return tuple(m for m in segments
                     if (m[0][0] == m[1][0] and round(m[0][0], 6) in xs)
                     or (m[0][1] == m[1][1] and round(m[0][1], 6) in ys))

    def marks_for(self, used: int) -> tuple:
        """The crop marks a sheet holding only its first `used` cards needs: those in line
        with the trim edges of the cards that are there."""
        return self._lines_for(self.marks, used)

    def ticks_for(self, used: int) -> tuple:
        """The cut ticks for a sheet holding only its first `used` cards."""
        return self._lines_for(self.ticks, used)


@dataclass(frozen=True)
class _Axis:
    """How the cards fit along one page axis."""

    count: int
    outer: float      # bleed outside the outer cards
    marked: bool      # crop marks in the margins (else ticks in the bleed)


def _axis(length, card, bleed, margin, mode, ticks) -> _Axis:
    if mode == "gutter":
        n = math.floor((length - 2 * (margin + MARK_GAP + MARK_MIN)) / (card + 2 * bleed) + 1e-9)
        return _Axis(max(n, 0), bleed, True)
    marked = math.floor((length - 2 * (margin + MARK_GAP + MARK_MIN + bleed)) / card + 1e-9)
    ticked = math.floor((length - 2 * (margin + min(bleed, TICK_BLEED))) / card + 1e-9)
    if not ticks or marked >= ticked or bleed < TICK_BLEED:
        return _Axis(max(marked, 0), bleed, True)
    outer = min(bleed, (length - ticked * card) / 2 - margin)
    return _Axis(ticked, outer, False)


TICK_GAIN = 1.25
"""Ticks in a reduced bleed are chosen over crop marks only for a quarter more cards a
sheet (six 88.9 mm squares instead of four), not for one more card (nine poker cards
instead of eight): marks in the margin are the better guide and keep the full bleed."""


def fit(page, card, bleed, margin, cut="auto"):
    """(count, rotated, cut, x axis, y axis) of the best grid, or None if no card fits."""
    W, H = page
    best = _best(page, card, bleed, margin, cut, ticks=False)
    ticked = _best(page, card, bleed, margin, cut, ticks=True)
    if ticked and (best is None or ticked[0] >= TICK_GAIN * best[0]):
        return ticked
    return best


def _best(page, card, bleed, margin, cut, ticks):
    W, H = page
    best = None
    for rotated in (False, True):
        cw, ch = (card[1], card[0]) if rotated else card
        for mode in ("gutter", "shared"):
            if cut != "auto" and mode != cut:
                continue
            ax, ay = _axis(W, cw, bleed, margin, mode, ticks), _axis(H, ch, bleed, margin, mode, ticks)
            count = ax.count * ay.count
            # more cards first; then crop marks over ticks; then upright cards; then gutters
            score = (count, ax.marked + ay.marked, not rotated, mode == "gutter")
            if count and (best is None or score > best[0]):
                best = (score, (count, rotated, mode, ax, ay))
    return best[1] if best else None


@dataclass(frozen=True)
class _Grid:
    """Where the cards of a sheet go: `cols` x `rows` cards of cw x ch (as they lie on the
    page), `pitch_x` and `pitch_y` apart, their outer bleed (bx, by), the grid's size with its
    bleed, and the trim corner (left, top) of the first card."""

    rotated: bool
    mode: str          # "gutter" or "shared"
    ax: _Axis
    ay: _Axis
    cw: float
    ch: float
    pitch_x: float
    pitch_y: float
    bx: float
    by: float
    grid_w: float
    grid_h: float
    left: float
    top: float

    @property
    def cols(self) -> int:
        return self.ax.count

    @property
    def rows(self) -> int:
        return self.ay.count

    @property
    def edges(self) -> tuple[float, float, float, float]:
        """(x0, x1, y0, y1) of the grid with its outer bleed."""
        gx0, gx1 = self.left - self.bx, self.left - self.bx + self.grid_w
        gy1, gy0 = self.top + self.by, self.top + self.by - self.grid_h
        return gx0, gx1, gy0, gy1


def impose(page, card, bleed, margin, cut="auto", flip="long") -> Sheet:
    grid = _grid(page, card, bleed, margin, cut)
    flip_t = flip_transform(page, flip)
    fronts, backs, butted = _slots(grid, card[0], bleed, flip_t)
    zones, slug_side, lengths = _margins(grid, page, margin)
    marks, ticks = _marks_and_ticks(grid, fronts, bleed, lengths)
    slug = _slug(grid, page, margin, zones[slug_side], slug_side, lengths)
    return Sheet(page=page, card=card, bleed=bleed, flip=flip, fronts=tuple(fronts), backs=tuple(backs),
                 marks=tuple(marks), ticks=tuple(ticks), slug=slug, flip_t=flip_t, butted=tuple(butted),
                 cut=grid.mode, rotated=grid.rotated, cols=grid.cols, rows=grid.rows, outer=(grid.bx, grid.by))


def _grid(page, card, bleed, margin, cut) -> _Grid:
    """The best grid for the card on the page, centred; an InputError when no card fits."""
    W, H = page
    found = fit(page, card, bleed, margin, cut)
    if found is None:
        raise InputError.at("(settings)", None,
                            f"a {card[0]:g} x {card[1]:g} mm card with {bleed:g} mm bleed and cut marks does "
                            f"not fit on a {W:g} x {H:g} mm page with {margin:g} mm printer margins; "
                            "choose larger paper or smaller cards")
    _, rotated, mode, ax, ay = found
    cols, rows = ax.count, ay.count
    w, h = card
    cw, ch = (h, w) if rotated else (w, h)
    pitch_x = cw + (2 * bleed if mode == "gutter" else 0)
    pitch_y = ch + (2 * bleed if mode == "gutter" else 0)
    bx, by = (bleed, bleed) if mode == "gutter" else (ax.outer, ay.outer)
    grid_w = cols * pitch_x + (2 * bx if mode == "shared" else 0)
    grid_h = rows * pitch_y + (2 * by if mode == "shared" else 0)
    left = (W - grid_w) / 2 + bx      # trim left of the first column
    top = (H + grid_h) / 2 - by       # trim top of the first row
    return _Grid(rotated, mode, ax, ay, cw, ch, pitch_x, pitch_y, bx, by, grid_w, grid_h, left, top)


def _slots(grid: _Grid, card_w: float, bleed: float, flip_t) -> tuple[list, list, list]:
    """The front and back slot of each card, row by row, and the edges each front shares
    with its neighbours (cut once, on a sheet of shared cuts)."""
    cols, rows, mode, cw, ch, bx, by = grid.cols, grid.rows, grid.mode, grid.cw, grid.ch, grid.bx, grid.by
    fronts, backs, butted = [], [], []
    for r in range(rows):
        for c in range(cols):
            x = grid.left + c * grid.pitch_x
            y = grid.top - r * grid.pitch_y - ch
            trim = (x, y, cw, ch)
            if mode == "gutter":
                clip = (x - bleed, y - bleed, cw + 2 * bleed, ch + 2 * bleed)
            else:
                x0 = x - (bx if c == 0 else 0)
                x1 = x + cw + (bx if c == cols - 1 else 0)
                y1 = y + ch + (by if r == 0 else 0)
                y0 = y - (by if r == rows - 1 else 0)
                clip = (x0, y0, x1 - x0, y1 - y0)
            if grid.rotated:   # card up points to the page's left
                t = (0, 1, -1, 0, x + cw, y)
            else:
                t = (1, 0, 0, 1, x, y)
            fronts.append(Slot(trim, clip, t))
            backs.append(back_slot(fronts[-1], card_w, flip_t))
            i = r * cols + c   # shared cut lines: the card to the right and the one below share an edge
            right = (("right", i + 1),) if c < cols - 1 and mode == "shared" else ()
            below = (("bottom", i + cols),) if r < rows - 1 and mode == "shared" else ()
            butted.append(right + below)
    return fronts, backs, butted


def _margins(grid: _Grid, page, margin) -> tuple[dict, str, dict]:
    """The room outside the grid on each side (mm), the side the slug goes on (the roomiest),
    and the length of the crop marks on each side."""
    W, H = page
    gx0, gx1, gy0, gy1 = grid.edges
    zones = {"bottom": gy0 - margin, "top": H - margin - gy1,
             "left": gx0 - margin, "right": W - margin - gx1}
    slug_side = max(("bottom", "top", "left", "right"), key=lambda s: (zones[s] - (s in ("left", "right")) * 0.5, s == "bottom"))
    lengths = {}
    for side, z in zones.items():
        room = z - MARK_GAP
        if side == slug_side:
            room -= SLUG_ROOM
        lengths[side] = max(MARK_MIN, min(MARK_MAX, room))
    return zones, slug_side, lengths


def _marks_and_ticks(grid: _Grid, fronts: list, bleed: float, lengths: dict) -> tuple[list, list]:
    """Crop marks in the margins in line with every trim edge, or cut ticks over the outer
    bleed along an axis that has no room for marks."""
    ax, ay, mode, top, left = grid.ax, grid.ay, grid.mode, grid.top, grid.left
    gx0, gx1, gy0, gy1 = grid.edges
    xs = sorted({round(v, 6) for s in fronts for v in (s.trim[0], s.trim[0] + s.trim[2])})
    ys = sorted({round(v, 6) for s in fronts for v in (s.trim[1], s.trim[1] + s.trim[3])})
    marks, ticks = [], []
    trim_top, trim_bottom = top, top - grid.rows * grid.pitch_y + (2 * bleed if mode == "gutter" else 0)
    trim_left, trim_right = left, left + grid.cols * grid.pitch_x - (2 * bleed if mode == "gutter" else 0)
    for x in xs:
        if ay.marked:
            marks.append(((x, gy1 + MARK_GAP), (x, gy1 + MARK_GAP + lengths["top"])))
            marks.append(((x, gy0 - MARK_GAP), (x, gy0 - MARK_GAP - lengths["bottom"])))
        else:
            ticks.append(((x, trim_top + TICK_GAP), (x, gy1)))
            ticks.append(((x, trim_bottom - TICK_GAP), (x, gy0)))
    for y in ys:
        if ax.marked:
            marks.append(((gx0 - MARK_GAP, y), (gx0 - MARK_GAP - lengths["left"], y)))
            marks.append(((gx1 + MARK_GAP, y), (gx1 + MARK_GAP + lengths["right"], y)))
        else:
            ticks.append(((trim_left - TICK_GAP, y), (gx0, y)))
            ticks.append(((trim_right + TICK_GAP, y), (gx1, y)))
    return marks, ticks


def _slug(grid: _Grid, page, margin, zone: float, side: str, lengths: dict) -> Slug:
    """The slug line on `side`, in the room its crop marks leave of the `zone` outside the grid."""
    W, H = page
    marked = (grid.ay if side in ("bottom", "top") else grid.ax).marked
    used_room = lengths[side] if marked else 0.0
    room = max(0.0, zone - MARK_GAP - used_room)
    if side == "bottom":
        return Slug(W / 2, margin + 0.3, 0, grid.grid_w, room)
    if side == "top":
        return Slug(W / 2, H - margin - 2.0, 0, grid.grid_w, room)
    if side == "left":
        return Slug(margin + 2.0, H / 2, 90, grid.grid_h, room)
    return Slug(W - margin - 2.0, H / 2, 270, grid.grid_h, room)


TURNS = {0: False, 90: True, 180: False, 270: True}
"""Turns a card may take on a custom sheet, degrees counter-clockwise: whether it is then
on its side (its footprint h x w)."""


def place(page, card, positions, bleed, margin, flip="long", crop_marks=True) -> Sheet:
    """A sheet laid out by hand (a custom layout, pnpgen/sheets/custom_layout.py). `positions` gives
    each slot as (x, y, turn): its trim's top-left corner in mm from the page's top-left
    (y down, as a ruler on the paper reads) and a turn from TURNS (90: the card's top to the
    page's left, as `impose` turns cards). Cards are filled in that order.

    Every card gets `bleed` on each edge, except where another slot's trim shares the whole
    edge: butted cards share one cut and their art meets there (as in a shared grid). Backs
    are the fronts reflected for the flip edge, exactly as on automatic sheets. Crop marks,
    if asked for, go outside the slots' bounding box, on each side with room between it and
    the printer margin; the slug line goes on the side with most room left, or nowhere.
    The geometry is not checked here (see sheetlayout.check)."""
    W, H = page
    w, h = card
    flip_t = flip_transform(page, flip)
    trims, turns = [], []
    for x, top, turn in positions:
        fw, fh = (h, w) if TURNS[turn] else (w, h)
        y = H - top - fh
        trims.append((x, y, fw, fh))
        turns.append({0: (1, 0, 0, 1, x, y), 90: (0, 1, -1, 0, x + fw, y),
                      180: (-1, 0, 0, -1, x + fw, y + fh), 270: (0, -1, 1, 0, x, y + fh)}[turn])
    butted = butted_edges(trims)
    fronts = []
    for (x, y, fw, fh), t, sides in zip(trims, turns, butted):
        shut = {side for side, _ in sides}
        x0 = x - (0 if "left" in shut else bleed)
        x1 = x + fw + (0 if "right" in shut else bleed)
        y0 = y - (0 if "bottom" in shut else bleed)
        y1 = y + fh + (0 if "top" in shut else bleed)
        fronts.append(Slot((x, y, fw, fh), (x0, y0, x1 - x0, y1 - y0), t))
    backs = [back_slot(s, w, flip_t) for s in fronts]
    marks, slug = _frame(page, fronts, margin, crop_marks) if fronts else ((), Slug(W / 2, margin, 0, 0, 0))
    return Sheet(page=tuple(page), card=tuple(card), bleed=bleed, flip=flip, fronts=tuple(fronts),
                 backs=tuple(backs), marks=marks, ticks=(), slug=slug, flip_t=flip_t, butted=butted)


def butted_edges(trims) -> tuple:
    """For each trim box (x, y, w, h), the ((side, j), ...) edges it shares whole with trim j:
    right/bottom first, as cards fill a sheet."""
    key = lambda *v: tuple(round(a, 4) for a in v)   # noqa: E731 - 0.1 um: typed-in mm that add up
    lefts = {key(x, y, h): j for j, (x, y, w, h) in enumerate(trims)}
    tops = {key(x, y + h, w): j for j, (x, y, w, h) in enumerate(trims)}
    out = [[] for _ in trims]
    for i, (x, y, w, h) in enumerate(trims):
        j = lefts.get(key(x + w, y, h))
        if j is not None and j != i:
            out[i].append(("right", j))
            out[j].append(("left", i))
        j = tops.get(key(x, y, w))
        if j is not None and j != i:
            out[i].append(("bottom", j))
            out[j].append(("top", i))
    order = {"right": 0, "bottom": 1, "left": 2, "top": 3}
    return tuple(tuple(sorted(sides, key=lambda s: (order[s[0]], s[1]))) for sides in out)


def _frame(page, fronts, margin, crop_marks):
    """Crop marks in line with every trim edge, outside the slots' bounding box on each side
    that has room for them, and the slug line on the side with most room left over."""
    W, H = page
    gx0 = min(s.clip[0] for s in fronts)
    gy0 = min(s.clip[1] for s in fronts)
    gx1 = max(s.clip[0] + s.clip[2] for s in fronts)
    gy1 = max(s.clip[1] + s.clip[3] for s in fronts)
    zones = {"bottom": gy0 - margin, "top": H - margin - gy1, "left": gx0 - margin, "right": W - margin - gx1}
    slug_side = max(zones, key=lambda s: (zones[s] - (s in ("left", "right")) * 0.5, s == "bottom"))
    lengths = {}
    for side, z in zones.items():
        room = z - MARK_GAP
        if side == slug_side and room - SLUG_ROOM >= MARK_MIN:
            room -= SLUG_ROOM
        if crop_marks and room >= MARK_MIN - 1e-9:
            lengths[side] = min(MARK_MAX, room)
    xs = sorted({round(v, 6) for s in fronts for v in (s.trim[0], s.trim[0] + s.trim[2])})
    ys = sorted({round(v, 6) for s in fronts for v in (s.trim[1], s.trim[1] + s.trim[3])})
    ends = {"top": (gy1, 1), "bottom": (gy0, -1), "left": (gx0, -1), "right": (gx1, 1)}
    marks = []
    for side, length in lengths.items():
        edge, sign = ends[side]
        a, b = edge + sign * MARK_GAP, edge + sign * (MARK_GAP + length)
        if side in ("top", "bottom"):
            marks += [((x, a), (x, b)) for x in xs]
        else:
            marks += [((a, y), (b, y)) for y in ys]
    room = zones[slug_side] - (MARK_GAP + lengths[slug_side] if slug_side in lengths else 0.0)
    room = room if room >= SLUG_ROOM else 0.0   # no room: no slug line
    slug = {"bottom": Slug(W / 2, margin + 0.3, 0, W - 2 * margin, room),
            "top": Slug(W / 2, H - margin - 2.0, 0, W - 2 * margin, room),
            "left": Slug(margin + 2.0, H / 2, 90, H - 2 * margin, room),
            "right": Slug(W - margin - 2.0, H / 2, 270, H - 2 * margin, room)}[slug_side]
    return tuple(marks), slug


def _flip_rect(rect, flip_t):
    x, y, w, h = rect
    ax, ay = apply(flip_t, x, y)
    bx, by = apply(flip_t, x + w, y + h)
    return (min(ax, bx), min(ay, by), abs(bx - ax), abs(by - ay))


PACK_GAP = 1.5       # between the bleeds of two packed components, mm


class LooseSheet:
    """What sheets of components placed one by one (packed tokens, nested polygons) share:
    their slots are their fronts and backs, and no crop marks or edge ticks run across them
    (each component has a cut line of its own)."""

    fronts: tuple
    backs: tuple

    @property
    def per_sheet(self) -> int:
        return len(self.fronts)

    def slots_for(self, used: int, back_offset=(0.0, 0.0)):
        return list(self.fronts[:used]), [shift_slot(s, *back_offset) for s in self.backs[:used]]

    def marks_for(self, used: int) -> tuple:
        return ()

    def ticks_for(self, used: int) -> tuple:
        return ()


@dataclass(frozen=True)
class PackedSheet(LooseSheet):
    """One sheet of densely packed components (tokens of several sizes and shapes): every
    component has its full bleed and its own cut line, so none shares an edge."""

    page: tuple[float, float]
    bleed: float
    flip: str
    fronts: tuple          # Slot per component on this sheet, in deck order
    backs: tuple
    shapes: tuple          # "rect" or "round", per slot
    slug: Slug
    flip_t: Affine

    def cuts_for(self, used: int) -> tuple:
        """(shape, trim) of each component: the cut line follows its outline."""
        return tuple(zip(self.shapes[:used], (s.trim for s in self.fronts[:used])))


def pack(page, sizes, shapes, bleed, margin, flip="long") -> list[PackedSheet]:
    """Shelf-pack components of the given sizes (mm, in order) onto as many sheets as they
    need: left to right in rows, a new row when one is full, a new sheet when the page is.
    Rows are centred across the page so the backs land on the same slots when flipped."""
    W, H = page
    top_room = SLUG_ROOM + 1.0
    x_min, x_max = margin, W - margin
    y_top, y_min = H - margin - top_room, margin
    pitch = 2 * bleed + PACK_GAP
    flip_t = flip_transform(page, flip)
    for (w, h) in sizes:
        if w + pitch > x_max - x_min or h + pitch > y_top - y_min:
            raise InputError.at("(settings)", None, f"a {w:g} x {h:g} mm component does not fit on a "
                                f"{W:g} x {H:g} mm page with its bleed")
    sheets, i = [], 0
    while i < len(sizes):
        rows, y = [], y_top
        while i < len(sizes):
            row, x, height = [], x_min, 0.0
            while i < len(sizes) and x + sizes[i][0] + pitch <= x_max + 1e-9:
                row.append(i)
                x += sizes[i][0] + pitch
                height = max(height, sizes[i][1])
                i += 1
            if y - height - pitch < y_min - 1e-9:
                i -= len(row)
                break
            if not row:
                break
            rows.append((row, y, x - x_min))
            y -= height + pitch
        fronts, backs = [], []
        for row, y, used in rows:
            x = x_min + (x_max - x_min - used) / 2
            for k in row:
                w, h = sizes[k]
                tx, ty = x + pitch / 2, y - pitch / 2 - h
                trim = (tx, ty, w, h)
                clip = (tx - bleed, ty - bleed, w + 2 * bleed, h + 2 * bleed)
                fronts.append(Slot(trim, clip, (1, 0, 0, 1, tx, ty)))
                backs.append(back_slot(fronts[-1], w, flip_t))
                x += w + pitch
        if not rows:
            raise InputError.at("(settings)", None, "a component does not fit on the page")
        sheets.append((fronts, backs))
    out = []
    n = 0
    for fronts, backs in sheets:
        kinds = tuple(shapes[n:n + len(fronts)])
        n += len(fronts)
        out.append(PackedSheet(page, bleed, flip, tuple(fronts), tuple(backs), kinds,
                               Slug(W / 2, H - margin - 2.0, 0, W - 2 * margin, SLUG_ROOM), flip_t))
    return out
