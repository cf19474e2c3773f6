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
bleed instead: it is cut away with the bleed, so it never shows on a card."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import InputError

MARK_GAP = 1.0       # between the bleed edge and the start of a crop mark, mm
MARK_MIN = 3.0       # shortest useful crop mark, mm
MARK_MAX = 5.0
TICK_BLEED = 1.0     # least outer bleed that still holds a cut tick, mm
TICK_GAP = 0.3       # between the trim line and the start of a tick, mm
SLUG_ROOM = 2.6      # height a slug line needs, mm
BACK_OFFSET_MAX = 10.0
"""Largest back offset on either axis, mm: a duplexer further off than this needs fixing,
not correcting, and a larger shift would push backs off their bleed."""

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


def check_back_offset(x: float, y: float) -> tuple[float, float]:
    """A back offset (mm) as floats, or ValueError saying what is wrong with it."""
    for name, v in (("X", x), ("Y", y)):
        if not math.isfinite(v):
            raise ValueError(f"back offset {name} = {v} is not a number of mm")
        if abs(v) > BACK_OFFSET_MAX:
            raise ValueError(f"back offset {name} = {v:g} mm is outside -{BACK_OFFSET_MAX:g}..{BACK_OFFSET_MAX:g} mm")
    return (float(x), float(y))


def shift_slot(slot: "Slot", dx: float, dy: float) -> "Slot":
    """The same slot moved by (dx, dy) mm on its page: how a back offset moves a back."""
    if not dx and not dy:
        return slot
    x, y, w, h = slot.trim
    cx, cy, cw, ch = slot.clip
    a, b, c, d, e, f = slot.transform
    return Slot((x + dx, y + dy, w, h), (cx + dx, cy + dy, cw, ch), (a, b, c, d, e + dx, f + dy))


@dataclass(frozen=True)
class Slot:
    trim: tuple       # (x, y, w, h) of the trimmed card on the page
    clip: tuple       # (x, y, w, h): the trim plus the bleed that this slot has room for
    transform: Affine # card mm -> page mm


@dataclass(frozen=True)
class Slug:
    x: float          # anchor: centre of the slug line's baseline
    y: float
    angle: float      # 0 along the bottom/top edge, 90 up the left edge, 270 down the right
    length: float     # room along the line, mm
    height: float     # room across the line, mm


@dataclass(frozen=True)
class Sheet:
    """Where everything goes on a sheet; the same for every sheet of a deck."""

    page: tuple[float, float]
    card: tuple[float, float]
    bleed: float
    cut: str               # "shared" or "gutter"
    rotated: bool          # cards turned 90 degrees on the sheet
    cols: int
    rows: int
    flip: str
    fronts: tuple          # Slot per card position, row by row from the top-left
    backs: tuple           # backs[i] is where the back of fronts[i] goes on the back page
    marks: tuple           # crop marks ((x0, y0), (x1, y1)) in the front page's margins
    ticks: tuple           # cut ticks ((x0, y0), (x1, y1)) in the outer bleed, front page
    outer: tuple           # (x, y): bleed kept outside the grid's outer cards on each axis
    slug: Slug
    flip_t: Affine         # front page -> back page

    @property
    def per_sheet(self) -> int:
        return len(self.fronts)

    def slots_for(self, used: int, back_offset=(0.0, 0.0)) -> tuple[list[Slot], list[Slot]]:
        """Front and back slots of a sheet holding its first `used` cards, the backs moved
        by `back_offset` (mm, back-page axes) to cancel a duplexer's error."""
        fronts, backs = self._slots_for(used)
        return fronts, [shift_slot(s, *back_offset) for s in backs]

    def _slots_for(self, used: int) -> tuple[list[Slot], list[Slot]]:
        """With shared cut lines a card's edge takes its neighbour's art only where a
        neighbour is printed; every other edge gets the full bleed (into the empty slot
        next to it)."""
        if used >= len(self.fronts) or self.cut == "gutter":
            return list(self.fronts[:used]), list(self.backs[:used])
        fronts, backs = [], []
        for i, slot in enumerate(self.fronts[:used]):
            r, c = divmod(i, self.cols)
            x, y, w, h = slot.clip
            if c < self.cols - 1 and i + 1 >= used:    # empty slot to the right
                w += self.bleed
            if r < self.rows - 1 and i + self.cols >= used:  # empty slot below
                y -= self.bleed
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


def impose(page, card, bleed, margin, cut="auto", flip="long") -> Sheet:
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

    flip_t = flip_transform(page, flip)
    mirror = (-1, 0, 0, 1, w, 0)  # a card turned over left-to-right

    fronts, backs = [], []
    for r in range(rows):
        for c in range(cols):
            x = left + c * pitch_x
            y = top - r * pitch_y - ch
            trim = (x, y, cw, ch)
            if mode == "gutter":
                clip = (x - bleed, y - bleed, cw + 2 * bleed, ch + 2 * bleed)
            else:
                x0 = x - (bx if c == 0 else 0)
                x1 = x + cw + (bx if c == cols - 1 else 0)
                y1 = y + ch + (by if r == 0 else 0)
                y0 = y - (by if r == rows - 1 else 0)
                clip = (x0, y0, x1 - x0, y1 - y0)
            if rotated:   # card up points to the page's left
                t = (0, 1, -1, 0, x + cw, y)
            else:
                t = (1, 0, 0, 1, x, y)
            fronts.append(Slot(trim, clip, t))
            backs.append(Slot(_flip_rect(trim, flip_t), _flip_rect(clip, flip_t),
                              compose(flip_t, compose(t, mirror))))

    gx0, gx1 = left - bx, left - bx + grid_w
    gy1, gy0 = top + by, top + by - grid_h
    zones = {"bottom": gy0 - margin, "top": H - margin - gy1,
             "left": gx0 - margin, "right": W - margin - gx1}
    marked = {"bottom": ay.marked, "top": ay.marked, "left": ax.marked, "right": ax.marked}
    slug_side = max(("bottom", "top", "left", "right"), key=lambda s: (zones[s] - (s in ("left", "right")) * 0.5, s == "bottom"))
    lengths = {}
    for side, z in zones.items():
        room = z - MARK_GAP
        if side == slug_side:
            room -= SLUG_ROOM
        lengths[side] = max(MARK_MIN, min(MARK_MAX, room))

    xs = sorted({round(v, 6) for s in fronts for v in (s.trim[0], s.trim[0] + s.trim[2])})
    ys = sorted({round(v, 6) for s in fronts for v in (s.trim[1], s.trim[1] + s.trim[3])})
    marks, ticks = [], []
    trim_top, trim_bottom = top, top - rows * pitch_y + (2 * bleed if mode == "gutter" else 0)
    trim_left, trim_right = left, left + cols * pitch_x - (2 * bleed if mode == "gutter" else 0)
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

    used_room = lengths[slug_side] if marked[slug_side] else 0.0
    room = max(0.0, zones[slug_side] - MARK_GAP - used_room)
    if slug_side == "bottom":
        slug = Slug(W / 2, margin + 0.3, 0, grid_w, room)
    elif slug_side == "top":
        slug = Slug(W / 2, H - margin - 2.0, 0, grid_w, room)
    elif slug_side == "left":
        slug = Slug(margin + 2.0, H / 2, 90, grid_h, room)
    else:
        slug = Slug(W - margin - 2.0, H / 2, 270, grid_h, room)
    return Sheet(page, card, bleed, mode, rotated, cols, rows, flip, tuple(fronts), tuple(backs),
                 tuple(marks), tuple(ticks), (bx, by), slug, flip_t)


def _flip_rect(rect, flip_t):
    x, y, w, h = rect
    ax, ay = apply(flip_t, x, y)
    bx, by = apply(flip_t, x + w, y + h)
    return (min(ax, bx), min(ay, by), abs(bx - ax), abs(by - ay))


PACK_GAP = 1.5       # between the bleeds of two packed components, mm


@dataclass(frozen=True)
class PackedSheet:
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

    @property
    def per_sheet(self) -> int:
        return len(self.fronts)

    def slots_for(self, used: int, back_offset=(0.0, 0.0)):
        return list(self.fronts[:used]), [shift_slot(s, *back_offset) for s in self.backs[:used]]

    def marks_for(self, used: int) -> tuple:
        return ()

    def ticks_for(self, used: int) -> tuple:
        return ()

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
                t = (1, 0, 0, 1, tx, ty)
                mirror = (-1, 0, 0, 1, w, 0)
                fronts.append(Slot(trim, clip, t))
                backs.append(Slot(_flip_rect(trim, flip_t), _flip_rect(clip, flip_t), compose(flip_t, compose(t, mirror))))
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
