"""Bad Maps as printed: no print findings, and every Minion's start space and Map Slots on
both sides of the Island Board carry its glyph as well as its colour (Red triangle, Blue
square, Yellow circle, Green diamond), with a badge of the Minion beside slot 1 of its row."""

from __future__ import annotations

import math

import pytest

from pnpgen import ops
from pnpgen.build import load
from pnpgen.layout.boards import board_card
from pnpgen.layout.layouter import ICON, Layouter, icon_forms

from .clirun import pnpgen

GLYPHS = {"red": "triangle", "blue": "square", "yellow": "circle", "green": "diamond"}


def _shape(op):
    """What a filled shape is: triangle, square, circle, diamond, or None."""
    if isinstance(op, ops.Path) and op.closed:
        return {3: "triangle", 4: "diamond"}.get(len(op.points))
    if isinstance(op, ops.Rect):
        return "square" if op.w == pytest.approx(op.h) and op.w < 9 else None
    if isinstance(op, ops.Ellipse):
        return "circle" if op.rx == pytest.approx(op.ry) else None
    return None


def _centre(op):
    if isinstance(op, ops.Path):
        xs, ys = zip(*op.points)
        return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    if isinstance(op, ops.Rect):
        return op.x + op.w / 2, op.y + op.h / 2
    return op.cx, op.cy


def _inside(point, rect):
    x, y = point
    return rect.x < x < rect.x + rect.w and rect.y < y < rect.y + rect.h


def _island_sides(project):
    game = load(project, "bad-maps")
    (board,) = game.boards
    for side in ("front", "back"):
        card = board_card(board)
        layouter = Layouter(game, board)
        body = [inner for op in layouter.layout(card, getattr(card, side))
                for inner in (layouter.forms[op.name].body if isinstance(op, ops.Form) else [op])]
        yield side, layouter, body


def test_the_kit_has_no_print_findings_and_keeps_its_rules(project):
    ran = pnpgen("--root", project.root, "check", "bad-maps", "--strict")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "0 errors, 0 warnings" in ran.stdout + ran.stderr


def test_each_map_slot_carries_its_minions_glyph_and_slot_1_its_badge(project):
    for side, layouter, body in _island_sides(project):
        paper = layouter.res.color("paper")
        texts = [op for op in body if isinstance(op, ops.Text)]
        for colour, glyph in GLYPHS.items():
            fill = layouter.res.color(colour)
            slots = [op for op in body if isinstance(op, ops.Rect) and op.paint.fill == paper
                     and op.paint.stroke == fill and sorted((op.w, op.h)) == pytest.approx([46.45, 65.5])]
            assert len(slots) == 4, (side, colour)
            glyphs = [op for op in body if op.__class__ in (ops.Path, ops.Rect, ops.Ellipse)
                      and op.paint.fill == fill and _shape(op) == glyph]
            numbers = {}
            for slot in slots:
                assert sum(_inside(_centre(g), slot) for g in glyphs) == 1, (side, colour, slot)
                (number,) = [t.lines[0][2][0].text for t in texts if _inside((t.cx, t.cy), slot)]
                numbers[number] = slot
            assert sorted(numbers) == ["1", "2", "3", "4"]
            # the badge: the Minion itself, beside slot 1 and not beside slot 2
            (badge,) = [t for t in texts if any(r.icon and r.text == f"minion-{colour}" for _, _, runs in t.lines
                                                for r in runs)]

            def gap(slot):
                dx = max(slot.x - badge.cx, 0, badge.cx - slot.x - slot.w)
                dy = max(slot.y - badge.cy, 0, badge.cy - slot.y - slot.h)
                return math.hypot(dx, dy)
            assert gap(numbers["1"]) < 15 < gap(numbers["2"]), (side, colour)


def test_each_start_space_carries_its_minions_glyph(project):
    (_, layouter, body) = next(_island_sides(project))
    icons = icon_forms(load(project, "bad-maps"), layouter.res, layouter.exprs)
    for colour, glyph in GLYPHS.items():
        form = icons[ICON + f"start-{colour}"]
        fill = layouter.res.color(colour)
        assert [_shape(op) for op in form.body if op.paint.fill == fill and _shape(op)] == [glyph]
    # and the basic side draws each start icon once, where the board's cells put it
    placed = [op.body[0].name for op in body if isinstance(op, ops.Group) and op.body
              and isinstance(op.body[0], ops.Form) and op.body[0].name.startswith(ICON + "start-")]
    assert sorted(placed) == sorted(ICON + f"start-{c}" for c in GLYPHS)
