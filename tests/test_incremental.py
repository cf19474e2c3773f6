"""Incremental rebuilds: a page whose inputs are unchanged is neither laid out nor drawn (its
facts and its drawing come from the build cache), a PDF whose pages are all unchanged is not
written again, and every file is still byte for byte what a clean build writes."""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from PIL import Image

from pnpgen import fonts
from pnpgen.build import Options, Project, build_game
from pnpgen.build import workers as workers_module
from pnpgen.errors import InputError

from .minigame import make_game

GAME = "title: Incremental Game\ncode: IG\nfonts: {fancy: fonts/fancy.ttf}\ncolors: {ink: '#202020'}\n"
FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#e8e0c8", bleed: true}
  - image: {src: "art/{{ art }}.png", x: 5, y: 30, w: 53.5, h: 30, when: "art"}
  - text: {x: 5, y: 6, w: 53.5, h: 10, text: "{{ title }}", size: 13, color: ink}
  - text: {x: 5, y: 70, w: 53.5, h: 4, text: "{{ note }}", size: 9, min_size: 9, font: fancy}
"""
BACK = "size: poker\nelements:\n  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: '#1f3a5f', bleed: true}\n"
HEADER = ("name: Incremental deck\ntemplate: face\nback: {template: back}\n"
          "fields: {title: {required: true}, note: {default: 'Draw a card.'}, art: {}}\ncards:\n")
LONG = "Far too much text to ever fit in the one line this box has room for"
CARDS = 60          # and a second copy of card 26: 8 poker cards a sheet, 8 sheets in 4 volumes of 2


def card_line(i: int) -> str:
    extra = ', art: sun' if i == 4 else ''
    extra += f', note: "{LONG}"' if i % 13 == 0 else ''      # a warning (text cut short)
    extra += ', count: 2' if i == 26 else ''                  # copies: one warning for both
    return f'  - {{title: "Card {i}"{extra}}}'


def deck_text(lines: dict[int, str] | None = None, n: int = CARDS) -> str:
    lines = lines or {}
    return HEADER + "\n".join(lines.get(i, card_line(i)) for i in range(1, n + 1)) + "\n"


def make(root: Path, n: int = CARDS) -> Path:
    folder = make_game(root, GAME, deck_text(n=n), {"face": FACE, "back": BACK})
    (folder / "fonts").mkdir()
    shutil.copy(fonts.BUILTIN["serif-bold"], folder / "fonts" / "fancy.ttf")
    (folder / "art").mkdir()
    Image.new("RGB", (40, 24), (230, 180, 40)).save(folder / "art" / "sun.png")
    return folder


def build(root: Path, out: str, cache: bool = True, workers: int | None = 1, volume_sheets: int = 2):
    (result,) = build_game(Project(root), "mini", Options(out=root / out, cache=cache, workers=workers,
                                                          volume_sheets=volume_sheets))
    return result


def files_of(folder: Path) -> dict[str, tuple[int, int]]:
    """Each file's (inode, modification time): a file written again gets a new inode."""
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def same_as_clean(root: Path, out: str = "out", **options) -> list[str]:
    """Build clean (no cache) into a fresh folder and compare every file, manifest and all."""
    shutil.rmtree(root / "clean", ignore_errors=True)
    clean = build(root, "clean", cache=False, **options)
    a, b = root / out / "mini", root / "clean" / "mini"
    names = sorted(p.name for p in b.iterdir())
    assert names == sorted(p.name for p in a.iterdir() if not p.name.startswith(".")) and "manifest.json" in names
    assert not list(a.glob(".*.part"))
    assert clean.kept == 0
    return [n for n in names if not filecmp.cmp(a / n, b / n, shallow=False)]


def test_a_one_card_edit_lays_out_and_draws_one_page_and_rewrites_one_volume(tmp_path, laid_out):
    folder = make(tmp_path)
    first = build(tmp_path, "out")
    assert first.drawn == first.pages == 16 and len(first.volumes) == 4 and len(laid_out) == 16
    out = tmp_path / "out" / "mini"
    before = files_of(out)
    laid_out.clear()
    unchanged = build(tmp_path, "out")
    assert laid_out == [] and unchanged.kept == 16 and unchanged.drawn == 0
    assert {n: s for n, s in files_of(out).items() if n != "manifest.json"} == \
        {n: s for n, s in before.items() if n != "manifest.json"}             # no PDF written again
    (folder / "decks" / "deck.yaml").write_text(deck_text({30: '  - {title: "Card 30, edited"}'}))
    edited = build(tmp_path, "out")
    assert laid_out == [(3, 0)]                        # card 30's sheet's front: 8 cards laid out, no more
    assert edited.drawn == 1 and edited.kept == 15
    after = files_of(out)
    assert [n for n in before if before[n] != after[n]] == ["deck-2.pdf", "manifest.json"]
    assert edited.volumes == [out / f"deck-{v}.pdf" for v in range(1, 5)]
    assert same_as_clean(tmp_path) == []


def test_cards_moved_on_sheets_of_common_backs_are_recorded_where_they_are(tmp_path, laid_out):
    """A second copy of card 3 moves every card after it one slot on, the sheets as many as
    before: each back page of common backs is drawn the same, but which card's back is in
    which slot (and which copy) has changed, and the manifest says so as a clean build does."""
    folder = make(tmp_path)
    build(tmp_path, "out")
    (folder / "decks" / "deck.yaml").write_text(deck_text({3: '  - {title: "Card 3", count: 2}'}))
    laid_out.clear()
    result = build(tmp_path, "out")
    assert (0, 1) in laid_out and (7, 1) in laid_out and result.sheets == 8
    assert same_as_clean(tmp_path) == []


@pytest.mark.parametrize("change, drawn", [
    ("template", 8),      # every front: their background is another colour
    ("image", 1),         # the sheet of the one card that shows it
    ("font", 16),         # the PDF's font state itself: every page
    ("game.yaml", 8),     # the palette's ink: every front's title
    ("deck header", 7),   # the notes' default: every front but that of the last sheet, whose cards all have their own
])
def test_an_edit_to_what_cards_are_made_from_lays_them_out_again(tmp_path, laid_out, change, drawn):
    folder = make(tmp_path)
    if change == "deck header":     # (cards 55-60 have their own note, so only their sheet keeps its front)
        own = {i: f'  - {{title: "Card {i}", note: "Own note"}}' for i in range(55, 61)}
        (folder / "decks" / "deck.yaml").write_text(deck_text(own))
    build(tmp_path, "out")
    laid_out.clear()
    if change == "template":
        face = folder.parent.parent / "templates" / "mini" / "face.yaml"
        face.write_text(FACE.replace("#e8e0c8", "#c8e0e8"))
    elif change == "image":
        Image.new("RGB", (40, 24), (40, 90, 200)).save(folder / "art" / "sun.png")
    elif change == "font":
        shutil.copy(fonts.BUILTIN["sans-italic"], folder / "fonts" / "fancy.ttf")
    elif change == "game.yaml":
        (folder / "game.yaml").write_text(GAME.replace("#202020", "#802020"))
    else:
        deck = folder / "decks" / "deck.yaml"
        deck.write_text(deck.read_text().replace("default: 'Draw a card.'", "default: 'Draw two cards.'"))
    result = build(tmp_path, "out")
    assert len(laid_out) == 16                 # every page's facts were found anew
    assert result.drawn == drawn and result.kept == 16 - drawn
    assert same_as_clean(tmp_path) == []


def test_warnings_from_kept_facts_are_a_clean_builds(tmp_path, laid_out):
    folder = make(tmp_path)
    clean = build(tmp_path, "clean", cache=False)
    build(tmp_path, "out")
    laid_out.clear()
    again = build(tmp_path, "out")
    assert laid_out == []
    warned = [str(w) for w in clean.warnings]
    assert [str(w) for w in again.warnings] == warned and len(warned) == 4    # cards 13, 26 (two copies), 39, 52
    assert "warning: deck.yaml:31: card IG-026:" in "".join(warned).replace(str(folder / "decks") + "/", "")
    # card 2 written over two lines: every card after it is a line further down, on the same page
    lines = {2: '  - {title: "Card 2",\n     note: "Two lines"}'}
    (folder / "decks" / "deck.yaml").write_text(deck_text(lines))
    laid_out.clear()
    edited = build(tmp_path, "out")
    assert laid_out == [(0, 0)]
    clean = build(tmp_path, "clean", cache=False)
    assert [str(w) for w in edited.warnings] == [str(w) for w in clean.warnings] != warned
    said = "".join(map(str, edited.warnings)).replace(str(folder / "decks") + "/", "")
    assert "warning: deck.yaml:32: card IG-026:" in said
    assert same_as_clean(tmp_path) == []


@pytest.mark.parametrize("damage", [
    "data = 'not json at all'",
    "data = replace(data, '\"IG-0', '\"IG-9')",          # still JSON, but not what was written
    "checksum = 'x' || substr(checksum, 2)",
])
def test_a_damaged_facts_row_is_not_trusted(tmp_path, laid_out, damage):
    make(tmp_path)
    build(tmp_path, "out")
    db = sqlite3.connect(tmp_path / "out" / ".cache" / "pages.sqlite")
    with db:
        kinds = _facts_rows(db)
        db.executemany("DELETE FROM facts WHERE key = ?", [(k,) for k in kinds["volume"]])   # (read page by page)
        key = min(k for k in kinds["page"] if "IG-0" in kinds["page"][k])
        db.execute(f"UPDATE facts SET {damage} WHERE key = ?", (key,))
    db.close()
    laid_out.clear()
    result = build(tmp_path, "out")
    assert len(laid_out) == 1 and laid_out[0][1] == 0     # that front page was laid out again
    assert result.drawn == 0                               # and, the same as before, copied
    assert same_as_clean(tmp_path) == []


@pytest.mark.parametrize("damage", [
    "data = 'not json at all'",
    "data = replace(data, '\"IG-0', '\"IG-9')",          # still JSON, but not what was written
    "checksum = 'x' || substr(checksum, 2)",
])
def test_a_damaged_volume_facts_row_is_not_trusted(tmp_path, laid_out, damage):
    """The facts kept for all the pages of a volume together: when damaged, the volume's pages'
    own facts are read instead (nothing is laid out again), and the manifest is as before."""
    make(tmp_path)
    build(tmp_path, "out")
    db = sqlite3.connect(tmp_path / "out" / ".cache" / "pages.sqlite")
    with db:
        volumes = _facts_rows(db)["volume"]
        key = min(k for k in volumes if "IG-0" in volumes[k])
        db.execute(f"UPDATE facts SET {damage} WHERE key = ?", (key,))
    db.close()
    laid_out.clear()
    result = build(tmp_path, "out")
    assert laid_out == [] and result.drawn == 0
    assert same_as_clean(tmp_path) == []


def _facts_rows(db) -> dict[str, dict[str, str]]:
    """The facts rows of the store, a page's and a volume's (its pages' contents in a list) apart."""
    out: dict[str, dict[str, str]] = {"page": {}, "volume": {}}
    for key, data in db.execute("SELECT key, data FROM facts"):
        out["volume" if isinstance(json.loads(data)[2], list) else "page"][key] = data
    return out


def test_a_failed_rebuild_leaves_the_files_and_the_cache_as_they_were(tmp_path, laid_out):
    folder = make(tmp_path)
    build(tmp_path, "out")
    out = tmp_path / "out" / "mini"
    before = files_of(out)
    store = (tmp_path / "out" / ".cache" / "pages.sqlite").read_bytes()
    broken = {30: '  - {title: "Card 30, edited"}', 50: '  - {title: "Card 50", art: nosuch}'}
    (folder / "decks" / "deck.yaml").write_text(deck_text(broken))
    with pytest.raises(InputError, match="nosuch"):      # card 50 is met after card 30's volume is drawn
        build(tmp_path, "out")
    assert files_of(out) == before and not list(out.glob(".*"))
    assert (tmp_path / "out" / ".cache" / "pages.sqlite").read_bytes() == store
    (folder / "decks" / "deck.yaml").write_text(deck_text({30: broken[30]}))
    laid_out.clear()
    fixed = build(tmp_path, "out")
    assert laid_out == [(3, 0)] and fixed.drawn == 1
    assert same_as_clean(tmp_path) == []


def test_workers_draw_the_pages_a_new_character_recodes(tmp_path, laid_out, monkeypatch):
    folder = make(tmp_path, 120)      # 16 sheets: one volume, shared by two workers
    started = []
    start = workers_module.Job.start
    monkeypatch.setattr(workers_module.Job, "start", lambda self, share, work: (started.append(len(share.pages)),
                                                                                start(self, share, work)))
    first = build(tmp_path, "out", workers=2, volume_sheets=50)
    assert started == [16, 16] and laid_out == []        # every page laid out and drawn by the workers
    started.clear()
    (folder / "decks" / "deck.yaml").write_text(deck_text({30: '  - {title: "Card 30, \u00e9t\u00e9"}'}, 120))
    edited = build(tmp_path, "out", workers=2, volume_sheets=50)
    assert laid_out == [(3, 0)]                           # the one page without facts, here
    assert started == [16, 16] and edited.drawn == first.pages == 32    # every page re-coded, by the workers
    assert same_as_clean(tmp_path, volume_sheets=50) == []


def test_a_pdf_removed_or_altered_in_out_is_written_again(tmp_path, laid_out):
    make(tmp_path)
    build(tmp_path, "out")
    out = tmp_path / "out" / "mini"
    (out / "deck-3.pdf").unlink()
    with open(out / "deck-1.pdf", "ab") as f:      # (a viewer or a script that appended to it)
        f.write(b"%% annotated\n")
    before = files_of(out)
    laid_out.clear()
    result = build(tmp_path, "out")
    assert laid_out == [] and result.drawn == 0 and result.kept == 16     # every page copied from the cache
    after = files_of(out)
    assert sorted(n for n in after if after[n] != before.get(n)) == ["deck-1.pdf", "deck-3.pdf", "manifest.json"]
    assert same_as_clean(tmp_path) == []
