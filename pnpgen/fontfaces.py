"""TrueType faces read once per machine: reportlab reads every glyph's width and place from
a .ttf file each time a process registers it (some 15 ms for a DejaVu face), so what it
reads is kept in the user's cache folder, under the file's digest, and a later process
takes it from there (the font file's bytes are still read: the PDF embeds a subset of them).

This is the one module that builds reportlab's TTFont and TTFontFace objects by hand;
tests/test_fonts.py checks that a face taken from the cache is the one reportlab reads, so a
reportlab release that changes them fails there, not in a PDF."""

from __future__ import annotations

import hashlib
import marshal
from fnmatch import fnmatch
from pathlib import Path
from weakref import WeakKeyDictionary

import reportlab
from reportlab import rl_config
from reportlab.pdfbase.ttfonts import TTEncoding, TTFNameBytes, TTFont, TTFontFace

from . import files
from .errors import InputError

FORMAT = 1
"""Raised when what is kept changes shape, so older entries are not read."""

_NAMES = ("name", "familyName", "styleName", "fullName", "uniqueFontID")
"""The face's attributes that reportlab keeps as TTFNameBytes (kept as plain bytes)."""
_NOT_KEPT = ("_ttf_data", "_pdfScale", "filename")
"""The face's attributes made anew by every process: the file's bytes, its scale, its path."""


def folder() -> Path:
    """Where faces are kept: $XDG_CACHE_HOME/pnpgen/fonts, or ~/.cache/pnpgen/fonts."""
    return files.user_cache() / "fonts"


def load_font(key: str, path: Path) -> TTFont:
    """The TTFont named `key` of the file at `path`: its face from the cache when it holds
    the face of these bytes, read by reportlab (and kept) otherwise."""
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    entry = folder() / f"{digest[:32]}-{reportlab.Version}-{FORMAT}.face"
    kept = _read(entry)
    if kept is None:
        font = TTFont(key, str(path))
        _keep(entry, font.face)
        return font
    return _font(key, _face(kept, data, str(path)))


def _read(entry: Path) -> dict | None:
    """A kept face's attributes, or None (not kept, unreadable, or not what this module keeps)."""
    try:
        kept = marshal.loads(entry.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    ok = isinstance(kept, dict) and isinstance(kept.get("charWidths"), dict) and isinstance(kept.get("unitsPerEm"), int)
    return kept if ok and kept["unitsPerEm"] > 0 else None


def _keep(entry: Path, face: TTFontFace) -> None:
    """Keep a face reportlab has read; a cache folder that cannot be written is no error."""
    state = {k: (bytes(v) if k in _NAMES else v) for k, v in vars(face).items() if k not in _NOT_KEPT}
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        files.write_atomically(entry, marshal.dumps(state))
    except (OSError, ValueError, InputError):
        pass


def _face(kept: dict, data: bytes, filename: str) -> TTFontFace:
    """A TTFontFace as reportlab's reading of `data` would leave it (TTFontFile.extractInfo)."""
    face = TTFontFace.__new__(TTFontFace)
    face.__dict__.update(kept)
    for name in _NAMES:
        face.__dict__[name] = TTFNameBytes(kept[name])
    face._ttf_data, face.filename = data, filename
    units = kept["unitsPerEm"]
    face._pdfScale = (lambda x: x) if units == 1000 else (lambda x, m=1000 / units: x * m)
    return face


def _font(key: str, face: TTFontFace) -> TTFont:
    """A TTFont around `face`, as TTFont(key, filename) makes it."""
    font = TTFont.__new__(TTFont)
    font.fontName, font.face, font.encoding = key, face, TTEncoding()
    font.state = WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = not any(fnmatch(key, glob) for glob in rl_config.unShapedFontGlob)
    return font
