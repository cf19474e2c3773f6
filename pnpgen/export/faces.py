"""Card faces one to a page: the common ground of every export. Each distinct face of a deck
(one per card entry, plus its back, or the deck's one common back) is drawn by the same
layouter and painter as the sheets onto a page of its own, trim plus the bleed asked for,
so a PNG, a shop upload or a Tabletop Simulator sheet never disagrees with the PDF."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import ClassVar

from reportlab.pdfgen.canvas import Canvas

from .. import fonts
from ..build import COMMON_BACK_FORM, Options, plan_game
from ..game.expand import PrintCard
from ..game.loader import GameSource
from ..ops import FormDef
from ..pdf.canvas import MM, Painter
from ..pdf.colour import PressColours
from ..pdf.pdfx import set_boxes
from ..sheets.polypack import bled_outline


@dataclass
class Face:
    """One face to export: which card (or the common back), which side, and what it draws."""

    code: str            # card code, or "back" for a deck's common back
    side: str            # "front" or "back"
    title: str           # the card's title or name, for people and for Tabletop Simulator
    count: int           # copies of the card in the deck
    size: tuple[float, float]   # trim, mm
    shape: str
    body: list
    outline: tuple = field(default=(), kw_only=True)   # a hexagon's or polygon's corners (mm, y down)


@dataclass
class ComponentFaces:
    """What a deck's and a board's faces share: fronts, the backs behind them, and the forms
    and images they draw with."""

    id: str
    name: str
    fronts: list[Face]
    backs: list[Face]
    forms: dict[str, FormDef]
    images: dict

    def faces(self) -> list[Face]:
        """Every distinct face once: the fronts, then the backs."""
        return list(self.fronts) + list(self.backs)


@dataclass
class DeckFaces(ComponentFaces):
    """A deck's distinct faces in deck order: every card's front, the backs of the cards that
    have their own (`backs`), and the deck's common back (behind the others), if it has one."""

    pack: bool = False
    common_back: Face | None = None    # the deck's one back, drawn once (behind every card without its own)
    kind: ClassVar[str] = "deck"

    def back_of(self, front: Face) -> Face | None:
        """The face behind `front`: its own back, else the deck's common back, else none
        (a single-sided card). A deck may mix the two: some cards name their own back."""
        return self._own_backs.get(front.code, self.common_back)

    @cached_property
    def _own_backs(self) -> dict[str, Face]:
        return {face.code: face for face in self.backs}

    def faces(self) -> list[Face]:
        """Every distinct face once: the fronts, the cards' own backs, then the common back."""
        return super().faces() + ([self.common_back] if self.common_back else [])


@dataclass
class BoardFaces(ComponentFaces):
    """A board's sides: side A its one front (code "a"), side B, if it has one, its back ("b")."""

    kind: ClassVar[str] = "board"
    pack: ClassVar[bool] = False                 # (a board is tiled, never packed)
    common_back: ClassVar[None] = None

    def back_of(self, front: Face) -> Face | None:
        return self.backs[0] if self.backs else None


def deck_faces(game: GameSource, options: Options | None = None,
               boards: bool = False) -> list[DeckFaces | BoardFaces]:
    """Every deck's distinct faces (one per card entry, not per copy); with `boards`, each
    board's sides too (BoardFaces, after the decks)."""
    plan = plan_game(game, options or Options())
    res, icons = plan.resources, plan.icons
    out, board_faces = [], []
    if boards:
        for board_plan in plan.boards:
            board, layouter, card = board_plan.source, board_plan.layouter, board_plan.card
            b = board.board
            sides = [Face("a", "front", b.name, 1, b.size, "rect", layouter.layout(card, b.template))]
            backs = [Face("b", "back", b.name, 1, b.size, "rect", layouter.layout(card, b.back))] if b.back else []
            board_faces.append(BoardFaces(board.id, b.name, sides, backs, {**icons, **layouter.forms},
                                          res.converted))
    for deck_plan in plan.decks:
        deck, layouter, cards = deck_plan.source, deck_plan.layouter, deck_plan.cards
        firsts: list[PrintCard] = []
        seen = set()
        for card in cards:
            if card.entry.index not in seen:
                seen.add(card.entry.index)
                firsts.append(card)
        fronts, backs, common = [], [], None
        for card in firsts:
            look = game.templates[card.front].template
            size = look.size or deck.size
            title = next((str(card.entry.fields[f]) for f in ("title", "name") if card.entry.fields.get(f)), card.code)
            outline = look.outline(size)
            fronts.append(Face(card.code, "front", title, card.entry.count, size, look.shape,
                               layouter.layout(card, card.front), outline=outline))
            if card.back and (card.unique_back or deck.deck.pack):   # turned over: the outline mirrored
                backs.append(Face(card.code, "back", title, card.entry.count, size, look.shape,
                                  layouter.layout(card if card.unique_back else None, card.back),
                                  outline=tuple((size[0] - x, y) for x, y in outline)))
        if deck.deck.back and not deck.deck.back.per_card and not deck.deck.pack:
            common = Face("back", "back", f"{deck.deck.name} back", len(cards), deck.size, "rect",
                          layouter.layout(None, deck.deck.back.template))
        forms = dict(icons)
        forms.update(layouter.forms)
        if common is not None:
            forms[COMMON_BACK_FORM] = FormDef(deck.size, tuple(common.body), True)
        out.append(DeckFaces(deck.id, deck.deck.name, fronts, backs, forms, res.converted,
                             pack=bool(deck.deck.pack), common_back=common))
    return out + board_faces


def write_pages(path: Path | str, faces: list[Face | None], deck: DeckFaces, bleed: float, title: str,
                press: PressColours | None = None) -> None:
    """One page per face, the page exactly the face's trim plus `bleed` mm on every side
    (drawings carry the game's bleed, so any bleed up to it is filled with art); a face of
    None is a blank page the size of the one before it (the back of a single-sided card).
    With `press`, drawn in the press's CMYK, each page's TrimBox at the card's cut and its
    BleedBox at the page edge (pdf.pdfx.make_pdfx then makes the file PDF/X)."""
    font = fonts.builtin("sans")
    w, h = faces[0].size
    c = Canvas(str(path), pagesize=((w + 2 * bleed) * MM, (h + 2 * bleed) * MM), invariant=1,
               pageCompression=1, initialFontName=font, initialFontSize=6, enforceColorSpace=press)
    c.setTitle(title)
    c.setCreator("pnpgen")
    c.setAuthor("")
    painter = Painter(c, deck.forms, bleed, deck.images, press)
    painter.define_forms(sorted(deck.forms))
    for face in faces:
        w, h = face.size if face is not None else (w, h)
        c.setPageSize(((w + 2 * bleed) * MM, (h + 2 * bleed) * MM))
        if press is not None:
            set_boxes(c, (bleed, bleed, w, h), (0, 0, w + 2 * bleed, h + 2 * bleed))
        if face is not None:
            _draw_face(c, painter, face, bleed)
        c.showPage()
    c.save()


def _draw_face(c: Canvas, painter: Painter, face: Face, bleed: float) -> None:
    """One face on its page, clipped to its shape and bleed."""
    w, h = face.size
    c.saveState()
    path_ = c.beginPath()
    if face.shape == "round":     # a round token: nothing outside its disc (transparent in a PNG)
        path_.circle((w / 2 + bleed) * MM, (h / 2 + bleed) * MM, (min(w, h) / 2 + bleed) * MM)
    elif face.outline:            # a hexagon or polygon: nothing outside its outline and bleed
        grown = bled_outline([(x + bleed, h - y + bleed) for x, y in face.outline], bleed,
                             (0, 0, w + 2 * bleed, h + 2 * bleed))
        path_.moveTo(*(v * MM for v in grown[0]))
        for x, y in grown[1:]:
            path_.lineTo(x * MM, y * MM)
        path_.close()
    else:
        path_.rect(0, 0, (w + 2 * bleed) * MM, (h + 2 * bleed) * MM)
    c.clipPath(path_, stroke=0, fill=0)
    c.translate(bleed * MM, bleed * MM)
    painter._draw(painter.face(face.body, face.size), h)
    c.restoreState()
