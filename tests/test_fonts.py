"""Fonts are registered by file: two games' files of the same name keep their own font, and a
font file replaced while a preview runs is read again (with every width measured anew)."""

from __future__ import annotations

import os
import shutil

from pnpgen import fonts, ops
from pnpgen.elements.text import _unit_width
from pnpgen.layout.fingerprint import Fingerprints

SANS = fonts.HERE / "DejaVuSansCondensed.ttf"
MONO = fonts.HERE / "DejaVuSansMono.ttf"


def test_two_games_with_a_font_file_of_the_same_name_each_keep_their_own(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    shutil.copy(SANS, tmp_path / "a" / "Title.ttf")
    shutil.copy(MONO, tmp_path / "b" / "Title.ttf")
    ka = fonts.ensure("title", tmp_path / "a" / "Title.ttf")
    kb = fonts.ensure("title", tmp_path / "b" / "Title.ttf")
    assert ka != kb
    assert fonts.width("iiii", ka) < fonts.width("iiii", kb)     # condensed sans vs monospace
    assert fonts.ensure("title", tmp_path / "a" / "Title.ttf") == ka


def test_a_font_file_replaced_in_place_is_read_again(tmp_path):
    path = tmp_path / "Display.ttf"
    shutil.copy(SANS, path)
    key = fonts.ensure("display", path)
    narrow = _unit_width("iiii", key)
    text = ops.Text(((0.0, 5.0, (ops.Run(0.0, "iiii", key),)),), 10.0, None, 0.0, 0.0, 0.0)
    before = Fingerprints({}).face([text])
    shutil.copy(MONO, path)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert fonts.ensure("display", path) == key                  # the same name, the new file
    assert _unit_width("iiii", key) > narrow                     # measured anew, not from the cache
    assert Fingerprints({}).face([text]) != before               # what the face prints has changed


def _font_state(font) -> dict:
    """Everything a TTFont and its face hold that a PDF or a width depends on."""
    face = {k: v for k, v in vars(font.face).items() if k != "_pdfScale"}
    face["scaled"] = [font.face._pdfScale(x) for x in (1, 7, 2048, 1000)]
    own = {k: v for k, v in vars(font).items() if k not in ("face", "state", "encoding")}
    return {"type": (type(font), type(font.face)), "font": own, "face": face,
            "names": {k: type(v) for k, v in vars(font.face).items() if isinstance(v, bytes)},
            "encoding": vars(font.encoding)}


def test_a_face_kept_in_the_cache_is_the_face_reportlab_reads(tmp_path, monkeypatch):
    """pnpgen/fontfaces.py builds reportlab's TTFont by hand from what an earlier process
    read: every attribute must be what reportlab's own reading gives (this fails when a
    reportlab release changes them), and a PDF drawn with it is byte for byte the same."""
    from reportlab.pdfbase.ttfonts import TTFont

    from pnpgen import fontfaces
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for path in (SANS, fonts.HERE / "DejaVuSerifCondensed-Italic.ttf", fonts.VERA / "Vera.ttf"):
        read = TTFont("probe", str(path))
        first = fontfaces.load_font("probe", path)                   # read, and kept
        kept = fontfaces.load_font("probe", path)                    # taken from the cache
        assert list(fontfaces.folder().glob("*.face"))
        assert _font_state(first) == _font_state(read)
        assert _font_state(kept) == _font_state(read)
        assert kept.face.makeSubset(list(range(32, 127))) == read.face.makeSubset(list(range(32, 127)))


def test_a_damaged_cache_entry_is_read_past(tmp_path, monkeypatch):
    from pnpgen import fontfaces
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    good = _font_state(fontfaces.load_font("probe", SANS))
    (entry,) = fontfaces.folder().glob("*.face")
    entry.write_bytes(b"\x00not marshal")
    assert _font_state(fontfaces.load_font("probe", SANS)) == good
    entry.write_bytes(__import__("marshal").dumps({"charWidths": {}, "unitsPerEm": 0}))
    assert _font_state(fontfaces.load_font("probe", SANS)) == good
    (tmp_path / "file").write_text("a file where the cache folder would go")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))    # (a cache folder that cannot be made)
    assert _font_state(fontfaces.load_font("probe", MONO))["face"]["numGlyphs"] > 0
