"""`print-colorblind`: cards of one deck that differ only by colour (the same drawing, the
same words, only some fills, strokes or inks changed), two of which look alike to a player
with a colour-vision deficiency or on a greyscale print: nothing but colour tells them apart.
A difference a player cannot see at arm's length is no cue either: shapes smaller than
MIN_CUE across, a letter or symbol printed smaller than MIN_CUE and words below the game's
`min_size` are left out of the comparison (vision.seen_apart says which parts count)."""

from __future__ import annotations

import dataclasses
import hashlib

from reportlab.lib.colors import Color

from ..faces import Face, rgb
from ..findings import Hit
from ..raster import hex_of, to255
from ..vision import MIN_CUE, SEEN, VIEWS, distance, seen_apart

ORDER = 50
DOC = ("cards of one deck (fronts with fronts, backs with backs) that differ only by colour, two "
       "of which are closer than `color_distance` as seen with normal colour vision, protanopia, "
       "deuteranopia or tritanopia, or printed in greyscale; a difference too small to see at arm's "
       f"length (a shape or a single letter or symbol under {MIN_CUE:g} mm, words under `min_size`) "
       "does not tell them apart")
PIXELS = False
ACROSS = True

VARIANTS = 64
"""Colourings of one drawing that are compared with each other (a deck has a few, not hundreds)."""


def inspect(face: Face, limits, under, seen: dict):
    need = limits.color_distance
    if need <= 0:
        return
    drawing, colors, wheres = split(face, limits.min_size)
    key = (face.deck, face.side, hashlib.blake2b(repr(drawing).encode(), digest_size=16).hexdigest())
    variants, told = seen.setdefault(key, ([], set()))
    if any(colors == known for known, _ in variants):
        return                        # the very same face again: not a colour cue at all
    for known, other in variants:
        alike = _alike(known, colors, need)
        if alike is None:
            continue
        index, view, value = alike
        what = (f"{other.label} and {face.label} differ only by colour ({hex_of(to255(known[index]))} and "
                f"{hex_of(to255(colors[index]))} here), which look alike {SEEN[view]} (distance {value:.1f})")
        advice = (f"closer than the {need:g} that tells them apart; add a cue that is not colour and is seen at "
                  f"arm's length, such as a letter, symbol, pattern or shape at least {MIN_CUE:g} mm across "
                  f"(print: {{color_distance: ...}} in game.yaml sets the limit)")
        for shown in (other, face):
            if shown.label not in told:
                told.add(shown.label)
                yield Hit("colorblind", wheres[index], shown, value, what, advice, need, key[2])
    if len(variants) < VARIANTS:
        variants.append((colors, _stub(face)))


def _alike(a: tuple, b: tuple, need: float) -> tuple | None:
    """(index of the colour that differs most, view, distance) when some view sees the two
    colourings closer than `need` (normal vision first if it does, else the closest view): in
    each view, a pair is as far apart as its most different colour."""
    differ = [i for i in range(len(a)) if a[i] != b[i]]
    main = max(differ, key=lambda i: distance(a[i], b[i]))
    apart = {view: max(distance(a[i], b[i], view) for i in differ) for view in VIEWS}
    view = "normal" if apart["normal"] < need - 0.005 else min(VIEWS, key=apart.get)
    return (main, view, apart[view]) if apart[view] < need - 0.005 else None


def split(face: Face, min_size: float = 0.0) -> tuple[tuple, tuple, list]:
    """The face's drawing with its colours taken out, its colours in order, and the template
    line that drew each, less what is too small to see at arm's length (vision.seen_apart);
    the card code, which differs on every card, is left out."""
    drawing, colors, wheres = [], [], []
    for op, where in zip(face.background, face.drawn_by):
        if seen_apart(op, min_size):
            drawing.append(_uncolored(op, colors, wheres, where))
    for text in face.texts:
        if not text.code and seen_apart(text, min_size):
            drawing.append(("text", text.text, text.box, text.size, text.bold, text.matrix))
            colors.append(text.color)
            wheres.append(text.where)
    for line in face.lines:
        if seen_apart(line, min_size):
            drawing.append(("line", line.points, line.width))
            colors.append(line.color)
            wheres.append(line.where)
    return tuple(drawing), tuple(colors), wheres


_PLAIN = (str, int, float, bool, type(None))
"""Values that hold no colour (most of what an operation holds)."""
_FIELDS: dict[type, tuple[str, ...]] = {}
"""The field names of each kind of dataclass met, looked up once."""


def _uncolored(value, colors: list, wheres: list, where):
    """`value` (an operation or a part of one) with each colour replaced by a mark, the colours
    added to `colors` in order."""
    if type(value) in _PLAIN:
        return value
    if isinstance(value, Color):
        colors.append(tuple(round(c, 4) for c in rgb(value)))
        wheres.append(where)
        return "color"
    if isinstance(value, (tuple, list)):
        return tuple(_uncolored(v, colors, wheres, where) for v in value)
    kind = type(value)
    names = _FIELDS.get(kind)
    if names is None and dataclasses.is_dataclass(value):
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(value))
    if names is not None:
        return (kind.__name__,) + tuple(_uncolored(getattr(value, name), colors, wheres, where) for name in names)
    return value


def _stub(face: Face) -> Face:
    """The face as a finding names it, without what it draws."""
    return dataclasses.replace(face, texts=[], lines=[], background=[], drawn_by=[])
