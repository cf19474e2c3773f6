"""`print-margin`: text and card edges that print inside the border of the paper a home
printer leaves unprinted (its unprintable margin), where they come out cut off or missing."""

from __future__ import annotations

from ..faces import Where, apply
from ..findings import Hit
from .size import name

ORDER = 45
DOC = ("text (inline icons and card codes too) and card edges that print within `margin` mm of "
       "the paper's edge, in any slot or tile the face prints in")
PIXELS = False


def inspect(face, limits, under):
    margin = limits.margin
    if not margin or not face.placements:
        return
    advice = (f"inside the {margin:g} mm a home printer leaves unprinted; keep it {margin:g} mm from the "
              f"paper's edge (printer_margin in game.yaml lays the sheets out for it; print: {{margin: ...}} "
              "sets the limit)")
    edge = min((_room(p.page, _corners(p.trim)) for p in face.placements if p.trim), default=margin)
    if edge < margin - 0.005:
        yield Hit("margin", Where(face.template, 1, "the card"), face, edge,
                  f"the card's edge prints {edge:.1f} mm from the paper's edge", advice, margin)
    for text in face.texts:
        room = min((_room(p.page, _on_page(p, text.corners())) for p in face.placements), default=margin)
        if room < margin - 0.005:
            yield Hit("margin", text.where, face, room, f"{name(text)} prints {room:.1f} mm from the paper's edge",
                      advice, margin)


def _corners(box: tuple) -> list[tuple[float, float]]:
    x, y, w, h = box
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


def _on_page(placement, corners: list) -> list[tuple[float, float]]:
    """The corners on the page, each kept to the part of the page the face prints in (a
    board's tile shows only its window); none when the text is wholly outside it."""
    x, y, w, h = placement.clip
    page = [apply(placement.matrix, cx, cy) for cx, cy in corners]
    if all(px < x or px > x + w or py < y or py > y + h for px, py in page):
        return []
    return [(min(max(px, x), x + w), min(max(py, y), y + h)) for px, py in page]


def _room(page: tuple, points: list) -> float:
    """How far the nearest point is from the paper's edge, mm (inf for no points)."""
    W, H = page
    return min((min(px, py, W - px, H - py) for px, py in points), default=float("inf"))
