"""Reprint sheets: only the cards that print differently since a revision (changed and added
cards, every copy; the extra copies of a card whose count went up; every card of a deck
whose common back changed), imposed by the build's own deck code, so fronts, backs, bleed
and marks are exactly those of a full build. Each sheet's slug names the revision they
update; files are out/<game>/reprint-<deck>.pdf, written beside and renamed into place."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from .. import files
from ..build import Options, plan_game, with_game_layout
from ..build.decks import build_deck
from ..game.loader import GameSource
from .compare import DeckChanges, GameChanges

PREFIX = "reprint-"


@dataclass
class ReprintDeck:
    """The reprint of one deck."""

    deck: str
    name: str
    files: list[Path]
    cards: int                # physical cards, copies counted
    sheets: int
    pages: int
    codes: list[str]          # the cards on it, in deck order
    warnings: list = field(default_factory=list)   # as a build gives them (text cut short to fit...)


@dataclass
class Reprint:
    """What `reprint` wrote for one game, and what the designer should still be told."""

    game: str
    since: str
    decks: list[ReprintDeck] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)   # reprint files of an earlier run, now out of date

    @property
    def cards(self) -> int:
        return sum(d.cards for d in self.decks)


def wanted(deck: DeckChanges, renumbered: bool = False) -> tuple[dict[str, int], bool]:
    """{code: first copy to reprint} for a deck, and whether its common back changed (then
    every card that wears it goes too). A changed or added card is reprinted whole; a card
    with more copies than before, only the extra ones; a renumbered one only when asked."""
    first = {}
    for c in deck.changes:
        if c.kind in ("changed", "added") or (renumbered and c.kind == "renumbered"):
            first[c.code] = 1
        elif c.kind in ("copies", "renumbered") and c.copies[1] > c.copies[0]:
            first[c.code] = c.copies[0] + 1
    back = deck.back is not None and deck.back.kind in ("changed", "added")
    return first, back


def reprint_game(changes: GameChanges, out: Path, options: Options | None = None,
                 renumbered: bool = False) -> Reprint:
    """Write out/<game>/reprint-<deck>.pdf for every deck with cards to reprint (nothing when no
    card needs it), and remove reprint files an earlier run left for decks that now need none."""
    result = Reprint(changes.game, changes.since)
    game = changes.now
    outdir = out / changes.game
    for d in changes.decks:
        result.notes += _notes(changes.game, d, renumbered)
    if game is None:
        result.removed = _stale(outdir, set(), None)
        return result
    options = with_game_layout(game, options or Options())
    options = replace(options, out=out, slug_note=f"reprint: changed since {changes.since}")
    by_deck = {d.id: d for d in changes.decks if not d.board}
    plan = plan_game(game, options)
    with files.Staged() as staged:
        for deck_plan in plan.decks:
            deck, cards = deck_plan.source, deck_plan.cards
            dc = by_deck.get(deck.id)
            if dc is None:
                continue
            first, back = wanted(dc, renumbered)
            chosen = [c for c in cards if (c.code in first and c.copy >= first[c.code])
                      or (back and c.back is not None and not c.unique_back and not deck.deck.pack)]
            if not chosen:
                continue
            r, temps = build_deck(game, deck_plan, chosen, plan.icons, outdir, options)
            targets = [(tmp, target.with_name(PREFIX + target.name)) for tmp, target in temps]
            staged.adopt(targets)
            codes = list(dict.fromkeys(c.code for c in chosen))
            result.decks.append(ReprintDeck(deck.id, deck.deck.name, [t for _, t in targets], len(chosen), r.sheets,
                                            r.pages, codes, list(r.warnings)))
        staged.commit()
    result.removed = _stale(outdir, {f for d in result.decks for f in d.files}, game)
    return result


def _notes(game: str, d: DeckChanges, renumbered: bool) -> list[str]:
    """What a reprint cannot do for the designer: boards, cards to take out, renumbered cards."""
    if d.board:
        return [f"board {d.id} ({d.name}) prints differently: boards are not reprinted here; print its "
                f"{d.id}.pdf from `pnpgen build {game}` again"] if d.changes else []
    if d.status == "removed":
        return [f"deck {d.id} ({d.name}) is gone: take out all its cards ({len(d.changes)} different)"]
    notes = []
    for c in d.changes:
        if c.kind == "removed":
            notes.append(f"take out {c.code} {c.title} ({d.name}): removed"
                         + (f", all {c.copies[0]} copies" if c.copies[0] > 1 else ""))
        elif c.copies[1] < c.copies[0]:
            notes.append(f"take out {c.copies[0] - c.copies[1]} of the {c.copies[0]} copies of {c.code} {c.title} "
                         f"({d.name})")
    moved = d.of("renumbered")
    if moved and not renumbered:
        examples = ", ".join(f"{c.code} was {c.old_code}" for c in moved[:3]) + (", ..." if len(moved) > 3 else "")
        notes.append(f"{len(moved)} card{'s' if len(moved) != 1 else ''} of {d.name} print the same but under a "
                     f"new code ({examples}): not reprinted (--renumbered reprints them)")
    return notes


def _stale(outdir: Path, keep: set[Path], game: GameSource | None) -> list[Path]:
    """Remove reprint-*.pdf files that this run did not write: they bring a deck up to date
    with another revision, and printing them now would be a mistake. A deck of the game whose
    own id starts with 'reprint-' keeps its PDF."""
    own = {d.id for d in game.decks} | {b.id for b in game.boards} if game else set()
    removed = []
    if not outdir.is_dir():
        return removed
    for path in sorted(outdir.glob(PREFIX + "*.pdf")):
        stem = re.sub(r"-\d+$", "", path.stem)
        if path in keep or path.stem in own or stem in own:
            continue
        try:
            path.unlink()
            removed.append(path)
        except OSError:
            pass
    return removed
