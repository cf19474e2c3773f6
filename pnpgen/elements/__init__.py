"""The layout vocabulary: one small module per element kind.

A template's `elements:` list holds entries like `- rect: {x: 0, y: 0, w: 63.5, h: 10}`;
ELEMENTS maps each key to its model class.
"""

from .circle import Circle
from .image import Image
from .line import Line
from .polygon import Polygon
from .rect import Rect
from .text import Text

ELEMENTS = {
    "rect": Rect,
    "circle": Circle,
    "polygon": Polygon,
    "line": Line,
    "text": Text,
    "image": Image,
}
