"""The faces a game prints, as the print checks see them: every distinct face (a card's
front, its own back, a deck's common back, each side of a board) with the text lines and
thin lines on it, each where it prints on the card (mm, y down) and which template line
drew it, and what is drawn under them (the face without its text and thin lines)."""

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
    included), the span of its letters alone (x0, x1; None for a line of icons only, which
    draw in their own colours), its baseline and em (the font size in that frame's mm), and
    the matrix that places the frame on the card."""

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

    def corners(self) -> list[tuple[float, float]]:
        x0, y0, x1, y1 = self.box
        return [apply(self.matrix, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]


@dataclass
class ThinLine:
    """A stroked open path up to THIN_LINE wide: its points on the card (mm), printed width
    (mm) and colour."""

    where: Where
    points: tuple
    width: float
    color: tuple


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


def read_face(face: Face, drawn: list, where_of) -> Face:
    """Fill `face` from `drawn`, the (element index or 'code', operations) pairs of
    Layouter.layout_by_element; `where_of(index)` names the template line of each."""
    for index, body in drawn:
        face.background += _walk(face, body, IDENTITY, where_of(index), index == "code")
    return face


def _walk(face: Face, body, matrix, where: Where, code: bool) -> list:
    """The operations of `body` less its text and thin lines, which go to the face's lists."""
    kept = []
    for op in body:
        kind = type(op)
        if kind is ops.Text:
            face.texts += _text_lines(op, matrix, where, code)
        elif kind is ops.Path and not op.closed and op.paint.stroke is not None and op.paint.fill is None \
                and 0 < op.paint.width * scale_of(matrix) <= THIN_LINE:
            points = tuple(apply(matrix, x, y) for x, y in op.points)
            face.lines.append(ThinLine(where, points, op.paint.width * scale_of(matrix), rgb(op.paint.stroke)))
        elif kind is ops.Group:
            inner = compose(matrix, op.transform)
            kept.append(replace(op, body=tuple(_walk(face, op.body, inner, where, code))))
        else:
            kept.append(op)
    return kept


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
        ink = letters = rise = None      # x spans of everything and of letters; (top, bottom)
        words, bold = [], False
        for run in runs:
            left = lx + run.x
            if ink is not None and left > ink[1] + 0.1 * op.size * PT:    # a space between runs
                words.append(" ")
            if run.icon:
                w, up, down = run.w, 0.83 * run.h, 0.17 * run.h
                words.append(f":{run.text}:")
            else:
                ascent, descent = fonts.ascent_descent(run.font)
                w, up, down = fonts.width(run.text, run.font) * op.size * PT, ascent * op.size * PT, \
                    -descent * op.size * PT
                words.append(run.text)
                bold = bold or "bold" in run.font.lower()
                if run.text.strip():
                    letters = _widen(letters, left, left + w)
            ink = _widen(ink, left, left + w)
            rise = _widen(rise, baseline - up, baseline + down)
        text = "".join(words).strip()
        if text and ink[1] > ink[0]:
            box = (ink[0], rise[0], ink[1], rise[1])
            out.append(TextLine(where, text, size, rgb(op.color), bold, code, box, letters, baseline,
                                op.size * PT, frame))
    return out


def _widen(span: tuple | None, x0: float, x1: float) -> tuple:
    """The span (low, high) that takes in x0..x1 too (None: none yet)."""
    return (x0, x1) if span is None else (min(span[0], x0), max(span[1], x1))
