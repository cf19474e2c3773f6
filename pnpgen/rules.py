"""Deck-composition rules: `cards/<game>/rules.yaml`, checked by `pnpgen check` and before
every build. A rule is a small declarative statement about the cards of one or more
decks: how many there are, how they split by a field, what must be unique, which values
are allowed, which cards must exist, what refers to what. Each rule has one check key,
like a template element has one element key."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from jinja2 import StrictUndefined, TemplateError, meta
from jinja2.sandbox import ImmutableSandboxedEnvironment
from pydantic import Field, model_validator

from . import schema, yamlsrc
from .errors import InputError, Problem, did_you_mean
from .expand import assign_numbers, code_for
from .game import GameSource
from .schema import Schema

RULES_FILE = "rules.yaml"


class Range(Schema):
    """A number range; bounds may be expressions over the rule's variants, e.g. '2 * players'."""

    min: int | str | None = None
    """Smallest allowed value."""
    max: int | str | None = None
    """Largest allowed value."""

    @model_validator(mode="after")
    def _some(self):
        if self.min is None and self.max is None:
            raise ValueError("give min:, max: or both")
        return self


class CountBy(Schema):
    """Count the cards (copies included) per value of a field."""

    field: str
    """The field to group by."""
    expect: dict[str, int] | None = None
    """Exact count per value, e.g. {Stack: 15, Attack: 10}."""
    each: int | Range | None = None
    """A count every group must have (e.g. 2 bullets per colour)."""
    others: bool = False
    """Allow values that `expect` does not list."""

    @model_validator(mode="after")
    def _one(self):
        if self.expect is None and self.each is None:
            raise ValueError("give expect: {value: count, ...} or each: N")
        return self


class Allowed(Schema):
    """The values a field may take."""

    field: str
    """The field checked."""
    values: list[Any] | None = None
    """The only values allowed."""
    min: float | None = None
    """Smallest number allowed."""
    max: float | None = None
    """Largest number allowed."""
    multiple_of: float | None = None
    """Numbers must be a multiple of this."""
    empty: bool = True
    """An empty (missing) value passes; set false to require the field too."""


class Names(Schema):
    """A checklist: the cards that must be there, by the value of a field (usually title)."""

    field: str = "title"
    """The field naming a card."""
    values: list[str] = Field(min_length=1)
    """Every value that must be present."""
    exact: bool = True
    """No cards other than these may be present."""


class SameSet(Schema):
    """Every group holds the same collection of values (e.g. each captain's 9 map cards)."""

    group_by: str
    """The field whose values form the groups."""
    field: str
    """The field whose values are compared (copies counted)."""


class Refers(Schema):
    """A field names something that must exist elsewhere: another deck's field value."""

    field: str
    """The field holding the reference."""
    to: str = Field(pattern=r"^[a-z][a-z0-9_-]*\.[A-Za-z_][A-Za-z0-9_]*$")
    """Where the named thing lives, as deck.field (e.g. main.title)."""
    where: str | None = None
    """Only targets satisfying this expression count (e.g. "type in ['Hero', 'Operative']")."""


CHECKS = ("count", "count_by", "unique", "each", "required", "allowed", "names", "same_set",
          "refers", "same_back")


class Rule(Schema):
    """One composition rule."""

    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_.-]*$", max_length=40)
    """A short name, printed with every violation (e.g. SW-03)."""
    text: str = ""
    """What the rule says, in words."""
    deck: str | list[str] | None = None
    """The deck(s) it applies to (default: every deck of the game)."""
    where: str | None = None
    """Only cards for which this expression is true, e.g. "type == 'Evolution'"."""
    severity: Literal["error", "warning"] = "error"
    """error fails the check; warning is reported but passes (unless --strict)."""
    variants: dict[str, list[Any]] | None = None
    """Check once per value (or combination), with the name usable in where and ranges, e.g.
    {players: [2, 3, 4]}."""
    count: int | Range | None = None
    """How many cards (copies included) there are: a number or {min:, max:}."""
    count_by: CountBy | None = None
    """How many cards have each value of a field."""
    unique: str | list[str] | None = None
    """A field (or fields together) that no two cards share; copies count as duplicates."""
    each: str | None = None
    """An expression every card must satisfy, e.g. "cost == 0"."""
    message: str | None = None
    """What to say when `each` fails (default: the expression)."""
    required: list[str] | None = None
    """Fields every card must give."""
    allowed: Allowed | None = None
    """The values a field may take."""
    names: Names | None = None
    """The cards that must be present, by name."""
    same_set: SameSet | None = None
    """Every group holds the same values."""
    refers: Refers | None = None
    """A field that names something in another deck."""
    same_back: bool | None = None
    """All the decks share one common back design (true)."""

    @model_validator(mode="after")
    def _one_check(self):
        given = [k for k in CHECKS if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("a rule has exactly one of: " + ", ".join(CHECKS) +
                             (f" (this one has {', '.join(given)})" if given else ""))
        if self.message is not None and self.each is None:
            raise ValueError("message: goes with each:")
        return self

    @property
    def check(self) -> str:
        return next(k for k in CHECKS if getattr(self, k) is not None)


class RulesFile(Schema):
    """`cards/<game>/rules.yaml`."""

    rules: list[Rule] = Field(min_length=1, max_length=1000)
    """The game's composition rules."""


@dataclass
class Violation:
    game: str
    deck: str               # deck id(s) the rule looked at
    rule: str
    severity: str
    message: str
    path: str
    line: int | None
    cards: list[str] = field(default_factory=list)   # codes of offending cards

    def __str__(self):
        where = f"{self.path}:{self.line}" if self.line else self.path
        tag = "" if self.severity == "error" else " (warning)"
        return f"{where}: {self.game}/{self.deck}: {self.rule}{tag}: {self.message}"

    def as_dict(self):
        return {"game": self.game, "deck": self.deck, "rule": self.rule, "severity": self.severity,
                "message": self.message, "file": self.path, "line": self.line, "cards": self.cards}


@dataclass
class Report:
    game: str
    rules: int
    violations: list[Violation]

    @property
    def errors(self):
        return [v for v in self.violations if v.severity == "error"]

    @property
    def warnings(self):
        return [v for v in self.violations if v.severity == "warning"]


@dataclass
class _Card:
    """A card entry as the rules see it."""

    deck: str
    code: str
    count: int
    fields: dict
    path: str
    line: int | None


def load_rules(game: GameSource) -> tuple[yamlsrc.Doc, RulesFile] | None:
    path = game.root / RULES_FILE
    if not path.is_file():
        return None
    doc = yamlsrc.load(path, game.rel(path))
    if not isinstance(doc.data, dict):
        raise doc.error((), "rules.yaml should be a mapping with a rules: list")
    return doc, schema.validate(RulesFile, doc)


def check_game(game: GameSource) -> Report:
    """Evaluate the game's rules. Raises InputError when a rule itself is wrong."""
    loaded = load_rules(game)
    if loaded is None:
        return Report(game.id, 0, [])
    doc, rules = loaded
    checker = _Checker(game, doc)
    violations = []
    for i, rule in enumerate(rules.rules):
        violations += checker.run(i, rule)
    return Report(game.id, len(rules.rules), violations)


class _Checker:
    def __init__(self, game: GameSource, doc: yamlsrc.Doc):
        self.game, self.doc = game, doc
        self.env = ImmutableSandboxedEnvironment(undefined=StrictUndefined)
        numbers = assign_numbers(game)
        self.decks = {d.id: d for d in game.decks}
        self.cards: dict[str, list[_Card]] = {}
        for d in game.decks:
            self.cards[d.id] = [
                _Card(d.id, code_for(game, numbers[(d.id, c.index)]), c.count, c.fields,
                      game.rel(d.path), c.line) for c in d.cards]

    # --- validation of the rule itself ------------------------------------------------------
    def _problem(self, loc, message) -> InputError:
        return InputError(Problem(self.doc.path, self.doc.line(loc), message))

    def _scope(self, i, rule) -> list[str]:
        names = [rule.deck] if isinstance(rule.deck, str) else (rule.deck or list(self.decks))
        for n, name in enumerate(names):
            if name not in self.decks:
                loc = ("rules", i, "deck") + ((n,) if isinstance(rule.deck, list) else ())
                raise self._problem(loc, f"rules[{i}] {rule.id}: unknown deck '{name}'{did_you_mean(name, self.decks)}")
        return names

    def _fields(self, decks) -> dict:
        out = {}
        for d in decks:
            for name, spec in self.decks[d].deck.fields.items():
                out.setdefault(name, spec)
        return out

    def _need_field(self, i, rule, key, name, fields):
        if name not in fields:
            raise self._problem(("rules", i, key), f"rules[{i}] {rule.id}: unknown field '{name}'"
                                f"{did_you_mean(name, fields)}; the deck declares: {', '.join(fields) or 'none'}")

    def _need_value(self, i, rule, key, fieldname, value, fields):
        choices = fields[fieldname].choices
        if choices is not None and value not in choices and str(value) not in map(str, choices):
            raise self._problem(("rules", i, key), f"rules[{i}] {rule.id}: '{value}' is not a value of "
                                f"'{fieldname}'{did_you_mean(value, choices)}")

    def _expr(self, i, rule, key, source, names):
        try:
            used = meta.find_undeclared_variables(self.env.parse("{{ (%s) }}" % source))
        except TemplateError as exc:
            raise self._problem(("rules", i, key), f"rules[{i}] {rule.id}: bad expression {source!r}: {exc.message}")
        for name in sorted(used - names - set(self.env.globals)):
            raise self._problem(("rules", i, key), f"rules[{i}] {rule.id}: unknown name '{name}' in {source!r}"
                                f"{did_you_mean(name, names)}")
        return self.env.compile_expression(source)

    # --- evaluation -----------------------------------------------------------------------
    def run(self, i, rule: Rule) -> list[Violation]:
        decks = self._scope(i, rule)
        fields = self._fields(decks)
        variant_names = set(rule.variants or {})
        names = set(fields) | {"card"} | variant_names
        where = self._expr(i, rule, "where", rule.where, names) if rule.where else None
        self._validate(i, rule, fields, names)
        combos = [dict(zip(rule.variants, values)) for values in itertools.product(*rule.variants.values())] \
            if rule.variants else [{}]
        out = []
        label = "+".join(decks) if len(decks) <= 3 else "all"
        for variant in combos:
            cards = []
            for d in decks:
                for card in self.cards[d]:
                    if where is None or self._true(i, rule, where, card, fields, variant):
                        cards.append(card)
            suffix = " (" + ", ".join(f"{k} = {v}" for k, v in variant.items()) + ")" if variant else ""
            for message, path, line, codes in self._evaluate(i, rule, cards, fields, variant, decks):
                out.append(Violation(self.game.id, label, rule.id, rule.severity, message + suffix,
                                     path or self.game.rel(self.doc.path),
                                     line if path else self.doc.line(("rules", i)), codes))
        return out

    def _validate(self, i, rule, fields, names):
        c = rule.check
        if c == "count_by":
            self._need_field(i, rule, "count_by", rule.count_by.field, fields)
            for value in rule.count_by.expect or {}:
                self._need_value(i, rule, "count_by", rule.count_by.field, value, fields)
        elif c == "unique":
            for f in [rule.unique] if isinstance(rule.unique, str) else rule.unique:
                self._need_field(i, rule, "unique", f, fields)
        elif c == "each":
            self._expr(i, rule, "each", rule.each, names)
        elif c == "required":
            for f in rule.required:
                self._need_field(i, rule, "required", f, fields)
        elif c == "allowed":
            self._need_field(i, rule, "allowed", rule.allowed.field, fields)
        elif c == "names":
            self._need_field(i, rule, "names", rule.names.field, fields)
        elif c == "same_set":
            self._need_field(i, rule, "same_set", rule.same_set.group_by, fields)
            self._need_field(i, rule, "same_set", rule.same_set.field, fields)
        elif c == "refers":
            self._need_field(i, rule, "refers", rule.refers.field, fields)
            deck, fname = rule.refers.to.split(".")
            if deck not in self.decks:
                raise self._problem(("rules", i, "refers"), f"rules[{i}] {rule.id}: unknown deck '{deck}'"
                                    f"{did_you_mean(deck, self.decks)}")
            target_fields = self._fields([deck])
            self._need_field(i, rule, "refers", fname, target_fields)
            if rule.refers.where:
                self._expr(i, rule, "refers", rule.refers.where, set(target_fields) | {"card"})

    def _vars(self, card, fields, variant):
        out = {name: None for name in fields}
        out.update(card.fields)
        out["card"] = {"code": card.code, "deck": card.deck, "count": card.count}
        out.update(variant)
        return out

    def _true(self, i, rule, fn, card, fields, variant) -> bool:
        try:
            return bool(fn(**self._vars(card, fields, variant)))
        except (TemplateError, TypeError, ValueError, ArithmeticError) as exc:
            raise InputError(Problem(card.path, card.line, f"rule {rule.id} cannot be evaluated for card "
                                     f"{card.code}: {getattr(exc, 'message', None) or exc}"))

    def _bound(self, i, rule, value, variant):
        if value is None or isinstance(value, int):
            return value
        fn = self._expr(i, rule, "count", value, set(variant))
        result = fn(**variant)
        if isinstance(result, bool) or not isinstance(result, (int, float)):
            raise self._problem(("rules", i), f"rules[{i}] {rule.id}: {value!r} is not a number")
        return result

    def _range_text(self, rng, lo, hi):
        if lo is not None and hi is not None:
            return f"between {lo} and {hi}"
        return f"at least {lo}" if lo is not None else f"at most {hi}"

    def _evaluate(self, i, rule, cards, fields, variant, decks):
        """Yield (message, path or None, line, codes); path None means the rule's own line."""
        total = sum(c.count for c in cards)
        c = rule.check
        if c == "count":
            if isinstance(rule.count, int):
                if total != rule.count:
                    yield (f"{_cards(total)}, expected exactly {rule.count}", None, None, [])
            else:
                lo, hi = self._bound(i, rule, rule.count.min, variant), self._bound(i, rule, rule.count.max, variant)
                if (lo is not None and total < lo) or (hi is not None and total > hi):
                    yield (f"{_cards(total)}, expected {self._range_text(rule.count, lo, hi)}", None, None, [])
        elif c == "count_by":
            spec = rule.count_by
            groups: dict = defaultdict(list)
            for card in cards:
                groups[card.fields.get(spec.field)].append(card)
            expect = {str(k): v for k, v in (spec.expect or {}).items()}
            for value, want in expect.items():
                have = sum(x.count for k, g in groups.items() if str(k) == value for x in g)
                if have != want:
                    yield (f"{_cards(have)} with {spec.field} = {value}, expected {want}", None, None, [])
            if spec.expect is not None and not spec.others:
                for value, group in groups.items():
                    if str(value) not in expect:
                        for card in group:
                            yield (f"card {card.code} has {spec.field} = {value!r}, which the rule does not allow "
                                   f"(expected one of: {', '.join(expect)})", card.path, card.line, [card.code])
            if spec.each is not None:
                for value, group in sorted(groups.items(), key=lambda kv: str(kv[0])):
                    have = sum(x.count for x in group)
                    if isinstance(spec.each, int):
                        if have != spec.each:
                            yield (f"{_cards(have)} with {spec.field} = {value}, expected {spec.each}", None, None, [])
                    else:
                        lo = self._bound(i, rule, spec.each.min, variant)
                        hi = self._bound(i, rule, spec.each.max, variant)
                        if (lo is not None and have < lo) or (hi is not None and have > hi):
                            yield (f"{_cards(have)} with {spec.field} = {value}, expected "
                                   f"{self._range_text(spec.each, lo, hi)}", None, None, [])
        elif c == "unique":
            keys = [rule.unique] if isinstance(rule.unique, str) else rule.unique
            seen: dict = {}
            for card in cards:
                key = tuple(_hashable(card.fields.get(k)) for k in keys)
                shown = ", ".join(f"{k} = {card.fields.get(k)!r}" for k in keys)
                if card.count > 1:
                    yield (f"card {card.code} ({shown}) has {card.count} copies; only one is allowed",
                           card.path, card.line, [card.code])
                if key in seen:
                    first = seen[key]
                    yield (f"card {card.code} repeats {shown} of card {first.code} "
                           f"({first.path}:{first.line})", card.path, card.line, [card.code, first.code])
                else:
                    seen[key] = card
        elif c == "each":
            fn = self.env.compile_expression(rule.each)
            for card in cards:
                if not self._true(i, rule, fn, card, fields, variant):
                    yield (f"card {card.code} ({_title(card)}) breaks: {rule.message or rule.each}",
                           card.path, card.line, [card.code])
        elif c == "required":
            for card in cards:
                missing = [f for f in rule.required if card.fields.get(f) in (None, "", [])]
                if missing:
                    yield (f"card {card.code} ({_title(card)}) lacks {', '.join(missing)}",
                           card.path, card.line, [card.code])
        elif c == "allowed":
            a = rule.allowed
            for card in cards:
                value = card.fields.get(a.field)
                bad = None
                if value in (None, "", []):
                    bad = None if a.empty else "is missing"
                elif a.values is not None and value not in a.values:
                    bad = f"= {value!r} is not one of: {', '.join(map(str, a.values))}"
                elif a.min is not None or a.max is not None or a.multiple_of is not None:
                    if isinstance(value, bool) or not isinstance(value, (int, float)):
                        bad = f"= {value!r} is not a number"
                    elif a.min is not None and value < a.min:
                        bad = f"= {value} is below {a.min:g}"
                    elif a.max is not None and value > a.max:
                        bad = f"= {value} is above {a.max:g}"
                    elif a.multiple_of and abs(value / a.multiple_of - round(value / a.multiple_of)) > 1e-9:
                        bad = f"= {value} is not a multiple of {a.multiple_of:g}"
                if bad:
                    yield (f"card {card.code} ({_title(card)}): {a.field} {bad}", card.path, card.line, [card.code])
        elif c == "names":
            n = rule.names
            present = Counter()
            for card in cards:
                present[str(card.fields.get(n.field))] += card.count
            wanted = [str(v) for v in n.values]
            missing = [v for v in wanted if present[v] == 0]
            if missing:
                yield (f"missing {len(missing)} card{'s' if len(missing) > 1 else ''}: " + ", ".join(missing),
                       None, None, [])
            if n.exact:
                wanted_set = set(wanted)
                for card in cards:
                    value = str(card.fields.get(n.field))
                    if value not in wanted_set:
                        yield (f"card {card.code} ({n.field} = {value!r}) is not on the list"
                               f"{did_you_mean(value, [m for m in missing] or wanted)}", card.path, card.line, [card.code])
        elif c == "same_set":
            s = rule.same_set
            groups: dict = defaultdict(Counter)
            for card in cards:
                groups[str(card.fields.get(s.group_by))][_hashable(card.fields.get(s.field))] += card.count
            if len(groups) > 1:
                reference_key, reference = max(groups.items(), key=lambda kv: (list(groups.values()).count(kv[1]), kv[0]))
                for key, values in sorted(groups.items()):
                    if values != reference:
                        lacks = reference - values
                        extra = values - reference
                        parts = []
                        if lacks:
                            parts.append("lacks " + ", ".join(f"{v}" + (f" x{n}" if n > 1 else "") for v, n in sorted(lacks.items(), key=str)))
                        if extra:
                            parts.append("has extra " + ", ".join(f"{v}" + (f" x{n}" if n > 1 else "") for v, n in sorted(extra.items(), key=str)))
                        yield (f"{s.group_by} = {key} {' and '.join(parts)} (compared with {s.group_by} = {reference_key})",
                               None, None, [])
        elif c == "refers":
            r = rule.refers
            deck, fname = r.to.split(".")
            target_fields = self._fields([deck])
            where = self.env.compile_expression(r.where) if r.where else None
            targets = set()
            for card in self.cards[deck]:
                if where is None or self._true(i, rule, where, card, target_fields, {}):
                    targets.add(str(card.fields.get(fname)))
            for card in cards:
                value = card.fields.get(r.field)
                if value in (None, ""):
                    continue
                for v in value if isinstance(value, list) else [value]:
                    if str(v) not in targets:
                        yield (f"card {card.code} ({_title(card)}): {r.field} = {v!r} names nothing in "
                               f"{deck}.{fname}{did_you_mean(v, targets)}", card.path, card.line, [card.code])
        elif c == "same_back":
            backs = {}
            for d in decks:
                b = self.decks[d].deck.back
                backs[d] = None if b is None or b.per_card else b.template
            if len(set(backs.values())) != 1 or None in backs.values():
                shown = ", ".join(f"{d}: {b or 'no common back'}" for d, b in backs.items())
                yield (f"the decks do not share one common back ({shown})", None, None, [])


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _hashable(value):
    return tuple(value) if isinstance(value, list) else value


def _title(card) -> str:
    for key in ("title", "name"):
        if card.fields.get(key):
            return str(card.fields[key])
    return card.code
