"""Swamp Fox's playing parts, read back from the built kit: no print findings, standees whose
folded base stands inside one trail space, the pieces and bullets told apart by a letter as
well as by colour, and the spinner's arrow saying how to mount it."""

from __future__ import annotations

import math
from collections import Counter

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from pnpgen import ops
from pnpgen.build import Project, load
from pnpgen.game.expand import assign_numbers, expand
from pnpgen.layout.boards import board_card
from pnpgen.layout.layouter import Layouter
from pnpgen.rules.ruleset import check_game

from .clirun import pnpgen
from .pdfread import page_texts

MM = 72 / 25.4
LETTERS = {"piece1": "R", "piece2": "B", "piece3": "G", "piece4": "Y"}


def _result(built, deck):
    return next(r for r in built["swamp-fox"] if r.id == deck)


def _flat(layouter, card, face):
    return [inner for op in layouter.layout(card, face)
            for inner in (layouter.forms[op.name].body if isinstance(op, ops.Form) else [op])]


def _letters(page, min_size):
    """[(letter, x pt, y pt)] of the single capitals of at least `min_size` pt on a page."""
    textpage = page.get_textpage()
    out = []
    for i in range(textpage.count_chars()):
        ch = chr(pdfium_c.FPDFText_GetUnicode(textpage, i))
        if ch.isupper() and pdfium_c.FPDFText_GetFontSize(textpage, i) >= min_size:
            left, bottom, right, top = textpage.get_charbox(i)
            out.append((ch, (left + right) / 2, (bottom + top) / 2))
    return out


def _colour_at(image, page_height, x, y):
    return image.getpixel((round(x / 72 * 150), round((page_height - y) / 72 * 150)))


def _rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def test_the_kit_has_no_print_findings_and_keeps_its_rules(project):
    ran = pnpgen("--root", project.root, "check", "swamp-fox", "--strict")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "0 errors, 0 warnings" in ran.stdout + ran.stderr


def test_a_folded_standee_stands_inside_one_trail_space(project):
    """The two end tabs fold out to either side: the base is the strip's width by both tabs'
    depth, and its corners must stay inside the smallest space of the board."""
    game = load(project, "swamp-fox")
    (board,) = game.boards
    card = board_card(board)
    spaces = [op for op in _flat(Layouter(game, board), card, card.front) if isinstance(op, ops.Ellipse)
              and op.rx == op.ry and op.paint.fill == Layouter(game, board).res.color("paper")]
    assert len(spaces) >= 144
    smallest = min(2 * op.rx for op in spaces)
    assert smallest == pytest.approx(18)
    soldiers = next(d for d in game.decks if d.id == "soldiers")
    layouter = Layouter(game, soldiers)
    cards = expand(game, soldiers, assign_numbers(game))
    assert len(cards) == 16
    for card in cards:
        width, height = soldiers.size
        folds = sorted(op.points[0][1] for op in _flat(layouter, card, card.front) if isinstance(op, ops.Path)
                       and not op.closed and op.points[0][1] == op.points[1][1] and op.paint.dash)
        assert len(folds) == 3 and folds[1] == pytest.approx(height / 2)
        base = (width, folds[0] + (height - folds[-1]))
        assert math.hypot(*base) <= smallest - 0.4, (card.code, base)
        assert min(base) >= 9   # not a sliver: it has to hold the figure up


def test_pieces_and_bullets_carry_the_letter_of_their_colour(project, built):
    """Each Swamp Fox shows its letter on both panels, each bullet once, and each letter sits
    on its own colour: the coat beside the badge, the bullet's ring beside the letter."""
    colours = load(project, "swamp-fox").game.colors
    for deck, min_size, (dx, dy) in (("soldiers", 11, (0, 5.5)), ("tokens", 10, (5.25, 0))):
        pdf = pdfium.PdfDocument(str(_result(built, deck).path))
        page = pdf[0]
        found = _letters(page, min_size)
        assert Counter(ch for ch, _, _ in found) == {m: 2 for m in LETTERS.values()}, deck
        image = page.render(scale=150 / 72).to_pil().convert("RGB")
        for ch, x, y in found:
            piece = next(p for p, m in LETTERS.items() if m == ch)
            for side in (-1, 1):
                got = _colour_at(image, page.get_height(), x + side * dx * MM, y + side * dy * MM)
                assert got == pytest.approx(_rgb(colours[piece]), abs=14), (deck, ch, side, got)


def test_a_piece_or_bullet_whose_letter_is_not_its_colours_breaks_the_rules(scratch):
    path = scratch / "cards/swamp-fox/decks/tokens.yaml"
    text = path.read_text()
    assert "{title: Bullet, color: piece3, mark: G, count: 2}" in text
    path.write_text(text.replace("{title: Bullet, color: piece3, mark: G, count: 2}",
                                 "{title: Bullet, color: piece3, mark: Y, count: 2}"))
    report = check_game(load(Project(scratch), "swamp-fox"))
    broken = [v for v in report.errors if v.rule == "SF-02-marks"]
    assert len(broken) == 1 and broken[0].path.endswith("decks/tokens.yaml")


def test_the_spinner_arrow_says_how_to_mount_it(built):
    (text,) = page_texts(_result(built, "tokens").path)
    flat = " ".join(text.split())
    assert "To mount: push a paper fastener through the gold disc's hole" in flat
    assert "spin a paper clip round it." in flat
