"""Imposition is pure geometry: checked here without writing any PDF."""

from __future__ import annotations

import itertools

import pytest

from pnpgen import presets
from pnpgen.errors import InputError
from pnpgen.sheets.impose import MARK_MIN, TICK_BLEED, impose

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
    except InputError as exc:
        pytest.skip(f"does not fit in this mode: {exc}")
    assert sheet.per_sheet == sheet.cols * sheet.rows > 0
    bx, by = sheet.outer
    x_marked = any(m[0][1] == m[1][1] for m in sheet.marks)   # marks on the left and right
    y_marked = any(m[0][0] == m[1][0] for m in sheet.marks)   # marks above and below
    assert bx >= TICK_BLEED and by >= TICK_BLEED
    for slot in sheet.fronts:
        x, y, w, h = slot.clip
        # the bleed area stays inside the printable page, with room for crop marks where
        # that axis is marked in the margins
        mx = margin + (MARK_MIN if x_marked else 0)
        my = margin + (MARK_MIN if y_marked else 0)
        assert x >= mx - 1e-9 and x + w <= W - mx + 1e-9
        assert y >= my - 1e-9 and y + h <= H - my + 1e-9
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


    # every trim line is marked: by crop marks in the margin or by ticks in the outer bleed
    xs = {round(v, 6) for s in sheet.fronts for v in (s.trim[0], s.trim[0] + s.trim[2])}
    ys = {round(v, 6) for s in sheet.fronts for v in (s.trim[1], s.trim[1] + s.trim[3])}
    vertical = {round(a[0], 6) for a, b in sheet.marks + sheet.ticks if a[0] == b[0]}
    horizontal = {round(a[1], 6) for a, b in sheet.marks + sheet.ticks if a[1] == b[1]}
    assert xs <= vertical and ys <= horizontal
    # ticks lie in the bleed, outside every trim box, inside the printable page
    for (x0, y0), (x1, y1) in sheet.ticks:
        seg = (min(x0, x1), min(y0, y1), abs(x1 - x0) or 1e-6, abs(y1 - y0) or 1e-6)
        assert not any(overlaps(seg, s.trim) for s in sheet.fronts)
        assert any(overlaps(seg, s.clip) for s in sheet.fronts)
        assert min(x0, x1) >= margin - 1e-9 and max(x0, x1) <= W - margin + 1e-9
        assert min(y0, y1) >= margin - 1e-9 and max(y0, y1) <= H - margin + 1e-9


def test_six_large_squares_on_letter_with_ticks_and_on_a4_with_marks():
    """Three 88.9 mm rows leave Letter no room for crop marks above and below: the top and
    bottom bleed shrinks to the printable strip and the vertical cut lines get ticks there."""
    letter = impose(PAPERS["letter"], CARDS["square-large"], 3.175, 5)
    assert (letter.cols, letter.rows, letter.per_sheet) == (2, 3, 6)
    assert letter.outer[0] == pytest.approx(3.175) and letter.outer[1] == pytest.approx((279.4 - 3 * 88.9) / 2 - 5)
    assert len(letter.ticks) == 2 * 3 and all(a[0] == b[0] for a, b in letter.ticks)
    a4 = impose(PAPERS["a4"], CARDS["square-large"], 3.175, 5)
    assert a4.per_sheet == 6 and not a4.ticks and a4.outer == pytest.approx((3.175, 3.175))


@pytest.mark.parametrize("paper,card", [("letter", "poker"), ("letter", "square-large"), ("a4", "bridge")])
def test_a_part_filled_sheet_keeps_full_bleed_next_to_empty_slots(paper, card):
    sheet = impose(PAPERS[paper], CARDS[card], 3.175, 5, "shared")
    b = 3.175
    for used in range(1, sheet.per_sheet):
        fronts, backs = sheet.slots_for(used)
        assert len(fronts) == len(backs) == used
        for i, (front, back) in enumerate(zip(fronts, backs)):
            r, c = divmod(i, sheet.cols)
            (x, y, w, _), (tx, ty, tw, _) = front.clip, front.trim
            right_empty = c < sheet.cols - 1 and i + 1 >= used
            below_empty = r < sheet.rows - 1 and i + sheet.cols >= used
            if right_empty:
                assert x + w == pytest.approx(tx + tw + b)
            if below_empty:
                assert y == pytest.approx(ty - b)
            if c < sheet.cols - 1 and not right_empty:
                assert x + w == pytest.approx(tx + tw)   # a printed neighbour: shared cut
            # the back's clip is the front's clip seen through the duplex flip
            W, H = sheet.page
            fx, fy, fw, fh = front.clip
            want = (W - fx - fw, fy, fw, fh) if sheet.flip == "long" else (fx, H - fy - fh, fw, fh)
            assert back.clip == pytest.approx(want)
        for a, b2 in itertools.permutations(fronts, 2):
            assert not overlaps(a.clip, b2.trim)   # bleed never reaches into another card


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


def test_packed_components_keep_their_bleed_apart_and_fill_sheets_in_order():
    from pnpgen.sheets.impose import pack
    sizes = [(16, 16)] * 150 + [(12, 12)] * 10 + [(25, 40)] * 6
    shapes = ["round"] * 150 + ["rect"] * 16
    W, H = PAPERS["letter"]
    sheets = pack((W, H), sizes, shapes, 3.175, 5)
    assert sum(s.per_sheet for s in sheets) == len(sizes) and len(sheets) >= 2
    seen = []
    for s in sheets:
        assert s.shapes == tuple(shapes[len(seen):len(seen) + s.per_sheet])
        for slot in s.fronts:
            x, y, w, h = slot.clip
            assert x >= 5 - 1e-9 and y >= 5 - 1e-9 and x + w <= W - 5 + 1e-9 and y + h <= H - 5 + 1e-9
            seen.append((slot.trim[2], slot.trim[3]))
        for a, b in itertools.combinations(s.fronts, 2):
            assert not overlaps(a.clip, b.clip)   # every component keeps its whole bleed
        for front, back in zip(s.fronts, s.backs):
            x, y, w, h = front.trim
            assert back.trim == pytest.approx((W - x - w, y, w, h))
        assert [c[1] for c in s.cuts_for(s.per_sheet)] == [f.trim for f in s.fronts]
    assert seen == sizes   # deck order kept: the kinds stay together
