"""`trails`: a board's trail graph (the `places` and `trails` fields of a board file, in the
notation of pnpgen/maps/trailmap.py) must parse and meet the game's rules: how many places of
each kind, how many trails meet at them, how many circles ring each town, where the dead
ends are, what can be reached from the hub, how far a piece can be bumped, and that the
towns are named by the cards of a deck (one card per town). Problems are reported at their
line in the board file; a soldier naming no town, at its card."""

from __future__ import annotations

import re
from collections import Counter
from typing import Literal

from pydantic import Field

from ...maps import trailmap
from ...errors import did_you_mean
from ...sources.validation import Schema
from .base import Finding, Range, RuleCard, outside

ORDER = 120
"""Where `trails` stands among a rule's keys (in the schema, the reference and errors)."""
DOC = """A board's trail graph that must parse and meet the rules (degrees, dead ends, reachability)."""
"""What the rule's `trails:` key holds, as the reference says it."""

Kind = Literal["hub", "safety", "town", "space", "plain"]
PlaceKind = Literal["hub", "safety", "town", "space"]


class Spec(Schema):
    """A trail board and the rules its graph must meet; give one or more of the checks."""

    board: str | None = None
    """The board file's name (boards/<name>.yaml); default: the game's only board."""
    places: str = "places"
    """The board field holding the places."""
    trails: str = "trails"
    """The board field holding the trails."""
    count: dict[Kind, int | Range] = {}
    """How many of each kind: hub, safety, town, space (junction places), plain (every plain
    space: those strung along trails and the junctions), e.g. {safety: 4, plain: 144}."""
    degree: dict[PlaceKind, int | Range] = {}
    """How many trails meet at each place of a kind, e.g. {hub: 4, safety: {min: 3}}."""
    circles: int | Range | None = None
    """How many circles ring each town."""
    dead_ends: list[PlaceKind] | None = None
    """The kinds of place allowed to be a dead end (reached by one trail, or none), e.g.
    [town, hub]; any other dead end is reported."""
    reachable: list[Kind] = []
    """Kinds whose every space must be reachable from the hub."""
    walk: int | None = Field(None, ge=1, le=100)
    """From every plain space, a walk of this many steps must exist that never steps straight
    back and never passes through the hub (where a move ends): the bump of the rules."""
    towns: str | list[str] | None = None
    """The names the towns must have, one each: deck.field (e.g. soldiers.name: every card
    names a town of the board, and every town is named by exactly one card), or the list of
    names itself."""




def validate(ctx, spec):
    board = ctx.board(spec.board)
    fields = board.board.fields
    for name in (spec.places, spec.trails):
        if name not in fields:
            raise ctx.problem(f"board '{board.id}' has no field '{name}'{did_you_mean(name, fields)}", "trails")
    if isinstance(spec.towns, str):
        if not re.fullmatch(r"[a-z][a-z0-9_-]*\.[A-Za-z_][A-Za-z0-9_]*", spec.towns):
            raise ctx.problem(f"towns: {spec.towns!r} should be deck.field (e.g. soldiers.name) or a list of names",
                              "trails")
        deck, name = spec.towns.split(".")
        ctx.need_deck(deck)
        ctx.need_field(name, ctx.fields_of([deck]))


class _At:
    """Findings located in the board file."""

    def __init__(self, ctx, board, spec):
        self.ctx, self.board, self.spec = ctx, board, spec
        self.path = ctx.game.rel(board.path)

    def line(self, where=()):
        if where and where[0] in ("places", "trails"):
            field = self.spec.places if where[0] == "places" else self.spec.trails
            where = (field,) + tuple(where[1:])
        return self.board.doc.line(("fields",) + tuple(where))

    def finding(self, message, where=()):
        card = RuleCard(self.board.id, "", 1, {}, self.path, self.line(where))
        return Finding(f"board {self.board.id}: {message}", card)


def evaluate(ctx, spec, group):
    board = ctx.board(spec.board)
    at = _At(ctx, board, spec)
    fields = board.board.fields
    try:
        tm = trailmap.parse(fields.get(spec.places), fields.get(spec.trails))
    except trailmap.TrailError as exc:
        yield at.finding(str(exc), exc.where)
        return
    yield from _counts(ctx, spec, tm, at)
    yield from _degrees(ctx, spec, tm, at)
    yield from _circles(ctx, spec, tm, at)
    yield from _dead_ends(spec, tm, at)
    yield from _unreachable(spec, tm, at)
    yield from _walks(spec, tm, at)
    yield from _towns(ctx, spec, tm, at)


def _kind_count(tm, kind) -> int:
    if kind == "plain":
        return len(tm.plain_spaces())
    return len(tm.of_kind(kind))


def _counts(ctx, spec, tm, at):
    for kind, want in spec.count.items():
        have = _kind_count(tm, kind)
        expected = outside(ctx, have, want)
        if expected:
            noun = "plain spaces" if kind == "plain" else f"{kind} places" if kind == "space" else \
                "hubs" if kind == "hub" else f"{kind}s" if kind == "town" else "safety intersections"
            yield at.finding(f"{have} {noun}, {expected}", ("places",))


def _degrees(ctx, spec, tm, at):
    for kind, want in spec.degree.items():
        for p in tm.of_kind(kind):
            have = tm.degree(p.id)
            expected = outside(ctx, have, want)
            if expected:
                yield at.finding(f"{have} trail{'s meet' if have != 1 else ' meets'} at {kind} '{p.id}' ({p.title}), "
                                 f"{expected}", ("places", p.id))


def _circles(ctx, spec, tm, at):
    if spec.circles is None:
        return
    for p in tm.of_kind("town"):
        expected = outside(ctx, p.circles, spec.circles)
        if expected:
            yield at.finding(f"town '{p.id}' ({p.title}) has {p.circles} circle{'s' if p.circles != 1 else ''}, "
                             f"{expected}", ("places", p.id))


def _dead_ends(spec, tm, at):
    if spec.dead_ends is None:
        return
    for p in tm.dead_ends():
        if p.kind in spec.dead_ends:
            continue
        ts = tm.trails_at(p.id)
        how = f"only trail {ts[0].index + 1} reaches it" if ts else "no trail reaches it"
        yield at.finding(f"{p.kind} '{p.id}' is a dead end ({how}); only {', '.join(spec.dead_ends)} may be",
                         ("places", p.id))


def _unreachable(spec, tm, at):
    if not spec.reachable:
        return
    hubs = tm.of_kind("hub")
    if not hubs:
        yield at.finding("the board has no hub to reach anything from", ("places",))
        return
    seen = set().union(*(tm.reachable(h.id) for h in hubs))
    lost_places, lost_spaces = [], []
    for kind in spec.reachable:
        if kind in ("plain", "space"):
            lost_spaces += [n for n in tm.plain_spaces() if n.id not in seen
                            and (kind == "plain" or n.kind == "space")]
        if kind != "plain":
            for p in tm.of_kind(kind):
                if tm.node_of(p.id) not in seen and p not in lost_places:
                    lost_places.append(p)
    for p in lost_places:
        yield at.finding(f"{p.kind} '{p.id}' ({p.title}) cannot be reached from the hub", ("places", p.id))
    plain = [n for n in dict.fromkeys(lost_spaces) if n.kind == "plain"]
    if plain:
        shown = ", ".join(n.label for n in plain[:5]) + (f" and {len(plain) - 5} more" if len(plain) > 5 else "")
        yield at.finding(f"{len(plain)} plain space{'s' if len(plain) != 1 else ''} cannot be reached from the "
                         f"hub: {shown}", ("trails", plain[0].trail))


def _walks(spec, tm, at):
    if spec.walk is None:
        return
    stop = frozenset(h.id for h in tm.of_kind("hub"))
    stuck = [n for n in tm.plain_spaces() if not tm.walks(n.id, spec.walk, stop)]
    if stuck:
        shown = ", ".join(n.label for n in stuck[:5]) + (f" and {len(stuck) - 5} more" if len(stuck) > 5 else "")
        first = stuck[0]
        where = ("trails", first.trail) if first.trail is not None else ("places", first.place)
        yield at.finding(f"no walk of {spec.walk} spaces without turning back from {len(stuck)} "
                         f"space{'s' if len(stuck) != 1 else ''}: {shown}", where)


def _towns(ctx, spec, tm, at):
    if not spec.towns:
        return
    towns = {p.name: p for p in tm.of_kind("town")}
    named = Counter()
    if isinstance(spec.towns, list):
        source = "the list"
        for value in spec.towns:
            named[str(value)] += 1
            if str(value) not in towns:
                yield at.finding(f"{value!r} is on the list but is not a town of the board{did_you_mean(value, towns)}",
                                 ("places",))
    else:
        deck, field = spec.towns.split(".")
        source = f"a card of {spec.towns}"
        for card in ctx.cards_of(deck):
            value = card.get(field)
            if value in (None, ""):
                continue
            named[str(value)] += card.count
            if str(value) not in towns:
                yield Finding(f"card {card.code} ({card.title}): {field} = {value!r} is not a town of board "
                              f"{at.board.id}{did_you_mean(value, towns)}", card, [card.code])
    for name, p in towns.items():
        if named[name] == 0:
            yield at.finding(f"town '{p.id}' ({name}) is not named by {source}", ("places", p.id))
        elif named[name] > 1:
            yield at.finding(f"town '{p.id}' ({name}) is named {named[name]} times by {source}; one per town",
                             ("places", p.id))
