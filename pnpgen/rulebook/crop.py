"""What a cropped figure shows. A figure of part of a board (`region=`) is clipped to that
part, but a clip only hides: every label of the whole board would still be in the PDF's
text layer (found by search, copied with the figure) and every picture in its file. So the
operations are cut to the view before they are drawn: an operation wholly outside it is
dropped, a group is cut in its own frame, and a line of text keeps only the characters that
reach into the view. Geometry is in the component's mm, y down."""

from __future__ import annotations

import math

from .. import fonts, ops
from ..layout.layouter import ICON

PT = 25.4 / 72
ASCENT, DESCENT = 1.0, 0.3
"""Generous share of the font size that a line's glyphs reach above and below its baseline."""
ICON_DROP = 0.17
"""How far below the baseline an inline icon's foot sits, as a share of its height."""
Box = tuple[float, float, float, float]   # left, top, right, bottom


def crop(body, view: tuple[float, float, float, float], forms: dict) -> list:
    """The operations of `body` that draw inside `view` (x, y, w, h), cut to it; `forms` are
    the shared forms that groups place (the game's icons)."""
    x, y, w, h = view
    return _crop(body, (x, y, x + w, y + h), forms)


def _crop(body, box: Box, forms: dict) -> list:
    out = []
    for op in body:
        kind = type(op)
        if kind is ops.Text:
            op = _text(op, box)
        elif kind is ops.Group:
            op = _group(op, box, forms)
        elif not _meets(_bounds(op, forms), box):
            op = None
        if op is not None:
            out.append(op)
    return out


def _meets(bounds: Box | None, box: Box) -> bool:
    """Whether `bounds` reaches into `box` (None: not known, so kept)."""
    if bounds is None:
        return True
    left, top, right, bottom = bounds
    return left < box[2] and right > box[0] and top < box[3] and bottom > box[1]


def _bounds(op, forms: dict) -> Box | None:
    """Where an operation draws, stroke included (None when that is not known here)."""
    kind = type(op)
    if kind in (ops.Rect, ops.Ellipse, ops.Path):
        half = op.paint.width / 2 if op.paint.stroke is not None else 0.0
        if kind is ops.Rect:
            box = (op.x, op.y, op.x + op.w, op.y + op.h)
        elif kind is ops.Ellipse:
            box = (op.cx - op.rx, op.cy - op.ry, op.cx + op.rx, op.cy + op.ry)
        else:
            xs, ys = [p[0] for p in op.points], [p[1] for p in op.points]
            box = (min(xs), min(ys), max(xs), max(ys))
        return (box[0] - half, box[1] - half, box[2] + half, box[3] + half)
    if kind is ops.Image or kind is ops.Svg:
        box = (op.x, op.y, op.x + op.w, op.y + op.h)
        if op.clip:
            cx, cy, cw, ch = op.clip
            box = (max(box[0], cx), max(box[1], cy), min(box[2], cx + cw), min(box[3], cy + ch))
        return box
    return None


def _group(op: ops.Group, box: Box, forms: dict) -> ops.Group | None:
    """The group cut to the view, seen in the group's own frame."""
    inner = _inverse_box(op.transform, box)
    if inner is None:
        return op
    if op.clip:
        x, y, w, h = op.clip
        if not _meets((x, y, x + w, y + h), inner):
            return None
    body = []
    for child in op.body:
        if type(child) is ops.Form and child.name.startswith(ICON) and child.name in forms:
            fw, fh = forms[child.name].size       # drawn up from the frame's origin
            if not _meets((0.0, -fh, fw, 0.0), inner):
                continue
            body.append(child)
        else:
            body += _crop([child], inner, forms)
    return ops.Group(op.transform, tuple(body), op.clip, op.opacity) if body else None


def _inverse_box(transform, box: Box) -> Box | None:
    """The smallest box in a group's frame that covers `box` of its parent's frame."""
    a, b, c, d, e, f = transform
    det = a * d - b * c
    if abs(det) < 1e-12:
        return None
    corners = [(x - e, y - f) for x in (box[0], box[2]) for y in (box[1], box[3])]
    pts = [((d * x - c * y) / det, (-b * x + a * y) / det) for x, y in corners]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def _text(op: ops.Text, box: Box) -> ops.Text | None:
    """The text with only its runs that reach into the view; an unturned run also loses the
    characters before and after the view."""
    size = op.size * PT
    lines = []
    for lx, baseline, runs in op.lines:
        kept = []
        for run in runs:
            if run.icon:
                top, bottom = baseline - (1 - ICON_DROP) * run.h, baseline + ICON_DROP * run.h
            else:
                top, bottom = baseline - ASCENT * size, baseline + DESCENT * size
            bounds = (lx + run.x, top, lx + run.x + run.w, bottom)
            if op.rotate:
                if _meets(_turned(bounds, op), box):
                    kept.append(run)
            elif _meets(bounds, box):
                run = run if run.icon else _trim(run, lx, box, op.size)
                kept += [run] if run is not None else []
        if kept:
            lines.append((lx, baseline, tuple(kept)))
    if not lines:
        return None
    return ops.Text(tuple(lines), op.size, op.color, op.rotate, op.cx, op.cy)


def _turned(bounds: Box, op: ops.Text) -> Box:
    """The box round `bounds` turned by the text's rotation (counter-clockwise as printed,
    so clockwise in y-down mm) about its centre."""
    angle = math.radians(op.rotate)
    cos, sin = math.cos(angle), math.sin(angle)
    pts = []
    for x in (bounds[0], bounds[2]):
        for y in (bounds[1], bounds[3]):
            dx, dy = x - op.cx, y - op.cy
            pts.append((op.cx + dx * cos + dy * sin, op.cy - dx * sin + dy * cos))
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def _trim(run: ops.Run, lx: float, box: Box, size: float) -> ops.Run | None:
    """The run without the characters that lie wholly left or right of the view (None
    when none is left)."""
    unit = size * PT
    left = lx + run.x
    edges = [left]
    for ch in run.text:
        edges.append(edges[-1] + fonts.width(ch, run.font) * unit)
    inside = [i for i in range(len(run.text)) if edges[i + 1] > box[0] and edges[i] < box[2]]
    if not inside:
        return None
    first, last = inside[0], inside[-1]
    if first == 0 and last == len(run.text) - 1:
        return run
    return ops.Run(edges[first] - lx, run.text[first:last + 1], run.font, False, edges[last + 1] - edges[first])
