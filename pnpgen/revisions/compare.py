"""Which cards print differently now than at an earlier revision. Cards are compared by what
they draw (pnpgen.fingerprint), never by their YAML, so a reworded field or a reordered key
that prints the same is no change, and a touched-up image file is one.

Matching a card at the revision with the card it became: a card's code is its number in the
game (SWM-017), so inserting one card renumbers every card after it. A designer who inserted
one card expects to hear "one card added", not "every later card changed", so cards are
paired in this order, each step only among the cards not yet paired:

1. same code, same title, same print (untouched cards);
2. same title, same print apart from the printed code (moved: "renumbered");
3. same code, same title (edited in place);
4. same title (edited and moved);
5. same code (retitled in place);

what is left is removed (at the revision) or added (now). Where a title is shared by several
cards, they pair in deck order. A renumbered card prints its new code, so it is listed, but
it is not reprinted unless asked: its picture, text and back are what the playtester holds."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Callable

from ..export.faces import DeckFaces, Face, deck_faces
from ..layout.fingerprint import Fingerprints
from ..game.loader import GameSource
from .built import PrintedFace
from .revision import Revision
from .side import Side

KINDS = ("changed", "added", "removed", "copies", "renumbered")
"""What happened to a card: it prints differently, it is new, it is gone, only its number of
copies changed, or only its code changed (it moved)."""


@dataclass
class Drawn:
    """A face with what it takes to draw it again (its deck's forms and images) and the
    digest of what it prints."""

    face: Face
    deck: DeckFaces
    bleed: float          # the game's bleed, mm: faces may be drawn with up to this much
    digest: str


@dataclass
class Change:
    """One card (or a deck's common back, or a board) that prints differently."""

    kind: str                     # one of KINDS
    deck: str                     # deck or board id
    code: str                     # its code now (at the revision, for a removed card); "back": a common back
    title: str
    old_code: str | None = None   # its code at the revision, when that differs
    old_title: str | None = None  # its title at the revision, when that differs
    sides: tuple[str, ...] = ()   # the faces that print differently: "front", "back"
    copies: tuple[int, int] = (0, 0)    # (at the revision, now)
    before: dict[str, Drawn] = field(default_factory=dict)   # side -> face at the revision
    after: dict[str, Drawn] = field(default_factory=dict)    # side -> face now
    board: bool = False

    def as_dict(self) -> dict:
        return {"kind": self.kind, "deck": self.deck, "code": self.code, "title": self.title,
                "old_code": self.old_code, "old_title": self.old_title, "sides": list(self.sides),
                "copies": {"before": self.copies[0], "now": self.copies[1]}}


@dataclass
class DeckChanges:
    """A deck's (or a board's) changes, in code order."""

    id: str
    name: str
    board: bool
    status: str                   # "compared", "added" (new deck) or "removed" (deck gone)
    changes: list[Change]
    back: Change | None = None    # the deck's common back, when it changed
    unchanged: int = 0            # cards that print the same under the same code
    before: DeckFaces | None = None
    after: DeckFaces | None = None

    def of(self, kind: str) -> list[Change]:
        return [c for c in self.changes if c.kind == kind]


@dataclass
class GameChanges:
    """A game compared with its state at a revision."""

    game: str
    title: str
    since: str                    # the revision, for people: "HEAD~1 (1a2b3c4)"
    status: str                   # "compared", "added" (no such game at the revision), "removed" (gone now)
    decks: list[DeckChanges]
    revision: Revision | None = field(default=None, repr=False)   # keeps a git revision's files while in use
    now: GameSource | None = field(default=None, repr=False)

    @property
    def changes(self) -> list[Change]:
        """Every change, common backs included, deck by deck."""
        return [c for d in self.decks for c in ([d.back] if d.back else []) + d.changes]

    def counts(self) -> dict[str, int]:
        counts = {k: 0 for k in KINDS}
        for d in self.decks:
            for c in d.changes:
                counts[c.kind] += 1
        return counts

    def as_dict(self) -> dict:
        return {"game": self.game, "title": self.title, "since": self.since, "status": self.status,
                "counts": self.counts(),
                "decks": [{"id": d.id, "name": d.name, "board": d.board, "status": d.status,
                           "unchanged": d.unchanged, "back": d.back.as_dict() if d.back else None,
                           "changes": [c.as_dict() for c in d.changes]} for d in self.decks]}


def compare_game(revision: Revision, game_id: str, now: GameSource | None) -> GameChanges:
    """The game as it is now (None: it is gone) against the same game at `revision` (its
    YAML drawn again, or the manifest of a build folder)."""
    before = revision.side(game_id)
    after = Side.of(now, deck_faces(now, boards=True)) if now else Side([])
    status = "compared" if before and now else ("added" if now else "removed")
    title = now.game.title if now else before.title if before else game_id
    return GameChanges(game_id, title, revision.label, status, compare_decks(before or Side([]), after), revision,
                       now)


def compare_decks(before: Side, after: Side) -> list[DeckChanges]:
    """Decks (and boards) paired by id, then their cards paired as the module says."""
    old = {(d.kind, d.id): d for d in before.decks}
    new_ids = {(d.kind, d.id) for d in after.decks}
    out = []
    for d in after.decks:
        out.append(_compare_deck(old.get((d.kind, d.id)), before, d, after))
    for d in before.decks:
        if (d.kind, d.id) not in new_ids:
            out.append(_compare_deck(d, before, None, after))
    return out


@dataclass
class _Card:
    """One card entry on one side: its faces and what they print, blind to the printed code."""

    code: str
    title: str
    count: int
    front: Drawn
    back: Drawn | None            # what prints on its back: its own back, the common back, or nothing
    own_back: bool
    front_print: str              # the front's digest without its code
    back_print: str | None        # the back's likewise (the common back's digest when it uses that)

    @property
    def content(self) -> tuple:
        """What the card alone prints (a common back belongs to the deck)."""
        return self.front_print, self.back_print if self.own_back else None


def _cards(deck: DeckFaces, side: Side) -> tuple[list[_Card], Drawn | None]:
    prints = Fingerprints(deck.forms, side.root)    # fonts and images by their files' bytes

    def drawn(face: Face, code: str | None = None) -> tuple[Drawn, str]:
        if isinstance(face, PrintedFace):      # an earlier build's: digested as the build drew it
            return Drawn(face, deck, side.bleed, face.digest), face.blind
        digest, blind = prints.faces(face.body, face.size, face.shape, code)
        return Drawn(face, deck, side.bleed, digest), blind

    common = drawn(deck.common_back)[0] if deck.common_back else None
    backs = {f.code: f for f in deck.backs}
    cards = []
    for front in deck.fronts:
        if deck.kind == "board":    # side A and side B, no code printed on it
            f, fp = drawn(front)
            b, bp = drawn(deck.backs[0]) if deck.backs else (None, None)
            cards.append(_Card(deck.id, front.title, 1, f, b, True, fp, bp))
            continue
        f, fp = drawn(front, front.code)
        own = backs.get(front.code)
        b, bp = drawn(own, front.code) if own else (common, common.digest if common else None)
        cards.append(_Card(front.code, front.title, front.count, f, b, own is not None, fp, bp))
    return cards, common


def _compare_deck(old: DeckFaces | None, before: Side, new: DeckFaces | None, after: Side) -> DeckChanges:
    some = new or old
    olds, old_back = _cards(old, before) if old else ([], None)
    news, new_back = _cards(new, after) if new else ([], None)
    status = "compared" if old and new else ("added" if new else "removed")
    result = DeckChanges(some.id, some.name, some.kind == "board", status, [], before=old, after=new)
    pairs = []
    for key in (lambda c: (c.code, c.title, c.content), lambda c: (c.title, c.content),
                lambda c: (c.code, c.title), lambda c: c.title, lambda c: c.code):
        pairs += _pair(olds, news, key)
    for o, n in pairs:
        change = _classify(some, o, n)
        if change is None:
            result.unchanged += 1
        else:
            result.changes.append(change)
    for o in olds:
        result.changes.append(Change("removed", some.id, o.code, o.title, sides=_own_sides(o),
                                     copies=(o.count, 0), before=_faces(o), board=some.kind == "board"))
    for n in news:
        result.changes.append(Change("added", some.id, n.code, n.title, sides=_own_sides(n),
                                     copies=(0, n.count), after=_faces(n), board=some.kind == "board"))
    result.changes.sort(key=lambda c: _natural(c.code))
    if old and new and (old_back and old_back.digest) != (new_back and new_back.digest):
        kind = "changed" if old_back and new_back else ("added" if new_back else "removed")
        result.back = Change(kind, some.id, "back", f"{some.name} back", sides=("back",),
                             before={"back": old_back} if old_back else {},
                             after={"back": new_back} if new_back else {})
    return result


def _classify(deck, o: _Card, n: _Card) -> Change | None:
    """What happened to a card between its two sides, or None when it prints the same."""
    sides = []
    if o.front_print != n.front_print:
        sides.append("front")
    shared = not o.own_back and not n.own_back and o.back is not None and n.back is not None
    if not shared and o.back_print != n.back_print:     # (a changed common back is the deck's change)
        sides.append("back")
    if sides:
        kind = "changed"
    elif o.code != n.code:
        kind = "renumbered"
    elif o.count != n.count:
        kind = "copies"
    else:
        return None
    return Change(kind, deck.id, n.code, n.title, old_code=o.code if o.code != n.code else None,
                  old_title=o.title if o.title != n.title else None, sides=tuple(sides), copies=(o.count, n.count),
                  before=_faces(o), after=_faces(n), board=deck.kind == "board")


def _faces(card: _Card) -> dict[str, Drawn]:
    return {"front": card.front, **({"back": card.back} if card.back else {})}


def _own_sides(card: _Card) -> tuple[str, ...]:
    return ("front", "back") if card.own_back and card.back else ("front",)


def _pair(olds: list[_Card], news: list[_Card], key: Callable) -> list[tuple[_Card, _Card]]:
    """Pair cards with equal keys, in deck order within a key; removes them from both lists."""
    waiting = defaultdict(list)
    for o in olds:
        waiting[key(o)].append(o)
    pairs, left = [], []
    for n in news:
        bucket = waiting.get(key(n))
        if bucket:
            pairs.append((bucket.pop(0), n))
        else:
            left.append(n)
    taken = {id(o) for o, _ in pairs}
    olds[:] = [o for o in olds if id(o) not in taken]
    news[:] = left
    return pairs


def _natural(code: str):
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", code)]


SAID = {"changed": "changed", "added": "added", "removed": "removed", "copies": "with a new count",
        "renumbered": "renumbered"}
LIST_AT_MOST = 12
"""Renumbered cards listed one by one up to this many a deck; more are summed up in a line."""


def report(changes: GameChanges) -> list[str]:
    """The changes as lines for people: a summary line, then each deck's changes by code."""
    counts = changes.counts()
    said = ", ".join(f"{n} {SAID[k]}" for k, n in counts.items() if n)
    head = f"{changes.game} ({changes.title}) since {changes.since}"
    if changes.status == "added":
        return [f"{head}: a new game, every card added ({counts['added']} different)"]
    if changes.status == "removed":
        return [f"{head}: the game is gone, every card removed ({counts['removed']} different)"]
    if not changes.changes:
        return [f"{head}: nothing prints differently"]
    lines = [f"{head}: {said}" + (", common back changed" if any(d.back for d in changes.decks) else "")]
    width = max((len(c.code) for d in changes.decks for c in d.changes), default=4)
    for d in changes.decks:
        if not d.changes and not d.back:
            continue
        kind = "board" if d.board else "deck"
        if d.status != "compared":
            lines.append(f"  {d.id} ({d.name}): {'new' if d.status == 'added' else 'gone'} {kind}, "
                         f"{len(d.changes)} {'added' if d.status == 'added' else 'removed'}")
            continue
        lines.append(f"  {d.id} ({d.name})")
        if d.back:
            lines.append(f"    {d.back.kind:<10}  {'back':<{width}}  the common back: every card that wears it")
        moved = d.of("renumbered")
        for c in d.changes:
            if c.kind == "renumbered" and len(moved) > LIST_AT_MOST:
                continue
            lines.append(f"    {c.kind:<10}  {c.code if not d.board else '-':<{width}}  {_describe(c)}")
        if len(moved) > LIST_AT_MOST:
            lines.append(f"    {'renumbered':<10}  {len(moved)} cards print the same under new codes ("
                         f"{moved[0].code} was {moved[0].old_code} ... {moved[-1].code} was {moved[-1].old_code})")
    return lines


def _describe(c: Change) -> str:
    text = c.title
    was = []
    if c.old_title:
        was.append(f'was "{c.old_title}"')
    if c.old_code:
        was.append(f"was {c.old_code}")
    if was:
        text += f" ({', '.join(was)})"
    if c.kind == "changed":
        sides = [("side A" if s == "front" else "side B") if c.board else s for s in c.sides]
        text += f": {' and '.join(sides)}"
    if c.copies[0] != c.copies[1] and c.kind not in ("added", "removed"):
        text += f"{';' if c.kind == 'changed' else ':'} {c.copies[0]} -> {c.copies[1]} copies"
    elif c.kind in ("added", "removed") and max(c.copies) > 1:
        text += f" (x{max(c.copies)})"
    return text
