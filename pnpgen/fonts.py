"""Fonts: TrueType only, always embedded. We ship DejaVu (a Bitstream Vera derivative,
permissive licence) in pnpgen/fonts/; reportlab's own Vera files are there too. A game
may add its own .ttf files. Fonts are registered with reportlab on first use, by
absolute path, so output never depends on the machine's installed fonts."""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError

from . import fontfaces
from .errors import InputError

MAX_BYTES = 50_000_000
"""The largest font file a game may use (reportlab holds it whole while building)."""
CHECK_SECONDS = 10
DAMAGED = (OSError, ValueError, KeyError, IndexError, TypeError, ZeroDivisionError, OverflowError, struct.error)
"""What reportlab's TrueType reader raises, besides TTFError, on a file it cannot make sense of."""

HERE = Path(__file__).parent / "fonts"
VERA = Path(reportlab.__file__).parent / "fonts"

BUILTIN = {
    "sans": HERE / "DejaVuSansCondensed.ttf",
    "sans-bold": HERE / "DejaVuSansCondensed-Bold.ttf",
    "sans-italic": HERE / "DejaVuSansCondensed-Oblique.ttf",
    "serif-bold": HERE / "DejaVuSerifCondensed-Bold.ttf",
    "vera": VERA / "Vera.ttf",
    "vera-bold": VERA / "VeraBd.ttf",
    "vera-italic": VERA / "VeraIt.ttf",
}
"""Font names every template can use."""

_registered: dict[str, tuple[Path, tuple]] = {}   # key -> (file, its size and time when registered)
_keys: dict[tuple[str, Path], str] = {}             # (name, file) -> key
_metrics: dict[str, tuple[float, float]] = {}
_digests: dict[str, str] = {}
_replaced: list = []      # called when a font file changed under a registered key (width caches)


def pdf_name(name: str, path: Path) -> str:
    """The name a font is registered under; game fonts are namespaced by their file."""
    return name if BUILTIN.get(name) == path else f"{name}@{path.stem}"


def _stat(path: Path) -> tuple:
    try:
        st = path.stat()
    except OSError:
        return ()
    return (st.st_size, st.st_mtime_ns)


def ensure(name: str, path: Path) -> str:
    """Register the font at `path` and return its reportlab name. A file registered before
    is registered again when it has changed since (a preview sees a replaced .ttf), and two
    games' files of the same name each keep their own font."""
    key = _keys.get((name, path))
    if key is None:
        base = key = pdf_name(name, path)
        n = 1
        while key in _registered:
            n += 1
            key = f"{base}~{n}"
    stat = _stat(path)
    known = _registered.get(key)
    if known is None or known[1] != stat:
        if BUILTIN.get(name) != path:
            verify(name, path)
        try:
            font = fontfaces.load_font(key, path)
            pdfmetrics.registerFont(font)
        except (TTFError, *DAMAGED) as exc:
            raise InputError.at(path, None, f"cannot use font '{name}': {exc}; "
                                "give a TrueType (.ttf) file that allows embedding")
        if known is not None and pdfmetrics.getFont(key) is not font:
            # reportlab ignores a name registered before (and hands out the first font of a
            # face name again): put the new file in its place. (Two files of one face name
            # cannot both be in a PDF: reportlab names the font's objects by it.)
            pdfmetrics._fonts[key] = font
            pdfmetrics._dynFaceNames[font.face.name] = font
        _registered[key], _keys[(name, path)] = (path, stat), key
        face = pdfmetrics.getFont(key).face
        _metrics[key] = (face.ascent / 1000.0, face.descent / 1000.0)
        _digests.pop(key, None)
        if known is not None:
            for forget in _replaced:
                forget()
    return key


def verify(name: str, path: Path) -> None:
    """Refuse a font file that is too large, cut short or damaged, before reportlab reads it
    (which trusts the file's tables: a damaged character map can make it take gigabytes).
    The checks are those browsers run on web fonts: the OpenType Sanitizer's (imported only
    now, with subprocess: a game that uses the built-in fonts never needs them)."""
    import subprocess

    import ots

    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError.at(path, None, f"cannot read font '{name}': {exc.strerror or exc}") from None
    if size > MAX_BYTES:
        raise InputError.at(path, None, f"font '{name}' is {size / 1e6:.1f} MB; the limit is {MAX_BYTES / 1e6:.0f} "
                            "MB: use a subset of the font, or another one")
    try:
        run = subprocess.run([ots.OTS_SANITIZE, str(path)], capture_output=True, timeout=CHECK_SECONDS,
                             stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise InputError.at(path, None, f"font '{name}' could not be checked in {CHECK_SECONDS} s; "
                            "give another TrueType (.ttf) file") from None
    except OSError as exc:
        raise InputError.at(path, None, f"cannot check font '{name}': {exc.strerror or exc}") from None
    if run.returncode != 0:
        said = [ln.strip() for ln in (run.stderr + run.stdout).decode("utf-8", "replace").splitlines()]
        why = "; ".join(ln.removeprefix("ERROR: ") for ln in said if ln.startswith("ERROR"))[:300]
        raise InputError.at(path, None, f"font '{name}' is damaged or cut short ({why or 'not a font'}); "
                            "give an intact TrueType (.ttf) file")


def builtin(name: str = "sans") -> str:
    """A built-in font (see BUILTIN), registered, by its reportlab name: slugs, labels, marks."""
    return ensure(name, BUILTIN[name])


def known(key: str) -> bool:
    """Whether a font of this reportlab name has been registered by `ensure` in this process."""
    return key in _registered


def origin(key: str) -> tuple[str, Path] | None:
    """The (name, file) a font registered by `ensure` was registered from, by its reportlab name."""
    return next(((name, path) for (name, path), k in _keys.items() if k == key), None)


def on_replace(forget) -> None:
    """Call `forget()` whenever a registered font's file changes (caches of text widths)."""
    _replaced.append(forget)


def digest(key: str) -> str:
    """The content digest of a registered font's file: what a face's text looks like
    depends on it (the same file in another checkout has the same digest)."""
    if key not in _digests:
        entry = _registered.get(key)
        try:
            _digests[key] = hashlib.sha256(entry[0].read_bytes()).hexdigest()[:16] if entry else key
        except OSError:
            _digests[key] = key
    return _digests[key]


def ascent_descent(key: str) -> tuple[float, float]:
    """Ascent and (negative) descent at size 1, in points."""
    return _metrics[key]


def width(text: str, key: str) -> float:
    """Width of `text` at size 1, in points."""
    return pdfmetrics.stringWidth(text, key, 1.0)
