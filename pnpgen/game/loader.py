"""Load and validate a game folder: game.yaml, its decks and the templates they use.

Everything that can be checked without drawing is checked here, so that a build either
fails before writing anything or runs to the end."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from ..errors import InputError, Problem, did_you_mean
from ..files import as_written as _shown
from ..sources import validation, yamlsrc
from ..sources.confine import Refused, inside, near_miss
from . import reread
from .cards import DeckSource
from .deckfile import load_deck
from .models import Board, Game, Template


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
            src.decks.append(load_deck(src, path, kept))
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


def _load_template(name: str, path: Path) -> TemplateSource:
    doc = yamlsrc.load(path, _shown(path))
    if not isinstance(doc.data, dict):
        raise doc.error((), "a template should be a mapping with elements:")
    return TemplateSource(name, path, doc, validation.validate(Template, doc))
