"""Numeric keys written as expressions (`w: "{{ card.width }}"`), evaluated for each card
against the component's own size: read back from the built PDFs, and every way such an
expression can go wrong stopping at the template's line with exit status 2."""

from __future__ import annotations

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnpgen import presets

from .clirun import pnpgen
from .minigame import make_game
from .pdfread import MM, filled_rects

RED, BLUE = (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)

DECK = """name: Roles
template: face
fields:
  title: {required: true}
  inset: {type: number, default: 4}
cards:
  - {title: Seer}
  - {title: Wolf, inset: 9}
"""
FACE = """elements:
  - rect: {x: 0, y: 0, w: "{{ card.width }}", h: "{{ card.height }}", fill: "#ff0000"}
  - rect: {x: "{{ inset }}", y: "{{ card.safe }}", w: "{{ card.width - 2 * inset }}",
           h: "{{ card.height / 2 }}", fill: "#0000ff"}
  - text: {x: 5, y: "{{ card.height - 20 }}", w: "{{ card.width - 10 }}", h: 10, text: "{{ title }}",
           size: "{{ 8 + inset / 2 }}"}
"""


def _build(root, game="title: Mini\ncode: MIN\n", deck=DECK, face=FACE, *extra):
    make_game(root, game, deck, {"face": face})
    proc = pnpgen("--root", root, "build", "mini", "--out", root / "out", *extra, cwd=root)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def _rects(path, colour):
    return [rect for fill, rect in filled_rects(PdfReader(path), 0) if fill == colour]


@pytest.mark.parametrize("size", ["poker", "tarot"])
def test_a_rect_as_wide_as_the_card_prints_at_the_cards_size(tmp_path, size):
    proc = _build(tmp_path, f"title: Mini\ncode: MIN\ncard_size: {size}\nsafe: 2.5\n")
    assert proc.returncode == 0, proc.stderr
    width, height = presets.card_sizes()[size]
    pdf = tmp_path / "out" / "mini" / "deck.pdf"
    full = _rects(pdf, RED)
    assert len(full) == 2     # one a card: the expression is worked out per card
    for x, y, w, h in full:
        assert (w / MM, h / MM) == pytest.approx((width, height), abs=0.005)
    # each card's own field: Seer is inset 4 mm, Wolf 9 mm; both sit card.safe from the top
    inner = sorted(_rects(pdf, BLUE), key=lambda r: r[2], reverse=True)
    assert [round(w / MM, 3) for _, _, w, _ in inner] == [round(width - 8, 3), round(width - 18, 3)]
    assert [round(h / MM, 3) for _, _, _, h in inner] == [round(height / 2, 3)] * 2
    for (fx, fy, fw, fh), (x, y, w, h) in zip(full, inner):
        assert (fy + fh - (y + h)) / MM == pytest.approx(2.5, abs=0.005)   # y down from the top, in pt up


def test_tokens_and_boards_see_their_own_size(tmp_path):
    deck = """name: Tokens
pack: true
template: disc
fields: {title: {}}
cards:
  - {title: A, count: 2}
"""
    disc = "size: [22, 18]\nshape: round\nelements:\n  - rect: {w: \"{{ card.width }}\", h: \"{{ card.height }}\", " \
           "fill: \"#ff0000\"}\n"
    make_game(tmp_path, "title: Mini\ncode: MIN\n", deck, {"disc": disc, "face": FACE})
    (tmp_path / "cards" / "mini" / "boards").mkdir()
    (tmp_path / "cards" / "mini" / "boards" / "mat.yaml").write_text(
        "name: Mat\nsize: [250, 180]\ntemplate: mat\n")
    (tmp_path / "templates" / "mini" / "mat.yaml").write_text(
        "elements:\n  - rect: {x: \"{{ card.width / 4 }}\", w: \"{{ card.width / 2 }}\", h: \"{{ card.height }}\", "
        "fill: \"#0000ff\"}\n")
    proc = pnpgen("--root", tmp_path, "build", "mini", "--out", tmp_path / "out", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    tokens = _rects(tmp_path / "out" / "mini" / "deck.pdf", RED)
    assert [(round(w / MM, 3), round(h / MM, 3)) for _, _, w, h in tokens] == [(22, 18)] * 2
    mat = PdfReader(tmp_path / "out" / "mini" / "mat.pdf")
    board = [rect for fill, rect in filled_rects(mat, 0, "/FormXob.board:mat:a") if fill == BLUE]
    assert [(round(x / MM, 3), round(w / MM, 3), round(h / MM, 3)) for x, _, w, h in board] == [(62.5, 125, 180)]


@pytest.mark.parametrize("key,value,says", [
    ("w", '"{{ title }}"', "w: '{{ title }}' gives 'Seer', not a number"),
    ("w", '"{{ card.width - 100 }}"', "w: '{{ card.width - 100 }}' gives -36.5, which should be greater than 0"),
    ("w", '"{{ card.widht }}"', "w: '{{ card.widht }}': 'dict object' has no attribute 'widht'"),
    ("w", '"{{ range(100000000)|list|length }}"', "cannot evaluate: this expression does more than 1,000,000 characters or items"),
    ("w", '"{{ true }}"', "w: '{{ true }}' gives True, not a number"),
])
def test_an_expression_that_gives_no_fitting_number_stops_at_the_template_line(tmp_path, key, value, says):
    face = f"elements:\n  - rect: {{x: 0, y: 0, {key}: {value}, h: 10, fill: red}}\n"
    proc = _build(tmp_path, face=face)
    assert proc.returncode == 2
    assert f"templates/mini/face.yaml:2: elements[0]: {says}" in proc.stderr.replace(str(tmp_path) + "/", "")
    assert "(card MIN-001, cards/mini/decks/deck.yaml:7)" in proc.stderr
    assert not (tmp_path / "out" / "mini" / "deck.pdf").exists()


def test_a_value_that_is_neither_number_nor_expression_says_both_are_allowed(tmp_path):
    proc = _build(tmp_path, face="elements:\n  - rect: {w: 12a, h: 10}\n")
    assert proc.returncode == 2
    assert "face.yaml:2: elements[0].rect.w: expected a number or an expression such as " \
           "'{{ card.width - 6 }}', got '12a'" in proc.stderr


def test_limits_between_keys_are_checked_with_the_cards_numbers(tmp_path):
    face = "elements:\n  - text: {w: 30, h: 10, text: x, size: \"{{ inset }}\", min_size: 6}\n"
    proc = _build(tmp_path, face=face)
    assert proc.returncode == 2
    assert "face.yaml:2: elements[0]: min_size 6.0 is larger than size 4.0 (card MIN-001" in proc.stderr


def test_a_point_of_a_polygon_may_be_an_expression(tmp_path):
    face = ("elements:\n  - polygon: {points: [[0, 0], [\"{{ card.width }}\", 0], [0, \"{{ inset * 2 }}\"]], "
            "fill: \"#ff0000\"}\n")
    assert _build(tmp_path, face=face).returncode == 0
    page = PdfReader(tmp_path / "out" / "mini" / "deck.pdf").pages[0]
    corners, path = [], []
    for operands, op in ContentStream(page.get_contents(), None).operations:
        if op in (b"m", b"l"):
            path.append(tuple(round(float(v) / MM, 3) for v in operands))
        elif op in (b"f", b"f*", b"F"):
            corners.append(path)
        if op in (b"f", b"f*", b"F", b"n", b"S"):
            path = []
    height = 88.9   # in points y runs up from the card's bottom edge
    assert [[(0, height), (63.5, height), (0, round(height - 8, 3))],
            [(0, height), (63.5, height), (0, round(height - 18, 3))]] == corners


def _takes_an_expression(schema) -> bool:
    """Whether a JSON Schema node, or any node inside it, offers the expression alternative."""
    if isinstance(schema, dict):
        return schema.get("pattern") == r"\{\{|\{%" or any(_takes_an_expression(v) for v in schema.values())
    return isinstance(schema, list) and any(_takes_an_expression(v) for v in schema)


def test_the_keys_searched_for_expressions_are_those_the_schema_lets_hold_one():
    """Reading a template looks for numeric expressions only in the keys whose type can hold
    one (elements.base.numeric_keys, worked out from the models' types): for every element,
    those are exactly the keys whose JSON Schema offers an expression, anywhere inside (a
    point of a polygon's points), and an element given an expression in each of them finds
    every one."""
    from pnpgen.elements import ELEMENTS
    from pnpgen.elements.base import numeric_keys
    from pnpgen.schema.json_schemas import json_schema

    definitions = json_schema("template")["definitions"]
    for name in ELEMENTS:
        model = ELEMENTS[name]
        properties = definitions[model.__name__]["properties"]
        offered = {key for key, schema in properties.items() if key != "when" and _takes_an_expression(schema)}
        assert set(numeric_keys(model)) == offered and offered, name
    polygon = ELEMENTS["polygon"].model_validate(
        {"points": [[1, "{{ card.width }}"], [2, 3], [4, 5]], "x": "{{ 1 }}", "opacity": "{{ 0.5 }}", "fill": "red"})
    assert polygon._numeric == ("opacity", "points", "x")
    assert sorted(polygon.expressions()) == ["{{ 0.5 }}", "{{ 1 }}", "{{ card.width }}"]
