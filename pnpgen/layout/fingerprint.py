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
MEMO = 4096
"""How many operations' bytes a Fingerprints keeps (a text every card shows is one of them)."""


class Fingerprints:
    """Digests of faces drawn with one set of shared forms and images. Form and image
    digests are remembered, so a deck of a thousand faces sharing a frame hashes it once."""

    def __init__(self, forms: dict[str, ops.FormDef], root: Path | None = None):
        self.forms = forms
        self.root = root          # the game folder, for images converted in memory (keys name the source)
        self._forms: dict[str, str] = {}
        self._files: dict[str, str] = {}
        self._fonts: dict[str, str] = {}
        self._font_reprs: dict[str, str] = {}
        self._ops: dict[int, tuple] = {}            # id -> (operation, its bytes)
        self._colours: dict[int, tuple] = {}        # id -> (colour, its values, their repr)
        self._heads: dict[tuple, tuple] = {}        # (id of a size, shape) -> (the size, the bytes a face starts with)

    def face(self, body, size=None, shape: str = "rect") -> str:
        """The digest of a face: its size, its shape and everything it draws."""
        h = hashlib.sha256(self._head(size, shape))
        self._feed(h, body)
        return h.hexdigest()[:32]

    def faces(self, body, size=None, shape: str = "rect", code: str | None = None) -> tuple[str, str]:
        """The digest of a face (as `face`) and, in the same walk, its digest blind to the card
        code `code` (taken out of every text): two faces that differ only by the code they print
        have the same second digest. Without a code both are the same."""
        h = hashlib.sha256(self._head(size, shape))
        if not code:
            self._feed(h, body)
            d = h.hexdigest()[:32]
            return d, d
        b = h.copy()
        self._feed(h, body, b, code, code.encode() if CARD_CODE.fullmatch(code) else None)
        return h.hexdigest()[:32], b.hexdigest()[:32]

    def _head(self, size, shape: str) -> bytes:
        """What a face's digest starts with: its size and shape (a deck's faces share one size object)."""
        key = (id(size), shape)
        entry = self._heads.get(key)
        if entry is None:
            if len(self._heads) >= MEMO:
                self._heads.clear()
            entry = self._heads[key] = (size, repr((size, shape)).encode())   # (the size kept: its id stays its own)
        return entry[1]

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
        every text (see `faces`). Each is fed once, the whole body's bytes at a time."""
        full: list[bytes] = []
        blind: list[bytes] | None = None if b is None else []
        self._gather(body, full, blind, code, quick)
        h.update(b"".join(full))
        if b is not None:
            b.update(b"".join(blind))

    def _gather(self, body, full: list, blind: list | None, code: str, quick: bytes | None) -> None:
        """The bytes `body` draws into `full`; into `blind`, when given, the same with `code`
        taken out of every text."""
        for op in body:
            kind = type(op)
            if kind is ops.Text:
                data = self._known(op)
                if data is None:
                    data = self._remember(op, self._text(op))
                full.append(data)
                if blind is not None:
                    if quick is not None:     # a card code (SWM-017) shows in a text's bytes only where a run has it
                        blind.append(data.replace(quick, BLANK) if quick in data else data)
                    elif any(code in r.text for _, _, runs in op.lines for r in runs if not r.icon):
                        blind.append(self._text(op, code))
                    else:
                        blind.append(data)
                continue
            if kind is ops.Group:
                data = b"G" + repr((op.transform, op.clip)).encode() + _faded(op.opacity) + b"{"
                full.append(data)
                if blind is not None:
                    blind.append(data)
                self._gather(op.body, full, blind, code, quick)
                data = b"}"
            else:
                data = self._known(op)
                if data is None:
                    data = self._remember(op, self._drawing(op, kind))
            full.append(data)
            if blind is not None:
                blind.append(data)

    def _known(self, op) -> bytes | None:
        """The bytes of an operation met before (a text or shape that every card shares, laid
        out once: the same object), or None."""
        entry = self._ops.get(id(op))
        return entry[1] if entry is not None and entry[0] is op else None

    def _remember(self, op, data: bytes) -> bytes:
        """Keep an operation's bytes, with the operation itself (so its id stays its own)."""
        if len(self._ops) >= MEMO:
            self._ops.clear()
        self._ops[id(op)] = (op, data)
        return data

    def _drawing(self, op, kind) -> bytes:
        """A Form, Image, Svg, Rect, Ellipse or Path as the bytes a digest is fed."""
        if kind is ops.Form:
            return b"F" + self.form(op.name).encode() + _faded(op.opacity)
        if kind is ops.Image:
            return (b"I" + self.image(op.src).encode() + repr((op.x, op.y, op.w, op.h, op.clip)).encode()
                    + _faded(op.opacity))
        if kind is ops.Svg:
            return (b"S" + self.image(op.src).encode() + repr((op.x, op.y, op.w, op.h, op.clip,
                                                               self._colour(op.color))).encode() + _faded(op.opacity))
        # Rect, Ellipse, Path: plain values and a paint
        fields = [getattr(op, f) for f in op.__slots__ if f != "paint"]
        p = op.paint
        return kind.__name__.encode() + repr((fields, self._colour(p.fill), self._colour(p.stroke), p.width,
                                              p.dash)).encode()

    def _text(self, op, code: str = "") -> bytes:
        """A text as the bytes a digest is fed (`code`, when given, taken out of its runs):
        the repr of its values, as one string encoded once."""
        parts = ["T(", repr(op.size), ", ", self._colour_repr(op.color), ", ", repr(op.rotate), ", ",
                 repr(op.cx), ", ", repr(op.cy), ")"]
        for x, y, runs in op.lines:
            parts.append(f"({x!r}, {y!r})")
            for run in runs:
                if run.icon:
                    parts.append(f"i{self.form(ICON + run.text)}({run.x!r}, {run.w!r}, {run.h!r})")
                else:
                    text = run.text.replace(code, "\0") if code else run.text
                    parts.append(f"({run.x!r}, {text!r}, {self._font_repr(run.font)})")
        return "".join(parts).encode()

    def _font_repr(self, key: str) -> str:
        """repr of a font's digest (`font`)."""
        found = self._font_reprs.get(key)
        if found is None:
            found = self._font_reprs[key] = repr(self.font(key))
        return found

    def _colour(self, c) -> tuple | None:
        """`_colour(c)`, worked out once for each colour object (colours are shared, never changed)."""
        if c is None:
            return None
        entry = self._colours.get(id(c))
        if entry is None or entry[0] is not c:
            if len(self._colours) >= MEMO:
                self._colours.clear()
            value = _colour(c)
            entry = self._colours[id(c)] = (c, value, repr(value))
        return entry[1]

    def _colour_repr(self, c) -> str:
        """repr of `_colour(c)`."""
        if c is None:
            return "None"
        entry = self._colours.get(id(c))
        if entry is None or entry[0] is not c:
            self._colour(c)
            entry = self._colours[id(c)]
        return entry[2]


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
