"""Deck-composition rules: `cards/<game>/rules.yaml`, checked by `pnpgen check` and before
every build. A rule is a small declarative statement about the cards of one or more decks:
how many there are, how they split by a field, what must be unique, which values are
allowed, which cards must exist, what refers to what. Each rule has exactly one check key,
as a template element has one element key; the checks live in pnpgen/rules/checks/."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Literal

from jinja2 import TemplateError
from pydantic import Field, create_model, model_validator

from .. import expr
from ..expr import names as expr_names
from ..expr.kept import keep_all
from ..sources import validation, yamlsrc
from .checks import CHECKS
from .checks.base import RuleCard
from ..errors import InputError, Problem, did_you_mean
from ..game.expand import assign_numbers, code_for
from ..game.loader import GameSource
from ..sources.validation import Schema
from . import RULES_FILE


class _RuleKeys(Schema):
    """One composition rule: the keys every rule has (its check keys are added from CHECKS)."""

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
    @model_validator(mode="after")
    def _one_check(self):
        given = [k for k in CHECKS if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("a rule has exactly one of: " + ", ".join(CHECKS) +
                             (f" (this one has {', '.join(given)})" if given else ""))
        for name, check in CHECKS.items():
            for key in getattr(check, "COMPANIONS", {}):
                if getattr(self, key) is not None and getattr(self, name) is None:
                    raise ValueError(f"{key}: goes with {name}:")
        return self

    @property
    def check(self) -> str:
        return next(k for k in CHECKS if getattr(self, k) is not None)


def _check_keys() -> dict:
    """A key per check module (its Spec, or none), each followed by the keys that go with it."""
    keys = {}
    for name, check in CHECKS.items():
        keys[name] = (check.Spec | None, Field(None, description=check.DOC))
        for key, (annotation, doc) in getattr(check, "COMPANIONS", {}).items():
            keys[key] = (annotation, Field(None, description=doc))
    return keys


Rule = create_model("Rule", __base__=_RuleKeys, __module__=__name__, __doc__="One composition rule.", **_check_keys())
"""One composition rule: the common keys, then one key per module of pnpgen/rules/checks/."""


class RulesFile(Schema):
    """`cards/<game>/rules.yaml`."""

    rules: list[Rule] = Field(min_length=1, max_length=1000)
    """The game's composition rules."""


@dataclass
class Violation:
    """One rule broken: where and how."""

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
    """The outcome of checking a game's rules."""

    game: str
    rules: int
    violations: list[Violation]

    @property
    def errors(self):
        return [v for v in self.violations if v.severity == "error"]

    @property
    def warnings(self):
        return [v for v in self.violations if v.severity == "warning"]


def load_rules(game: GameSource) -> tuple[yamlsrc.Doc, RulesFile] | None:
    path = game.root / RULES_FILE
    if not path.is_file():
        return None
    doc = yamlsrc.load(path, game.rel(path))
    if not isinstance(doc.data, dict):
        raise doc.error((), "rules.yaml should be a mapping with a rules: list")
    return doc, validation.validate(RulesFile, doc)


def check_game(game: GameSource) -> Report:
    """Evaluate the game's rules. Raises InputError when a rule itself is wrong."""
    loaded = load_rules(game)
    if loaded is None:
        return Report(game.id, 0, [])
    doc, rules = loaded
    cards = _rule_cards(game)
    violations = []
    for i, rule in enumerate(rules.rules):
        violations += RuleContext(game, doc, cards, i, rule).run()
    keep_all()      # (what the rules' expressions were found to use and compile to: expr/kept.py)
    return Report(game.id, len(rules.rules), violations)


def _rule_cards(game: GameSource) -> dict[str, list[RuleCard]]:
    numbers = assign_numbers(game)
    out = {}
    for d in game.decks:
        shown = str(d.cards_path)     # (its deck file, or its card sheet)
        out[d.id] = [RuleCard(d.id, code_for(game, numbers[d.id][c.index]), c.count, c.fields, shown, c.line)
                     for c in d.cards]
    return out


_ENV = expr.environment()


class RuleContext:
    """One rule being checked: its scope, and the helpers its check calls back into."""

    def __init__(self, game: GameSource, doc: yamlsrc.Doc, cards: dict, index: int, rule: Rule):
        self.game, self.doc, self.index, self.rule = game, doc, index, rule
        self._cards = cards
        self._decks = {d.id: d for d in game.decks}
        self._compiled: dict = {}
        self.variant: dict = {}
        self.decks = self._scope()
        self.fields = self.fields_of(self.decks)
        self.names = set(self.fields) | {"card"} | set(rule.variants or {})

    # --- for checks: is the rule itself sound? ------------------------------------------
    def problem(self, message, key=None) -> InputError:
        loc = ("rules", self.index) + ((key,) if key else ())
        return InputError(Problem(self.doc.path, self.doc.line(loc),
                                  f"rules[{self.index}] {self.rule.id}: {message}"))

    def need_deck(self, name):
        if name not in self._decks:
            raise self.problem(f"unknown deck '{name}'{did_you_mean(name, self._decks)}", self.rule.check)

    def need_field(self, name, fields=None):
        fields = self.fields if fields is None else fields
        if name not in fields:
            raise self.problem(f"unknown field '{name}'{did_you_mean(name, fields)}; the deck declares: "
                               f"{', '.join(fields) or 'none'}", self.rule.check)

    def need_value(self, name, value):
        choices = self.fields[name].choices
        if choices is not None and value not in choices and str(value) not in map(str, choices):
            raise self.problem(f"'{value}' is not a value of '{name}'{did_you_mean(value, choices)}",
                               self.rule.check)

    def expr(self, source, names=None, key=None):
        """A compiled expression, after checking its syntax and that it uses known names."""
        names = self.names if names is None else names
        cache_key = (source, frozenset(names))
        if cache_key not in self._compiled:
            key = key or self.rule.check
            try:
                used = expr_names.used(_ENV, "{{ (%s) }}" % source)
            except TemplateError as exc:
                raise self.problem(f"bad expression {source!r}: {exc.message}", key)
            for name in sorted(used - names - set(_ENV.globals)):
                raise self.problem(f"unknown name '{name}' in {source!r}{did_you_mean(name, names)}", key)
            try:      # (what parses in parentheses may still not be one expression: "a, b")
                self._compiled[cache_key] = _ENV.compile_expression(source)
            except TemplateError as exc:
                raise self.problem(f"bad expression {source!r}: {exc.message}; write one expression", key)
        return self._compiled[cache_key]

    # --- for checks: data ----------------------------------------------------------------
    def board(self, name: str | None):
        """A board of the game by file name; None means the game's only board."""
        boards = {b.id: b for b in self.game.boards}
        if name is None:
            if len(boards) != 1:
                raise self.problem(f"name the board (board:); the game has {len(boards)} boards "
                                   f"({', '.join(boards) or 'none'})", self.rule.check)
            return next(iter(boards.values()))
        if name not in boards:
            raise self.problem(f"unknown board '{name}'{did_you_mean(name, boards)}", self.rule.check)
        return boards[name]

    def deck(self, name):
        return self._decks[name]

    def cards_of(self, deck):
        return self._cards[deck]

    def fields_of(self, decks) -> dict:
        out = {}
        for d in decks:
            for name, spec in self._decks[d].deck.fields.items():
                out.setdefault(name, spec)
        return out

    def true(self, fn, card: RuleCard, variant=True) -> bool:
        values = {name: None for name in self.fields_of([card.deck])}
        values.update(card.fields)
        values["card"] = {"code": card.code, "deck": card.deck, "count": card.count}
        if variant:
            values.update(self.variant)
        try:
            return bool(fn(**values))
        except expr.BudgetExceeded as exc:      # the rule asks too much, whatever the card
            raise self.problem(f"{exc.message} (evaluating card {card.code})") from None
        except (TemplateError, TypeError, ValueError, ArithmeticError, LookupError) as exc:
            raise InputError(Problem(card.path, card.line, f"rule {self.rule.id} cannot be evaluated for card "
                                     f"{card.code}: {getattr(exc, 'message', None) or exc}")) from None

    def bound(self, value):
        """A range bound: a number, or an expression over the variant's names."""
        if value is None or isinstance(value, int):
            return value
        fn = self.expr(value, set(self.variant) | set(self.rule.variants or {}), key=self.rule.check)
        try:
            result = fn(**self.variant)
        except (TemplateError, TypeError, ValueError, ArithmeticError, LookupError) as exc:
            raise self.problem(f"cannot evaluate {value!r}: {getattr(exc, 'message', None) or exc}")
        if isinstance(result, bool) or not isinstance(result, (int, float)):
            raise self.problem(f"{value!r} is not a number")
        return result

    # --- running ---------------------------------------------------------------------------
    def _scope(self) -> list[str]:
        deck = self.rule.deck
        names = [deck] if isinstance(deck, str) else (deck or list(self._decks))
        for name in names:
            if name not in self._decks:
                raise self.problem(f"unknown deck '{name}'{did_you_mean(name, self._decks)}", "deck")
        return names

    def run(self) -> list[Violation]:
        rule = self.rule
        check = CHECKS[rule.check]
        spec = getattr(rule, rule.check)
        where = self.expr(rule.where, key="where") if rule.where else None
        check.validate(self, spec)
        combos = [dict(zip(rule.variants, values)) for values in itertools.product(*rule.variants.values())] \
            if rule.variants else [{}]
        label = "+".join(self.decks) if len(self.decks) <= 3 else "all"
        out = []
        for variant in combos:
            self.variant = variant
            group = [card for d in self.decks for card in self._cards[d] if where is None or self.true(where, card)]
            suffix = " (" + ", ".join(f"{k} = {v}" for k, v in variant.items()) + ")" if variant else ""
            for finding in check.evaluate(self, spec, group):
                card = finding.card
                out.append(Violation(self.game.id, label, rule.id, rule.severity, finding.message + suffix,
                                     card.path if card else self.game.rel(self.doc.path),
                                     card.line if card else self.doc.line(("rules", self.index)),
                                     finding.codes))
        return out
