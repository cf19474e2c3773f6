"""A game as the preview page shows it: every deck's and board's faces, drawn by the same
code as the PDFs (export.faces) and rendered to PNGs with pdfium (export.raster), each
labelled with its code, title and the file:line it comes from; plus the rules report and
the layout warnings. Pure: no server and no threads. Images are cached by what a face
prints (fingerprint), so after a one-card edit only that card's face is rendered again. A
round token, a hex tile or a polygon is clipped to its outline and transparent outside it,
as `pnpgen export png` draws it."""

from __future__ import annotations

import tempfile
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from ..build import Options, plan_game
from ..errors import Notice
from ..game.expand import assign_numbers, code_for
from ..export.faces import DeckFaces, Face, deck_faces, write_pages
from ..export.raster import render_pages
from ..layout.fingerprint import Fingerprints
from ..game.loader import GameSource, TemplateSource
from ..rules.ruleset import Violation, check_game

INCH = 25.4
THUMB_DPI = 100
"""Grid thumbnails: sharp at the page's default size on a high-density screen, ~30 KB a card."""
FULL_DPI = 300
"""A card opened on the page: print resolution."""
BOARD_FULL_DPI = 150
"""A board opened on the page: as `pnpgen export png` writes boards (300 DPI would be 20 MB)."""
BOARD_THUMB_PX = 1000
"""A board's thumbnail is at most this many pixels on its long side."""


@dataclass(frozen=True)
class FaceRef:
    """One face as the page refers to it: by the digest of what it prints."""

    digest: str
    size: tuple[float, float]   # trim, mm
    shape: str                  # the template's shape: rect, round, hex-flat, hex-pointy or polygon
    board: bool = False


@dataclass
class CardView:
    """A card entry (or a board) on the page: its faces and where it comes from."""

    key: str                    # unique within its deck: the code, or a board's side
    code: str                   # printed card code ("" for a board)
    title: str
    count: int
    front: FaceRef
    back: FaceRef | None        # its own back (a common back is the deck's)
    entry: tuple[str, int]      # deck (or board) file and line of the entry, as messages show them
    template: tuple[str, int]
    back_template: tuple[str, int] | None = None


@dataclass
class DeckView:
    """One deck as the preview shows it."""

    id: str
    name: str
    kind: str                   # cards, tokens or board
    path: str
    size: tuple[float, float]
    cards: list[CardView]
    copies: int                 # physical cards, copies included
    common_back: FaceRef | None = None
    back_template: tuple[str, int] | None = None


@dataclass
class Snapshot:
    """A game drawn once: what the page shows of it and what drawing a face again needs."""

    id: str
    title: str
    bleed: float
    decks: list[DeckView]
    rules: list[Violation]
    rule_count: int
    sources: dict[str, tuple[DeckFaces, Face]] = field(default_factory=dict)   # digest -> drawing
    rendered: int = 0           # faces rendered to make this snapshot (the rest came from the cache)

    def digests(self) -> set[str]:
        return set(self.sources)


class Images:
    """PNG bytes of faces by digest. Thumbnails (trimmed, THUMB_DPI) are kept while some
    snapshot shows them; full-size faces (with bleed, print resolution) are rendered when
    asked for and the last few kept. Not thread-safe: the caller serialises drawing
    (reportlab and pdfium share state)."""

    def __init__(self, thumb_dpi: float = THUMB_DPI, full_dpi: float = FULL_DPI, keep_full: int = 24,
                 workers: int | None = 1):
        self.thumb_dpi = thumb_dpi
        self.full_dpi = full_dpi
        self.keep_full = keep_full
        self.workers = workers      # render processes: None for one per core (only before threads start)
        self.thumbs: dict[str, bytes] = {}
        self.full: OrderedDict[tuple[str, float], bytes] = OrderedDict()
        self.log: list[str] = []    # digests of every thumbnail rendered, in order (for tests and the log)

    def thumb(self, digest: str) -> bytes | None:
        return self.thumbs.get(digest)

    def render_thumbs(self, items: list[tuple[str, DeckFaces, Face]]) -> int:
        """Render the thumbnails not yet cached; returns how many were rendered."""
        todo: dict[str, tuple[DeckFaces, Face]] = {}
        for digest, deck, face in items:
            if digest not in self.thumbs and digest not in todo:
                todo[digest] = (deck, face)
        by_deck: dict[int, list[tuple[str, DeckFaces, Face]]] = {}
        for digest, (deck, face) in todo.items():
            by_deck.setdefault(id(deck), []).append((digest, deck, face))
        for group in by_deck.values():
            deck = group[0][1]
            for (digest, _, _), png in zip(group, self._render(deck, [f for _, _, f in group], 0.0, self._thumb_dpi)):
                self.thumbs[digest] = png
                self.log.append(digest)
        return len(todo)

    def full_face(self, digest: str, deck: DeckFaces, face: Face, bleed: float) -> bytes:
        """The face with the game's bleed at print resolution (boards at BOARD_FULL_DPI)."""
        key = (digest, bleed)
        png = self.full.get(key)
        if png is None:
            png = self._render(deck, [face], bleed, self._full_dpi)[0]
            self.full[key] = png
            while len(self.full) > self.keep_full:
                self.full.popitem(last=False)
        self.full.move_to_end(key)
        return png

    def prune(self, keep: set[str]) -> None:
        """Forget thumbnails no snapshot shows any more."""
        for digest in [d for d in self.thumbs if d not in keep]:
            del self.thumbs[digest]

    def _thumb_dpi(self, deck: DeckFaces, face: Face) -> float:
        if deck.kind == "board":
            return min(self.thumb_dpi, BOARD_THUMB_PX * INCH / max(face.size))
        return self.thumb_dpi

    def _full_dpi(self, deck: DeckFaces, face: Face) -> float:
        return min(self.full_dpi, BOARD_FULL_DPI) if deck.kind == "board" else self.full_dpi

    def _render(self, deck: DeckFaces, faces: list[Face], bleed: float, dpi_of) -> list[bytes]:
        """Faces one to a page (export.faces), then each page to a PNG of exactly its size."""
        out: list[bytes | None] = [None] * len(faces)
        with tempfile.TemporaryDirectory(prefix="pnpgen-preview-") as tmp:
            # one PDF per kind of page: round tokens, hexes and polygons keep transparent corners
            # (drawn clipped to their outline); boards, fewer dots
            batches: dict[tuple[bool, float], list[int]] = {}
            for i, face in enumerate(faces):
                dpi = dpi_of(deck, face)
                batches.setdefault((face.shape == "round" or bool(face.outline), dpi), []).append(i)
            for n, ((alpha, dpi), indices) in enumerate(sorted(batches.items())):
                pdf = Path(tmp) / f"faces-{n}.pdf"
                write_pages(pdf, [faces[i] for i in indices], deck, bleed, deck.name)
                jobs = []
                for page, i in enumerate(indices):
                    w, h = faces[i].size
                    jobs.append((page, (px(w + 2 * bleed, dpi), px(h + 2 * bleed, dpi)), Path(tmp) / f"{n}-{page}.png"))
                render_pages(pdf, jobs, dpi, self.workers, alpha)
                for (page, _, path), i in zip(jobs, indices):
                    out[i] = path.read_bytes()
        return out


def px(mm: float, dpi: float) -> int:
    return max(1, round(mm / INCH * dpi))


def take(game: GameSource, images: Images) -> Snapshot:
    """Draw every face of the game (rendering those the cache lacks) and check its rules.
    Raises InputError for bad input, as a build would."""
    decks = deck_faces(game, Options(), boards=True)
    report = check_game(game)
    entries = _entries(game)
    snap = Snapshot(game.id, game.game.title, game.game.bleed, [], report.violations, report.rules)
    wanted: list[tuple[str, DeckFaces, Face]] = []

    def ref(prints: Fingerprints, deck: DeckFaces, face: Face) -> FaceRef:
        # a polygon's own corners are part of what it prints (its outline clips the picture)
        digest = prints.face(face.body, face.size, f"{face.shape} {face.outline}" if face.outline else face.shape)
        snap.sources.setdefault(digest, (deck, face))
        wanted.append((digest, deck, face))
        return FaceRef(digest, tuple(face.size), face.shape, deck.kind == "board")

    boards = {b.id: b for b in game.boards}
    sources = {d.id: d for d in game.decks}
    for deck in decks:
        prints = Fingerprints(deck.forms, game.root)
        backs = {f.code: f for f in deck.backs}
        if deck.kind == "board":
            board = boards[deck.id]
            b = board.board
            where = (str(board.doc.path), board.doc.line(()) or 1)
            front = deck.fronts[0]
            back = deck.backs[0] if deck.backs else None
            card = CardView("board", "", b.name, 1, ref(prints, deck, front),
                            ref(prints, deck, back) if back else None, where,
                            _template_at(game.templates[b.template]),
                            _template_at(game.templates[b.back]) if b.back else None)
            snap.decks.append(DeckView(deck.id, b.name, "board", str(board.doc.path), tuple(b.size), [card], 1))
            continue
        source = sources[deck.id]
        cards = []
        for front in deck.fronts:
            data = entries.get(front.code)
            back = backs.get(front.code)
            entry = (str(source.cards_path), data.line or 1) if data else (str(source.doc.path), 1)
            back_name = (data.back or (source.deck.back.template if source.deck.back else None)) if data else None
            title = front.title if front.title != front.code or data is None else _summary(data.fields, front.code)
            cards.append(CardView(front.code, front.code, title, front.count, ref(prints, deck, front),
                                  ref(prints, deck, back) if back else None, entry,
                                  _template_at(game.templates[data.template]) if data else entry,
                                  _template_at(game.templates[back_name]) if back and back_name else None))
        common = ref(prints, deck, deck.common_back) if deck.common_back else None
        back_at = _template_at(game.templates[source.deck.back.template]) if common else None
        snap.decks.append(DeckView(deck.id, deck.name, "tokens" if deck.pack else "cards", str(source.doc.path),
                                   tuple(source.size), cards, sum(c.count for c in source.cards), common, back_at))
    snap.rendered = images.render_thumbs(wanted)
    return snap


def _entries(game: GameSource) -> dict:
    """Each card entry by its code."""
    numbers = assign_numbers(game)
    return {code_for(game, numbers[d.id][c.index]): c for d in game.decks for c in d.cards}


def _summary(fields: dict, code: str) -> str:
    """A label for a card with no title or name: its first few plain values."""
    bits = [f"{k} {v}" for k, v in fields.items() if isinstance(v, (str, int, float)) and not isinstance(v, bool)
            and str(v).strip() and "\n" not in str(v)][:3]
    return ", ".join(bits) or code


def _template_at(tpl: TemplateSource) -> tuple[str, int]:
    return str(tpl.doc.path), tpl.doc.line(()) or 1


def print_findings(game: GameSource) -> list:
    """What `pnpgen check` finds in print for the game (text too small or faint, colour as the
    only cue, text in the cut zone or the printer's margin...), each a printcheck.Finding."""
    from ..build.printing import printing
    from ..printcheck import check_faces
    plan = plan_game(game, Options())
    return check_faces(plan, printing(plan))


def layout_warnings(game: GameSource) -> list[Notice]:
    """What a build of the game warns about while drawing (text cut short to fit, characters
    no font has, text boxes in the cut's margin of error): the layouters' own warnings,
    gathered the way the build gathers them, every copy of every card laid out."""
    plan = plan_game(game, Options())
    out, seen = [], set()
    for deck_plan in plan.decks:
        deck, layouter, cards = deck_plan.source, deck_plan.layouter, deck_plan.cards
        for card in cards:
            layouter.layout(card, card.front)
            if card.back and (card.unique_back or deck.deck.pack):
                layouter.layout(card if card.unique_back else None, card.back)
        if deck.deck.back and not deck.deck.back.per_card:
            layouter.layout(None, deck.deck.back.template)
        out += layouter.warnings
    for board in plan.boards:
        for name in board.sides:
            board.layouter.layout(board.card, name)
        out += board.layouter.warnings
    unique = []
    for notice in out:
        if str(notice) not in seen:
            seen.add(str(notice))
            unique.append(notice)
    return unique
