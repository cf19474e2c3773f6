"""Figures drawn from the real components. A figure's address (`card:common/Hive`,
`back:deck/Red North`, `board:island?side=b&region=0,0,120,90`, `images/x.png`) is resolved
to laid-out draw operations by the same layouter that prints the kit, and placed in the
rulebook as a vector-art flowable. Resolution is pure (addresses in, operations out); only
`Figure.draw` touches a canvas."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote

from reportlab.platypus import Flowable

from .. import ops
from ..errors import LayoutError, did_you_mean
from ..game.expand import PrintCard
from ..game.loader import GameSource
from ..layout.layouter import Layouter
from ..layout.svg import is_svg
from ..pdf.canvas import MM
from .assembly import folds, spinner, standee, tile_overlay
from .crop import crop
from .icons import painter as icon_painter
from .facts import NAME_FIELDS, RefError

SCHEMES = ("card", "back", "board", "spread", "kit")
OPTIONS = ("width", "side", "region", "face", "gap")
MAX_SPREAD = 64          # cards in one spread
MAX_FIGURE_MM = 2000


@dataclass
class Art:
    """What a figure shows: operations in the component's mm (y down), the part of it shown
    (x, y, w, h), how the component is cut (rect, round, or none for a board), and what of it
    cannot be drawn (the rulebook warns at the figure's line)."""

    body: list
    view: tuple[float, float, float, float]
    shape: str
    width: float | None      # asked-for width in mm, or None for the natural size
    warnings: tuple[str, ...] = ()   # what drawing it leaves out (an SVG feature svglib cannot draw)


class Components:
    """The game's decks and boards, ready to be drawn as figures; built once per game build
    from the layouters the sheets use, so figures match the printed components exactly."""

    def __init__(self, game: GameSource, decks: dict[str, tuple[Layouter, list[PrintCard]]],
                 boards: dict[str, tuple[Layouter, PrintCard]], icons: dict, images: dict):
        self.game, self.decks, self.boards = game, decks, boards
        self.icons = icons        # icon forms, shared by every figure
        self.images = images      # converted images, by key
        self.kit = None           # the build's printing.Kit, for the printing section's `kit:` figures

    def resolve(self, address: str) -> Art:
        """The art at `address`; raises RefError for a name the game lacks or a bad option."""
        address = address.strip()
        scheme, _, rest = address.partition(":")
        if scheme not in SCHEMES:
            return self._image(address)
        path, _, query = rest.partition("?")
        options = dict(parse_qsl(query, keep_blank_values=True))
        for key in options:
            if key not in OPTIONS:
                raise RefError(f"unknown figure option '{key}'" + did_you_mean(key, OPTIONS))
        width = _number(options, "width")
        if scheme == "kit":
            return self._kit(unquote(path), width)
        if scheme == "board":
            return self._board(unquote(path), options, width)
        if "side" in options or "region" in options:
            raise RefError("side= and region= are for boards; a card figure takes width=")
        if scheme == "spread":
            return self._spread(unquote(path), options, width)
        if "face" in options or "gap" in options:
            raise RefError("face= and gap= are for spreads (spread:DECK/A,B;C,D)")
        deck_id, _, name = unquote(path).partition("/")
        if not name:
            raise RefError(f"'{address}': write {scheme}:DECK/NAME, e.g. {scheme}:common/{name or 'Hive'}")
        layouter, card = self._card(deck_id, name)
        size = layouter.game.templates[card.front].template.size or layouter.component.size
        shape = layouter.game.templates[card.front].template.shape
        body = self._face(layouter, card, scheme == "back", name, deck_id)
        return Art(_inline(body, layouter.forms), (0, 0) + tuple(size), shape, width)

    def _face(self, layouter: Layouter, card: PrintCard, back: bool, name: str, deck_id: str) -> list:
        if not back:
            return layouter.layout(card, card.front)
        if card.back is None:
            raise RefError(f"card '{name}' of deck '{deck_id}' has no back")
        return layouter.layout(card if card.unique_back else None, card.back)

    def _spread(self, path: str, options: dict, width: float | None) -> Art:
        """Cards laid side by side in rows (`;` between rows, `,` between cards): a stretch of
        the table, e.g. map tiles joined into a swamp. Each card is cut at its trim. A card
        may name its own deck and face (`components/front:Starting Map`, `deck/back:Green South`);
        the others take the spread's deck and `face=`."""
        deck_id, _, names = path.partition("/")
        rows = [[n.strip() for n in row.split(",") if n.strip()] for row in names.split(";")]
        rows = [r for r in rows if r]
        if not rows:
            raise RefError(f"'spread:{path}': write spread:DECK/A,B;C,D (rows split by ';', cards by ',')")
        if sum(len(r) for r in rows) > MAX_SPREAD:
            raise RefError(f"a spread shows at most {MAX_SPREAD} cards")
        face = options.get("face", "front")
        if face not in ("front", "back"):
            raise RefError(f"face={face}: a spread shows each card's front or back")
        gap = _number(options, "gap", allow_zero=True) or 0.0
        body, y, right = [], 0.0, 0.0
        for row in rows:
            x, tallest = 0.0, 0.0
            for item in row:
                deck, side, name = self._spread_item(item, deck_id, face)
                layouter, card = self._card(deck, name)
                w, h = layouter.game.templates[card.front].template.size or layouter.component.size
                face_ops = _inline(self._face(layouter, card, side == "back", name, deck), layouter.forms)
                body.append(ops.Group((1, 0, 0, 1, x, y), tuple(face_ops), (0, 0, w, h)))
                x, tallest = x + w + gap, max(tallest, h)
            right, y = max(right, x - gap), y + tallest + gap
        return Art(body, (0, 0, right, y - gap), "none", width)

    def _spread_item(self, item: str, deck: str, face: str) -> tuple[str, str, str]:
        """(deck, face, name) of one card of a spread: `NAME`, `DECK/NAME`, `back:NAME`..."""
        head, sep, rest = item.partition("/")
        if sep and head in self.decks:
            deck, item = head, rest
        for side in ("front", "back"):
            if item.startswith(side + ":"):
                return deck, side, item[len(side) + 1:].strip()
        return deck, face, item

    def _card(self, deck_id: str, name: str) -> tuple[Layouter, PrintCard]:
        if deck_id not in self.decks:
            raise RefError(f"the game has no deck '{deck_id}'" + did_you_mean(deck_id, self.decks))
        layouter, cards = self.decks[deck_id]
        names = []
        for card in cards:
            fields = card.entry.fields
            named = next((str(fields[f]) for f in NAME_FIELDS if fields.get(f)), None)
            if name in (named, card.code):
                return layouter, card
            names.append(named or card.code)
        raise RefError(f"deck '{deck_id}' has no card '{name}'" + did_you_mean(name, dict.fromkeys(names)))

    def _board(self, board_id: str, options: dict, width: float | None) -> Art:
        if board_id not in self.boards:
            raise RefError(f"the game has no board '{board_id}'" + did_you_mean(board_id, self.boards))
        layouter, card = self.boards[board_id]
        b = layouter.component
        side = options.get("side", "a").lower()
        if side not in ("a", "b"):
            raise RefError(f"side={side}: a board has side a or b")
        template = card.front if side == "a" else card.back
        if template is None:
            raise RefError(f"board '{board_id}' has one side; side=b needs a `back:` in its board file")
        w, h = b.size
        view = (0.0, 0.0, w, h)
        if "region" in options:
            try:
                view = tuple(float(v) for v in options["region"].split(","))
            except ValueError:
                view = ()
            if len(view) != 4 or view[2] <= 0 or view[3] <= 0:
                raise RefError(f"region={options['region']}: give X,Y,W,H in mm from the board's top-left corner")
            x, y, rw, rh = view
            if x < 0 or y < 0 or x + rw > w + 0.01 or y + rh > h + 0.01:
                raise RefError(f"region={options['region']} reaches outside the {w:g} x {h:g} mm board")
        return Art(_inline(layouter.layout(card, template), layouter.forms), view, "none", width)

    def _kit(self, path: str, width: float | None) -> Art:
        """An assembly figure of the printing section: `kit:tiles/BOARD`, the board with its
        pages, their names and taping order over it (assembly.tile_overlay); `kit:standee/DECK/CARD`,
        a standee flat and folded (assembly.standee); `kit:spinner/DECK/CARD`, a dial with a
        paper clip and pencil on it (assembly.spinner)."""
        what, _, rest = path.partition("/")
        layouts = self.kit.layouts if self.kit is not None else {}
        if what == "tiles" and rest in layouts:
            art = self._board(rest, {}, width)
            return Art(art.body + tile_overlay(layouts[rest]), art.view, "none", width)
        if what == "standee":
            deck_id, _, name = rest.partition("/")
            layouter, card = self._card(deck_id, name)
            size = layouter.game.templates[card.front].template.size or layouter.component.size
            face = _inline(layouter.layout(card, card.front), layouter.forms)
            found = folds(face, size)
            if len(found) == 3:
                body, view = standee(face, size, found)
                return Art(body, view, "none", width)
            raise RefError(f"card '{name}' of deck '{deck_id}' has no three folds (dashed lines right across it)")
        if what == "spinner":
            deck_id, _, name = rest.partition("/")
            layouter, card = self._card(deck_id, name)
            size = layouter.game.templates[card.front].template.size or layouter.component.size
            body, view = spinner(_inline(layouter.layout(card, card.front), layouter.forms), size)
            return Art(body, view, "none", width)
        raise RefError(f"'kit:{path}': the printing section's figures are kit:tiles/BOARD, for a tiled board, "
                       "kit:standee/DECK/CARD and kit:spinner/DECK/CARD")

    def _image(self, src: str) -> Art:
        res = next(iter(self.decks.values()), (None,))[0]
        res = res.res if res is not None else None
        if res is None:
            raise RefError("an image figure needs the game to have at least one deck")
        try:
            key, (pw, ph) = res.image(unquote(src))
        except LayoutError as exc:
            raise RefError(str(exc)) from None
        w = 80.0
        h = w * ph / pw
        if not is_svg(key):
            return Art([ops.Image(key, 0, 0, w, h, None)], (0, 0, w, h), "none", None)
        return Art([ops.Svg(key, 0, 0, w, h, None)], (0, 0, w, h), "none", None, res.svg_warnings(key))


def _number(options: dict, key: str, allow_zero: bool = False) -> float | None:
    if key not in options:
        return None
    try:
        value = float(options[key])
    except ValueError:
        value = -1
    if not (0 <= value if allow_zero else 0 < value) or value > MAX_FIGURE_MM:
        raise RefError(f"{key}={options[key]}: give a width in mm, more than 0 and at most {MAX_FIGURE_MM}")
    return value


def _inline(body, forms: dict) -> list:
    """The operations with each of the deck's shared forms replaced by what it draws (a
    rulebook holds many decks' figures; only the game's icons stay shared forms)."""
    out = []
    for op in body:
        if type(op) is ops.Form and op.name in forms:
            out += _inline(forms[op.name].body, forms)
        elif type(op) is ops.Group:
            out.append(ops.Group(op.transform, tuple(_inline(op.body, forms)), op.clip, op.opacity))
        else:
            out.append(op)
    return out


class Figure(Flowable):
    """A component drawn at `scale` (1 = actual size): the view's box, clipped to the
    component's cut shape, with a hairline round it."""

    def __init__(self, art: Art, scale: float, icons: dict, images: dict):
        super().__init__()
        self.art, self.scale, self.icons, self.images = art, scale, icons, images
        self.body = crop(art.body, art.view, icons)   # only what the view shows reaches the PDF
        self.width = art.view[2] * scale * MM
        self.height = art.view[3] * scale * MM

    def wrap(self, avail_w, avail_h):
        return self.width, self.height

    def draw(self):
        c = self.canv
        painter = icon_painter(c, self.icons, self.images)
        painter.define_forms(sorted(self.icons))   # text draws icons by name too
        x, y, w, h = self.art.view
        c.saveState()
        path = c.beginPath()
        if self.art.shape == "round":
            path.circle(self.width / 2, self.height / 2, min(self.width, self.height) / 2)
        elif self.art.shape == "rect":
            path.roundRect(0, 0, self.width, self.height, min(3.0, w / 10, h / 10) * self.scale * MM)
        else:
            path.rect(0, 0, self.width, self.height)
        c.saveState()
        c.clipPath(path, stroke=0, fill=0)
        c.scale(self.scale, self.scale)
        c.translate(-x * MM, 0)
        painter._draw(self.body, y + h)
        c.restoreState()
        c.setStrokeColorRGB(0.55, 0.55, 0.55)
        c.setLineWidth(0.4)
        c.drawPath(path, stroke=1, fill=0)
        c.restoreState()

