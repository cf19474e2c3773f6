"""Layout is a pure function from card data to positioned draw operations: tested here
without writing a PDF."""

from __future__ import annotations

import pytest

from pnpgen import fonts, ops
from pnpgen.build import Project, load
from pnpgen.errors import InputError
from pnpgen.game.expand import assign_numbers, expand
from pnpgen.layout.context import Expressions
from pnpgen.layout.layouter import Layouter
from pnpgen.layout.lint import check_template

from .minigame import make_game

PT = 25.4 / 72

GAME = """title: Mini
code: MIN
bleed: 3
icons:
  star:
    size: [20, 10]
    elements:
      - rect: {w: 20, h: 10, fill: gold}
"""
DECK = """name: Deck
template: face
fields:
  title: {required: true}
  body: {}
cards:
  - {title: Short, body: "Gain one :star: now."}
  - {title: Long, body: "%s"}
""" % ("word " * 40).strip()
FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: navy, bleed: true}
  - rect: {x: 10, y: 10, w: 20, h: 20, fill: white, bleed: true}
  - text: {x: 5, y: 5, w: 53.5, h: 10, text: "FIXED", size: 10}
  - text: {x: 5, y: 40, w: 40, h: 20, text: "{{ body }}", size: 12, min_size: 6}
  - text: {x: 5, y: 70, w: 10, h: 40, text: "{{ title }}", size: 10, rotate: 90}
"""


@pytest.fixture
def laid_out(tmp_path):
    make_game(tmp_path, GAME, DECK, {"face": FACE})
    game = load(Project(tmp_path), "mini")
    deck = game.decks[0]
    layouter = Layouter(game, deck)
    cards = expand(game, deck, assign_numbers(game))
    return layouter, {c.entry.fields["title"]: layouter.layout(c, c.front) for c in cards}


def texts(body):
    return [op for op in body if isinstance(op, ops.Text)]


def line_width(line):
    runs = line[2]
    return runs[-1].x + runs[-1].w


def test_static_elements_become_one_shared_form(laid_out):
    layouter, bodies = laid_out
    for body in bodies.values():
        assert isinstance(body[0], ops.Form)  # the two rects and the fixed text, drawn once
    form, = [v for k, v in layouter.forms.items() if k.startswith("face.")]
    assert form.bleed and form.size == (63.5, 88.9)
    shared = form.body
    assert [type(op) for op in shared] == [ops.Rect, ops.Rect, ops.Text]


def test_bleed_extends_only_edges_that_touch_the_trim(laid_out):
    layouter, _ = laid_out
    form, = [v for k, v in layouter.forms.items() if k.startswith("face.")]
    full, inner = form.body[0], form.body[1]
    assert (full.x, full.y, full.w, full.h) == pytest.approx((-3, -3, 69.5, 94.9))
    assert (inner.x, inner.y, inner.w, inner.h) == (10, 10, 20, 20)


def test_text_that_fits_keeps_its_size_and_inline_icons_scale_with_it(laid_out):
    _, bodies = laid_out
    body = texts(bodies["Short"])[0]
    assert body.size == 12
    runs = [r for line in body.lines for r in line[2]]
    icon = next(r for r in runs if r.icon)
    assert icon.text == "star"
    assert icon.w == pytest.approx(2 * 12 * PT) and icon.h == pytest.approx(12 * PT)  # 2:1 icon box
    words = "".join(r.text for r in runs if not r.icon)
    assert words.replace(" ", "") == "Gainonenow."


def test_long_text_shrinks_and_wraps_inside_its_box(laid_out):
    layouter, bodies = laid_out
    body = texts(bodies["Long"])[0]
    assert 6 <= body.size < 12
    assert len(body.lines) > 3
    for lx, baseline, runs in body.lines:
        assert lx >= 5 - 1e-6 and lx + line_width((lx, baseline, runs)) <= 45 + 1e-6
    asc, desc = fonts.ascent_descent(layouter.res.font("sans"))
    first, last = body.lines[0][1], body.lines[-1][1]
    assert first - asc * body.size * PT >= 40 - 1e-6
    assert last - desc * body.size * PT <= 60 + 1e-6
    assert layouter.warnings == []


def test_text_that_cannot_fit_warns_with_the_card_code(tmp_path):
    deck = DECK.replace("word " * 39, "word " * 900)
    make_game(tmp_path, GAME, deck, {"face": FACE})
    game = load(Project(tmp_path), "mini")
    layouter = Layouter(game, game.decks[0])
    for card in expand(game, game.decks[0], assign_numbers(game)):
        layouter.layout(card, card.front)
    (warning,) = layouter.warnings
    # at the card's line, naming the template's line; an error under --strict
    assert str(warning.path).endswith("decks/deck.yaml") and warning.line == 8 and warning.strict
    assert warning.message.startswith("card MIN-002: text does not fit")
    assert "templates/mini/face.yaml:6: elements[3]" in warning.message


def test_rotated_text_runs_along_the_box_height(laid_out):
    _, bodies = laid_out
    title = [t for t in texts(bodies["Long"]) if t.rotate][0]
    assert title.rotate == 90 and (title.cx, title.cy) == (10, 90)
    (lx, baseline, runs), = title.lines
    assert lx == pytest.approx(10 - 20)  # unrotated frame: 40 mm wide, centred on the box


def test_card_code_is_placed_on_each_face(laid_out):
    _, bodies = laid_out
    codes = [t for t in texts(bodies["Short"]) if t.lines[0][2][0].text.startswith("MIN-")]
    assert len(codes) == 1 and codes[0].lines[0][2][0].text == "MIN-001"


def test_docs_reference_matches_the_models():
    """docs/reference.md is generated from the models; regenerate it with
    `pnpgen schema --markdown > docs/reference.md` when a key changes."""
    from pathlib import Path

    from pnpgen.schema import reference
    committed = (Path(__file__).parent.parent / "docs" / "reference.md").read_text()
    assert committed.strip() == reference.markdown().strip()


def test_text_outside_the_safe_zone_is_a_warning(tmp_path):
    face = FACE.replace('  - text: {x: 5, y: 5, w: 53.5, h: 10, text: "FIXED", size: 10}',
                        '  - text: {x: 1, y: 5, w: 53.5, h: 10, text: "FIXED", size: 10}')
    make_game(tmp_path, GAME, DECK, {"face": face})
    game = load(Project(tmp_path), "mini")
    warnings = check_template(game, game.decks[0], game.templates["face"], Expressions(), common=False)
    # the moved box, and the rotated title whose 40 mm runs past the bottom edge
    assert [str(w).split("templates/mini/")[1][:24] for w in warnings] == [
        "face.yaml:5: elements[2]", "face.yaml:7: elements[4]"]
    assert "reaches into the outer 3.175 mm" in str(warnings[0])


SLOTS_DECK = """name: Deck
template: face
fields:
  title: {required: true}
  values: {type: list}
  start: {}
cards:
  - {title: A, values: [1, 2, 3, 4, 5, 6, 7, 8], start: n}
  - {title: B, values: [1, 2, 3, 4], start: se}
"""


def _slot_groups(tmp_path, slots_yaml, deck=SLOTS_DECK, size="[60, 90]"):
    import math
    face = f"size: {size}\ncode: false\nelements:\n  - slots: {slots_yaml}\n"
    make_game(tmp_path, "title: Mini\ncode: MIN\ncard_size: " + size + "\n", deck, {"face": face})
    game = load(Project(tmp_path), "mini")
    layouter = Layouter(game, game.decks[0])
    out = {}
    for card in expand(game, game.decks[0], assign_numbers(game)):
        body = [inner for op in layouter.layout(card, card.front)
                for inner in (layouter.forms[op.name].body if isinstance(op, ops.Form) else [op])]
        groups = [op for op in body if isinstance(op, ops.Group)]
        rows = []
        for g in groups:
            a, b, c, d, e, f = g.transform
            angle = round(math.degrees(math.atan2(-b, a))) % 360   # counter-clockwise, as seen
            (text,) = [op for op in g.body if isinstance(op, ops.Text)]
            rows.append((text.lines[0][2][0].text, round(e, 6), round(f, 6), angle))
        out[card.entry.fields["title"]] = rows
    return out


def test_slots_on_a_rectangle_face_outward_clockwise_from_start(tmp_path):
    got = _slot_groups(tmp_path, '{at: all, values: "{{ values }}", start: "{{ start }}", inset: 5}')
    # centres 5 mm in from each edge of a 60 x 90 card; the foot of each value towards its edge
    assert got["A"] == [("1", 30, 5, 180), ("2", 55, 5, 135), ("3", 55, 45, 90), ("4", 55, 85, 45),
                        ("5", 30, 85, 0), ("6", 5, 85, 315), ("7", 5, 45, 270), ("8", 5, 5, 225)]
    assert [r[0] for r in got["B"]] == ["1", "2", "3", "4"]
    assert [(r[1], r[2]) for r in got["B"]] == [(55, 85), (30, 85), (5, 85), (5, 45)]  # se, s, sw, w


def test_slots_facing_in_and_named_slots(tmp_path):
    got = _slot_groups(tmp_path, '{at: edges, values: {n: N, s: S}, facing: in, inset: 5}')
    assert got["A"] == [("N", 30, 5, 0), ("S", 30, 85, 180)]


def test_slots_on_the_six_edges_of_a_hexagon(tmp_path):
    import math
    got = _slot_groups(tmp_path, '{shape: hex-pointy, values: [a, b, c, d, e, f], inset: 4}', size="[80, 80]")
    radius = 40   # a pointy-topped hexagon in an 80 mm box: corner radius 40
    reach = radius * math.sqrt(3) / 2 - 4
    want = []
    for name, theta in zip("abcdef", [60, 0, -60, -120, 180, 120]):   # ne, e, se, sw, w, nw
        t = math.radians(theta)
        want.append((name, round(40 + reach * math.cos(t), 6), round(40 - reach * math.sin(t), 6), (theta + 90) % 360))
    assert got["A"] == want


def test_too_many_values_for_the_slots_is_located(tmp_path):
    with pytest.raises(InputError, match=r"face.yaml:4: elements\[0\]: 8 values for 4 slots .*card MIN-001"):
        _slot_groups(tmp_path, '{at: corners, values: "{{ values }}"}')


def test_short_hex_colours_mean_what_they_mean_in_css():
    """reportlab alone reads '#fff' as blue; a designer means white."""
    from pnpgen.game.models import to_color
    assert to_color("#fff").rgb() == (1.0, 1.0, 1.0)
    assert to_color("#f80").rgb() == to_color("#ff8800").rgb()
    half = to_color("#ff000080")
    assert half.rgb() == (1.0, 0.0, 0.0) and half.alpha == pytest.approx(0x80 / 255)
    assert to_color("#f008").alpha == pytest.approx(0x88 / 255) and to_color("#ff0000").alpha == 1
    with pytest.raises(ValueError, match="six hex digits"):
        to_color("#ffffff8")


def test_one_line_texts_are_placed_as_the_general_path_places_them(tmp_path, monkeypatch):
    """Text._one_line, the short way for plain text that fits on one line, gives the very
    operation (repr and all: -0.0 is not 0.0 there) that wrapping, fitting and placing gives."""
    import random

    from pnpgen.elements.text import Text
    from pnpgen.layout.context import Context

    make_game(tmp_path, GAME, DECK, {"face": FACE})
    game = load(Project(tmp_path), "mini")
    layouter = Layouter(game, game.decks[0])
    ctx = Context(layouter.res, Expressions(), {}, (63.5, 88.9), 3.0, {})
    rng = random.Random(7)
    words = ["Card", "17", "a", "Wide", "WWWWWWWW", "ii", "x-y", "(3)", "\t", "  "]
    elements = []
    for _ in range(600):
        content = " ".join(rng.choice(words) for _ in range(rng.randint(1, 5)))
        if not content.strip():
            continue
        element = Text(text=content, x=rng.choice([0, -0.0, 5, 7.25]), y=rng.choice([0, -0.0, 3.5, 40]),
                       w=rng.choice([4, 12, 30.5, 53.5]), h=rng.choice([2, 4.5, 9, 30]),
                       font=rng.choice(["sans", "sans-bold"]), size=rng.choice([6, 9, 13, 16.5]),
                       align=rng.choice(["left", "center", "right"]), valign=rng.choice(["top", "middle", "bottom"]),
                       wrap=rng.random() < 0.8, leading=rng.choice([1, 1.15, 2]), rotate=rng.choice([0, 90, -90, 45]),
                       color=rng.choice(["black", "#ff000080"]), opacity=rng.choice([1, 0.5]))
        elements.append((element, content))
    one_line, taken = Text._one_line, []

    def counted(self, *args):
        op = one_line(self, *args)
        taken.append(op is not None)
        return op

    monkeypatch.setattr(Text, "_one_line", counted)
    short = [repr(e._layout(content, ctx, [])) for e, content in elements]
    monkeypatch.setattr(Text, "_one_line", lambda self, *args: None)
    general = [repr(e._layout(content, ctx, [])) for e, content in elements]
    assert short == general
    assert 100 < sum(taken) < len(taken) - 100      # both ways were taken, many times


@pytest.mark.parametrize("said, refused", [
    ("title", None), ("card", None), ("self", None), ("range", None), ("lipsum", None), ("true", None),
    ("not", "bad expression '{{ not }}'"),            # (a field named 'not' cannot be said so)
    ("titel", "undefined name 'titel' in '{{ titel }}' (did you mean 'title'?)"),
])
def test_a_plain_name_is_checked_as_jinja_would_check_it(tmp_path, said, refused):
    """'{{ name }}' of a name the template may use is passed without parsing; every other
    plain name gets Jinja's answer: a global or `self` is fine, `not` is no expression."""
    deck = DECK.replace("  body: {}\n", "  body: {}\n  not: {}\n  range: {}\n")
    make_game(tmp_path, GAME, deck, {"face": "size: poker\nelements:\n"
                                             f"  - text: {{x: 5, y: 5, w: 50, h: 9, text: '{{{{ {said} }}}}'}}\n"})
    game = load(Project(tmp_path), "mini")

    def check():
        return check_template(game, game.decks[0], game.templates["face"], Expressions(), common=False)
    if refused is None:
        assert check() == []
    else:
        with pytest.raises(InputError) as raised:
            check()
        assert refused in str(raised.value) and "face.yaml:3" in str(raised.value)
