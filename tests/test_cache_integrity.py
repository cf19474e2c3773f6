"""The build cache checks what it replays: a stored page whose bytes were damaged in
out/.cache/pages.sqlite is drawn anew (the PDF is the one a clean build writes, and qpdf
passes it), and a damaged, emptied, foreign or old-format store is built around: exit 0,
never a traceback."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnpgen.build.cache import FORMAT

from .clirun import pnpgen
from .minigame import make_game

GAME = "title: Kept Pages\ncode: KP\n"
FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#2a4f7a", bleed: true}
  - text: {x: 5, y: 10, w: 53.5, h: 12, text: "{{ title }}", size: 14, color: "#ffffff"}
  - text: {x: 5, y: 60, w: 53.5, h: 20, text: "{{ rule }}", size: 8, color: "#dddddd"}
"""
BACK = "size: poker\nelements:\n  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: '#6a2a2a', bleed: true}\n"
DECK = ("name: Kept\ntemplate: face\nback: {template: back}\nfields:\n  title: {required: true}\n  rule: {}\n"
        "cards:\n" + "".join(f"  - {{title: \"Card {i}\", rule: \"Draw {i % 3 + 1}, then discard one.\"}}\n"
                              for i in range(30)))


@pytest.fixture
def kept(tmp_path):
    """A game built once with the cache (out/) and once without (clean/): (root, store)."""
    make_game(tmp_path, GAME, DECK, {"face": FACE, "back": BACK})
    assert pnpgen("build", "mini", "--out", "clean", "--no-cache", cwd=tmp_path).returncode == 0
    assert pnpgen("build", "mini", cwd=tmp_path).returncode == 0
    store = tmp_path / "out" / ".cache" / "pages.sqlite"
    assert store.is_file()
    return tmp_path, store


def rebuild(root: Path, *args: str):
    """Build again with the PDF gone (so every kept page is copied from the store, not skipped
    with the file); the run, checked to be no traceback."""
    (root / "out" / "mini" / "deck.pdf").unlink()
    ran = pnpgen("build", "mini", *args, cwd=root)
    assert "Traceback" not in ran.stderr, ran.stderr
    return ran


def same_as_clean(root: Path) -> bool:
    return (root / "out" / "mini" / "deck.pdf").read_bytes() == (root / "clean" / "mini" / "deck.pdf").read_bytes()


def flip_a_byte_of_a_stored_page(store: Path) -> None:
    """Damage the bytes of one stored page in the file itself, as a bad disk would (SQLite
    reads them back without complaint)."""
    db = sqlite3.connect(store)
    contents = [bytes(c) for (c,) in db.execute("SELECT content FROM page ORDER BY key")]
    db.close()
    raw = bytearray(store.read_bytes())
    for content in contents:
        sample = content[40:72]
        if len(sample) == 32 and raw.count(sample) == 1:
            at = raw.index(sample) + 16
            raw[at] ^= 0x55
            store.write_bytes(bytes(raw))
            return
    raise AssertionError("no stored page's bytes found once in the file")


def test_a_damaged_stored_page_is_drawn_anew_not_copied(kept):
    root, store = kept
    flip_a_byte_of_a_stored_page(store)
    ran = rebuild(root, "-v")
    assert ran.returncode == 0
    assert "pages.sqlite: a kept page" in ran.stderr and "drawing it anew" in ran.stderr
    assert same_as_clean(root)           # byte for byte the PDF a build without the cache writes
    reader = PdfReader(root / "out" / "mini" / "deck.pdf")
    assert all("Card" in page.extract_text() or i % 2 for i, page in enumerate(reader.pages))
    if shutil.which("qpdf"):
        check = subprocess.run(["qpdf", "--check", root / "out" / "mini" / "deck.pdf"], capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr
    again = rebuild(root, "-v")          # the new drawing took the damaged one's place in the store
    assert again.returncode == 0 and "damaged" not in again.stderr and same_as_clean(root)


@pytest.mark.parametrize("damage", [
    "UPDATE page SET content = substr(content, 1, length(content) / 2)",     # truncated
    "UPDATE page SET content = zeroblob(length(content))",
    "UPDATE page SET meta = 'not json'",
    "UPDATE page SET checksum = NULL",
    "UPDATE facts SET data = substr(data, 2)",
    "UPDATE facts SET data = NULL, checksum = NULL",
    "DROP TABLE page",
    "DROP TABLE facts",
    "DROP TABLE used",
    "DROP TABLE volume",
], ids=["truncated-page", "zeroed-page", "bad-meta", "no-checksum", "cut-facts", "null-facts", "no-page-table",
        "no-facts-table", "no-used-table", "no-volume-table"])
def test_a_damaged_store_builds_the_clean_pdf(kept, damage):
    root, store = kept
    db = sqlite3.connect(store)
    with db:
        db.execute(damage)
    db.close()
    assert rebuild(root).returncode == 0 and same_as_clean(root)
    assert rebuild(root).returncode == 0 and same_as_clean(root)     # and the store is sound again


@pytest.mark.parametrize("replace", ["text", "truncated", "folder", "old-format"])
def test_a_foreign_or_broken_store_file_is_built_around(kept, replace):
    root, store = kept
    if replace == "text":
        store.write_bytes(b"this is not a database\n" * 200)
    elif replace == "truncated":
        store.write_bytes(store.read_bytes()[: store.stat().st_size // 3])
    elif replace == "folder":
        store.unlink()
        store.mkdir()
    else:                                # a store an earlier pnpgen wrote: pages without a digest
        store.unlink()
        db = sqlite3.connect(store)
        db.execute("CREATE TABLE page (key TEXT PRIMARY KEY, content BLOB, meta TEXT)")
        db.execute("INSERT INTO page VALUES ('k', x'00', '{}')")
        db.execute(f"PRAGMA user_version = {FORMAT - 1}")
        db.commit()
        db.close()
    assert rebuild(root).returncode == 0 and same_as_clean(root)
    if replace != "folder":              # replaced by a sound store of this format
        db = sqlite3.connect(store)
        assert db.execute("PRAGMA user_version").fetchone()[0] == FORMAT
        assert db.execute("SELECT COUNT(*) FROM page WHERE checksum IS NOT NULL").fetchone()[0] > 0
        db.close()
    assert rebuild(root).returncode == 0 and same_as_clean(root)
