"""A deck file read into its card table: each card entry checked as the YAML parser reaches
it (a 20,000-card deck is never 20,000 raw mappings), the file read whole when it must be (its
cards not last, or not a list of mappings), a deck whose `cards:` names a card sheet read from
that sheet, and a long file read again in part after an edit (reread.py)."""

from __future__ import annotations

import io
from array import array
from pathlib import Path
from typing import Protocol

from ..errors import InputError, Problem, did_you_mean
from ..files import as_written
from ..sources import validation, yamlsrc
from ..sources.confine import inside
from . import reread
from .cards import CardData, CardTable, DeckSource
from .models import MAX_CARDS, MAX_COUNT, RESERVED, Deck, FieldSpec, Game


class GameSource(Protocol):
    """What reading a deck needs of the game it belongs to (loader.GameSource is one): its
    folder, its name and its game.yaml (for the card size)."""

    root: Path
    id: str
    game: Game


def load_deck(src: GameSource, path: Path, kept: reread.Kept | None = None) -> DeckSource:
    """The deck file at `path` of the game `src`, its card entries checked into a card table:
    as the YAML parser reaches them, whole when it must be, or (with `kept`, for a long file)
    again in part from the memo its last reading left."""
    shown = as_written(path)
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
    _keep_entry_lines(doc)
    if stream.spans is not None:
        _keep(kept, path, data, stream.spans, entries, doc)
    return _deck_source(src, path, doc, deck, cards)


def _keep_entry_lines(doc: yamlsrc.Doc) -> None:
    """From here on only the lines of entries (kept in an array) and of pinned numbers are
    asked for: drop what is left of the others (a list field's items)."""
    doc.lines = {loc: line for loc, line in doc.lines.items()
                 if len(loc) <= 2 or loc[0] != "cards" or loc[-1] == "number"}


def _deck_source(src: GameSource, path: Path, doc: yamlsrc.Doc, deck: Deck, cards: CardTable) -> DeckSource:
    """The deck file as loaded, its model without the entries (they live on in `cards`)."""
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
    _keep_entry_lines(doc)
    if edit.fragment is not None:
        _keep_edited(kept, path, data, memo, edit, fresh, nodes, entries, doc)
    return _deck_source(src, path, doc, entries.deck, entries.cards)


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
        real = inside(src.root, deck.cards, spreadsheet.MAX_FILE_BYTES)
    except ValueError as exc:
        raise doc.error(("cards",), f"cards: {exc}") from None
    if not real.is_file():
        hint = f"; `pnpgen pull {src.id}` fetches it from source:" if deck.source else ""
        raise doc.error(("cards",), f"cards: card sheet '{deck.cards}' not found (paths are relative to "
                                    f"the game folder){hint}")
    shown = as_written(src.root / deck.cards)
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
