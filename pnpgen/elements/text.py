"""`text`: a text box with wrapping, alignment, rotation, **bold** runs, inline icons
(`:attack:` draws the game's `attack` icon at the text's size) and auto-shrink: when the
text does not fit at `size`, the largest size down to `min_size` that fits is used."""

# (no "from __future__ import annotations" where models are made: see sources.validation.Schema)

import re
from typing import Literal

from pydantic import model_validator

from .. import fonts, ops
from .base import Coord, Element, Opacity, faded, number

PT = 25.4 / 72  # mm per point
_PIECES = re.compile(r"(\*\*|:[A-Za-z0-9_-]+:)")
_width_cache: dict = {}
fonts.on_replace(_width_cache.clear)


class Text(Element):
    text: str
    """The text, usually an expression such as '{{ title }}'. A line break starts a new line;
    `**bold**` and `:icon:` work inline."""
    x: Coord = 0
    """Left edge of the box, mm from the trim's left."""
    y: Coord = 0
    """Top edge of the box, mm from the trim's top."""
    w: number(gt=0, le=1000)
    """Box width, mm."""
    h: number(gt=0, le=1000)
    """Box height, mm."""
    font: str = "sans"
    """Font name: sans, sans-bold, sans-italic, serif-bold, vera... or one of the game's `fonts`."""
    size: number(gt=0, le=300) = 9
    """Font size, pt."""
    min_size: number(gt=0, le=300) | None = None
    """Smallest size auto-shrink may use, pt (default: 60 % of size; equal to size turns
    shrinking off)."""
    color: str = "black"
    """Text colour ('#rrggbbaa' for translucent text)."""
    opacity: Opacity = 1
    """How opaque the text and its inline icons are, 0 to 1; it multiplies a '#rrggbbaa'
    colour's own transparency."""
    align: Literal["left", "center", "right"] = "left"
    """Horizontal alignment in the box."""
    valign: Literal["top", "middle", "bottom"] = "top"
    """Vertical alignment in the box."""
    wrap: bool = True
    """Wrap long lines at spaces (otherwise each paragraph is one line)."""
    leading: number(ge=0.5, le=4) = 1.15
    """Line spacing as a multiple of the font size."""
    rotate: number(ge=-360, le=360) = 0
    """Turn the text counter-clockwise about the box's centre, in degrees; at 90 and 270 the
    lines run along the box's height (so a value can face any edge or corner of a card)."""

    @model_validator(mode="after")
    def _sizes(self):
        if isinstance(self.size, str) or isinstance(self.min_size, str):
            return self     # checked when the card's numbers are in (Element.resolved)
        if self.min_size is not None and self.min_size > self.size:
            raise ValueError(f"min_size {self.min_size} is larger than size {self.size}")
        return self

    def ops(self, ctx):
        content = ctx.eval(self.text)
        if not content.strip():
            return []
        # copies and repeated rules text lay out identically: reuse the result
        key = (self.cache_key, content, ctx.eval(self.color))
        cached = ctx.text_cache.get(key)
        if cached is None:
            if len(ctx.text_cache) > 512:
                ctx.text_cache.clear()
            notes = []
            cached = ctx.text_cache[key] = (self._layout(content, ctx, notes), tuple(notes))
        op, notes = cached
        for message in notes:
            ctx.warn(message, strict=True)
        return [op]

    def _layout(self, content, ctx, notes):
        regular = ctx.font(self.font)
        boxw, boxh = (self.h, self.w) if self.rotate % 180 == 90 else (self.w, self.h)
        space = _unit_width(" ", regular)
        asc, desc = fonts.ascent_descent(regular)
        if "\n" not in content and _plain(content):
            op = self._one_line(content, regular, boxw, boxh, asc, desc, space, ctx)
            if op is not None:
                return op
        bold = ctx.bold_of(regular) if "**" in content else regular   # (only `**` turns to it)
        paragraphs = [_words(p, regular, bold, ctx, notes) for p in content.split("\n")]
        top = self.size
        low = self.min_size if self.min_size is not None else round(self.size * 0.6, 2)
        size, lines = top, _wrap(paragraphs, boxw / PT / top, space, self.wrap)
        if not _fits(lines, size, boxw, boxh, asc, desc, self.leading, space):
            # binary search the largest size, in steps of 0.25 pt, that fits
            lo, hi = int(low * 4), int(top * 4)
            best = None
            while lo <= hi:
                mid = (lo + hi) // 2
                s = mid / 4
                cand = _wrap(paragraphs, boxw / PT / s, space, self.wrap)
                if _fits(cand, s, boxw, boxh, asc, desc, self.leading, space):
                    best, lo = (s, cand), mid + 1
                else:
                    hi = mid - 1
            if best is None:
                size = low
                lines = _cut_to_fit(_wrap(paragraphs, boxw / PT / size, space, self.wrap), size, boxw, boxh,
                                    asc, desc, self.leading, space, regular)
                notes.append(f"text does not fit its {self.w:g} x {self.h:g} mm box even at min_size {low:g} pt, "
                             f"so it is cut short with '\u2026': {content[:40]!r}; shorten the text, enlarge the "
                             "box or lower min_size")
            else:
                size, lines = best
        return self._place(lines, size, boxw, boxh, asc, desc, space, ctx)

    def _one_line(self, content, regular, boxw, boxh, asc, desc, space, ctx):
        """Plain text (one font, no icons, no line break: a title, a value) that fits its box
        on one line at `size`, placed in fewer steps exactly as _wrap, _fits and _place would
        place it (tests/test_layout.py compares them); None for anything else."""
        words = content.split()
        widths = [_unit_width(word, regular) for word in words]
        size = self.size
        if self.wrap:       # as _wrap: no word would go to a line of its own
            max_units, width = boxw / PT / size, 0.0
            for i, ww in enumerate(widths):
                if i and width + space + ww > max_units:
                    return None
                width += (space if i else 0) + ww
        units = sum(widths) + space * (len(words) - 1)
        if (0 * self.leading + (asc - desc)) * size * PT > boxh + 1e-6 or units > boxw / PT / size + 1e-9:
            return None     # (as _fits)
        cx, cy, left, first, step = self._frame(1, size, boxw, boxh, asc, desc)
        width = units * (size * PT)
        runs = (ops.Run(0.0, " ".join(words), regular, False, width),)
        return self._op(((self._line_x(left, boxw, width), first + 0 * step, runs),), size, cx, cy, ctx)

    def _frame(self, count, size, boxw, boxh, asc, desc):
        """Where `count` lines at `size` go in the box: its centre, its left edge, the first
        line's baseline and the step from one baseline to the next."""
        cx, cy = self.x + self.w / 2, self.y + self.h / 2
        left, top = cx - boxw / 2, cy - boxh / 2
        step = size * self.leading * PT
        block = (count - 1) * step + (asc - desc) * size * PT
        if self.valign == "top":
            first = top + asc * size * PT
        elif self.valign == "middle":
            first = top + (boxh - block) / 2 + asc * size * PT
        else:
            first = top + boxh - block + asc * size * PT
        return cx, cy, left, first, step

    def _op(self, placed, size, cx, cy, ctx):
        return ops.Text(placed, size, faded(ctx.color(self.color), self.opacity), float(self.rotate), cx, cy)

    def _place(self, lines, size, boxw, boxh, asc, desc, space, ctx):
        cx, cy, left, first, step = self._frame(len(lines), size, boxw, boxh, asc, desc)
        placed = []
        unit = size * PT
        for n, line in enumerate(lines):
            if all(len(word) == 1 and word[0][0] == "text" and word[0][2] == line[0][0][2] for word in line) and line:
                # the common case: one font, no icons: the line is a single run
                width = (sum(word[0][3] for word in line) + space * (len(line) - 1)) * unit
                runs = (ops.Run(0.0, " ".join(word[0][1] for word in line), line[0][0][2], False, width),)
                placed.append((self._line_x(left, boxw, width), first + n * step, runs))
                continue
            runs, x = [], 0.0
            for i, word in enumerate(line):
                if i:
                    x += space * unit
                for kind, value, key, width in word:
                    if kind == "icon":
                        runs.append(ops.Run(x, value, "", True, width * unit, unit))
                    else:
                        runs.append(ops.Run(x, value, key, False, width * unit))
                    x += width * unit
            placed.append((self._line_x(left, boxw, x), first + n * step, tuple(_merge(runs, space * unit))))
        return self._op(tuple(placed), size, cx, cy, ctx)

    def _line_x(self, left, boxw, width):
        if self.align == "center":
            return left + (boxw - width) / 2
        if self.align == "right":
            return left + boxw - width
        return left


def _merge(runs, space_mm):
    """Join neighbouring text runs in the same font into one string (fewer PDF operators)."""
    out = []
    for run in runs:
        if out and not run.icon and not out[-1].icon and out[-1].font == run.font:
            prev = out[-1]
            gap = run.x - prev.x - prev.w
            if abs(gap - space_mm) < 1e-6 or abs(gap) < 1e-6:
                joined = prev.text + (" " if abs(gap) > 1e-6 else "") + run.text
                out[-1] = ops.Run(prev.x, joined, prev.font, False, prev.w + gap + run.w)
                continue
        out.append(run)
    return out


def _unit_width(text, key):
    """Width at size 1, pt; cached because card text repeats the same words."""
    k = (text, key)
    w = _width_cache.get(k)
    if w is None:
        if len(_width_cache) > 2048:     # words recur; a 20,000-card deck's numbers need not stay
            _width_cache.clear()
        w = _width_cache[k] = fonts.width(text, key)
    return w


def _plain(text: str) -> bool:
    """Text in the text's own font alone, with no icons and no **bold**."""
    return text.isascii() and ":" not in text and "*" not in text


def _words(paragraph, regular, bold, ctx, notes):
    """Split a paragraph into words; each word is a list of (kind, value, font, width@1pt)."""
    if _plain(paragraph):
        return [[("text", raw, regular, _unit_width(raw, regular))] for raw in paragraph.split()]
    words, is_bold = [], False
    for raw in paragraph.split():
        word = []
        for piece in _PIECES.split(raw):
            if not piece:
                continue
            if piece == "**":
                is_bold = not is_bold
                continue
            if piece[0] == ":" and piece[-1] == ":" and len(piece) > 2 and piece[1:-1] in ctx.icons:
                word.append(("icon", piece[1:-1], None, ctx.icons[piece[1:-1]]))
                continue
            word += _in_fonts(piece, bold if is_bold else regular, ctx, notes)
        if word:
            words.append(word)
    return words


def _in_fonts(piece, key, ctx, notes):
    """A piece of text as runs, each in a font that has its characters: the text's own font,
    else the game's fallback fonts in order. A character no font has is noted (it would
    print as an empty box) and left in the text's own font."""
    if piece.isascii():
        return [("text", piece, key, _unit_width(piece, key))]
    runs, current, start = [], None, 0
    for i, ch in enumerate(piece):
        font = ctx.font_for(key, ch)
        if font is None:
            message = (f"character {ch!r} (U+{ord(ch):04X}) is in no font: not in "
                       f"{ctx.res.font_name(key)} nor in the fallback fonts "
                       f"({', '.join(ctx.res.font_name(f) for f in ctx.res.fallbacks) or 'none'}); it would print "
                       "as an empty box: add a font that has it to the game's fonts and fallback_fonts")
            if message not in notes:
                notes.append(message)
            font = key
        if font != current:
            if current is not None:
                runs.append(("text", piece[start:i], current, _unit_width(piece[start:i], current)))
            current, start = font, i
    runs.append(("text", piece[start:], current, _unit_width(piece[start:], current)))
    return runs


def _word_width(word):
    """A word's width at size 1 (a one-piece word's is its piece's: the sum would be the same)."""
    return word[0][3] if len(word) == 1 else sum(p[3] for p in word)


def _wrap(paragraphs, max_units, space, wrap):
    """Greedy line breaking in size-1 units (widths scale linearly with the size)."""
    lines = []
    for words in paragraphs:
        if not words:
            lines.append([])
            continue
        line, width = [], 0.0
        for word in words:
            ww = _word_width(word)
            if line and wrap and width + space + ww > max_units:
                lines.append(line)
                line, width = [], 0.0
            width += (space if line else 0) + ww
            line.append(word)
        lines.append(line)
    return lines


def _line_width(line, space):
    return sum(map(_word_width, line)) + space * max(0, len(line) - 1)


def _cut_to_fit(lines, size, boxw, boxh, asc, desc, leading, space, key):
    """Keep text that cannot fit inside its box: drop the lines below it and end the last
    kept line, or any line too wide, with an ellipsis."""
    room = boxh / PT / size - (asc - desc)
    keep = max(1, int(room / leading + 1e-9) + 1) if room >= 0 else 1
    cut = len(lines) > keep
    lines = [list(line) for line in lines[:keep]]
    limit = boxw / PT / size + 1e-9
    ellipsis = ("text", "\u2026", key, _unit_width("\u2026", key))
    for n, line in enumerate(lines):
        if not (_line_width(line, space) > limit or (cut and n == len(lines) - 1)):
            continue
        line = [list(w) for w in line]
        while line and _line_width(line, space) + ellipsis[3] > limit:
            last = line[-1]
            kind, value, font, _ = last[-1]
            if kind == "text" and len(value) > 1:
                room = limit - ellipsis[3] - (_line_width(line, space) - last[-1][3])
                value = value[:min(len(value) - 1, max(1, _longest_prefix(value, font, room)))]
                last[-1] = (kind, value, font, _unit_width(value, font))
            elif len(last) > 1:
                last.pop()
            else:
                line.pop()
        if line:
            line[-1].append(ellipsis)
        else:
            line = [[ellipsis]]
        lines[n] = line
    return lines


def _longest_prefix(value: str, font: str, room: float) -> int:
    """How many of `value`'s first characters fit in `room` (pt at size 1): a binary search, so
    a run of 100,000 characters is measured some 17 times, not 100,000."""
    lo, hi = 0, len(value)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fonts.width(value[:mid], font) <= room:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _fits(lines, size, boxw, boxh, asc, desc, leading, space):
    height = ((len(lines) - 1) * leading + (asc - desc)) * size * PT
    if height > boxh + 1e-6:
        return False
    limit = boxw / PT / size + 1e-9
    for line in lines:
        width = sum(map(_word_width, line)) + space * max(0, len(line) - 1)
        if width > limit:
            return False
    return True


ELEMENT = Text
