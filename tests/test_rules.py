"""The rules-check on real mutations of the bundled games, and on a small synthetic game
for the parts of the vocabulary the bundled data does not exercise yet (variants)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pnpgen.build import Project, load
from pnpgen.errors import InputError
from pnpgen.rules.ruleset import check_game

from .clirun import pnpgen

DECK = Path("cards/swarm/decks/common.yaml")


def run_cli(root: Path, *args):
    proc = pnpgen("--root", root, *args)
    assert "Traceback" not in proc.stderr
    return proc


def edit(root: Path, rel, old, new, count=1):
    path = root / rel
    text = path.read_text()
    assert text.count(old) >= count, f"{old!r} not in {rel}"
    path.write_text(text.replace(old, new, count))
    return path


def line_of(root: Path, rel, needle) -> int:
    return next(i for i, line in enumerate((root / rel).read_text().splitlines(), 1) if needle in line)


def violations(root: Path, game="swarm"):
    return check_game(load(Project(root), game)).violations


def by_rule(vs):
    out = {}
    for v in vs:
        out.setdefault(v.rule, []).append(v)
    return out


def test_bundled_games_pass_their_rules(project, bundled_games):
    for game in bundled_games:
        report = check_game(load(project, game))
        assert report.rules > 0, f"{game} has no rules"
        assert report.violations == [], [str(v) for v in report.violations]


def test_removing_a_card_names_it(scratch):
    edit(scratch, DECK, '  - {title: "Hive", type: Evolution, attribute: Stack, scope: stack}\n', "")
    found = by_rule(violations(scratch))
    assert found["SW-01"][0].message == "missing 1 card: Hive"
    assert "72 cards, expected exactly 73" in found["SW-01-count"][0].message
    assert "14 cards with attribute = Stack, expected 15" in found["SW-03"][0].message


def test_duplicating_a_card_names_both_copies(scratch):
    line = '  - {title: "Venom", type: Evolution, attribute: Attack, scope: insects}\n'
    edit(scratch, DECK, line, line + line)
    found = by_rule(violations(scratch))
    dup = found["SW-01-once"][0]
    assert "repeats title = 'Venom'" in dup.message
    assert len(dup.cards) == 2 and dup.cards[0] != dup.cards[1]
    assert dup.path.endswith("common.yaml") and dup.line == line_of(scratch, DECK, "Venom") + 1


def test_extra_copies_break_one_of_each(scratch):
    edit(scratch, DECK, '{title: "Venom", type: Evolution, attribute: Attack, scope: insects}',
         '{title: "Venom", type: Evolution, attribute: Attack, scope: insects, count: 2}')
    found = by_rule(violations(scratch))
    assert "has 2 copies" in found["SW-01-once"][0].message


def test_changing_a_value_names_the_card_and_the_rule(scratch):
    edit(scratch, DECK, '{title: "Mandibles", type: Evolution, attribute: Attack, scope: insects}',
         '{title: "Mandibles", type: Evolution, attribute: Defense, scope: insects}')
    found = by_rule(violations(scratch))
    assert {v.message for v in found["SW-03"]} == {
        "9 cards with attribute = Attack, expected 10", "9 cards with attribute = Defense, expected 8"}
    edit(scratch, DECK, '{title: "Mandibles", type: Evolution, attribute: Defense, scope: insects}',
         '{title: "Mandibles", type: Evolution, attribute: Attack, scope: swarm}')
    found = by_rule(violations(scratch))
    scope = found["SW-07"][0]
    assert "(Mandibles)" in scope.message and scope.line == line_of(scratch, DECK, "Mandibles")


def test_moving_an_optional_card_into_the_common_deck_is_caught(scratch):
    """Like dropping an expansion flag: an optional card turns up in the base deck."""
    edit(scratch, DECK, "cards:\n", 'cards:\n  - {title: "Webs", type: Evolution, attribute: Movement, scope: insects}\n')
    found = by_rule(violations(scratch))
    assert "'Webs'" in found["SW-01"][0].message and "not on the list" in found["SW-01"][0].message
    assert any("Webs" in v.message for v in found["SW-01-once"])  # also in the optional deck


def test_cli_exit_status_and_formats(scratch):
    ok = run_cli(scratch, "check", "swarm")
    assert ok.returncode == 0 and ok.stdout.strip().splitlines()[-1].startswith("checked 1 game")
    edit(scratch, DECK, '  - {title: "Hive", type: Evolution, attribute: Stack, scope: stack}\n', "")
    bad = run_cli(scratch, "check", "swarm")
    assert bad.returncode == 1
    first = bad.stdout.splitlines()[0]
    assert first.startswith("cards/swarm/rules.yaml:") or "rules.yaml:" in first
    assert ": swarm/common: SW-01: missing 1 card: Hive" in first
    data = json.loads(run_cli(scratch, "check", "swarm", "--format", "json").stdout)
    assert data["errors"] == len(data["violations"]) >= 3
    assert {"game", "deck", "rule", "severity", "message", "file", "line", "cards"} <= set(data["violations"][0])
    gh = run_cli(scratch, "check", "--format", "github", "swarm").stdout.splitlines()
    assert gh[0].startswith("::error file=") and ",line=" in gh[0] and "SW-01" in gh[0]


def test_build_refuses_a_game_that_breaks_its_rules(scratch):
    edit(scratch, DECK, '  - {title: "Hive", type: Evolution, attribute: Stack, scope: stack}\n', "")
    out = scratch / "out"
    refused = run_cli(scratch, "build", "swarm", "--out", str(out))
    assert refused.returncode == 1 and "SW-01" in refused.stderr and "--no-check" in refused.stderr
    assert not (out / "swarm").exists()
    forced = run_cli(scratch, "build", "swarm", "--out", str(out), "--no-check")
    assert forced.returncode == 0 and (out / "swarm" / "common.pdf").is_file()


@pytest.mark.parametrize("old,new,expect", [
    ("count_by: {field: type, expect: {Evolution: 67, Event: 6}}",
     "count_by: {field: typ, expect: {Evolution: 67, Event: 6}}", "unknown field 'typ' (did you mean 'type'?)"),
    ("count_by: {field: type, expect: {Evolution: 67, Event: 6}}",
     "count_by: {field: type, expect: {Evolutoin: 67, Event: 6}}", "'Evolutoin' is not a value of 'type' (did you mean 'Evolution'?)"),
    ("    deck: optional\n    count_by:", "    deck: optionl\n    count_by:", "unknown deck 'optionl' (did you mean 'optional'?)"),
    ("    where: \"type == 'Evolution'\"\n    count_by:", "    where: \"kind == 'Evolution'\"\n    count_by:",
     "unknown name 'kind'"),
    ("    count: 73\n", "    count: 73\n    unique: title\n", "a rule has exactly one of"),
    ("    count: 73\n", "    cuont: 73\n", "unknown key 'cuont' (did you mean 'count'?)"),
    # parses in parentheses (a tuple) but is not one expression: found by tools/fuzz.py 13 2000
    ("    where: \"type == 'Evolution'\"\n    count_by:", "    where: \"type == 'Evolution',\"\n    count_by:",
     "bad expression \"type == 'Evolution',\": chunk after expression; write one expression"),
])
def test_a_wrong_rule_is_an_input_error(scratch, old, new, expect):
    edit(scratch, "cards/swarm/rules.yaml", old, new)
    with pytest.raises(InputError) as info:
        violations(scratch)
    problem = info.value.problems[0]
    assert expect in problem.message
    assert str(problem.path).endswith("rules.yaml") and problem.line
    proc = run_cli(scratch, "check", "swarm")
    assert proc.returncode == 2 and "rules.yaml:" in proc.stderr and expect in proc.stderr
    data = json.loads(run_cli(scratch, "check", "swarm", "--format", "json").stdout)
    assert data["input_errors"][0]["file"].endswith("rules.yaml") and expect in data["input_errors"][0]["message"]


MINI_GAME = """title: Mini
code: MIN
"""
MINI_DECK = """name: Objectives
template: face
fields:
  title: {required: true}
  min_players: {type: int, default: 2}
  expansion: {}
  colour: {}
cards:
  - {title: A, colour: red}
  - {title: B, colour: red}
  - {title: C, colour: blue}
  - {title: D, colour: blue}
  - {title: E, min_players: 4, colour: green}
  - {title: F, min_players: 5, expansion: tiger, colour: green}
"""
MINI_RULES = """rules:
  - id: per-players
    text: The deck for N players holds at least N + 1 cards.
    where: "min_players <= players"
    variants: {players: [2, 3, 4, 5]}
    count: {min: "players + 1"}
  - id: base-game
    text: Without expansions the deck has 5 cards.
    where: "not expansion"
    count: 5
  - id: two-per-colour
    count_by: {field: colour, each: 2}
  - id: soft
    severity: warning
    each: "title != 'A'"
    message: A is discouraged
"""


@pytest.fixture
def mini(tmp_path):
    (tmp_path / "cards" / "mini" / "decks").mkdir(parents=True)
    (tmp_path / "templates" / "mini").mkdir(parents=True)
    (tmp_path / "cards" / "mini" / "game.yaml").write_text(MINI_GAME)
    (tmp_path / "cards" / "mini" / "decks" / "objectives.yaml").write_text(MINI_DECK)
    (tmp_path / "cards" / "mini" / "rules.yaml").write_text(MINI_RULES)
    (tmp_path / "templates" / "mini" / "face.yaml").write_text(
        "elements:\n  - text: {w: 50, h: 10, text: '{{ title }}'}\n")
    return tmp_path


def test_variants_warnings_and_strict(mini):
    found = by_rule(violations(mini, "mini"))
    # 2 and 3 players see A-D (4 cards, needing 3 and 4), 4 players A-E (5), 5 players all 6
    assert "per-players" not in found
    assert found["soft"][0].severity == "warning"
    proc = run_cli(mini, "check", "mini")
    assert proc.returncode == 0 and "(warning)" in proc.stdout
    assert run_cli(mini, "check", "mini", "--strict").returncode == 1
    # take card D out of the base game: 3 players now see 3 cards, and blue has 1 card
    edit(mini, "cards/mini/decks/objectives.yaml", "{title: D, colour: blue}", "{title: D, colour: blue, min_players: 4}")
    edit(mini, "cards/mini/decks/objectives.yaml", "{title: C, colour: blue}", "{title: C, colour: blue, expansion: tiger}")
    found = by_rule(violations(mini, "mini"))
    assert [v.message for v in found["per-players"]] == ["3 cards, expected at least 4 (players = 3)"]
    assert found["base-game"][0].message == "4 cards, expected exactly 5"
    edit(mini, "cards/mini/decks/objectives.yaml", "{title: B, colour: red}", "{title: B, colour: blue}")
    found = by_rule(violations(mini, "mini"))
    assert {v.message for v in found["two-per-colour"]} == {
        "3 cards with colour = blue, expected 2", "1 card with colour = red, expected 2"}


SMT = Path("cards/swamp-monsters/decks/main.yaml")


def test_swamp_monsters_mutations_name_card_and_rule(scratch):
    edit(scratch, SMT, 'promotes: "Marsh Marshal"', 'promotes: "Marsh Marshall"')
    edit(scratch, SMT, '{title: "Swamp Bucks", type: "Resource", template: "resource", resource: "CFC", amount: 1, count: 5}',
         '{title: "Swamp Bucks", type: "Resource", template: "resource", resource: "CFC", amount: 1, count: 4}')
    edit(scratch, SMT, '{title: "War Room", type: "Capitol", template: "action", cost: 0',
         '{title: "War Room", type: "Capitol", template: "action", cost: 1')
    edit(scratch, SMT, '{title: "Swamp Patrol", type: "Operative"', '{title: "Swamp Patrol", concurrent: true, type: "Operative"')
    found = by_rule(violations(scratch, "swamp-monsters"))
    promo = found["SMT-11"][0]
    assert "High Marshal" in promo.message and "did you mean 'Marsh Marshal'" in promo.message
    assert promo.line == line_of(scratch, SMT, "Marsh Marshall")
    assert found["SMT-01"][0].message == "68 cards, expected exactly 69"
    assert "War Room" in found["SMT-10"][0].message and "Capitol cost must be 0" in found["SMT-10"][0].message
    assert "Swamp Patrol" in found["SMT-14"][0].message
    assert found["mix"][0].severity == "warning"
    assert "SMT-03" not in found and "SMT-17" not in found


def test_a_champion_in_the_main_deck_breaks_smt03(scratch):
    text = (scratch / "cards/swamp-monsters/decks/champions.yaml").read_text()
    bullfrog = next(line for line in text.splitlines() if "President Bullfrog" in line)
    edit(scratch, SMT, "cards:\n", "cards:\n" + bullfrog + "\n")
    found = by_rule(violations(scratch, "swamp-monsters"))
    assert found["SMT-03"][0].message == "1 card, expected exactly 0"
    assert "70 cards" in found["SMT-01"][0].message


MAPS_DECK = """name: Map cards
template: face
fields:
  captain: {choices: [Red, Blue, Green]}
  map: {}
  bullets: {type: list}
cards:
%s
"""
MAPS_RULES = """rules:
  - id: same-maps
    text: Every captain has the same 9 map cards.
    same_set: {group_by: captain, field: map}
  - id: nine-each
    count_by: {field: captain, each: 9}
  - id: maps-known
    refers: {field: bullets, to: deck.captain}
"""
MAPS = ["forward 1", "forward 2", "forward 3", "backward 1", "backward 2", "face N", "face S", "face E", "face W"]


def test_same_set_and_refers_with_lists(tmp_path):
    from .minigame import make_game
    rows = [f'  - {{captain: {c}, map: "{m}", bullets: [{c}]}}' for c in ("Red", "Blue", "Green") for m in MAPS]
    make_game(tmp_path, MINI_GAME, MAPS_DECK % "\n".join(rows), {"face": "elements:\n  - rect: {w: 5, h: 5}\n"},
              MAPS_RULES)
    assert violations(tmp_path, "mini") == []
    deck = "cards/mini/decks/deck.yaml"
    edit(tmp_path, deck, '{captain: Blue, map: "face W", bullets: [Blue]}', '{captain: Blue, map: "face E", bullets: [Blue, Pink]}')
    found = by_rule(violations(tmp_path, "mini"))
    assert [v.message for v in found["same-maps"]] == [
        "captain = Blue lacks face W and has extra face E (compared with captain = Red)"]
    assert "bullets = 'Pink' names nothing in deck.captain" in found["maps-known"][0].message
    assert "nine-each" not in found


CORNERS_DECK = """name: Coordinates
template: face
fields:
  colour: {}
  corners: {type: list}
  white: {type: int}
cards:
  - {colour: red, corners: [1, 1, 2, 1], white: 0}
  - {colour: red, corners: [2, 1, 3, 1], white: 0}
"""
CORNERS_RULES = """rules:
  - id: corners-in-range
    text: Corner numbers run from 1 to 4.
    allowed: {field: corners, min: 1, max: 4}
  - id: four-corners
    each: "corners|length == 4 and white in [0, 1, 2, 3]"
    message: four corner numbers and one white corner
"""


def test_list_fields_are_checked_item_by_item(tmp_path):
    from .minigame import make_game
    make_game(tmp_path, MINI_GAME, CORNERS_DECK, {"face": "elements:\n  - rect: {w: 5, h: 5}\n"}, CORNERS_RULES)
    assert violations(tmp_path, "mini") == []
    edit(tmp_path, "cards/mini/decks/deck.yaml", "corners: [2, 1, 3, 1], white: 0", "corners: [2, 5, 3], white: 0")
    found = by_rule(violations(tmp_path, "mini"))
    assert "corners = 5 is above 4" in found["corners-in-range"][0].message
    assert "four corner numbers and one white corner" in found["four-corners"][0].message


def test_unique_compares_list_fields_whose_items_are_mappings(tmp_path):
    # a list field may hold mappings; `unique` must compare them, not fail on them (tools/fuzz.py 13 2000)
    from .minigame import make_game
    deck = CORNERS_DECK.replace("corners: [1, 1, 2, 1]", "corners: [{a: 1}, [2, {b: [3]}]]").replace(
        "corners: [2, 1, 3, 1]", "corners: [{a: 1}, [2, {b: [3]}]]")
    rules = "rules:\n  - id: distinct\n    text: No two cards share corners.\n    unique: corners\n"
    make_game(tmp_path, MINI_GAME, deck, {"face": "elements:\n  - rect: {w: 5, h: 5}\n"}, rules)
    (found,) = violations(tmp_path, "mini")
    assert found.rule == "distinct" and "repeats corners = [{'a': 1}, [2, {'b': [3]}]]" in found.message
