"""A deck file's cards are checked as the YAML parser reads them (yamlsrc.Stream), so a long
deck is never held as raw mappings; a file written another way (its cards before its settings,
settings merged in with `<<`, an entry that is not a mapping) is read again whole and gives
the same cards and the same errors."""

from __future__ import annotations

import pytest

from pnpgen.build import Project, load
from pnpgen.errors import InputError

from .minigame import make_game

GAME = "title: Mini\ncode: MIN\n"
FACE = "size: poker\nelements:\n  - text: {x: 5, y: 5, w: 50, h: 10, text: '{{ title }}'}\n"
HEAD = "name: Deck\ntemplate: face\nfields:\n  title: {required: true}\n  kind: {choices: [a, b]}\n"
CARDS = "cards:\n  - {title: One, kind: a}\n  - title: Two\n    count: 2\n    number: 7\n  - {title: Three, kind: b}\n"


def read(tmp_path, deck: str):
    make_game(tmp_path, GAME, deck, {"face": FACE})
    return load(Project(tmp_path), "mini").decks[0]


def entries(deck):
    return [(c.index, c.line, c.fields, c.count, c.template, c.number) for c in deck.cards]


@pytest.mark.parametrize("layout", ["cards last", "cards first", "merged settings"])
def test_a_deck_reads_the_same_however_its_file_is_laid_out(tmp_path, layout, monkeypatch):
    from pnpgen.sources import yamlsrc
    parsed = []
    real = yamlsrc.load
    monkeypatch.setattr(yamlsrc, "load", lambda path, *a: parsed.append(path.name) or real(path, *a))
    if layout == "cards last":
        deck, first = HEAD + CARDS, 7
    elif layout == "cards first":
        deck, first = CARDS + HEAD, 2
    else:    # settings merged in after the cards: the cards cannot be checked as they are read
        deck, first = "name: Deck\nfields:\n  title: {required: true}\n  kind: {choices: [a, b]}\n" + CARDS + \
            "<<: {template: face}\n", 6
    got = entries(read(tmp_path, deck))
    assert got == [(0, first, {"title": "One", "kind": "a"}, 1, "face", None),
                   (1, first + 1, {"title": "Two", "kind": None}, 2, "face", 7),
                   (2, first + 4, {"title": "Three", "kind": "b"}, 1, "face", None)]
    assert parsed.count("deck.yaml") == (1 if layout == "cards last" else 2)    # streamed, or read again whole


def test_errors_in_cards_read_as_they_are_parsed_name_every_entry_and_its_line(tmp_path):
    deck = HEAD + "cards:\n  - {title: One, kind: c}\n  - {kind: a}\n  - {title: Three, colour: red}\n"
    with pytest.raises(InputError) as err:
        read(tmp_path, deck)
    found = [(p.line, p.message) for p in err.value.problems]
    assert [line for line, _ in found] == [7, 8, 9]
    assert "'c' is not one of the allowed values (expected one of: a, b)" in found[0][1]
    assert "required field 'title' is missing" in found[1][1]
    assert "unknown field 'colour'" in found[2][1]


def test_an_entry_that_is_not_a_mapping_is_the_same_error_as_before(tmp_path):
    with pytest.raises(InputError) as err:
        read(tmp_path, HEAD + "cards:\n  - {title: One}\n  - just a title\n")
    (problem,) = err.value.problems
    assert problem.line == 8 and "cards[1]" in problem.message


def test_a_deck_with_no_cards_still_reads(tmp_path):
    deck = read(tmp_path, HEAD + "cards: []\n")
    assert len(deck.cards) == 0 and deck.cards.names == ("title", "kind")


def test_a_duplicate_pinned_number_is_reported_at_its_number_line(tmp_path):
    deck = HEAD + "cards:\n  - title: One\n    number: 4\n  - title: Two\n    kind: a\n    number: 4\n"
    make_game(tmp_path, GAME, deck, {"face": FACE})
    from pnpgen.game.expand import assign_numbers
    with pytest.raises(InputError) as err:
        assign_numbers(load(Project(tmp_path), "mini"))
    (problem,) = err.value.problems
    assert problem.line == 11 and "number 4 is already used" in problem.message


@pytest.mark.parametrize("data,line,needle", [
    (b"name: Deck\ntemplate: face\ncards:\n  - {title: caf\xe9}\n", 4, "not UTF-8 text"),
    (b"name: Deck\ntemplate: face\ncards:\n  - {title: One}\n  - {title: T\x01wo}\n", 5, "U+0001 is not allowed"),
])
def test_bytes_yaml_cannot_read_are_a_located_error(tmp_path, data, line, needle):
    folder = make_game(tmp_path, GAME, HEAD + "cards: []\n", {"face": FACE})
    (folder / "decks" / "deck.yaml").write_bytes(data)
    with pytest.raises(InputError) as err:
        load(Project(tmp_path), "mini")
    (problem,) = err.value.problems
    assert str(problem.path).endswith("deck.yaml") and problem.line == line and needle in problem.message
