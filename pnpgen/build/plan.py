"""Plan a game before anything is drawn: every template checked, and for each deck and board
the layouter and the cards it will draw. Build, export, preview, reprint and changes all
start from the same `GamePlan`."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..errors import InputError, Notice, Problem
from ..expr.kept import keep_all
from ..game.expand import PrintCard, PrintCards, assign_numbers, expand, looks
from ..game.cards import DeckSource
from ..game.loader import BoardSource, GameSource, confined
from ..layout.boards import board_card
from ..layout.context import Expressions
from ..layout.layouter import Layouter, icon_forms
from ..layout.lint import check_template
from ..layout.printres import ImageSettings
from ..layout.resources import Resources, settings_of
from ..ops import Form, FormDef
from ..rulebook import FILE as RULEBOOK
from .options import Options

if TYPE_CHECKING:
    from ..sheets.custom_layout import SheetLayout

COMMON_BACK_FORM = "back:common"
COMMON_BACK = [Form(COMMON_BACK_FORM)]
"""A common back is one shared form, drawn once and placed on every back slot (the ':' in
its name keeps it apart from every template's forms)."""


@dataclass
class DeckPlan:
    """A deck ready to draw: its source, the layouter that draws its faces, its physical cards."""

    source: DeckSource
    layouter: Layouter
    cards: PrintCards

    @property
    def id(self) -> str:
        return self.source.id

    @property
    def has_common_back(self) -> bool:
        """One back for every card, drawn once (packed tokens draw each back in its own slot)."""
        back = self.source.deck.back
        return bool(back and not back.per_card)

    def common_back_form(self) -> FormDef | None:
        """The deck's common back as the one shared form every back slot places, if it has one."""
        if not self.has_common_back:
            return None
        deck = self.source
        return FormDef(deck.size, tuple(self.layouter.layout(None, deck.deck.back.template)), True)


@dataclass
class BoardPlan:
    """A board ready to draw: its source, its layouter, and the one 'card' whose face is the board."""

    source: BoardSource
    layouter: Layouter
    card: PrintCard

    @property
    def id(self) -> str:
        return self.source.id

    @property
    def sides(self) -> list[str]:
        """The templates of side A and (when double-sided) side B."""
        board = self.source.board
        return [board.template] + ([board.back] if board.back else [])


@dataclass
class GamePlan:
    """What drawing a game needs, every template checked: the shared resources and icons,
    and each deck's and board's plan."""

    game: GameSource
    resources: Resources
    icons: dict[str, FormDef]
    decks: list[DeckPlan] = field(default_factory=list)
    boards: list[BoardPlan] = field(default_factory=list)

    def deck_cards(self) -> dict[str, PrintCards]:
        return {d.id: d.cards for d in self.decks}


def has_rulebook(game: GameSource) -> bool:
    return (game.root / RULEBOOK).is_file()


def plan_game(game: GameSource, options: Options | None = None) -> GamePlan:
    """Plan every deck and board of a loaded game. Raises InputError on a template that
    cannot draw; layout warnings (text boxes in the cut's margin of error) go to each
    layouter's warnings."""
    options = options or Options()
    numbers = assign_numbers(game)
    resources = Resources(game, image_settings(game, options))
    exprs = Expressions()
    plan = GamePlan(game, resources, icon_forms(game, resources, exprs))
    for deck in game.decks:  # check every template before drawing anything
        layouter = Layouter(game, deck, resources, exprs)
        cards = expand(game, deck, numbers)
        _lint_deck(game, deck, layouter, cards, exprs)
        plan.decks.append(DeckPlan(deck, layouter, cards))
    for board in game.boards:
        card = board_card(board, options.seed)
        layouter = Layouter(game, board, resources, exprs)
        for name in filter(None, (board.board.template, board.board.back)):
            layouter.warnings += check_template(game, board, game.templates[name], exprs, common=False)
        plan.boards.append(BoardPlan(board, layouter, card))
    first = next((p.layouter for p in [*plan.decks, *plan.boards]), None)
    if first is not None:   # what the game's icons leave out: said once, with the first component
        first.warnings[:0] = resources.notices
    keep_all()      # (the names the templates' expressions use, found by the checks above: expr/kept.py)
    return plan


def image_settings(game: GameSource, options: Options) -> ImageSettings:
    """game.yaml's `images`, with --image-ppi (resampling art finer than 1.5 times it) or
    --keep-images applied."""
    settings = settings_of(game)
    if options.image_ppi is not None:
        settings = replace(settings, ppi=options.image_ppi, max_ppi=options.image_ppi * 1.5, keep=False)
    if options.keep_images:
        settings = replace(settings, keep=True)
    return settings


def _lint_deck(game: GameSource, deck: DeckSource, layouter: Layouter, cards, exprs: Expressions) -> None:
    """Check each template the deck's cards use, and its common back."""
    kinds = looks(cards)
    used = {front for front, _, _ in kinds} | {back for _, back, unique in kinds if back and unique}
    for name in sorted(used):
        layouter.warnings += check_template(game, deck, game.templates[name], exprs, common=False)
    if deck.deck.back and not deck.deck.back.per_card:
        layouter.warnings += check_template(game, deck, game.templates[deck.deck.back.template], exprs,
                                            common=True)


def sheet_layout_of(game: GameSource) -> SheetLayout:
    """The custom sheet layout game.yaml names: a preset, or a file inside the game folder."""
    from ..sheets.custom_layout import is_path, load as load_sheet_layout    # (only a game that names one reads it)
    spec, line = game.game.layout, game.doc.line(("layout",))
    if is_path(spec):
        try:
            spec = str(confined(game.root, spec))
        except ValueError as exc:
            raise InputError.at(game.rel(game.doc.path), line, f"layout: {exc}") from None
    try:
        return load_sheet_layout(spec)
    except InputError as exc:
        if any(str(p.path) in ("--layout", game.game.layout) for p in exc.problems):   # name it where it is written
            raise InputError([Problem(game.rel(game.doc.path), line, f"layout: {p.message}") for p in exc.problems]) \
                from None
        raise


def with_game_layout(game: GameSource, options: Options) -> Options:
    """The options with game.yaml's sheet layout filled in, unless --layout chose one."""
    if options.layout is None and game.game.layout:
        return replace(options, layout=sheet_layout_of(game))
    return options


def refuse_if_strict(warnings: list[Notice], options: Options) -> None:
    """Under --strict, text cut short and characters no font has stop the build."""
    strict = [w for w in warnings if w.strict]
    if options.strict and strict:
        raise InputError([Problem(w.path, w.line, w.message + " (an error under --strict)") for w in strict])
