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
