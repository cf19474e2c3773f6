"""A text met again is written from the operators its runs were set in the first time
(pnpgen/pdf/textruns.py): the PDF must be byte for byte the one a text object writing every
text itself gives, whatever the text holds (fonts, characters beyond ASCII, icons, a turn, a
see-through colour) and wherever it is drawn."""

from __future__ import annotations

import io

import pytest
from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from pnpgen import fonts, ops
from pnpgen.pdf import textruns
from pnpgen.pdf.canvas import Painter

STAR = ops.FormDef((4.0, 4.0), (ops.Rect(0.0, 0.0, 4.0, 4.0, 0.0, ops.Paint(Color(1, 0.8, 0))),), bleed=False)


def texts(sans: str, bold: str) -> list:
    run = ops.Run
    return [
        ops.Text(((5.0, 10.0, (run(0.0, "Plain words", sans),)),), 9, None, 0.0, 30.0, 10.0),
        ops.Text(((5.0, 20.0, (run(0.0, "Gain", sans), run(8.0, "two", bold), run(14.0, "star", "", True, 3.0, 3.0),
                               run(18.0, "caf\u00e9 \u2014 \u00bd", sans))),
                  (5.0, 24.5, (run(0.0, "second line", sans),))), 10.5, Color(0.2, 0.3, 0.4), 0.0, 30.0, 22.0),
        ops.Text(((2.0, 40.0, (run(0.0, "turned (and) \\escaped\\", bold),)),), 8, Color(1, 0, 0, 0.5), 90.0, 20.0, 40.0),
        ops.Text(((2.0, 50.0, (run(0.0, "star", "", True, 3.0, 3.0),)),), 8, Color(0, 0, 0, 0.4), 0.0, 5.0, 50.0),
        ops.Text(((2.0, 60.0, (run(0.0, "\u00e9\u00e8 once more", sans),)),), 12, Color(0, 0.5, 0, 1), 0.0, 9.0, 60.0),
    ]


def drawn(monkeypatch, set_apart: bool) -> bytes:
    if not set_apart:       # every text written by its own text object, as before textruns.py
        monkeypatch.setattr(textruns.TextRuns, "_set_apart", lambda self, key, op, card_h: None)
    sans = fonts.ensure("sans", fonts.BUILTIN["sans"])
    bold = fonts.ensure("sans-bold", fonts.BUILTIN["sans-bold"])
    out = io.BytesIO()
    c = Canvas(out, pagesize=(400, 400), invariant=1, pageCompression=0, initialFontName=sans)
    painter = Painter(c, {"icon:star": STAR}, 3.0)
    painter.define_forms(["icon:star"])
    body = texts(sans, bold)
    for page in range(3):
        for card_h in (88.9, 63.5, 88.9):
            c.saveState()
            c.translate(10 * page, 5)
            painter._draw(body + body[1:3], card_h)
            c.restoreState()
        c.showPage()
    c.save()
    monkeypatch.undo()
    return out.getvalue()


def test_texts_met_again_are_written_as_their_own_text_objects_write_them(monkeypatch):
    once = drawn(monkeypatch, set_apart=True)
    assert once == drawn(monkeypatch, set_apart=False)
    assert b"(Plain words) Tj" in once


@pytest.mark.parametrize("memo", [1, 3])
def test_a_full_memo_starts_again_and_changes_nothing(monkeypatch, memo):
    expected = drawn(monkeypatch, set_apart=False)
    monkeypatch.setattr(textruns, "MEMO", memo)
    assert drawn(monkeypatch, set_apart=True) == expected
