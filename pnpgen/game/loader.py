"""Load and validate a game folder: game.yaml, its decks and the templates they use.

Everything that can be checked without drawing is checked here, so that a build either
fails before writing anything or runs to the end."""

from __future__ import annotations

import io
import os
from array import array
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from ..sources import validation, yamlsrc
from . import reread
from ..sources.confine import Refused, inside, near_miss
from ..errors import InputError, Problem, did_you_mean
from .models import MAX_CARDS, MAX_COUNT, RESERVED, Board, Deck, FieldSpec, Game, Template


@dataclass(slots=True)
class CardData:
    """One card entry of a deck file, validated, with defaults filled in."""

    index: int            # position in the deck file
    line: int | None      # line of the entry in the deck file
    fields: dict          # field values (declared fields only)
    count: int
    template: str
    back: str | None      # a back template for this card alone
    number: int | None    # pinned code number
    own_template: bool = True  # the card names its template (else the deck's applies)


class CardTable(Sequence):
    """A deck file's card entries, kept column by column: a list of values per field and an
    array per setting. Indexing gives a CardData, made afresh. A 20,000-card deck takes about
    60 bytes a card here plus its distinct values, against 340 as one CardData and dict each;
    repeated text is kept once by the YAML loader (yamlsrc), so columns mostly hold pointers."""

    def __init__(self, names):
        self.names = tuple(names)                  # the deck's declared fields, in order
        self.values = [[] for _ in self.names]     # one column per field
        self.lines = array("l")                    # 0: no line
        self.counts = array("l")
        self.numbers = array("l")                  # 0: no pinned number
        self.templates: list[str] = []             # (the same few names, shared)
        self.backs: list[str | None] = []
        self.own = bytearray()                     # the card names its own template

    def append(self, card: CardData) -> None:
        if card.index != len(self.counts) or tuple(card.fields) != self.names:
            raise ValueError("cards are appended in deck order, with the deck's fields")
        self.add(card.fields.values(), card.line, card.count, card.template, card.back, card.number,
                 card.own_template)

    def add(self, values, line: int | None, count: int, template: str, back: str | None, number: int | None,
            own: bool) -> None:
        """The next card entry, its field `values` in the order of the deck's fields."""
        for column, value in zip(self.values, values):
            column.append(value)
        self.lines.append(line or 0)
        self.counts.append(count)
        self.numbers.append(number or 0)
        self.templates.append(template)
        self.backs.append(back)
        self.own.append(own)

    def __len__(self) -> int:
        return len(self.counts)

    def template_names(self) -> set[str]:
        """Every template its cards name, fronts and their own backs."""
        return set(self.templates) | set(filter(None, self.backs))

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("card index out of range")
        return self.row(i)

    def row(self, i: int) -> CardData:
        """Entry `i` (0 <= i < len), made afresh."""
        return CardData(i, self.lines[i] or None, {n: col[i] for n, col in zip(self.names, self.values)},
                        self.counts[i], self.templates[i], self.backs[i], self.numbers[i] or None, bool(self.own[i]))


@dataclass
class DeckSource:
    """A deck file as loaded: its id, path, parsed document and model."""

    id: str
    path: Path
    doc: yamlsrc.Doc
    deck: Deck
    size: tuple[float, float]
    cards: CardTable
    sheet_path: Path | None = None   # the card sheet its cards were read from (links followed)
    sheet_shown: str | None = None   # that card sheet, as messages show it

    kind: ClassVar[str] = "deck"

    @property
    def name(self) -> str:
        return self.deck.name

    @property
    def safe(self) -> float | None:
        """The deck's own safe-zone inset, mm (None: the game's)."""
        return self.deck.safe

    @property
    def field_names(self) -> Collection[str]:
        """The fields its templates may use beside the built-in names."""
        return self.deck.fields

    @property
    def cards_path(self) -> Path:
        """The file its cards are written in, as messages show it: a card's `line` is a line of
        it, or (in a card sheet) a row."""
        return Path(self.sheet_shown) if self.sheet_shown else self.doc.path


@dataclass
class TemplateSource:
    """A template file as loaded: its name, parsed document and model."""

    name: str
    path: Path
    doc: yamlsrc.Doc
    template: Template


@dataclass
class BoardSource:
    """A board file as loaded: its id, parsed document and model. Its one face is drawn from
    its own fields (plus a generated map's), laid out like a card's."""

    id: str
    path: Path
    doc: yamlsrc.Doc
    board: Board
    kind: ClassVar[str] = "board"
    safe: ClassVar[None] = None     # (a board has no safe zone of its own: the game's)

    @property
    def name(self) -> str:
        return self.board.name

    @property
    def size(self) -> tuple[float, float]:
        return self.board.size

    @property
    def field_names(self) -> Collection[str]:
        """Its `fields`, and the names a generated map adds (the map's field, seed, players)."""
        gen = self.board.hexmap
        return {**self.board.fields, **(dict.fromkeys((gen.field, "seed", "players")) if gen else {})}

    @property
    def cards_path(self) -> Path:
        """The file its face's fields are written in: the board file."""
        return self.doc.path


@dataclass
class GameSource:
    """A whole game as loaded: game.yaml, decks, boards, templates and rules."""

    id: str
    root: Path
    doc: yamlsrc.Doc
    game: Game
    decks: list[DeckSource] = field(default_factory=list)
    boards: list[BoardSource] = field(default_factory=list)
    templates: dict[str, TemplateSource] = field(default_factory=dict)

    def rel(self, path: Path) -> str:
        """A path as shown in messages: relative to the working directory when possible."""
        return _shown(path)


def _shown(path: Path) -> str:
    """`path` as written (links not followed), relative to the working folder when inside it."""
    here = Path.cwd()
    try:
        return str(Path(os.path.abspath(path)).relative_to(here))
    except ValueError:
        pass
    try:
        return str(path.resolve().relative_to(here.resolve()))
    except (ValueError, OSError, RuntimeError):
        return str(path)


OWN_FILES = ("game.yaml", "rules.yaml", "rulebook.md")
"""The files a game folder holds by these names (each read by its own stage), confined when
the game is loaded."""


def is_plain_name(name: str) -> bool:
    """Whether `name` can name a game (its folder under cards/, and out/<game>/) or a deck or
    board (out/<game>/<deck>.pdf): one plain name, no path, not '.' or '..'."""
    return (isinstance(name, str) and name not in ("", ".", "..") and "\0" not in name
            and "/" not in name and "\\" not in name and len(name.encode("utf-8", "replace")) <= 255)


def discover(cards_dir: Path) -> list[str]:
    """Game ids: the folders under cards/ that hold a game.yaml, by name."""
    if not cards_dir.is_dir():
        return []
    return sorted(p.name for p in cards_dir.iterdir() if (p / "game.yaml").is_file())


def load_game(cards_dir: Path, templates_dir: Path, game_id: str, kept: reread.Kept | None = None) -> GameSource:
    """The game `game_id` of `cards_dir`, read and checked; with `kept`, a long deck file is
    read again in part after an edit, from the memo its last reading left (game/reread.py)."""
    src = _read_game(cards_dir, game_id)
    problems: list[Problem] = []
    _load_decks_and_boards(src, problems, kept)
    if problems:
        raise InputError(problems)
    # the templates the decks and boards name, found in templates/<game>/ then templates/shared/
    _load_templates(src, [templates_dir / game_id, templates_dir / "shared"], problems)
    if problems:
        raise InputError(problems)
    problems += _size_mismatches(src) + _unpacked_outlines(src)
    if problems:
        raise InputError(problems)
    return src


def deck_files(cards_dir: Path, game_id: str) -> tuple[GameSource, list[Path]]:
    """A game's game.yaml, read, and its deck files, found but not read (for `pnpgen pull`,
    which runs before a deck's card sheet is there)."""
    src, problems = _read_game(cards_dir, game_id), []
    paths = _deck_paths(src, problems)
    if problems:
        raise InputError(problems)
    return src, paths


def _read_game(cards_dir: Path, game_id: str) -> GameSource:
    """The game's game.yaml, read and validated (its decks, boards and templates still to load)."""
    if not is_plain_name(game_id):
        raise InputError.at(_shown(cards_dir), None, f"'{game_id}' is not a game's name: a game is named by its "
                            f"folder under {cards_dir.name}/ (e.g. swarm), without any path")
    root = cards_dir / game_id
    gpath = root / "game.yaml"
    for own in OWN_FILES:
        try:
            inside(root, own)
        except Refused as exc:
            raise InputError.at(_shown(root / own), None, str(exc)) from None
    if not gpath.is_file():
        known = discover(cards_dir)
        raise InputError.at(_shown(cards_dir), None,
                            f"no game '{game_id}' (no {game_id}/game.yaml){did_you_mean(game_id, known)}")
    doc = yamlsrc.load(gpath, _shown(gpath))
    if not isinstance(doc.data, dict):
        raise doc.error((), "game.yaml should be a mapping of settings (title:, code:, ...)")
    game = validation.validate(Game, doc)
    return GameSource(game_id, root, doc, game)


def _load_decks_and_boards(src: GameSource, problems: list[Problem], kept: reread.Kept | None = None) -> None:
    """Every deck and board file of the game into `src`; what is wrong with them into `problems`."""
    for path in _deck_paths(src, problems):
        try:
            src.decks.append(_load_deck(src, path, kept))
        except InputError as exc:
            problems += exc.problems
    if kept is not None:
        kept.prune()
    for path in _file_paths(src, "boards", problems, required=False):
        try:
            doc = yamlsrc.load(path, _shown(path))
            if not isinstance(doc.data, dict):
                raise doc.error((), "a board file should be a mapping with name:, size: and template:")
            src.boards.append(BoardSource(path.stem, path, doc, validation.validate(Board, doc)))
        except InputError as exc:
            problems += exc.problems


def _wanted_templates(src: GameSource) -> dict[str, tuple[DeckSource | BoardSource, int | None]]:
    """Each template name the decks and boards use -> where it is first named (the file, the
    line), read off the card tables' columns."""
    wanted: dict[str, tuple[DeckSource | BoardSource, int | None]] = {}
    for deck in src.decks:
        cards, deck_line = deck.cards, deck.doc.line(("template",))
        for template, own, line, back in zip(cards.templates, cards.own, cards.lines, cards.backs):
            if template not in wanted:
                # a deck-wide template is reported at the deck's `template:` line, where it is written
                wanted[template] = (deck, (line or None) if own else deck_line)
            if back and back not in wanted:
                wanted[back] = (deck, line or None)
        if deck.deck.back:
            wanted.setdefault(deck.deck.back.template, (deck, deck.doc.line(("back", "template"))))
    for board in src.boards:
        for key in ("template", "back"):
            name = getattr(board.board, key)
            if name:
                wanted.setdefault(name, (board, board.doc.line((key,))))
    return wanted


def _load_templates(src: GameSource, template_dirs: list[Path], problems: list[Problem]) -> None:
    """The templates the game uses into `src`, each from the first of `template_dirs` that has
    it; an unknown or broken one into `problems`."""
    wanted = _wanted_templates(src)
    available, folders = {}, {}
    for tdir in reversed(template_dirs):
        if tdir.is_dir():
            for p in sorted(tdir.glob("*.yaml")):
                available[p.stem], folders[p.stem] = p, tdir
    for name in sorted(wanted):
        if name not in available:
            deck, line = wanted[name]
            problems.append(Problem(_shown(deck.path), line,
                                    f"unknown template '{name}'{did_you_mean(name, available)}; templates live in "
                                    f"{_shown(template_dirs[0])}/ or {_shown(template_dirs[1])}/"))
            continue
        try:
            inside(folders[name], available[name].relative_to(folders[name]), folder="templates folder")
            src.templates[name] = _load_template(name, available[name])
        except Refused as exc:
            problems.append(Problem(_shown(available[name]), None, str(exc)))
        except InputError as exc:
            problems += exc.problems


def _size_mismatches(src: GameSource) -> list[Problem]:
    """A template made for another card size than the deck using it (packed decks may mix)."""
    problems = []
    for deck in src.decks:
        for name in sorted(deck.cards.template_names() | ({deck.deck.back.template} if deck.deck.back else set())):
            tpl = src.templates[name]
            if tpl.template.size and _differs(tpl.template.size, deck.size) and not deck.deck.pack:
                problems.append(Problem(_shown(tpl.path), tpl.doc.line(("size",)),
                                        f"template is for {tpl.template.size[0]:g} x {tpl.template.size[1]:g} mm "
                                        f"cards but deck '{deck.id}' has {deck.size[0]:g} x {deck.size[1]:g} mm"))
    return problems


def _unpacked_outlines(src: GameSource) -> list[Problem]:
    """A hexagon or polygon on a deck of grid-imposed cards: only packed decks cut along outlines."""
    problems = []
    for deck in src.decks:
        for name in sorted(set(deck.cards.templates)):
            tpl = src.templates[name]
            if tpl.template.outline() and not deck.deck.pack:
                problems.append(Problem(_shown(deck.path), deck.doc.line(("pack",)),
                                        f"template '{name}' is shape: {tpl.template.shape}, but deck '{deck.id}' "
                                        "is imposed in a grid of rectangles; add pack: true to the deck to pack "
                                        "and cut it along its outline"))
    return problems


def _differs(a, b):
    return abs(a[0] - b[0]) > 0.01 or abs(a[1] - b[1]) > 0.01


def _deck_paths(src: GameSource, problems) -> list[Path]:
    return _file_paths(src, "decks", problems, required=True)


def _file_paths(src: GameSource, kind: str, problems, required: bool) -> list[Path]:
    """The game's deck or board files: as listed in game.yaml, or <kind>/*.yaml by name."""
    listed = getattr(src.game, kind)
    if listed is None:
        paths = _found(src.root, sorted((src.root / kind).glob("*.yaml")), problems)
        if not paths and required:
            problems.append(Problem(_shown(src.doc.path), None,
                                    f"the game has no {kind}: add {kind}/<name>.yaml or list them under {kind}:"))
        return paths
    out = []
    for i, rel in enumerate(listed):
        try:
            path = confined(src.root, rel)
        except ValueError as exc:
            problems.append(Problem(src.doc.path, src.doc.line((kind, i)), str(exc)))
            continue
        what = kind[:-1]
        if not path.is_file():
            problems.append(Problem(src.doc.path, src.doc.line((kind, i)),
                                    f"{what} file '{rel}' not found{near_miss(src.root, rel)}"))
            continue
        if not is_plain_name(path.stem):
            problems.append(Problem(src.doc.path, src.doc.line((kind, i)), f"{what} file '{rel}' has no name "
                                    f"before .yaml; rename it (its name names its output)"))
            continue
        if any(p.stem == path.stem for p in out):
            problems.append(Problem(src.doc.path, src.doc.line((kind, i)),
                                    f"a {what} named '{path.stem}' is already listed; {what} file names must differ"))
            continue
        out.append(path)
    return out


def _found(root: Path, paths: list[Path], problems: list[Problem]) -> list[Path]:
    """The files a glob found in `root` that are confined to it; each other one into `problems`."""
    kept = []
    for path in paths:
        try:
            confined(root, path.relative_to(root))
        except ValueError as exc:
            problems.append(Problem(_shown(path), None, f"{exc} (found by its name in {path.parent.name}/)"))
            continue
        if not is_plain_name(path.stem):
            problems.append(Problem(_shown(path), None, "this file has no name before .yaml; rename it "
                                    "(its name names its output)"))
            continue
        kept.append(path)
    return kept


def confined(root: Path, rel: str, max_bytes: int | None = None) -> Path:
    """`rel` resolved inside `root` (links followed); anything that escapes the game folder, a
    loop of links, or something there that is not a regular file (of at most `max_bytes`) is
    refused with a ValueError that says so (pnpgen.sources.confine)."""
    return inside(root, rel, max_bytes)


def _load_deck(src: GameSource, path: Path, kept: reread.Kept | None = None) -> DeckSource:
    shown = _shown(path)
    data = _long_file(path) if kept is not None else None
    if data is not None:
        try:
            again = _read_again(src, path, shown, kept, data)
        except (TypeError, ValueError, LookupError, AttributeError):
            again = None    # (a memo that passed its digest yet holds what no build keeps: a hand edit)
        if again is not None:
            return again
    entries = _Entries()
    stream = yamlsrc.Stream("cards", entries.take, spans=yamlsrc.Spans() if data is not None else None)
    if data is None:
        doc = yamlsrc.load(path, shown, stream)      # the cards checked as they are read
    else:
        doc = yamlsrc.loads(io.BytesIO(data), shown, stream)
    if not isinstance(doc.data, dict):
        raise doc.error((), "a deck file should be a mapping with name:, template:, fields: and cards:")
    if stream.count is None or stream.late or not entries.ok:
        stream.spans = None
        # not a deck file whose cards are listed last, each a mapping: read it again, whole
        doc = yamlsrc.load(path, shown)
        raw = doc.data.get("cards")
        entries = _Entries()
        if isinstance(raw, list) and all(isinstance(c, dict) for c in raw):
            # validated without its cards, which are checked one by one (no pydantic copy of each)
            entries.start(doc, validation.validate(Deck, doc, {**doc.data, "cards": [{}]}))
        else:
            deck = validation.validate(Deck, doc)   # (its errors say what is wrong with the cards: list)
            if isinstance(deck.cards, str):
                return _sheet_deck(src, path, doc, deck)
            entries.start(doc, deck)
            raw = deck.cards
        for i, item in enumerate(raw):
            raw[i] = None     # from here each entry lives on only as its row of the table
            entries.take(doc, i, item, None)
    doc.data = None
    deck, cards, problems = entries.deck, entries.cards, entries.problems
    if entries.total > MAX_CARDS:
        problems.append(Problem(doc.path, doc.line(("cards",)),
                                f"the deck holds {entries.total} cards; the limit is {MAX_CARDS} per deck"))
    if problems:
        raise InputError(problems)
    # from here on only the lines of entries (kept in an array) and of pinned numbers are
    # asked for: drop what is left of the others (a list field's items)
    doc.lines = {loc: line for loc, line in doc.lines.items()
                 if len(loc) <= 2 or loc[0] != "cards" or loc[-1] == "number"}
    if stream.spans is not None:
        _keep(kept, path, data, stream.spans, entries, doc)
    deck = deck.model_copy(update={"cards": []})
    return DeckSource(path.stem, path, doc, deck, deck.card_size or src.game.card_size, cards)


def _long_file(path: Path) -> bytes | None:
    """The bytes of a deck file long enough to keep a memo of (game/reread.py), or None."""
    try:
        size = path.stat().st_size
        return path.read_bytes() if reread.MIN_BYTES <= size <= yamlsrc.MAX_FILE_BYTES else None
    except OSError:
        return None         # (read again the ordinary way, which says what is wrong)


def _keep(kept: reread.Kept, path: Path, data: bytes, spans: yamlsrc.Spans, entries: _Entries, doc) -> None:
    """Keep a memo of a deck file read whole, when it is one reread can read again in part:
    its cards a block list of plain entries, no anchor, alias, merge or directive (%), and
    only \\n or \\r\\n line breaks."""
    if not spans.plain or spans.column < 0 or not spans.starts or entries.head is None:
        return
    found = reread.starts_at(data, spans.starts, spans.column)
    if found is None or data.startswith(b"%") or b"\n%" in data[:found[1][0]] or not reread.plain_breaks(data):
        return
    kept.keep(path, _memo(data, spans.column, found[0], found[1], spans.sizes, spans.nodes, entries, doc))


def _memo(data: bytes, column: int, starts, offsets, sizes, nodes: int, entries: _Entries, doc) -> reread.Memo:
    """A memo of a deck file as loaded (`doc` and `entries` as _load_deck leaves them)."""
    cards = entries.cards
    header, deep = [], []
    for loc, line in doc.lines.items():
        if len(loc) >= 2 and loc[0] == "cards" and isinstance(loc[1], int):
            deep.append((loc[1], loc[2:], line))
        else:
            header.append((loc, line))
    return reread.Memo(data, entries.head, header, column, nodes, cards.values, cards.templates, cards.backs,
                       bytes(cards.own), deep, array("l", starts), array("l", offsets), array("l", sizes),
                       cards.lines, cards.counts, cards.numbers, doc.rows["cards"])


def _read_again(src: GameSource, path: Path, shown, kept: reread.Kept, data: bytes) -> DeckSource | None:
    """The deck file at `path` (now `data`) read again in part from its memo, or None: read it whole."""
    memo = kept.recall(path)
    edit = reread.find_edit(memo, data) if memo is not None else None
    if edit is None:
        return None
    fresh = reread.parse(memo, edit, shown) if edit.fragment is not None else reread.Fresh([], [], [], [], {})
    if fresh is None:
        return None
    first, last = edit.first, edit.last
    nodes = memo.nodes - sum(memo.sizes[first:last + 1]) + sum(fresh.sizes)
    if nodes > yamlsrc.MAX_NODES:
        return None
    doc = yamlsrc.Doc(Path(str(shown)), None, dict(memo.header))
    entries = _Entries()
    try:
        entries.start(doc, validation.validate(Deck, doc, {**memo.head, "cards": [{}]}))
    except InputError:
        return None
    if len(memo.values) != len(entries.cards.values):
        return None
    entries.head = memo.head
    _take_kept(entries, doc, memo, 0, first, 0, 0)
    by_entry: dict[int, dict] = {}
    for loc, line in fresh.lines.items():
        by_entry.setdefault(loc[1], {})[("cards", first + loc[1], *loc[2:])] = line
    for j, item in enumerate(fresh.items):
        doc.lines.update(by_entry.get(j, {}))
        entries.take(doc, first + j, item, None)
    if entries.problems or not entries.ok:
        return None
    _take_kept(entries, doc, memo, last + 1, len(memo.starts), len(fresh.items) - (last + 1 - first), edit.lines)
    if entries.total > MAX_CARDS:
        return None
    doc.lines = {loc: line for loc, line in doc.lines.items()
                 if len(loc) <= 2 or loc[0] != "cards" or loc[-1] == "number"}
    if edit.fragment is not None:
        _keep_edited(kept, path, data, memo, edit, fresh, nodes, entries, doc)
    deck = entries.deck.model_copy(update={"cards": []})
    return DeckSource(path.stem, path, doc, deck, deck.card_size or src.game.card_size, entries.cards)


def _keep_edited(kept: reread.Kept, path: Path, data: bytes, memo: reread.Memo, edit: reread.Edit,
                 fresh: reread.Fresh, nodes: int, entries: _Entries, doc) -> None:
    """Keep the memo of the deck file read again in part: the old one's entries before and
    after the edit (those after moved), the fragment's between."""
    first, after = edit.first, edit.last + 1
    starts = memo.starts[:first] + array("l", fresh.starts) + array("l", (s + edit.lines for s in memo.starts[after:]))
    offsets = memo.offsets[:first] + array("l", fresh.offsets) + array(
        "l", (o + edit.shift for o in memo.offsets[after:]))
    sizes = memo.sizes[:first] + array("l", fresh.sizes) + memo.sizes[after:]
    kept.keep(path, _memo(data, memo.column, starts, offsets, sizes, nodes, entries, doc))


def _take_kept(entries: _Entries, doc, memo: reread.Memo, lo: int, hi: int, moved: int, lines: int) -> None:
    """The memo's entries `lo` to `hi` (not included) onto the card table, each `moved` places
    and its lines `lines` lines on from where the memo has them."""
    cards = entries.cards
    for column, values in zip(cards.values, memo.values):
        column.extend(values[lo:hi])
    rows, own_lines = memo.rows[lo:hi], memo.lines[lo:hi]
    if lines:
        own_lines = array("l", (line + lines if row else line for line, row in zip(own_lines, rows)))
        rows = array("l", (row + lines if row else 0 for row in rows))
    counts = memo.counts[lo:hi]
    cards.lines.extend(own_lines)
    cards.counts.extend(counts)
    cards.numbers.extend(memo.numbers[lo:hi])
    cards.templates.extend(memo.templates[lo:hi])
    cards.backs.extend(memo.backs[lo:hi])
    cards.own.extend(memo.own[lo:hi])
    doc.rows["cards"].extend(rows)
    entries.total += sum(counts)
    for i, rest, line in memo.deep:
        if lo <= i < hi:
            doc.lines[("cards", i + moved, *rest)] = line + lines


def _sheet_deck(src: GameSource, path: Path, doc: yamlsrc.Doc, deck: Deck) -> DeckSource:
    """A deck whose `cards:` names a card sheet: its cards read from that sheet."""
    from ..sources import spreadsheet           # (only now: a deck of YAML cards needs no sheet reader)
    from .sheet_cards import SheetCards
    try:
        real = confined(src.root, deck.cards, spreadsheet.MAX_FILE_BYTES)
    except ValueError as exc:
        raise doc.error(("cards",), f"cards: {exc}") from None
    if not real.is_file():
        hint = f"; `pnpgen pull {src.id}` fetches it from source:" if deck.source else ""
        raise doc.error(("cards",), f"cards: card sheet '{deck.cards}' not found (paths are relative to "
                                    f"the game folder){hint}")
    shown = _shown(src.root / deck.cards)
    reader = SheetCards(deck, spreadsheet.read(real, shown, deck.sheet))
    cards, total = CardTable(deck.fields), 0
    for line, values, count, template, back, number, own in reader.entries():
        total += count
        if not reader.problems:
            cards.append(CardData(len(cards), line, values, count, template, back, number, own))
    problems = reader.problems
    if not problems and not len(cards):
        problems.append(Problem(shown, None, "no cards: every row under the first is empty"))
    if total > MAX_CARDS:
        problems.append(Problem(shown, None, f"the deck holds {total} cards; the limit is {MAX_CARDS} per deck"))
    if problems:
        raise InputError(problems)
    doc.data = None
    deck = deck.model_copy(update={"cards": []})
    return DeckSource(path.stem, path, doc, deck, deck.card_size or src.game.card_size, cards, real, shown)


class _Entries:
    """A deck file's card entries, checked one by one into a CardTable: as the YAML parser
    reads them (take, given to yamlsrc.Stream), or after a file was read whole."""

    def __init__(self):
        self.deck: Deck | None = None
        self.cards: CardTable | None = None
        self.problems: list[Problem] = []
        self.total = 0         # cards, counting copies
        self.ok = False        # every entry so far could be taken as it was read
        self.checks: _Checks | None = None
        self.lines_left = -1   # how many lines the document kept after the last entry taken
        self.head: dict | None = None   # the deck's settings written before its cards (as take had them)

    def start(self, doc, deck: Deck) -> None:
        self.deck, self.cards, self.ok, self.checks = deck, CardTable(deck.fields), True, _Checks(deck)
        doc.rows["cards"] = array("l")     # each entry's line (0: on its list's line)

    def take(self, doc, i: int, raw, head: dict | None) -> None:
        if self.deck is None:
            if i or not isinstance(raw, dict):
                return
            try:    # the deck's settings, as far as they are written before its cards
                self.start(doc, validation.validate(Deck, doc, {**head, "cards": [{}]}))
            except InputError:
                return          # (read again whole, for the errors a whole read gives)
            self.head = dict(head)
        if not self.ok:
            return
        if not isinstance(raw, dict):
            self.ok = False
            return
        lines = doc.lines
        try:
            row = _card(self.deck, doc, i, raw, self.checks)
        except InputError as exc:
            self.problems += exc.problems
        else:
            self.total += row[2]
            if not self.problems:      # (with a problem the deck is refused: no need to keep the rest)
                self.cards.add(*row)
        doc.rows["cards"].append(lines.pop(("cards", i), 0))
        if len(lines) != self.lines_left:   # (an entry on one line has no line of its own left)
            for key in raw:      # only the line of the entry, and of a pinned number, is asked for from here on
                if key != "number":
                    lines.pop(("cards", i, key), None)
            self.lines_left = len(lines)


_TYPES = {
    "text": (str,), "int": (int,), "number": (int, float), "bool": (bool,), "list": (list,),
}


_EXACT = {"text": {str}, "int": {int}, "number": {int, float}, "bool": {bool}, "list": {list}}
"""The types of value each field type takes without a closer look (`_check_value` looks at any other)."""
_ABSENT = object()


class _Checks:
    """What a deck's card entries are checked against, worked out once for the deck: the keys
    an entry may have, and each field with the types it takes as they are."""

    def __init__(self, deck: Deck):
        self.allowed = set(deck.fields) | set(RESERVED)
        self.fields = [(name, spec, _EXACT[spec.type] if spec.choices is None else (), spec.type == "text")
                       for name, spec in deck.fields.items()]


def _card(deck: Deck, doc, i, raw, checks: _Checks | None = None) -> tuple:
    """A card entry checked, as CardTable.add takes it: (its field values, line, count,
    template, back, pinned number, whether it names its own template)."""
    checks = checks or _Checks(deck)
    problems: list[tuple] = []      # (key or None, message)
    if not raw.keys() <= checks.allowed:
        for key in raw:
            if key not in checks.allowed:
                problems.append((key, f"cards[{i}]: unknown field '{key}'{did_you_mean(key, checks.allowed)}; "
                                      "declare it under fields: at the top of the deck"))
    values = []
    for name, spec, exact, text in checks.fields:
        value = raw.get(name, _ABSENT)
        if value is _ABSENT:
            if spec.required:
                problems.append((None, f"cards[{i}]: required field '{name}' is missing"))
            else:
                values.append(spec.default)
            continue
        if value.__class__ not in exact or text and len(value) > 5000:
            message = _check_value(name, value, spec)
            if message:
                problems.append((name, f"cards[{i}].{name}: {message}"))
        values.append(value)
    count, template, back, number = (raw.get("count", 1), raw.get("template", deck.template), raw.get("back"),
                                     raw.get("number"))
    if count.__class__ is not int or not 0 <= count <= MAX_COUNT:
        problems += _settings(i, count, template, back, number)
    elif template.__class__ is not str or back is not None or number is not None:
        problems += _settings(i, count, template, back, number)
    loc = ("cards", i)
    if problems:
        raise InputError([Problem(doc.path, doc.line(loc + ((key,) if key else ())), message)
                          for key, message in problems])
    return values, doc.lines.get(loc) or doc.line(loc), count, template, back, number, "template" in raw


def _settings(i: int, count, template, back, number) -> list[tuple]:
    """What is wrong with a card entry's count, template, back and number: (key or None, message)."""
    problems = []
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
        problems.append(("count", f"cards[{i}].count: expected a whole number from 0 to {MAX_COUNT}, got {count!r}"))
    if template is None:
        problems.append((None, f"cards[{i}]: no template; set template: on the card or on the deck"))
    elif not isinstance(template, str):
        problems.append(("template", f"cards[{i}].template: expected a template name"))
    if back is not None and not isinstance(back, str):
        problems.append(("back", f"cards[{i}].back: expected a template name"))
    if number is not None and (isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 99999):
        problems.append(("number", f"cards[{i}].number: expected a whole number from 1 to 99999"))
    return problems


def _check_value(name: str, value, spec: FieldSpec) -> str | None:
    if value is None:
        return "is empty; give a value or remove the key" if spec.required else None
    types = _TYPES[spec.type]
    if isinstance(value, bool) and spec.type != "bool" or not isinstance(value, types):
        return f"expected {spec.type}, got {value!r}"
    if spec.type == "text" and len(value) > 5000:
        return "text is longer than 5000 characters"
    if spec.choices is not None and value not in spec.choices:
        return f"{value!r} is not one of the allowed values{did_you_mean(value, spec.choices)}"
    return None


def _load_template(name: str, path: Path) -> TemplateSource:
    doc = yamlsrc.load(path, _shown(path))
    if not isinstance(doc.data, dict):
        raise doc.error((), "a template should be a mapping with elements:")
    return TemplateSource(name, path, doc, validation.validate(Template, doc))
