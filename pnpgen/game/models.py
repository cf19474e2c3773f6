"""The YAML schema of a game folder, one class per file kind. Each key is an attribute
with its validator and a docstring under it, so the schema documents itself (see
`pnpgen schema`) and every error names the key it is about."""

# (no "from __future__ import annotations" where models are made: see sources.validation.Schema)

import math
import re
from typing import Annotated, Any, Literal, Union

from pydantic import (AfterValidator, ConfigDict, Discriminator, Field, Tag, WithJsonSchema, field_validator,
                      model_validator)
from reportlab.lib.colors import Color, toColor

from .. import presets
from ..elements import Entries
from ..elements.base import Point
from ..sources.validation import Schema, Size
from .outline import POLYGONAL
from .outline import outline as outline_points
from .outline import problem as outline_problem

BACK_OFFSET_MAX = 10.0
"""Largest back offset on either axis, mm: a duplexer further off than this needs fixing,
not correcting, and a larger shift would push backs off their bleed."""


def check_back_offset(x: float, y: float) -> tuple[float, float]:
    """A back offset (mm) as floats, or ValueError saying what is wrong with it."""
    for name, v in (("X", x), ("Y", y)):
        if not math.isfinite(v):
            raise ValueError(f"back offset {name} = {v} is not a number of mm")
        if abs(v) > BACK_OFFSET_MAX:
            raise ValueError(f"back offset {name} = {v:g} mm is outside -{BACK_OFFSET_MAX:g}..{BACK_OFFSET_MAX:g} mm")
    return (float(x), float(y))


Paper = Literal[tuple(presets.home_papers())]
"""A game's paper: a name from presets/sizes.yaml `papers:` (letter, a4)."""

MAX_COUNT = 1000
"""Most copies of one card."""
MAX_CARDS = 20_000
"""Most cards (copies included) in one deck."""

NAME = r"^[a-z][a-z0-9_-]*$"


HEX = re.compile(r"#[0-9a-fA-F]+")


def to_color(spec: str):
    """A reportlab colour from '#rrggbb', CSS's short '#rgb', either with a fourth hex pair
    (or digit) for transparency ('#rrggbbaa', '#rgba': 00 clear, ff opaque; the colour's
    `alpha`), or a colour name. reportlab alone reads '#fff' as blue and '#rrggbbaa' as
    another colour, so hex is checked and split here."""
    spec = spec.strip()
    alpha = None
    if spec.startswith("#"):
        if not HEX.fullmatch(spec) or len(spec) not in (4, 5, 7, 9):
            raise ValueError(f"{spec!r} is not a colour: use '#rrggbb' (six hex digits), '#rgb', "
                             "or '#rrggbbaa' with two more for transparency")
        if len(spec) in (4, 5):
            spec = "#" + "".join(c * 2 for c in spec[1:])
        if len(spec) == 9:
            spec, alpha = spec[:7], int(spec[7:], 16) / 255
    try:
        # (reportlab reads any Python literal: '{...}' would come back a dict, not a colour)
        color = toColor(spec) if len(spec) <= 64 and not set(spec) & set("[]{}'\"") else None
    except Exception:  # reportlab raises ValueError, AssertionError, ... on odd input
        color = None
    if not isinstance(color, Color):
        raise ValueError(f"{spec[:64]!r} is not a colour; use '#rrggbb' or a colour name")
    return color if alpha is None else Color(color.red, color.green, color.blue, alpha)


def _color(spec: str) -> str:
    to_color(spec)
    return spec


ColorSpec = Annotated[str, AfterValidator(_color)]
"""A colour written as '#rrggbb' (or '#rrggbbaa', translucent) or a colour name."""


class CodeMark(Schema):
    """Where a card's code (e.g. SWM-017) is printed on the face."""

    x: float | None = None
    """Left edge of the code's box, mm (default: the trim's left)."""
    y: float | None = None
    """Baseline of the code, mm from the trim's top (default: 2.3 mm above the bottom)."""
    w: float | None = None
    """Width of the code's box, mm (default: the card's width)."""
    align: Literal["left", "center", "right"] = "center"
    """Alignment in the box."""
    size: float = Field(4.5, ge=3, le=12)
    """Font size, pt."""
    color: str = "#555555"
    """Colour of the code."""


class Template(Schema):
    """A layout template file: `templates/<game>/<name>.yaml` or `templates/shared/<name>.yaml`."""

    size: Size | None = None
    """The card size the template is drawn for; a deck of another size is an error (in a
    packed deck, each card takes its front template's size)."""
    shape: Literal["rect", "round", "hex-flat", "hex-pointy", "polygon"] = "rect"
    """The component's outline: rect; round (a disc inscribed in the size: tokens);
    hex-flat or hex-pointy (the largest regular hexagon centred in the size, a flat edge or a
    corner at the top: hex tiles and counters); polygon (`points:` or `sides:`). Any shape but
    rect is clipped, bled and cut along its outline; a hexagon or polygon needs `size:` and a
    deck with `pack: true`, where hexes of one size nest in offset rows."""
    points: list[Point] | None = Field(None, min_length=3, max_length=64)
    """shape: polygon: its corners [[x, y], ...] in order round the edge, mm from the size's
    top-left (y down), every one inside the size."""
    sides: int | None = Field(None, ge=3, le=64)
    """shape: polygon: a regular polygon of this many sides instead of points, the largest in
    the size's inscribed circle, a corner at the top."""
    code: CodeMark | Literal[False] = CodeMark()
    """Where the card code is printed, or false to leave it off (a unique back prints it
    too; a common back never does)."""
    elements: Entries = Field(min_length=1, max_length=500)
    """What to draw, bottom to top."""

    @model_validator(mode="after")
    def _outline(self):
        if self.shape != "polygon" and (self.points is not None or self.sides is not None):
            raise ValueError("points: and sides: belong to shape: polygon")
        if self.shape == "polygon" and (self.points is None) == (self.sides is None):
            raise ValueError("shape: polygon needs either points: [[x, y], ...] or sides: N")
        if self.shape in POLYGONAL and self.size is None:
            raise ValueError(f"shape: {self.shape} needs size: [w, h], the box its outline is drawn in")
        if self.points is not None:
            wrong = outline_problem(self.points, self.size)
            if wrong:
                raise ValueError(wrong)
        return self

    def outline(self, size=None) -> tuple:
        """The corners of a hexagon's or polygon's outline (template mm, y down), else ()."""
        return outline_points(self.shape, self.size or size, self.points, self.sides) if self.shape in POLYGONAL else ()


class Icon(Schema):
    """An icon that text can draw inline as `:name:`."""

    image: str | None = None
    """A PNG, JPEG or SVG file in the game's folder (at most 40 megapixels and 50 MB; an SVG at
    most 5 MB); an SVG prints as vector paths."""
    color: str | None = None
    """Recolour an SVG icon: drop a background square covering its whole viewBox (as
    game-icons.net's black square) and paint every other fill and stroke in this colour
    ('#rrggbb', a name or one of the game's colors). For single-colour icons: a many-coloured
    SVG comes out as a silhouette."""
    size: Size | None = None
    """Design box of a vector icon, mm [w, h]; elements are placed in it."""
    elements: Entries | None = None
    """Shapes drawing a vector icon in its design box."""

    @model_validator(mode="after")
    def _one_kind(self):
        if (self.image is None) == (self.elements is None):
            raise ValueError("an icon has either image: or elements: (with size:)")
        if self.color is not None and self.image is None:
            raise ValueError("color: recolours an SVG icon (image: icons/name.svg); a vector icon's "
                             "elements have their own colours")
        if self.elements is not None and self.size is None:
            raise ValueError("a vector icon needs size: [w, h] for its elements")
        return self


class PrintLimits(Schema):
    """What `pnpgen check` asks of a game's printed faces (its print checks): how small text
    may be, how much it must stand out from what is under it, how far it keeps from the cut.
    Setting a limit to 0 (contrast: 1) turns its check off."""

    min_size: float = Field(6, ge=0, le=72)
    """Smallest text a player reads, pt at print size (text in a scaled group counts at the
    size it prints)."""
    min_code_size: float = Field(4.5, ge=0, le=72)
    """Smallest card code (SWM-017), pt: a code is read only to sort the cards, so it may be
    smaller than other text."""
    contrast: float = Field(4.5, ge=1, le=21)
    """Least contrast ratio (WCAG's formula, 1 to 21) between text and what is drawn under
    it, images included; 4.5 is WCAG's level for body text."""
    contrast_large: float = Field(3, ge=1, le=21)
    """Least contrast ratio for large text (18 pt and up, or 14 pt and up in a bold font) and
    for thin lines (open lines up to 2 mm wide, such as walls) against what is under them."""
    cut_zone: float = Field(1.5, ge=0, le=20)
    """How far inside the trim text must keep, mm: a hand or shop cut lands up to about this
    far off, so text closer to the cut (or beyond it) may be cut into."""
    color_distance: float = Field(12, ge=0, le=100)
    """Least difference (CAM02-UCS distance: about 1 is just noticeable, 100 is black to
    white) between cards of one deck that differ only by colour, as normal colour vision,
    protanopia, deuteranopia and tritanopia see them and printed in greyscale."""
    margin: float | None = Field(None, ge=0, le=25)
    """The border of the paper a home printer leaves unprinted, mm: no text, card edge or crop
    mark may print inside it. Default: the game's `printer_margin`, which the sheets are laid
    out to keep clear; a wider one (6.35 is safe for nearly every printer) checks the kit
    for printers that leave more unprinted."""
    severity: Literal["warning", "error"] = "warning"
    """warning: reported, and `pnpgen check` still passes (unless --strict); error: fails it."""


class ImageResolution(Schema):
    """How finely raster art (PNG, JPEG) is put into the PDFs. Art finer than `max_ppi` at
    the size it is printed is resampled to `ppi` there: a 3000 x 4200 px file on a poker card
    is about 1,100 ppi, thirteen times the pixels a printer puts down at 300 ppi, in a PDF
    many times the size. Photos (more than 4,096 colours once resampled) are stored as high-quality JPEG when
    that is smaller; other art stays lossless; transparency is kept. A JPEG no finer than
    `max_ppi` goes into the PDF byte for byte. `pnpgen build --image-ppi` / `--keep-images`
    override these for one build."""

    max_ppi: float = Field(450, ge=72, le=4800)
    """Art finer than this (pixels per inch where it is printed) is resampled."""
    ppi: float = Field(300, ge=72, le=4800)
    """What art finer than `max_ppi` is resampled to, pixels per inch."""
    resample: bool = True
    """false: every image goes into the PDFs as it is, however fine."""

    @model_validator(mode="after")
    def _order(self):
        if self.ppi > self.max_ppi:
            raise ValueError(f"ppi ({self.ppi:g}) is above max_ppi ({self.max_ppi:g}); "
                             "resampling only makes art coarser: lower ppi or raise max_ppi")
        return self


MAX_PLAYERS = 20
"""Most players a game may say it supports."""
PLAYER_RANGE = r"^\s*(\d{1,3})\s*(?:[-–]\s*(\d{1,3})\s*)?$"
"""Players written as a range, '2-4' (or one count, '3')."""


class Players(Schema):
    """The player counts a game supports, from `min` to `max`."""

    min: int = Field(ge=1, le=MAX_PLAYERS)
    """The fewest players."""
    max: int = Field(ge=1, le=MAX_PLAYERS)
    """The most players."""

    @model_validator(mode="before")
    @classmethod
    def _written(cls, value: Any):
        """`2-4`, `3` or {min: 2, max: 4}, as a designer writes it."""
        if isinstance(value, int) and not isinstance(value, bool):
            return {"min": value, "max": value}
        if isinstance(value, str):
            match = re.fullmatch(PLAYER_RANGE, value)
            if not match:
                raise ValueError(f"'{value[:40]}' is not a player range: write e.g. 2-4, or 3 for exactly three")
            low = int(match[1])
            return {"min": low, "max": int(match[2] or low)}
        return value

    @model_validator(mode="after")
    def _order(self):
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) is above max ({self.max}); write the fewest players first, e.g. 2-4")
        return self


PlayerCounts = Annotated[Players, WithJsonSchema({"anyOf": [
    {"type": "string", "pattern": PLAYER_RANGE, "description": "e.g. 2-4"},
    {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS},
    {"type": "object", "additionalProperties": False, "required": ["min", "max"], "properties": {
        "min": {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS, "description": "The fewest players."},
        "max": {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS, "description": "The most players."}}}]})]
"""Players as game.yaml writes them: `2-4`, `3` or {min: 2, max: 4}."""


class Game(Schema):
    """`cards/<game>/game.yaml`: settings shared by every deck of a game."""

    title: str = Field(min_length=1, max_length=120)
    """The game's name, printed on each sheet's slug line."""
    code: str = Field(pattern=r"^[A-Z][A-Z0-9]{1,5}$")
    """Card-code prefix, 2 to 6 capitals: SWM gives SWM-001, SWM-002..."""
    paper: Paper = "letter"
    """Paper size for the sheets (`pnpgen build --paper` overrides)."""
    card_size: Size = Field("poker", validate_default=True)
    """Default card size: a name (poker, bridge, mini, tarot, square...: each in millimetres in
    `pnpgen schema sizes`) or [w, h] in mm."""
    bleed: float = Field(3.175, ge=0, le=10)
    """Bleed around each card, mm (1/8 in by default)."""
    safe: float = Field(3.175, ge=0, le=20)
    """Safe-zone inset inside the trim, mm; templates can read it as `card.safe`."""
    flip: Literal["long", "short"] = "long"
    """Duplex flip edge the backs are laid out for."""
    back_offset: tuple[float, float] = Field([0, 0], validate_default=True)
    """Move every back page by [x, y] mm to cancel a duplex printer's error, as read off
    `pnpgen calibrate`: x positive moves backs right and y positive moves them up, as seen
    looking at the back page; fronts never move (`pnpgen build --back-offset X,Y` overrides)."""
    layout: str | None = Field(None, min_length=1, max_length=200)
    """A custom sheet layout for the card decks of its card size: a preset name
    (business-10up-letter, poker-9up-a4) or a layout .yaml file in the game folder
    (`pnpgen build --layout` overrides)."""
    cut: Literal["auto", "shared", "gutter"] = "auto"
    """shared: cards touch, one cut per line; gutter: full bleed round every card;
    auto: whichever fits more cards (gutter on a tie). Packed hex tiles of one size: shared
    nests them edge to edge, each shared edge one cut and no bleed across it; gutter keeps
    every tile's bleed and cut line; auto shares cuts only when that saves a sheet."""
    printer_margin: float = Field(5, ge=0, le=25)
    """Border of the page that a home printer cannot print, mm; nothing is put there."""
    share_sheets: Literal["small", "none"] = "small"
    """small: decks of one card size (on the automatic grid, with the same sides) pool what
    does not fill a sheet of their own (a deck smaller than a sheet, the part-filled last sheet
    of a bigger one) onto shared sheets, out/<game>/shared-<w>x<h>.pdf, when that saves a sheet;
    each card keeps its code and its own deck's back, and a deck's full sheets stay in its own
    PDF (decks printed per player, `per_player:`, keep sheets of their own). none: every deck
    on sheets of its own."""
    decks: list[str] | None = None
    """Deck files in build order, relative to the game folder (default: decks/*.yaml by name);
    each must be a regular file inside the game folder once links are followed."""
    boards: list[str] | None = None
    """Board files, relative to the game folder (default: boards/*.yaml by name)."""
    fonts: dict[str, str] = {}
    """Extra fonts: name -> .ttf file in the game's folder (at most 50 MB; a file that is cut
    short or damaged is refused)."""
    fallback_fonts: list[str] = Field(["sans"], max_length=10)
    """Fonts tried in order for a character the text's own font lacks (before it is
    reported as missing): built-in names or the game's `fonts`."""
    icons: dict[str, Icon] = {}
    """Inline icons, used in text as `:name:`."""
    colors: dict[str, ColorSpec] = {}
    """Named colours, usable wherever a colour is asked for."""
    print: PrintLimits = PrintLimits()
    """Limits of the print checks that `pnpgen check` runs on every face: text size,
    contrast, distance from the cut."""
    credits: str = ""
    """A credits line (e.g. which content is reconstructed): the subject of every PDF of the
    game, and shown by `pnpgen list`."""
    images: ImageResolution = ImageResolution()
    """Print resolution of raster art: finer art is resampled."""
    players: PlayerCounts | None = None
    """The player counts the game supports: `2-4`, `3`, or {min: 2, max: 4}. With it, the
    rulebook's printing section and `pnpgen list` give the sheets each player count needs,
    counting the decks and boards marked `per_player`."""

    @field_validator("back_offset", mode="before")
    @classmethod
    def _back_offset(cls, value: Any):
        if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
            raise ValueError("expected [x, y] in mm, e.g. [0.75, -0.5]")
        return check_back_offset(*value)

    @field_validator("icons", "colors", "fonts")
    @classmethod
    def _names(cls, value: dict):
        for key in value:
            if not re.match(NAME, key):
                raise ValueError(f"name '{key}' should be lower-case letters, digits, - or _")
        return value


class FieldSpec(Schema):
    """Declares one field that the deck's cards may carry."""

    type: Literal["text", "int", "number", "bool", "list"] = "text"
    """The value's type."""
    required: bool = False
    """Every card must give this field."""
    default: Any = None
    """Value for cards that do not give it."""
    choices: list[Any] | None = None
    """The only values allowed."""
    description: str = ""
    """What the field means (for humans and `pnpgen list`)."""


class Back(Schema):
    """The back of a deck's cards."""

    template: str = Field(pattern=NAME)
    """The back's layout template."""
    per_card: bool = False
    """Each card gets its own back drawn from its fields (e.g. a map on every card); otherwise
    one common back is drawn once and reused."""


RESERVED = {
    "count": "copies of this card (default 1)",
    "template": "front template for this card (default: the deck's)",
    "back": "a back template for this card alone",
    "number": "the number in this card's code (default: next free number)",
}


SHEET_SUFFIXES = (".csv", ".xlsx", ".ods")
"""The card sheets a deck's `cards:` may name."""


def _sheet_file(value: str) -> str:
    if not value.lower().endswith(SHEET_SUFFIXES) or len(value) > 255:
        raise ValueError(f"'{value[:80]}' is not a card sheet: give a .csv, .xlsx or .ods file in the game folder, "
                         "or list the cards")
    return value


Cards = Annotated[Union[
    Annotated[Annotated[list[dict[str, Any]], Field(min_length=1, max_length=MAX_CARDS)], Tag("list[...]")],
    Annotated[Annotated[str, AfterValidator(_sheet_file), Field(json_schema_extra={
        "pattern": r"\.([cC][sS][vV]|[xX][lL][sS][xX]|[oO][dD][sS])$"})], Tag("str")]],
    Discriminator(lambda value: "str" if isinstance(value, str) else "list[...]")]
"""A deck's cards: listed in the deck file, or the name of a card sheet."""


class Deck(Schema):
    """`cards/<game>/decks/<deck>.yaml`: one deck of same-size cards."""

    name: str = Field(min_length=1, max_length=120)
    """The deck's name, printed on the slug line."""
    template: str | None = Field(None, pattern=NAME)
    """Front template used by cards that name none."""
    back: Back | None = None
    """The cards' back; leave it out for single-sided cards."""
    card_size: Size | None = None
    """Card size for this deck (default: the game's)."""
    safe: float | None = Field(None, ge=0, le=20)
    """Safe-zone inset for this deck's cards, mm (default: the game's; small tokens need less)."""
    pack: bool = False
    """Pack the cards densely, each at its front template's size and shape, with its own
    bleed and a cut line round it, instead of a grid of one size: for tokens and counters
    of several kinds sharing a sheet."""
    fields: dict[str, FieldSpec] = {}
    """The fields its cards may carry; any other key on a card is an error."""
    cards: Cards
    """The cards: each a mapping of field values, plus count, template, back and number; or a
    card sheet, a .csv, .xlsx or .ods file relative to the game folder (see "Spreadsheet decks"
    in the README), whose first row names the columns."""
    sheet: str | None = Field(None, min_length=1, max_length=100)
    """The sheet of an .xlsx or .ods `cards:` workbook to read (default: its first sheet)."""
    per_player: bool | str = False
    """Whether the deck grows with the players (see game.yaml `players`): `true` when the deck is
    one player's set, printed once per player; or the name of one of its `fields` whose value
    says whose set a card is (a player number or colour): with N players, the cards of the
    first N values, in card order, are needed, and cards without a value are everyone's."""
    source: str | None = Field(None, max_length=2000)
    """Where `pnpgen pull` fetches the `cards:` card sheet from: a CSV address, or a Google Sheet's
    address (shared or published; its export in the file's format is fetched). Builds only ever
    read the local copy."""

    @field_validator("source")
    @classmethod
    def _address(cls, value: str | None):
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("expected a web address starting with https:// (or http://)")
        return value

    @model_validator(mode="after")
    def _sheet_keys(self):
        if isinstance(self.per_player, str) and self.per_player not in self.fields:
            known = ", ".join(sorted(self.fields)) or "none"
            raise ValueError(f"per_player: '{self.per_player[:40]}' is not one of the deck's fields ({known}); "
                             "name the field that says whose a card is, or write true for one player's set")
        if isinstance(self.cards, list) and (self.sheet or self.source):
            raise ValueError("sheet: and source: belong to a deck whose cards: names a card sheet")
        if self.sheet and str(self.cards).lower().endswith(".csv"):
            raise ValueError("a CSV file has no sheets; remove sheet:")
        return self

    @field_validator("fields")
    @classmethod
    def _field_names(cls, value: dict):
        for key in value:
            if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", key):
                raise ValueError(f"field name '{key}' must be letters, digits and _ (usable in templates)")
            if key in RESERVED or key in ("card", "game", "deck", "colors"):
                raise ValueError(f"field name '{key}' is reserved")
        return value


class HexGenerate(Schema):
    """A seeded random hex map (how it is drawn: docs/maps.md) whose rows fill one of the board's fields;
    `pnpgen build --seed N` draws another."""

    model_config = ConfigDict(defer_build=True)     # (built with the first board read: see Board)

    cols: int = Field(ge=2, le=60)
    """Columns of hexes."""
    rows: int = Field(ge=2, le=60)
    """Rows of hexes."""
    top: Literal["flat", "pointy"] = "flat"
    """flat: straight columns, odd columns shoved down; pointy: straight rows, odd rows shoved right."""
    shape: Literal["rect", "hexagon"] = "rect"
    """rect: every hex of the grid; hexagon: a big hexagon of hexes around the centre, the rest off the board."""
    seed: int = Field(1, ge=0, le=2**31)
    """The seed: the same seed always gives the same map; it is printed on the board."""
    players: int = Field(4, ge=1, le=8)
    """Start Dens to place, as far apart as the board allows."""
    weights: dict[str, float]
    """Terrain code -> how often it is drawn (relative weights), e.g. {"1": 1, "5": 0.8}."""
    den: str = "6"
    """Terrain code of a Den (the start hexes)."""
    water: str = "5"
    """Terrain code that blocks movement; it never cuts the land in two."""
    max_cluster: dict[str, int] = {}
    """Terrain code -> the largest connected patch of it allowed (default: 3 for
    the water code and for 7 and 0, Swarm's Mud and Sand; 5 for any other)."""
    field: str = Field("hexes", pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    """The field the map's rows go into (the template also sees `seed`)."""


class KeepWhole(Schema):
    """A part of a board that the seams between tiled pages go round when the paper allows
    (a town, a title, the X on a treasure map); text is kept whole without asking."""

    model_config = ConfigDict(defer_build=True)     # (built with the first board read: see Board)

    name: str = Field(min_length=1, max_length=80)
    """What it is, for the message when no seam can go round it."""
    x: float = Field(ge=-50, le=5000)
    """Left edge, board mm from the trim's left."""
    y: float = Field(ge=-50, le=5000)
    """Top edge, board mm from the trim's top."""
    w: float = Field(gt=0, le=5000)
    """Width, mm."""
    h: float = Field(gt=0, le=5000)
    """Height, mm."""


class Board(Schema):
    """`cards/<game>/boards/<name>.yaml`: a board, mat or other sheet larger than a card,
    drawn by a template and tiled over pages (or put whole on a poster page)."""

    # pydantic builds a board's validators when the first board is read, not at start-up:
    # a game of cards alone never needs them
    model_config = ConfigDict(defer_build=True)

    name: str = Field(min_length=1, max_length=120)
    """The board's name, printed on each page."""
    size: Size
    """Trim size, mm [w, h] (or a size name)."""
    template: str = Field(pattern=NAME)
    """Template drawing the board (its elements placed in board millimetres)."""
    back: str | None = Field(None, pattern=NAME)
    """Template of the other side, if the board has two (printed as its own pages)."""
    fields: dict[str, Any] = {}
    """Values the template can use, e.g. a fixed map's rows or a title."""
    hexmap: HexGenerate | None = None
    """Generate a hex map into a field."""
    overlap: float = Field(12, ge=6, le=50)
    """How far neighbouring tiles overlap, mm; more than the printer's unprintable margin."""
    keep_whole: list[KeepWhole] = Field([], max_length=200)
    """Parts of the board no seam should cross (seams also go round every line of text);
    a seam that cannot is a `print-seams` finding."""
    per_player: bool = False
    """One per player (a player's mat): the printing section and `pnpgen list` count it once
    for each player (see game.yaml `players`)."""

    @field_validator("fields")
    @classmethod
    def _field_names(cls, value: dict):
        for key in value:
            if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", str(key)) or key in ("card", "game", "deck", "colors"):
                raise ValueError(f"field name '{key}' must be letters, digits and _ and not a reserved name")
        return value
