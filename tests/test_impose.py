"""Imposition is pure geometry: checked here without writing any PDF."""

from __future__ import annotations

import itertools

import pytest

from pnpgen import presets
from pnpgen.impose import MARK_MIN, impose

PAPERS = presets.papers()
CARDS = presets.card_sizes()
CASES = list(itertools.product(sorted(PAPERS), sorted(CARDS), ["auto", "shared", "gutter"], ["long", "short"]))


def overlaps(a, b):
    return a[0] < b[0] + b[2] - 1e-9 and b[0] < a[0] + a[2] - 1e-9 and \
        a[1] < b[1] + b[3] - 1e-9 and b[1] < a[1] + a[3] - 1e-9


@pytest.mark.parametrize("paper,card,cut,flip", CASES)
def test_sheet_geometry(paper, card, cut, flip):
    W, H = PAPERS[paper]
    margin, bleed = 5.0, 3.175
    try:
        sheet = impose((W, H), CARDS[card], bleed, margin, cut, flip)
    except Exception:
        pytest.skip("does not fit in this mode")
    assert sheet.per_sheet == sheet.cols * sheet.rows > 0
    for slot in sheet.fronts:
        x, y, w, h = slot.clip
        # the bleed area stays inside the printable page, with room for crop marks
        assert x >= margin + MARK_MIN - 1e-9 and x + w <= W - margin - MARK_MIN + 1e-9
        assert y >= margin + MARK_MIN - 1e-9 and y + h <= H - margin - MARK_MIN + 1e-9
        tx, ty, tw, th = slot.trim
        assert x <= tx and y <= ty and tx + tw <= x + w + 1e-9 and ty + th <= y + h + 1e-9
        assert (tw, th) == pytest.approx(CARDS[card][::-1] if sheet.rotated else CARDS[card])
    for a, b in itertools.combinations(sheet.fronts, 2):
        assert not overlaps(a.clip, b.clip)
    # the back of front slot (x, y, w, h) sits at the mirrored slot of the print reference
    for front, back in zip(sheet.fronts, sheet.backs):
        x, y, w, h = front.trim
        want = (W - x - w, y, w, h) if flip == "long" else (x, H - y - h, w, h)
        assert back.trim == pytest.approx(want)
    # crop marks: outside every bleed area, at least MARK_MIN long, inside the printable page
    for (x0, y0), (x1, y1) in sheet.marks:
        assert abs(x1 - x0) + abs(y1 - y0) >= MARK_MIN - 1e-9
        seg = (min(x0, x1), min(y0, y1), abs(x1 - x0) or 1e-6, abs(y1 - y0) or 1e-6)
        assert not any(overlaps(seg, s.clip) for s in sheet.fronts)
        assert min(x0, x1) >= margin - 1e-9 and max(x0, x1) <= W - margin + 1e-9
        assert min(y0, y1) >= margin - 1e-9 and max(y0, y1) <= H - margin + 1e-9


def test_grid_is_centred_so_backs_share_the_front_slots():
    sheet = impose(PAPERS["letter"], CARDS["poker"], 3.175, 5, "auto", "long")
    fronts = sorted(round(v, 6) for s in sheet.fronts for v in s.trim)
    backs = sorted(round(v, 6) for s in sheet.backs for v in s.trim)
    assert backs == pytest.approx(fronts)


def test_shared_cuts_keep_bleed_only_on_the_outside():
    sheet = impose(PAPERS["a4"], CARDS["poker"], 3.175, 5, "shared", "long")
    assert sheet.cut == "shared"
    for a, b in itertools.combinations(sheet.fronts, 2):
        assert not overlaps(a.clip, b.clip)  # neighbours meet exactly at the shared trim line


def test_poker_cards_per_sheet():
    """Poker cards with 1/8 in bleed and crop marks: 8 per sheet on Letter and on A4."""
    for paper in ("letter", "a4"):
        assert impose(PAPERS[paper], CARDS["poker"], 3.175, 5).per_sheet == 8
    assert impose(PAPERS["a4"], CARDS["poker"], 0, 5).per_sheet == 9  # no bleed: 3 x 3


def test_too_big_a_card_is_a_clear_error():
    from pnpgen.errors import InputError
    with pytest.raises(InputError, match="does not fit"):
        impose(PAPERS["letter"], (300, 300), 3.175, 5)


def test_a_part_filled_sheet_marks_only_the_cards_it_holds():
    sheet = impose(PAPERS["letter"], CARDS["poker"], 3.175, 5)
    assert sheet.marks_for(sheet.per_sheet) == sheet.marks
    first = sheet.fronts[0].trim
    marks = sheet.marks_for(1)
    assert 0 < len(marks) < len(sheet.marks)
    for (x0, y0), (x1, y1) in marks:
        if x0 == x1:
            assert x0 == pytest.approx(first[0]) or x0 == pytest.approx(first[0] + first[2])
        else:
            assert y0 == pytest.approx(first[1]) or y0 == pytest.approx(first[1] + first[3])
