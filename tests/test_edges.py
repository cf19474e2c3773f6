"""The edges where print defects hide: a part-filled last sheet, characters no font has,
text that cannot fit, images in every mode Pillow opens, an output path that cannot be
written. Each test builds a small game of its own and reads the result back."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from pnpgen import presets
from pnpgen.build import Options, Project, build_game
from pnpgen.impose import apply, impose

from .minigame import make_game

RED, BLUE = (0xcc, 0x22, 0x22), (0x22, 0x44, 0xcc)


def _game(tmp_path, count, size, paper="letter", extra_game="", front=None, fields="", cards=None):
    game = f"title: Edges\ncode: EDG\npaper: {paper}\ncard_size: {size}\n{extra_game}"
    cards = cards or f"  - {{title: A, count: {count}}}\n"
    deck = ("name: Edge deck\ntemplate: front\nback: {template: back}\n"
            f"fields:\n  title: {{required: true}}\n{fields}cards:\n{cards}")
    templates = {
        "front": front or "code: false\nelements:\n  - rect: {w: 999, h: 999, fill: '#cc2222', bleed: true}\n",
        "back": "code: false\nelements:\n  - rect: {w: 999, h: 999, fill: '#2244cc', bleed: true}\n",
    }
    make_game(tmp_path, game, deck, templates)
    return Project(tmp_path)


def _render(path, page, dpi=100):
    return pdfium.PdfDocument(str(path))[page].render(scale=dpi / 72).to_pil().convert("RGB")


def _px(image, H, x_mm, y_mm, dpi=100):
    return image.getpixel((round(x_mm / 25.4 * dpi), round((H - y_mm) / 25.4 * dpi)))


@pytest.mark.parametrize("size,paper,count", [
    ("poker", "letter", 11), ("poker", "a4", 3), ("square-large", "letter", 10),
    ("square-large", "a4", 4), ("mini", "letter", 6)])
def test_every_exposed_edge_of_a_part_filled_sheet_keeps_its_bleed(tmp_path, size, paper, count):
    """On the last sheet, an edge with no printed neighbour shows the card's art just past
    the cut line, on the front page and behind it on the back page; beyond the bleed is paper."""
    project = _game(tmp_path, count, size, paper)
    (result,) = build_game(project, "mini", Options(out=tmp_path / "out"))
    card = presets.card_sizes()[size]
    sheet = impose(presets.papers()[paper], card, 3.175, 5)
    used = count - (result.sheets - 1) * sheet.per_sheet
    assert 0 < used < sheet.per_sheet, "the case must leave a part-filled last sheet"
    front = _render(result.path, 2 * (result.sheets - 1))
    back = _render(result.path, 2 * (result.sheets - 1) + 1)
    H = sheet.page[1]
    bx, by = sheet.outer
    checked = 0
    for i in range(used):
        r, c = divmod(i, sheet.cols)
        x, y, w, h = sheet.fronts[i].trim
        sides = {  # side: (exposed?, outward bleed, sample point just past the cut line)
            "left": (c == 0, bx, (x, y + h / 2), (-1, 0)),
            "top": (r == 0, by, (x + w / 2, y + h), (0, 1)),
            "right": (c == sheet.cols - 1 or i + 1 >= used, bx if c == sheet.cols - 1 else 3.175,
                      (x + w, y + h / 2), (1, 0)),
            "bottom": (r == sheet.rows - 1 or i + sheet.cols >= used, by if r == sheet.rows - 1 else 3.175,
                       (x + w / 2, y), (0, -1)),
        }
        for side, (exposed, bleed, (px, py), (dx, dy)) in sides.items():
            if not exposed:
                continue
            inside = (px + dx * bleed * 0.6, py + dy * bleed * 0.6)
            beyond = (px + dx * (bleed + 0.8), py + dy * (bleed + 0.8))
            assert _px(front, H, *inside) == pytest.approx(RED, abs=10), f"front card {i} {side} edge"
            assert _px(back, H, *apply(sheet.flip_t, *inside)) == pytest.approx(BLUE, abs=10), \
                f"back of card {i}, {side} edge"
            if (c == sheet.cols - 1 and side == "right") or (c == 0 and side == "left") or \
                    (r == 0 and side == "top") or (r == sheet.rows - 1 and side == "bottom"):
                assert _px(front, H, *beyond) == (255, 255, 255), f"front card {i} {side}: paper beyond"
            checked += 1
    assert checked >= 4
