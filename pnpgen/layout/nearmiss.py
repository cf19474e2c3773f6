"""Full-bleed art that nearly fits: a background rectangle or image drawn for another size
(70 x 120 mm on a 69.85 x 120.65 mm tarot card) that stops just short of a trim edge,
leaving a strip of paper after the cut, or that runs just past the bleed, where the bleed
clips it. Read off the operations an element drew, so sizes given by expressions count.

The rule, for each rectangle with a fill and each image an element draws directly (not in
a group or a slot's frame), as drawn (a `bleed: true` box already carried into the bleed):

- it covers most of the face: at least COVERS of the trim's width and of its height;
- for each of the four trim edges, with `d` how far its own edge lies outside the trim
  edge (mm, negative inside): NEAR > -d > TOLERANCE is a near miss short of the trim, unless
  full-bleed art drawn before it on the face reaches that trim edge (then the strip shows
  that art, not paper: a panel with a narrow border); NEAR > d - bleed > TOLERANCE is one
  past the bleed edge.

An edge exactly on the trim or anywhere in the bleed, NEAR or more inside the trim (a
border on purpose) or NEAR or more past the bleed (art made larger on purpose) is fine."""

from __future__ import annotations

from dataclasses import dataclass

from .. import ops

COVERS = 0.8
"""Share of the trim's width and of its height an element covers to count as full-bleed art."""
NEAR = 2.0
"""How far (mm) short of the trim, or past the bleed, an edge may be and still be a near miss."""
TOLERANCE = 0.01
"""Rounding (mm) that is no miss at all."""

EDGES = ("left", "top", "right", "bottom")


@dataclass(frozen=True)
class NearMiss:
    """One edge of one element that misses: which edge, by how much (mm), and which way."""

    edge: str
    by: float
    short: bool      # True: short of the trim; False: past the bleed

    @property
    def what(self) -> str:
        if self.short:
            return f"full-bleed art stops {self.by:.2f} mm short of the {self.edge} trim edge"
        return f"full-bleed art runs {self.by:.2f} mm past the bleed at the {self.edge} edge"

    def advice(self, width: float, height: float) -> str:
        why = "so a strip of paper shows there once it is cut; make it reach the trim" if self.short else \
            "where the sheet clips it, so it was likely drawn for another size; make it end at the bleed"
        return (f"{why} of the {width:g} x {height:g} mm face, e.g. w: \"{{{{ card.width }}}}\", "
                "h: \"{{ card.height }}\" with bleed: true")

    def message(self, width: float, height: float) -> str:
        return f"{self.what}, {self.advice(width, height)}"


def draws_art(body) -> bool:
    """Whether operations hold a filled rectangle or an image, which could be full-bleed art."""
    for op in body:     # (a loop, not any(): this runs for every element of every card)
        kind = type(op)
        if kind is ops.Image or kind is ops.Rect and op.paint.fill is not None:
            return True
    return False


def box_of(op) -> tuple[float, float, float, float] | None:
    """The area an operation paints as full-bleed art could (x0, y0, x1, y1, mm), or None
    when it is not a filled rectangle or an image."""
    if type(op) is ops.Rect and op.paint.fill is not None:
        return op.x, op.y, op.x + op.w, op.y + op.h
    if type(op) is ops.Image:
        x, y, w, h = op.clip if op.clip is not None else (op.x, op.y, op.w, op.h)
        return x, y, x + w, y + h
    return None


def covers_most(box, width: float, height: float) -> bool:
    x0, y0, x1, y1 = box
    across = min(x1, width) - max(x0, 0.0)
    down = min(y1, height) - max(y0, 0.0)
    return across >= COVERS * width and down >= COVERS * height


def misses(box, width: float, height: float, bleed: float) -> list[NearMiss]:
    """The edges of a full-bleed box that nearly reach the trim or nearly stop at the bleed."""
    if not covers_most(box, width, height):
        return []
    x0, y0, x1, y1 = box
    out = []
    for edge, outside in zip(EDGES, (-x0, -y0, x1 - width, y1 - height)):
        if TOLERANCE < -outside < NEAR:
            out.append(NearMiss(edge, -outside, True))
        elif TOLERANCE < outside - bleed < NEAR:
            out.append(NearMiss(edge, outside - bleed, False))
    return out


def reached(box, width: float, height: float) -> set[str]:
    """The trim edges a box reaches (or passes)."""
    x0, y0, x1, y1 = box
    return {edge for edge, outside in zip(EDGES, (-x0, -y0, x1 - width, y1 - height)) if outside >= -TOLERANCE}


def face_misses(drawn, width: float, height: float, bleed: float) -> list[tuple[object, NearMiss]]:
    """The near misses on one face: `drawn` is (element, its operations) in drawing order,
    the face width x height mm; each miss comes with the element that drew it."""
    out, covered = [], set()
    for element, body in drawn:
        for op in body:
            box = box_of(op)
            if box is None or not covers_most(box, width, height):
                continue
            out += [(element, miss) for miss in misses(box, width, height, bleed)
                    if not (miss.short and miss.edge in covered)]
            covered |= reached(box, width, height)
    return out
