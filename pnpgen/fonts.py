"""Fonts: TrueType only, always embedded. We ship DejaVu (a Bitstream Vera derivative,
permissive licence) in pnpgen/fonts/; reportlab's own Vera files are there too. A game
may add its own .ttf files. Fonts are registered with reportlab on first use, by
absolute path, so output never depends on the machine's installed fonts."""

from __future__ import annotations

from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from .errors import InputError

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

_registered: dict[str, Path] = {}
_metrics: dict[str, tuple[float, float]] = {}


def pdf_name(name: str, path: Path) -> str:
    """The name a font is registered under; game fonts are namespaced by their file."""
    return name if BUILTIN.get(name) == path else f"{name}@{path.stem}"


def ensure(name: str, path: Path) -> str:
    """Register the font at `path` (once) and return its reportlab name."""
    key = pdf_name(name, path)
    if key not in _registered:
        try:
            pdfmetrics.registerFont(TTFont(key, str(path)))
        except (TTFError, OSError) as exc:
            raise InputError.at(path, None, f"cannot use font '{name}': {exc}; "
                                "give a TrueType (.ttf) file that allows embedding")
        _registered[key] = path
        face = pdfmetrics.getFont(key).face
        _metrics[key] = (face.ascent / 1000.0, face.descent / 1000.0)
    return key


def ascent_descent(key: str) -> tuple[float, float]:
    """Ascent and (negative) descent at size 1, in points."""
    return _metrics[key]


def width(text: str, key: str) -> float:
    """Width of `text` at size 1, in points."""
    return pdfmetrics.stringWidth(text, key, 1.0)
