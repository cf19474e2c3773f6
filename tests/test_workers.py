"""A long deck is laid out and drawn by worker processes (forked) while the build puts their
pages into the PDF: the files are byte for byte those one process writes, with the same
warnings, the same located errors, and the build cache and manifest as they would be."""

from __future__ import annotations

import filecmp
import shutil
from pathlib import Path

import pytest
from PIL import Image

from pnpgen import fonts
from pnpgen.build import Options, Project, build_game
from pnpgen.build.workers import SHEETS_EACH, worker_count
from pnpgen.errors import InputError
from pnpgen.pdf import replay

from .minigame import make_game

GAME = "title: Worker Game\ncode: WG\nfonts: {fancy: fonts/fancy.ttf}\n"
FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#e8e0c8", bleed: true}
  - text: {x: 5, y: 6, w: 53.5, h: 10, text: "{{ title }}", size: 13}
  - text: {x: 5, y: 40, w: 53.5, h: 4, text: "{{ body }}", size: 9, min_size: 9}
"""
PICTURE = FACE + "  - image: {x: 10, y: 55, w: 40, h: 25, src: art/cmyk.jpg}\n"
FANCY = FACE.replace("size: 13}", "size: 13, font: fancy}")
BACK = "size: poker\nelements:\n  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: '#1f3a5f', bleed: true}\n"
OWN_BACK = BACK + "  - text: {x: 5, y: 40, w: 53.5, h: 10, text: \"{{ title }} \u2192 back\", size: 12, color: white}\n"


def card(i: int) -> str:
    body = "Draw a card." if i % 37 else "Far too much text to ever fit in the one line this box has room for"
    title = f"Card {i}" + (" \u00e9t\u00e9" if i > 160 else "")        # characters met only by the last worker
    extra = ", template: picture" if i % 25 == 3 and i < 170 else ""   # an image converted in memory
    extra += ", back: own" if i % 11 == 0 else ""                      # its own back, in a deck with a common one
    extra += ", template: fancy" if i > 170 else ""                    # a game font met first by a worker
    return f'  - {{title: "{title}", body: "{body}"{extra}}}'


def deck(n: int) -> str:
    return ("name: Long deck\ntemplate: face\nback: {template: back}\n"
            "fields: {title: {required: true}, body: {}}\ncards:\n"
            + "\n".join(card(i) for i in range(1, n + 1)) + "\n")


def make(root: Path, n: int = 200) -> Path:
    folder = make_game(root, GAME, deck(n), {"face": FACE, "picture": PICTURE, "fancy": FANCY, "back": BACK,
                                                         "own": OWN_BACK})
    (folder / "fonts").mkdir()
    shutil.copy(fonts.BUILTIN["serif-bold"], folder / "fonts" / "fancy.ttf")
    (folder / "art").mkdir()
    Image.new("CMYK", (120, 80), (0, 128, 255, 20)).save(folder / "art" / "cmyk.jpg")
    return folder


def build(root: Path, out: str, workers: int | None, **options):
    return build_game(Project(root), "mini", Options(out=root / out, workers=workers, **options))


def same_files(a: Path, b: Path) -> list[str]:
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir()) and any(n.endswith(".pdf") for n in names)
    return [n for n in names if not filecmp.cmp(a / n, b / n, shallow=False)]


def test_workers_write_the_bytes_one_process_writes(tmp_path):
    make(tmp_path)
    (shared,) = build(tmp_path, "many", 3, volume_sheets=13, cache=False)   # (first: a worker meets the font)
    (alone,) = build(tmp_path, "one", 1, volume_sheets=13, cache=False)
    assert worker_count(13, 3) == worker_count(12, 3) == 2       # (so both volumes really were shared)
    assert alone.sheets == shared.sheets == 25 and len(shared.volumes) == 2
    assert same_files(tmp_path / "one" / "mini", tmp_path / "many" / "mini") == []     # PDFs and manifest
    assert [str(w) for w in shared.warnings] == [str(w) for w in alone.warnings]
    assert len(alone.warnings) == 5 and "WG-037" in str(alone.warnings[0])


def test_workers_fill_and_use_the_build_cache_as_one_process_does(tmp_path):
    folder = make(tmp_path)
    build(tmp_path, "out", 3, volume_sheets=13)                         # fills the cache
    deck_file = folder / "decks" / "deck.yaml"
    deck_file.write_text(deck_file.read_text().replace('"Card 100"', '"Card 100, edited"'))
    (again,) = build(tmp_path, "out", 3, volume_sheets=13)
    assert 0 < again.drawn <= 4 and again.kept == 2 * 25 - again.drawn  # the edited card's pages only
    (clean,) = build(tmp_path, "clean", 1, volume_sheets=13, cache=False)
    assert same_files(tmp_path / "clean" / "mini", tmp_path / "out" / "mini") == []


def test_a_layout_error_met_by_a_worker_is_the_error_one_process_gives(tmp_path):
    folder = make(tmp_path)
    (folder.parent.parent / "templates" / "mini" / "fancy.yaml").write_text(FANCY + "  - image: {x: 1, y: 1, w: 9, h: 9, src: art/nosuch.png}\n")
    errors = []
    for workers in (1, 3):
        with pytest.raises(InputError) as caught:
            build(tmp_path, f"out{workers}", workers, volume_sheets=13)
        errors.append(str(caught.value))
        assert not (tmp_path / f"out{workers}" / "mini").exists() or not list((tmp_path / f"out{workers}" / "mini").iterdir())
    assert errors[0] == errors[1] and "fancy.yaml:6" in errors[0] 


def test_a_page_a_worker_cannot_vouch_for_is_drawn_by_the_build_itself(tmp_path, monkeypatch):
    make(tmp_path)
    (alone,) = build(tmp_path, "one", 1, volume_sheets=13, cache=False)
    record = replay.PageRecorder.record
    refused = []

    def refuse_some(self, end_page, images):          # (a worker's recorder turning pages down)
        entry = record(self, end_page, images)
        if len(self.c._doc.Pages.pages) % 5 == 0:
            refused.append(1)
            return None
        return entry
    monkeypatch.setattr(replay.PageRecorder, "record", refuse_some)
    (shared,) = build(tmp_path, "many", 3, volume_sheets=13, cache=False)
    assert same_files(tmp_path / "one" / "mini", tmp_path / "many" / "mini") == []
    assert shared.drawn == alone.drawn == 50 and refused


def test_a_short_deck_is_drawn_in_one_process():
    assert worker_count(2 * SHEETS_EACH - 1, None) == 1
    assert worker_count(100, 1) == 1


def test_what_a_workers_expressions_compile_to_is_kept_by_the_build(tmp_path, monkeypatch):
    """A worker's own additions to the kept expression answers (expr/kept.py) die with it, so
    it hands them to the build, which keeps them: a later process compiles the text without
    Jinja's code generator, though only workers ever laid the deck out."""
    import uuid

    from pnpgen import expr
    from pnpgen.expr import kept
    from pnpgen.expr.sandbox import SafeEnvironment
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for store in kept._STORES:
        monkeypatch.setattr(store, "values", None)
        monkeypatch.setattr(store, "added", 0)
        monkeypatch.setattr(store, "new", [])
    text = "{{ title|upper }} " + uuid.uuid4().hex        # (a text no other test compiled in this process)
    folder = make(tmp_path, 120)
    template = folder.parent.parent / "templates" / "mini" / "face.yaml"
    template.write_text(template.read_text().replace('text: "{{ title }}"', f'text: "{text}"'))
    (shared,) = build(tmp_path, "out", 3, cache=False)
    assert shared.sheets == 15 and worker_count(15, 3) == 2
    for store in kept._STORES:
        store.forget()
    monkeypatch.setattr(SafeEnvironment, "_generate", lambda *a, **k: pytest.fail("generated again"))
    assert expr.environment().from_string(text).render(title="hive").startswith("HIVE ")
