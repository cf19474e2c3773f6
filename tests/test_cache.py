"""The build cache (pagecache.py): a rebuild copies the pages whose cards did not change,
draws the others, and writes exactly the bytes a clean build writes."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from PIL import Image

from pnpgen.build import Options, Project, build_game

from .minigame import make_game

GAME = "title: Cache Game\ncode: CG\n"
FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#2a6f3a", bleed: true}
  - image: {src: "art/{{ art }}.png", x: 5, y: 30, w: 53.5, h: 30, when: "art"}
  - text: {x: 5, y: 10, w: 53.5, h: 12, text: "{{ title }}", size: 14, color: "#ffffff"}
  - text: {x: 5, y: 70, w: 53.5, h: 12, text: "{{ note }}", size: 9, color: "#dddddd"}
"""
BACK = "size: poker\nelements:\n  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: '#6a2a2a', bleed: true}\n"


def deck(titles, art=None):
    art = art or {}
    lines = [f"  - {{title: \"{t}\", note: \"copy {i}\"" + (f", art: {art[i]}" if i in art else "") + "}"
             for i, t in enumerate(titles)]
    return ("name: Cache deck\ntemplate: face\nback: {template: back}\n"
            "fields:\n  title: {required: true}\n  note: {}\n  art: {}\ncards:\n" + "\n".join(lines) + "\n")


def write_art(folder: Path, name: str, colour) -> None:
    (folder / "art").mkdir(exist_ok=True)
    Image.new("RGB", (40, 24), colour).save(folder / "art" / f"{name}.png")


def build(root: Path, out: Path, cache=True):
    (result,) = build_game(Project(root), "mini", Options(out=out, cache=cache))
    return result


def same_files(a: Path, b: Path) -> None:
    names = sorted(p.name for p in a.glob("*.pdf"))
    assert names and names == sorted(p.name for p in b.glob("*.pdf"))
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


@pytest.fixture
def game(tmp_path):
    titles = [f"Card {i + 1}" for i in range(40)]   # 5 sheets of 8 (9 on Letter: 5 sheets either way)
    folder = make_game(tmp_path, GAME, deck(titles, {3: "sun", 20: "moon"}), {"face": FACE, "back": BACK})
    write_art(folder, "sun", (230, 180, 40))
    write_art(folder, "moon", (90, 90, 200))
    return tmp_path, folder, titles


def test_a_one_card_edit_redraws_its_sheet_alone_and_matches_a_clean_build(game, tmp_path):
    root, folder, titles = game
    first = build(root, tmp_path / "out")
    assert first.drawn == first.pages and first.kept == 0
    again = build(root, tmp_path / "out")
    assert again.kept == again.pages and again.drawn == 0       # nothing changed: every page copied
    titles[17] = "Card seventeen, renamed"
    (folder / "decks" / "deck.yaml").write_text(deck(titles, {3: "sun", 20: "moon"}))
    edited = build(root, tmp_path / "out")
    assert edited.drawn == 1 and edited.kept == edited.pages - 1   # the front of one sheet (backs are common)
    build(root, tmp_path / "clean", cache=False)
    same_files(tmp_path / "out" / "mini", tmp_path / "clean" / "mini")
    assert not (tmp_path / "clean" / ".cache").exists()              # --no-cache keeps nothing


def test_a_new_character_recodes_every_page_and_still_matches(game, tmp_path):
    root, folder, titles = game
    build(root, tmp_path / "out")
    titles[0] = "Ærø Ünïcödé"          # characters no page had: the font's codes are laid out anew
    (folder / "decks" / "deck.yaml").write_text(deck(titles, {3: "sun", 20: "moon"}))
    edited = build(root, tmp_path / "out")
    assert edited.kept == 0 and edited.drawn == edited.pages    # every page's text may be coded anew
    build(root, tmp_path / "clean", cache=False)
    same_files(tmp_path / "out" / "mini", tmp_path / "clean" / "mini")


def test_a_changed_image_file_redraws_the_cards_that_show_it(game, tmp_path):
    root, folder, titles = game
    build(root, tmp_path / "out")
    write_art(folder, "moon", (200, 40, 40))        # same name, new pixels
    edited = build(root, tmp_path / "out")
    assert edited.drawn == 1                        # card 21's sheet
    build(root, tmp_path / "clean", cache=False)
    same_files(tmp_path / "out" / "mini", tmp_path / "clean" / "mini")


def test_pages_no_build_uses_any_more_are_dropped(game, tmp_path):
    root, folder, titles = game
    build(root, tmp_path / "out")
    db = tmp_path / "out" / ".cache" / "pages.sqlite"
    before = sqlite3.connect(db).execute("SELECT COUNT(*) FROM page").fetchone()[0]
    for i in range(8):
        titles[i] = f"Renamed {i}"
    (folder / "decks" / "deck.yaml").write_text(deck(titles, {3: "sun", 20: "moon"}))
    build(root, tmp_path / "out")
    store = sqlite3.connect(db)
    after = store.execute("SELECT COUNT(*) FROM page").fetchone()[0]
    assert before == after > 0     # the old first sheet's page gave way to the new one
    for table in ("page", "facts"):     # and no page or facts row is left that no PDF uses
        assert store.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] > 0
        assert store.execute(f"SELECT COUNT(*) FROM {table} WHERE key NOT IN (SELECT key FROM used)").fetchone() == (0,)


def test_a_template_edit_that_renumbers_its_shared_drawings_draws_the_pages_again(tmp_path):
    # the frame is a shared form named by its element's place in the template; the star above it
    # is drawn on no card, so taking it out changes no card's drawing, only the frame's name
    face = """size: poker
elements:
  - rect: {x: 20, y: 20, w: 10, h: 10, fill: gold, when: "note == 'star'"}
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#2a6f3a", bleed: true}
  - text: {x: 5, y: 10, w: 53.5, h: 12, text: "{{ title }}", size: 14, color: "#ffffff"}
"""
    make_game(tmp_path, GAME, deck([f"Card {i}" for i in range(10)]), {"face": face, "back": BACK})
    first = build(tmp_path, tmp_path / "out")
    assert first.drawn == first.pages
    (tmp_path / "templates" / "mini" / "face.yaml").write_text(face.replace(face.splitlines()[2] + "\n", ""))
    edited = build(tmp_path, tmp_path / "out")
    assert edited.drawn >= 2          # the fronts call the frame by its new name
    build(tmp_path, tmp_path / "clean", cache=False)
    same_files(tmp_path / "out" / "mini", tmp_path / "clean" / "mini")


def test_a_damaged_cache_is_ignored(game, tmp_path):
    root, folder, titles = game
    (tmp_path / "out" / ".cache").mkdir(parents=True)
    (tmp_path / "out" / ".cache" / "pages.sqlite").write_bytes(b"this is not a database" * 100)
    result = build(root, tmp_path / "out")
    assert result.kept == 0
    build(root, tmp_path / "clean", cache=False)
    same_files(tmp_path / "out" / "mini", tmp_path / "clean" / "mini")
    again = build(root, tmp_path / "out")          # the damaged store was replaced by a sound one
    assert again.kept == again.pages and again.drawn == 0


def test_every_bundled_game_builds_the_same_with_and_without_the_cache(tmp_path, project, bundled_games, built_out):
    """The session's build (`built_out`) filled an empty cache: its PDFs are a clean build's.
    A build onto a copy of that cache copies every sheet page and writes the same bytes."""
    shutil.copytree(built_out / ".cache", tmp_path / "cached" / ".cache")
    for game in bundled_games:
        build_game(project, game, Options(out=tmp_path / "clean", cache=False, rulebook=False))
        clean = sorted((tmp_path / "clean" / game).glob("*.pdf"))
        assert clean, game
        for pdf in clean:     # cold: drawn while filling the cache
            assert (built_out / game / pdf.name).read_bytes() == pdf.read_bytes(), (game, pdf.name)
        results = build_game(project, game, Options(out=tmp_path / "cached", rulebook=False))
        decks = [r for r in results if r.kind == "deck" and (r.kept or r.drawn)]
        assert decks and all(r.drawn == 0 for r in decks), game    # warm: every sheet page copied
        same_files(tmp_path / "cached" / game, tmp_path / "clean" / game)


def test_pnpgens_own_code_is_known_by_each_files_size_and_time(tmp_path):
    """A rebuild lays every page out anew after pnpgen itself changes: a file edited (its
    size or its time) gives another code digest; the same files give the same one."""
    import os

    import pnpgen
    from pnpgen.build.inputs import package_digest

    package = tmp_path / "pnpgen"
    shutil.copytree(Path(pnpgen.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__", "*.ttf"))
    first = package_digest(package, [])
    assert package_digest(package, []) == first and len(first) == 64
    layouter = package / "layout" / "layouter.py"
    st = layouter.stat()
    os.utime(layouter, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))     # saved again, a millisecond later
    touched = package_digest(package, [])
    assert touched != first
    with open(package / "presets" / "sizes.yaml", "a") as fh:
        fh.write("\n")
    assert package_digest(package, []) not in (first, touched)
