"""The edges where print defects hide: a part-filled last sheet, characters no font has,
text that cannot fit, images in every mode Pillow opens, an output path that cannot be
written. Each test builds a small game of its own and reads the result back."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from pnpgen import presets
from pnpgen.build import Options, Project, build_game
from pnpgen.sheets.impose import apply, impose

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


# --- text: characters no font has, text that cannot fit -------------------------------------

TEXT_FRONT = """code: false
elements:
  - rect: {w: 999, h: 999, fill: '#ffffff', bleed: true}
  - text: {x: 10, y: 10, w: 43.5, h: 12, text: "{{ title }}", font: vera, size: 14, min_size: 12}
"""


def _text_game(tmp_path, title, extra_game=""):
    cards = f"  - {{title: {title!r}}}\n"
    return _game(tmp_path, 1, "poker", extra_game=extra_game, front=TEXT_FRONT, cards=cards)


def _ops_of(project):
    from pnpgen.build import load
    from pnpgen.game.expand import assign_numbers, expand
    from pnpgen.layout.layouter import Layouter
    game = load(project, "mini")
    layouter = Layouter(game, game.decks[0])
    (card,) = expand(game, game.decks[0], assign_numbers(game))
    return layouter, layouter.layout(card, card.front)


def test_a_character_the_font_lacks_comes_from_a_fallback_font(tmp_path):
    """Vera has no Greek; the default fallback (DejaVu, `sans`) has: the word is split into
    runs by font and nothing is reported."""
    from pnpgen import ops
    layouter, body = _ops_of(_text_game(tmp_path, "Alpha \u03b1\u03b2"))
    (text,) = [op for op in body if isinstance(op, ops.Text)]
    runs = [r for line in text.lines for r in line[2]]
    assert {r.font for r in runs if "\u03b1" in r.text} == {"sans"}
    assert {r.font for r in runs if "Alpha" in r.text} == {"vera"}
    assert layouter.warnings == []


def test_a_character_no_font_has_is_a_warning_at_the_card_naming_char_and_font(tmp_path):
    layouter, _ = _ops_of(_text_game(tmp_path, "King \u738b"))
    (warning,) = layouter.warnings
    assert str(warning.path).endswith("cards/mini/decks/deck.yaml") and warning.line == 7
    assert "'\u738b' (U+738B)" in warning.message and "vera" in warning.message and "sans" in warning.message
    assert warning.strict


def test_fallback_fonts_are_the_games_choice(tmp_path):
    layouter, _ = _ops_of(_text_game(tmp_path, "\u03b1", extra_game="fallback_fonts: []\n"))
    (warning,) = layouter.warnings
    assert "U+03B1" in warning.message and "(none)" in warning.message


def test_text_that_cannot_fit_stays_inside_its_box(tmp_path):
    from pnpgen import fonts, ops
    long = "An ever so long title that will never fit " * 3
    layouter, body = _ops_of(_text_game(tmp_path, long.strip()))
    (text,) = [op for op in body if isinstance(op, ops.Text)]
    assert text.size == 12  # min_size
    pt = 25.4 / 72
    for lx, baseline, runs in text.lines:
        right = max(lx + r.x + (fonts.width(r.text, r.font) * text.size * pt) for r in runs)
        assert lx >= 10 - 1e-6 and right <= 53.5 + 1e-3
    asc, desc = fonts.ascent_descent(layouter.res.font("vera"))
    assert text.lines[-1][1] - desc * text.size * pt <= 22 + 1e-6
    assert text.lines[-1][2][-1].text.endswith("\u2026")
    (warning,) = layouter.warnings
    assert "does not fit" in warning.message and "templates/mini/front.yaml:4: elements[1]" in warning.message


def _cli(project, *args):
    from .clirun import pnpgen
    return pnpgen("--root", project.root, *args)


@pytest.mark.parametrize("title,needle", [
    ("An ever so long title that will never fit in its box at all " * 2, "does not fit"),
    ("King \u738b", "U+738B")])
def test_strict_build_fails_on_text_cut_short_or_a_missing_character_and_writes_nothing(tmp_path, title, needle):
    project = _text_game(tmp_path, title)
    out = tmp_path / "out"
    loose = _cli(project, "build", "--out", str(out))
    assert loose.returncode == 0 and "warning: " in loose.stderr and needle in loose.stderr
    (out / "mini" / "deck.pdf").unlink()
    (out / "mini" / "manifest.json").unlink()    # (written with it)
    cache = out / ".cache" / "pages.sqlite"      # the loose build's; the failed one must not touch it
    kept = cache.read_bytes()
    strict = _cli(project, "build", "--strict", "--out", str(out))
    assert strict.returncode == 2 and "Traceback" not in strict.stderr
    assert "an error under --strict" in strict.stderr
    assert not any(p.is_file() for p in out.rglob("*") if p != cache), "a strict failure left files in out/"
    assert cache.read_bytes() == kept


# --- images in every mode Pillow opens -------------------------------------------------------

IMAGE_FRONT = """code: false
elements:
  - rect: {w: 999, h: 999, fill: '#ffffff', bleed: true}
  - image: {src: "art/{{ title }}", x: 10, y: 10, w: 40, h: 40, fit: stretch}
"""


def _image(mode):
    """A 16 x 16 image in `mode` whose pixels should print as the returned RGB colour, with
    the transparent half (if any) printing white over the white card."""
    from PIL import Image
    if mode == "I;16":
        return Image.new("I;16", (16, 16), 30000), "PNG", (117, 117, 117)
    if mode == "CMYK":
        return Image.new("CMYK", (16, 16), (0, 255, 255, 0)), "JPEG", (255, 0, 0)
    if mode == "L":
        return Image.new("L", (16, 16), 90), "PNG", (90, 90, 90)
    if mode == "RGB":
        return Image.new("RGB", (16, 16), (20, 120, 60)), "JPEG", (20, 120, 60)
    if mode == "RGBA":
        im = Image.new("RGBA", (16, 16), (30, 60, 200, 255))
    elif mode == "LA":
        im = Image.new("LA", (16, 16), (60, 255))
    elif mode == "P":
        im = Image.new("P", (16, 16), 1)
        im.putpalette([255, 255, 255, 200, 30, 30] + [0] * 762)
        im.info["transparency"] = 0
    elif mode == "1":
        return Image.new("1", (16, 16), 0), "PNG", (0, 0, 0)
    for x in range(8, 16):  # the right half transparent
        for y in range(16):
            im.putpixel((x, y), (0, 0) if mode == "LA" else 0 if mode == "P" else (0, 0, 0, 0))
    colour = {"RGBA": (30, 60, 200), "LA": (60, 60, 60), "P": (200, 30, 30)}[mode]
    return im, "PNG", colour


MODES = ["RGB", "RGBA", "LA", "P", "L", "I;16", "CMYK", "1"]


def test_images_in_every_mode_print_their_colours(tmp_path):
    cards = "".join(f"  - {{title: {m.replace(';', '_')}.{'jpg' if m in ('CMYK', 'RGB') else 'png'}}}\n"
                    for m in MODES)
    project = _game(tmp_path, 1, "poker", front=IMAGE_FRONT, cards=cards)
    art = tmp_path / "cards" / "mini" / "art"
    art.mkdir()
    expected = {}
    for m in MODES:
        im, fmt, colour = _image(m)
        name = f"{m.replace(';', '_')}.{'jpg' if fmt == 'JPEG' else 'png'}"
        im.save(art / name, fmt, **({"quality": 100} if fmt == "JPEG" else {}))
        expected[m] = colour
    (result,) = build_game(project, "mini", Options(out=tmp_path / "out"))
    sheet = impose(presets.papers()["letter"], presets.card_sizes()["poker"], 3.175, 5)
    pages = [_render(result.path, 2 * s) for s in range(result.sheets)]
    for i, m in enumerate(MODES):
        page = pages[i // sheet.per_sheet]
        slot = sheet.fronts[i % sheet.per_sheet]
        # card mm (y down) -> page mm: left half of the image, and its transparent right half
        solid = apply(slot.transform, 20, 88.9 - 30)
        clear = apply(slot.transform, 45, 88.9 - 30)
        assert _px(page, sheet.page[1], *solid) == pytest.approx(expected[m], abs=14), m
        if m in ("RGBA", "LA", "P"):
            assert _px(page, sheet.page[1], *clear) == pytest.approx((255, 255, 255), abs=8), m


# --- an output folder that cannot be written ------------------------------------------------

def test_an_output_path_inside_a_file_is_a_clear_error(tmp_path):
    project = _game(tmp_path, 3, "poker")
    (tmp_path / "out").write_text("not a folder")
    proc = _cli(project, "build", "--out", str(tmp_path / "out" / "kit"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "cannot write" in proc.stderr and "--out" in proc.stderr


def test_a_folder_where_the_pdf_should_go_is_a_clear_error(tmp_path):
    project = _game(tmp_path, 3, "poker")
    (tmp_path / "out" / "mini" / "deck.pdf").mkdir(parents=True)
    proc = _cli(project, "build", "--out", str(tmp_path / "out"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "deck.pdf" in proc.stderr and "cannot write" in proc.stderr
    assert [p.name for p in (tmp_path / "out" / "mini").iterdir()] == ["deck.pdf"]  # no .part left


@pytest.mark.skipif(__import__("os").geteuid() == 0, reason="root can write into a read-only folder")
def test_a_read_only_output_folder_is_a_clear_error(tmp_path):
    project = _game(tmp_path, 3, "poker")
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o500)
    try:
        proc = _cli(project, "build", "--out", str(out))
    finally:
        out.chmod(0o700)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "cannot write" in proc.stderr


def test_a_template_named_icon_keeps_its_bleed(tmp_path):
    """Forms are told apart by what they are (a card face takes in the bleed, an icon does
    not), not by their names: a template called `icon` prints its bleed like any other."""
    game = "title: Edges\ncode: EDG\ncard_size: poker\nicons:\n  dot: {size: [10, 10], elements: [{circle: {x: 5, y: 5, r: 4, fill: black}}]}\n"
    deck = "name: D\ntemplate: icon\nfields:\n  title: {}\ncards:\n  - {title: A}\n"
    make_game(tmp_path, game, deck, {"icon": "code: false\nelements:\n"
                                             "  - rect: {w: 999, h: 999, fill: '#cc2222', bleed: true}\n"
                                             "  - text: {x: 10, y: 10, w: 40, h: 10, text: 'a :dot: b'}\n"})
    (result,) = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out"))
    sheet = impose(presets.papers()["letter"], presets.card_sizes()["poker"], 3.175, 5)
    page = _render(result.path, 0)
    x, y, w, h = sheet.fronts[0].trim
    assert _px(page, sheet.page[1], x - 1.5, y + h / 2) == pytest.approx(RED, abs=10)


@pytest.mark.parametrize("fmt", ["github", "json"])
def test_check_reports_an_input_error_once_in_machine_formats(tmp_path, fmt):
    project = _game(tmp_path, 3, "poker", cards="  - {title: A, colour: red}\n")
    proc = _cli(project, "check", "--format", fmt)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stdout.count("unknown field 'colour'") == 1
    assert "unknown field 'colour'" not in proc.stderr
