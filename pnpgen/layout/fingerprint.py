"""What a face prints, as a short digest: two faces with the same digest draw the same
marks on paper. Computed from the laid-out operations (not the YAML that made them), with
every shared form replaced by what it draws and every image and font by the bytes of its file, so
a reworded field that prints the same is no change, a touched-up image is one, and the
same card in another checkout (other absolute paths) has the same digest."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from reportlab.lib.colors import Color

from .. import fonts, ops
from .layouter import ICON
from .resources import source_of

CARD_CODE = re.compile(r"[A-Z][A-Z0-9]{0,5}-[0-9]+")
"""A card code as pnpgen writes it: capitals and digits, a hyphen, a number. Nothing else a
text's encoded bytes hold can spell one (escapes `repr` writes included), so such a code is
found there exactly where the text's runs hold it, and blanked there as `_text(op, code)`
would blank it, without encoding the text again."""
BLANK = repr("\0")[1:-1].encode()


class Fingerprints:
    """Digests of faces drawn with one set of shared forms and images. Form and image
    digests are remembered, so a deck of a thousand faces sharing a frame hashes it once."""

    def __init__(self, forms: dict[str, ops.FormDef], root: Path | None = None):
        self.forms = forms
        self.root = root          # the game folder, for images converted in memory (keys name the source)
        self._forms: dict[str, str] = {}
        self._files: dict[str, str] = {}
        self._fonts: dict[str, str] = {}

    def face(self, body, size=None, shape: str = "rect") -> str:
        """The digest of a face: its size, its shape and everything it draws."""
        h = hashlib.sha256()
        h.update(repr((size, shape)).encode())
        self._feed(h, body)
        return h.hexdigest()[:32]

    def faces(self, body, size=None, shape: str = "rect", code: str | None = None) -> tuple[str, str]:
        """The digest of a face (as `face`) and, in the same walk, its digest blind to the card
        code `code` (taken out of every text): two faces that differ only by the code they print
        have the same second digest. Without a code both are the same."""
        h = hashlib.sha256()
        h.update(repr((size, shape)).encode())
        if not code:
            self._feed(h, body)
            d = h.hexdigest()[:32]
            return d, d
        b = h.copy()
        self._feed(h, body, b, code, code.encode() if CARD_CODE.fullmatch(code) else None)
        return h.hexdigest()[:32], b.hexdigest()[:32]

    def form(self, name: str) -> str:
        if name not in self._forms:
            form = self.forms.get(name)
            if form is None:
                self._forms[name] = "missing:" + name
            else:
                h = hashlib.sha256()
                h.update(repr((form.size, form.bleed)).encode())
                self._feed(h, form.body)
                self._forms[name] = h.hexdigest()
        return self._forms[name]

    def font(self, key: str) -> str:
        """A font by its file's bytes, not its registered name: a replaced .ttf is a change."""
        if key not in self._fonts:
            self._fonts[key] = fonts.digest(key)
        return self._fonts[key]

    def image(self, src: str) -> str:
        """The digest of an image's file; a key of an image converted or resampled in memory
        names its source (and the size it is resampled to)."""
        if src not in self._files:
            path, done = Path(src), ""
            made = source_of(src)
            if made is not None:
                rel, done = made
                path = (self.root / rel) if self.root else Path(rel)
            try:
                self._files[src] = hashlib.sha256(path.read_bytes()).hexdigest() + (f"@{done}" if done else "")
            except OSError:
                self._files[src] = "unreadable:" + path.name
        return self._files[src]

    def _feed(self, h, body, b=None, code: str = "", quick: bytes | None = None) -> None:
        """Feed `h` what `body` draws; and `b`, when given, the same with `code` taken out of
        every text (see `faces`)."""
        for op in body:
            kind = type(op)
            if kind is ops.Form:
                data = b"F" + self.form(op.name).encode() + _faded(op.opacity)
            elif kind is ops.Group:
                data = b"G" + repr((op.transform, op.clip)).encode() + _faded(op.opacity) + b"{"
                h.update(data)
                if b is not None:
                    b.update(data)
                self._feed(h, op.body, b, code, quick)
                data = b"}"
            elif kind is ops.Image:
                data = b"I" + self.image(op.src).encode() + repr((op.x, op.y, op.w, op.h, op.clip)).encode() + _faded(op.opacity)
            elif kind is ops.Svg:
                data = b"S" + self.image(op.src).encode() + repr((op.x, op.y, op.w, op.h, op.clip,
                                                                   _colour(op.color))).encode() + _faded(op.opacity)
            elif kind is ops.Text:
                data = self._text(op)
                if b is not None:
                    if quick is not None:     # a card code (SWM-017) shows in a text's bytes only where a run has it
                        if quick in data:
                            h.update(data)
                            b.update(data.replace(quick, BLANK))
                            continue
                    elif any(code in r.text for _, _, runs in op.lines for r in runs if not r.icon):
                        h.update(data)
                        b.update(self._text(op, code))
                        continue
            else:   # Rect, Ellipse, Path: plain values and a paint
                fields = [getattr(op, f) for f in op.__slots__ if f != "paint"]
                p = op.paint
                data = kind.__name__.encode() + repr((fields, _colour(p.fill), _colour(p.stroke), p.width,
                                                      p.dash)).encode()
            h.update(data)
            if b is not None:
                b.update(data)

    def _text(self, op, code: str = "") -> bytes:
        parts = [b"T" + repr((op.size, _colour(op.color), op.rotate, op.cx, op.cy)).encode()]
        for x, y, runs in op.lines:
            parts.append(repr((x, y)).encode())
            for run in runs:
                if run.icon:
                    parts.append(b"i" + self.form(ICON + run.text).encode() + repr((run.x, run.w, run.h)).encode())
                else:
                    text = run.text.replace(code, "\0") if code else run.text
                    parts.append(repr((run.x, text, self.font(run.font))).encode())
        return b"".join(parts)


def _faded(opacity: float) -> bytes:
    """An image's or form's opacity, as bytes to feed: none when it is opaque (so the digests
    of faces drawn before opacity existed stay as they were)."""
    return b"" if opacity >= 1 else b"@" + repr(round(float(opacity), 6)).encode()


def _colour(c) -> tuple | None:
    """A colour as its exact values (reportlab colours have no stable repr of their own)."""
    if c is None:
        return None
    if isinstance(c, Color):
        names = ("cyan", "magenta", "yellow", "black", "red", "green", "blue", "alpha")
        return (type(c).__name__,) + tuple(round(float(getattr(c, n)), 6) for n in names if hasattr(c, n))
    return (repr(c),)
