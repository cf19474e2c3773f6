"""A long deck file read again after an edit (game/reread.py): only the entries around the
edit are parsed, and what the game holds afterwards (every card's values, lines, counts,
templates, backs and numbers, every recorded line, the deck's settings) or what is wrong with
it is exactly what reading the file whole gives, for any edit."""

from __future__ import annotations

import filecmp
import hashlib
import json
import os
import random
from pathlib import Path

import pytest

from pnpgen.build import Options, Project, build_game
from pnpgen.errors import InputError
from pnpgen.game import reread
from pnpgen.game.loader import load_game

from .minigame import make_game

GAME = "title: Reread Game\ncode: RG\n"
FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#e8e0c8", bleed: true}
  - text: {x: 5, y: 6, w: 53.5, h: 10, text: "{{ title }}", size: 12}
  - text: {x: 5, y: 40, w: 53.5, h: 30, text: "{{ body }}", size: 9}
"""
OTHER = FACE.replace("#e8e0c8", "#c8d8e8")
BACK = "size: poker\nelements:\n  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: '#1f3a5f', bleed: true}\n"
HEADER = ("# a deck of many styles\nname: Reread deck\ntemplate: face\nback: {template: back}\n"
          "fields: {title: {required: true}, body: {default: ''}, power: {type: int, default: 0},\n"
          "         tags: {type: list, default: []}}\ncards:\n")


def entry(i: int) -> str:
    """Card entry `i`, in one of several YAML styles (flow, block, folded text, comments...)."""
    style = i % 7
    if style == 0:
        return f'  - {{title: "Card {i}", body: "Draw {i % 5} cards.", power: {i}}}\n'
    if style == 1:
        return f"  - title: Card {i}\n    body: >\n      Folded text of card {i},\n      over two lines.\n    number: {1000 + i}\n"
    if style == 2:
        return f"  # card {i} follows\n  - title: 'Card {i}'\n    tags: [red, card{i}]\n    count: 2\n\n"
    if style == 3:
        return f"  - {{title: Card {i}, template: other}}\n"
    if style == 4:
        return f"  - title: \"Card {i} \\u00e9t\u00e9\"\n    body: |\n      Line one\n      Line two of {i}\n"
    if style == 5:
        return f"  - {{title: Card {i}, back: back, power: -{i}}}  # a comment\n"
    return f"  -\n    title: Card {i}\n    power: 0x{i:x}\n"


def deck_text(n: int) -> str:
    return HEADER + "".join(entry(i) for i in range(n)) + "# the end\n"


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setattr(reread, "MIN_BYTES", 0)
    folder = make_game(tmp_path, GAME, deck_text(120), {"face": FACE, "other": OTHER, "back": BACK}, game_id="game")
    return tmp_path, folder / "decks" / "deck.yaml"


def state(root: Path, kept):
    """What loading the game gives: each deck's cards, lines and settings, or the problems."""
    try:
        g = load_game(root / "cards", root / "templates", "game", kept)
    except InputError as exc:
        return "problems", [str(p) for p in exc.problems]
    out = []
    for d in g.decks:
        c = d.cards
        out.append((d.id, c.values, list(c.lines), list(c.counts), list(c.numbers), c.templates, c.backs,
                    bytes(c.own), dict(d.doc.lines), {k: list(v) for k, v in d.doc.rows.items()},
                    d.deck.model_dump()))
    return "game", out


def kept_in(root: Path) -> reread.Kept:
    return reread.Kept(root / "out" / ".cache" / "decks", "test")


def fragments(monkeypatch) -> list[int]:
    """The length of each fragment reread parses from here on."""
    seen: list[int] = []
    parse = reread.parse

    def counted(memo, edit, shown):
        seen.append(len(edit.fragment))
        return parse(memo, edit, shown)
    monkeypatch.setattr(reread, "parse", counted)
    return seen


def test_an_edited_entry_is_parsed_alone_and_the_game_is_what_a_whole_read_gives(game, monkeypatch):
    root, deck = game
    kept = kept_in(root)
    first = state(root, kept)
    assert first[0] == "game" and len(first[1][0][1][0]) == 120
    assert list((root / "out" / ".cache" / "decks").glob("*.deck")), "a whole read keeps a memo"
    seen = fragments(monkeypatch)
    text = deck.read_text()
    deck.write_text(text.replace("Card 57\n", "Card fifty-seven, now with a longer title\n    power: 5\n"))
    again = state(root, kept)
    assert again[0] == "game" and again == state(root, None)
    assert again != first
    assert len(seen) == 1 and seen[0] < len(text) / 20        # a few entries, not the file
    assert again[1][0][1][0][57] == "Card fifty-seven, now with a longer title"


def test_an_unchanged_file_is_not_parsed_at_all(game, monkeypatch):
    root, _ = game
    kept = kept_in(root)
    first = state(root, kept)
    seen = fragments(monkeypatch)
    assert state(root, kept) == first and seen == []


@pytest.mark.parametrize("seed", range(int(os.environ.get("PNPGEN_FUZZ", 3))))
def test_random_edits_read_in_part_are_exactly_a_whole_read(game, seed):
    """Random edits (characters, lines, whole entries; one after another, each from the memo
    the last left) against a whole read: the same cards and lines, or the same problems."""
    root, deck = game
    kept = kept_in(root)
    rng = random.Random(seed)
    pieces = ["\n", "  - ", "    ", "{", "}", ": ", '"', "'", "title: X", "count: 3", "number: 7", "#", "&a ",
              "*a", "<<: {body: m}", "%YAML 1.1\n", "cards:\n", "\t", "- ", "power: x", "é", "[", "]", ",", "|\n",
              "  - {title: New}\n", "template: nope", "back: other", "\r\n", "\r", "\u2028", "\x85", "\ufeff", ""]
    text = deck.read_text()
    state(root, kept)
    same = 0
    for _ in range(40):
        at = rng.randrange(len(text))
        cut = rng.choice([0, 0, 1, 2, 5, 30, 200])
        if rng.random() < 0.3:          # a whole line, in or out
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at) + 1 or len(text)
            text = text[:start] + (text[start:end] if rng.random() < 0.5 else "") + text[start:]
        else:
            text = text[:at] + "".join(rng.choice(pieces) for _ in range(rng.randrange(3))) + text[at + cut:]
        deck.write_text(text)
        part, whole = state(root, kept), state(root, None)
        assert part == whole, f"after an edit at {at}"
        same += part[0] == "game"
        if part[0] == "problems" and rng.random() < 0.7:   # mend it, as a designer would
            text = deck_text(120)
            deck.write_text(text)
            assert state(root, kept) == state(root, None)
    assert same >= 5, "some edits leave a good deck"


def test_a_memo_of_other_code_or_a_damaged_or_forged_one_is_read_past(game, monkeypatch):
    root, deck = game
    state(root, kept_in(root))
    memo = next((root / "out" / ".cache" / "decks").glob("*.deck"))
    good = memo.read_bytes()
    assert b'"Card 40"' in good
    seen = fragments(monkeypatch)
    deck.write_text(deck.read_text().replace("Card 30", "Card thirty"))
    assert state(root, reread.Kept(memo.parent, "other code")) == state(root, None) and seen == []
    memo.write_bytes(good)
    assert state(root, kept_in(root)) == state(root, None) and len(seen) == 1     # (a good one is used)
    damaged = [good[:500], good.replace(b'"Card 40"', b'"Card 41"'), b'{"format": 1}\0' + deck.read_bytes()]
    for blob in damaged:           # cut short, a value changed (it fails the digest), no memo at all
        memo.write_bytes(blob)
        seen.clear()
        assert state(root, kept_in(root)) == state(root, None) and seen == []
    forgeries = [lambda m: m.__setitem__("templates", [7] + m["templates"][1:]),
                 lambda m: m.__setitem__("backs", [5] + m["backs"][1:]),
                 lambda m: m.__setitem__("header", [5] + m["header"][1:]),
                 lambda m: m.__setitem__("deep", [7]),
                 lambda m: m.__setitem__("head", []),
                 lambda m: m.__setitem__("column", "x"),
                 lambda m: m.__setitem__("values", m["values"][:1]),
                 lambda m: m.__setitem__("starts", m["starts"] - 8),     # (the arrays after it misread)
                 lambda m: m.__setitem__("own", m["own"] - 1)]
    for forge in forgeries:        # a hand edit, its digest made anew
        memo.write_bytes(forged(good, forge))
        assert state(root, kept_in(root)) == state(root, None)


def forged(blob: bytes, change) -> bytes:
    """A memo's bytes with `change` made to its JSON part, and its digest and length made anew."""
    first, rest = blob.split(b"\n", 1)
    size = int(first.split()[1])
    kept = json.loads(rest[:size])
    change(kept)
    text = json.dumps(kept).encode()
    assert text != rest[:size]
    return hashlib.sha256(text + rest[size:]).hexdigest().encode() + b" %d\n" % len(text) + text + rest[size:]


def test_a_rebuild_after_an_edit_writes_what_a_clean_build_writes(game, monkeypatch):
    root, deck = game
    project = Project(root)
    seen = fragments(monkeypatch)
    build_game(project, "game", Options(out=root / "out", workers=1))
    deck.write_text(deck.read_text().replace("Card 90", "Card ninety"))
    build_game(project, "game", Options(out=root / "out", workers=1))
    assert len(seen) == 1
    build_game(project, "game", Options(out=root / "clean", cache=False, workers=1))
    pdfs = sorted((root / "clean" / "game").glob("*.pdf"))
    assert pdfs
    for pdf in pdfs + [root / "clean" / "game" / "manifest.json"]:
        assert filecmp.cmp(pdf, root / "out" / "game" / pdf.name, shallow=False), pdf.name
    assert not (root / "clean" / ".cache").exists(), "a build without the cache keeps no memo"


@pytest.mark.parametrize("brk", ["\r", "\u2028", "\x85"])
def test_an_edit_with_a_line_break_other_than_newline_is_read_whole(game, brk):
    """YAML breaks lines at a lone \\r and at NEL, LS and PS as well: an entry edited to hold one
    moves the lines of every entry after it as a whole read says."""
    root, deck = game
    kept = kept_in(root)
    state(root, kept)
    deck.write_text(deck.read_text().replace("  - title: Card 8\n", f"  - title: Card 8{brk}    power: 3\n"),
                    newline="")
    part, whole = state(root, kept), state(root, None)
    assert part == whole
    if whole[0] == "game":
        assert whole[1][0][2][9] > 0      # (entry 9 has a line of its own, after the edited one)


def test_a_build_keeps_one_memo_a_long_deck_and_drops_those_of_decks_gone(game, monkeypatch):
    root, deck = game
    monkeypatch.setattr(reread, "MIN_BYTES", 1000)
    assert len(deck_text(3)) < 1000 < len(deck.read_text())
    project = Project(root)
    other = root / "out" / ".cache" / "decks" / "other-game" / "0123.deck"
    other.parent.mkdir(parents=True)
    other.write_bytes(b"another game's memo")
    build_game(project, "game", Options(out=root / "out", workers=1))
    memos = root / "out" / ".cache" / "decks" / "game"
    (first,) = memos.glob("*.deck")
    deck.rename(deck.with_name("renamed.yaml"))
    build_game(project, "game", Options(out=root / "out", workers=1))
    (second,) = memos.glob("*.deck")
    assert second.name != first.name and other.is_file()
    (deck.with_name("renamed.yaml")).write_text(deck_text(3))      # too short for a memo now
    build_game(project, "game", Options(out=root / "out", workers=1))
    assert list(memos.glob("*.deck")) == [] and other.is_file()
