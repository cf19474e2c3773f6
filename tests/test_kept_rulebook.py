"""A rulebook is typeset again only when something it is made from changed: an unchanged
rebuild leaves the PDF in place and reports what it held; an edit to any file of the game,
another option, a PDF changed or removed in out/, or --no-cache typesets it anew, and what is
written is always what a clean build writes."""

from __future__ import annotations

import pytest

from pnpgen.build import Options, Project, build_game
from pnpgen.errors import InputError
from pnpgen.rulebook import build as rulebook_build

from .minigame import make_game
from .test_rulebook import BACK, DECK, FACE, GAME, RULES, page_texts

CROCODILE = RULES.replace("# Play", "# Play \U0001F40A")     # (a character no face has: a warning)


@pytest.fixture
def typeset(monkeypatch) -> list[str]:
    """The game of each rulebook this process typesets."""
    done = []
    write = rulebook_build.write_rulebook

    def counted(game, *args, **kwargs):
        done.append(game.id)
        return write(game, *args, **kwargs)
    monkeypatch.setattr(rulebook_build, "write_rulebook", counted)
    return done


def _game(tmp_path, rules=CROCODILE):
    folder = make_game(tmp_path, GAME, DECK, {"face": FACE, "back": BACK})
    (folder / "rulebook.md").write_text(rules)
    return folder


def _build(tmp_path, out="out", **options):
    results = build_game(Project(tmp_path), "mini", Options(out=tmp_path / out, **options))
    return next(r for r in results if r.id == "rulebook")


def _same_as_clean(tmp_path, **options) -> None:
    """out/mini's rulebook files are byte for byte those of a clean build (--no-cache) of the game as it is."""
    _build(tmp_path, "clean", cache=False, **options)
    for name in ("rulebook.pdf", "rulebook-booklet.pdf"):
        clean = tmp_path / "clean" / "mini" / name
        if clean.exists():
            assert (tmp_path / "out" / "mini" / name).read_bytes() == clean.read_bytes(), name


def test_an_unchanged_rebuild_keeps_the_rulebook_and_says_what_it_held(tmp_path, typeset):
    _game(tmp_path)
    first = _build(tmp_path)
    pdf = tmp_path / "out" / "mini" / "rulebook.pdf"
    before = pdf.stat()
    again = _build(tmp_path)
    assert typeset == ["mini"]                        # typeset once, by the first build
    assert pdf.stat().st_mtime_ns == before.st_mtime_ns and pdf.stat().st_ino == before.st_ino
    assert (again.path, again.pages, again.warnings) == (first.path, first.pages, first.warnings)
    assert first.pages > 3 and [("U+1F40A" in w.message, w.strict) for w in again.warnings] == [(True, True)]
    with pytest.raises(InputError, match="--strict"):   # its warning still fails a strict build
        _build(tmp_path, strict=True)
    _same_as_clean(tmp_path)


@pytest.mark.parametrize("change", ["deck", "rulebook", "template", "art", "option"])
def test_a_change_to_what_it_is_made_from_typesets_it_again(tmp_path, typeset, change):
    folder = _game(tmp_path)
    _build(tmp_path)
    options = {}
    if change == "deck":         # a count the rulebook prints
        deck = folder / "decks" / "deck.yaml"
        deck.write_text(deck.read_text().replace("role: Fighter, count: 3", "role: Fighter, count: 4"))
    elif change == "rulebook":
        (folder / "rulebook.md").write_text(CROCODILE.replace("# Appendix", "# Appendices"))
    elif change == "template":   # the figures of the Knight are drawn from it
        face = tmp_path / "templates" / "mini" / "face.yaml"
        face.write_text(face.read_text().replace("#2a6f3a", "#2a3a6f"))
    elif change == "art":        # any other file of the game folder, by its size and time
        (folder / "notes.txt").write_text("a file the rulebook does not read, but might")
    else:
        options = {"paper": "a4"}
    _build(tmp_path, **options)
    assert typeset == ["mini", "mini"]
    _same_as_clean(tmp_path, **options)
    text = " ".join(page_texts(tmp_path / "out" / "mini" / "rulebook.pdf"))
    assert ("The deck holds 7 cards" in text) == (change == "deck")
    assert ("Appendices" in text) == (change == "rulebook")


@pytest.mark.parametrize("damage", ["removed", "edited", "booklet removed"])
def test_a_rulebook_changed_in_out_is_typeset_again(tmp_path, typeset, damage):
    _game(tmp_path)
    _build(tmp_path, booklet=True)
    out = tmp_path / "out" / "mini"
    if damage == "removed":
        (out / "rulebook.pdf").unlink()
    elif damage == "edited":
        with open(out / "rulebook.pdf", "ab") as pdf:
            pdf.write(b"% a reader's annotation\n")
    else:
        (out / "rulebook-booklet.pdf").unlink()
    again = _build(tmp_path, booklet=True)
    assert typeset == ["mini", "mini"] and again.pages > 3
    _same_as_clean(tmp_path, booklet=True)
    assert (out / "rulebook-booklet.pdf").is_file()


def test_a_booklet_asked_for_or_not_is_another_rulebook(tmp_path, typeset):
    _game(tmp_path)
    _build(tmp_path)
    _build(tmp_path, booklet=True)
    _build(tmp_path, booklet=True)
    assert typeset == ["mini", "mini"]               # the booklet build typesets; its rebuild keeps both
    _same_as_clean(tmp_path, booklet=True)


def test_without_the_cache_it_is_always_typeset(tmp_path, typeset):
    _game(tmp_path)
    _build(tmp_path, cache=False)
    _build(tmp_path, cache=False)
    assert typeset == ["mini", "mini"]
    assert not (tmp_path / "out" / ".cache").exists()


def test_a_build_that_fails_keeps_nothing_of_its_rulebook(tmp_path, typeset):
    """A rulebook typeset by a build that fails is not kept, and the one in out/ stays the last
    good build's: the next build of the same files typesets it (then keeps it)."""
    folder = _game(tmp_path, RULES)
    _build(tmp_path)
    kept = (tmp_path / "out" / "mini" / "rulebook.pdf").read_bytes()
    (folder / "rulebook.md").write_text(CROCODILE)      # its warning fails a strict build
    with pytest.raises(InputError, match="--strict"):
        _build(tmp_path, strict=True)
    assert (tmp_path / "out" / "mini" / "rulebook.pdf").read_bytes() == kept
    _build(tmp_path)
    _build(tmp_path)
    assert typeset == ["mini", "mini", "mini"]
    _same_as_clean(tmp_path)
