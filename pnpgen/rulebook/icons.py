"""Inline icons in rulebook text: `:name:` draws the game's icon `name` inside the line, at the
size of the text around it and sitting on its baseline as on the cards, whether the rulebook
writes it or pulls it from card data (`{{ card('main', 'Surprise Audit').effect }}`).

The Markdown stage writes an icon as a zero-width `<onDraw>` tag carrying its name and shape;
`IconParagraph` turns each such tag into an inline picture as wide as the icon at its
fragment's font size, so that lines break round it; `IconCanvas` draws that picture as the
icon's vector form, the same form the game's cards place."""

from __future__ import annotations

import re

from reportlab.pdfgen.canvas import Canvas

from ..layout.layouter import ICON
from ..pdf.canvas import MM, Painter
from .wrapping import WrapOnce

PATTERN = re.compile(r"(?<![\w:]):([a-z][a-z0-9_-]*):(?![\w:])")
"""`:name:` standing apart from the words round it (so `10:30:` or `now:then:` is text)."""
TAG = "pnpgen-icon"
DROP = 0.17
"""How far below the baseline an icon's foot sits, as a share of the font size (as on the cards)."""


def markup(name: str, aspect: float) -> str:
    """The paragraph markup of one icon: its name and width-to-height ratio."""
    return f'<onDraw name="{TAG}" label="{name} {aspect:.6g}"/>'


class IconRef:
    """What an icon's inline picture draws: the icon's name."""

    def __init__(self, name: str):
        self.name = name


class IconParagraph(WrapOnce):
    """A paragraph in which every icon tag takes the room of the icon at its font size."""

    def _setup(self, text, style, bulletText, frags, cleaner):
        super()._setup(text, style, bulletText, frags, cleaner)
        for frag in self.frags:
            cb = getattr(frag, "cbDefn", None)
            if cb is None or getattr(cb, "kind", None) != "onDraw" or getattr(cb, "name", None) != TAG:
                continue
            name, aspect = cb.label.split()
            size = frag.fontSize
            cb.kind, cb.image = "img", IconRef(name)
            cb.height, cb.width, cb.valign = size, size * float(aspect), -DROP * size


def painter(c: Canvas, icons: dict, images: dict) -> Painter:
    """The canvas's one painter: the game's icon forms are defined once per PDF, however many
    figures and lines place them."""
    found = getattr(c, "_pnpgen_painter", None)
    if found is None:
        found = c._pnpgen_painter = Painter(c, icons, 0.0, images)
    return found


class IconCanvas(Canvas):
    """A canvas that draws an icon's inline picture as the icon's form."""

    def __init__(self, *args, icons: dict, images: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self._pnpgen_icons, self._pnpgen_images = icons, images

    def drawImage(self, image, x, y, width=None, height=None, mask=None, *args, **kwargs):
        if not isinstance(image, IconRef):
            return super().drawImage(image, x, y, width, height, mask, *args, **kwargs)
        name = ICON + image.name
        painter(self, self._pnpgen_icons, self._pnpgen_images).define_forms([name])
        w, h = self._pnpgen_icons[name].size
        self.saveState()
        self.translate(x, y)
        self.scale(width / (w * MM), height / (h * MM))
        self.doForm(name)
        self.restoreState()
        return width, height
