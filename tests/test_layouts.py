"""Custom sheet layouts (`pnpgen build --layout NAME|FILE`): presets load and build, cards
sit exactly where the layout puts them (read back from the PDF), backs land behind their
fronts for either flip edge, and bad layouts are refused at their line with nothing written."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from pnpgen import presets
from pnpgen.sheets import custom_layout
from pnpgen.build import Options, Project, build_game
from pnpgen.errors import InputError
from pnpgen.sheets.impose import place

from .clirun import Ran, pnpgen
from .minigame import make_game
from .pdfread import MM, apply, page_geometry

TOL = 0.01   # points
ROOT = Path(__file__).resolve().parent.parent
RED, BLUE = (0xcc, 0x22, 0x22), (0x22, 0x44, 0xcc)
BUSINESS = (88.9, 50.8)


def _game(tmp_path, count, size="business", paper="letter", flip="long"):
    """A game of `count` cards of one size: red fronts with their code, blue common backs."""
    game = f"title: Layouts\ncode: LAY\npaper: {paper}\ncard_size: {size}\nflip: {flip}\n"
    deck = ("name: Layout deck\ntemplate: front\nback: {template: back}\n"
            f"fields:\n  title: {{required: true}}\ncards:\n  - {{title: A, count: {count}}}\n")
    templates = {
        "front": "elements:\n  - rect: {w: 999, h: 999, fill: '#cc2222', bleed: true}\n",
        "back": "code: false\nelements:\n  - rect: {w: 999, h: 999, fill: '#2244cc', bleed: true}\n",
    }
    make_game(tmp_path, game, deck, templates)
    return Project(tmp_path)


def _layout_file(tmp_path, text, name="layout.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def trims(placements, card):
    """(x, y, w, h) in points of each placed card's trim: its corners through its matrix."""
    w, h = (v * MM for v in card)
    out = []
    for p in placements:
        xs, ys = zip(*(apply(p.matrix, u, v) for u, v in ((0, 0), (w, 0), (0, h), (w, h))))
        out.append((min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
    return out


def expected_business(H, count):
    """Where business-10up-letter puts its first `count` cards: (x, y, w, h) in points."""
    out = []
    for i in range(count):
        r, c = divmod(i, 2)
        x, top = 19.05 + c * 88.9, 12.7 + r * 50.8
        out.append((x * MM, (H - top - 50.8) * MM, 88.9 * MM, 50.8 * MM))
    return out


def assert_registered(front_page, back_page, card, W, H, flip):
    """Each back sits behind its own front once the sheet is turned over the flip edge:
    point (u, v) of a front and point (w - u, v) of its back are the same spot of paper."""
    w, h = (v * MM for v in card)
    assert len(front_page.placements) == len(back_page.placements) > 0
    for front, back in zip(front_page.placements, back_page.placements):
        for u, v in ((0, 0), (w, 0), (w * 0.3, h * 0.8), (w, h)):
            fx, fy = apply(front.matrix, u, v)
            bx, by = apply(back.matrix, w - u, v)
            turned = (W - bx, by) if flip == "long" else (bx, H - by)
            assert turned == pytest.approx((fx, fy), abs=TOL)
        fx, fy, fw, fh = front.clip
        bx, by, bw, bh = back.clip
        turned = (W - bx - bw, by, bw, bh) if flip == "long" else (bx, H - by - bh, bw, bh)
        assert turned == pytest.approx((fx, fy, fw, fh), abs=TOL)


# --- presets ----------------------------------------------------------------------------------

def test_presets_load_and_hold_their_cards():
    assert {"business-10up-letter", "poker-9up-a4"} <= set(presets.layouts())
    for name in presets.layouts():
        layout = custom_layout.load(name)
        assert layout.sheet().per_sheet > 0
    business = custom_layout.load("business-10up-letter")
    assert business.page == presets.papers()["letter"] and business.card == BUSINESS
    got = [v for pos in business.positions()[:3] for v in pos]
    assert got == pytest.approx([19.05, 12.7, 0, 107.95, 12.7, 0, 19.05, 63.5, 0])
    sheet = business.sheet(margin=5)
    assert sheet.per_sheet == 10 and sheet.marks == () and sheet.bleed == 0
    poker = custom_layout.load("poker-9up-a4").sheet(margin=5)
    assert poker.per_sheet == 9 and poker.page == (210, 297)
    assert poker.fronts[0].trim == pytest.approx((10.5, 297 - 10 - 88.9, 63.5, 88.9))


@pytest.mark.parametrize("flip", ["long", "short"])
def test_business_preset_puts_each_card_exactly_at_its_slot_and_its_back_behind_it(tmp_path, flip):
    project = _game(tmp_path, 13, flip=flip)   # a full sheet and a part-filled one
    layout = custom_layout.load("business-10up-letter")
    result, = build_game(project, "mini", Options(out=tmp_path / "out", layout=layout))
    assert (result.sheets, result.per_sheet, result.pages) == (2, 10, 4)
    assert result.warnings == []
    reader = PdfReader(result.path)
    W, H = (float(v) for v in reader.pages[0].mediabox[2:])
    assert (W, H) == pytest.approx((215.9 * MM, 279.4 * MM), abs=0.01)
    for sheet, count in ((0, 10), (1, 3)):
        front = page_geometry(reader, 2 * sheet)
        back = page_geometry(reader, 2 * sheet + 1)
        got = trims(front.placements, BUSINESS)
        want = expected_business(279.4, count)
        assert len(got) == count
        for g, w in zip(got, want):
            assert g == pytest.approx(w, abs=TOL)
        # die-cut stock: no bleed (the clip is the trim) and no crop marks
        for p, w in zip(front.placements, want):
            assert p.clip == pytest.approx(w, abs=TOL)
        assert not [line for line in front.lines if abs(line[2] - 0.25) < 1e-6]
        assert_registered(front, back, BUSINESS, W, H, flip)


def test_back_offset_still_moves_every_back(tmp_path):
    project = _game(tmp_path, 10)
    layout = custom_layout.load("business-10up-letter")
    plain, = build_game(project, "mini", Options(out=tmp_path / "a", layout=layout))
    moved, = build_game(project, "mini", Options(out=tmp_path / "b", layout=layout, back_offset=(1.0, -0.5)))
    for page, shift in ((0, (0, 0)), (1, (1.0 * MM, -0.5 * MM))):
        a = page_geometry(PdfReader(plain.path), page).placements
        b = page_geometry(PdfReader(moved.path), page).placements
        assert len(a) == len(b) == 10
        for p, q in zip(a, b):
            assert q.matrix[4:] == pytest.approx((p.matrix[4] + shift[0], p.matrix[5] + shift[1]), abs=TOL)
            assert q.clip[:2] == pytest.approx((p.clip[0] + shift[0], p.clip[1] + shift[1]), abs=TOL)


def test_rasterized_business_sheet_shows_cards_in_their_slots_and_paper_around(tmp_path):
    project = _game(tmp_path, 10)
    result, = build_game(project, "mini", Options(out=tmp_path / "out",
                                                  layout=custom_layout.load("business-10up-letter")))
    dpi = 100
    pdf = pdfium.PdfDocument(str(result.path))
    front = pdf[0].render(scale=dpi / 72).to_pil().convert("RGB")
    back = pdf[1].render(scale=dpi / 72).to_pil().convert("RGB")
    front.save(tmp_path / "front.png")   # to look at when the test fails

    def px(image, x_mm, top_mm):   # top_mm: from the page's top, as the layout measures
        return image.getpixel((round(x_mm / 25.4 * dpi), round(top_mm / 25.4 * dpi)))

    for i in range(10):
        r, c = divmod(i, 2)
        x, top = 19.05 + c * 88.9, 12.7 + r * 50.8
        assert px(front, x + 10, top + 40) == pytest.approx(RED, abs=10), f"card {i}"
        assert px(back, 215.9 - x - 10, top + 40) == pytest.approx(BLUE, abs=10), f"back of card {i}"
    for x, top in ((19.05 - 1, 100), (19.05 + 2 * 88.9 + 1, 100), (100, 12.7 - 1), (100, 279.4 - 12.7 + 1)):
        assert px(front, x, top) == (255, 255, 255), (x, top)   # no bleed on die-cut stock


def test_butted_cards_with_bleed_share_a_cut_and_bleed_into_an_empty_neighbour(tmp_path):
    """A 2 x 2 butted poker layout with 3 mm bleed and crop marks: the bleed is on the outer
    edges only; on a part-filled sheet the edge next to an empty slot gets it too."""
    path = _layout_file(tmp_path, "paper: a4\ncard_size: poker\n"
                                  "grid: {cols: 2, rows: 2, x: 30, y: 40}\nbleed: 3\n")
    layout = custom_layout.load(str(path))
    project = _game(tmp_path, 3, size="poker", paper="a4")
    result, = build_game(project, "mini", Options(out=tmp_path / "out", layout=layout))
    reader = PdfReader(result.path)
    H = 297
    front = page_geometry(reader, 0)
    clips = [tuple(v / MM for v in p.clip) for p in front.placements]
    card = (63.5, 88.9)
    y_top = H - 40 - 88.9        # page y (up) of the first row's trim bottom
    want = [
        (27, y_top, 3 + 63.5, 88.9 + 3),                   # left and top bleed; shared right, bottom
        (93.5, y_top - 3, 63.5 + 3, 88.9 + 3 + 3),         # right, top, and down into the empty slot
        (27, y_top - 88.9 - 3, 3 + 63.5 + 3, 88.9 + 3),    # left, bottom, and right into the empty slot
    ]
    for got, w in zip(clips, want):
        assert got == pytest.approx(w, abs=TOL / MM)
    got = trims(front.placements, card)
    assert got[1] == pytest.approx((93.5 * MM, y_top * MM, 63.5 * MM, 88.9 * MM), abs=TOL)
    # crop marks in line with every trim edge of the cards there, outside every clip
    marks = [ln for ln in front.lines if abs(ln[2] - 0.25) < 1e-6]
    xs = {round(a[0] / MM, 2) for a, b, _ in marks if abs(a[0] - b[0]) < 1e-6}
    ys = {round(a[1] / MM, 2) for a, b, _ in marks if abs(a[1] - b[1]) < 1e-6}
    assert xs == {30, 93.5, 157} and ys == {257, 168.1, 79.2}
    for (x0, y0), (x1, y1), _ in marks:
        for cx, cy, cw, ch in (p.clip for p in front.placements):
            assert max(x0, x1) <= cx + 1e-6 or min(x0, x1) >= cx + cw - 1e-6 or \
                max(y0, y1) <= cy + 1e-6 or min(y0, y1) >= cy + ch - 1e-6, "crop mark over a card"
    assert_registered(front, page_geometry(reader, 1), card, 210 * MM, H * MM, "long")


def test_turned_slots_and_a_deck_of_the_layouts_size_turned(tmp_path):
    """A slot with rotate: 90 holds its card on its side, top to the page's left; a deck whose
    cards are the layout's turned 90 degrees goes on it a quarter turn more."""
    path = _layout_file(tmp_path, "paper: letter\ncard_size: business\nbleed: 0\ncrop_marks: false\nslots:\n"
                                  "  - {x: 20, y: 20}\n  - {x: 20, y: 80, rotate: 90}\n")
    layout = custom_layout.load(str(path))
    H = 279.4
    for size, turns in (("business", (0, 90)), ("[50.8, 88.9]", (90, 180))):
        out = tmp_path / f"out-{turns[0]}"
        project = _game(tmp_path / str(turns[0]), 2, size=size)
        result, = build_game(project, "mini", Options(out=out, layout=layout))
        reader = PdfReader(result.path)
        front = page_geometry(reader, 0)
        card = BUSINESS if turns[0] == 0 else BUSINESS[::-1]
        got = trims(front.placements, card)
        assert got[0] == pytest.approx((20 * MM, (H - 20 - 50.8) * MM, 88.9 * MM, 50.8 * MM), abs=TOL)
        assert got[1] == pytest.approx((20 * MM, (H - 80 - 88.9) * MM, 50.8 * MM, 88.9 * MM), abs=TOL)
        for p, turn in zip(front.placements, turns):
            a, b = p.matrix[:2]   # where the card's x axis points on the page
            assert (round(a), round(b)) == {0: (1, 0), 90: (0, 1), 180: (-1, 0)}[turn]
        for flip in ("long", "short"):
            result, = build_game(project, "mini", Options(out=out / flip, layout=layout, flip=flip))
            reader = PdfReader(result.path)
            assert_registered(page_geometry(reader, 0), page_geometry(reader, 1), card, 215.9 * MM, H * MM, flip)


def test_place_is_pure_geometry_with_backs_mirrored_for_the_flip_edge():
    W, H = 210, 297
    positions = [(10, 20, 0), (80, 20, 90), (10, 150, 180), (120, 150, 270)]
    for flip in ("long", "short"):
        sheet = place((W, H), (63.5, 88.9), positions, 2, 5, flip)
        assert sheet.butted == ((), (), (), ())
        for front, back in zip(sheet.fronts, sheet.backs):
            x, y, w, h = front.trim
            want = (W - x - w, y, w, h) if flip == "long" else (x, H - y - h, w, h)
            assert back.trim == pytest.approx(want)
            assert front.clip == pytest.approx((x - 2, y - 2, w + 4, h + 4))
        assert [s.turned for s in sheet.fronts] == [False, True, False, True]
        assert sheet.fronts[1].trim == pytest.approx((80, H - 20 - 63.5, 88.9, 63.5))


# --- a game's decks of other sizes ------------------------------------------------------------

def test_only_decks_of_the_layouts_size_use_it(project, tmp_path):
    """Swarm on the poker preset: its two poker decks go 9 to an A4 sheet; the player aids
    keep the automatic imposition, with a note; packed tokens are unaffected and say nothing."""
    results = {r.id: r for r in build_game(project, "swarm", Options(
        out=tmp_path, layout=custom_layout.load("poker-9up-a4"), rulebook=False))}
    for deck in ("common", "optional"):
        assert results[deck].per_sheet == 9
        box = PdfReader(results[deck].path).pages[0].mediabox
        assert (float(box.width), float(box.height)) == pytest.approx((210 * MM, 297 * MM), abs=0.01)
    notes = [str(w) for r in results.values() for w in r.warnings]
    assert any("aids.yaml" in n and "177.8 x 127 mm cards are not the 63.5 x 88.9 mm of layout poker-9up-a4" in n
               for n in notes), notes
    assert not any("counters" in n or "markers" in n for n in notes)
    assert results["aids"].per_sheet == 2   # as before
    assert float(PdfReader(results["aids"].path).pages[0].mediabox.width) == pytest.approx(215.9 * MM, abs=0.01)


def test_a_card_inside_the_printer_margin_is_warned_at_its_line(tmp_path):
    path = _layout_file(tmp_path, "paper: letter\ncard_size: business\nbleed: 0\nslots:\n"
                                  "  - {x: 20, y: 20}\n  - {x: 2, y: 100}\n")
    project = _game(tmp_path, 2)
    result, = build_game(project, "mini", Options(out=tmp_path / "out", layout=custom_layout.load(str(path))))
    notes = [str(w) for w in result.warnings]
    assert any(n.startswith(f"warning: {path}:6: slots[1]: the card at x 2, y 100 mm reaches into the printer's "
                            "5 mm margin") for n in notes), notes


# --- bad layouts: located errors, exit status 2, nothing written --------------------------------

def cli_build(root: Path, *args) -> Ran:
    return pnpgen("--root", root, "build", *args, "--out", root / "out", cwd=root)


GOOD = "paper: letter\ncard_size: business\nbleed: 0\ncrop_marks: false\n"


@pytest.mark.parametrize("text,line,needles", [
    (GOOD + "slots:\n  - {x: 20, y: 20}\n  - {x: 60, y: 40}\n", 7,
     ["slots[1]: the card at x 60, y 40 mm overlaps slots[0] (at x 20, y 20 mm)"]),
    (GOOD + "slots:\n  - {x: 20, y: 20}\n  - {x: 150, y: 20}\n", 7,
     ["slots[1]: the card at x 150, y 20 mm runs off the 215.9 x 279.4 mm page", "x 150..238.9"]),
    (GOOD + "grid: {cols: 2, rows: 5, x: 19.05, y: 12.7, dx: 80}\n", 5,
     ["grid: card 2 (row 1, column 2, at x 99.05, y 12.7 mm) overlaps card 1 (row 1, column 1)",
      "dx 80 mm is less than the card's width, 88.9 mm"]),
    ("paper: letter\ncard_size: business\nbleed: 2\nslots:\n  - {x: 20, y: 20}\n  - {x: 110, y: 20}\n", 6,
     ["slots[1]: the card at x 110, y 20 mm is too close to slots[0]", "for 2 mm bleed: leave 4 mm between"]),
    (GOOD + "crop_mark: true\ngrid: {cols: 2, rows: 5, x: 19.05, y: 12.7}\n", 5,
     ["unknown key 'crop_mark' (did you mean 'crop_marks'?)"]),
    (GOOD + "grid: {cols: 2, rows: 5, x: 19.05, y: 12.7, dxx: 3}\n", 5,
     ["grid: unknown key 'dxx' (did you mean 'dx'?)"]),
    (GOOD.replace("letter", "leter") + "grid: {cols: 2, rows: 5, x: 19.05, y: 12.7}\n", 1,
     ["paper: unknown paper 'leter' (did you mean 'letter'?)"]),
    (GOOD, 1, ["give the card positions as slots: [{x, y}, ...] or as grid: {cols, rows, x, y}"]),
])
def test_a_bad_layout_is_refused_at_its_line(tmp_path, text, line, needles):
    _game(tmp_path, 3)
    path = _layout_file(tmp_path, text)
    proc = cli_build(tmp_path, "--layout", str(path))
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith(f"{path.name}:{line}: ")]  # shown from the cwd
    assert any(all(n in ln for n in needles) for ln in lines), proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_layout_for_cards_no_deck_has_is_refused_naming_both_sizes(tmp_path):
    _game(tmp_path, 3, size="poker")
    path = _layout_file(tmp_path, GOOD + "grid: {cols: 2, rows: 5, x: 19.05, y: 12.7}\n", "die-cut.yaml")
    proc = cli_build(tmp_path, "--layout", str(path))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert f"{path.name}:2: card_size: layout die-cut is for 88.9 x 50.8 mm cards; no card deck of mini has that size " \
           "either way round (deck 63.5 x 88.9 mm)" in proc.stderr
    assert not [p for p in (tmp_path / "out").rglob("*") if p.is_file()]


@pytest.mark.parametrize("spec,needle", [
    ("poker-9up", "--layout: unknown layout 'poker-9up' (did you mean 'poker-9up-a4'?)"),
    ("missing.yaml", "missing.yaml: no such layout file"),
    (".", ".: a layout is a .yaml file, and this is not a regular file"),
])
def test_an_unknown_layout_is_refused(tmp_path, spec, needle):
    _game(tmp_path, 3)
    proc = cli_build(tmp_path, "--layout", spec)
    assert proc.returncode == 2 and needle in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_preset_builds_from_the_command_line(tmp_path):
    _game(tmp_path, 12)
    proc = cli_build(tmp_path, "--layout", "business-10up-letter")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    reader = PdfReader(tmp_path / "out" / "mini" / "deck.pdf")
    assert len(reader.pages) == 4 and len(page_geometry(reader, 0).placements) == 10


def test_layout_errors_are_input_errors_in_the_api(tmp_path):
    path = _layout_file(tmp_path, GOOD + "slots:\n  - {x: 20, y: 20}\n  - {x: 20, y: 20}\n")
    with pytest.raises(InputError) as err:
        custom_layout.load(str(path))
    assert err.value.problems[0].line == 7


def test_the_reference_documents_layouts():
    from pnpgen.schema import reference
    text = reference.text("layout")
    for key in ("paper: paper", "card_size: size", "slots: list of slot", "grid: grid", "bleed: number = 0",
                "crop_marks: true/false = true", "flip:"):
        assert key in text, key
    assert "rotate: 0 or 90 or 180 or 270 = 0" in reference.text("layout.slot")
    assert "## layout.grid" in reference.markdown()
    assert (ROOT / "docs" / "reference.md").read_text(encoding="utf-8").strip() == reference.markdown().strip()


def test_game_yaml_names_a_layout_preset_or_a_file_in_its_folder(tmp_path):
    project = _game(tmp_path, 12)
    game_yaml = tmp_path / "cards" / "mini" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text() + "layout: business-10up-letter\n")
    (result,) = build_game(project, "mini", Options(out=tmp_path / "out"))
    assert result.per_sheet == 10 and result.sheets == 2
    (tmp_path / "cards" / "mini" / "my-stock.yaml").write_text(GOOD + "grid: {cols: 2, rows: 2, x: 20, y: 20}\n")
    game_yaml.write_text(game_yaml.read_text().replace("business-10up-letter", "my-stock.yaml"))
    (result,) = build_game(project, "mini", Options(out=tmp_path / "out"))
    assert result.per_sheet == 4
    game_yaml.write_text(game_yaml.read_text().replace("my-stock.yaml", "busines-10up-letter"))
    with pytest.raises(InputError) as err:
        build_game(project, "mini", Options(out=tmp_path / "out2"))
    (problem,) = err.value.problems
    assert str(problem.path).endswith("game.yaml") and problem.line == 6 and "did you mean 'business-10up-letter'" \
        in problem.message
    game_yaml.write_text(game_yaml.read_text().replace("busines-10up-letter", "../outside.yaml"))
    with pytest.raises(InputError) as err:
        build_game(project, "mini", Options(out=tmp_path / "out2"))
    assert "outside the game folder" in str(err.value)
