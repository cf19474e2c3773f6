"""Rulebook typesetting read back from the built PDFs: the space before styled text, table
columns that never break a number or a short word, `:icon:`s drawn inside rulebook text (and
text pulled from card data), and cropped figures whose text layer holds only what they show."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest
from pypdf import PdfReader

from pnpgen.build import Options, Project, build_game, load
from pnpgen.errors import InputError
from pnpgen.rulebook.tables import MIN_SIZE

from .clirun import pnpgen
from .minigame import make_game

COIN = (0xd4, 0xa0, 0x17)
GAME = f"""title: Mini Quest
code: MQ
icons:
  coin: {{size: [10, 10], elements: [{{circle: {{x: 5, y: 5, r: 5, fill: "#{''.join(f'{c:02x}' for c in COIN)}"}}}}]}}
"""
DECK = """name: Heroes
template: face
fields:
  title: {required: true}
  effect: {}
cards:
  - {title: Knight, effect: "Gain 2 :coin: at once."}
  - {title: Cleric, effect: "Pay 1 :moon: to heal."}
"""
FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#2a6f3a", bleed: true}
  - text: {x: 5, y: 10, w: 53.5, h: 12, text: "{{ title }}", size: 14, color: "#ffffff"}
"""


def mini(tmp_path, rules: str, templates: dict | None = None):
    folder = make_game(tmp_path, GAME, DECK, {"face": FACE, **(templates or {})})
    (folder / "rulebook.md").write_text(rules)
    return folder


def build(tmp_path, **kw):
    results = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out", **kw))
    return next(r for r in results if r.id == "rulebook")


def flat(text: str) -> str:
    """Extracted text on one line: a hyphen the line breaker added (U+FFFE) joins its word."""
    return " ".join(re.sub("\ufffe\\s*", "", text).split())


def pypdf_text(path) -> str:
    return flat(" ".join(page.extract_text() for page in PdfReader(path).pages))


def rulebook_of(built, game):
    return next(r for r in built[game] if r.id == "rulebook").path


@functools.lru_cache(maxsize=None)
def _bundled_text(path: Path) -> str:
    return pypdf_text(path)


def bundled_rulebook_text(built, game) -> str:
    """pypdf_text of the session's rulebook of `game`, read once (the session's build is only read)."""
    return _bundled_text(rulebook_of(built, game))


# --- the space before styled text ---------------------------------------------------------

@pytest.mark.parametrize("game, phrase", [
    ("swamped", "The Croc moves at two moments: after the Boat has moved"),   # **after ...**
    ("swamped", "Deal yourself 4 cards."),                                    # **4 cards**
    ("swarm", "the Evolutions Swarm and Hive"),                               # *Swarm*, *Hive*
    ("bad-maps", "For example, Fog Bank reads"),                              # *Fog Bank* after a line break
])
def test_the_space_before_bold_or_italic_text_is_kept_in_the_bundled_rulebooks(built, game, phrase):
    assert phrase in bundled_rulebook_text(built, game)


def test_every_space_before_and_after_styled_words_survives(tmp_path):
    # long (hyphenatable) words right before and after bold, italic, code and struck-out text
    words = ["Evolutions", "characteristically", "yourself", "moments:", "example,", "incomprehensible",
             "extraordinarily", "reconstruction"]
    marks = ["**{}**", "*{}*", "~~{}~~", "**{}**"]
    parts = [marks[i % len(marks)].format(w) if i % 3 == 1 else w for i, w in enumerate(words * 25)]
    mini(tmp_path, "# Words\n\n" + " ".join(parts) + "\n")
    result = build(tmp_path)
    text = flat(pdfium.PdfDocument(str(result.path))[2].get_textpage().get_text_range())
    assert " ".join(words * 25) in text


# --- tables -------------------------------------------------------------------------------

def test_no_number_or_word_of_the_champion_table_is_split(built, project):
    champions = load(project, "swamp-monsters").decks
    (deck,) = [d for d in champions if d.id == "champions"]
    cells = [["Champion", "Faction", "PP", "CFC", "Morale", "Influence"]]
    for card in deck.cards:
        f = card.fields
        title = f["title"] + (" (President)" if f.get("president") else "")
        cells.append([title, f["faction"], str(f["pp"]), str(f["start_cfc"]), str(f["start_mc"]),
                      str(f["start_inf"])])
    words = [w for row in cells for cell in row for w in cell.split()]
    pdf = pdfium.PdfDocument(str(rulebook_of(built, "swamp-monsters")))
    texts = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    page = next(t for t in texts if "Champion Faction PP CFC Morale Influence" in t)
    table = page[page.index("Champion Faction PP"):page.index("A turn is one player")]
    assert "\ufffe" not in table                      # no word hyphenated in a cell
    lines = table.split()                            # every token a whole word of a cell...
    assert sorted(lines) == sorted(words)             # ...and every word of every cell there once
    assert len(deck.cards) == 4 and "5000" in lines


TABLE = """# Scores

| Player | Wins | Losses | Draws | Points | Total |
|---|---|---|---|---|---|
| Magnificent Margaret | 12000 | 3500 | 250 | 98765 | 105000 |
| Bartholomew | 9 | 11 | 3 | 4500 | 4500 |
"""


def _table_words(text: str) -> list[str]:
    rows = [r.strip("|").split("|") for r in text.splitlines() if r.startswith("|") and "---" not in r]
    return [w for row in rows for cell in row for w in cell.split()]


def _table_tokens(path) -> tuple[list[str], set[float]]:
    """The words of the rules page from the table's first heading on, and their type sizes."""
    tp = pdfium.PdfDocument(str(path))[2].get_textpage()
    text = tp.get_text_range()
    start = text.index("Player")
    sizes = {round(pdfium_raw.FPDFText_GetFontSize(tp.raw, i), 2) for i in range(start, len(text))
             if not text[i].isspace()}
    return text[start:].split(), sizes


def test_a_cramped_table_is_set_tighter_never_breaking_a_number(tmp_path):
    mini(tmp_path, TABLE)
    result = build(tmp_path)
    tokens, sizes = _table_tokens(result.path)
    assert tokens == _table_words(TABLE)              # row by row, each number and name whole
    assert sizes == {9.0} and not result.warnings


def test_a_table_too_wide_for_its_column_shrinks_its_type_down_to_a_floor(tmp_path):
    wide = TABLE.replace("| Total |", "| Total | Average | Longest |").replace("|---|---|---|---|---|---|",
                                                                            "|---|---|---|---|---|---|---|---|")
    wide = wide.replace("105000 |", "105000 | 33333 | 4444444 |").replace("4500 |\n", "4500 | 1 | 2 |\n")
    mini(tmp_path, wide)
    result = build(tmp_path)
    tokens, sizes = _table_tokens(result.path)
    assert tokens == _table_words(wide)
    (size,) = sizes
    assert MIN_SIZE <= size < 9 and not result.warnings


def test_a_table_whose_words_cannot_fit_even_in_the_smallest_type_is_a_located_warning(tmp_path):
    header = "| " + " | ".join(f"Heading{i}" for i in range(14)) + " |\n|" + "---|" * 14 + "\n"
    rows = "| " + " | ".join(["incomprehensibilities"] * 14) + " |\n"
    rules = "# Wide\n\n" + header + rows
    mini(tmp_path, rules)
    result = build(tmp_path)
    (warning,) = result.warnings
    assert warning.line == 3 and "14 columns" in warning.message and "split the table" in warning.message
    with pytest.raises(InputError, match="--strict"):
        build(tmp_path, strict=True)


# --- icons --------------------------------------------------------------------------------

def _icon_drawn_after(path, phrase: str) -> bool:
    """Whether the icon's colour is drawn just right of `phrase`, within its line."""
    page = next(p for p in pdfium.PdfDocument(str(path)) if phrase in p.get_textpage().get_text_range())
    tp = page.get_textpage()
    i = tp.get_text_range().index(phrase) + len(phrase) - 1
    left, bottom, right, top = tp.get_charbox(i)
    scale, height = 4, page.get_size()[1]
    image = page.render(scale=scale).to_pil().convert("RGB")
    box = (int(right * scale), int((height - top - 3) * scale), int((right + 14) * scale), int((height - bottom + 3) * scale))
    return any(colour == COIN for _, colour in image.crop(box).getcolors(maxcolors=1 << 20))


def test_an_icon_in_card_text_pulled_into_the_rules_is_drawn_not_printed(tmp_path):
    mini(tmp_path, "# Cards\n\nThe Knight says: {{ card('deck', 'Knight').effect }} Coins :coin: are gold.\n")
    path = build(tmp_path).path
    text = pypdf_text(path)
    assert "The Knight says: Gain 2 at once. Coins are gold." in text and ":coin:" not in text
    assert _icon_drawn_after(path, "Gain 2") and _icon_drawn_after(path, "Coins")


def test_an_icon_in_backquotes_or_between_words_stays_text(tmp_path):
    mini(tmp_path, "# Cards\n\nWrite `:coin:` to draw a coin; at 10:30: or now:then: nothing is drawn.\n")
    text = pypdf_text(build(tmp_path).path)
    assert "Write :coin: to draw a coin; at 10:30: or now:then: nothing is drawn." in text


@pytest.mark.parametrize("rules, line", [
    ("# Cards\n\nThe moon :moon: rises.\n", 3),
    ("# Cards\n\nFirst.\n\nThe Cleric: {{ card('deck', 'Cleric').effect }}\n", 5),   # from the card's data
    ("# Cards\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | pay :mon: |\n", 6),
])
def test_an_unknown_icon_is_an_error_at_its_line(tmp_path, rules, line):
    mini(tmp_path, rules)
    run = pnpgen("--root", tmp_path, "build", "mini", "--out", tmp_path / "out", cwd=tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert re.search(rf"rulebook\.md:{line}: .*unknown icon ':mo\w*n:'", run.stderr), run.stderr
    assert "icons:" in run.stderr and "backquotes" in run.stderr
    assert not (tmp_path / "out" / "mini" / "rulebook.pdf").exists()


# --- cropped figures ----------------------------------------------------------------------

BOARD = """name: Island
size: [200, 200]
template: island
"""
ISLAND = """size: [200, 200]
code: false
elements:
  - rect: {x: 0, y: 0, w: 200, h: 200, fill: "#3a7ab0"}
  - text: {x: 5, y: 5, w: 60, h: 10, text: "NORTHWEST", size: 12}
  - text: {x: 130, y: 180, w: 60, h: 10, text: "SOUTHEAST", size: 12}
  - text: {x: 130, y: 5, w: 60, h: 10, text: "NORTHEAST", size: 12}
  - text: {x: 80, y: 40, w: 60, h: 10, text: "ACROSSTHEEDGE", size: 12}
  - text: {x: 30, y: 150, w: 60, h: 10, text: "SOUTHWEST :coin:", size: 12}
  - group: {x: 150, y: 60, rotate: 90, draw: [{text: {x: 0, y: 0, w: 40, h: 8, text: "TURNED", size: 10}}]}
"""
LABELS = ("NORTHWEST", "SOUTHEAST", "NORTHEAST", "ACROSSTHEEDGE", "SOUTHWEST", "TURNED")


def _figure_box(page, scale=2):
    """The board's blue on the rendered page, as a PDF box (left, bottom, right, top)."""
    image = page.render(scale=scale).to_pil().convert("RGB")
    blue = [(x, y) for y in range(0, image.height, 2) for x in range(0, image.width, 2)
            if image.getpixel((x, y)) == (0x3a, 0x7a, 0xb0)]
    xs, ys, h = [p[0] for p in blue], [p[1] for p in blue], page.get_size()[1]
    return min(xs) / scale, h - max(ys) / scale, max(xs) / scale, h - min(ys) / scale


def test_a_cropped_figure_carries_only_the_text_it_shows(tmp_path):
    folder = mini(tmp_path, "# Map\n\n![The north-west](<board:island?region=0,0,100,100&width=80>)\n\n"
                            "***\n\n![The whole island](<board:island?width=80>)\n", {"island": ISLAND})
    (folder / "boards").mkdir()
    (folder / "boards" / "island.yaml").write_text(BOARD)
    path = build(tmp_path).path
    pdf = pdfium.PdfDocument(str(path))
    crop, whole = pdf[2], pdf[3]
    text = crop.get_textpage().get_text_range()
    assert "NORTHWEST" in text
    assert not any(word in text for word in ("SOUTHEAST", "NORTHEAST", "SOUTHWEST", "TURNED"))
    # the label across the crop's right edge keeps the letters that reach into the view
    edge = next(w for w in text.split() if "ACROSS" in w)
    assert "ACROSSTHEEDGE".startswith(edge) and edge != "ACROSSTHEEDGE"
    left, bottom, right, top = _figure_box(crop)
    tp = crop.get_textpage()
    for word in ("NORTHWEST", edge):
        start = text.index(word)
        for i in range(start, start + len(word)):
            cl, cb, cr, ct = tp.get_charbox(i)
            assert cl < right and cr > left and bottom - 1 < (cb + ct) / 2 < top + 1, (word, i)
    assert all(label in whole.get_textpage().get_text_range() for label in LABELS)   # uncropped: all
    reader = PdfReader(path)
    assert "SOUTHEAST" not in reader.pages[2].extract_text()


def test_no_bundled_rulebook_prints_an_icon_name_between_colons(built, project, bundled_games):
    checked = 0
    for game in bundled_games:
        names = load(project, game).game.icons
        text = bundled_rulebook_text(built, game)
        assert not [n for n in names if f":{n}:" in text], game
        checked += bool(names)
    assert checked == len(bundled_games)
    # the Swamp Monsters resources table draws the CFC, Morale and Influence icons before their names
    path = rulebook_of(built, "swamp-monsters")
    page = next(p for p in pdfium.PdfDocument(str(path)) if "The money of the swamp" in p.get_textpage().get_text_range())
    tp, scale, height = page.get_textpage(), 3, page.get_size()[1]
    image = page.render(scale=scale).to_pil().convert("RGB")
    text = tp.get_text_range()
    for name in ("CFC,", "Morale", "Influence"):
        left, bottom, right, top = tp.get_charbox(text.index(name, text.index("What it does")))
        box = (int((left - 14) * scale), int((height - top - 2) * scale), int(left * scale), int((height - bottom + 2) * scale))
        colours = [c for _, c in image.crop(box).getcolors(maxcolors=1 << 20)]
        assert any(max(c) - min(c) > 80 for c in colours), name     # a coloured icon, not grey text
