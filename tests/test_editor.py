"""Editor support: the JSON Schemas (`pnpgen schema --json`) must accept every file pnpgen
accepts and catch unknown keys and wrong types; `pnpgen new` must scaffold a game that
builds and checks as it stands, and never overwrite one."""

from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from pydantic import ValidationError

from pnpgen.schema import json_schemas
from pnpgen.game import deckfile
from pnpgen.sources import yamlsrc
from pnpgen.build import Project, games, load
from pnpgen.cli import main
from pnpgen.errors import InputError

from .test_fuzz import rounds as fuzz_rounds

ROOT = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=None)
def validator(kind: str):
    schema = json_schemas.json_schema(kind)
    return jsonschema.validators.validator_for(schema)(schema)


def schema_errors(kind: str, data) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(kind).iter_errors(data)]


def pnpgen_accepts(kind: str, data) -> bool:
    """Whether the loader accepts one file's data (a deck's cards included)."""
    try:
        parsed = json_schemas.KINDS[kind][1].model_validate(data)
        if kind == "deck":
            doc = yamlsrc.Doc(Path("deck.yaml"), data)
            for i, raw in enumerate(parsed.cards):
                deckfile._card(parsed, doc, i, raw)
    except (ValidationError, InputError):
        return False
    return True


def bundled_files() -> list[tuple[str, Path]]:
    """Every YAML file of the bundled games, as the loader finds them, by kind."""
    project = Project(ROOT)
    out = []
    for name in games(project):
        src = load(project, name)
        out.append(("game", src.doc.path))
        out += [("deck", d.path) for d in src.decks] + [("board", b.path) for b in src.boards]
        if (src.root / "rules.yaml").is_file():
            out.append(("rules", src.root / "rules.yaml"))
    out += [("template", p) for p in sorted((ROOT / "templates").glob("*/*.yaml"))]
    out += [("layout", p) for p in sorted((ROOT / "pnpgen" / "presets" / "layouts").glob("*.yaml"))]
    return [(kind, Path(p).resolve()) for kind, p in out]


BUNDLED = bundled_files()


def test_schemas_are_draft7_for_the_yaml_language_server():
    for kind in json_schemas.KINDS:
        schema = json_schemas.json_schema(kind)
        assert schema["$schema"] == json_schemas.DRAFT
        jsonschema.Draft7Validator.check_schema(schema)
        text = json.dumps(schema)
        assert "prefixItems" not in text and "$defs" not in text  # 2020-12 words a draft-07 reader skips


def test_bundled_files_cover_every_kind():
    assert {kind for kind, _ in BUNDLED} == set(json_schemas.KINDS)
    assert len(BUNDLED) > 60


@pytest.mark.parametrize("kind,path", BUNDLED, ids=[str(p.relative_to(ROOT)) for _, p in BUNDLED])
def test_every_bundled_file_validates(kind, path):
    assert schema_errors(kind, yamlsrc.load(path).data) == []


GAME = {"title": "T", "code": "TT"}
DECK = {"name": "D", "template": "front", "fields": {"title": {"required": True}}, "cards": [{"title": "A"}]}
TEMPLATE = {"size": "poker", "elements": [{"rect": {"w": 10, "h": 10}}]}
BOARD = {"name": "B", "size": [200, 300], "template": "board"}
RULES = {"rules": [{"id": "R-1", "count": 3}]}
BASE = {"game": GAME, "deck": DECK, "template": TEMPLATE, "board": BOARD, "rules": RULES}


def edited(kind, edit):
    data = json.loads(json.dumps(BASE[kind]))
    edit(data)
    return data


REJECTED = {
    "unknown game key": ("game", lambda d: d.update(titel="T")),
    "unknown field key": ("deck", lambda d: d["fields"]["title"].update(requird=True)),
    "unknown element key": ("template", lambda d: d["elements"][0]["rect"].update(colour="red")),
    "unknown element": ("template", lambda d: d["elements"].append({"rectangle": {"w": 1, "h": 1}})),
    "unknown board key": ("board", lambda d: d.update(sise=[1, 2])),
    "unknown rule key": ("rules", lambda d: d["rules"][0].update(decks="x")),
    "number as text": ("game", lambda d: d.update(bleed="lots")),
    "text as a number": ("game", lambda d: d.update(title=5)),
    "unknown paper": ("game", lambda d: d.update(paper="a5")),
    "unknown size name": ("game", lambda d: d.update(card_size="huge")),
    "size of three": ("game", lambda d: d.update(card_size=[1, 2, 3])),
    "size too small": ("template", lambda d: d.update(size=[5, 80])),
    "cards not a list": ("deck", lambda d: d.update(cards="all of them")),
    "copies as text": ("deck", lambda d: d["cards"][0].update(count="many")),
    "bool as a word": ("template", lambda d: d["elements"][0]["rect"].update(bleed="sometimes")),
    "two elements in one entry": ("template", lambda d: d["elements"][0].update(text={"text": "x", "w": 1, "h": 1})),
    "an empty entry": ("template", lambda d: d["elements"].append({})),
    "two checks in one rule": ("rules", lambda d: d["rules"][0].update(unique="title")),
    "a rule with no check": ("rules", lambda d: d["rules"][0].pop("count")),
    "an icon both image and shapes": ("game", lambda d: d.update(icons={"a": {"image": "a.png", "size": [1, 1],
                                                                            "elements": []}})),
    "missing required key": ("board", lambda d: d.pop("template")),
}


@pytest.mark.parametrize("case", REJECTED)
def test_unknown_keys_and_wrong_types_fail(case):
    kind, edit = REJECTED[case]
    data = edited(kind, edit)
    assert not pnpgen_accepts(kind, data)
    assert schema_errors(kind, data)


ACCEPTED = {
    "size by name": ("game", lambda d: d.update(card_size="tarot")),
    "size as [w, h]": ("game", lambda d: d.update(card_size=[63, 88])),
    "size as {w, h}": ("template", lambda d: d.update(size={"w": 63, "h": 88})),
    "a colour by name": ("game", lambda d: d.update(colors={"ink": "navy"})),
    "a number as text": ("game", lambda d: d.update(bleed=" 2.5 ")),
    "a whole number as text": ("template", lambda d: d["elements"].append({"polygon": {"x": 1, "y": 1, "r": 1,
                                                                                      "sides": "6"}})),
    "a YAML 1.1 yes, as an editor reads it": ("template", lambda d: d["elements"][0]["rect"].update(bleed="yes")),
    "true as 1": ("template", lambda d: d["elements"][0]["rect"].update(bleed=1)),
    "no code as 0": ("template", lambda d: d.update(code=0)),
    "an element key given as null": ("template", lambda d: d["elements"][0].update(text=None)),
    "a card's own back": ("deck", lambda d: d["cards"][0].update(back="other", count=3, number=7)),
    "a card left out (no copies)": ("deck", lambda d: d["cards"][0].update(count=0, number=None, back=None)),
    "a rule's range as an expression": ("rules", lambda d: d["rules"][0].update(count={"min": "2 * players"})),
}


@pytest.mark.parametrize("case", ACCEPTED)
def test_what_pnpgen_accepts_the_schema_accepts(case):
    kind, edit = ACCEPTED[case]
    data = edited(kind, edit)
    assert pnpgen_accepts(kind, data)
    assert schema_errors(kind, data) == []


LIKE = {   # values to put in place of a value of each type: what pydantic's lax mode might take
    bool: ["yes", "no", "On", "0", "1", 0, 1, 0.0, 2, "maybe", None],
    int: ["3", " 4 ", "1_0", "2.0", "-2", True, False, 0, 1, 3.0, 0.5, 250, "x", None],
    float: ["3", " 4.5 ", "1e3", "-2", ".5", True, 0, 1, 3.0, 250, "inf", "x", None],
    str: ["poker", "huge", "#ff0000", "red", "{{ title }}", "", "x", "yes", 5, None],
    list: [[], ["a"], [1, 2], [63, 88], [1, 2, 3], {"w": 50, "h": 60}, "poker", None],
    dict: [{}, {"min": 1}, {"w": 50, "h": 60}, [63, 88], "x", None],
}
ANY = [v for values in LIKE.values() for v in values]


def _places(node, loc=()):
    yield loc
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _places(v, loc + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _places(v, loc + (i,))


def test_the_schema_never_rejects_what_pnpgen_accepts():
    """Random one-value edits of the bundled files: whatever the loader still accepts, the
    schema must accept too (it may accept more: it cannot see other files)."""
    rng = random.Random(2026)
    docs = {}
    for kind, path in BUNDLED:
        data = yamlsrc.load(path).data
        docs.setdefault(kind, []).append((data, list(_places(data))[1:]))
    accepted = 0
    for _ in range(fuzz_rounds(250)):    # (500 until the suite ran in parallel; PNPGEN_FUZZ=N for more)
        kind = rng.choice(sorted(docs))
        data, places = rng.choice(docs[kind])
        loc = rng.choice(places)
        parent = data
        for part in loc[:-1]:
            parent = parent[part]
        key = loc[-1]
        original = parent[key]
        added = isinstance(parent, dict) and rng.random() < 0.1
        if added:   # or a new key beside it
            key, original = key + "_x", None
        like = LIKE.get(type(original))
        parent[key] = rng.choice(like if like and rng.random() < 0.7 else ANY)
        try:
            if pnpgen_accepts(kind, data):
                accepted += 1
                assert schema_errors(kind, data) == [], (kind, loc, parent[key])
        finally:
            if added:
                del parent[key]
            else:
                parent[key] = original
    assert accepted > 100   # the edits do reach files the loader accepts


def test_descriptions_come_from_the_docstrings():
    game_schema = json_schemas.json_schema("game")
    assert game_schema["properties"]["bleed"]["description"] == "Bleed around each card, mm (1/8 in by default)."
    rect = json_schemas.json_schema("template")["definitions"]["Rect"]
    assert rect["properties"]["r"]["description"] == "Corner radius, mm (0 for square corners)."
    assert rect["description"].startswith("`rect`: a filled and/or stroked rectangle")
    cards = json_schemas.json_schema("deck")["properties"]["cards"]["oneOf"][0]["items"]["properties"]  # (or a card sheet)
    assert cards["count"]["description"].startswith("Copies of this card")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_schema_json_writes_one_file_per_kind(tmp_path):
    result = run("--root", tmp_path, "schema", "--json")
    assert result.exit_code == 0, result.output
    for kind in json_schemas.KINDS:
        path = tmp_path / "schemas" / f"{kind}.schema.json"
        assert json.loads(path.read_text()) == json_schemas.json_schema(kind)
    one = run("schema", "--json", "deck")
    assert one.exit_code == 0 and json.loads(one.output) == json_schemas.json_schema("deck")
    other = run("schema", "--json", "rules", "--out", tmp_path / "elsewhere")
    assert other.exit_code == 0 and [p.name for p in (tmp_path / "elsewhere").iterdir()] == ["rules.schema.json"]
    bad = run("schema", "--json", "decks")
    assert bad.exit_code == 2 and "did you mean 'deck'" in bad.output


def test_new_game_builds_and_checks(tmp_path):
    result = run("--root", tmp_path, "new", "my-game", "--title", 'Zoë\'s "Swamp": #1')
    assert result.exit_code == 0, result.output
    files = {"game": tmp_path / "cards/my-game/game.yaml", "deck": tmp_path / "cards/my-game/decks/deck.yaml",
             "rules": tmp_path / "cards/my-game/rules.yaml", "template": tmp_path / "templates/my-game/front.yaml",
             "back": tmp_path / "templates/my-game/back.yaml"}
    for kind, path in files.items():
        first = path.read_text().splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema=")
        schema_file = (path.parent / first.split("=", 1)[1]).resolve()
        assert schema_file == (tmp_path / "schemas" / f"{'template' if kind == 'back' else kind}.schema.json").resolve()
        schema = json.loads(schema_file.read_text())
        data = yamlsrc.load(path).data
        assert list(jsonschema.Draft7Validator(schema).iter_errors(data)) == []
    assert yamlsrc.load(files["game"]).data["title"] == 'Zoë\'s "Swamp": #1'

    built = run("--root", tmp_path, "build", "my-game")
    assert built.exit_code == 0, built.output
    assert "warning:" not in built.output and "0 warnings" in built.output
    pdf = tmp_path / "out/my-game/deck.pdf"
    assert pdf.read_bytes().startswith(b"%PDF")
    checked = run("--root", tmp_path, "check", "my-game")
    assert checked.exit_code == 0, checked.output
    assert "0 errors, 0 warnings" in checked.output


def test_new_refuses_an_existing_game(tmp_path):
    assert run("--root", tmp_path, "new", "mine").exit_code == 0
    game_yaml = tmp_path / "cards/mine/game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("Mine", "My own"))
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    again = run("--root", tmp_path, "new", "mine", "--title", "Other")
    assert again.exit_code == 2
    assert "already exists" in again.output
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("name,args,message", [
    ("My-Game", [], "not a game name"),
    ("9lives", [], "not a game name"),
    ("shared", [], "reserved"),
    ("fine", ["--code", "fine"], "code"),
    ("fine", ["--title", ""], "title"),
])
def test_new_refuses_a_bad_name_and_writes_nothing(tmp_path, name, args, message):
    result = run("--root", tmp_path, "new", name, *args)
    assert result.exit_code == 2
    assert message in result.output
    assert list(tmp_path.iterdir()) == []


def test_new_refuses_when_only_the_templates_exist(tmp_path):
    (tmp_path / "templates/mine").mkdir(parents=True)
    result = run("--root", tmp_path, "new", "mine")
    assert result.exit_code == 2 and "templates/mine" in result.output
    assert not (tmp_path / "cards").exists()
