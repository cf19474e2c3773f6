"""Swamped, read back from its PDFs: the values on edges and corners face outward, each back
lands behind its own front, the Treasure count carries on behind the 3, maps are drawn from
their data, the kit passes every print check, and the cards come six to a sheet."""

from __future__ import annotations

import json
import math

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from pnpgen.maps import gridmap
from pnpgen import presets
from pnpgen.build import load
from pnpgen.game.expand import assign_numbers, expand
from pnpgen.sheets.impose import impose

from .clirun import pnpgen
from .pdfread import code_centres

MM = 72 / 25.4
OUTWARD = {"n": 180, "ne": 135, "e": 90, "se": 45, "s": 0, "sw": 315, "w": 270, "nw": 225}
"""The angle (degrees counter-clockwise) of a value read from beyond each edge or corner."""


def _result(built, deck):
    return next(r for r in built["swamped"] if r.id == deck)


def _places(built, deck_id):
    """{code: (its PDF, front page, front trim, back page, back trim)} of each card's first copy,
    as the build's manifest records it: a deck's cards are on its own sheets or on shared ones."""
    outdir = _result(built, deck_id).path.parent
    data = json.loads((outdir / "manifest.json").read_text())
    deck = next(d for d in data["decks"] if d["id"] == deck_id)
    rows = [dict(zip(data["card_columns"], row)) for row in deck["cards"]]
    return {r["code"]: (outdir / deck["files"][r["file"]], r["front_page"], tuple(deck["slots"][r["front_slot"]][:4]),
                        r["back_page"], tuple(deck["slots"][r["back_slot"]][:4])) for r in rows}


def _cards(project, deck_id):
    game = load(project, "swamped")
    deck = next(d for d in game.decks if d.id == deck_id)
    g = game.game
    sheet = impose(presets.papers()[g.paper], deck.size, g.bleed, g.printer_margin, g.cut, g.flip)
    return expand(game, deck, assign_numbers(game)), sheet


def _glyphs(page, min_size=0):
    """[(char, centre x pt, centre y pt, angle degrees ccw)] of every character on a page
    of at least `min_size` pt (pdfium measures angles clockwise)."""
    textpage = page.get_textpage()
    out = []
    for i in range(textpage.count_chars()):
        ch = chr(pdfium_c.FPDFText_GetUnicode(textpage, i))
        if ch.isspace() or pdfium_c.FPDFText_GetFontSize(textpage, i) < min_size:
            continue
        left, bottom, right, top = textpage.get_charbox(i)
        angle = -math.degrees(pdfium_c.FPDFText_GetCharAngle(textpage, i))
        out.append((ch, (left + right) / 2, (bottom + top) / 2, round(angle) % 360))
    return out


def _position(x, y, trim):
    """Which slot (n, ne, ... nw) of the card with this trim (mm) the point (pt) is near,
    or None for the middle of the card or outside it."""
    tx, ty, tw, th = trim
    u, v = (x / MM - tx) / tw, (y / MM - ty) / th   # 0..1 across, 0..1 up
    if not (0 <= u <= 1 and 0 <= v <= 1):
        return None
    col = "w" if u < 0.25 else "e" if u > 0.75 else ""
    row = "s" if v < 0.25 else "n" if v > 0.75 else ""
    return (row + col) or None


def _values_on(page, trim, chars="0123456789"):
    """{slot: [(value, angle)]} of the big digits (14 pt or more) printed on the edges and
    corners of one card."""
    found = {}
    for ch, x, y, angle in _glyphs(page, min_size=14):
        tx, ty, tw, th = trim
        if ch in chars and tx <= x / MM <= tx + tw and ty <= y / MM <= ty + th:
            slot = _position(x, y, trim)
            if slot is not None:
                found.setdefault(slot, []).append((int(ch), angle))
    return found


CLOCKWISE = ["n", "ne", "e", "se", "s", "sw", "w", "nw"]


def test_treasure_values_face_their_edges_and_carry_on_behind_the_three(built, project):
    places = _places(built, "components")
    cards, sheet = _cards(project, "components")
    treasures = [c for c in cards if c.front == "treasure"]
    assert len(treasures) == 4
    W = sheet.page[0]
    for card in treasures:
        path, front_page, front_trim, back_page, back_trim = places[card.code]
        pdf = pdfium.PdfDocument(str(path))
        front = _values_on(pdf[front_page], front_trim)
        back = _values_on(pdf[back_page], back_trim)
        edges = dict(zip(["n", "e", "s", "w"], card.entry.fields["edges"]))
        back_edges = dict(zip(["n", "e", "s", "w"], card.entry.fields["back_edges"]))
        # every value on its edge, turned to be read from beyond that edge
        assert {k: v for k, v in front.items()} == {k: [(edges[k], OUTWARD[k])] for k in "nesw"}, card.code
        assert {k: v for k, v in back.items()} == {k: [(back_edges[k], OUTWARD[k])] for k in "nesw"}, card.code
        # front: 0 to 3 clockwise; back, as seen on its own face: 4 to 7 clockwise
        assert [front[k][0][0] for k in "nesw"] == [0, 1, 2, 3]
        order = [back[k][0][0] for k in "nesw"]
        start = order.index(4)
        assert order[start:] + order[:start] == [4, 5, 6, 7]
        # the 4 is printed right behind the 3: flip the back page's 4 onto the front page
        (four,) = [(x, y) for ch, x, y, _ in _glyphs(pdf[back_page], 14) if ch == "4"
                   and _position(x, y, back_trim)]
        (three,) = [(x, y) for ch, x, y, _ in _glyphs(pdf[front_page], 14) if ch == "3"
                    and _position(x, y, front_trim)]
        behind = (W * MM - four[0], four[1])
        assert behind == pytest.approx(three, abs=2 * MM)


def test_croc_speeds_rise_clockwise_on_sides_and_corners_each_facing_out(built, project):
    cards, _ = _cards(project, "components")
    (croc,) = [c for c in cards if c.front == "croc"]
    path, front_page, front_trim, _, _ = _places(built, "components")[croc.code]
    found = _values_on(pdfium.PdfDocument(str(path))[front_page], front_trim)
    values = croc.entry.fields["values"]
    assert found == {k: [(v, OUTWARD[k])] for k, v in zip(CLOCKWISE, values)}
    assert values == sorted(values) and values[0] == 1


@pytest.mark.parametrize("deck,template", [("deck", "coordinate"), ("expansions", "pounce")])
def test_corner_numbers_face_their_corners_clockwise_from_the_white_one(built, project, deck, template):
    places = _places(built, deck)
    cards, sheet = _cards(project, deck)
    H = sheet.page[1]
    checked = 0
    for card in cards:
        if card.front != template:
            continue
        path, page, trim, _, _ = places[card.code]
        pdf = pdfium.PdfDocument(str(path))
        found = _values_on(pdf[page], trim)
        corners = ["ne", "se", "sw", "nw"]
        white = card.entry.fields["white"]
        k = corners.index(white)
        want = {corners[(k + n) % 4]: [(v, OUTWARD[corners[(k + n) % 4]])]
                for n, v in enumerate(card.entry.fields["corners"])}
        assert found == want, card.code
        # the white corner is white, right at the card's corner; the others are not
        image = pdf[page].render(scale=100 / 72).to_pil().convert("RGB")
        tx, ty, tw, th = trim
        for corner in corners:
            cx = tx + (2.5 if "w" in corner else tw - 2.5)
            cy = ty + (2.5 if "s" in corner else th - 2.5)
            pixel = image.getpixel((round(cx / 25.4 * 100), round((H - cy) / 25.4 * 100)))
            assert (pixel == (255, 255, 255)) == (corner == white), (card.code, corner, pixel)
        checked += 1
    assert checked == (16 if template == "coordinate" else 4)


def test_every_card_code_is_printed_on_both_faces_and_lands_behind_its_front(built, project):
    """Codes are read off the pages as text; each back's code, turned over the long edge,
    lands on its front's code (within 2 mm), for every double-sided card of the kit, on the
    decks' own sheets and the shared ones alike; no page shows a code it should not."""
    on_page: dict = {}      # (PDF, page) -> the codes the manifest puts there
    unique = set()
    for deck in ("deck", "components", "expansions"):
        cards, sheet = _cards(project, deck)
        places = _places(built, deck)
        W = sheet.page[0] * MM
        assert set(places) == {c.code for c in cards}
        for card in cards:
            path, front_page, _, back_page, _ = places[card.code]
            on_page.setdefault((path, front_page), set()).add(card.code)
            if card.unique_back:
                unique.add(card.code)
                on_page.setdefault((path, back_page), set()).add(card.code)
    assert sorted({path.name for path, _ in on_page}) == ["components.pdf", "deck.pdf", "shared-88.9x88.9.pdf"]
    for (path, page), expected in on_page.items():
        assert set(code_centres(pdfium.PdfDocument(str(path))[page], "SWD-")) == expected, (path.name, page)
    for (path, page), expected in on_page.items():
        if page % 2:
            continue
        pdf = pdfium.PdfDocument(str(path))
        fronts, backs = code_centres(pdf[page], "SWD-"), code_centres(pdf[page + 1], "SWD-")
        for code in expected & unique:
            bx, by = backs[code]
            assert (W - bx, by) == pytest.approx(fronts[code], abs=2 * MM), code


def test_maps_are_drawn_from_their_data(built, project):
    """On the back of every Deck card, each wall and closed bank of its map is printed in the
    wall colour, and each open edge between two spaces is not."""
    result = _result(built, "deck")
    cards, sheet = _cards(project, "deck")
    pdf = pdfium.PdfDocument(str(result.path))
    H = sheet.page[1]
    dpi = 150
    wall = (0x1f, 0x3a, 0x24)
    for s in range(result.sheets):
        image = pdf[2 * s + 1].render(scale=dpi / 72).to_pil().convert("RGB")
        for n, card in enumerate(cards[s * sheet.per_sheet:(s + 1) * sheet.per_sheet]):
            grid = gridmap.parse(card.entry.fields["map"], card.entry.fields["walls"], ["N", "S"],
                                 {"^": "N", "v": "S"})
            tx, ty, tw, th = sheet.backs[n].trim
            closed = {tuple(sorted(seg)) for seg in grid.wall_segments()}
            edges = [((c, r), (c, r + 1)) for c in range(7) for r in range(6)] + \
                    [((c, r), (c + 1, r)) for c in range(6) for r in range(7)]
            for seg in edges:
                (ax, ay), (bx, by) = seg
                # a point on the edge, a third of the way along (clear of icons and corners)
                mx = 3.65 + 13.6 * (ax + (bx - ax) / 3)    # 13.6 mm spaces, centred across
                my = 2.45 + 13.6 * (ay + (by - ay) / 3)    # under the 2.45 mm top bank
                px = image.getpixel((round((tx + mx) / 25.4 * dpi), round((H - (ty + th - my)) / 25.4 * dpi)))
                is_wall = max(abs(p - q) for p, q in zip(px, wall)) < 40
                assert is_wall == (seg in closed), (card.code, seg, px)


def test_the_kit_passes_every_print_check(project):
    """`pnpgen check swamped` finds nothing to report at the default limits: every card code
    readable and 1.5 mm clear of the cut, walls and grid lines standing out from the water,
    no type under 6 pt, and no rule broken."""
    ran = pnpgen("check", "swamped", "--format", "json", "--strict", cwd=project.root)
    data = json.loads(ran.stdout)
    assert ran.returncode == 0, ran.stdout
    assert data["print"] == [] and data["errors"] == 0 and data["warnings"] == 0


def test_square_cards_come_six_to_a_letter_sheet(built):
    """Six 88.9 mm cards a Letter sheet: the rulebook's 42 cards fill 7 sheets, the Pilot
    card (the Components' 13th) and the 5 expansion cards sharing the seventh."""
    sheets = {r.id: (r.cards, r.per_sheet, r.sheets) for r in built["swamped"] if r.kind == "deck"}
    assert sheets["deck"] == (24, 6, 4)
    assert sheets["components"] == (12, 6, 2) and sheets["expansions"] == (5, 0, 0)
    assert sheets["shared-88.9x88.9"] == (6, 6, 1)
    assert sum(s for d, (_, _, s) in sheets.items() if d not in ("tokens", "rulebook")) == 7
