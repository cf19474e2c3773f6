"""What a face prints, as a short digest: two faces with the same digest draw the same
marks on paper. Computed from the laid-out operations (not the YAML that made them), with
every shared form replaced by what it draws and every image and font by the bytes of its file, so
a reworded field that prints the same is no change, a touched-up image is one, and the
same card in another checkout (other absolute paths) has the same digest."""

from __future__ import annotations

import hashlib
from pathlib import Path

from reportlab.lib.colors import Color

from . import fonts, ops
from .layout import ICON

CONVERTED = "converted:"


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
        """The digest of an image's file; a key of an image converted in memory names its source."""
        if src not in self._files:
            path = Path(src)
            if src.startswith(CONVERTED):
                rel = src.split(":", 2)[2]
                path = (self.root / rel) if self.root else Path(rel)
            try:
                self._files[src] = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                self._files[src] = "unreadable:" + path.name
        return self._files[src]

    def _feed(self, h, body) -> None:
        for op in body:
            kind = type(op)
            if kind is ops.Form:
                h.update(b"F" + self.form(op.name).encode())
            elif kind is ops.Group:
                h.update(b"G" + repr((op.transform, op.clip)).encode() + b"{")
                self._feed(h, op.body)
                h.update(b"}")
            elif kind is ops.Image:
                h.update(b"I" + self.image(op.src).encode() + repr((op.x, op.y, op.w, op.h, op.clip)).encode())
            elif kind is ops.Text:
                h.update(b"T" + repr((op.size, _colour(op.color), op.rotate, op.cx, op.cy)).encode())
                for x, y, runs in op.lines:
                    h.update(repr((x, y)).encode())
                    for run in runs:
                        if run.icon:
                            h.update(b"i" + self.form(ICON + run.text).encode() + repr((run.x, run.w, run.h)).encode())
                        else:
                            h.update(repr((run.x, run.text, self.font(run.font))).encode())
            else:   # Rect, Ellipse, Path: plain values and a paint
                fields = [getattr(op, f) for f in op.__slots__ if f != "paint"]
                p = op.paint
                h.update(kind.__name__.encode() + repr((fields, _colour(p.fill), _colour(p.stroke), p.width,
                                                        p.dash)).encode())


def _colour(c) -> tuple | None:
    """A colour as its exact values (reportlab colours have no stable repr of their own)."""
    if c is None:
        return None
    if isinstance(c, Color):
        names = ("cyan", "magenta", "yellow", "black", "red", "green", "blue", "alpha")
        return (type(c).__name__,) + tuple(round(float(getattr(c, n)), 6) for n in names if hasattr(c, n))
    return (repr(c),)
