"""Custom sheet layouts: a YAML file that places card slots on a page by hand, for die-cut
card stock (10 business cards to a Letter sheet) or a sprue of your own, used by
`pnpgen build --layout NAME|FILE` for every card deck of its card size.

A layout is data: `load` reads and checks it (keys, then geometry: every slot on the page,
no two overlapping with their bleed), and `SheetLayout.sheet` turns it into an
`impose.Sheet` (impose.place), which the build draws like any automatic sheet, backs and
back offset included. Presets live in pnpgen/presets/layouts/."""

# (no "from __future__ import annotations" where models are made: see sources.validation.Schema)

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, model_validator

from .. import presets
from ..sources import yamlsrc
from ..errors import InputError, Notice, Problem, did_you_mean
from .impose import MARK_GAP, MARK_MIN, TURNS, Sheet, place
from ..sources.validation import Schema, Size, named_size, validate

SIZE_TOLERANCE = 0.05
"""How far (mm) a deck's card size may differ from the layout's and still be laid out on it."""
EPS = 1e-6


def _paper(value: Any) -> tuple[float, float]:
    """A paper: a name from sizes.yaml (letter, a4...) or [w, h] in millimetres."""
    return named_size(value, presets.papers(), "paper", 50, "letter, a4...")


Paper = Annotated[tuple[float, float], BeforeValidator(_paper)]
"""A page size in mm, written as a paper name or [w, h]."""

Turn = Literal[0, 90, 180, 270]


class LayoutSlot(Schema):
    """One card's position; cards fill the slots in list order."""

    x: float = Field(allow_inf_nan=False)
    """Left edge of the card's trim, mm from the page's left edge."""
    y: float = Field(allow_inf_nan=False)
    """Top edge of the card's trim, mm from the page's top edge."""
    rotate: Turn = 0
    """Turn the card this many degrees counter-clockwise on the page (90: its top to the
    page's left); turned 90 or 270 it takes h x w of the page, x and y still its top-left."""


class LayoutGrid(Schema):
    """Slots in rows and columns, filled row by row from the top-left."""

    cols: int = Field(ge=1, le=50)
    """Cards across."""
    rows: int = Field(ge=1, le=50)
    """Cards down."""
    x: float = Field(allow_inf_nan=False)
    """Left edge of the first column's trim, mm from the page's left edge."""
    y: float = Field(allow_inf_nan=False)
    """Top edge of the first row's trim, mm from the page's top edge."""
    dx: float | None = Field(None, gt=0, le=1200, allow_inf_nan=False)
    """Column pitch, left edge to left edge, mm (default: the card's width on the page, so cards touch)."""
    dy: float | None = Field(None, gt=0, le=1200, allow_inf_nan=False)
    """Row pitch, top edge to top edge, mm (default: the card's height on the page, so cards touch)."""
    rotate: Turn = 0
    """Turn every card this many degrees counter-clockwise (see `layout.slot`)."""


class Layout(Schema):
    """Where each card goes on the page, for die-cut card stock or a sprue of your own."""

    paper: Paper
    """The page: letter, a4 (or another paper name) or [w, h] in mm."""
    card_size: Size
    """The card the slots are cut for: a size name or [w, h] mm. Decks of this size (either
    way round) are laid out on it; other decks are imposed automatically."""
    slots: list[LayoutSlot] | None = Field(None, min_length=1, max_length=500)
    """Each card's position, by hand: a list of {x, y, rotate}. Give slots or grid."""
    grid: LayoutGrid | None = None
    """Rows and columns: {cols, rows, x, y, dx, dy} (origin and pitch). Give slots or grid."""
    bleed: float = Field(0, ge=0, le=10)
    """Bleed round each card, mm: 0 for die-cut stock (never more than the game's bleed, as
    far as the art reaches). Edges that two cards share whole (butted cards, one cut) get
    none; elsewhere cards need twice the bleed between them."""
    crop_marks: bool = True
    """Crop marks in line with every trim edge, outside the cards where the printer margin
    leaves room (false for die-cut stock, which needs no cutting)."""
    flip: Literal["long", "short"] | None = None
    """Duplex flip edge for this stock (default: the game's; `--flip` overrides both)."""

    @model_validator(mode="after")
    def _slots_or_grid(self):
        if (self.slots is None) == (self.grid is None):
            raise ValueError("give the card positions as slots: [{x, y}, ...] or as grid: {cols, rows, x, y}"
                             + (", not both" if self.slots is not None else ""))
        if self.grid is not None and self.grid.cols * self.grid.rows > 500:
            raise ValueError(f"grid: {self.grid.cols} x {self.grid.rows} cards; at most 500 a sheet")
        return self


def _mm(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _size(size) -> str:
    return f"{_mm(size[0])} x {_mm(size[1])} mm"


@dataclass(frozen=True)
class SheetLayout:
    """A loaded, checked layout: its source (for `file:line` messages) and its slots."""

    name: str                # the preset's name or the file's stem
    doc: yamlsrc.Doc
    spec: Layout

    @property
    def page(self) -> tuple[float, float]:
        return self.spec.paper

    @property
    def card(self) -> tuple[float, float]:
        return self.spec.card_size

    def positions(self, turned: bool = False) -> list[tuple[float, float, int]]:
        """(x, y, turn) of each slot, mm from the page's top-left; `turned`: for a deck whose
        cards are the layout's turned 90 degrees, each a quarter turn more (same footprint)."""
        s, extra = self.spec, 90 if turned else 0
        if s.slots is not None:
            out = [(p.x, p.y, p.rotate) for p in s.slots]
        else:
            g = s.grid
            w, h = (self.card[1], self.card[0]) if TURNS[g.rotate] else self.card
            dx, dy = g.dx or w, g.dy or h
            out = [(g.x + c * dx, g.y + r * dy, g.rotate) for r in range(g.rows) for c in range(g.cols)]
        return [(x, y, (t + extra) % 360) for x, y, t in out]

    def sheet(self, card=None, margin: float = 0.0, flip: str = "long", bleed: float | None = None) -> Sheet:
        """The layout as a Sheet for cards of size `card` (the layout's, or the layout's turned),
        with the layout's bleed or less."""
        card = tuple(card or self.card)
        turned = not _same(card, self.card)
        bleed = self.spec.bleed if bleed is None else min(bleed, self.spec.bleed)
        return place(self.page, card, self.positions(turned), bleed, margin, flip, self.spec.crop_marks)

    def fits(self, size) -> bool:
        """Cards of this size go on the layout (either way round)."""
        return _same(size, self.card) or _same(size, self.card[::-1])

    # --- where things are, for messages -----------------------------------------------------
    def _loc(self, i: int) -> tuple:
        return ("slots", i) if self.spec.slots is not None else ("grid",)

    def _problem(self, i: int, message: str, notice: bool = False):
        """`file:line: slots[i]: message` (or `grid: message`), at slot i's line."""
        prefix = f"slots[{i}]" if self.spec.slots is not None else "grid"
        cls = Notice if notice else Problem
        return cls(self.doc.path, self.doc.line(self._loc(i)), f"{prefix}: {message}")

    def _this(self, i: int) -> str:
        """Slot i, as the subject of its own message."""
        x, y, _ = self.positions()[i]
        at = f"x {_mm(x)}, y {_mm(y)} mm"
        if self.spec.slots is not None:
            return f"the card at {at}"
        r, c = divmod(i, self.spec.grid.cols)
        return f"card {i + 1} (row {r + 1}, column {c + 1}, at {at})"

    def _that(self, i: int) -> str:
        """Slot i, named in another slot's message."""
        if self.spec.slots is not None:
            x, y, _ = self.positions()[i]
            return f"slots[{i}] (at x {_mm(x)}, y {_mm(y)} mm)"
        r, c = divmod(i, self.spec.grid.cols)
        return f"card {i + 1} (row {r + 1}, column {c + 1})"

    def check(self) -> None:
        """Geometry: every slot on the page, no two cards (or their bleeds) overlapping.
        Raises InputError naming each slot at its line (a grid's first problem of each kind:
        the rest follow from the same numbers)."""
        sheet = self.sheet()
        W, H = self.page
        problems, kinds = [], set()

        def add(kind, i, message):
            if self.spec.grid is not None and kind in kinds or len(problems) >= 12:
                return
            kinds.add(kind)
            problems.append(self._problem(i, message))

        for i, s in enumerate(sheet.fronts):
            x, y, w, h = s.trim
            if x < -EPS or y < -EPS or x + w > W + EPS or y + h > H + EPS:
                add("off", i, f"{self._this(i)} runs off the {_size(self.page)} page (its trim spans "
                              f"x {_mm(x)}..{_mm(x + w)}, y {_mm(H - y - h)}..{_mm(H - y)} mm)")
        for i, j in itertools.combinations(range(len(sheet.fronts)), 2):
            a, b = sheet.fronts[i], sheet.fronts[j]
            if _overlap(a.trim, b.trim):
                add("overlap", j, f"{self._this(j)} overlaps {self._that(i)}{self._pitch_hint(i, j)}")
            elif _overlap(a.clip, b.clip):
                bleed = self.spec.bleed
                add("bleed", j, f"{self._this(j)} is too close to {self._that(i)} for {_mm(bleed)} mm bleed: "
                                f"leave {_mm(2 * bleed)} mm between cards, butt them edge to edge (one shared "
                                "cut), or set bleed: 0")
        if problems:
            raise InputError(problems)

    def _pitch_hint(self, i: int, j: int) -> str:
        g = self.spec.grid
        if g is None:
            return ""
        (ri, ci), (rj, cj) = divmod(i, g.cols), divmod(j, g.cols)
        w, h = (self.card[1], self.card[0]) if TURNS[g.rotate] else self.card
        if ri == rj and g.dx is not None and g.dx < w:
            return f": dx {_mm(g.dx)} mm is less than the card's width, {_mm(w)} mm"
        if ci == cj and g.dy is not None and g.dy < h:
            return f": dy {_mm(g.dy)} mm is less than the card's height, {_mm(h)} mm"
        return ""

    # --- one deck ---------------------------------------------------------------------------
    def for_deck(self, game, deck, flip: str | None = None) -> tuple[Sheet | None, list[Notice]]:
        """The sheet for a deck of `game` (None: impose it automatically, with a note saying
        why), and any warnings. `flip` (the command line's) wins over the layout's, and that
        over the game's. A game none of whose card decks fits the layout is an error: the
        layout could not be what was meant."""
        if deck.deck.pack:
            return None, []
        if not self.fits(deck.size):
            others = [d for d in game.decks if not d.deck.pack]
            if not any(self.fits(d.size) for d in others):
                sizes = ", ".join(f"{d.id} {_size(d.size)}" for d in others)
                raise InputError.at(self.doc.path, self.doc.line(("card_size",)),
                                    f"card_size: layout {self.name} is for {_size(self.card)} cards; no card deck of "
                                    f"{game.id} has that size either way round ({sizes})")
            return None, [Notice(deck.doc.path, None, f"{_size(deck.size)} cards are not the {_size(self.card)} of "
                                                      f"layout {self.name}: imposed automatically")]
        g = game.game   # the art reaches the game's bleed and no further: bleed no more than that
        sheet = self.sheet(deck.size, g.printer_margin, flip or self.spec.flip or g.flip, g.bleed)
        return sheet, self._warnings(sheet, g.printer_margin)

    def _warnings(self, sheet: Sheet, margin: float) -> list[Notice]:
        """Cards inside the printer margin; trim edges left unmarked for want of room."""
        W, H = sheet.page
        out, seen = [], set()
        for i, s in enumerate(sheet.fronts):
            x, y, w, h = s.trim
            if (x < margin - EPS or y < margin - EPS or x + w > W - margin + EPS or y + h > H - margin + EPS) \
                    and self._loc(i) not in seen:
                seen.add(self._loc(i))
                out.append(self._problem(i, f"{self._this(i)} reaches into the printer's {_mm(margin)} mm "
                                            "margin, which a home printer leaves unprinted: its edge may print white",
                                         notice=True))
        if self.spec.crop_marks:
            xs = {round(v, 6) for s in sheet.fronts for v in (s.trim[0], s.trim[0] + s.trim[2])}
            ys = {round(v, 6) for s in sheet.fronts for v in (s.trim[1], s.trim[1] + s.trim[3])}
            vertical = {round(a[0], 6) for a, b in sheet.marks if a[0] == b[0]}
            horizontal = {round(a[1], 6) for a, b in sheet.marks if a[1] == b[1]}
            room = f"{_mm(MARK_GAP + MARK_MIN)} mm beyond the bleed and inside the printer's {_mm(margin)} mm margin"
            line = self.doc.line(("crop_marks",))
            if not xs <= vertical:
                out.append(Notice(self.doc.path, line, f"crop_marks: no room above or below the cards for crop marks "
                                                       f"({room}): the vertical cut lines are unmarked"))
            if not ys <= horizontal:
                out.append(Notice(self.doc.path, line, f"crop_marks: no room left or right of the cards for crop marks "
                                                       f"({room}): the horizontal cut lines are unmarked"))
        return out


def _same(a, b) -> bool:
    return abs(a[0] - b[0]) <= SIZE_TOLERANCE and abs(a[1] - b[1]) <= SIZE_TOLERANCE


def _overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] - EPS and b[0] < a[0] + a[2] - EPS and \
        a[1] < b[1] + b[3] - EPS and b[1] < a[1] + a[3] - EPS


def is_path(spec: str) -> bool:
    """`--layout` names a file rather than a preset."""
    return any(c in spec for c in "/\\") or spec.endswith((".yaml", ".yml")) or spec.startswith((".", "~"))


def load(spec: str) -> SheetLayout:
    """A layout by preset name (pnpgen/presets/layouts/NAME.yaml) or by file path, validated
    and checked; InputError (`file:line: ...`) otherwise. A file may be anywhere (it is the
    user's own, named on the command line), but must be a regular YAML file; it is loaded
    as safely as card data."""
    from ..game.loader import _shown
    if is_path(spec):
        path = Path(spec).expanduser()
        if not path.exists():
            raise InputError.at(spec, None, "no such layout file; give a path to a .yaml file or a preset name: "
                                + ", ".join(presets.layouts()))
        if not path.is_file():
            raise InputError.at(spec, None, "a layout is a .yaml file, and this is not a regular file")
        doc, name = yamlsrc.load(path, _shown(path)), path.stem
    else:
        table = presets.layouts()
        if spec not in table:
            raise InputError.at("--layout", None, f"unknown layout '{spec}'{did_you_mean(spec, table)}; give a preset "
                                "name or the path of a .yaml file")
        doc, name = yamlsrc.load(table[spec], _shown(table[spec])), spec
    layout = SheetLayout(name, doc, validate(Layout, doc))
    layout.check()
    return layout
