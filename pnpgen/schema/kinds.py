"""The kinds of file a project holds, listed once: each with where it lives, the model that
reads it, and the topics documenting the mappings nested in it. `pnpgen schema TOPIC`,
`pnpgen schema --json` and docs/reference.md are all read off this list."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from .. import presets
from ..elements import ELEMENTS
from ..game import models
from ..rulebook.source import FrontMatter
from ..rules import checks, ruleset
from ..sheets import custom_layout


@dataclass(frozen=True)
class Topic:
    """One model documented under a name: a file kind, or a mapping nested in one."""

    name: str
    where: str
    """Where its keys are written, e.g. cards/<game>/game.yaml or a deck's `back:`."""
    model: type[BaseModel]


@dataclass(frozen=True)
class FileKind(Topic):
    """A kind of file: its own topic, and the topics of the mappings nested in it."""

    parts: tuple[Topic, ...] = ()
    schema_where: str | None = None
    """Its JSON Schema's title (default: `where`); None with `editable` False."""
    editable: bool = True
    """A YAML file an editor gets a JSON Schema for (a rulebook's front matter is not)."""

    @property
    def topics(self) -> tuple[Topic, ...]:
        return (self, *self.parts)


def _check_parts() -> tuple[Topic, ...]:
    """A topic per rule check whose value is a mapping (rule.grid, rule.hexmap, ...)."""
    return tuple(Topic(f"rule.{name}", f"the value of a rule's `{name}:`", mod.Spec)
                 for name, mod in checks.CHECKS.items()
                 if isinstance(mod.Spec, type) and issubclass(mod.Spec, BaseModel))


FILE_KINDS: tuple[FileKind, ...] = (
    FileKind("game", "cards/<game>/game.yaml", models.Game,
             (Topic("icon", "an entry of game.yaml `icons:`", models.Icon),
              Topic("print", "game.yaml `print:` (the limits of `pnpgen check`'s print checks)", models.PrintLimits),
              Topic("images", "game.yaml `images:` (the print resolution of raster art)", models.ImageResolution))),
    FileKind("deck", "cards/<game>/decks/<deck>.yaml", models.Deck,
             (Topic("field", "an entry of a deck's `fields:`", models.FieldSpec),
              Topic("back", "a deck's `back:`", models.Back))),
    FileKind("template", "templates/<game>/<name>.yaml", models.Template,
             (Topic("code", "a template's `code:` (where the card code goes)", models.CodeMark),
              *(Topic(name, f"element `- {name}: {{...}}`", cls) for name, cls in ELEMENTS.items()))),
    FileKind("board", "cards/<game>/boards/<board>.yaml", models.Board,
             (Topic("board.hexmap", "a board's `hexmap:` (a generated hex map)", models.HexGenerate),)),
    FileKind("rulebook", "the front matter of cards/<game>/rulebook.md (see docs/rulebooks.md)", FrontMatter,
             editable=False),
    FileKind("rules", "cards/<game>/rules.yaml", ruleset.RulesFile,
             (Topic("rule", "an entry of rules.yaml `rules:`", ruleset.Rule), *_check_parts())),
    FileKind("layout", "a custom sheet layout: `pnpgen build --layout FILE` (or a preset's NAME: "
             f"{', '.join(presets.layouts())})", custom_layout.Layout,
             (Topic("layout.slot", "an entry of a layout's `slots:`", custom_layout.LayoutSlot),
              Topic("layout.grid", "a layout's `grid:`", custom_layout.LayoutGrid)),
             schema_where="a sheet layout for pnpgen build --layout"),
)
"""Every kind of file, in the order the reference documents them."""

TOPICS: dict[str, Topic] = {t.name: t for kind in FILE_KINDS for t in kind.topics}
"""Every documented model by topic name: the kinds and their nested mappings."""

EDITABLE: dict[str, FileKind] = {k.name: k for k in FILE_KINDS if k.editable}
"""The kinds of YAML file that get a JSON Schema (schemas/<kind>.schema.json)."""
