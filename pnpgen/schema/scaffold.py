"""`pnpgen new GAME`: a small game folder that builds as it stands (a game, one deck, a
front and a back template, rules), so a designer starts from something that works and
changes it a key at a time. Each YAML file's first line points the YAML language server at
the project's schemas/ (written too), so the editor completes and checks keys as they are
typed."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from . import json_schemas
from .. import presets
from ..sources import validation, yamlsrc
from ..build import Project
from ..errors import InputError
from ..game.loader import _shown
from ..game.models import NAME, Game

RESERVED_IDS = {"shared": "templates/shared/ holds the templates every game may use"}
"""Game names that would clash with a folder pnpgen gives another meaning."""

GAME = """\
# {title}: settings shared by every deck (`pnpgen schema game` lists every key).
title: {title_yaml}
code: {code_yaml}              # card codes {code}-001, {code}-002, ...
paper: letter            # or a4
card_size: poker         # a name below, or [w, h] in mm; templates read it as card.width, card.height
{sizes}colors:                  # names usable wherever a colour is asked for
  ink: "#1f1a14"
  parchment: "#f6f1e4"
  accent: "#2f5a36"
"""

DECK = """\
# One deck: its fields, its back and its cards (`pnpgen schema deck`).
name: Deck
template: front              # templates/{game}/front.yaml draws each card's face
back: {{template: back}}       # one common back, drawn once and reused
fields:                      # every field a card may carry; anything else is an error
  title: {{required: true}}
  type: {{required: true, choices: [Action, Item]}}
  text: {{default: ""}}
  cost: {{type: int, default: 0}}
cards:                       # count: copies of a card (default 1)
  - {{title: Scout Ahead, type: Action, text: "Look at the top three cards of the deck.", cost: 1}}
  - {{title: Lantern, type: Item, text: "Keep this card in front of you.", count: 2}}
  - {{title: Long Night, type: Action, text: "Every other player discards a card.", cost: 2}}
"""

FRONT = """\
# The face of the deck's cards: elements drawn bottom to top, placed in mm from the card's
# top-left trim corner; "{{{{ title }}}}" is a card's field (`pnpgen schema template`).
size: poker
code: {{color: parchment}}      # the card code, printed small on the border: light on the dark accent
elements:
  - rect: {{x: 0, y: 0, w: 63.5, h: 88.9, fill: accent, bleed: true}}   # runs into the bleed
  - rect: {{x: 3.6, y: 3.6, w: 56.3, h: 81.7, r: 2.5, fill: parchment}}
  - text: {{x: 6, y: 6, w: 51.5, h: 10, text: "{{{{ title }}}}", font: serif-bold, size: 14, min_size: 8,
           align: center, valign: middle, color: ink}}
  - text: {{x: 6, y: 17, w: 51.5, h: 5, text: "{{{{ type }}}}", font: sans-bold, size: 8, align: center,
           color: accent}}
  - line: {{points: [[8, 24], [55.5, 24]], stroke: accent, stroke_width: 0.3}}
  - text: {{x: 6, y: 28, w: 51.5, h: 36, text: "{{{{ text }}}}", size: 10, align: center, valign: middle,
           color: ink}}
  - circle: {{x: 31.75, y: 73, r: 5.5, fill: accent, when: "cost > 0"}}
  - text: {{x: 26.75, y: 68, w: 10, h: 10, text: "{{{{ cost }}}}", font: sans-bold, size: 12, align: center,
           valign: middle, color: parchment, when: "cost > 0"}}
"""

BACK = """\
# The common back of the deck's cards, drawn once; it can use game, deck and colors but
# not a card's fields (`pnpgen schema template`).
size: poker
code: false                  # no card code on a common back
elements:
  - rect: {{x: 0, y: 0, w: 63.5, h: 88.9, fill: accent, bleed: true}}
  - rect: {{x: 3.6, y: 3.6, w: 56.3, h: 81.7, r: 2.5, stroke: parchment, stroke_width: 0.6}}
  - text: {{x: 6, y: 34, w: 51.5, h: 20, text: "{{{{ game.title }}}}", font: serif-bold, size: 20, min_size: 10,
           align: center, valign: middle, color: parchment}}
"""

RULES = """\
# What a complete deck looks like, checked by `pnpgen check` and before every build
# (`pnpgen schema rule`).
rules:
  - id: R-01
    text: The deck holds at least three cards.
    count: {{min: 3}}
  - id: R-02
    text: No card costs more than 5.
    each: "cost <= 5"
    message: costs more than 5
"""


def _size_comment() -> str:
    """The named card sizes in mm, as comment lines under `card_size:` (wrapped at about 96)."""
    lines, line = [], "#   in mm, width x height:"
    for name, (w, h) in presets.card_sizes().items():
        item = f" {name} {w:g} x {h:g},"
        if len(line) + len(item) > 96:
            lines.append(line)
            line = "#  "
        line += item
    return "\n".join(lines + [line.rstrip(",")]) + "\n"


def _oneline(text: str) -> str:
    return " ".join(text.split())


def _quoted(text: str) -> str:
    """Text from the command line as a YAML value that reads back as exactly that text."""
    return json.dumps(text, ensure_ascii=False)


def _default_code(game_id: str) -> str:
    letters = re.sub(r"[^a-z0-9]", "", game_id).upper()
    return letters[:3] if len(letters) >= 2 else letters + "G"


def _check_name(project: Project, game_id: str) -> None:
    if not re.match(NAME, game_id):
        raise InputError.at(_shown(project.cards), None,
                            f"'{game_id}' is not a game name: use lower-case letters, digits, - and _, "
                            "starting with a letter (e.g. my-game)")
    if game_id in RESERVED_IDS:
        raise InputError.at(_shown(project.cards), None,
                            f"'{game_id}' is reserved ({RESERVED_IDS[game_id]}); choose another name")
    for folder in (project.cards / game_id, project.templates / game_id):
        if folder.exists():
            raise InputError.at(_shown(folder), None,
                                "already exists; pnpgen new never overwrites a game: choose another name "
                                "or remove the folder")


def plan(project: Project, game_id: str, title: str | None = None, code: str | None = None) -> dict[Path, str]:
    """The files of a new game, {path: text}, each YAML file starting with its schema line.
    Raises InputError (and nothing is written) for a bad or taken name or a bad title or code."""
    _check_name(project, game_id)
    title = title if title is not None else re.sub(r"[-_]+", " ", game_id).title()
    code = code if code is not None else _default_code(game_id)
    schemas = project.root / json_schemas.SCHEMA_DIR
    cards, templates = project.cards / game_id, project.templates / game_id
    files = {
        (cards / "game.yaml", "game"): GAME.format(sizes=_size_comment(),title=_oneline(title), title_yaml=_quoted(title),
                                                   code=_oneline(code), code_yaml=_quoted(code)),
        (cards / "decks" / "deck.yaml", "deck"): DECK.format(game=game_id),
        (cards / "rules.yaml", "rules"): RULES.format(),
        (templates / "front.yaml", "template"): FRONT.format(),
        (templates / "back.yaml", "template"): BACK.format(),
    }
    out = {path: json_schemas.modeline(path, schemas / json_schemas.filename(kind)) + "\n" + text
           for (path, kind), text in files.items()}
    # the title and code come from the command line: check them as the loader will
    game_yaml = cards / "game.yaml"
    validation.validate(Game, yamlsrc.loads(out[game_yaml], _shown(game_yaml)))
    return out


def new_game(project: Project, game_id: str, title: str | None = None, code: str | None = None) -> list[Path]:
    """Write a new game (and the project's schemas); return the files written. All or
    nothing: on a write error the game's folders are removed again."""
    files = plan(project, game_id, title, code)
    made = [project.cards / game_id, project.templates / game_id]
    try:
        written = json_schemas.write(project.root / json_schemas.SCHEMA_DIR)
        for path, text in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            written.append(path)
    except OSError as exc:
        for folder in made:
            shutil.rmtree(folder, ignore_errors=True)
        raise InputError.at(_shown(Path(exc.filename or project.root)), None, f"cannot write: {exc.strerror}") from None
    return written
