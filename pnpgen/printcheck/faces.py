"""The faces a game prints, as the print checks see them: every distinct face (a card's
front, its own back, a deck's common back, each side of a board) with the text lines and
thin lines on it, each where it prints on the card (mm, y down) and which template line
drew it, and what is drawn under them (the face without its letters and thin lines; inline
icons are drawn shapes like any other, and stay)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from .. import fonts, ops

PT = 25.4 / 72
"""Millimetres in a point."""
THIN_LINE = 2.0
"""Open stroked paths up to this wide (mm, as printed) are lines a player must see: walls,
trail lines, rules (the contrast of wider bands is that of the shapes round them)."""
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Where:
    """The template line that drew something: its file and line, and which part it is
    (`elements[3]`, or `code` for the card code)."""

    path: str
    line: int | None
    part: str


@dataclass
class TextLine:
    """One line of text as printed: its string, size (pt, scaled by any group it is in),
    colour (r, g, b in 0..1), whether its font is bold, whether it is the card code, its box
    in the text's own frame (x0, top, x1, bottom: ascent to descent, mm, inline icons
    included), the spans of its letters alone (((x0, x1), ...), one per stretch of letters
    between inline icons; None for a line of icons only, which draw in their own colours),
    its baseline and em (the font size in that frame's mm), the matrix that places the
    frame on the card, and how opaque its ink is (0..1)."""

    where: Where
    text: str
    size: float
    color: tuple
    bold: bool
    code: bool
    box: tuple
    letters: tuple | None
    baseline: float
    em: float
    matrix: tuple
    alpha: float = 1.0

    def corners(self) -> list[tuple[float, float]]:
        x0, y0, x1, y1 = self.box
        return [apply(self.matrix, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]


@dataclass
class ThinLine:
    """A stroked open path up to THIN_LINE wide: its points on the card (mm), printed width
    (mm), colour and how opaque that is (0..1)."""

    where: Where
    points: tuple
    width: float
    color: tuple
    alpha: float = 1.0


@dataclass
class Face:
    """One face to check: whose it is, its size and shape, its text and thin lines, and the
    operations that draw everything else (what the text and lines are read against)."""

    game: str
    deck: str
    code: str            # the card code; '' for a deck's common back or a board
    side: str            # 'front', 'back', or a board's side 'a' / 'b'
    card: tuple | None   # (deck file, line) of the card entry, if any
    size: tuple
    shape: str
    bleed: float
    texts: list = field(default_factory=list)
    lines: list = field(default_factory=list)
    background: list = field(default_factory=list)
    seams: list = field(default_factory=list)   # a tiled board's (Keep, axis, mm) its seams go through
    drawn_by: list = field(default_factory=list)   # the Where of each background operation
    template: str = ""   # the template file that draws the face
    placements: list = field(default_factory=list)  # placing.Placement: where it prints on the paper
    drawn: list = field(default_factory=list)    # (Where, operations) of each element, in drawing order
    outline: tuple = ()  # a hexagon's or polygon's corners (mm, y down), its cut line

    @property
    def label(self) -> str:
        if self.code:
            return self.code
        return f"the common back of {self.deck}" if self.side == "back" else f"board {self.deck} side {self.side}"


def compose(m, n) -> tuple:
    """The matrix that applies n, then m."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f)


def apply(m, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def scale_of(m) -> float:
    """How much a matrix enlarges lengths (the square root of its area scale)."""
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


def rgb(color) -> tuple:
    """A reportlab colour (None: the painter's black) as (r, g, b) in 0..1."""
    if color is None:
        return (0.0, 0.0, 0.0)
    return (float(color.red), float(color.green), float(color.blue))


def alpha_of(color) -> float:
    """How opaque a reportlab colour is, 0..1 (None: the painter's solid black)."""
    return 1.0 if color is None else float(color.alpha)


def read_face(face: Face, drawn: list, where_of) -> Face:
    """Fill `face` from `drawn`, the (element index or 'code', operations) pairs of
    Layouter.layout_by_element; `where_of(index)` names the template line of each."""
    for index, body in drawn:
        where = where_of(index)
        face.drawn.append((where, body))
        kept = _walk(face, body, IDENTITY, where, index == "code")
        face.background += kept
        face.drawn_by += [where] * len(kept)
    return face


def _walk(face: Face, body, matrix, where: Where, code: bool) -> list:
    """The operations of `body` less its text and thin lines, which go to the face's lists."""
    kept = []
    for op in body:
        kind = type(op)
        if kind is ops.Text:
            face.texts += _text_lines(op, matrix, where, code)
            icons = _icons_only(op)
            if icons is not None:      # inline icons are drawn shapes: text may sit on them
                kept.append(icons)
        elif kind is ops.Path and not op.closed and op.paint.stroke is not None and op.paint.fill is None \
                and 0 < op.paint.width * scale_of(matrix) <= THIN_LINE:
            points = tuple(apply(matrix, x, y) for x, y in op.points)
            face.lines.append(ThinLine(where, points, op.paint.width * scale_of(matrix), rgb(op.paint.stroke),
                                       alpha_of(op.paint.stroke)))
        elif kind is ops.Group:
            inner = compose(matrix, op.transform)
            kept.append(replace(op, body=tuple(_walk(face, op.body, inner, where, code))))
        else:
            kept.append(op)
    return kept


def _icons_only(op: ops.Text) -> ops.Text | None:
    """The text's inline icons without its letters (None if it has none), drawn as it draws them."""
    lines = tuple((lx, baseline, icons) for lx, baseline, runs in op.lines
                  if (icons := tuple(run for run in runs if run.icon)))
    return replace(op, lines=lines) if lines else None


def _rotation(op: ops.Text) -> tuple:
    """The matrix of a text's turn: `rotate` degrees counter-clockwise (as seen) about its centre."""
    if not op.rotate:
        return IDENTITY
    t = math.radians(op.rotate)
    cos, sin = math.cos(t), math.sin(t)
    return (cos, -sin, sin, cos, op.cx - cos * op.cx - sin * op.cy, op.cy + sin * op.cx - cos * op.cy)


def _text_lines(op: ops.Text, matrix, where: Where, code: bool) -> list[TextLine]:
    frame = compose(matrix, _rotation(op))
    size = op.size * scale_of(frame)
    out = []
    for lx, baseline, runs in op.lines:
        ink = rise = None      # x span of everything; (top, bottom)
        words, bold, letters = [], False, []     # letters: x spans of letters between icons
        after_icon = True
        for run in runs:
            left = lx + run.x
            if ink is not None and left > ink[1] + 0.1 * op.size * PT:    # a space between runs
                words.append(" ")
            if run.icon:
                w, up, down = run.w, 0.83 * run.h, 0.17 * run.h
                words.append(f":{run.text}:")
                after_icon = True
            else:
                ascent, descent = fonts.ascent_descent(run.font)
                w, up, down = fonts.width(run.text, run.font) * op.size * PT, ascent * op.size * PT, \
                    -descent * op.size * PT
                words.append(run.text)
                bold = bold or "bold" in run.font.lower()
                if run.text.strip():
                    letters = _letters(letters, left, left + w, after_icon)
                    after_icon = False
            ink = _widen(ink, left, left + w)
            rise = _widen(rise, baseline - up, baseline + down)
        text = "".join(words).strip()
        if text and ink[1] > ink[0]:
            box = (ink[0], rise[0], ink[1], rise[1])
            out.append(TextLine(where, text, size, rgb(op.color), bold, code, box, tuple(letters) or None, baseline,
                                op.size * PT, frame, alpha_of(op.color)))
    return out


def _letters(spans: list, x0: float, x1: float, new: bool) -> list:
    """The spans of letters with x0..x1 taken in: a span of its own after an icon."""
    if new or not spans:
        return spans + [(x0, x1)]
    return spans[:-1] + [_widen(spans[-1], x0, x1)]


def _widen(span: tuple | None, x0: float, x1: float) -> tuple:
    """The span (low, high) that takes in x0..x1 too (None: none yet)."""
    return (x0, x1) if span is None else (min(span[0], x0), max(span[1], x1))
